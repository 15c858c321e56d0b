/* np.cumsum(a, axis=k) and a.cumsum(axis=k) (Numba's _numpy_cumsum_axis;
 * typed by infer_arrmeth.c): a new C array of a's shape whose element i
 * along axis k is the sum of a's elements 0..i along it, added in order
 * in the accumulator's dtype (dtype=, or Numba's: int64 for small ints
 * and bool, uint64 for unsigned; a bool one ors). k out of bounds raises
 * Numba's ValueError naming it.
 *
 * The walk is a's C order. When k is the last axis each row keeps a
 * running total; otherwise a row of the result is the row one step back
 * along k plus a's row (a's first row along k alone): a unit-stride loop
 * on both sides for a C-contiguous operand, which vectorises, so the
 * cumulative sum over axis 0 adds whole rows and never walks a column. */
#include "compiler/lower/lower_npreduce.h"

#define B (F->L->b)

typedef struct cum_walk {
    uf__npr_arr A;
    uf_dtype acc;
    LLVMValueRef rstr[UF__NPR_MAXND]; /* the result's C strides */
    LLVMValueRef isk[UF__NPR_MAXND];  /* i1: axis d is k */
    LLVMValueRef back; /* bytes back to the previous row along k */
} cum_walk;

static LLVMValueRef add(uf__fn *F, uf_dtype acc, LLVMValueRef x,
                        LLVMValueRef y)
{
    if (acc == UF_BOOL)
        return LLVMBuildOr(B, x, y, "");
    return uf__emit_binop(F, UF__OP_ADD, acc, x, y);
}

static LLVMValueRef elem(uf__fn *F, cum_walk *W, LLVMValueRef p,
                         LLVMValueRef i, LLVMValueRef stride)
{
    LLVMValueRef x = uf__emit_elem_load(
        F, uf__npr_gep(F, p, LLVMBuildMul(B, i, stride, "")), W->A.dt);
    return uf__emit_cast(F, x, W->A.dt, W->acc);
}

/* k is the last axis: a running total along the row. */
static void running_row(uf__fn *F, cum_walk *W, LLVMValueRef in,
                        LLVMValueRef out)
{
    int d = W->A.nd - 1;
    LLVMTypeRef at = uf__lower_dtype(F->L, W->acc);
    LLVMValueRef slot = uf__fn_alloca(F, at, "cum");
    LLVMBuildStore(B, LLVMConstNull(at), slot);
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, uf__npr_c64(F, 0), W->A.shape[d]);
    LLVMValueRef s = add(F, W->acc, LLVMBuildLoad2(B, at, slot, ""),
                         elem(F, W, in, l.i, W->A.strides[d]));
    LLVMBuildStore(B, s, slot);
    uf__emit_elem_store(
        F, uf__npr_gep(F, out, LLVMBuildMul(B, l.i, W->rstr[d], "")), W->acc,
        s);
    uf__npr_loop_close(F, &l, 1);
}

/* out[j] = prev[j] + in[j] (prev NULL: 0 + in[j]) for the row, the
 * input `istr` bytes apart. */
static void add_row(uf__fn *F, cum_walk *W, LLVMValueRef in, LLVMValueRef out,
                    LLVMValueRef prev, LLVMValueRef istr)
{
    int d = W->A.nd - 1;
    LLVMValueRef osz = W->rstr[d];
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, uf__npr_c64(F, 0), W->A.shape[d]);
    LLVMValueRef off = LLVMBuildMul(B, l.i, osz, "");
    LLVMValueRef base =
        prev ? uf__emit_elem_load(F, uf__npr_gep(F, prev, off), W->acc)
             : LLVMConstNull(uf__lower_dtype(F->L, W->acc));
    uf__emit_elem_store(F, uf__npr_gep(F, out, off), W->acc,
                        add(F, W->acc, base, elem(F, W, in, l.i, istr)));
    uf__npr_loop_close(F, &l, 1);
}

/* Both kinds of row of the result, the input's unit stride made a
 * constant where it is one. */
