/* Typing of whole-array expressions (x * w + b, np.sqrt(x), a < b,
 * np.where(c, x, y), np.clip(a, lo, hi)) as Numba types its array
 * expressions: an operator on arrays is the NumPy ufunc behind it (+ is
 * np.add), whose loop is chosen from the element dtypes exactly as for
 * scalars (infer_npufunc.c: a scalar operand counts by its own dtype, no
 * value-based casting), and the result is an array of the broadcast
 * number of dimensions.
 *
 * Such an expression is never materialised: with no allocation inside
 * kernels yet, it may only be the source of a store into existing memory
 * (out[:] = e, out[...] = e, a[i, :] = e) or the value of an augmented
 * assignment to an array (a += e); lower_arrexpr.c fuses it into one loop
 * over the destination. uf__check_array_exprs refuses it anywhere else. */
#include <string.h>

#include "compiler/front/ast_visit.h"
#include "compiler/types/infer_arrexpr.h"
#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_nppred.h"
#include "compiler/types/infer_npufunc.h"

uf__builtin uf__arrexpr_binop_ufunc(int op)
{
    switch ((uf__binop)op) {
    case UF__OP_ADD: return UF__BI_NP_ADD;
    case UF__OP_SUB: return UF__BI_NP_SUBTRACT;
    case UF__OP_MUL: return UF__BI_NP_MULTIPLY;
    case UF__OP_DIV: return UF__BI_NP_TRUE_DIVIDE;
    case UF__OP_FLOORDIV: return UF__BI_NP_FLOOR_DIVIDE;
    case UF__OP_MOD: return UF__BI_NP_REMAINDER;
    case UF__OP_POW: return UF__BI_NP_POWER;
    case UF__OP_LSHIFT: return UF__BI_NP_LEFT_SHIFT;
    case UF__OP_RSHIFT: return UF__BI_NP_RIGHT_SHIFT;
    case UF__OP_BITAND: return UF__BI_NP_BITWISE_AND;
    case UF__OP_BITOR: return UF__BI_NP_BITWISE_OR;
    case UF__OP_BITXOR: return UF__BI_NP_BITWISE_XOR;
    default: return UF__BI_NONE;
    }
}

uf__builtin uf__arrexpr_unop_ufunc(int op)
{
    switch ((uf__unop)op) {
    case UF__OP_NEG: return UF__BI_NP_NEGATIVE;
    case UF__OP_POS: return UF__BI_NP_POSITIVE;
    case UF__OP_INVERT: return UF__BI_NP_INVERT;
    default: return UF__BI_NONE;
    }
}

uf__builtin uf__arrexpr_cmp_ufunc(int op)
{
    switch ((uf__cmpop)op) {
    case UF__CMP_EQ: return UF__BI_NP_EQUAL;
    case UF__CMP_NE: return UF__BI_NP_NOT_EQUAL;
    case UF__CMP_LT: return UF__BI_NP_LESS;
    case UF__CMP_LE: return UF__BI_NP_LESS_EQUAL;
    case UF__CMP_GT: return UF__BI_NP_GREATER;
    case UF__CMP_GE: return UF__BI_NP_GREATER_EQUAL;
    default: return UF__BI_NONE;
    }
}

bool uf__is_arrexpr(const uf__typed_func *tf, const uf__expr *e)
{
    const uf__expr_info *in = uf__tf_info(tf, e);
    if (in->type == NULL || in->type->kind != UF__T_ARRAY)
        return false;
    switch (e->kind) {
    case UF__EX_BINARY: /* a += v on a name: the array a, updated; a @ b
                           a matrix product (lower_matmul.c) */
        return !uf__is_inplace_array_op(tf, e) &&
               e->u.binary.op != UF__OP_MATMUL;
    case UF__EX_UNARY:
    case UF__EX_COMPARE:
        return true;
    case UF__EX_CALL: /* a ufunc, np.where, np.clip (not cuda.shared.array);
                         not a ufunc given its out (its value is out) */
        return (in->callee == NULL && in->ext == NULL &&
                !uf__is_ufunc_out(tf, e) &&
                (uf__npufunc_loops(in->builtin) != NULL ||
                 in->builtin == UF__BI_NP_WHERE ||
                 in->builtin == UF__BI_NP_CLIP)) ||
               uf__nppred_is_arrexpr(tf, e); /* np.isclose ... */
    default:
        return false;
    }
}

