/* np.cross, np.unwrap and np.select, typed by infer_npcross.c
 * (builtins.h: UF__NPCROSS_MAP), computed as Numba's arraymath.py
 * computes them:
 *   cross: Numba's checks in its order (a shape[-1] not 2 or 3, both 2,
 *     then leading axes that do not broadcast: ValueErrors), a new C
 *     array of the broadcast leading axes and 3, filled by one loop nest
 *     over the leading axes; each vector's components are converted to
 *     the result's dtype and combined as Numba's np.multiply /
 *     np.subtract do (a missing third component is 0 * x0 in the
 *     operand's dtype, NaN for an infinite x0, as Numba's; bools: and,
 *     then the difference's truth, a xor).
 *   cross2d: a shape[-1] not 2 (ValueError), then leading axes that do
 *     not broadcast (ValueError), a new C array of the broadcast leading
 *     axes (0-d for two vectors), a0 * b1 - a1 * b0 per element.
 * Arrays come from uf__lower_new_array (the frame owns them). */
#include <string.h>

#include "compiler/lower/lower.h"
#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npjoin.h"
#include "compiler/types/infer_npufunc.h"

#define B (F->L->b)

static LLVMValueRef c64(uf__fn *F, long long v)
{
    return uf__npr_c64(F, v);
}

static LLVMValueRef fail(uf__fn *F, const uf__expr *e, int code,
                         const char *what)
{
    uf__source_error(F->err, code, F->tf->km->src, e->pos, "%s", what);
    return NULL;
}

/* The argument at position pos or keyword name (infer_npcross.c bound
 * them); NULL when absent. */
static const uf__expr *arg(const uf__expr *e, int pos, const char *name)
{
    if (pos < e->u.call.nargs)
        return e->u.call.args[pos];
    for (int k = 0; k < e->u.call.nkw; k++)
        if (strcmp(e->u.call.kw[k].name, name) == 0)
            return e->u.call.kw[k].value;
    return NULL;
}

/* ---- the walk over broadcast leading axes ----------------------------- */

#define MAXOP 66 /* np.select's 2 * 32 operands, the result */

/* nop operands walked together over the axes n[0..nd): operand j's
 * element at index i is p[j] + sum(i[k] * st[j][k]) (a stride 0 where it
 * broadcasts); at each index `fn` gets the operands' addresses. */
typedef struct walk {
    int nd, nop;
    LLVMValueRef n[UF__NPR_MAXND];
    LLVMValueRef st[MAXOP][UF__NPR_MAXND];
    void (*fn)(uf__fn *F, void *ud, LLVMValueRef *p);
    void *ud;
} walk;

static void walk_nest(uf__fn *F, const walk *W, int d, LLVMValueRef *p)
{
    if (d == W->nd) {
        W->fn(F, W->ud, p);
        return;
    }
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, c64(F, 0), W->n[d]);
    LLVMValueRef q[MAXOP];
    for (int j = 0; j < W->nop; j++)
        q[j] = uf__npr_gep(F, p[j], LLVMBuildMul(B, l.i, W->st[j][d], ""));
    walk_nest(F, W, d + 1, q);
    uf__npr_loop_close(F, &l, 1);
}

/* Operand j of W (nd of its axes taken, right-aligned with W's) joins
 * the broadcast: W->n[k] becomes its length where W's is 1 so far; *bad
 * (i1) gets whether a length differs from W's where neither is 1. W->n
 * must start all 1. */
static void walk_join(uf__fn *F, walk *W, int j, const uf__npr_arr *A,
                      int nd, LLVMValueRef *bad)
{
    LLVMValueRef one = c64(F, 1), zero = c64(F, 0);
    for (int k = 0; k < W->nd; k++) {
        int ka = k - (W->nd - nd);
        if (ka < 0) {
            W->st[j][k] = zero;
            continue;
        }
        LLVMValueRef na = A->shape[ka];
        LLVMValueRef a1 = LLVMBuildICmp(B, LLVMIntEQ, na, one, "");
        LLVMValueRef w1 = LLVMBuildICmp(B, LLVMIntEQ, W->n[k], one, "");
        W->st[j][k] = LLVMBuildSelect(B, a1, zero, A->strides[ka], "");
        LLVMValueRef differ = LLVMBuildAnd(
            B, LLVMBuildICmp(B, LLVMIntNE, na, W->n[k], ""),
            LLVMBuildNot(B, LLVMBuildOr(B, a1, w1, ""), ""), "");
        *bad = LLVMBuildOr(B, *bad, differ, "");
        W->n[k] = LLVMBuildSelect(B, w1, na, W->n[k], "");
    }
}

/* A new C array of dtype dt over W's axes (and a last of `last` elements
 * unless NULL), joined to W as operand j. */
