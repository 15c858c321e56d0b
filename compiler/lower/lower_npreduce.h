/* Internals of the lowering of NumPy's reductions (lower_npreduce.c: the
 * walk over an array's rows, the scans and the entry points;
 * lower_npreduce_fold.c: sums, products, means, variances and dot
 * products, with the vector path). */
#ifndef UF_COMPILER_LOWER_NPREDUCE_H
#define UF_COMPILER_LOWER_NPREDUCE_H

#include "compiler/lower/lower_array.h"

#define UF__NPR_MAXND 64

static inline LLVMTypeRef uf__npr_i64(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static inline LLVMValueRef uf__npr_c64(uf__fn *F, long long v)
{
    return LLVMConstInt(uf__npr_i64(F), (unsigned long long)v, 1);
}

static inline bool uf__npr_is_cplx(uf_dtype d)
{
    return uf_dtype_kind(d) == 'c';
}

static inline bool uf__npr_is_flt(uf_dtype d)
{
    return uf_dtype_kind(d) == 'f';
}

/* p + off bytes (not inbounds: an empty reversed view's start). */
static inline LLVMValueRef uf__npr_gep(uf__fn *F, LLVMValueRef p,
                                       LLVMValueRef off)
{
    return LLVMBuildGEP2(F->L->b, LLVMInt8TypeInContext(F->L->ctx), p, &off, 1,
                         "");
}

/* An array operand taken apart (strides as uf__emit_array_stride gives
 * them: the layout's constants where it fixes them). */
typedef struct uf__npr_arr {
    LLVMValueRef data;
    LLVMValueRef shape[UF__NPR_MAXND], strides[UF__NPR_MAXND];
    int nd;
    uf_dtype dt;
} uf__npr_arr;

/* The number of elements. */
LLVMValueRef uf__npr_size(uf__fn *F, const uf__npr_arr *A);

/* for (i = start; i < end; i += step): open leaves the builder in the
 * body, close after it at the exit (where l->i is the first i that
 * failed the test). */
typedef struct uf__npr_loop {
    LLVMBasicBlockRef head, done;
    LLVMValueRef i;
} uf__npr_loop;
void uf__npr_loop_open(uf__fn *F, uf__npr_loop *l, LLVMValueRef start,
                       LLVMValueRef end);
void uf__npr_loop_close(uf__fn *F, uf__npr_loop *l, long long step);

/* What is done to one row: n elements from p, `stride` bytes apart. */
typedef void (*uf__npr_row_fn)(uf__fn *F, void *ctx, LLVMValueRef p,
                               LLVMValueRef n, LLVMValueRef stride);

/* Every row of A in C order; a C-contiguous array of several axes as one
 * row of all its elements (same order: a flat index stays C's). */
void uf__npr_each_row(uf__fn *F, const uf__npr_arr *A, uf__npr_row_fn fn,
                      void *ctx);

/* The array operand x taken apart; -1 with F->err set. */
int uf__npr_load(uf__fn *F, const uf__expr *x, uf__npr_arr *A);

/* min, max, argmin, argmax, all, any and the nan* scans of A (the
 * empty-array ValueErrors raised first). */
LLVMValueRef uf__npr_scan(uf__fn *F, uf__builtin b, const uf__npr_arr *A);

/* ---- lower_matmul.c: np.dot / `@` with a 2-D operand, a new array ---- */
LLVMValueRef uf__npr_matmul(uf__fn *F, const uf__expr *e,
                            const uf__npr_arr *X, const uf__npr_arr *Y);

/* ---- lower_npaxis.c: np.argmin / np.argmax over axis ax of x: a
 * scalar for 1-D x, else a new array; np.sum(x, axis=ax, dtype=) (ax
 * NULL when absent) as infer_npaxis.c typed e ---- */
LLVMValueRef uf__npr_axis(uf__fn *F, const uf__expr *e, uf__builtin b,
                          const uf__expr *x, const uf__expr *ax);
LLVMValueRef uf__npr_sum_call(uf__fn *F, const uf__expr *e,
                              const uf__expr *x, const uf__expr *ax);
/* The axis k (i64) of an nd-axis array wrapped into [0, nd) (not when
 * *bad, an i1: out of bounds), raising `status` when out of bounds:
 * UF__JIT_ARG_AXIS as is, UF__JIT_AXIS / UF__JIT_AXIS_VALUE with the
 * axis and nd recorded for the message. */
LLVMValueRef uf__npr_check_axis(uf__fn *F, int status, LLVMValueRef k,
                                int nd, LLVMValueRef *bad);

/* ---- lower_npcumsum.c: np.cumsum(a, axis=k) of the array value a (type
 * at) accumulated in acc: a new C array of a's shape ---- */
LLVMValueRef uf__npr_cumsum_axis(uf__fn *F, LLVMValueRef a,
                                 const uf__type *at, LLVMValueRef k,
                                 uf_dtype acc);

/* ---- lower_npextra.c: np.nanargmin/nanargmax, np.count_nonzero, np.ptp
 * (the call e of b), and whether such a call may raise ---- */
LLVMValueRef uf__npr_extra(uf__fn *F, const uf__expr *e, uf__builtin b);
bool uf__npr_extra_fallible(const uf__typed_func *tf, const uf__expr *e);
/* lower_npaxis.c: np.count_nonzero(x, axis=ax), np.sum of x != 0 */
LLVMValueRef uf__npr_count_call(uf__fn *F, const uf__expr *e,
                                const uf__expr *x, const uf__expr *ax);
/* lower_npextra.c: the number of nonzero elements of A (i64) */
LLVMValueRef uf__npr_count(uf__fn *F, const uf__npr_arr *A);
/* lower_npextra.c: whether the argmin-style scan b of dtype d takes the
 * vector path on a unit-stride row, and that path (see the definition):
 * the index the scalar loop goes on from. */
bool uf__npr_argvec_applies(uf__fn *F, uf__builtin b, uf_dtype d);
LLVMValueRef uf__npr_argvec(uf__fn *F, bool min, uf_dtype d, LLVMValueRef p,
                            LLVMValueRef n, LLVMValueRef stride,
                            LLVMValueRef base, LLVMValueRef mslot,
                            LLVMValueRef mislot, LLVMValueRef found);

/* ---- lower_npreduce_fold.c --------------------------------------------- */

/* np.sum / np.prod (mul) of A in dtype acc; nan_skip: NaN counts as the
 * identity (nansum, nanprod). */
LLVMValueRef uf__npr_sum(uf__fn *F, const uf__npr_arr *A, uf_dtype acc,
                         bool mul, bool nan_skip);
/* array_mean in acc (NaN when empty), array_var (float64). */
LLVMValueRef uf__npr_mean(uf__fn *F, const uf__npr_arr *A, uf_dtype acc);
LLVMValueRef uf__npr_var(uf__fn *F, const uf__npr_arr *A);
/* The dot product of two 1-D arrays of one dtype, over the first n
 * elements (conj: vdot). */
LLVMValueRef uf__npr_dot(uf__fn *F, const uf__npr_arr *X, const uf__npr_arr *Y,
                         LLVMValueRef n, bool conj);
/* x / n for an i64 count n (see the definition); NaN of d; isnan of a
 * value of d (false for ints and bools). */
LLVMValueRef uf__npr_div_count(uf__fn *F, LLVMValueRef x, uf_dtype d,
                               LLVMValueRef n);
LLVMValueRef uf__npr_nan(uf__fn *F, uf_dtype d);
LLVMValueRef uf__npr_isnan(uf__fn *F, LLVMValueRef v, uf_dtype d);

#endif
