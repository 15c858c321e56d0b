/* The lowering of typed expressions: literals, names, operators with the
 * operand types inference chose, comparisons, boolean operators,
 * conditional expressions, tuples, subscripts (arrays and run-time tuple
 * indices in lower_index.c) and calls of other kernels (inlined later).
 * The operators themselves are emitted by lower_ops.c. */
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_arrattr.h"
#include "compiler/lower/lower_stmt.h"
#include "compiler/types/infer_arrexpr.h"

#define B (F->L->b)

/* ---- typed expressions ------------------------------------------------ */

const uf__expr_info *uf__lower_info(uf__fn *F, const uf__expr *e)
{
    return uf__tf_info(F->tf, e);
}

static LLVMValueRef unsupported_expr(uf__fn *F, const uf__expr *e,
                                     const char *what)
{
    uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                     "%s is not supported by the CPU lowering", what);
    return NULL;
}

LLVMValueRef uf__lower_constant(uf__fn *F, const uf__constant *c)
{
    uf_dtype dt = c->type->dtype;
    if (dt == UF_BOOL)
        return LLVMConstInt(uf__lower_dtype(F->L, dt), c->v.b ? 1 : 0, 0);
    if (uf__dtype_is_signed(dt))
        return uf__emit_const_int(F, dt, c->v.i);
    if (uf__dtype_is_int(dt))
        return LLVMConstInt(uf__lower_dtype(F->L, dt), c->v.u, 0);
    if (uf__dtype_is_float(dt))
        return uf__emit_const_float(F, dt, c->v.f);
    return uf__emit_complex(F, dt, uf__emit_const_float(F, dt, c->v.c[0]),
                            uf__emit_const_float(F, dt, c->v.c[1]));
}

/* The scalar dtype of an expression's value, or false. */
static bool scalar_dtype(uf__fn *F, const uf__expr *e, uf_dtype *dt)
{
    const uf__type *t = uf__lower_info(F, e)->type;
    if (!t || t->kind != UF__T_SCALAR)
        return false;
    *dt = t->dtype;
    return true;
}

/* Lowers `e` and converts it to the scalar dtype `to`. */
static LLVMValueRef scalar_as(uf__fn *F, const uf__expr *e, uf_dtype to)
{
    uf_dtype from;
    LLVMValueRef v = uf__lower_expr(F, e);
    if (!v)
        return NULL;
    if (!scalar_dtype(F, e, &from))
        return unsupported_expr(F, e, "a non-scalar operand");
    return uf__emit_cast(F, v, from, to);
}

static LLVMValueRef lower_literal(uf__fn *F, const uf__expr *e)
{
    uf_dtype to;
    if (!scalar_dtype(F, e, &to))
        return unsupported_expr(F, e, "this literal");
    switch (e->kind) {
    case UF__EX_INT:
        if (e->u.i.too_big)
            return unsupported_expr(F, e, "an integer literal this large");
        /* int64 unless inference made it uint64 (> INT64_MAX) */
        return uf__emit_cast(
            F,
            LLVMConstInt(LLVMInt64TypeInContext(F->L->ctx), e->u.i.value, 0),
            uf_dtype_kind(to) == 'u' ? UF_UINT64 : UF_INT64, to);
    case UF__EX_FLOAT:
        return uf__emit_cast(
            F, LLVMConstReal(LLVMDoubleTypeInContext(F->L->ctx), e->u.f),
            UF_FLOAT64, to);
    case UF__EX_IMAG:
        return uf__emit_cast(
            F,
            uf__emit_complex(F, UF_COMPLEX128,
                             uf__emit_const_float(F, UF_FLOAT64, 0.0),
                             uf__emit_const_float(F, UF_FLOAT64, e->u.f)),
            UF_COMPLEX128, to);
    case UF__EX_BOOL:
        return uf__emit_cast(
            F, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), e->u.b, 0),
            UF_BOOL, to);
    default:
        return unsupported_expr(F, e, "this literal");
    }
}

