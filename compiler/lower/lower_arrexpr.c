/* Whole-array expressions stored into existing memory (out[:] = x * w + b,
 * a[1:] += a[:-1]), typed by infer_arrexpr.c, fused into ONE loop nest
 * over the destination: every array the expression reads is broadcast to
 * the destination's shape (strides 0 on broadcast axes), scalars are
 * evaluated once before the loop, and each element is computed by the
 * same scalar code as np.add(x, y) on numbers (lower_npufunc.c,
 * lower_math.c), so element semantics cannot drift. No temporary is made
 * except NumPy's overlap copy: an input whose bytes may overlap the
 * destination's (and is not the destination itself, element for element)
 * is copied first, as NumPy's ufuncs do. The innermost loop has two
 * versions chosen at run time: unit strides everywhere (the one LLVM
 * vectorises) or any strides.
 *
 * uf__lower_arrexpr_into stores into a destination array value;
 * uf__lower_arrexpr_value, for an expression stored nowhere (bound to a
 * variable, returned, passed on), makes a new array of the operands'
 * broadcast shape (lower_alloc.c) and runs the same loop into it. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/loop.h"
#include "compiler/lower/lower_arrexpr_internal.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_arrmeth.h"
#include "compiler/types/infer_arrexpr.h"
#include "compiler/types/infer_nppred.h"
#include "compiler/types/infer_npufunc.h"

#define B (F->L->b)

static int fail(fused *z, uf__pos pos, int code, const char *what)
{
    return uf__source_error(z->F->err, code, z->F->tf->km->src, pos, "%s",
                            what);
}

/* ---- gathering the operands --------------------------------------------- */

/* Whether e is computed element by element inside the loop. */
static bool fused_node(fused *z, const uf__expr *e)
{
    return e == z->root || uf__is_arrexpr(z->F->tf, e);
}

/* The bound arguments of np.isclose ... (UF__NPPRED_MAP) that are
 * numbers or arrays into x[] (NULL for the others); their count. */
static int nppred_args(fused *z, const uf__expr *e, const uf__expr **x)
{
    const uf__keyword *bad;
    int n = uf__nppred_bind(e, uf__lower_info(z->F, e)->builtin, x, &bad);
    for (int i = 0; i < n; i++) {
        const uf__type *t = x[i] ? uf__lower_info(z->F, x[i])->type : NULL;
        if (t == NULL || (t->kind != UF__T_SCALAR && t->kind != UF__T_ARRAY))
            x[i] = NULL;
    }
    return n;
}

static int collect_value(fused *z, const uf__expr *e, LLVMValueRef v);

/* The inputs of a call in the expression: all its arguments but a
 * ufunc's outputs (np.add(x, y, out) as the root). */
static int call_inputs(const fused *z, const uf__expr *e)
{
    const uf__ufunc_loops *row =
        uf__npufunc_loops(uf__lower_info(z->F, e)->builtin);
    return row != NULL && e->u.call.nargs > row->nin ? row->nin
                                                     : e->u.call.nargs;
}

static int collect(fused *z, const uf__expr *e)
{
    uf__fn *F = z->F;
    for (int i = 0; i < z->npre; i++)
        if (z->pre_e[i] == e)
            return collect_value(z, e, z->pre_v[i]);
    if (e->kind == UF__EX_CALL && fused_node(z, e) &&
        uf__builtin_is_nppred(uf__lower_info(F, e)->builtin)) {
        const uf__expr *x[UF__NPPRED_MAXARGS];
        int n = nppred_args(z, e, x);
        for (int i = 0; i < n; i++)
            if (x[i] && collect(z, x[i]) < 0)
                return -1;
        return 0;
    }
    if (fused_node(z, e)) {
        switch (e->kind) {
        case UF__EX_BINARY:
            return collect(z, e->u.binary.left) < 0 ? -1
                                                    : collect(z, e->u.binary.right);
        case UF__EX_UNARY:
            return collect(z, e->u.unary.operand);
        case UF__EX_COMPARE:
            return collect(z, e->u.compare.operands[0]) < 0
                       ? -1
                       : collect(z, e->u.compare.operands[1]);
        default:
            for (int i = 0; i < call_inputs(z, e); i++)
                if (collect(z, e->u.call.args[i]) < 0)
                    return -1;
            return 0;
        }
    }
    return collect_value(z, e, NULL);
}

/* Operand e (a leaf of the expression) of value v, lowered here when
 * NULL. */