static LLVMValueRef walk_result(uf__fn *F, walk *W, int j, uf_dtype dt,
                                LLVMValueRef last)
{
    LLVMValueRef shape[UF__NPR_MAXND], nitems;
    for (int k = 0; k < W->nd; k++)
        shape[k] = W->n[k];
    if (last)
        shape[W->nd] = last;
    LLVMValueRef res = uf__lower_new_array(F, dt, W->nd + (last != NULL),
                                           shape, &nitems);
    if (!res)
        return NULL;
    LLVMValueRef s = c64(F, (long long)uf_dtype_itemsize(dt));
    if (last)
        s = LLVMBuildMul(B, s, last, "");
    for (int k = W->nd - 1; k >= 0; k--) {
        W->st[j][k] = s;
        s = LLVMBuildMul(B, s, W->n[k], "");
    }
    return res;
}

/* The leaves of nested tuple value v (type t) in C order into the
 * buffer dst (i8*), converted to `to`; *k counts them. */
static void store_leaves(uf__fn *F, LLVMValueRef v, const uf__type *t,
                         LLVMValueRef dst, uf_dtype to, long long *k)
{
    if (t->kind == UF__T_SCALAR) {
        LLVMValueRef at = c64(F, *k * (long long)uf_dtype_itemsize(to));
        uf__emit_elem_store(F, uf__npr_gep(F, dst, at), to,
                            uf__emit_cast(F, v, t->dtype, to));
        ++*k;
        return;
    }
    for (int i = 0; i < t->n; i++)
        store_leaves(F, LLVMBuildExtractValue(B, v, (unsigned)i, ""),
                     t->elts[i], dst, to, k);
}

/* An operand: an array, or a tuple (list literal) of numbers typed as the
 * C array np.asarray makes of it (infer_npcross.c: the leaves' promoted
 * dtype), copied into a buffer on the stack: nothing allocated. */
static int load_operand(uf__fn *F, const uf__expr *x, uf__npr_arr *A)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    if (!t || t->kind != UF__T_TUPLE)
        return uf__npr_load(F, x, A);
    int nd;
    int64_t dims[UF__NPR_MAXND];
    uf_dtype dt;
    if (!uf__npjoin_nested(t, &nd, dims, &dt) || nd < 1 ||
        nd > UF__NPR_MAXND)
        return fail(F, x, UF_ERR_INTERNAL, "an untyped sequence operand"),
               -1;
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return -1;
    long long n = 1;
    for (int d = 0; d < nd; d++)
        n *= dims[d];
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMValueRef buf = uf__fn_alloca(
        F, LLVMArrayType(i8, (unsigned)(n * (long long)uf_dtype_itemsize(dt))),
        "seq");
    LLVMSetAlignment(buf, 16);
    A->data = LLVMBuildBitCast(B, buf, LLVMPointerType(i8, 0), "");
    long long k = 0;
    store_leaves(F, v, t, A->data, dt, &k);
    A->nd = nd;
    A->dt = dt;
    long long st = (long long)uf_dtype_itemsize(dt);
    for (int d = nd - 1; d >= 0; d--) {
        A->shape[d] = c64(F, dims[d]);
        A->strides[d] = c64(F, st);
        st *= dims[d];
    }
    return 0;
}

static LLVMValueRef i1c(uf__fn *F, int v)
{
    return LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), (unsigned)v, 0);
}

/* ---- cross ------------------------------------------------------------ */

typedef struct cross_walk {
    LLVMValueRef ca, cb;    /* the bytes between components */
    LLVMValueRef a3, b3;    /* i1: the operand has a third component */
    uf_dtype da, db;
    uf_dtype mul, sub, dt;  /* np.multiply's loop, np.subtract's, result */
} cross_walk;

/* The components x0, x1, x2 of the vector at p: x2 is 0 * x0 in dtype d
 * (Numba's np.multiply(x.dtype.type(0), x0)) where there is none. */
static void components(uf__fn *F, LLVMValueRef p, LLVMValueRef step,
                       LLVMValueRef has3, uf_dtype d, uf_dtype to,
                       LLVMValueRef *x)
{
    LLVMValueRef x0 = uf__emit_elem_load(F, p, d);
    LLVMValueRef x1 = uf__emit_elem_load(F, uf__npr_gep(F, p, step), d);
    /* the last component there is: x2, or x1 again when there are 2 */
    LLVMValueRef last = LLVMBuildSelect(B, has3, c64(F, 2), c64(F, 1), "");
    LLVMValueRef x2 = uf__emit_elem_load(
        F, uf__npr_gep(F, p, LLVMBuildMul(B, last, step, "")), d);
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(x0));
    if (d != UF_BOOL)
        zero = uf__emit_binop(F, UF__OP_MUL, d, zero, x0);
    x2 = LLVMBuildSelect(B, has3, x2, zero, "");
    x[0] = uf__emit_cast(F, x0, d, to);
    x[1] = uf__emit_cast(F, x1, d, to);
    x[2] = uf__emit_cast(F, x2, d, to);
}