static void rows(uf__fn *F, cum_walk *W, LLVMValueRef in, LLVMValueRef out,
                 LLVMValueRef prev)
{
    int d = W->A.nd - 1;
    LLVMValueRef isz = uf__npr_c64(F, uf_dtype_itemsize(W->A.dt));
    LLVMBasicBlockRef unit = uf__fn_block(F, "cum.unit");
    LLVMBasicBlockRef any = uf__fn_block(F, "cum.strided");
    LLVMBasicBlockRef done = uf__fn_block(F, "cum.rowdone");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, W->A.strides[d], isz, ""),
                    unit, any);
    LLVMPositionBuilderAtEnd(B, unit);
    add_row(F, W, in, out, prev, isz);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, any);
    add_row(F, W, in, out, prev, W->A.strides[d]);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
}

/* The innermost axis; first: this row is the first along k. */
static void cum_row(uf__fn *F, cum_walk *W, LLVMValueRef in, LLVMValueRef out,
                    LLVMValueRef first)
{
    int d = W->A.nd - 1;
    LLVMBasicBlockRef run = uf__fn_block(F, "cum.run");
    LLVMBasicBlockRef other = uf__fn_block(F, "cum.rows");
    LLVMBasicBlockRef start = uf__fn_block(F, "cum.first");
    LLVMBasicBlockRef next = uf__fn_block(F, "cum.next");
    LLVMBasicBlockRef done = uf__fn_block(F, "cum.done");
    LLVMBuildCondBr(B, W->isk[d], run, other);
    LLVMPositionBuilderAtEnd(B, run);
    running_row(F, W, in, out);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, other);
    LLVMBuildCondBr(B, first, start, next);
    LLVMPositionBuilderAtEnd(B, start);
    rows(F, W, in, out, NULL);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, next);
    LLVMValueRef back = LLVMBuildNeg(B, W->back, "");
    rows(F, W, in, out, uf__npr_gep(F, out, back));
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
}

static void cum_nest(uf__fn *F, cum_walk *W, int d, LLVMValueRef in,
                     LLVMValueRef out, LLVMValueRef first)
{
    if (d == W->A.nd - 1) {
        cum_row(F, W, in, out, first);
        return;
    }
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, uf__npr_c64(F, 0), W->A.shape[d]);
    LLVMValueRef f = LLVMBuildOr(
        B, first,
        LLVMBuildAnd(B, W->isk[d],
                     LLVMBuildICmp(B, LLVMIntEQ, l.i, uf__npr_c64(F, 0), ""),
                     ""),
        "first");
    cum_nest(F, W, d + 1,
             uf__npr_gep(F, in, LLVMBuildMul(B, l.i, W->A.strides[d], "")),
             uf__npr_gep(F, out, LLVMBuildMul(B, l.i, W->rstr[d], "")), f);
    uf__npr_loop_close(F, &l, 1);
}

LLVMValueRef uf__npr_cumsum_axis(uf__fn *F, LLVMValueRef a,
                                 const uf__type *at, LLVMValueRef k,
                                 uf_dtype acc)
{
    cum_walk W = {.acc = acc};
    int nd = at->ndim;
    W.A.data = uf__emit_array_data(F, a);
    W.A.nd = nd;
    W.A.dt = at->dtype;
    for (int d = 0; d < nd; d++) {
        W.A.shape[d] = uf__emit_array_dim(F, a, d);
        W.A.strides[d] = uf__emit_array_stride(F, a, at, d);
    }
    LLVMValueRef bad;
    LLVMValueRef kn = uf__npr_check_axis(F, UF__JIT_AXIS_VALUE, k, nd, &bad);
    /* where nothing may raise (NumPy's error model), axis 0 */
    kn = LLVMBuildSelect(B, bad, uf__npr_c64(F, 0), kn, "");
    LLVMValueRef count;
    LLVMValueRef res = uf__lower_new_array(F, acc, nd, W.A.shape, &count);
    LLVMValueRef s = uf__npr_c64(F, uf_dtype_itemsize(acc));
    W.back = uf__npr_c64(F, 0);
    for (int d = nd - 1; d >= 0; d--) {
        W.rstr[d] = s;
        W.isk[d] = LLVMBuildICmp(B, LLVMIntEQ, kn, uf__npr_c64(F, d), "");
        W.back = LLVMBuildSelect(B, W.isk[d], s, W.back, "");
        s = LLVMBuildMul(B, s, W.A.shape[d], "");
    }
    cum_nest(F, &W, 0, W.A.data, uf__emit_array_data(F, res),
             LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0));
    return res;
}