static int collect_value(fused *z, const uf__expr *e, LLVMValueRef v)
{
    uf__fn *F = z->F;
    const uf__type *t = uf__lower_info(F, e)->type;
    if (z->nops == MAXOPS || z->nsc == MAXOPS)
        return fail(z, e->pos, UF_ERR_UNSUPPORTED, "too many operands in one "
                    "array expression");
    if (!v)
        v = uf__lower_expr(F, e);
    if (!v)
        return -1;
    if (t->kind == UF__T_ARRAY) {
        if (t->ndim > MAXD)
            return fail(z, e->pos, UF_ERR_UNSUPPORTED, "too many dimensions");
        operand *o = &z->ops[z->nops++];
        memset(o, 0, sizeof *o);
        o->e = e;
        o->dt = t->dtype;
        o->ndim = t->ndim;
        o->arr = v;
        o->data = uf__emit_array_data(F, v);
        for (int d = 0; d < z->nd; d++) {
            int k = d - (z->nd - t->ndim);
            if (k < 0) {
                o->str[d] = c64(F, 0);
                continue;
            }
            LLVMValueRef n = uf__emit_array_dim(F, v, k);
            o->str[d] = LLVMBuildSelect(
                B, LLVMBuildICmp(B, LLVMIntEQ, n, c64(F, 1), ""), c64(F, 0),
                uf__emit_array_stride(F, v, t, k), "");
        }
        return 0;
    }
    if (t->kind != UF__T_SCALAR)
        return fail(z, e->pos, UF_ERR_TYPING, "an array expression operand "
                    "must be a number or an array");
    z->sce[z->nsc] = e;
    z->scd[z->nsc] = t->dtype;
    z->scv[z->nsc++] = v;
    return 0;
}

/* ---- broadcasting ------------------------------------------------------- */

/* NumPy's rule at run time: the operands broadcast together (else
 * "operands could not be broadcast together"), and their shape to the
 * destination's (else "could not broadcast input array"). */
/* Axis d (of maxnd, aligned on the right) of the operands' broadcast
 * shape (the destination, an augmented assignment's operand, left out);
 * *bad gains "two operands disagree on it". */
static LLVMValueRef broadcast_dim(fused *z, int maxnd, int d,
                                  LLVMValueRef *bad)
{
    uf__fn *F = z->F;
    LLVMValueRef b = c64(F, 1);
    for (int i = 0; i < z->nops; i++) {
        operand *o = &z->ops[i];
        int k = o->ndim - maxnd + d;
        if (k < 0 || o->e == NULL)
            continue;
        LLVMValueRef n = uf__emit_array_dim(F, o->arr, k);
        LLVMValueRef n1 = LLVMBuildICmp(B, LLVMIntNE, n, c64(F, 1), "");
        LLVMValueRef b1 = LLVMBuildICmp(B, LLVMIntNE, b, c64(F, 1), "");
        LLVMValueRef ne = LLVMBuildICmp(B, LLVMIntNE, b, n, "");
        *bad = LLVMBuildOr(B, *bad, LLVMBuildAnd(
                                        B, n1, LLVMBuildAnd(B, b1, ne, ""),
                                        ""), "");
        b = LLVMBuildSelect(B, n1, n, b, "");
    }
    return b;
}

/* The shapes a failed check names: the operands' (UF__SHAPES_OPERANDS), or
 * the destination's and the operands' broadcast one (UF__SHAPES_SLICE; for
 * a += b, UF__SHAPES_OUTPUT: NumPy's words for an output operand). */
typedef struct shapes_ud {
    fused *z;
    int maxnd;
    int which[MAXOPS]; /* operands: indexes into z->ops */
} shapes_ud;

static LLVMValueRef operand_dim(uf__fn *F, int s, int k, void *ud)
{
    (void)F;
    const shapes_ud *u = ud;
    return uf__emit_array_dim(u->z->F, u->z->ops[u->which[s]].arr, k);
}

static LLVMValueRef slice_dim(uf__fn *F, int s, int k, void *ud)
{
    const shapes_ud *u = ud;
    if (s == 0)
        return u->z->shape[k];
    LLVMValueRef scratch = LLVMConstNull(LLVMInt1TypeInContext(F->L->ctx));
    return broadcast_dim(u->z, u->maxnd, k, &scratch);
}

static void raise_operands(fused *z, LLVMValueRef bad)
{
    shapes_ud u = {.z = z};
    int nd[MAXOPS], n = 0;
    for (int i = 0; i < z->nops; i++)
        if (z->ops[i].e != NULL) {
            u.which[n] = i;
            nd[n++] = z->ops[i].ndim;
        }
    uf__fn_raise_shapes_if(z->F, bad, UF__JIT_BCAST_SHAPES,
                           UF__SHAPES_OPERANDS, n, nd, operand_dim, &u);
}

