/* np.sum(a, axis=, dtype=) and a.sum(...) (typed by infer_npaxis.c),
 * np.argmin / np.argmax(a, axis=k) and their methods (infer_npreduce.c),
 * as Numba types and runs them. An axis is an integer or a tuple of
 * them known at run time, negative counting from the end; out of range
 * it raises as Numba does (np.sum: AxisError naming the axis and the
 * dimension, then ValueError for a duplicate in a tuple; arg*:
 * ValueError). Summing over every axis (or the one of a 1-D array)
 * gives the whole-array result; otherwise a new C-contiguous array of
 * the axes left (lower_alloc.c).
 *
 * np.sum walks the operand in its own C order, one row (the last axis)
 * at a time: when the last axis is summed each row folds into its
 * element (the vector path of lower_npreduce_fold.c); otherwise each row
 * is added element by element into a row of the result, a unit-stride
 * loop on both sides for a C-contiguous operand (the sum over axis 0
 * adds whole rows, never walks a column). The additions along the axes
 * are in order, as Numba's; dtype= is the accumulator (a bool one ors).
 * argmin/argmax scan along axis k for each element of the result
 * (Numba: the first NaN wins, an axis of length 0 divides by it:
 * ZeroDivisionError). */
#include "common/error_internal.h"
#include "compiler/lower/lower_arrmeth.h"
#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npreduce.h"

#define B (F->L->b)

static LLVMValueRef icmp(uf__fn *F, LLVMIntPredicate p, LLVMValueRef a,
                         long long v)
{
    return LLVMBuildICmp(B, p, a, uf__npr_c64(F, v), "");
}

LLVMValueRef uf__npr_check_axis(uf__fn *F, int status, LLVMValueRef k,
                                int nd, LLVMValueRef *bad_out)
{
    LLVMValueRef kn = LLVMBuildSelect(
        B, icmp(F, LLVMIntSLT, k, 0),
        LLVMBuildAdd(B, k, uf__npr_c64(F, nd), ""), k, "axis");
    LLVMValueRef bad = LLVMBuildOr(B, icmp(F, LLVMIntSLT, kn, 0),
                                   icmp(F, LLVMIntSGE, kn, nd), "");
    *bad_out = bad;
    if (status == UF__JIT_ARG_AXIS || F->L->cg->sreg != NULL) {
        /* argmin's ValueError; CUDA code calls no host helper: the
         * AxisError unworded */
        uf__fn_raise_if(F, bad, status);
    } else if (F->fallible) {
        /* the message names the axis: recorded by the runtime first */
        LLVMBasicBlockRef rec = uf__fn_block(F, "axis.bad");
        LLVMBasicBlockRef ok = uf__fn_block(F, "axis.ok");
        LLVMBuildCondBr(B, bad, rec, ok);
        LLVMPositionBuilderAtEnd(B, rec);
        LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
        LLVMValueRef args[2] = {k, LLVMConstInt(i32, (unsigned)nd, 0)};
        LLVMTypeRef pt[2] = {uf__npr_i64(F), i32};
        LLVMTypeRef fty =
            LLVMFunctionType(LLVMVoidTypeInContext(F->L->ctx), pt, 2, 0);
        LLVMBuildCall2(B, fty, F->L->cg->helper(F->L, UF__RT_AXIS_ERROR, fty),
                       args, 2, "");
        F->L->uses_runtime = true;
        uf__fn_raise_if(F, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1,
                                        0),
                        status);
        LLVMBuildBr(B, ok);
        LLVMPositionBuilderAtEnd(B, ok);
    }
    return kn;
}

/* k wrapped into [0, nd) after the bounds check that raises; where
 * nothing may raise (NumPy's error model), axis 0. */
static LLVMValueRef normal_axis(uf__fn *F, int status, LLVMValueRef k,
                                int nd)
{
    LLVMValueRef bad;
    LLVMValueRef kn = uf__npr_check_axis(F, status, k, nd, &bad);
    return LLVMBuildSelect(B, bad, uf__npr_c64(F, 0), kn, "");
}