/* np.multiply(p, q) - np.multiply(r, s) in Numba's loops, as the
 * result's dtype. */
static LLVMValueRef det2(uf__fn *F, const cross_walk *W, LLVMValueRef p,
                         LLVMValueRef q, LLVMValueRef r, LLVMValueRef s)
{
    if (W->mul == UF_BOOL) /* np.subtract of bools is int8's; stored: != 0 */
        return uf__emit_cast(F,
                             LLVMBuildXor(B, LLVMBuildAnd(B, p, q, ""),
                                          LLVMBuildAnd(B, r, s, ""), ""),
                             UF_BOOL, W->dt);
    LLVMValueRef x = uf__emit_binop(F, UF__OP_MUL, W->mul, p, q);
    LLVMValueRef y = uf__emit_binop(F, UF__OP_MUL, W->mul, r, s);
    x = uf__emit_cast(F, x, W->mul, W->sub);
    y = uf__emit_cast(F, y, W->mul, W->sub);
    return uf__emit_cast(F, uf__emit_binop(F, UF__OP_SUB, W->sub, x, y),
                         W->sub, W->dt);
}

static void cross_elem(uf__fn *F, void *ud, LLVMValueRef *p)
{
    const cross_walk *W = ud;
    LLVMValueRef a[3], b[3];
    components(F, p[0], W->ca, W->a3, W->da, W->mul, a);
    components(F, p[1], W->cb, W->b3, W->db, W->mul, b);
    LLVMValueRef isz = c64(F, (long long)uf_dtype_itemsize(W->dt));
    uf__emit_elem_store(F, p[2], W->dt, det2(F, W, a[1], b[2], a[2], b[1]));
    uf__emit_elem_store(F, uf__npr_gep(F, p[2], isz), W->dt,
                        det2(F, W, a[2], b[0], a[0], b[2]));
    uf__emit_elem_store(F,
                        uf__npr_gep(F, p[2],
                                    LLVMBuildMul(B, isz, c64(F, 2), "")),
                        W->dt, det2(F, W, a[0], b[1], a[1], b[0]));
}

/* The dtype of the loop NumPy's ufunc b picks for x, y. */
static bool ufunc_loop(uf__builtin b, uf_dtype x, uf_dtype y, uf_dtype *r)
{
    const uf__ufunc_loops *l = uf__npufunc_loops(b);
    uf_dtype in[2] = {x, y}, types[3];
    if (!l || !uf__ufunc_select_loop(l->loops, 2, 1, in, types))
        return false;
    *r = types[2];
    return true;
}

static LLVMValueRef lower_cross(uf__fn *F, const uf__expr *e)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    uf__npr_arr A, Bv;
    if (load_operand(F, arg(e, 0, "a"), &A) < 0 ||
        load_operand(F, arg(e, 1, "b"), &Bv) < 0)
        return NULL;
    cross_walk C = {.da = A.dt, .db = Bv.dt};
    if (A.nd < 1 || Bv.nd < 1 || !rt || rt->kind != UF__T_ARRAY ||
        !ufunc_loop(UF__BI_NP_MULTIPLY, A.dt, Bv.dt, &C.mul) ||
        !ufunc_loop(UF__BI_NP_SUBTRACT, C.mul, C.mul, &C.sub))
        return fail(F, e, UF_ERR_INTERNAL, "an untyped np.cross()");
    C.dt = rt->dtype;
    LLVMValueRef la = A.shape[A.nd - 1], lb = Bv.shape[Bv.nd - 1];
    C.a3 = LLVMBuildICmp(B, LLVMIntEQ, la, c64(F, 3), "");
    C.b3 = LLVMBuildICmp(B, LLVMIntEQ, lb, c64(F, 3), "");
    LLVMValueRef a2 = LLVMBuildICmp(B, LLVMIntEQ, la, c64(F, 2), "");
    LLVMValueRef b2 = LLVMBuildICmp(B, LLVMIntEQ, lb, c64(F, 2), "");
    LLVMValueRef ok = LLVMBuildAnd(B, LLVMBuildOr(B, a2, C.a3, ""),
                                   LLVMBuildOr(B, b2, C.b3, ""), "");
    uf__fn_raise_if(F, LLVMBuildNot(B, ok, ""), UF__JIT_CROSS_DIMS);
    uf__fn_raise_if(F, LLVMBuildAnd(B, a2, b2, ""), UF__JIT_CROSS_2D);
    C.ca = A.strides[A.nd - 1];
    C.cb = Bv.strides[Bv.nd - 1];
    /* the leading axes (np.add(a[..., 0], b[..., 0]).shape) */
    walk W = {.nd = rt->ndim - 1, .nop = 3, .fn = cross_elem, .ud = &C};
    for (int k = 0; k < W.nd; k++)
        W.n[k] = c64(F, 1);
    LLVMValueRef bad = i1c(F, 0);
    walk_join(F, &W, 0, &A, A.nd - 1, &bad);
    walk_join(F, &W, 1, &Bv, Bv.nd - 1, &bad);
    uf__fn_raise_if(F, bad, UF__JIT_CROSS_BCAST);
    LLVMValueRef res = walk_result(F, &W, 2, C.dt, c64(F, 3));
    if (!res)
        return NULL;
    LLVMValueRef p[3] = {A.data, Bv.data, uf__emit_array_data(F, res)};
    walk_nest(F, &W, 0, p);
    return res;
}