static int check_shapes(fused *z)
{
    uf__fn *F = z->F;
    LLVMValueRef f = LLVMConstNull(LLVMInt1TypeInContext(F->L->ctx));
    LLVMValueRef bad_pair = f, bad_dst = f;
    int maxnd = z->nd;
    for (int i = 0; i < z->nops; i++)
        if (z->ops[i].ndim > maxnd)
            maxnd = z->ops[i].ndim;
    for (int d = 0; d < maxnd; d++) { /* aligned on the right */
        LLVMValueRef b = broadcast_dim(z, maxnd, d, &bad_pair);
        int dd = d - (maxnd - z->nd);
        LLVMValueRef want = dd < 0 ? c64(F, 1) : z->shape[dd];
        bad_dst = LLVMBuildOr(
            B, bad_dst,
            LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntNE, b, c64(F, 1), ""),
                         LLVMBuildICmp(B, LLVMIntNE, b, want, ""), ""),
            "");
    }
    if (!F->fallible) /* lower_fallible.c makes these stores fallible */
        return fail(z, z->pos, UF_ERR_INTERNAL, "an array expression store "
                    "in a function that cannot raise");
    raise_operands(z, bad_pair);
    shapes_ud u = {.z = z, .maxnd = maxnd};
    int nd[2] = {z->nd, maxnd};
    bool output = z->augop >= 0 || z->augop == UF__AUG_OUTPUT;
    uf__fn_raise_shapes_if(F, bad_dst, UF__JIT_SLICE_SHAPE,
                           output ? UF__SHAPES_OUTPUT : UF__SHAPES_SLICE, 2,
                           nd, slice_dim, &u);
    return 0;
}

/* ---- loops -------------------------------------------------------------- */

typedef void (*body_fn)(fused *z, LLVMValueRef *cur, void *ud);

/* for i in range(n): a loop over np pointers starting at p0[k] and
 * stepping by step[k] bytes; body gets the current ones. */
static void strided_loop(fused *z, LLVMValueRef n, int np,
                         const LLVMValueRef *p, const LLVMValueRef *step,
                         body_fn body, void *ud)
{
    uf__fn *F = z->F;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef head = uf__fn_block(F, "ax.head");
    LLVMBasicBlockRef bodyb = uf__fn_block(F, "ax.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "ax.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildPhi(B, i64t(F), "i");
    LLVMValueRef phi[MAXOPS + 1], p0[MAXOPS + 1];
    for (int k = 0; k < np; k++) {
        p0[k] = p[k];
        phi[k] = LLVMBuildPhi(B, i8p(F), "p");
    }
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), bodyb, done);
    LLVMPositionBuilderAtEnd(B, bodyb);
    body(z, phi, ud);
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMValueRef in = LLVMBuildNSWAdd(B, i, c64(F, 1), "");
    LLVMValueRef pn[MAXOPS + 1];
    for (int k = 0; k < np; k++) {
        LLVMValueRef s = step[k];
        pn[k] = LLVMBuildGEP2(B, i8, phi[k], &s, 1, "");
    }
    LLVMBuildBr(B, head);
    LLVMBasicBlockRef from[2] = {pre, latch};
    LLVMValueRef iv[2] = {c64(F, 0), in};
    LLVMAddIncoming(i, iv, from, 2);
    for (int k = 0; k < np; k++) {
        LLVMValueRef pv[2] = {p0[k], pn[k]};
        LLVMAddIncoming(phi[k], pv, from, 2);
    }
    LLVMPositionBuilderAtEnd(B, done);
}

/* ---- elements ----------------------------------------------------------- */

static LLVMValueRef elem(fused *z, const uf__expr *e, uf_dtype *dt);

/* ufunc bi of the element values a[] (dtypes ad[]), as on numbers. */
static LLVMValueRef apply_ufunc(fused *z, const uf__expr *e, uf__builtin bi,
                                int n, uf_dtype *ad, LLVMValueRef *a,
                                uf_dtype rd)
{
    uf__fn *F = z->F;
    if (uf__builtin_is_npufunc(bi))
        return uf__emit_npufunc(F, e, bi, ad, a, rd);
    if (bi == UF__BI_NP_POWER) {
        const uf__ufunc_loops *row = uf__npufunc_loops(bi);
        uf_dtype t[3];
        if (!uf__ufunc_select_loop(row->loops, 2, 1, ad, t))
            return NULL;
        if (!uf__dtype_is_float(t[0]) && !uf__dtype_is_complex(t[0]))
            return uf__emit_npufunc(F, e, bi, ad, a, rd);
        LLVMValueRef r = uf__emit_binop(F, UF__OP_POW, t[0],
                                        uf__emit_cast(F, a[0], ad[0], t[0]),
                                        uf__emit_cast(F, a[1], ad[1], t[0]));
        return r ? uf__emit_cast(F, r, t[2], rd) : NULL;
    }
    return uf__emit_builtin(F, e, n, ad, a,
                            uf__type_scalar(F->tf->km->tc, rd));
}

