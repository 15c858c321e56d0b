/* Which specialisations need the fallible calling convention (lower.h):
 * every njit function (Python's error model), and kernels in NumPy's
 * model that contain an assert, a range() whose step may be zero, a
 * checked index (bounds checking on: a[i], or cuda.atomic.add(a, i, v)),
 * or a call of a fallible callee. */
#include "compiler/front/ast_visit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_arrattr.h"
#include "compiler/types/index_kinds.h"
#include "compiler/types/infer_arrexpr.h"

typedef struct fallible_scan {
    const uf__typed_func *tf;
} fallible_scan;

static bool body_fallible(const uf__typed_func *tf);
static bool literal_step(const uf__typed_func *tf, const uf__expr *e);

/* An index checked at run time (bounds checking on): into an array, or
 * into a tuple with an index that is not a literal. */
static bool index_checked(const uf__typed_func *tf, const uf__expr *e)
{
    const uf__type *bt = uf__tf_info(tf, e->u.subscript.value)->type;
    const uf__expr *b = e->u.subscript.value;
    if (bt && (bt->kind == UF__T_FLATITER ||
               (b->kind == UF__EX_ATTR &&
                uf__tf_info(tf, b)->builtin == UF__BI_ATTR_FLAT)))
        return true; /* a.flat[k] raises IndexError out of range */
    if (!bt || !uf__lower_boundscheck(tf))
        return false;
    if (bt->kind == UF__T_ARRAY)
        return true;
    if (bt->kind != UF__T_TUPLE || e->u.subscript.nindex != 1)
        return false;
    const uf__expr *x = e->u.subscript.index[0];
    if (x->kind == UF__EX_UNARY && x->u.unary.op == UF__OP_NEG)
        x = x->u.unary.operand;
    return x->kind != UF__EX_INT;
}