/* ---- cross2d ---------------------------------------------------------- */

typedef struct cross2d_walk {
    LLVMValueRef ca, cb;    /* the bytes between components */
    uf_dtype da, db;
    uf_dtype mul, dt;       /* np.multiply's loop, the result's */
} cross2d_walk;

/* np.multiply(x, y) in loop dtype m (bools: and). */
static LLVMValueRef multiply(uf__fn *F, uf_dtype m, LLVMValueRef x,
                             LLVMValueRef y)
{
    return m == UF_BOOL ? LLVMBuildAnd(B, x, y, "")
                        : uf__emit_binop(F, UF__OP_MUL, m, x, y);
}

/* a0 * b1 - a1 * b0: the products in np.multiply's loop, converted to
 * the result's dtype (np.subtract's loop, or Python's `-` on numbers:
 * bools then count as 0 and 1) and subtracted in it. */
static void cross2d_elem(uf__fn *F, void *ud, LLVMValueRef *p)
{
    const cross2d_walk *W = ud;
    LLVMValueRef a0 = uf__emit_cast(F, uf__emit_elem_load(F, p[0], W->da),
                                    W->da, W->mul);
    LLVMValueRef a1 = uf__emit_cast(
        F, uf__emit_elem_load(F, uf__npr_gep(F, p[0], W->ca), W->da), W->da,
        W->mul);
    LLVMValueRef b0 = uf__emit_cast(F, uf__emit_elem_load(F, p[1], W->db),
                                    W->db, W->mul);
    LLVMValueRef b1 = uf__emit_cast(
        F, uf__emit_elem_load(F, uf__npr_gep(F, p[1], W->cb), W->db), W->db,
        W->mul);
    LLVMValueRef x = uf__emit_cast(F, multiply(F, W->mul, a0, b1), W->mul,
                                   W->dt);
    LLVMValueRef y = uf__emit_cast(F, multiply(F, W->mul, a1, b0), W->mul,
                                   W->dt);
    uf__emit_elem_store(F, p[2], W->dt,
                        uf__emit_binop(F, UF__OP_SUB, W->dt, x, y));
}

static LLVMValueRef lower_cross2d(uf__fn *F, const uf__expr *e)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    uf__npr_arr A, Bv;
    if (load_operand(F, arg(e, 0, "a"), &A) < 0 ||
        load_operand(F, arg(e, 1, "b"), &Bv) < 0)
        return NULL;
    cross2d_walk C = {.da = A.dt, .db = Bv.dt};
    if (A.nd < 1 || Bv.nd < 1 || !rt || rt->kind != UF__T_ARRAY ||
        !ufunc_loop(UF__BI_NP_MULTIPLY, A.dt, Bv.dt, &C.mul))
        return fail(F, e, UF_ERR_INTERNAL, "an untyped cross2d()");
    C.dt = rt->dtype;
    /* two vectors: Numba's scalar np.multiply of signed ints does not
     * wrap in the loop's type (int8 100 * 100 is 10000), unsigned ones do:
     * the signed products are computed in the result's int64 */
    if (rt->ndim == 0 && uf_dtype_kind(C.mul) == 'i')
        C.mul = C.dt;
    LLVMValueRef two = c64(F, 2);
    LLVMValueRef bad2 = LLVMBuildOr(
        B, LLVMBuildICmp(B, LLVMIntNE, A.shape[A.nd - 1], two, ""),
        LLVMBuildICmp(B, LLVMIntNE, Bv.shape[Bv.nd - 1], two, ""), "");
    uf__fn_raise_if(F, bad2, UF__JIT_CROSS2D_DIMS);
    C.ca = A.strides[A.nd - 1];
    C.cb = Bv.strides[Bv.nd - 1];
    /* the leading axes, broadcast as np.multiply(a[..., 0], b[..., 1]) */
    walk W = {.nd = rt->ndim, .nop = 3, .fn = cross2d_elem, .ud = &C};
    for (int k = 0; k < W.nd; k++)
        W.n[k] = c64(F, 1);
    LLVMValueRef bad = i1c(F, 0);
    walk_join(F, &W, 0, &A, A.nd - 1, &bad);
    walk_join(F, &W, 1, &Bv, Bv.nd - 1, &bad);
    uf__fn_raise_if(F, bad, UF__JIT_CROSS2D_BCAST);
    LLVMValueRef res = walk_result(F, &W, 2, C.dt, NULL);
    if (!res)
        return NULL;
    LLVMValueRef p[3] = {A.data, Bv.data, uf__emit_array_data(F, res)};
    walk_nest(F, &W, 0, p);
    return res;
}