/* np.clip(a, lo, hi) of one element: compared in the promoted dtype,
 * NaN propagated (np.maximum then np.minimum). */
static LLVMValueRef clip(fused *z, uf_dtype *ad, LLVMValueRef *a,
                         uf_dtype rd)
{
    uf__fn *F = z->F;
    uf_dtype p = uf_promote_types(uf_promote_types(ad[0], ad[1]), ad[2]);
    LLVMValueRef x = uf__emit_cast(F, a[0], ad[0], p);
    LLVMValueRef lo = uf__emit_cast(F, a[1], ad[1], p);
    LLVMValueRef hi = uf__emit_cast(F, a[2], ad[2], p);
    LLVMValueRef r = LLVMBuildSelect(B, uf__emit_cmp(F, UF__CMP_LT, p, x, lo),
                                     lo, x, "");
    if (uf__dtype_is_float(p)) /* a NaN bound gives NaN */
        r = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealUNO, lo, lo, ""), lo,
                            r, "");
    r = LLVMBuildSelect(B, uf__emit_cmp(F, UF__CMP_GT, p, r, hi), hi, r, "");
    if (uf__dtype_is_float(p))
        r = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealUNO, hi, hi, ""), hi,
                            r, "");
    return uf__emit_cast(F, r, p, rd);
}

/* Element operations as Numba's array expressions compute them: the
 * expression tree is a scalar function of the elements (operators with
 * the scalar typing of numbers, int32 + int32 in int64; ufunc calls as
 * on numbers), in NumPy's error model, cast to the expression's dtype
 * only at its root (root_elem). np.where and np.clip are functions of
 * arrays in Numba, so their arguments are roots. */
static LLVMValueRef root_elem(fused *z, const uf__expr *e, uf_dtype *dt);

static LLVMValueRef op_node(fused *z, const uf__expr *e, uf_dtype *dt)
{
    uf__fn *F = z->F;
    uf__typectx *tc = F->tf->km->tc;
    uf_dtype ad[2];
    LLVMValueRef a[2];
    const uf__type *opt = NULL, *rt = NULL;
    if (e->kind == UF__EX_UNARY) {
        if (!(a[0] = elem(z, e->u.unary.operand, &ad[0])))
            return NULL;
        uf__unop op = e->u.unary.op;
        if (!(rt = uf__type_unary(tc, op, uf__type_scalar(tc, ad[0]), &opt)))
            goto refused;
        uf_dtype od = opt ? opt->dtype : ad[0];
        LLVMValueRef r = uf__emit_unop(F, op, od,
                                       uf__emit_cast(F, a[0], ad[0], od));
        if (!r)
            return NULL;
        *dt = rt->dtype;
        return uf__emit_cast(F, r,
                             op == UF__OP_NEG && od == UF_BOOL ? UF_INT64 : od,
                             rt->dtype);
    }
    const uf__expr *x0 = e->kind == UF__EX_BINARY ? e->u.binary.left
                                                  : e->u.compare.operands[0];
    const uf__expr *x1 = e->kind == UF__EX_BINARY ? e->u.binary.right
                                                  : e->u.compare.operands[1];
    if (!(a[0] = elem(z, x0, &ad[0])) || !(a[1] = elem(z, x1, &ad[1])))
        return NULL;
    const uf__type *t0 = uf__type_scalar(tc, ad[0]);
    const uf__type *t1 = uf__type_scalar(tc, ad[1]);
    if (e->kind == UF__EX_COMPARE) {
        uf__cmpop op = e->u.compare.ops[0];
        if (!uf__type_compare(tc, op, t0, t1, &opt) || !opt)
            goto refused;
        *dt = UF_BOOL;
        return uf__emit_cmp(F, op, opt->dtype,
                            uf__emit_cast(F, a[0], ad[0], opt->dtype),
                            uf__emit_cast(F, a[1], ad[1], opt->dtype));
    }
    uf__binop op = e->u.binary.op;
    if (!(rt = uf__type_binop(tc, op, t0, t1, &opt)) || !opt)
        goto refused;
    *dt = rt->dtype;
    if (op == UF__OP_POW && x1->kind == UF__EX_INT && !x1->u.i.too_big &&
        x1->u.i.value <= 0x10000 && uf__dtype_is_float(opt->dtype))
        return uf__emit_cast(F,
                             uf__emit_pow_const(F, opt->dtype,
                                                uf__emit_cast(F, a[0], ad[0],
                                                              opt->dtype),
                                                (int64_t)x1->u.i.value),
                             opt->dtype, rt->dtype);
    return uf__emit_binop_values(F, op, ad[0], a[0], ad[1], a[1], opt->dtype,
                                 rt->dtype);
refused:
    fail(z, e->pos, UF_ERR_TYPING, "this operation is not supported on "
         "these element types");
    return NULL;
}

