/* Large array buffers in transparent huge pages, as NumPy's (it madvises
 * every buffer of 4 MiB or more). On a VM a TLB miss walks two page
 * tables: a read-only sum of 320 MB ran 1.6-1.8x faster in huge pages on
 * the Intel Xeon VM (session 29), and NumPy's arrays, which ufjit's peers
 * use, get them. UFJIT_MADVISE_HUGEPAGE=0 turns it off (NumPy's
 * NUMPY_MADVISE_HUGEPAGE). */
#ifndef UF_COMMON_HUGEPAGE_H
#define UF_COMMON_HUGEPAGE_H

#include <stdbool.h>
#include <stddef.h>

/* Buffers this large or larger are advised. */
#define UF__HUGEPAGE_MIN ((size_t)4 << 20)
/* The huge page size the start of a large buffer is aligned to. */
#define UF__HUGEPAGE_ALIGN ((size_t)2 << 20)

/* Whether large buffers are advised (the environment, read once). */
bool uf__hugepage_enabled(void);
/* Advises the whole pages of [p, p + nbytes) when the buffer is large and
 * advising is on; a failure (no THP in the kernel) changes nothing. */
void uf__hugepage_advise(void *p, size_t nbytes);

#endif