/* ---- unwrap ----------------------------------------------------------- */

typedef struct unwrap_walk {
    uf_dtype in, dt;        /* p's dtype, the result's */
    bool integer;           /* the int64 formulas, else float64's */
    LLVMValueRef m, step;   /* the last axis's length, p's stride on it */
    LLVMValueRef period, high, low, amb, discont; /* i64 or double */
    bool disc_int;          /* discont an integer compared to |dd| */
} unwrap_walk;

static LLVMTypeRef f64t(uf__fn *F)
{
    return LLVMDoubleTypeInContext(F->L->ctx);
}

/* Numba's np.mod of x by y (npyfuncs.py np_real_mod_impl,
 * np_int_srem_impl): the remainder with y's sign; of ints 0 when y is 0
 * (and when it is -1, where srem would trap). */
static LLVMValueRef np_mod(uf__fn *F, bool integer, LLVMValueRef x,
                           LLVMValueRef y)
{
    if (integer) {
        LLVMValueRef zero = c64(F, 0);
        LLVMValueRef bad = LLVMBuildOr(
            B, LLVMBuildICmp(B, LLVMIntEQ, y, zero, ""),
            LLVMBuildICmp(B, LLVMIntEQ, y, c64(F, -1), ""), "");
        LLVMValueRef d = LLVMBuildSelect(B, bad, c64(F, 1), y, "");
        LLVMValueRef r = LLVMBuildSRem(B, x, d, "");
        LLVMValueRef fix = LLVMBuildAnd(
            B, LLVMBuildXor(B, LLVMBuildICmp(B, LLVMIntSGT, x, zero, ""),
                            LLVMBuildICmp(B, LLVMIntSGT, y, zero, ""), ""),
            LLVMBuildICmp(B, LLVMIntNE, r, zero, ""), "");
        r = LLVMBuildAdd(B, LLVMBuildSelect(B, fix, y, zero, ""), r, "");
        return LLVMBuildSelect(B, bad, zero, r, "");
    }
    LLVMValueRef zero = LLVMConstReal(f64t(F), 0.0);
    LLVMValueRef r = LLVMBuildFRem(B, x, y, "");
    LLVMValueRef fix = LLVMBuildAnd(
        B, LLVMBuildFCmp(B, LLVMRealONE, r, zero, ""),
        LLVMBuildXor(B, LLVMBuildFCmp(B, LLVMRealOLT, y, zero, ""),
                     LLVMBuildFCmp(B, LLVMRealOLT, r, zero, ""), ""),
        "");
    return LLVMBuildFAdd(B, r, LLVMBuildSelect(B, fix, y, zero, ""), "");
}

/* One row: p[0..m) at p[0], the result's at p[1] (unit stride), as
 * Numba's loop body: dd = np.diff(row) in the dtype, ddmod = np.mod(dd -
 * low, period) + low, the ambiguous boundary moved up where dd > 0,
 * ph = ddmod - dd or 0 where |dd| < discont, out = row + cumsum(ph) (from
 * 0, in int64 or float64), row[0] as it is. */
