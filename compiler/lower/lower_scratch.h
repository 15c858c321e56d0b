/* Scratch arrays kept on the stack: which allocation sites of a kernel
 * may put their array in a buffer of the function's frame instead of a
 * heap block (lower_scratch.c says when), and how big those buffers are. */
#ifndef UF_COMPILER_LOWER_SCRATCH_H
#define UF_COMPILER_LOWER_SCRATCH_H

#include <stdbool.h>

#include "compiler/front/ast.h"

typedef struct uf__fn uf__fn;

/* Bytes of one site's buffer: an array up to this size lives on the
 * stack, a larger one from the same site on the heap. */
#define UF__SCRATCH_BYTES 2048
/* Bytes of such buffers one function may hold in all (a kernel's frame
 * runs on pool threads with stacks of a few MiB; callees inlined into it
 * add theirs). */
#define UF__SCRATCH_FRAME_BYTES 8192

/* Whether `call` (np.empty and the other fill calls) is a site whose
 * array may go on the stack, within F's budget. */
bool uf__scratch_site(uf__fn *F, const uf__expr *call);

#endif