/* np.isclose ... (UF__NPPRED_MAP): functions of arrays in Numba, their
 * arguments roots, the result in the call's dtype (the array's, or the
 * temporary's of np.allclose / np.array_equal). */
static LLVMValueRef nppred_node(fused *z, const uf__expr *e, uf__builtin bi,
                                uf_dtype *dt)
{
    const uf__expr *x[UF__NPPRED_MAXARGS];
    uf_dtype ad[UF__NPPRED_MAXARGS], rd;
    LLVMValueRef a[UF__NPPRED_MAXARGS];
    int n = nppred_args(z, e, x);
    for (int i = 0; i < n; i++) {
        a[i] = NULL;
        ad[i] = UF_NTYPES;
        if (x[i] && !(a[i] = root_elem(z, x[i], &ad[i])))
            return NULL;
    }
    LLVMValueRef r = uf__emit_nppred_elem(z->F, e, bi, ad, a, &rd);
    if (!r)
        return NULL;
    *dt = e == z->root ? z->ddt : uf__lower_info(z->F, e)->type->dtype;
    return uf__emit_cast(z->F, r, rd, *dt);
}

/* One of np.divmod's two results: np.floor_divide's or np.remainder's
 * element in divmod's loop (they compute the same, NumPy's rules for
 * signs and zero divisors). */
static LLVMValueRef divmod_part(fused *z, const uf__expr *e, uf_dtype *dt)
{
    uf__fn *F = z->F;
    uf_dtype ad[2], t[4], c[2];
    LLVMValueRef a[2];
    for (int i = 0; i < 2; i++)
        if (!(a[i] = elem(z, e->u.call.args[i], &ad[i])))
            return NULL;
    const uf__ufunc_loops *row = uf__npufunc_loops(UF__BI_NP_DIVMOD);
    if (!row || !uf__ufunc_select_loop(row->loops, 2, 2, ad, t)) {
        fail(z, e->pos, UF_ERR_TYPING, "np.divmod() is not supported on "
             "these element types");
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        a[i] = uf__emit_cast(F, a[i], ad[i], t[i]);
        c[i] = t[i];
    }
    *dt = z->ddt;
    return uf__emit_npufunc(F, e, z->part ? UF__BI_NP_REMAINDER
                                          : UF__BI_NP_FLOOR_DIVIDE,
                            c, a, *dt);
}

static LLVMValueRef call_node(fused *z, const uf__expr *e, uf_dtype *dt)
{
    uf__builtin bi = uf__lower_info(z->F, e)->builtin;
    if (e == z->root && bi == UF__BI_NP_DIVMOD)
        return divmod_part(z, e, dt);
    if (uf__builtin_is_nppred(bi))
        return nppred_node(z, e, bi, dt);
    int n = call_inputs(z, e);
    uf_dtype ad[3];
    LLVMValueRef a[3];
    if (n > 3)
        return NULL;
    bool fn = bi == UF__BI_NP_WHERE || bi == UF__BI_NP_CLIP;
    for (int i = 0; i < n; i++)
        if (!(a[i] = (fn ? root_elem : elem)(z, e->u.call.args[i], &ad[i])))
            return NULL;
    if (fn) {
        *dt = uf__lower_info(z->F, e)->type->dtype;
        if (bi == UF__BI_NP_CLIP)
            return clip(z, ad, a, *dt);
        uf__fn *F = z->F;
        return LLVMBuildSelect(B, uf__emit_truth(F, a[0], ad[0]),
                               uf__emit_cast(F, a[1], ad[1], *dt),
                               uf__emit_cast(F, a[2], ad[2], *dt), "");
    }
    const uf__ufunc_loops *row = uf__npufunc_loops(bi);
    uf_dtype t[5];
    if (!row || row->nin != n ||
        !uf__ufunc_select_loop(row->loops, row->nin, row->nout, ad, t)) {
        fail(z, e->pos, UF_ERR_TYPING, "this NumPy function is not "
             "supported on these element types");
        return NULL;
    }
    *dt = t[n];
    return apply_ufunc(z, e, bi, n, ad, a, *dt);
}