bool uf__is_ufunc_out(const uf__typed_func *tf, const uf__expr *e)
{
    const uf__ufunc_loops *row =
        e->kind == UF__EX_CALL ? uf__npufunc_loops(uf__tf_info(tf, e)->builtin)
                               : NULL;
    return row != NULL && e->u.call.nargs == row->nin + row->nout;
}

bool uf__is_inplace_array_op(const uf__typed_func *tf, const uf__expr *e)
{
    if (e->kind != UF__EX_BINARY || !e->u.binary.inplace)
        return false;
    const uf__type *a = uf__tf_info(tf, e->u.binary.left)->type;
    return a != NULL && a->kind == UF__T_ARRAY;
}

bool uf__any_array(const uf__type *const *args, int n)
{
    for (int i = 0; i < n; i++)
        if (args[i]->kind == UF__T_ARRAY)
            return true;
    return false;
}

/* The operands' dtypes and the result's number of dimensions; false
 * when one is neither a number nor an array. */
static bool elements(const uf__type *const *args, int n, uf_dtype *dt,
                     int *ndim)
{
    *ndim = 0;
    for (int i = 0; i < n; i++) {
        if (args[i]->kind != UF__T_ARRAY && args[i]->kind != UF__T_SCALAR)
            return false;
        dt[i] = args[i]->dtype;
        if (args[i]->kind == UF__T_ARRAY && args[i]->ndim > *ndim)
            *ndim = args[i]->ndim;
    }
    return true;
}

static const uf__type *result(uf__ictx *C, const uf__expr *e, uf_dtype dt,
                              int ndim)
{
    const uf__type *t = uf__type_array(C->tc, dt, ndim, 'C', C->err);
    return t ? uf__iset(C, e, t) : NULL;
}

static const uf__type *no_loop(uf__ictx *C, const uf__expr *e,
                               const char *what, const uf__type *const *args,
                               int n)
{
    return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s is not supported on %s%s"
                      "%s%s%s in kernels", what, uf__tname(args[0]),
                      n > 1 ? ", " : "", n > 1 ? uf__tname(args[1]) : "",
                      n > 2 ? ", " : "", n > 2 ? uf__tname(args[2]) : "");
}

const uf__type *uf__infer_array_ufunc(uf__ictx *C, const uf__expr *e,
                                      uf__builtin bi,
                                      const uf__type *const *args, int n)
{
    const uf__ufunc_loops *row = uf__npufunc_loops(bi);
    uf_dtype in[3], types[5];
    int ndim;
    if (bi == UF__BI_NP_DIVMOD && row != NULL && n == 2 &&
        elements(args, n, in, &ndim) &&
        uf__ufunc_select_loop(row->loops, 2, 2, in, types)) {
        /* two new arrays (lower_arrexpr.c: uf__lower_arrexpr_divmod) */
        if (uf__arrexpr_no_alloc(C))
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s",
                              "np.divmod() of arrays allocates its two "
                              "results, which CUDA kernels cannot do");
        const uf__type *el[2];
        for (int k = 0; k < 2; k++)
            if (!(el[k] = uf__type_array(C->tc, types[2 + k], ndim, 'C',
                                         C->err)))
                return NULL;
        uf__iinfo(C, e)->optype = uf__type_scalar(C->tc, types[0]);
        const uf__type *t = uf__type_tuple(C->tc, 2, el, C->err);
        return t ? uf__iset(C, e, t) : NULL;
    }
    if (row == NULL || row->nout != 1 || row->nin != n || n > 3 ||
        !elements(args, n, in, &ndim) ||
        !uf__ufunc_select_loop(row->loops, row->nin, row->nout, in, types))
        return no_loop(C, e, uf__builtin_name(bi), args, n);
    uf__iinfo(C, e)->optype = uf__type_scalar(C->tc, types[0]);
    return result(C, e, types[n], ndim);
}

/* np.add(x, y, out), np.sqrt(x, out), np.divmod(x, y, q, r): NumPy's
 * explicit outputs, positional as Numba takes them (Numba refuses
 * out=). The loop is picked from the inputs alone and its results cast
 * to the outputs' dtypes under NumPy's same_kind rule; the inputs
 * broadcast to each output's shape (checked at run time: NumPy's
 * "non-broadcastable output operand"), so an input with more dimensions
 * than an output could never fit and is refused here, where Numba
 * would write past the output. The value is the output itself. */
