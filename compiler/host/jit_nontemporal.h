/* The streaming variant of a vectorize signature's contiguous loop: the
 * same loop whose vector stores are non-temporal (x86 MOVNT), compiled
 * lazily for calls writing more than the caches hold (uf__loop_ctx.stream).
 * A normal store first reads the line it writes (write-allocate): a third
 * of a triad's memory traffic, all of a broadcast's reads. Measured with a
 * C loop on this machine's 2 threads, 10M float64: triad 10.2 -> 8.0 ms,
 * a write-only fill 5.2 -> 3.1 ms; through an L1 buffer copied out with
 * non-temporal stores the triad took 9-10.9 ms instead (the reads and the
 * streaming writes no longer overlap), hence a loop of its own. */
#ifndef UF_COMPILER_JIT_NONTEMPORAL_H
#define UF_COMPILER_JIT_NONTEMPORAL_H

#include <llvm-c/Core.h>

#include "compiler/types/infer.h"
#include "compiler/host/jit.h"
#include "compiler/host/jit_strided.h"

/* Compiles the streaming loop of `tf` (operand dtypes as
 * uf__jit_ufunc_contigs's): *fn gets `int fn(int64_t n, char **ptrs)`, run
 * like the contiguous loop (a blocked one, *blocked, through
 * uf__rt_blocked) but ONLY with every output pointer aligned to
 * UF__NT_ALIGN bytes. `strides` NULL: unit strides; else operand k's
 * element i is at ptrs[k] + i * strides[k] elements (outputs 1): a loop
 * for strided inputs, forced to vectorise (their loads become shuffles),
 * never blocked. UF_ERR_UNSUPPORTED when no store could be made
 * non-temporal (a loop that did not vectorise, outputs under 16 bytes a
 * vector) or a strided loop would be blocked. */
int uf__jit_ufunc_stream(uf__jit *jit, const uf__typed_func *tf,
                         const uf_dtype *out_types, const int64_t *strides,
                         uf__loop_contig_fn *fn, bool *blocked,
                         uf_error *err);

/* Makes every vector store of the optimised module's loops non-temporal
 * whose address is provably a multiple of its size (up to UF__NT_ALIGN)
 * once the stored-to pointer is UF__NT_ALIGN-aligned: a pointer loaded
 * from the loop's operands, indexed by the vectoriser's induction
 * variable from 0 in steps (and offsets) of whole vectors. Its alignment
 * becomes that size, so that the x86 backend emits MOVNT. Returns how many
 * stores it changed. */
int uf__jit_mark_nontemporal(LLVMModuleRef mod);

#endif