static void unwrap_row(uf__fn *F, void *ud, LLVMValueRef *p)
{
    const unwrap_walk *W = ud;
    LLVMValueRef isz = c64(F, (long long)uf_dtype_itemsize(W->dt));
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef first = uf__fn_block(F, "unwrap.first");
    LLVMBasicBlockRef done = uf__fn_block(F, "unwrap.done");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGT, W->m, c64(F, 0), ""),
                    first, done);
    LLVMPositionBuilderAtEnd(B, first);
    LLVMValueRef x0 = uf__emit_cast(F, uf__emit_elem_load(F, p[0], W->in),
                                    W->in, W->dt);
    uf__emit_elem_store(F, p[1], W->dt, x0);
    uf_dtype cd = W->integer ? UF_INT64 : UF_FLOAT64;
    LLVMTypeRef ct = uf__lower_dtype(F->L, cd);
    LLVMValueRef prev = uf__fn_alloca(F, uf__lower_dtype(F->L, W->dt), "");
    LLVMValueRef acc = uf__fn_alloca(F, ct, "");
    LLVMBuildStore(B, x0, prev);
    LLVMBuildStore(B, LLVMConstNull(ct), acc);
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, c64(F, 1), W->m);
    LLVMValueRef x = uf__emit_cast(
        F,
        uf__emit_elem_load(F, uf__npr_gep(F, p[0],
                                          LLVMBuildMul(B, l.i, W->step, "")),
                           W->in),
        W->in, W->dt);
    LLVMValueRef pv = LLVMBuildLoad2(B, uf__lower_dtype(F->L, W->dt), prev,
                                     "");
    LLVMBuildStore(B, x, prev);
    LLVMValueRef dd = uf__emit_cast(
        F, uf__emit_binop(F, UF__OP_SUB, W->dt, x, pv), W->dt, cd);
    LLVMValueRef ddmod, ph, small, pos;
    if (W->integer) {
        ddmod = LLVMBuildAdd(
            B, np_mod(F, true, LLVMBuildSub(B, dd, W->low, ""), W->period),
            W->low, "");
        pos = LLVMBuildICmp(B, LLVMIntSGT, dd, c64(F, 0), "");
        LLVMValueRef at_low = LLVMBuildAnd(
            B, W->amb,
            LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntEQ, ddmod, W->low, ""),
                         pos, ""), "");
        ddmod = LLVMBuildSelect(B, at_low, W->high, ddmod, "");
        ph = LLVMBuildSub(B, ddmod, dd, "");
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, dd, c64(F, 0), "");
        LLVMValueRef ad = LLVMBuildSelect(B, neg, LLVMBuildNeg(B, dd, ""),
                                          dd, "");
        /* Numba's abs(x) of dd's elements is in the dtype: |min| wraps
         * to min (then below discont) */
        ad = uf__emit_cast(F, uf__emit_cast(F, ad, UF_INT64, W->dt), W->dt,
                           UF_INT64);
        small = W->disc_int
                    ? LLVMBuildICmp(B, LLVMIntSLT, ad, W->discont, "")
                    : LLVMBuildFCmp(B, LLVMRealOLT,
                                    LLVMBuildSIToFP(B, ad, f64t(F), ""),
                                    W->discont, "");
    } else {
        ddmod = LLVMBuildFAdd(
            B, np_mod(F, false, LLVMBuildFSub(B, dd, W->low, ""), W->period),
            W->low, "");
        pos = LLVMBuildFCmp(B, LLVMRealOGT, dd,
                            LLVMConstReal(f64t(F), 0.0), "");
        LLVMValueRef at_low = LLVMBuildAnd(
            B, LLVMBuildFCmp(B, LLVMRealOEQ, ddmod, W->low, ""), pos, "");
        ddmod = LLVMBuildSelect(B, at_low, W->high, ddmod, "");
        ph = LLVMBuildFSub(B, ddmod, dd, "");
        LLVMValueRef ad = uf__emit_intrinsic(F, "llvm.fabs", &dd, 1);
        small = LLVMBuildFCmp(B, LLVMRealOLT, ad, W->discont, "");
    }
    ph = LLVMBuildSelect(B, small, LLVMConstNull(ct), ph, "");
    LLVMValueRef s = uf__emit_binop(
        F, UF__OP_ADD, cd, LLVMBuildLoad2(B, ct, acc, ""), ph);
    LLVMBuildStore(B, s, acc);
    LLVMValueRef y = uf__emit_binop(F, UF__OP_ADD, cd,
                                    uf__emit_cast(F, x, W->dt, cd), s);
    uf__emit_elem_store(F, uf__npr_gep(F, p[1], LLVMBuildMul(B, l.i, isz, "")),
                        W->dt, uf__emit_cast(F, y, cd, W->dt));
    uf__npr_loop_close(F, &l, 1);
    LLVMBuildBr(B, done);
    (void)pre;
    LLVMPositionBuilderAtEnd(B, done);
}

/* The scalar argument x (pos / name) as dtype to, or NULL (absent,
 * None); *dt its dtype. */
static LLVMValueRef scalar_arg(uf__fn *F, const uf__expr *e, int pos,
                               const char *name, uf_dtype to, uf_dtype *dt,
                               bool *ok)
{
    const uf__expr *x = arg(e, pos, name);
    *ok = true;
    if (x == NULL || x->kind == UF__EX_NONE)
        return NULL;
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v) {
        *ok = false;
        return NULL;
    }
    *dt = uf__lower_info(F, x)->type->dtype;
    return uf__emit_cast(F, v, *dt, to);
}