static LLVMValueRef lower_name(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    if (in->constant)
        return uf__lower_constant(F, in->constant);
    if (in->garray)
        return uf__lower_garray(F, in->garray, e);
    if (in->gtuple) { /* a module tuple: its folded numbers */
        LLVMTypeRef ty = uf__lower_type(F->L, in->type, F->err);
        if (!ty)
            return NULL;
        LLVMValueRef r = LLVMGetUndef(ty);
        for (int i = 0; i < in->gtuple->n; i++) {
            LLVMValueRef v = uf__lower_constant(F, &in->gtuple->elts[i]);
            if (!v)
                return NULL;
            r = LLVMBuildInsertValue(B, r, v, (unsigned)i, "");
        }
        return r;
    }
    const char *name = e->u.name.id;
    for (int i = 0; i < F->tf->nvars; i++) {
        if (strcmp(F->tf->vars[i].name, name) != 0)
            continue;
        if (!F->vars[i])
            break;
        LLVMTypeRef ty = uf__lower_type(F->L, F->tf->vars[i].type, F->err);
        if (!ty)
            return NULL;
        LLVMValueRef v = LLVMBuildLoad2(B, ty, F->vars[i], name);
        /* a use may be typed narrower than the unified variable */
        return uf__emit_convert(F, v, F->tf->vars[i].type, in->type);
    }
    return unsupported_expr(F, e, "this use of a name");
}

/* base ** exponent with an integer exponent kept integral (Numba's
 * float ** int by repeated squaring; unrolled for literals). */
static LLVMValueRef lower_pow_int(uf__fn *F, const uf__expr *left,
                                  const uf__expr *right, uf_dtype od)
{
    LLVMValueRef a = scalar_as(F, left, od);
    if (!a)
        return NULL;
    const uf__expr *r = right;
    bool neg = false;
    if (r->kind == UF__EX_UNARY && r->u.unary.op == UF__OP_NEG &&
        r->u.unary.operand->kind == UF__EX_INT) {
        neg = true;
        r = r->u.unary.operand;
    }
    if (r->kind == UF__EX_INT && !r->u.i.too_big && r->u.i.value <= 0x10000)
        return uf__emit_pow_const(F, od, a,
                                  neg ? -(int64_t)r->u.i.value
                                      : (int64_t)r->u.i.value);
    uf_dtype nd;
    LLVMValueRef n = uf__lower_expr(F, right);
    if (!n)
        return NULL;
    if (!scalar_dtype(F, right, &nd))
        return unsupported_expr(F, right, "this exponent");
    if (nd == UF_BOOL) {
        n = uf__emit_cast(F, n, nd, UF_INT64);
        nd = UF_INT64;
    }
    return uf__emit_pow_int(F, od, a, nd, n);
}

/* The dtype uf__emit_binop's result has for optype od. */
static uf_dtype binop_result(uf__binop op, uf_dtype od)
{
    if (op == UF__OP_DIV && (uf__dtype_is_int(od) || od == UF_BOOL))
        return UF_FLOAT64;
    if (od == UF_BOOL && op != UF__OP_BITAND && op != UF__OP_BITOR &&
        op != UF__OP_BITXOR)
        return UF_INT64;
    return od;
}

LLVMValueRef uf__lower_binop(uf__fn *F, uf__binop op, const uf__expr *left,
                             const uf__expr *right, uf_dtype od, uf_dtype rd)
{
    uf_dtype nd;
    LLVMValueRef r;
    if (op == UF__OP_POW && scalar_dtype(F, right, &nd) &&
        (uf__dtype_is_int(nd) || nd == UF_BOOL) &&
        (uf__dtype_is_int(od) || uf__dtype_is_float(od))) {
        if (!(r = lower_pow_int(F, left, right, od)))
            return NULL;
        return uf__emit_cast(F, r, od, rd);
    }
    LLVMValueRef a = scalar_as(F, left, od);
    LLVMValueRef b = a ? scalar_as(F, right, od) : NULL;
    if (!b)
        return NULL;
    if (!(r = uf__emit_binop(F, op, od, a, b)))
        return NULL;
    return uf__emit_cast(F, r, binop_result(op, od), rd);
}

LLVMValueRef uf__emit_binop_values(uf__fn *F, uf__binop op, uf_dtype ad,
                                   LLVMValueRef a, uf_dtype bd,
                                   LLVMValueRef b, uf_dtype od, uf_dtype rd)
{
    LLVMValueRef r;
    if (op == UF__OP_POW && (uf__dtype_is_int(bd) || bd == UF_BOOL) &&
        (uf__dtype_is_int(od) || uf__dtype_is_float(od))) {
        if (bd == UF_BOOL) {
            b = uf__emit_cast(F, b, bd, UF_INT64);
            bd = UF_INT64;
        }
        r = uf__emit_pow_int(F, od, uf__emit_cast(F, a, ad, od), bd, b);
        return r ? uf__emit_cast(F, r, od, rd) : NULL;
    }
    if (!(r = uf__emit_binop(F, op, od, uf__emit_cast(F, a, ad, od),
                             uf__emit_cast(F, b, bd, od))))
        return NULL;
    return uf__emit_cast(F, r, binop_result(op, od), rd);
}