/* v[d] for the run-time axis index d of nd values (select chain) */
static LLVMValueRef pick(uf__fn *F, LLVMValueRef *v, int nd, LLVMValueRef d)
{
    LLVMValueRef r = v[0];
    for (int i = 1; i < nd; i++)
        r = LLVMBuildSelect(B, icmp(F, LLVMIntEQ, d, i), v[i], r, "");
    return r;
}

/* ---- np.sum ---------------------------------------------------------- */

/* x + y in the accumulator's dtype; bools accumulate with `or`, as
 * Numba's sum into a bool dtype does. */
static LLVMValueRef acc_add(uf__fn *F, uf_dtype acc, LLVMValueRef x,
                            LLVMValueRef y)
{
    if (acc == UF_BOOL)
        return LLVMBuildOr(B, x, y, "");
    return uf__emit_binop(F, UF__OP_ADD, acc, x, y);
}

/* The sum of every element of A in acc (bool: any nonzero). */
static LLVMValueRef fold_all(uf__fn *F, const uf__npr_arr *A, uf_dtype acc)
{
    if (acc == UF_BOOL)
        return uf__npr_scan(F, UF__BI_NP_ANY, A);
    return uf__npr_sum(F, A, acc, false, false);
}

typedef struct sum_walk {
    const uf__npr_arr *A;
    uf_dtype acc;
    bool truth; /* np.count_nonzero: the elements' truth is summed */
    LLVMValueRef ostr[UF__NPR_MAXND]; /* the result's stride per axis of A
                                         (0 for the summed ones) */
    LLVMValueRef last;                /* i1: the last axis is summed */
    LLVMValueRef penult; /* i1: ... the one before it, and not the last */
} sum_walk;

/* The element x of A as the walk adds it. */
static LLVMValueRef term(uf__fn *F, const sum_walk *W, LLVMValueRef x)
{
    if (W->truth)
        return LLVMBuildZExt(B, uf__emit_truth(F, x, W->A->dt),
                             uf__lower_dtype(F->L, W->acc), "");
    return uf__emit_cast(F, x, W->A->dt, W->acc);
}

/* out[j] += row[j] for the n elements of one row. */
static void add_row(uf__fn *F, sum_walk *W, LLVMValueRef in, LLVMValueRef out,
                    LLVMValueRef n, LLVMValueRef istr, LLVMValueRef ostr)
{
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, uf__npr_c64(F, 0), n);
    LLVMValueRef x = uf__emit_elem_load(
        F, uf__npr_gep(F, in, LLVMBuildMul(B, l.i, istr, "")), W->A->dt);
    LLVMValueRef op = uf__npr_gep(F, out, LLVMBuildMul(B, l.i, ostr, ""));
    LLVMValueRef s =
        acc_add(F, W->acc, uf__emit_elem_load(F, op, W->acc), term(F, W, x));
    uf__emit_elem_store(F, op, W->acc, s);
    uf__npr_loop_close(F, &l, 1);
}

/* The innermost axis of A at in, the result at out. */
static void sum_row(uf__fn *F, sum_walk *W, LLVMValueRef in, LLVMValueRef out)
{
    const uf__npr_arr *A = W->A;
    int d = A->nd - 1;
    LLVMBasicBlockRef fold = uf__fn_block(F, "sum.fold");
    LLVMBasicBlockRef add = uf__fn_block(F, "sum.add");
    LLVMBasicBlockRef done = uf__fn_block(F, "sum.row");
    LLVMBuildCondBr(B, W->last, fold, add);
    LLVMPositionBuilderAtEnd(B, fold);
    uf__npr_arr R = {.data = in, .nd = 1, .dt = A->dt};
    R.shape[0] = A->shape[d];
    R.strides[0] = A->strides[d];
    /* the row folds into its element (which other summed axes share) */
    LLVMValueRef r =
        W->truth ? uf__npr_count(F, &R) : fold_all(F, &R, W->acc);
    uf__emit_elem_store(F, out, W->acc,
                        acc_add(F, W->acc,
                                uf__emit_elem_load(F, out, W->acc), r));
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, add);
    /* a contiguous row with constant strides, which vectorises */
    LLVMValueRef isz = uf__npr_c64(F, uf_dtype_itemsize(A->dt));
    LLVMValueRef osz = uf__npr_c64(F, uf_dtype_itemsize(W->acc));
    LLVMBasicBlockRef unit = uf__fn_block(F, "sum.unit");
    LLVMBasicBlockRef any = uf__fn_block(F, "sum.strided");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, A->strides[d], isz, ""),
                    unit, any);
    LLVMPositionBuilderAtEnd(B, unit);
    add_row(F, W, in, out, A->shape[d], isz, osz);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, any);
    add_row(F, W, in, out, A->shape[d], A->strides[d], W->ostr[d]);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
}