static LLVMValueRef lower_unwrap(uf__fn *F, const uf__expr *e)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    uf__npr_arr A;
    if (load_operand(F, arg(e, 0, "p"), &A) < 0)
        return NULL;
    if (A.nd < 1 || !rt || rt->kind != UF__T_ARRAY)
        return fail(F, e, UF_ERR_INTERNAL, "an untyped np.unwrap()");
    unwrap_walk U = {.in = A.dt, .dt = rt->dtype,
                     .integer = uf_dtype_kind(rt->dtype) != 'f'};
    uf_dtype cd = U.integer ? UF_INT64 : UF_FLOAT64, adt = UF_INT64,
             pdt = UF_FLOAT64, ddt = UF_FLOAT64;
    bool ok;
    LLVMValueRef axis = scalar_arg(F, e, 2, "axis", UF_INT64, &adt, &ok);
    if (!ok)
        return NULL;
    if (axis != NULL) { /* Numba's `axis != -1` on the axis's own type */
        LLVMValueRef ne = LLVMBuildICmp(B, LLVMIntNE, axis, c64(F, -1), "");
        if (adt == UF_UINT64)
            ne = i1c(F, 1);
        uf__fn_raise_if(F, ne, UF__JIT_UNWRAP_AXIS);
    }
    LLVMValueRef period = scalar_arg(F, e, 3, "period", cd, &pdt, &ok);
    if (!ok)
        return NULL;
    if (period == NULL)
        period = LLVMConstReal(f64t(F), 6.283185307179586);
    U.period = period;
    /* discont: as given, or period / 2 (a float64 true division) */
    LLVMValueRef pf = uf__emit_cast(F, period, cd, UF_FLOAT64);
    const uf__expr *dx = arg(e, 1, "discont");
    bool has_disc = dx != NULL && dx->kind != UF__EX_NONE;
    if (has_disc)
        ddt = uf__lower_info(F, dx)->type->dtype;
    U.disc_int = U.integer && has_disc && uf_dtype_kind(ddt) != 'f';
    LLVMValueRef disc = scalar_arg(F, e, 1, "discont",
                                   U.disc_int ? UF_INT64 : UF_FLOAT64, &ddt,
                                   &ok);
    if (!ok)
        return NULL;
    U.discont = disc ? disc
                     : LLVMBuildFDiv(B, pf, LLVMConstReal(f64t(F), 2.0), "");
    if (U.integer) { /* divmod(period, 2): floor */
        U.high = LLVMBuildAShr(B, period, c64(F, 1), "");
        U.amb = LLVMBuildICmp(B, LLVMIntEQ,
                              LLVMBuildAnd(B, period, c64(F, 1), ""),
                              c64(F, 0), "");
        U.low = LLVMBuildNeg(B, U.high, "");
    } else {
        U.high = LLVMBuildFDiv(B, period, LLVMConstReal(f64t(F), 2.0), "");
        U.low = LLVMBuildFNeg(B, U.high, "");
    }
    U.m = A.shape[A.nd - 1];
    U.step = A.strides[A.nd - 1];
    /* Numba's p_init.size // last_axis */
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, U.m, c64(F, 0), ""),
                    UF__JIT_ZERODIV);
    walk W = {.nd = A.nd - 1, .nop = 2, .fn = unwrap_row, .ud = &U};
    for (int k = 0; k < W.nd; k++)
        W.n[k] = c64(F, 1);
    LLVMValueRef bad = i1c(F, 0);
    walk_join(F, &W, 0, &A, A.nd - 1, &bad);
    LLVMValueRef res = walk_result(F, &W, 1, U.dt, U.m);
    if (!res)
        return NULL;
    LLVMValueRef p[2] = {A.data, uf__emit_array_data(F, res)};
    walk_nest(F, &W, 0, p);
    return res;
}

/* ---- select ----------------------------------------------------------- */

typedef struct select_walk {
    int n;                  /* the cases: operands 2i (cond), 2i+1 (choice) */
    uf_dtype xd[32];        /* the choices' dtypes */
    uf_dtype dt;            /* the result's */
    LLVMValueRef dflt;      /* the default in dt */
} select_walk;

/* Numba's loop from the last case to the first: out = np.where(cond,
 * choice, out) from out = default; the result at operand 2n. */