/* t + u, t * n of tuples (infer_expr.c's tuple_binop): the result's
 * elements moved from the operands' in order, n known from the type. */
static LLVMValueRef lower_tuple_binop(uf__fn *F, const uf__expr *e,
                                      const uf__type *rt)
{
    const uf__expr *x[2] = {e->u.binary.left, e->u.binary.right};
    LLVMValueRef v[2] = {NULL, NULL};
    const uf__type *t[2];
    for (int k = 0; k < 2; k++) {
        t[k] = uf__lower_info(F, x[k])->type;
        if (t[k]->kind == UF__T_TUPLE && !(v[k] = uf__lower_expr(F, x[k])))
            return NULL;
    }
    LLVMTypeRef ty = uf__lower_type(F->L, rt, F->err);
    if (!ty)
        return NULL;
    LLVMValueRef r = LLVMGetUndef(ty);
    int k = t[0]->kind == UF__T_TUPLE ? 0 : 1, j = 0;
    for (int i = 0; i < rt->n; i++, j++) {
        if (j == t[k]->n) { /* the next operand, or t again */
            j = 0;
            if (e->u.binary.op == UF__OP_ADD)
                k = 1;
        }
        r = LLVMBuildInsertValue(
            B, r, LLVMBuildExtractValue(B, v[k], (unsigned)j, ""),
            (unsigned)i, "");
    }
    return r;
}

static LLVMValueRef lower_binary(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf_dtype rd;
    if (in->type && in->type->kind == UF__T_TUPLE)
        return lower_tuple_binop(F, e, in->type);
    if (in->type && in->type->kind == UF__T_LIST) /* lower_list_ops.c */
        return uf__lower_list_binop(F, e);
    if (in->type && in->type->kind == UF__T_SET) /* lower_set.c */
        return uf__lower_set_binop(F, e);
    if (in->builtin == UF__BI_NP_DOT) /* x @ y of arrays */
        return uf__lower_npreduce(F, e);
    if (!in->optype || in->optype->kind != UF__T_SCALAR ||
        !scalar_dtype(F, e, &rd))
        return unsupported_expr(F, e, "this operation");
    if (e->u.binary.op == UF__OP_MATMUL)
        return unsupported_expr(F, e, "the @ operator");
    return uf__lower_binop(F, e->u.binary.op, e->u.binary.left,
                           e->u.binary.right, in->optype->dtype, rd);
}

static LLVMValueRef lower_unary(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf_dtype rd, od;
    const uf__type *lt = uf__lower_info(F, e->u.unary.operand)->type;
    if (lt && lt->kind == UF__T_LIST && e->u.unary.op == UF__OP_NOT) {
        LLVMValueRef l = uf__lower_expr(F, e->u.unary.operand);
        return l ? LLVMBuildICmp(B, LLVMIntEQ, uf__emit_list_len(F, l),
                                 LLVMConstNull(LLVMInt64TypeInContext(
                                     F->L->ctx)),
                                 "")
                 : NULL; /* `not l`: empty */
    }
    if (!scalar_dtype(F, e, &rd) ||
        !(in->optype ? (in->optype->kind == UF__T_SCALAR &&
                        ((od = in->optype->dtype), true))
                     : scalar_dtype(F, e->u.unary.operand, &od)))
        return unsupported_expr(F, e, "this operation");
    LLVMValueRef v = scalar_as(F, e->u.unary.operand, od);
    if (!v)
        return NULL;
    uf__unop op = e->u.unary.op;
    LLVMValueRef r = uf__emit_unop(F, op, od, v);
    if (!r)
        return NULL;
    uf_dtype got = op == UF__OP_NOT ? UF_BOOL
                   : (op == UF__OP_NEG && od == UF_BOOL) ? UF_INT64
                                                         : od;
    return uf__emit_cast(F, r, got, rd);
}

/* a < b <= c: each operand evaluated once, left to right, stopping at the
 * first false comparison. */