/* Rows i0 .. i0+3 of the last two axes, all summed into the one result
 * row at out, contiguous: out[j] = (((out[j] + r0[j]) + r1[j]) + r2[j]) +
 * r3[j], Numba's order of additions with a quarter of the result's
 * loads and stores. */
static void add_four_rows(uf__fn *F, sum_walk *W, LLVMValueRef in,
                          LLVMValueRef out)
{
    const uf__npr_arr *A = W->A;
    int d = A->nd - 2;
    LLVMValueRef isz = uf__npr_c64(F, uf_dtype_itemsize(A->dt));
    LLVMValueRef osz = uf__npr_c64(F, uf_dtype_itemsize(W->acc));
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, uf__npr_c64(F, 0), A->shape[d + 1]);
    LLVMValueRef op = uf__npr_gep(F, out, LLVMBuildMul(B, l.i, osz, ""));
    LLVMValueRef ip = uf__npr_gep(F, in, LLVMBuildMul(B, l.i, isz, ""));
    LLVMValueRef v = uf__emit_elem_load(F, op, W->acc);
    for (int r = 0; r < 4; r++) {
        LLVMValueRef x = uf__emit_elem_load(
            F,
            uf__npr_gep(F, ip, LLVMBuildMul(B, uf__npr_c64(F, r),
                                            A->strides[d], "")),
            A->dt);
        v = acc_add(F, W->acc, v, term(F, W, x));
    }
    uf__emit_elem_store(F, op, W->acc, v);
    uf__npr_loop_close(F, &l, 1);
}

static void sum_nest(uf__fn *F, sum_walk *W, int d, LLVMValueRef in,
                     LLVMValueRef out)
{
    if (d == W->A->nd - 1) {
        sum_row(F, W, in, out);
        return;
    }
    LLVMValueRef rest = uf__npr_c64(F, 0);
    LLVMBasicBlockRef join = NULL;
    if (d == W->A->nd - 2) {
        /* this axis is summed, the last not, the rows contiguous: four
         * rows at a time into the one result row, the rest below */
        LLVMValueRef isz = uf__npr_c64(F, uf_dtype_itemsize(W->A->dt));
        LLVMValueRef four = LLVMBuildAnd(
            B, W->penult,
            LLVMBuildICmp(B, LLVMIntEQ, W->A->strides[d + 1], isz, ""), "");
        LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
        LLVMBasicBlockRef quad = uf__fn_block(F, "sum.quad");
        join = uf__fn_block(F, "sum.rest");
        LLVMBuildCondBr(B, four, quad, join);
        LLVMPositionBuilderAtEnd(B, quad);
        uf__npr_loop q;
        uf__npr_loop_open(
            F, &q, uf__npr_c64(F, 0),
            LLVMBuildSub(B, W->A->shape[d], uf__npr_c64(F, 3), ""));
        add_four_rows(
            F, W,
            uf__npr_gep(F, in, LLVMBuildMul(B, q.i, W->A->strides[d], "")),
            out);
        uf__npr_loop_close(F, &q, 4);
        LLVMBasicBlockRef quad_end = LLVMGetInsertBlock(B);
        LLVMBuildBr(B, join);
        LLVMPositionBuilderAtEnd(B, join);
        rest = LLVMBuildPhi(B, uf__npr_i64(F), "rest");
        LLVMValueRef from[2] = {uf__npr_c64(F, 0), q.i};
        LLVMBasicBlockRef bbs[2] = {pre, quad_end};
        LLVMAddIncoming(rest, from, bbs, 2);
    }
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, rest, W->A->shape[d]);
    sum_nest(F, W, d + 1,
             uf__npr_gep(F, in, LLVMBuildMul(B, l.i, W->A->strides[d], "")),
             uf__npr_gep(F, out, LLVMBuildMul(B, l.i, W->ostr[d], "")));
    uf__npr_loop_close(F, &l, 1);
}