const uf__type *uf__infer_ufunc_out(uf__ictx *C, const uf__expr *e,
                                    uf__builtin bi,
                                    const uf__type *const *args, int n)
{
    const uf__ufunc_loops *row = uf__npufunc_loops(bi);
    const char *name = uf__builtin_name(bi);
    uf_dtype in[3], types[5];
    int ndim;
    if (row == NULL || row->nin + row->nout != n || row->nin > 3)
        return uf__ierr_t(C, UF_ERR_INTERNAL, e->pos, "%s() called with "
                          "outputs as it has none", name);
    if (row->nout != 1 && bi != UF__BI_NP_DIVMOD)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() with "
                          "output arguments is not supported in kernels: "
                          "take its tuple of results and store them", name);
    for (int k = row->nin; k < n; k++)
        if (args[k]->kind != UF__T_ARRAY)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s(): output "
                              "argument %d must be an array, not %s", name,
                              k + 1, uf__tname(args[k]));
    if (!elements(args, row->nin, in, &ndim) ||
        !uf__ufunc_select_loop(row->loops, row->nin, row->nout, in, types))
        return no_loop(C, e, name, args, row->nin);
    for (int k = 0; k < row->nout; k++) {
        const uf__type *o = args[row->nin + k];
        if (ndim > o->ndim)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s(): an input has "
                              "%d dimensions, more than output argument "
                              "%d's %d: NumPy cannot broadcast it into the "
                              "output", name, ndim, row->nin + k + 1,
                              o->ndim);
        if (!uf_can_cast(types[row->nin + k], o->dtype,
                         UF_CASTING_SAME_KIND))
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s(): cannot cast "
                              "the result of its %s loop to output "
                              "argument %d's %s under NumPy's same_kind "
                              "rule", name, uf_dtype_name(types[row->nin + k]),
                              row->nin + k + 1, uf_dtype_name(o->dtype));
    }
    uf__iinfo(C, e)->optype = uf__type_scalar(C->tc, types[0]);
    if (row->nout == 1)
        return uf__iset(C, e, args[row->nin]);
    const uf__type *t = uf__type_tuple(C->tc, 2, args + row->nin, C->err);
    return t ? uf__iset(C, e, t) : NULL;
}

/* np.where(c, x, y): NumPy's promotion of x and y (Numba's
 * np.promote_types of their dtypes), c tested for truth. */
const uf__type *uf__infer_array_where(uf__ictx *C, const uf__expr *e,
                                      const uf__type *const *args, int n)
{
    uf_dtype dt[3];
    int ndim;
    if (n != 3)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.where() in kernels "
                          "takes 3 arguments (condition, x, y), %d given",
                          n);
    if (!elements(args, n, dt, &ndim) || !uf__any_array(args, n) ||
        uf_dtype_kind(dt[0]) == 'c')
        return no_loop(C, e, "np.where()", args, n);
    uf_dtype r = uf_promote_types(dt[1], dt[2]);
    if (r == UF_NTYPES)
        return no_loop(C, e, "np.where()", args, n);
    return result(C, e, r, ndim);
}

/* np.clip(a, lo, hi): the result has a's dtype (Numba fills an array
 * like a); the bounds are compared in the promoted dtype. */
const uf__type *uf__infer_array_clip(uf__ictx *C, const uf__expr *e,
                                     const uf__type *const *args, int n)
{
    uf_dtype dt[3];
    int ndim;
    if (n != 3)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.clip() in kernels "
                          "takes 3 arguments (a, a_min, a_max), %d given",
                          n);
    if (!elements(args, n, dt, &ndim) || args[0]->kind != UF__T_ARRAY)
        return no_loop(C, e, "np.clip()", args, n);
    for (int i = 0; i < 3; i++)
        if (uf_dtype_kind(dt[i]) == 'c')
            return no_loop(C, e, "np.clip()", args, n);
    return result(C, e, dt[0], ndim);
}

