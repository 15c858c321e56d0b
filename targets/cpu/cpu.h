/* The host runtime: what generated host code calls (the loop dispatcher,
 * blocked and broadcast loops, complex helpers) and what the call
 * machinery runs a vectorize loop through. */
#ifndef UF_TARGETS_CPU_CPU_H
#define UF_TARGETS_CPU_CPU_H

#include "common/loop.h"

/* The dispatcher every generated ufunc loop tail-calls (UF__RT_LOOP):
 * contiguous, buffered or element by element, from the strides. Returns
 * contig's status. */
int uf__rt_loop(const uf__loop_desc *d, void *ctx, char *const *data,
                const int64_t *dims, const int64_t *strides);
/* The same as a uf__strided_loop whose aux is the descriptor. */
int uf__rt_ufunc_loop(void *ctx, char *const *data, const int64_t *dims,
                      const int64_t *strides, void *aux);

/* blk (a blocked contig of `block`) over n elements at ptrs[0..nargs),
 * the first nin inputs, of itemsize[k] bytes. */
int uf__rt_blocked(int (*blk)(int64_t, char **), int64_t n, char **ptrs,
                   int64_t block, int64_t nin, int64_t nargs,
                   const int64_t *itemsize);

/* The helpers generated host code calls by name, UF__RT_LOOP among them:
 * the JIT defines each as an absolute symbol. */
const uf__runtime_symbol *uf__cpu_runtime_symbols(int *n);

#endif