static int expr_fallible(const uf__expr *e, void *ud)
{
    const fallible_scan *S = ud;
    const uf__typed_func *callee = uf__tf_info(S->tf, e)->callee;
    /* the chain of callees is bounded by typing (UF__MAX_CALL_NESTING) */
    if (e->kind == UF__EX_CALL && callee && callee != S->tf &&
        (!callee->numpy_error_model || body_fallible(callee)))
        return 1;
    if ((e->kind == UF__EX_CALL || e->kind == UF__EX_BINARY) &&
        uf__npreduce_fallible(S->tf, e))
        return 1;
    if (e->kind == UF__EX_CALL &&
        uf__tf_info(S->tf, e)->builtin == UF__BI_METH_ITEM &&
        uf__tf_info(S->tf, e->u.call.func->u.attr.value)->type->ndim > 0)
        return 1; /* a.item() of an array of another size: ValueError */
    if (uf__list_fallible(S->tf, e)) /* lower_list.c */
        return 1;
    if (uf__ustr_fallible(S->tf, e)) /* lower_ustr.c */
        return 1;
    if (uf__dict_fallible(S->tf, e)) /* lower_dict.c */
        return 1;
    if (uf__set_fallible(S->tf, e)) /* lower_set.c */
        return 1;
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_npselect(uf__tf_info(S->tf, e)->builtin))
        return 1; /* out of memory, q out of range */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_nppart(uf__tf_info(S->tf, e)->builtin))
        return 1; /* out of memory, kth's ValueErrors */
    if (e->kind == UF__EX_CALL &&
        (uf__builtin_is_npfind(uf__tf_info(S->tf, e)->builtin) ||
         uf__tf_info(S->tf, e)->builtin == UF__BI_NP_INSERT))
        return 1; /* out of memory, np.extract's, np.insert's errors */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_nprandom(uf__tf_info(S->tf, e)->builtin) &&
        uf__nprandom_fallible(uf__tf_info(S->tf, e)->builtin,
                              uf__tf_info(S->tf, e)->type))
        return 1; /* a new array; randint's range, choice's sample */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_npnum(uf__tf_info(S->tf, e)->builtin))
        return 1; /* out of memory, ValueErrors */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_nplinalg(uf__tf_info(S->tf, e)->builtin))
        return 1; /* out of memory, LinAlgError */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_npstats(uf__tf_info(S->tf, e)->builtin))
        return 1; /* out of memory, Numba's ValueErrors */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_alloc(uf__tf_info(S->tf, e)->builtin))
        return 1; /* out of memory, negative dimensions */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_arrmeth(uf__tf_info(S->tf, e)->builtin) &&
        uf__tf_info(S->tf, e)->type &&
        uf__tf_info(S->tf, e)->type->kind != UF__T_SCALAR)
        return 1; /* a new array, reshape's errors; not np.round(x) */
    if (e->kind == UF__EX_CALL &&
        (uf__tf_info(S->tf, e)->builtin == UF__BI_NP_ALLCLOSE ||
         uf__tf_info(S->tf, e)->builtin == UF__BI_NP_ARRAY_EQUAL ||
         uf__tf_info(S->tf, e)->builtin == UF__BI_NP_ASARRAY_CHKFINITE ||
         (uf__tf_info(S->tf, e)->builtin == UF__BI_NP_DIVMOD &&
          uf__tf_info(S->tf, e)->type &&
          uf__tf_info(S->tf, e)->type->kind == UF__T_TUPLE &&
          uf__tf_info(S->tf, e)->type->elts[0]->kind == UF__T_ARRAY)))
        return 1; /* a temporary array; operands that do not broadcast */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_npcum(uf__tf_info(S->tf, e)->builtin))
        return 1; /* a new array; np.diff's n, np.average's weights */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_npjoin(uf__tf_info(S->tf, e)->builtin))
        return 1; /* a new array; axis and shape errors */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_npmatrix(uf__tf_info(S->tf, e)->builtin))
        return 1; /* a new array, negative sizes, np.fill_diagonal's val */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_npsignal(uf__tf_info(S->tf, e)->builtin))
        return 1; /* a new array, empty operands, the mode */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_npspace(uf__tf_info(S->tf, e)->builtin))
        return 1; /* a new array, np.geomspace's zero */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_npfunc(uf__tf_info(S->tf, e)->builtin))
        return 1; /* a new array, shapes that do not broadcast */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_npcross(uf__tf_info(S->tf, e)->builtin))
        return 1; /* a new array, Numba's shape and length errors */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_npsplit(uf__tf_info(S->tf, e)->builtin))
        return 1; /* unequal sections, 0 sections, axis out of range */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_nppoly(uf__tf_info(S->tf, e)->builtin))
        return 1; /* a new array, empty series, division by 0 */
    if (e->kind == UF__EX_CALL &&
        uf__npview_fallible(uf__tf_info(S->tf, e)->builtin))
        return 1; /* np.swapaxes ...: axes out of range */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_arrview(uf__tf_info(S->tf, e)->builtin))
        return 1; /* a.view, np.frombuffer: Numba's ValueErrors */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_npshape(uf__tf_info(S->tf, e)->builtin))
        return 1; /* np.repeat ...: negative sizes, shapes that differ */
    if (e->kind == UF__EX_CALL && e->u.call.nargs == 3 &&
        uf__tf_info(S->tf, e)->builtin == UF__BI_RANGE &&
        !literal_step(S->tf, e->u.call.args[2]))
        return 1; /* len(range(a, b, step)): a zero step */
    if (uf__is_arrexpr(S->tf, e) || uf__is_ufunc_out(S->tf, e))
        return 1; /* operands that do not broadcast; a new array's memory */
    if (uf__arrattr_fallible(S->tf, e))
        return 1; /* a.conj(), min() of an empty array: lower_arrattr.c */
    if (e->kind == UF__EX_SUBSCRIPT && (index_checked(S->tf, e) ||
                                        uf__slice_expr_fallible(S->tf, e)))
        return 1;
    if (e->kind == UF__EX_SUBSCRIPT && uf__subscript_is_fancy(S->tf, e))
        return 1; /* a new array; an index out of range (lower_fancy.c) */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_cuda_atomic(uf__tf_info(S->tf, e)->builtin) &&
        uf__lower_boundscheck(S->tf))
        return 1;
    return uf__ast_children(e, expr_fallible, ud);
}