static void select_elem(uf__fn *F, void *ud, LLVMValueRef *p)
{
    const select_walk *S = ud;
    LLVMValueRef v = S->dflt;
    for (int i = S->n - 1; i >= 0; i--) {
        LLVMValueRef c = uf__emit_truth(
            F, uf__emit_elem_load(F, p[2 * i], UF_BOOL), UF_BOOL);
        LLVMValueRef x = uf__emit_cast(
            F, uf__emit_elem_load(F, p[2 * i + 1], S->xd[i]), S->xd[i],
            S->dt);
        v = LLVMBuildSelect(B, c, x, v, "");
    }
    uf__emit_elem_store(F, p[2 * S->n], S->dt, v);
}

/* Element i of tuple value tv (type tt) taken apart. */
static void tuple_array(uf__fn *F, LLVMValueRef tv, const uf__type *tt,
                        int i, uf__npr_arr *A)
{
    const uf__type *t = tt->elts[i];
    LLVMValueRef a = LLVMBuildExtractValue(B, tv, (unsigned)i, "");
    A->data = uf__emit_array_data(F, a);
    A->nd = t->ndim;
    A->dt = t->dtype;
    for (int k = 0; k < t->ndim; k++) {
        A->shape[k] = uf__emit_array_dim(F, a, k);
        A->strides[k] = uf__emit_array_stride(F, a, t, k);
    }
}

static LLVMValueRef lower_select(uf__fn *F, const uf__expr *e)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    const uf__expr *cx = arg(e, 0, "condlist"), *xx = arg(e, 1, "choicelist");
    const uf__type *ct = uf__lower_info(F, cx)->type;
    const uf__type *xt = uf__lower_info(F, xx)->type;
    if (!rt || rt->kind != UF__T_ARRAY || !ct || ct->kind != UF__T_TUPLE ||
        !xt || xt->kind != UF__T_TUPLE || ct->n > 32 || xt->n > 32)
        return fail(F, e, UF_ERR_INTERNAL, "an untyped np.select()");
    LLVMValueRef cv = uf__lower_expr(F, cx);
    if (!cv)
        return NULL;
    LLVMValueRef xv = uf__lower_expr(F, xx);
    if (!xv)
        return NULL;
    select_walk S = {.n = ct->n < xt->n ? ct->n : xt->n, .dt = rt->dtype};
    const uf__expr *dx = arg(e, 2, "default");
    if (dx != NULL) {
        LLVMValueRef d = uf__lower_expr(F, dx);
        if (!d)
            return NULL;
        S.dflt = uf__emit_cast(F, d, uf__lower_info(F, dx)->type->dtype,
                               S.dt);
    } else {
        S.dflt = uf__emit_cast(F, c64(F, 0), UF_INT64, S.dt);
    }
    if (ct->n != xt->n) /* Numba's check, at run time */
        uf__fn_raise_if(F, i1c(F, 1), UF__JIT_SELECT_LEN);
    walk W = {.nd = rt->ndim, .nop = 2 * S.n + 1, .fn = select_elem,
              .ud = &S};
    for (int k = 0; k < W.nd; k++)
        W.n[k] = c64(F, 1);
    LLVMValueRef bad = i1c(F, 0), p[MAXOP];
    /* out starts as np.ones(choicelist[0].shape): its shape first */
    for (int i = 0; i < S.n; i++) {
        uf__npr_arr A;
        tuple_array(F, xv, xt, i, &A);
        walk_join(F, &W, 2 * i + 1, &A, A.nd, &bad);
        p[2 * i + 1] = A.data;
        S.xd[i] = A.dt;
        tuple_array(F, cv, ct, i, &A);
        walk_join(F, &W, 2 * i, &A, A.nd, &bad);
        p[2 * i] = A.data;
    }
    uf__fn_raise_if(F, bad, UF__JIT_BCAST_ARRAYS);
    LLVMValueRef res = walk_result(F, &W, 2 * S.n, S.dt, NULL);
    if (!res)
        return NULL;
    p[2 * S.n] = uf__emit_array_data(F, res);
    walk_nest(F, &W, 0, p);
    return res;
}

LLVMValueRef uf__lower_npcross(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    if (F->L->cg->sreg != NULL) /* a CUDA ufunc or gufunc */
        return fail(F, e, UF_ERR_UNSUPPORTED, "this NumPy function "
                    "allocates its result in the host runtime, which CUDA "
                    "kernels cannot call");
    switch (in->builtin) {
    case UF__BI_NP_CROSS:
        return lower_cross(F, e);
    case UF__BI_NP_UNWRAP:
        return lower_unwrap(F, e);
    case UF__BI_NP_SELECT:
        return lower_select(F, e);
    case UF__BI_NP_CROSS2D:
        return lower_cross2d(F, e);
    default:
        return fail(F, e, UF_ERR_INTERNAL, "an untyped NumPy call");
    }
}