int uf__infer_array_augassign(uf__ictx *C, uf__pos pos, uf__binop op,
                              const uf__expr *value, const uf__type *a,
                              const uf__type *b)
{
    if (a->readonly)
        return uf__ierr(C, UF_ERR_TYPING, pos, "Cannot modify readonly "
                        "array of type: %s", uf__tname(a));
    uf__builtin bi = uf__arrexpr_binop_ufunc((int)op);
    const uf__ufunc_loops *row = uf__npufunc_loops(bi);
    const uf__type *args[2] = {a, b};
    uf_dtype in[2], types[4];
    int ndim;
    if (row == NULL || !elements(args, 2, in, &ndim) ||
        !uf__ufunc_select_loop(row->loops, 2, 1, in, types))
        return uf__ierr(C, UF_ERR_TYPING, pos, "unsupported operand "
                        "types for %s=: %s and %s", uf__binop_str(op),
                        uf__tname(a), uf__tname(b));
    if (ndim > a->ndim)
        return uf__ierr(C, UF_ERR_TYPING, pos, "%s=: the value (%s) has "
                        "more dimensions than the array it updates (%s)",
                        uf__binop_str(op), uf__tname(b), uf__tname(a));
    /* NumPy's in-place rule: the loop's result casts back same_kind */
    if (!uf_can_cast(types[2], a->dtype, UF_CASTING_SAME_KIND))
        return uf__ierr(C, UF_ERR_TYPING, pos, "%s=: cannot cast the "
                        "result %s back to the array's %s (NumPy's "
                        "same_kind rule for in-place operations)",
                        uf__binop_str(op), uf_dtype_name(types[2]),
                        uf_dtype_name(a->dtype));
    (void)value;
    return 0;
}

int uf__refuse_arrexpr(uf__ictx *C, const uf__expr *e, const char *where)
{
    return uf__ierr(C, UF_ERR_UNSUPPORTED, e->pos, "an array expression "
                    "(%s) %s: it would allocate an array, which CUDA "
                    "kernels cannot do; store it into an existing array "
                    "instead (out[:] = ..., or an augmented assignment "
                    "a += ...)",
                    uf__tname(uf__iinfo(C, e)->type), where);
}

/* ---- where array expressions may stand -------------------------------- */

typedef struct check {
    uf__ictx *C;
} check;

static int check_expr(const uf__expr *e, void *ud);

/* The operands of an array expression are fused with it. */
static int check_operands(const uf__expr *e, void *ud)
{
    if (uf__is_arrexpr(((check *)ud)->C->tf, e))
        switch (e->kind) {
        case UF__EX_CALL:
            return uf__ast_visit_n(e->u.call.args, e->u.call.nargs,
                                   check_operands, ud);
        default:
            return uf__ast_children(e, check_operands, ud);
        }
    return check_expr(e, ud);
}

bool uf__arrexpr_no_alloc(uf__ictx *C)
{
    uf__kernel_kind k = C->tf->decl->kind;
    return k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE;
}

/* An array expression that is not stored into an array is a new array
 * (lower_arrexpr.c), except in CUDA kernels and device functions, which
 * cannot allocate. */
static int check_expr(const uf__expr *e, void *ud)
{
    uf__ictx *C = ((check *)ud)->C;
    if (uf__is_arrexpr(C->tf, e)) {
        if (uf__arrexpr_no_alloc(C))
            return uf__refuse_arrexpr(C, e, "is not stored");
        return check_operands(e, ud);
    }
    return uf__ast_children(e, check_expr, ud);
}

static bool array_target(uf__ictx *C, const uf__expr *t)
{
    const uf__type *tt = uf__iinfo(C, t)->type;
    return tt != NULL && tt->kind == UF__T_ARRAY &&
           (t->kind == UF__EX_SUBSCRIPT || t->kind == UF__EX_NAME);
}

static int check_stmt(uf__stmt *s, void *ud)
{
    uf__ictx *C = ((check *)ud)->C;
    if (s->kind == UF__ST_ASSIGN && s->u.assign.ntargets == 1 &&
        s->u.assign.targets[0]->kind == UF__EX_SUBSCRIPT &&
        array_target(C, s->u.assign.targets[0]))
        return check_expr(s->u.assign.targets[0], ud) ||
               check_operands(s->u.assign.value, ud);
    if (s->kind == UF__ST_ASSIGN &&
        uf__is_inplace_array_op(C->tf, s->u.assign.value)) /* a += v */
        return check_operands(s->u.assign.value->u.binary.right, ud);
    if (s->kind == UF__ST_AUGASSIGN && array_target(C, s->u.augassign.target))
        return check_expr(s->u.augassign.target, ud) ||
               check_operands(s->u.augassign.value, ud);
    return uf__ast_stmt_exprs(s, check_expr, ud);
}

int uf__check_array_exprs(uf__ictx *C)
{
    check k = {C};
    return uf__ast_walk_stmts(&C->tf->decl->def->u.funcdef.body, check_stmt,
                              &k) != 0
               ? -1
               : 0;
}