static LLVMValueRef root_elem(fused *z, const uf__expr *e, uf_dtype *dt)
{
    LLVMValueRef v = elem(z, e, dt);
    if (!v || e == z->root || !uf__is_arrexpr(z->F->tf, e))
        return v;
    uf_dtype rd = uf__lower_info(z->F, e)->type->dtype;
    v = uf__emit_cast(z->F, v, *dt, rd);
    *dt = rd;
    return v;
}

static LLVMValueRef elem(fused *z, const uf__expr *e, uf_dtype *dt)
{
    uf__fn *F = z->F;
    bool pre = false;
    for (int i = 0; i < z->npre; i++)
        pre = pre || z->pre_e[i] == e;
    if (!pre && fused_node(z, e))
        return e->kind == UF__EX_CALL ? call_node(z, e, dt)
                                      : op_node(z, e, dt);
    for (int i = 0; i < z->nops; i++)
        if (z->ops[i].e == e) {
            *dt = z->ops[i].dt;
            return uf__emit_elem_load(F, z->ops[i].p, z->ops[i].dt);
        }
    for (int i = 0; i < z->nsc; i++)
        if (z->sce[i] == e) {
            *dt = z->scd[i];
            return z->scv[i];
        }
    fail(z, e->pos, UF_ERR_INTERNAL, "an operand of an array expression "
         "was not gathered");
    return NULL;
}

/* dst[.] = value[.] (or dst[.] op= value[.]) at the current addresses. */
static void store_element(fused *z, void *ud)
{
    uf__fn *F = z->F;
    bool *ok = ud;
    if (!*ok)
        return;
    uf_dtype vd;
    LLVMValueRef v = root_elem(z, z->value, &vd);
    if (v && z->augop >= 0) {
        uf_dtype ad[2] = {z->ddt, vd};
        LLVMValueRef a[2] = {uf__emit_elem_load(F, z->dp, z->ddt), v};
        uf__builtin bi = uf__arrexpr_binop_ufunc(z->augop);
        const uf__ufunc_loops *row = uf__npufunc_loops(bi);
        uf_dtype t[3];
        if (!row || !uf__ufunc_select_loop(row->loops, 2, 1, ad, t)) {
            *ok = false;
            fail(z, z->pos, UF_ERR_INTERNAL, "no loop for this augmented "
                 "assignment");
            return;
        }
        v = apply_ufunc(z, z->value, bi, 2, ad, a, t[2]);
        vd = t[2];
    }
    if (!v) {
        *ok = false;
        return;
    }
    uf__emit_elem_store(F, z->dp, z->ddt, uf__emit_cast(F, v, vd, z->ddt));
}

static void set_pointers(fused *z, LLVMValueRef *p)
{
    z->dp = p[0];
    for (int i = 0; i < z->nops; i++)
        z->ops[i].p = p[i + 1];
}

/* The innermost axis with unit strides: indices rather than pointer
 * steps, so that LLVM sees consecutive accesses and vectorises. */