/* res (count elements of acc, C order over the axes not summed) = the
 * sums of A over the axes where summed[d] holds. */
static void sum_into(uf__fn *F, const uf__npr_arr *A, uf_dtype acc,
                     bool truth, const LLVMValueRef *summed, LLVMValueRef res,
                     LLVMValueRef count)
{
    int nd = A->nd;
    sum_walk W = {.A = A, .acc = acc, .truth = truth};
    LLVMValueRef data = uf__emit_array_data(F, res);
    LLVMValueRef osz = uf__npr_c64(F, uf_dtype_itemsize(acc));
    LLVMBuildMemSet(B, data, LLVMConstInt(LLVMInt8TypeInContext(F->L->ctx), 0,
                                          0),
                    LLVMBuildMul(B, count, osz, ""), 1);
    /* the result's C strides spread over A's axes, 0 on the summed */
    LLVMValueRef s = osz, zero = uf__npr_c64(F, 0);
    for (int d = nd - 1; d >= 0; d--) {
        W.ostr[d] = LLVMBuildSelect(B, summed[d], zero, s, "");
        s = LLVMBuildSelect(B, summed[d], s,
                            LLVMBuildMul(B, s, A->shape[d], ""), "");
    }
    W.last = summed[nd - 1];
    W.penult = LLVMBuildAnd(B, summed[nd - 2],
                            LLVMBuildNot(B, summed[nd - 1], ""), "");
    sum_nest(F, &W, 0, A->data, data);
}

/* The n axes of k[] (i64, as written) checked as Numba's array_sum does
 * (each in bounds, AxisError naming the first that is not; then no two
 * the same, ValueError) into summed[0..nd) (i1 per axis of A); where
 * nothing may raise, bad axes sum the first n. */
static void summed_axes(uf__fn *F, const LLVMValueRef *k, int n, int nd,
                        LLVMValueRef *summed)
{
    LLVMValueRef kn[UF__NPR_MAXND];
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    LLVMValueRef bad = LLVMConstInt(i1, 0, 0);
    for (int i = 0; i < n; i++) {
        LLVMValueRef b;
        kn[i] = uf__npr_check_axis(F, UF__JIT_AXIS, k[i], nd, &b);
        bad = LLVMBuildOr(B, bad, b, "");
    }
    LLVMValueRef dup = LLVMConstInt(i1, 0, 0);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            dup = LLVMBuildOr(B, dup,
                              LLVMBuildICmp(B, LLVMIntEQ, kn[i], kn[j], ""),
                              "");
    uf__fn_raise_if(F, dup, UF__JIT_AXIS_DUP);
    bad = LLVMBuildOr(B, bad, dup, "");
    for (int d = 0; d < nd; d++) {
        LLVMValueRef on = LLVMConstInt(i1, 0, 0);
        for (int i = 0; i < n; i++)
            on = LLVMBuildOr(B, on, icmp(F, LLVMIntEQ, kn[i], d), "");
        summed[d] = LLVMBuildSelect(B, bad, LLVMConstInt(i1, d < n, 0), on,
                                    "summed");
    }
}