/* a is b, a is not b (typed by infer_expr.c's is_expr): both operands
 * evaluated (None has nothing to evaluate), then as Numba. */
static LLVMValueRef lower_is(uf__fn *F, const uf__expr *e, uf_dtype rd)
{
    const uf__expr *x[2] = {e->u.compare.operands[0],
                            e->u.compare.operands[1]};
    const uf__type *t[2];
    LLVMValueRef v[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        t[k] = uf__lower_info(F, x[k])->type;
        if (t[k]->kind != UF__T_NONE && !(v[k] = uf__lower_expr(F, x[k])))
            return NULL;
    }
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    LLVMValueRef c;
    if (t[0] != t[1] || t[0]->kind == UF__T_NONE) {
        c = LLVMConstInt(i1, t[0] == t[1], 0);
    } else if (t[0]->kind == UF__T_SCALAR) {
        if (!(c = uf__emit_cmp(F, UF__CMP_EQ, t[0]->dtype, v[0], v[1])))
            return NULL;
    } else {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
        c = LLVMBuildICmp(
            B, LLVMIntEQ,
            LLVMBuildPtrToInt(B, uf__emit_array_data(F, v[0]), i64, ""),
            LLVMBuildPtrToInt(B, uf__emit_array_data(F, v[1]), i64, ""), "");
        for (int k = 0; k < t[0]->ndim; k++) {
            c = LLVMBuildAnd(B, c,
                             LLVMBuildICmp(B, LLVMIntEQ,
                                           uf__emit_array_dim(F, v[0], k),
                                           uf__emit_array_dim(F, v[1], k), ""),
                             "");
            c = LLVMBuildAnd(
                B, c,
                LLVMBuildICmp(B, LLVMIntEQ,
                              uf__emit_array_stride(F, v[0], t[0], k),
                              uf__emit_array_stride(F, v[1], t[1], k), ""),
                "");
        }
    }
    if (e->u.compare.ops[0] == UF__CMP_ISNOT)
        c = LLVMBuildNot(B, c, "");
    return uf__emit_cast(F, c, UF_BOOL, rd);
}

/* t op u of tuples of numbers (infer_expr.c's tuple_compare), as
 * Numba's: == every element equal (and the lengths); the ordered ones
 * decided by the first pair that differs, else by the lengths. */
static LLVMValueRef lower_tuple_compare(uf__fn *F, const uf__expr *e,
                                        uf__cmpop op, uf_dtype rd)
{
    const uf__expr *x[2] = {e->u.compare.operands[0],
                            e->u.compare.operands[1]};
    const uf__type *t[2];
    LLVMValueRef v[2];
    for (int k = 0; k < 2; k++) {
        t[k] = uf__lower_info(F, x[k])->type;
        if (!(v[k] = uf__lower_expr(F, x[k])))
            return NULL;
    }
    int n = t[0]->n < t[1]->n ? t[0]->n : t[1]->n;
    bool eq = op == UF__CMP_EQ || op == UF__CMP_NE;
    int la = t[0]->n, lb = t[1]->n;
    bool by_len = op == UF__CMP_EQ   ? la == lb
                  : op == UF__CMP_NE ? la != lb
                  : op == UF__CMP_LT ? la < lb
                  : op == UF__CMP_LE ? la <= lb
                  : op == UF__CMP_GT ? la > lb
                                     : la >= lb;
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    LLVMValueRef r = LLVMConstInt(i1, by_len, 0);
    if (eq && la != lb) /* unequal whatever the elements */
        return uf__emit_cast(F, r, UF_BOOL, rd);
    for (int i = n - 1; i >= 0; i--) {
        const uf__type *ot = NULL;
        if (!uf__type_compare(F->tf->km->tc, (int)op, t[0]->elts[i],
                              t[1]->elts[i], &ot) || ot == NULL)
            return unsupported_expr(F, e, "this tuple comparison");
        uf_dtype od = ot->dtype;
        LLVMValueRef p = uf__emit_cast(
            F, LLVMBuildExtractValue(B, v[0], (unsigned)i, ""),
            t[0]->elts[i]->dtype, od);
        LLVMValueRef q = uf__emit_cast(
            F, LLVMBuildExtractValue(B, v[1], (unsigned)i, ""),
            t[1]->elts[i]->dtype, od);
        LLVMValueRef ne = uf__emit_cmp(F, UF__CMP_NE, od, p, q);
        LLVMValueRef c = eq ? NULL : uf__emit_cmp(F, op, od, p, q);
        if (!ne || (!eq && !c))
            return NULL;
        if (eq) /* ==: all equal; !=: any differs */
            r = op == UF__CMP_EQ ? LLVMBuildAnd(B, r, LLVMBuildNot(B, ne, ""), "")
                                 : LLVMBuildOr(B, r, ne, "");
        else
            r = LLVMBuildSelect(B, ne, c, r, "");
    }
    return uf__emit_cast(F, r, UF_BOOL, rd);
}

