/* JIT-compiled reduction loops around a binary kernel f(acc, x): what
 * reduce/ runs for ufunc.reduce, ufunc.accumulate and @reduce kernels.
 *
 * Every function works on one accumulator dtype T (the kernel is typed on
 * (T, T); its result is converted to T), reads elements of T through a
 * byte stride and returns 0 or a uf__jit_status (fallible kernels). */
#ifndef UF_COMPILER_JIT_REDUCE_H
#define UF_COMPILER_JIT_REDUCE_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"

/* *acc = f(*acc, *b) */
typedef int (*uf__reduce_combine_fn)(void *acc, const void *b);
/* a = *acc; for i in [0, n): a = f(a, x[i]); *acc = a -- the sequential
 * order NumPy uses for a reduction that is not reorderable. */
typedef int (*uf__reduce_seq_fn)(void *acc, const char *x, int64_t n,
                                 int64_t stride);
/* *res = T(x[0..n)), n >= 1, x contiguous: the fixed pairwise tree. x is
 * cut into
 * blocks of UF__REDUCE_BLOCK elements; a block is reduced as NumPy's
 * pairwise_sum reduces one (fewer than 8 elements: left to right; else 8
 * accumulators r[j] over x[j], x[j+8], ..., combined as
 * ((r0 r1) (r2 r3)) ((r4 r5) (r6 r7)), then the remainder left to right);
 * blocks are combined as the binary tree that splits a run of k > 1
 * blocks after the largest power of two below k. The tree depends only on
 * n: a caller may compute T of the two halves of that split anywhere
 * (another thread) and combine them, with the same result; strided runs
 * are reduced by gathering aligned pieces of a power-of-two number of
 * blocks (reduce_exec.c), with the same result too. */
typedef int (*uf__reduce_tree_fn)(void *res, const char *x, int64_t n);
/* An outer axis reduced into a contiguous row: for j in [0, n),
 * out[j] = f(...f(out[j], x[j])..., x[(R-1) * rs / sizeof(T) + j]) for the
 * R = UF__REDUCE_ROWS rows x, x + rs, ...: R passes of the binary loop in
 * one, out[j] kept in a register between rows (AMD EPYC, sum over axis 0
 * of a 1e4 x 1e4 float64 array: 1.5x faster than row by row in a C
 * model; 8 rows no faster than 4). out must not overlap the rows. */
typedef int (*uf__reduce_rows_fn)(void *out, const char *x, int64_t n,
                                  int64_t rs);

#define UF__REDUCE_BLOCK 128
#define UF__REDUCE_LANES 8
#define UF__REDUCE_ROWS 4
/* Symbols of one compiled op: combine, seq, binary, rows, tree. */
#define UF__JIT_REDUCE_MAXSYMS 5

typedef struct uf__jit_reduce_fns {
    uf__reduce_combine_fn combine;
    uf__reduce_seq_fn seq;
    uf__reduce_tree_fn tree;  /* NULL unless asked for */
    /* The elementwise ufunc loop (T, T) -> T (ufunc/loop.h): reductions
     * along an outer axis run it with in1 = out, and accumulate with the
     * output shifted by one element. */
    uf__strided_loop binary;
    uf__reduce_rows_fn rows; /* NULL: the binary loop row by row */
} uf__jit_reduce_fns;

/* Compiles the functions above for `tf` (a kernel typed on (acc, acc)
 * returning a scalar); `tree` asks for the pairwise tree too (only
 * meaningful when f may be reassociated). `listing` may be NULL. */
int uf__jit_reduce(uf__jit *jit, const uf__typed_func *tf, uf_dtype acc,
                   bool tree, uf__jit_reduce_fns *fns,
                   uf__jit_listing *listing, uf_error *err);

/* uf__jit_reduce for the disk cache: the symbols named by `stem`
 * (uf__jit_disk_prefix), their names into names[0..4, or 5 with `tree`)
 * (combine, seq, binary, rows, tree: the order uf__jit_reduce_set reads), the
 * object file the JIT runs into *obj (free with uf__free). */
int uf__jit_reduce_obj(uf__jit *jit, const uf__typed_func *tf, uf_dtype acc,
                       bool tree, const char *stem, uf__jit_reduce_fns *fns,
                       char (*names)[UF__JIT_SYMBOL_MAX], char **obj,
                       size_t *objlen, uf_error *err);

/* fns from the addresses of those symbols, in that order (a disk hit). */
void uf__jit_reduce_set(uf__jit_reduce_fns *fns, void *const *addr,
                        bool tree);

/* lower_reduce_loop.c: emits <prefix>_combine, <prefix>_seq and, when
 * `tree`, <prefix>_tree (external) into L around `kernel` (lowered from a
 * function typed on (acc, acc) whose result dtype is `ret`). */
int uf__lower_reduce_loops(uf__lower *L, LLVMValueRef kernel, bool fallible,
                           uf_dtype acc, uf_dtype ret, bool tree,
                           const char *prefix, uf_error *err);

#endif