/* The axes argument ax of type t as i64 values into k[]; their count. */
static int axes_values(uf__fn *F, const uf__expr *ax, const uf__type *t,
                       LLVMValueRef *k)
{
    LLVMValueRef v = uf__lower_expr(F, ax);
    if (!v)
        return -1;
    if (t->kind != UF__T_TUPLE) {
        k[0] = uf__emit_cast(F, v, t->dtype, UF_INT64);
        return 1;
    }
    for (int i = 0; i < t->n && i < UF__NPR_MAXND; i++)
        k[i] = uf__emit_cast(F, LLVMBuildExtractValue(B, v, (unsigned)i, ""),
                             t->elts[i]->dtype, UF_INT64);
    return t->n < UF__NPR_MAXND ? t->n : UF__NPR_MAXND;
}

/* np.sum(x, axis=ax), or with truth np.count_nonzero's sum of x != 0 */
static LLVMValueRef sum_call(uf__fn *F, const uf__expr *e, const uf__expr *x,
                             const uf__expr *ax, bool truth)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    const uf__type *rt = in->type, *xt = uf__lower_info(F, x)->type;
    const uf__type *axt = ax ? uf__lower_info(F, ax)->type : NULL;
    uf__npsum_axes kind = uf__npsum_axes_of(axt);
    if (!rt || !xt || !in->optype || kind == UF__NPSUM_BAD) {
        uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos,
                         "%s", "an untyped np.sum");
        return NULL;
    }
    uf_dtype acc = in->optype->dtype;
    if (xt->kind == UF__T_SCALAR) { /* Numba's: the number, converted */
        LLVMValueRef v = uf__lower_expr(F, x);
        return v ? uf__emit_cast(F, v, xt->dtype, rt->dtype) : NULL;
    }
    if (kind == UF__NPSUM_COPY) { /* axis=(): np.copy / a.astype */
        LLVMValueRef a = uf__lower_expr(F, x);
        return a ? uf__arrmeth_copy(F, a, xt, rt) : NULL;
    }
    uf__npr_arr A;
    if (uf__npr_load(F, x, &A) < 0)
        return NULL;
    LLVMValueRef k[UF__NPR_MAXND], summed[UF__NPR_MAXND];
    int n = kind == UF__NPSUM_WHOLE ? 0 : axes_values(F, ax, axt, k);
    if (n < 0)
        return NULL;
    summed_axes(F, k, n, A.nd, summed);
    if (rt->kind == UF__T_SCALAR)
        return uf__emit_cast(F, truth ? uf__npr_count(F, &A)
                                      : fold_all(F, &A, acc),
                             acc, rt->dtype);
    if (F->L->cg->sreg != NULL) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s", "a reduction over an axis allocates an "
                         "array, which CUDA kernels cannot do");
        return NULL;
    }
    /* the result's axes: those not summed, in order */
    int r = rt->ndim;
    LLVMValueRef shape[UF__NPR_MAXND];
    for (int j = 0; j < r; j++)
        shape[j] = uf__npr_c64(F, 0);
    LLVMValueRef before = uf__npr_c64(F, 0); /* axes kept before d */
    for (int d = 0; d < A.nd; d++) {
        LLVMValueRef kept = LLVMBuildNot(B, summed[d], "");
        for (int j = 0; j < r; j++)
            shape[j] = LLVMBuildSelect(
                B, LLVMBuildAnd(B, kept, icmp(F, LLVMIntEQ, before, j), ""),
                A.shape[d], shape[j], "");
        before = LLVMBuildAdd(
            B, before, LLVMBuildZExt(B, kept, uf__npr_i64(F), ""), "");
    }
    LLVMValueRef count;
    LLVMValueRef arr = uf__lower_new_array(F, acc, r, shape, &count);
    sum_into(F, &A, acc, truth, summed, arr, count);
    return arr;
}

LLVMValueRef uf__npr_sum_call(uf__fn *F, const uf__expr *e,
                              const uf__expr *x, const uf__expr *ax)
{
    return sum_call(F, e, x, ax, false);
}

