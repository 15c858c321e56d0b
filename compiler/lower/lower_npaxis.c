/* np.sum(a, axis=k), np.argmin / np.argmax(a, axis=k) and their methods
 * (typed by infer_npreduce.c as Numba types them): k an integer known at
 * run time, negative counting from the end; out of range it raises as
 * Numba does (np.sum: AxisError naming the axis and the dimension; arg*:
 * ValueError). A 1-D array gives the whole-array result; an N-d one a
 * new C-contiguous array of the N-1 other axes (lower_alloc.c).
 *
 * np.sum walks the operand in its own C order, one row (the last axis)
 * at a time: when k is the last axis each row folds into one element
 * (the vector path of lower_npreduce_fold.c); otherwise each row is added
 * element by element into a row of the result, a unit-stride loop on both
 * sides for a C-contiguous operand (the sum over axis 0 adds whole rows,
 * never walks a column). The additions along the axis are in order, as
 * Numba's. argmin/argmax scan along axis k for each element of the
 * result (Numba: the first NaN wins, an axis of length 0 divides by it:
 * ZeroDivisionError). */
#include "common/error_internal.h"
#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npreduce.h"

#define B (F->L->b)

static LLVMValueRef icmp(uf__fn *F, LLVMIntPredicate p, LLVMValueRef a,
                         long long v)
{
    return LLVMBuildICmp(B, p, a, uf__npr_c64(F, v), "");
}

/* k wrapped into [0, nd), after the bounds check that raises. */
static LLVMValueRef normal_axis(uf__fn *F, uf__builtin b, LLVMValueRef k,
                                int nd)
{
    LLVMValueRef kn = LLVMBuildSelect(
        B, icmp(F, LLVMIntSLT, k, 0),
        LLVMBuildAdd(B, k, uf__npr_c64(F, nd), ""), k, "axis");
    LLVMValueRef bad = LLVMBuildOr(B, icmp(F, LLVMIntSLT, kn, 0),
                                   icmp(F, LLVMIntSGE, kn, nd), "");
    if (b != UF__BI_NP_SUM) {
        uf__fn_raise_if(F, bad, UF__JIT_ARG_AXIS);
    } else if (F->L->cg->sreg != NULL) {
        /* CUDA code calls no host helper: the AxisError unworded */
        uf__fn_raise_if(F, bad, UF__JIT_AXIS);
    } else if (F->fallible) {
        /* the AxisError names the axis: recorded by the runtime first */
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
                        UF__JIT_AXIS);
        LLVMBuildBr(B, ok);
        LLVMPositionBuilderAtEnd(B, ok);
    }
    /* where nothing may raise (NumPy's error model), axis 0 */
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

typedef struct sum_walk {
    const uf__npr_arr *A;
    uf_dtype acc;
    LLVMValueRef ostr[UF__NPR_MAXND]; /* the result's stride per axis of A
                                         (0 for the summed one) */
    LLVMValueRef last;                /* i1: the summed axis is the last */
    LLVMValueRef penult;              /* i1: ... the one before the last */
} sum_walk;

/* out[j] += row[j] for the n elements of one row. */
static void add_row(uf__fn *F, sum_walk *W, LLVMValueRef in, LLVMValueRef out,
                    LLVMValueRef n, LLVMValueRef istr, LLVMValueRef ostr)
{
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, uf__npr_c64(F, 0), n);
    LLVMValueRef x = uf__emit_elem_load(
        F, uf__npr_gep(F, in, LLVMBuildMul(B, l.i, istr, "")), W->A->dt);
    LLVMValueRef op = uf__npr_gep(F, out, LLVMBuildMul(B, l.i, ostr, ""));
    LLVMValueRef s = uf__emit_binop(
        F, UF__OP_ADD, W->acc, uf__emit_elem_load(F, op, W->acc),
        uf__emit_cast(F, x, W->A->dt, W->acc));
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
    uf__emit_elem_store(F, out, W->acc,
                        uf__npr_sum(F, &R, W->acc, false, false));
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
        v = uf__emit_binop(F, UF__OP_ADD, W->acc, v,
                           uf__emit_cast(F, x, A->dt, W->acc));
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
        /* the summed axis is this one, the rows contiguous: four rows
         * at a time into the one result row, the rest below */
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

static void sum_into(uf__fn *F, const uf__npr_arr *A, uf_dtype acc,
                     LLVMValueRef k, LLVMValueRef res, LLVMValueRef count)
{
    int nd = A->nd;
    sum_walk W = {.A = A, .acc = acc};
    LLVMValueRef data = uf__emit_array_data(F, res);
    LLVMValueRef osz = uf__npr_c64(F, uf_dtype_itemsize(acc));
    LLVMBuildMemSet(B, data, LLVMConstInt(LLVMInt8TypeInContext(F->L->ctx), 0,
                                          0),
                    LLVMBuildMul(B, count, osz, ""), 1);
    /* the result's C strides, then spread over A's axes */
    LLVMValueRef rstr[UF__NPR_MAXND];
    LLVMValueRef s = osz;
    for (int j = nd - 2; j >= 0; j--) {
        rstr[j] = s;
        s = LLVMBuildMul(B, s, uf__emit_array_dim(F, res, j), "");
    }
    LLVMValueRef zero = uf__npr_c64(F, 0);
    for (int d = 0; d < nd; d++) {
        LLVMValueRef v = d == 0        ? rstr[0]
                         : d == nd - 1 ? rstr[nd - 2]
                                       : LLVMBuildSelect(
                                             B, icmp(F, LLVMIntSGT, k, d),
                                             rstr[d], rstr[d - 1], "");
        W.ostr[d] = LLVMBuildSelect(B, icmp(F, LLVMIntEQ, k, d), zero, v, "");
    }
    W.last = icmp(F, LLVMIntEQ, k, nd - 1);
    W.penult = icmp(F, LLVMIntEQ, k, nd - 2);
    sum_nest(F, &W, 0, A->data, data);
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
    k = normal_axis(F, b, k, nd);
    uf_dtype acc, res;
    uf__npreduce_dtypes(b, A.dt, &acc, &res);
    bool sum = b == UF__BI_NP_SUM;
    if (nd == 1) { /* the whole array */
        LLVMValueRef r = sum ? uf__npr_sum(F, &A, acc, false, false)
                             : uf__npr_scan(F, b, &A);
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
    if (!sum) /* Numba's `size % m` with an axis of length 0 */
        uf__fn_raise_if(F, icmp(F, LLVMIntEQ, pick(F, A.shape, nd, k), 0),
                        UF__JIT_ZEROMOD_INT);
    LLVMValueRef count;
    LLVMValueRef arr = uf__lower_new_array(F, res, nd - 1, shape, &count);
    if (sum) {
        sum_into(F, &A, acc, k, arr, count);
        return arr;
    }
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