static LLVMValueRef lower_compare(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf_dtype rd;
    if (e->u.compare.nops == 1 && (e->u.compare.ops[0] == UF__CMP_IS ||
                                   e->u.compare.ops[0] == UF__CMP_ISNOT))
        return scalar_dtype(F, e, &rd) ? lower_is(F, e, rd)
                                       : unsupported_expr(F, e, "'is'");
    if (in->builtin == UF__BI_NP_DOT) /* x @ y of arrays */
        return uf__lower_npreduce(F, e);
    if (e->u.compare.nops == 1 && (e->u.compare.ops[0] == UF__CMP_IN ||
                                   e->u.compare.ops[0] == UF__CMP_NOTIN))
        return uf__lower_contains(F, e);
    if (e->u.compare.nops == 1 &&
        uf__lower_info(F, e->u.compare.operands[0])->type->kind ==
            UF__T_LIST) /* lower_list_ops.c */
        return uf__lower_list_compare(F, e);
    if (e->u.compare.nops == 1 &&
        uf__lower_info(F, e->u.compare.operands[0])->type->kind ==
            UF__T_SET) /* lower_set.c */
        return uf__lower_set_compare(F, e);
    if (e->u.compare.nops == 1 &&
        uf__lower_info(F, e->u.compare.operands[0])->type->kind ==
            UF__T_DICT) /* lower_dict.c */
        return uf__lower_dict_compare(F, e);
    if (e->u.compare.nops == 1 &&
        uf__lower_info(F, e->u.compare.operands[0])->type->kind ==
            UF__T_TUPLE &&
        scalar_dtype(F, e, &rd))
        return lower_tuple_compare(F, e, e->u.compare.ops[0], rd);
    if (!in->optype || in->optype->kind != UF__T_SCALAR ||
        !scalar_dtype(F, e, &rd))
        return unsupported_expr(F, e, "this comparison");
    uf_dtype od = in->optype->dtype;
    int n = e->u.compare.nops;
    for (int i = 0; i < n; i++)
        if (e->u.compare.ops[i] > UF__CMP_GE)
            return unsupported_expr(F, e, "is / in comparisons");
    LLVMValueRef left = scalar_as(F, e->u.compare.operands[0], od);
    if (!left)
        return NULL;
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    LLVMBasicBlockRef done = n > 1 ? uf__fn_block(F, "cmp.done") : NULL;
    LLVMValueRef phi_v[64];
    LLVMBasicBlockRef phi_b[64];
    int np = 0;
    LLVMValueRef c = NULL;
    if (n > 64)
        return unsupported_expr(F, e, "a comparison chain this long");
    for (int i = 0; i < n; i++) {
        LLVMValueRef right = scalar_as(F, e->u.compare.operands[i + 1], od);
        if (!right)
            return NULL;
        if (!(c = uf__emit_cmp(F, e->u.compare.ops[i], od, left, right)))
            return NULL;
        if (i < n - 1) {
            LLVMBasicBlockRef next = uf__fn_block(F, "cmp.next");
            phi_v[np] = LLVMConstInt(i1, 0, 0);
            phi_b[np++] = LLVMGetInsertBlock(B);
            LLVMBuildCondBr(B, c, next, done);
            LLVMPositionBuilderAtEnd(B, next);
        }
        left = right;
    }
    if (done) {
        phi_v[np] = c;
        phi_b[np++] = LLVMGetInsertBlock(B);
        LLVMBuildBr(B, done);
        LLVMPositionBuilderAtEnd(B, done);
        c = LLVMBuildPhi(B, i1, "cmp");
        LLVMAddIncoming(c, phi_v, phi_b, (unsigned)np);
    }
    return uf__emit_cast(F, c, UF_BOOL, rd);
}

/* x and y / x or y: the first operand deciding the outcome, converted to
 * the unified type. */