static void unit_loop(fused *z, LLVMValueRef n, const LLVMValueRef *base,
                      bool *ok)
{
    uf__fn *F = z->F;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef head = uf__fn_block(F, "unit.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "unit.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "unit.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildPhi(B, i64t(F), "i");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef p[MAXOPS + 1] = {0};
    for (int k = 0; k <= z->nops; k++) {
        uf_dtype dt = k == 0 ? z->ddt : z->ops[k - 1].dt;
        LLVMValueRef off = LLVMBuildNSWMul(
            B, i, c64(F, (long long)uf_dtype_itemsize(dt)), "");
        p[k] = LLVMBuildInBoundsGEP2(B, i8, base[k], &off, 1, "");
    }
    set_pointers(z, p);
    store_element(z, ok);
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMValueRef in = LLVMBuildNSWAdd(B, i, c64(F, 1), "");
    LLVMValueRef back = LLVMBuildBr(B, head);
    /* no iteration depends on another: operands that overlap the
     * destination were copied, and one that is the destination is read at
     * the element it writes; so the vectoriser needs no alias checks
     * (the host's; NVVM is given no loop metadata it may not know) */
    LLVMValueRef group = NULL;
    LLVMValueRef md = strcmp(F->L->cg->name, "host") == 0
                          ? uf__parallel_loop_md(F->L, &group)
                          : NULL;
    if (md) {
        unsigned ag = LLVMGetMDKindIDInContext(F->L->ctx, "llvm.access.group",
                                               17);
        for (LLVMBasicBlockRef bb = body; bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef x = LLVMGetFirstInstruction(bb); x;
                 x = LLVMGetNextInstruction(x))
                if (LLVMIsALoadInst(x) || LLVMIsAStoreInst(x) ||
                    LLVMIsACallInst(x))
                    LLVMSetMetadata(x, ag, group);
        LLVMSetMetadata(back, LLVMGetMDKindIDInContext(F->L->ctx, "llvm.loop",
                                                       9),
                        md);
    }
    LLVMBasicBlockRef from[2] = {pre, latch};
    LLVMValueRef iv[2] = {c64(F, 0), in};
    LLVMAddIncoming(i, iv, from, 2);
    LLVMPositionBuilderAtEnd(B, done);
}


static void level_body(fused *z, LLVMValueRef *cur, void *ud)
{
    nest *s = ud;
    nest inner = {s->d + 1, s->contig, s->ok};
    uf__arrexpr_level(z, cur, &inner);
}

static void leaf_body(fused *z, LLVMValueRef *cur, void *ud)
{
    set_pointers(z, cur);
    store_element(z, ((nest *)ud)->ok);
}

void uf__arrexpr_level(fused *z, LLVMValueRef *p, nest *s)
{
    uf__fn *F = z->F;
    int d = s->d, np = z->nops + 1;
    if (z->nd == 0) {
        set_pointers(z, p);
        store_element(z, s->ok);
        return;
    }
    LLVMValueRef step[MAXOPS + 1];
    step[0] = z->dstr[d];
    for (int i = 0; i < z->nops; i++)
        step[i + 1] = z->ops[i].str[d];
    if (d < z->nd - 1) { /* its pointers are the inner level's bases */
        strided_loop(z, z->shape[d], np, p, step, level_body, s);
        return;
    }
    LLVMBasicBlockRef unit = uf__fn_block(F, "ax.unit");
    LLVMBasicBlockRef any = uf__fn_block(F, "ax.strided");
    LLVMBasicBlockRef join = uf__fn_block(F, "ax.join");
    LLVMBuildCondBr(B, s->contig, unit, any);
    LLVMPositionBuilderAtEnd(B, unit);
    unit_loop(z, z->shape[d], p, s->ok);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, any);
    strided_loop(z, z->shape[d], np, p, step, leaf_body, s);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, join);
}

/* ---- the store ---------------------------------------------------------- */

/* The fused loop over the destination z->ddata/shape/dstr, with a
 * unit-stride inner loop when every operand's last axis is contiguous. */
static int run_loop(fused *z)
{
    uf__fn *F = z->F;
    LLVMValueRef contig = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0);
    if (z->nd > 0) {
        int d = z->nd - 1;
        contig = LLVMBuildICmp(
            B, LLVMIntEQ, z->dstr[d],
            c64(F, (long long)uf_dtype_itemsize(z->ddt)), "");
        for (int i = 0; i < z->nops; i++)
            contig = LLVMBuildAnd(
                B, contig,
                LLVMBuildICmp(B, LLVMIntEQ, z->ops[i].str[d],
                              c64(F, (long long)uf_dtype_itemsize(
                                         z->ops[i].dt)),
                              ""),
                "contig");
    }
    /* a ufunc never raises: NumPy's error model inside the loop */
    bool model = F->numpy_model, ok = true;
    F->numpy_model = true;
    LLVMValueRef p[MAXOPS + 1];
    p[0] = z->ddata;
    for (int i = 0; i < z->nops; i++)
        p[i + 1] = z->ops[i].data;
    nest s = {0, contig, &ok};
    int rc = uf__arrexpr_run_nest(z, p, &s);
    F->numpy_model = model;
    if (rc != 0 || !ok)
        return -1;
    uf__arrexpr_free_copies(z);
    return 0;
}

