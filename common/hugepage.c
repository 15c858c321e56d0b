/* Transparent huge pages for large buffers (hugepage.h). */
#include "common/hugepage.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

bool uf__hugepage_enabled(void)
{
    static atomic_int on = -1; /* not read yet */
    int v = atomic_load_explicit(&on, memory_order_relaxed);
    if (v < 0) {
        const char *e = getenv("UFJIT_MADVISE_HUGEPAGE");
        v = !(e && strcmp(e, "0") == 0);
        atomic_store_explicit(&on, v, memory_order_relaxed);
    }
    return v;
}

void uf__hugepage_advise(void *p, size_t nbytes)
{
#ifdef MADV_HUGEPAGE
    if (p == NULL || nbytes < UF__HUGEPAGE_MIN || !uf__hugepage_enabled())
        return;
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
    uintptr_t hi = ((uintptr_t)p + nbytes) & ~(page - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)nbytes;
#endif
}