static LLVMValueRef lower_boolop(uf__fn *F, const uf__expr *e)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    LLVMTypeRef ty = rt ? uf__lower_type(F->L, rt, F->err) : NULL;
    if (!ty)
        return NULL;
    int n = e->u.boolop.n;
    if (n > 64)
        return unsupported_expr(F, e, "a boolean chain this long");
    LLVMBasicBlockRef done = uf__fn_block(F, "bool.done");
    LLVMValueRef vals[64];
    LLVMBasicBlockRef from[64];
    int nv = 0;
    /* an operand whose test is pruned (infer_prune.c) always passes on,
     * or always is the result and what follows is dead (not typed) */
    signed char stop = e->u.boolop.is_and ? -1 : 1;
    for (int i = 0; i < n; i++) {
        const uf__expr *x = e->u.boolop.values[i];
        LLVMValueRef v = uf__lower_expr(F, x);
        if (!v)
            return NULL;
        const uf__type *xt = uf__lower_info(F, x)->type;
        signed char tr = i < n - 1 ? uf__lower_info(F, x)->truth : 0;
        if (tr == -stop)
            continue;
        if (tr == stop)
            n = i + 1; /* the result */
        LLVMValueRef t = NULL;
        if (i < n - 1) {
            if (!xt || xt->kind != UF__T_SCALAR)
                return unsupported_expr(F, x, "the truth value of this");
            t = uf__emit_truth(F, v, xt->dtype);
        }
        if (!(vals[nv] = uf__emit_convert(F, v, xt, rt)))
            return NULL;
        from[nv++] = LLVMGetInsertBlock(B);
        if (i < n - 1) {
            LLVMBasicBlockRef next = uf__fn_block(F, "bool.next");
            if (e->u.boolop.is_and)
                LLVMBuildCondBr(B, t, next, done);
            else
                LLVMBuildCondBr(B, t, done, next);
            LLVMPositionBuilderAtEnd(B, next);
        } else {
            LLVMBuildBr(B, done);
        }
    }
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef phi = LLVMBuildPhi(B, ty, "bool");
    LLVMAddIncoming(phi, vals, from, (unsigned)nv);
    return phi;
}

static LLVMValueRef lower_ifexp(uf__fn *F, const uf__expr *e)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    LLVMTypeRef ty = rt ? uf__lower_type(F->L, rt, F->err) : NULL;
    if (!ty)
        return NULL;
    const uf__expr *ce = e->u.ifexp.cond;
    signed char tr = uf__lower_info(F, ce)->truth;
    if (tr != 0) { /* pruned (infer_prune.c): the other arm is dead */
        if (uf__cond_runs(ce) && !uf__lower_expr(F, ce))
            return NULL;
        const uf__expr *arm = tr > 0 ? e->u.ifexp.then : e->u.ifexp.orelse;
        LLVMValueRef v = uf__lower_expr(F, arm);
        return v ? uf__emit_convert(F, v, uf__lower_info(F, arm)->type, rt)
                 : NULL;
    }
    const uf__type *ct = uf__lower_info(F, ce)->type;
    LLVMValueRef c;
    if (ct && (ct->kind == UF__T_LIST || ct->kind == UF__T_DICT ||
               ct->kind == UF__T_SET)) {
        if (!(c = uf__lower_truth_of(F, ce))) /* not empty (lower.c) */
            return NULL;
    } else {
        uf_dtype cd;
        if (!(c = uf__lower_expr(F, ce)))
            return NULL;
        if (!scalar_dtype(F, ce, &cd))
            return unsupported_expr(F, ce, "the truth value of this");
        c = uf__emit_truth(F, c, cd);
    }
    LLVMBasicBlockRef bt = uf__fn_block(F, "ifx.then");
    LLVMBasicBlockRef bf = uf__fn_block(F, "ifx.else");
    LLVMBasicBlockRef done = uf__fn_block(F, "ifx.done");
    LLVMBuildCondBr(B, c, bt, bf);
    LLVMValueRef vals[2];
    LLVMBasicBlockRef from[2];
    const uf__expr *arms[2] = {e->u.ifexp.then, e->u.ifexp.orelse};
    LLVMBasicBlockRef starts[2] = {bt, bf};
    for (int i = 0; i < 2; i++) {
        LLVMPositionBuilderAtEnd(B, starts[i]);
        LLVMValueRef v = uf__lower_expr(F, arms[i]);
        if (!v || !(vals[i] = uf__emit_convert(
                        F, v, uf__lower_info(F, arms[i])->type, rt)))
            return NULL;
        from[i] = LLVMGetInsertBlock(B);
        LLVMBuildBr(B, done);
    }
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef phi = LLVMBuildPhi(B, ty, "ifx");
    LLVMAddIncoming(phi, vals, from, 2);
    return phi;
}