/* range() with a step that is not a nonzero literal can raise ValueError;
 * a module constant (the seeds' range(0, TILE_DIM, BLOCK_ROWS)) is one */
static bool literal_step(const uf__typed_func *tf, const uf__expr *e)
{
    if (e->kind == UF__EX_UNARY && e->u.unary.op == UF__OP_NEG)
        e = e->u.unary.operand;
    if (e->kind == UF__EX_INT)
        return e->u.i.value != 0;
    const uf__constant *k = uf__tf_info(tf, e)->constant;
    if (k == NULL || k->type->kind != UF__T_SCALAR)
        return false;
    switch (uf_dtype_kind(k->type->dtype)) {
    case 'i':
        return k->v.i != 0;
    case 'u':
        return k->v.u != 0;
    default:
        return false;
    }
}

/* a[i] = v indexes a (checked or not) and evaluates i */
static int target_fallible(const uf__expr *t, void *ud)
{
    if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        return uf__ast_children(t, target_fallible, ud);
    return t->kind == UF__EX_SUBSCRIPT && expr_fallible(t, ud);
}

static int stmt_fallible(uf__stmt *s, void *ud)
{
    switch (s->kind) {
    case UF__ST_ASSERT:
    case UF__ST_RAISE:
        return 1;
    case UF__ST_ASSIGN:
        if (uf__is_inplace_array_op(((const fallible_scan *)ud)->tf,
                                    s->u.assign.value))
            return 1; /* a += v on an array: as an augmented assignment */
        for (int i = 0; i < s->u.assign.ntargets; i++)
            if (target_fallible(s->u.assign.targets[i], ud) ||
                uf__slice_store_fallible(((const fallible_scan *)ud)->tf,
                                         s->u.assign.targets[i],
                                         s->u.assign.value))
                return 1;
        return expr_fallible(s->u.assign.value, ud);
    case UF__ST_AUGASSIGN: {
        /* on an array: broadcasting and the overlap copy may raise */
        const uf__type *at = uf__tf_info(((const fallible_scan *)ud)->tf,
                                         s->u.augassign.target)->type;
        if (at && (at->kind == UF__T_ARRAY || at->kind == UF__T_LIST ||
                   at->kind == UF__T_USTR || at->kind == UF__T_SET))
            return 1; /* a list or a set grows, a string is made: out of
                         memory */
    }
        return target_fallible(s->u.augassign.target, ud) ||
               expr_fallible(s->u.augassign.value, ud);
    case UF__ST_FOR: {
        const uf__expr *it = s->u.for_.iter;
        const uf__typed_func *tf = ((const fallible_scan *)ud)->tf;
        uf__builtin bi = it->kind == UF__EX_CALL ? uf__tf_info(tf, it)->builtin
                                                 : UF__BI_NONE;
        /* np.nditer((a, b)): ValueError when the shapes differ */
        if (bi == UF__BI_NP_NDITER &&
            uf__tf_info(tf, it->u.call.args[0])->type->kind == UF__T_TUPLE)
            return 1;
        if (uf__builtin_is_npiter(bi))
            return expr_fallible(it, ud);
        if (it->kind == UF__EX_CALL && it->u.call.nargs == 3 &&
            !literal_step(((const fallible_scan *)ud)->tf,
                          it->u.call.args[2]))
            return 1;
        return expr_fallible(it, ud);
    }
    default:
        return uf__ast_stmt_exprs(s, expr_fallible, ud);
    }
}

static bool body_fallible(const uf__typed_func *tf)
{
    if (tf->fallible_memo != 0)
        return tf->fallible_memo > 0;
    fallible_scan S = {tf};
    bool fallible = uf__ast_walk_stmts(&tf->decl->def->u.funcdef.body,
                                       stmt_fallible, &S) != 0;
    /* the one field lowering writes: typing and lowering of a module are
     * serialised (compiler/module.h), so the cache needs no atomics */
    ((uf__typed_func *)tf)->fallible_memo = fallible ? 1 : -1;
    return fallible;
}

bool uf__lower_fallible(const uf__typed_func *tf)
{
    return !tf->numpy_error_model || body_fallible(tf);
}