int uf__arrexpr_store_into(uf__fn *F, uf__pos pos, LLVMValueRef dst,
                           const uf__type *dt, const uf__expr *value,
                           int augop, const uf__expr *root,
                           const uf__expr *const *pre_e,
                           const LLVMValueRef *pre_v, int npre, int part)
{
    fused *z = uf__calloc(1, sizeof *z, F->err);
    if (!z)
        return F->err->code;
    int rc = -1;
    z->F = F;
    z->pos = pos;
    z->value = value;
    z->augop = augop;
    z->root = root;
    z->pre_e = pre_e;
    z->pre_v = pre_v;
    z->npre = npre;
    z->part = part;
    z->ddt = dt->dtype;
    z->nd = dt->ndim;
    if (z->nd > MAXD) {
        fail(z, pos, UF_ERR_UNSUPPORTED, "too many dimensions");
        goto done;
    }
    z->ddata = uf__emit_array_data(F, dst);
    for (int d = 0; d < z->nd; d++) {
        z->shape[d] = uf__emit_array_dim(F, dst, d);
        z->dstr[d] = uf__emit_array_stride(F, dst, dt, d);
    }
    if (collect(z, value) < 0 || check_shapes(z) < 0)
        goto done;
    for (int i = 0; i < z->nops; i++)
        uf__arrexpr_copy_if_overlap(z, &z->ops[i]);
    if (run_loop(z) < 0)
        goto done;
    rc = 0;
done:
    uf__free(z);
    return rc == 0 ? 0 : (F->err->code ? F->err->code : UF_ERR_INTERNAL);
}

int uf__lower_arrexpr_into(uf__fn *F, uf__pos pos, LLVMValueRef dst,
                           const uf__type *dt, const uf__expr *value,
                           int augop)
{
    return uf__arrexpr_store_into(F, pos, dst, dt, value, augop, NULL, NULL,
                                  NULL, 0, 0);
}

/* ---- the value: a new array ---------------------------------------------- */

LLVMValueRef uf__arrexpr_new_value(uf__fn *F, const uf__expr *e,
                                   const uf__type *rt, bool root,
                                   const uf__expr *const *pre_e,
                                   const LLVMValueRef *pre_v, int npre,
                                   LLVMValueRef *nitems, int part)
{
    if (F->L->cg->sreg != NULL) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "an array expression whose result is not stored "
                         "into an existing array allocates one, which CUDA "
                         "kernels cannot do: store it (out[:] = ...)");
        return NULL;
    }
    fused *z = uf__calloc(1, sizeof *z, F->err);
    if (!z)
        return NULL;
    LLVMValueRef dst = NULL;
    z->F = F;
    z->pos = e->pos;
    z->value = e;
    z->augop = -1;
    z->ddt = rt->dtype;
    z->nd = rt->ndim;
    z->root = root ? e : NULL;
    z->pre_e = pre_e;
    z->pre_v = pre_v;
    z->npre = npre;
    z->part = part;
    if (z->nd > MAXD) {
        fail(z, e->pos, UF_ERR_UNSUPPORTED, "too many dimensions");
        goto done;
    }
    if (collect(z, e) < 0)
        goto done;
    /* the result's shape: the operands broadcast together (the result has
     * the most dimensions of any operand) */
    LLVMValueRef bad = LLVMConstNull(LLVMInt1TypeInContext(F->L->ctx));
    for (int d = 0; d < z->nd; d++)
        z->shape[d] = broadcast_dim(z, z->nd, d, &bad);
    if (!F->fallible) { /* lower_fallible.c makes these fallible */
        fail(z, e->pos, UF_ERR_INTERNAL, "an array expression in a "
             "function that cannot raise");
        goto done;
    }
    raise_operands(z, bad);
    LLVMValueRef arr = uf__lower_new_array(F, z->ddt, z->nd, z->shape,
                                           nitems);
    if (!arr)
        goto done;
    z->ddata = uf__emit_array_data(F, arr);
    for (int d = 0; d < z->nd; d++)
        z->dstr[d] = uf__emit_array_stride(F, arr, rt, d);
    /* a new array overlaps nothing: no copies */
    if (run_loop(z) == 0)
        dst = arr;
done:
    uf__free(z);
    return dst;
}

LLVMValueRef uf__lower_arrexpr_value(uf__fn *F, const uf__expr *e)
{
    LLVMValueRef nitems;
    return uf__arrexpr_new_value(F, e, uf__lower_info(F, e)->type, false,
                                 NULL, NULL, 0, &nitems, 0);
}

LLVMValueRef uf__lower_arrexpr_elems(uf__fn *F, const uf__expr *e,
                                     uf_dtype dt, int nd,
                                     const uf__expr *const *pre_e,
                                     const LLVMValueRef *pre_v, int npre,
                                     LLVMValueRef *nitems)
{
    const uf__type *rt = uf__type_array(F->tf->km->tc, dt, nd, 'C', F->err);
    if (!rt)
        return NULL;
    return uf__arrexpr_new_value(F, e, rt, true, pre_e, pre_v, npre, nitems,
                                 0);
}