static LLVMValueRef lower_tuple(uf__fn *F, const uf__expr *e)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    if (!rt || rt->kind != UF__T_TUPLE || rt->n != e->u.seq.n)
        return unsupported_expr(F, e, "this tuple");
    LLVMTypeRef ty = uf__lower_type(F->L, rt, F->err);
    if (!ty)
        return NULL;
    LLVMValueRef r = LLVMGetUndef(ty);
    for (int i = 0; i < rt->n; i++) {
        const uf__expr *x = e->u.seq.elts[i];
        LLVMValueRef v = uf__lower_expr(F, x);
        if (!v ||
            !(v = uf__emit_convert(F, v, uf__lower_info(F, x)->type,
                                   rt->elts[i])))
            return NULL;
        r = LLVMBuildInsertValue(B, r, v, (unsigned)i, "");
    }
    return r;
}

/* t[k] for a tuple and a literal index; arrays and run-time tuple
 * indices in lower_index.c. */
static LLVMValueRef lower_subscript(uf__fn *F, const uf__expr *e)
{
    const uf__expr *base = e->u.subscript.value;
    const uf__type *bt = uf__lower_info(F, base)->type;
    if (uf__is_flat_subscript(F, e)) /* lower_flat.c */
        return uf__lower_flat_load(F, e);
    if (bt && bt->kind == UF__T_ARRAY)
        return uf__lower_index(F, e);
    if (bt && bt->kind == UF__T_LIST) /* lower_list.c */
        return uf__lower_list_index(F, e);
    if (bt && bt->kind == UF__T_DICT) /* lower_dict.c */
        return uf__lower_dict_index(F, e);
    if (!bt || bt->kind != UF__T_TUPLE || e->u.subscript.nindex != 1)
        return unsupported_expr(F, e, "indexing this value");
    const uf__expr *ix = e->u.subscript.index[0];
    bool neg = false;
    if (ix->kind == UF__EX_UNARY && ix->u.unary.op == UF__OP_NEG) {
        neg = true;
        ix = ix->u.unary.operand;
    }
    if (ix->kind != UF__EX_INT)
        return uf__lower_index(F, e);
    if (ix->u.i.value > (uint64_t)bt->n)
        return unsupported_expr(F, e, "a tuple index that is not a literal in "
                                      "range");
    int k = neg ? bt->n - (int)ix->u.i.value : (int)ix->u.i.value;
    if (k < 0 || k >= bt->n)
        return unsupported_expr(F, e, "a tuple index out of range");
    LLVMValueRef v = uf__lower_expr(F, base);
    if (!v)
        return NULL;
    v = LLVMBuildExtractValue(B, v, (unsigned)k, "");
    return uf__emit_convert(F, v, bt->elts[k], uf__lower_info(F, e)->type);
}