LLVMValueRef uf__npr_count_call(uf__fn *F, const uf__expr *e,
                                const uf__expr *x, const uf__expr *ax)
{
    return sum_call(F, e, x, ax, true);
}

/* ---- np.argmin / np.argmax -------------------------------------------- */

static void arg_nest(uf__fn *F, uf__builtin b, const uf__npr_arr *R,
                     const uf__npr_arr *O, int d, LLVMValueRef in,
                     LLVMValueRef outslot)
{
    if (d == O->nd) {
        uf__npr_arr S = *R;
        S.data = in;
        LLVMValueRef v = uf__npr_scan(F, b, &S);
        LLVMValueRef op = LLVMBuildLoad2(B, LLVMTypeOf(O->data), outslot, "");
        uf__emit_elem_store(F, op, UF_INT64, v);
        LLVMBuildStore(B, uf__npr_gep(F, op, uf__npr_c64(F, 8)), outslot);
        return;
    }
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, uf__npr_c64(F, 0), O->shape[d]);
    arg_nest(F, b, R, O, d + 1,
             uf__npr_gep(F, in, LLVMBuildMul(B, l.i, O->strides[d], "")),
             outslot);
    uf__npr_loop_close(F, &l, 1);
}

/* ---- entry -------------------------------------------------------------- */

LLVMValueRef uf__npr_axis(uf__fn *F, const uf__expr *e, uf__builtin b,
                          const uf__expr *x, const uf__expr *ax)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    const uf__type *kt = uf__lower_info(F, ax)->type;
    uf__npr_arr A;
    if (uf__npr_load(F, x, &A) < 0)
        return NULL;
    LLVMValueRef k = uf__lower_expr(F, ax);
    if (!k)
        return NULL;
    k = uf__emit_cast(F, k, kt->dtype, UF_INT64);
    int nd = A.nd;
    k = normal_axis(F, UF__JIT_ARG_AXIS, k, nd);
    uf_dtype acc, res;
    uf__npreduce_dtypes(b, A.dt, &acc, &res);
    if (nd == 1) { /* the whole array */
        LLVMValueRef r = uf__npr_scan(F, b, &A);
        return r ? uf__emit_cast(F, r, res, rt->dtype) : NULL;
    }
    if (F->L->cg->sreg != NULL) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s", "a reduction over an axis allocates an "
                         "array, which CUDA kernels cannot do");
        return NULL;
    }
    /* the other axes, in order */
    LLVMValueRef shape[UF__NPR_MAXND], strides[UF__NPR_MAXND];
    for (int j = 0; j < nd - 1; j++) {
        LLVMValueRef before = icmp(F, LLVMIntSGT, k, j);
        shape[j] = LLVMBuildSelect(B, before, A.shape[j], A.shape[j + 1], "");
        strides[j] =
            LLVMBuildSelect(B, before, A.strides[j], A.strides[j + 1], "");
    }
    /* Numba's `size % m` with an axis of length 0 */
    uf__fn_raise_if(F, icmp(F, LLVMIntEQ, pick(F, A.shape, nd, k), 0),
                    UF__JIT_ZEROMOD_INT);
    LLVMValueRef count;
    LLVMValueRef arr = uf__lower_new_array(F, res, nd - 1, shape, &count);
    uf__npr_arr R = {.nd = 1, .dt = A.dt};
    R.shape[0] = pick(F, A.shape, nd, k);
    R.strides[0] = pick(F, A.strides, nd, k);
    uf__npr_arr O = {.data = uf__emit_array_data(F, arr), .nd = nd - 1};
    for (int j = 0; j < nd - 1; j++) {
        O.shape[j] = shape[j];
        O.strides[j] = strides[j];
    }
    LLVMValueRef slot = uf__fn_alloca(F, LLVMTypeOf(O.data), "argout");
    LLVMBuildStore(B, O.data, slot);
    arg_nest(F, b, &R, &O, 0, A.data, slot);
    return arr;
}