/* A call of a kernel of the file (inlined later: alwaysinline). */
static LLVMValueRef lower_kernel_call(uf__fn *F, const uf__expr *e,
                                      const uf__typed_func *callee)
{
    bool cf;
    LLVMValueRef fn = uf__lower_func(F->L, callee, &cf, F->err);
    if (!fn)
        return NULL;
    uf__lower_inline_budget(F->L, fn);
    const uf__stmt *def = callee->decl->def;
    int np = def->u.funcdef.nparams;
    if (np != callee->nargs || np > 64)
        return unsupported_expr(F, e, "this call");
    const uf__expr *argx[64] = {0};
    if (e->u.call.nargs > np)
        return unsupported_expr(F, e, "a call with too many arguments");
    for (int i = 0; i < e->u.call.nargs; i++)
        argx[i] = e->u.call.args[i];
    for (int k = 0; k < e->u.call.nkw; k++) {
        int i = 0;
        while (i < np &&
               strcmp(def->u.funcdef.params[i].name, e->u.call.kw[k].name) != 0)
            i++;
        if (i == np || argx[i])
            return unsupported_expr(F, e, "this keyword argument");
        argx[i] = e->u.call.kw[k].value;
    }
    LLVMValueRef args[65];
    unsigned na = 0;
    const uf__type *rt = callee->ret;
    LLVMValueRef out = NULL;
    if (cf && rt->kind != UF__T_NONE) {
        LLVMTypeRef ty = uf__lower_type(F->L, rt, F->err);
        if (!ty)
            return NULL;
        out = uf__fn_alloca(F, ty, "ret");
        args[na++] = out;
    }
    for (int i = 0; i < np; i++) {
        if (!argx[i])
            return unsupported_expr(F, e, "a call relying on a default "
                                          "argument");
        LLVMValueRef v = uf__lower_expr(F, argx[i]);
        if (!v || !(v = uf__emit_convert(F, v, uf__lower_info(F, argx[i])->type,
                                         callee->args[i])))
            return NULL;
        args[na++] = v;
    }
    LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
    LLVMValueRef r = LLVMBuildCall2(B, fty, fn, args, na, "");
    if (cf) {
        /* arrays it appended to a list of arrays we gave it come back on
         * every path, an exception's too (lower_list_items.c) */
        bool lists = uf__call_takes_list_arrays(callee);
        if (lists)
            uf__lower_alloc_adopt(F);
        uf__fn_raise_status(F, r);
        if (uf__type_holds_array(rt) && !lists) /* its new arrays are
                                                   ours now */
            uf__lower_alloc_adopt(F);
        if (!out)
            return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
        r = LLVMBuildLoad2(B, uf__lower_type(F->L, rt, F->err), out, "");
    } else if (rt->kind == UF__T_NONE) {
        return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
    }
    return uf__emit_convert(F, r, rt, uf__lower_info(F, e)->type);
}

LLVMValueRef uf__lower_expr(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    if (uf__is_arrexpr(F->tf, e)) /* not stored: into a new array */
        return uf__lower_arrexpr_value(F, e);
    if (uf__is_ufunc_out(F->tf, e)) /* np.sqrt(x, out): into out */
        return uf__lower_ufunc_out(F, e);
    if (uf__lower_is_dtype_value(F, e)) /* lower_arrattr.c */
        return uf__lower_dtype_value(F, e);
    if (uf__builtin_is_ustr(in->builtin)) /* lower_ustr.c */
        return uf__lower_ustr(F, e);
    if (uf__lower_is_str_value(F, e)) /* lower_str.c */
        return uf__lower_str_value(F, e);
    switch (e->kind) {
    case UF__EX_INT:
    case UF__EX_FLOAT:
    case UF__EX_IMAG:
    case UF__EX_BOOL:
        if (in->constant)
            return uf__lower_constant(F, in->constant);
        return lower_literal(F, e);
    case UF__EX_NAME:
        return lower_name(F, e);
    case UF__EX_ATTR:
        if (in->constant)
            return uf__lower_constant(F, in->constant);
        if (in->builtin != UF__BI_NONE)
            return uf__lower_builtin(F, e);
        return unsupported_expr(F, e, "this attribute");
    case UF__EX_CALL:
        if (in->callee)
            return lower_kernel_call(F, e, in->callee);
        if (in->ext)
            return uf__lower_extern_call(F, e, in->ext);
        if (in->builtin != UF__BI_NONE)
            return uf__lower_builtin(F, e);
        return unsupported_expr(F, e, "this call");
    case UF__EX_SUBSCRIPT:
        return lower_subscript(F, e);
    case UF__EX_UNARY:
        return lower_unary(F, e);
    case UF__EX_BINARY:
        return lower_binary(F, e);
    case UF__EX_BOOLOP:
        return lower_boolop(F, e);
    case UF__EX_COMPARE:
        return lower_compare(F, e);
    case UF__EX_IFEXP:
        return lower_ifexp(F, e);
    case UF__EX_TUPLE:
        return lower_tuple(F, e);
    case UF__EX_STR:
        return unsupported_expr(F, e, "a string value");
    case UF__EX_NONE:
        return unsupported_expr(F, e, "None as a value");
    case UF__EX_LIST: /* np.array([1.0, 2.0]): typed as a tuple */
        if (uf__lower_info(F, e)->type &&
            uf__lower_info(F, e)->type->kind == UF__T_TUPLE)
            return lower_tuple(F, e);
        return uf__lower_list_literal(F, e); /* lower_list.c */
    default:
        return unsupported_expr(F, e, "this expression");
    }
}
