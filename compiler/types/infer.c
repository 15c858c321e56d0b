/* Type inference of one specialisation: statements, variables and the
 * fixed point.
 *
 * Every local (a name assigned anywhere in the function, Python's rule)
 * has one type: the unification of everything assigned to it, as Numba
 * unifies at control-flow joins. The body is typed forwards, in source
 * order, again and again until no variable widens, which covers loop back
 * edges. Reads of locals no assignment can reach are refused first
 * (uf__infer_check_reads, infer_defscan.c). An expression reading a local that has no type yet in a
 * pass is skipped until the next pass; still untyped at the fixed point,
 * it is read before assignment. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/front/ast_visit.h"
#include "compiler/types/infer_arrexpr.h"
#include "compiler/types/infer_internal.h"

const uf__type uf__type_unknown = {.kind = UF__T_NONE, .name = "<unknown>"};

int uf__ierr(uf__ictx *C, int code, uf__pos pos, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uf__source_error(C->err, code, C->km->src, pos, "%s", msg);
    return -1;
}

const uf__type *uf__ierr_t(uf__ictx *C, int code, uf__pos pos,
                           const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uf__source_error(C->err, code, C->km->src, pos, "%s", msg);
    return NULL;
}

const uf__type *uf__ioom(uf__ictx *C)
{
    uf__error_nomem(C->err);
    return NULL;
}

const char *uf__tname(const uf__type *t)
{
    static _Thread_local char bufs[4][192];
    static _Thread_local int k;
    char *b = bufs[k++ & 3];
    if (t == NULL)
        snprintf(b, sizeof bufs[0], "<undefined>");
    else if (t->kind == UF__T_MODULE)
        snprintf(b, sizeof bufs[0], "Module(%s)", t->name);
    else if (t->kind == UF__T_FUNCTION)
        snprintf(b, sizeof bufs[0], "Function(%s)", t->name);
    else if (t->kind == UF__T_DTYPE)
        snprintf(b, sizeof bufs[0], "%s(%s)",
                 t->dtype_obj ? "dtype" : "class", uf_dtype_name(t->dtype));
    else if (t->kind == UF__T_RANGE)
        snprintf(b, sizeof bufs[0], "range");
    else
        uf__type_str(t, b, sizeof bufs[0]);
    return b;
}

bool uf__is_value_type(const uf__type *t)
{
    if (t == NULL)
        return false;
    switch (t->kind) {
    case UF__T_SCALAR:
    case UF__T_ARRAY:
    case UF__T_NONE:
    case UF__T_LIST:
    case UF__T_SET:
    case UF__T_DTYPE: /* a compile-time constant (lower_arrattr.c) */
    case UF__T_STR:   /* the same (lower_str.c) */
    case UF__T_USTR:  /* a run-time string (infer_ustr.c) */
        return true;
    case UF__T_DICT: /* not a keys()/values()/items() view */
        return t->layout == 0;
    case UF__T_FUNCTION: /* float, int, bool, complex: the same */
        return uf__type_is_pyclass(t);
    case UF__T_TUPLE:
        for (int i = 0; i < t->n; i++)
            if (!uf__is_value_type(t->elts[i]) ||
                t->elts[i]->kind == UF__T_NONE)
                return false;
        return true;
    default:
        return false;
    }
}

int uf__check_truth(uf__ictx *C, const uf__expr *e, const uf__type *t)
{
    if (t == UF__UNKNOWN || t->kind == UF__T_SCALAR ||
        t->kind == UF__T_LIST || t->kind == UF__T_STR ||
        t->kind == UF__T_USTR || t->kind == UF__T_SET ||
        (t->kind == UF__T_DICT && t->layout == 0))
        return 0;
    return uf__ierr(C, UF_ERR_TYPING, e->pos, "the truth value of %s is not "
                    "supported in kernels (only numbers)", uf__tname(t));
}

/* ---- variables ------------------------------------------------------- */

static int add_var(uf__ictx *C, const char *name, int arg)
{
    uf__typed_func *tf = C->tf;
    int i = uf__typed_var(tf, name);
    if (i >= 0)
        return i;
    if (tf->nvars == C->capvars) {
        int ncap = C->capvars ? 2 * C->capvars : 8;
        uf__var *v = uf__arena_alloc(C->km->arena, (size_t)ncap, sizeof *v,
                                     C->err);
        uf__pos *p = uf__arena_alloc(C->km->arena, (size_t)ncap, sizeof *p,
                                     C->err);
        if (v == NULL || p == NULL)
            return -1;
        if (tf->nvars > 0) {
            memcpy(v, tf->vars, (size_t)tf->nvars * sizeof *v);
            memcpy(p, C->def_pos, (size_t)tf->nvars * sizeof *p);
        }
        tf->vars = v;
        C->def_pos = p;
        C->capvars = ncap;
    }
    uf__var *v = &tf->vars[tf->nvars];
    v->name = name;
    v->type = NULL;
    v->arg = arg;
    v->join = false;
    C->def_pos[tf->nvars].line = 0;
    C->def_pos[tf->nvars].col = 0;
    if (uf__name_map_put(&tf->var_index, C->km->arena, name, tf->nvars,
                         C->err) != 0)
        return -1;
    return tf->nvars++;
}

/* Collects the locals of a block: names bound by assignment targets and
 * for loops (Python decides locality for the whole function at once). */
static int collect_target(const uf__expr *t, void *C)
{
    if (t->kind == UF__EX_NAME)
        return add_var(C, t->u.name.id, -1) < 0 ? -1 : 0;
    if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        return uf__ast_children(t, collect_target, C);
    return 0;
}

static int collect_stmt(uf__stmt *s, void *C)
{
    if (uf__ast_stmt_targets(s, collect_target, C) < 0)
        return -1;
    if (s->kind == UF__ST_ASSIGN && s->join_feed &&
        s->u.assign.targets[0]->kind == UF__EX_NAME) {
        uf__typed_func *tf = ((uf__ictx *)C)->tf;
        tf->vars[uf__typed_var(tf, s->u.assign.targets[0]->u.name.id)].join =
            true;
    }
    return 0;
}

/* Unifies `t` into variable v (assigned at `pos`). */
static int assign_var(uf__ictx *C, int v, const uf__type *t, uf__pos pos)
{
    uf__var *var = &C->tf->vars[v];
    if (var->type == t)
        return 0;
    if (var->type == NULL) {
        var->type = t;
        C->def_pos[v] = pos;
        C->changed = true;
        return 0;
    }
    const uf__type *u = uf__type_unify(C->tc, var->type, t);
    if (u == NULL) {
        if (uf__typectx_oom(C->tc))
            return uf__error_nomem(C->err), -1;
        /* a join is assigned at the ends of the ways into it, typed in the
         * order they come (an if's body before the value from before the
         * if): name the two in source order, at the later one */
        const uf__type *t1 = var->type, *t2 = t;
        uf__pos p1 = C->def_pos[v], p2 = pos;
        if (p2.line < p1.line || (p2.line == p1.line && p2.col < p1.col)) {
            t1 = t, t2 = var->type;
            p1 = pos, p2 = C->def_pos[v];
        }
        /* the source's name of a version x.2 (compiler/types/ssa_versions.c) */
        return uf__ierr(C, UF_ERR_TYPING, p2, "Cannot unify %s and %s for "
                        "'%.*s', defined at %s (%d) and %s (%d)%s",
                        uf__tname(t1), uf__tname(t2),
                        (int)strcspn(var->name, "."), var->name,
                        C->km->src->name, p1.line, C->km->src->name,
                        p2.line, uf__str_join_hint(t1, t2));
    }
    if (u != var->type) {
        var->type = u;
        C->def_pos[v] = pos;
        C->changed = true;
    }
    return 0;
}

int uf__infer_refine_var(uf__ictx *C, int v, const uf__type *t, uf__pos pos)
{
    return assign_var(C, v, t, pos);
}

/* ---- assignment targets ---------------------------------------------- */

static int store(uf__ictx *C, const uf__expr *t, const uf__type *vt,
                 uf__pos at)
{
    uf__expr_info *in = uf__iinfo(C, t);
    switch (t->kind) {
    case UF__EX_NAME: {
        int v = uf__typed_var(C->tf, t->u.name.id);
        if (!uf__is_value_type(vt))
            return uf__ierr(C, UF_ERR_UNSUPPORTED, at, "%s cannot be stored "
                            "in a variable ('%s')", uf__tname(vt),
                            t->u.name.id);
        if (assign_var(C, v, vt, t->pos) < 0)
            return -1;
        in->type = C->tf->vars[v].type;
        in->var = v;
        return 0;
    }
    case UF__EX_TUPLE:
    case UF__EX_LIST: {
        int n = t->u.seq.n;
        if (vt->kind != UF__T_TUPLE)
            return uf__ierr(C, UF_ERR_TYPING, at, "cannot unpack %s into %d "
                            "values", uf__tname(vt), n);
        if (vt->n != n)
            return uf__ierr(C, UF_ERR_TYPING, at, "cannot unpack %s into %d "
                            "values: it has %d", uf__tname(vt), n, vt->n);
        in->type = vt;
        in->var = -1;
        for (int i = 0; i < n; i++)
            if (store(C, t->u.seq.elts[i], vt->elts[i], at) < 0)
                return -1;
        return 0;
    }
    case UF__EX_SUBSCRIPT:
        return uf__infer_store_item(C, t, vt); /* infer_store_item.c */
    case UF__EX_ATTR:
        return uf__ierr(C, UF_ERR_UNSUPPORTED, t->pos, "assigning to an "
                        "attribute ('.%s') is not supported", t->u.attr.attr);
    default:
        return uf__ierr(C, UF_ERR_UNSUPPORTED, t->pos, "%s",
                        "cannot assign to this expression");
    }
}

/* ---- statements ------------------------------------------------------ */

static int type_block(uf__ictx *C, const uf__block *b);

/* Skips a statement whose value depends on a local not typed yet. */
#define SKIP_IF_UNKNOWN(t)                                                  \
    do {                                                                    \
        if ((t) == NULL)                                                    \
            return -1;                                                      \
        if ((t) == UF__UNKNOWN)                                             \
            return 0;                                                       \
    } while (0)

static int type_return(uf__ictx *C, const uf__stmt *s)
{
    const uf__type *t;
    if (s->u.ret.value == NULL) {
        t = uf__type_none(C->tc);
    } else {
        t = uf__infer_expr(C, s->u.ret.value);
        SKIP_IF_UNKNOWN(t);
        if (uf__is_arrexpr(C->tf, s->u.ret.value) && uf__arrexpr_no_alloc(C))
            return uf__refuse_arrexpr(C, s->u.ret.value, "cannot be "
                                      "returned");
        if (!uf__is_value_type(t))
            return uf__ierr(C, UF_ERR_UNSUPPORTED, s->u.ret.value->pos,
                            "cannot return %s from a kernel", uf__tname(t));
    }
    if (C->ret == NULL) {
        C->ret = t;
        C->ret_pos = s->pos;
        return 0;
    }
    const uf__type *u = uf__type_unify(C->tc, C->ret, t);
    if (u == NULL) {
        if (uf__typectx_oom(C->tc))
            return uf__error_nomem(C->err), -1;
        return uf__ierr(C, UF_ERR_TYPING, s->pos, "Can't unify return type "
                        "from the following types: %s, %s (returns at lines "
                        "%d and %d)", uf__tname(C->ret), uf__tname(t),
                        C->ret_pos.line, s->pos.line);
    }
    C->ret = u;
    return 0;
}

static int type_augassign(uf__ictx *C, const uf__stmt *s)
{
    const uf__expr *t = s->u.augassign.target;
    if (t->kind != UF__EX_NAME && t->kind != UF__EX_SUBSCRIPT)
        return uf__ierr(C, UF_ERR_UNSUPPORTED, t->pos, "%s",
                        "augmented assignment to this target is not "
                        "supported");
    /* the target read as a value, then the operator, then the store */
    const uf__type *a = uf__infer_expr(C, t);
    SKIP_IF_UNKNOWN(a);
    const uf__type *b = uf__infer_expr(C, s->u.augassign.value);
    SKIP_IF_UNKNOWN(b);
    if (a->kind == UF__T_ARRAY) /* a += v, a[1:] *= v: infer_arrexpr.c */
        return uf__infer_array_augassign(C, s->pos, s->u.augassign.op,
                                         s->u.augassign.value, a, b);
    if (a->kind == UF__T_SET) { /* s |= t ...: infer_set.c */
        const uf__type *r = uf__infer_set_augassign(C, s, a, b);
        return r ? store(C, t, r, s->pos) : -1;
    }
    if (a->kind == UF__T_LIST) { /* l += m, l *= n: infer_list_ops.c */
        const uf__type *l = uf__infer_list_augassign(C, s, a, b);
        return l ? store(C, t, l, s->pos) : -1;
    }
    if (uf__is_string(a)) { /* s += t, s *= n: infer_ustr.c */
        const uf__type *u = uf__infer_ustr_augassign(C, s, a, b);
        return u ? store(C, t, u, s->pos) : -1;
    }
    const uf__type *optype = NULL;
    const uf__type *r = NULL;
    if (a->kind == UF__T_SCALAR && b->kind == UF__T_SCALAR)
        r = uf__type_binop(C->tc, (int)s->u.augassign.op, a, b, &optype);
    if (r == NULL && uf__typectx_oom(C->tc))
        return uf__error_nomem(C->err), -1;
    if (r == NULL)
        return uf__ierr(C, UF_ERR_TYPING, s->pos, "unsupported operand types "
                        "for %s=: %s and %s",
                        uf__binop_str(s->u.augassign.op), uf__tname(a),
                        uf__tname(b));
    /* the AUGASSIGN value's entry carries the operator's operand type,
     * unless the value is an operation with an operand type of its own */
    uf__expr_info *vin = uf__iinfo(C, s->u.augassign.value);
    if (vin->optype == NULL)
        vin->optype = optype;
    return store(C, t, r, s->pos);
}

static int type_for(uf__ictx *C, const uf__stmt *s)
{
    const uf__expr *it = s->u.for_.iter;
    const uf__expr *t = s->u.for_.target;
    if (s->u.for_.refused)
        return uf__ierr(C, s->u.for_.refused_code, s->u.for_.refused_pos,
                        "%s", s->u.for_.refused);
    if (t->kind != UF__EX_NAME)
        return uf__ierr(C, UF_ERR_UNSUPPORTED, t->pos, "%s", "the target of "
                        "a for loop must be a single name");
    bool is_range = false;
    if (it->kind == UF__EX_CALL) {
        const uf__expr *f = it->u.call.func;
        if (f->kind == UF__EX_NAME && uf__typed_var(C->tf, f->u.name.id) < 0 &&
            strcmp(f->u.name.id, "range") == 0 &&
            uf__kmodule_global(C->km, "range") == NULL)
            is_range = true;
    }
    C->for_iter = it; /* np.ndindex(...) is taken here only */
    const uf__type *rt = uf__infer_expr(C, it);
    C->for_iter = NULL;
    if (rt == NULL)
        return -1;
    if (it->kind == UF__EX_CALL &&
        (uf__iinfo(C, it)->builtin == UF__BI_PRANGE ||
         uf__builtin_is_npiter(uf__iinfo(C, it)->builtin)))
        is_range = true; /* prange(...), numba.prange(...); np.ndindex(...)
                          * ...: the target gets the call's optype */
    if (!is_range && rt != UF__UNKNOWN && rt->kind == UF__T_TUPLE) {
        /* for x in t: a homogeneous tuple (Numba's UniTuple) only, as
         * t[k] with a run-time k; Numba refuses the others (getiter) */
        bool uni = rt->n > 0, strings = rt->n > 0;
        for (int i = 1; i < rt->n; i++)
            uni = uni && rt->elts[i] == rt->elts[0];
        for (int i = 0; i < rt->n; i++)
            strings = strings && uf__is_string(rt->elts[i]);
        if (strings) { /* Numba's UniTuple(unicode_type): infer_ustr.c */
            if (store(C, t, uf__type_ustr(C->tc), t->pos) < 0)
                return -1;
        } else if (!uni)
            return uf__ierr(C, UF_ERR_TYPING, it->pos, "Invalid use of "
                            "getiter with parameters (%s): %s",
                            uf__tname(rt), rt->n == 0
                            ? "an empty tuple cannot be iterated"
                            : "only a tuple whose items all have one type "
                              "can be iterated (Numba iterates a "
                              "heterogeneous tuple in `for v in "
                              "literal_unroll(t)` only, with literal_unroll "
                              "imported from numba by name)");
        if (!strings && store(C, t, rt->elts[0], t->pos) < 0)
            return -1;
    } else if (!is_range && rt != UF__UNKNOWN && rt->kind == UF__T_DICT) {
        /* for k in d, d.keys(), d.values(), d.items() (infer_dict.c) */
        const uf__type *item = uf__infer_dict_item(C, it, rt);
        if (item == NULL || store(C, t, item, t->pos) < 0)
            return -1;
    } else if (!is_range && uf__is_string(rt)) {
        /* for c in s: one-character strings (infer_ustr.c) */
        if (store(C, t, uf__type_ustr(C->tc), t->pos) < 0)
            return -1;
    } else if (!is_range && rt != UF__UNKNOWN && rt->kind == UF__T_SET) {
        /* for x in s (infer_set.c) */
        const uf__type *item = uf__infer_set_item(C, it, rt);
        if (item == NULL || store(C, t, item, t->pos) < 0)
            return -1;
    } else if (!is_range && rt != UF__UNKNOWN && rt->kind == UF__T_LIST) {
        /* for x in l: its items (infer_list.c) */
        if (rt->n == 0)
            return uf__ierr(C, UF_ERR_TYPING, it->pos, "%s has no items of "
                            "a known type to iterate over", uf__tname(rt));
        if (store(C, t, rt->elts[0], t->pos) < 0)
            return -1;
    } else if (!is_range && rt != UF__UNKNOWN) {
        /* for x in a: the elements of a 1-D array, the rows (views) of an
         * n-d one, as a[i] types them */
        if (rt->kind != UF__T_ARRAY)
            return uf__ierr(C, UF_ERR_UNSUPPORTED, it->pos, "only 'for ... "
                            "in range(...)' loops are supported, and loops "
                            "over arrays and homogeneous tuples (not over "
                            "%s)", uf__tname(rt));
        if (rt->ndim == 0)
            return uf__ierr(C, UF_ERR_TYPING, it->pos, "iteration over a "
                            "0-d array");
        const uf__type *item =
            rt->ndim == 1 ? uf__type_scalar(C->tc, rt->dtype)
                          : uf__type_array_ro(C->tc, rt->dtype, rt->ndim - 1,
                                              rt->layout == 'C' ? 'C' : 'A',
                                              rt->readonly, C->err);
        if (item == NULL || store(C, t, item, t->pos) < 0)
            return -1;
    } else if (rt != UF__UNKNOWN &&
               store(C, t, uf__iinfo(C, it)->optype, t->pos) < 0) {
        return -1;
    }
    if (type_block(C, &s->u.for_.body) < 0)
        return -1;
    return type_block(C, &s->u.for_.orelse);
}

static int type_cond(uf__ictx *C, const uf__expr *e)
{
    const uf__type *t = uf__infer_expr(C, e);
    if (t == NULL)
        return -1;
    return uf__check_truth(C, e, t);
}

/* while: the test on entry and the one at the end of the body may each be
 * pruned (infer_prune.c); the body is dead when the first is always
 * false, the else block when the loop cannot end by its test. */
static int type_while(uf__ictx *C, const uf__stmt *s)
{
    const uf__expr *c = s->u.while_.cond;
    signed char top = uf__iinfo(C, c)->truth, end = uf__iinfo(C, c)->truth_end;
    bool live = top >= 0;
    bool end_runs = live && end == 0 &&
                    uf__block_falls_through(C->tf, &s->u.while_.body);
    if ((top == 0 || end_runs || uf__cond_runs(c)) && type_cond(C, c) < 0)
        return -1;
    if (live && type_block(C, &s->u.while_.body) < 0)
        return -1;
    if (uf__while_else_live(C->tf, s))
        return type_block(C, &s->u.while_.orelse);
    return 0;
}

static int type_stmt(uf__ictx *C, const uf__stmt *s)
{
    switch (s->kind) {
    case UF__ST_EXPR: {
        const uf__expr *v = s->u.expr.value;
        if (v->kind == UF__EX_STR)
            return 0; /* docstring */
        const uf__type *t = uf__infer_expr(C, v);
        return t == NULL ? -1 : 0;
    }
    case UF__ST_ASSIGN: {
        const uf__type *t = uf__infer_expr(C, s->u.assign.value);
        SKIP_IF_UNKNOWN(t);
        const uf__expr *v = s->u.assign.value;
        if (uf__is_arrexpr(C->tf, v) && v->kind == UF__EX_BINARY &&
            v->u.binary.inplace &&
            uf__iinfo(C, v->u.binary.left)->type->kind != UF__T_ARRAY)
            /* x += array with a number x: Numba has no such iadd */
            return uf__ierr(C, UF_ERR_TYPING, v->pos, "unsupported operand "
                            "types for %s=: %s and %s (a number updated in "
                            "place by an array)",
                            uf__binop_str(v->u.binary.op),
                            uf__tname(uf__iinfo(C, v->u.binary.left)->type),
                            uf__tname(uf__iinfo(C, v->u.binary.right)->type));
        if (uf__is_arrexpr(C->tf, s->u.assign.value) &&
            s->u.assign.targets[0]->kind == UF__EX_NAME &&
            uf__arrexpr_no_alloc(C))
            return uf__refuse_arrexpr(C, s->u.assign.value, "cannot be "
                                      "bound to a variable");
        for (int i = 0; i < s->u.assign.ntargets; i++)
            if (store(C, s->u.assign.targets[i], t, s->u.assign.value->pos) <
                0)
                return -1;
        return 0;
    }
    case UF__ST_AUGASSIGN:
        return type_augassign(C, s);
    case UF__ST_IF: {
        /* a pruned branch is not typed (infer_prune.c) */
        const uf__expr *c = s->u.if_.cond;
        if (s->u.if_.unroll.tuple != NULL && uf__infer_unroll_test(C, s) < 0)
            return -1; /* a literal_unroll loop's (infer_unroll.c) */
        signed char t = c ? uf__iinfo(C, c)->truth : 0; /* NULL: a try */
        uf__kernel_kind k = C->tf->decl->kind;
        if (s->u.if_.is_try && (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE))
            return uf__ierr(C, UF_ERR_UNSUPPORTED, s->pos, "try/except is "
                            "not supported in CUDA kernels (Numba's CUDA "
                            "calling convention cannot catch exceptions)");
        if (c && (t == 0 || uf__cond_runs(c)) && type_cond(C, c) < 0)
            return -1;
        if (t >= 0 && type_block(C, &s->u.if_.body) < 0)
            return -1;
        return t <= 0 ? type_block(C, &s->u.if_.orelse) : 0;
    }
    case UF__ST_FOR:
        return type_for(C, s);
    case UF__ST_WHILE:
        return type_while(C, s);
    case UF__ST_BREAK:
    case UF__ST_CONTINUE:
    case UF__ST_PASS:
        return 0;
    case UF__ST_RETURN:
        return type_return(C, s);
    case UF__ST_ASSERT:
        if (type_cond(C, s->u.assert_.test) < 0)
            return -1;
        if (s->u.assert_.msg != NULL && s->u.assert_.msg->kind != UF__EX_STR)
            return uf__ierr(C, UF_ERR_UNSUPPORTED, s->u.assert_.msg->pos,
                            "%s", "the message of an assert must be a "
                            "string literal");
        return 0;
    case UF__ST_RAISE:
        return uf__infer_raise(C, s);
    case UF__ST_IMPORT:
    case UF__ST_IMPORTFROM:
        return uf__ierr(C, UF_ERR_UNSUPPORTED, s->pos, "%s", "imports inside "
                        "a kernel are not supported: import at module "
                        "level");
    case UF__ST_FUNCDEF:
        return uf__ierr(C, UF_ERR_UNSUPPORTED, s->pos, "%s", "nested "
                        "function definitions (closures) are not supported");
    }
    return uf__ierr(C, UF_ERR_UNSUPPORTED, s->pos, "%s", "unsupported "
                    "statement");
}

static int type_block(uf__ictx *C, const uf__block *b)
{
    for (int i = 0; i < b->n; i++) {
        if (type_stmt(C, b->stmts[i]) != 0) {
            if (!C->lenient || C->err->code == UF_ERR_NOMEM)
                return -1;
            uf_error_clear(C->err); /* reported by the last pass if it stays */
        }
        /* code after return, break, continue or an if/while that never
         * ends is dead: CPython does not compile it, Numba never types it */
        if (!uf__stmt_falls_through(C->tf, b->stmts[i]))
            break;
    }
    return 0;
}

/* Numba's PartialTypeInference before its last branch pruning: the
 * passes to a fixed point with every failing statement skipped, each
 * variable's type into types[v]; the locals untyped again after, for the
 * typing on the pruned body. -1 only when out of memory. */
int uf__infer_partial(uf__ictx *C, const uf__type **types)
{
    const uf__block *body = &C->tf->decl->def->u.funcdef.body;
    C->lenient = true;
    for (int pass = 0; pass < UF__INFER_MAX_PASSES; pass++) {
        C->changed = false;
        C->incomplete = false;
        C->unknown_name = NULL;
        C->ret = NULL;
        if (type_block(C, body) < 0)
            return -1;
        if (!C->changed)
            break;
    }
    for (int v = 0; v < C->tf->nvars; v++) {
        types[v] = C->tf->vars[v].type;
        if (C->tf->vars[v].arg < 0)
            C->tf->vars[v].type = NULL;
    }
    /* what the expressions got, as before typing: code the last round
     * prunes is never typed again, and later checks walk it too */
    for (int i = 0; i <= C->tf->nids; i++) {
        signed char t = C->tf->info[i].truth, e = C->tf->info[i].truth_end;
        memset(&C->tf->info[i], 0, sizeof C->tf->info[i]);
        C->tf->info[i].truth = t;
        C->tf->info[i].truth_end = e;
    }
    C->ret = NULL;
    return 0;
}

/* ---- the declared return type ---------------------------------------- */

static bool converts(const uf__type *from, const uf__type *to)
{
    if (from == to)
        return true;
    if (from->kind == UF__T_SCALAR && to->kind == UF__T_SCALAR)
        return !(uf__type_is_complex(from) && !uf__type_is_complex(to));
    if (from->kind == UF__T_TUPLE && to->kind == UF__T_TUPLE &&
        from->n == to->n) {
        for (int i = 0; i < from->n; i++)
            if (!converts(from->elts[i], to->elts[i]))
                return false;
        return true;
    }
    return false;
}

/* ---- specialisations ------------------------------------------------- */

/* A specialisation with what it was asked for: the declared return type
 * is part of the reuse key (NULL when the return type was inferred). */
typedef struct typed_ext {
    uf__typed_func tf;
    const uf__type *declared;
    /* A failed specialisation: its error, kept for the rest of the
     * top-level typing of `generation`. Typing a caller runs its body
     * several times (the fixed point), each time calling the callee: typed
     * again every time, an error at the end of a chain of n calls cost
     * 2^n typings. */
    bool failed;
    unsigned generation;
    uf_error error;
} typed_ext;

/* A success, else a failure, else NULL. */
static typed_ext *find_typed(uf__kmodule *km, const uf__kernel_decl *decl,
                             const uf__type *const *args, int nargs,
                             const uf__type *ret, bool numpy_model)
{
    typed_ext *failed = NULL;
    for (int i = 0; i < km->ntyped; i++) {
        typed_ext *x = (typed_ext *)km->typed[i];
        uf__typed_func *tf = &x->tf;
        if (tf->decl != decl || tf->nargs != nargs ||
            tf->numpy_error_model != numpy_model || x->declared != ret)
            continue;
        bool same = true;
        for (int k = 0; k < nargs && same; k++)
            same = tf->args[k] == args[k];
        if (same && !x->failed)
            return x;
        if (same)
            failed = x;
    }
    return failed;
}

static int remember(uf__kmodule *km, uf__typed_func *tf, uf_error *err)
{
    if (km->ntyped == km->captyped) {
        int ncap = km->captyped ? 2 * km->captyped : 8;
        uf__typed_func **p = uf__realloc(km->typed, (size_t)ncap, sizeof *p,
                                         err);
        if (p == NULL)
            return -1;
        km->typed = p;
        km->captyped = ncap;
    }
    km->typed[km->ntyped++] = tf;
    return 0;
}

/* Whether t is or holds a value of kind k. */
static bool holds_kind(const uf__type *t, uf__type_kind k)
{
    if (t->kind == k)
        return true;
    if (t->kind == UF__T_TUPLE)
        for (int i = 0; i < t->n; i++)
            if (holds_kind(t->elts[i], k))
                return true;
    return false;
}

/* The fixed point over the body, then the return type. */
static int infer_body(uf__ictx *C, const uf__type *declared)
{
    const uf__stmt *def = C->tf->decl->def;
    int pass;
    C->lenient = true;
    for (pass = 0; pass < UF__INFER_MAX_PASSES; pass++) {
        C->changed = false;
        C->incomplete = false;
        C->unknown_name = NULL;
        C->ret = NULL;
        if (type_block(C, &def->u.funcdef.body) < 0)
            return -1;
        if (C->changed)
            continue;
        if (!C->lenient)
            break;
        C->lenient = false; /* settled: once more, reporting errors */
    }
    if (pass == UF__INFER_MAX_PASSES)
        return uf__ierr(C, UF_ERR_INTERNAL, def->pos, "type inference of "
                        "'%s' did not settle", C->tf->decl->name);
    if (C->incomplete)
        return uf__ierr(C, UF_ERR_TYPING, C->first_unknown, "local variable "
                        "'%.*s' is referenced before assignment",
                        (int)strcspn(C->unknown_name, "."), C->unknown_name);
    if (uf__infer_list_check(C) < 0) /* `l = []` never appended to */
        return -1;
    if (uf__infer_ustr_check(C) < 0) /* a run-time string in CUDA code */
        return -1;
    if (uf__infer_dict_check(C) < 0) /* `d = {}` never stored into */
        return -1;
    if (uf__infer_set_check(C) < 0) /* `s = set()` never added to */
        return -1;

    const uf__type *none = uf__type_none(C->tc);
    const uf__type *ret = C->ret;
    if (uf__block_falls_through(C->tf, &def->u.funcdef.body)) {
        if (ret == NULL)
            ret = none;
        else if (ret != none)
            return uf__ierr(C, UF_ERR_TYPING, def->u.funcdef.name_pos,
                            "Can't unify return type from the following "
                            "types: %s, none ('%s' can end without "
                            "returning a value)", uf__tname(ret),
                            C->tf->decl->name);
    } else if (ret == NULL) {
        ret = none;
    }
    if (C->tf->decl->kind == UF__K_CUDA_KERNEL && ret != none)
        return uf__ierr(C, UF_ERR_TYPING, C->ret_pos, "Kernel must have void "
                        "return type but got %s (a CUDA kernel writes its "
                        "results into arrays)", uf__tname(ret));
    if (C->caller == NULL && holds_kind(ret, UF__T_LIST))
        return uf__ierr(C, UF_ERR_UNSUPPORTED, C->ret ? C->ret_pos :
                        def->u.funcdef.name_pos, "'%s' returns %s: a list "
                        "cannot leave the kernel called through ufjit's API "
                        "(return np.array(l) or a tuple; a tuple of the "
                        "arrays of a list of arrays; lists pass between "
                        "@njit functions of the file)", C->tf->decl->name,
                        uf__tname(ret));
    if (C->caller == NULL && C->tf->decl->kind != UF__K_NJIT &&
        (holds_kind(ret, UF__T_STR) || holds_kind(ret, UF__T_USTR)))
        return uf__ierr(C, UF_ERR_UNSUPPORTED, C->ret_pos, "'%s' returns %s: "
                        "only an @njit function may return a string (uf_call "
                        "gives its code points: jit_plain.c)",
                        C->tf->decl->name, uf__tname(ret));
    if (C->caller == NULL && holds_kind(ret, UF__T_DICT))
        return uf__ierr(C, UF_ERR_UNSUPPORTED, C->ret ? C->ret_pos :
                        def->u.funcdef.name_pos, "'%s' returns %s: a dict "
                        "cannot leave the kernel called through ufjit's API "
                        "(return arrays of its keys and values; dicts pass "
                        "between @njit functions of the file)",
                        C->tf->decl->name, uf__tname(ret));
    if (C->caller == NULL && holds_kind(ret, UF__T_SET)) /* infer_set.c */
        return uf__ierr(C, UF_ERR_UNSUPPORTED, C->ret ? C->ret_pos :
                        def->u.funcdef.name_pos, "'%s' returns %s: a set "
                        "cannot leave the kernel called through ufjit's API "
                        "(return an array of its items; sets pass between "
                        "@njit functions of the file)", C->tf->decl->name,
                        uf__tname(ret));
    if (declared != NULL && declared != ret) {
        if (!converts(ret, declared))
            return uf__ierr(C, UF_ERR_TYPING, C->ret ? C->ret_pos :
                            def->u.funcdef.name_pos, "'%s' returns %s, which "
                            "cannot be converted to the declared return "
                            "type %s", C->tf->decl->name, uf__tname(ret),
                            uf__tname(declared));
        ret = declared;
    }
    C->tf->ret = ret;
    return 0;
}

/* Keeps err as the failure of (decl, args, ret, numpy_model) in this
 * top-level typing, in `stale` when there is one. */
static void remember_failure(uf__kmodule *km, typed_ext *stale,
                             const uf__kernel_decl *decl,
                             const uf__type *const *args, int nargs,
                             const uf__type *ret, bool numpy_model,
                             const uf_error *err)
{
    typed_ext *x = stale;
    if (x == NULL) {
        uf_error ignored;
        x = uf__arena_alloc(km->arena, 1, sizeof *x, &ignored);
        const uf__type **targs = uf__arena_alloc(km->arena, (size_t)nargs + 1,
                                                 sizeof *targs, &ignored);
        if (x == NULL || targs == NULL)
            return; /* only the memo is lost */
        for (int i = 0; i < nargs; i++) /* args is NULL when nargs is 0 */
            targs[i] = args[i];
        x->tf.decl = decl;
        x->tf.args = targs;
        x->tf.nargs = nargs;
        x->tf.numpy_error_model = numpy_model;
        x->declared = ret;
        x->failed = true;
        if (remember(km, &x->tf, &ignored) < 0)
            return;
    }
    x->generation = km->infer_generation;
    x->error = *err;
}

static uf__typed_func *infer_new(uf__kmodule *km, const uf__kernel_decl *decl,
                                 const uf__type *const *args, int nargs,
                                 const uf__type *ret, bool numpy_model,
                                 uf__ictx *caller, uf_error *err);

uf__typed_func *uf__infer_spec(uf__kmodule *km, const uf__kernel_decl *decl,
                               const uf__type *const *args, int nargs,
                               const uf__type *ret, bool numpy_model,
                               uf__ictx *caller, uf_error *err)
{
    typed_ext *x = find_typed(km, decl, args, nargs, ret, numpy_model);
    if (x != NULL && !x->failed)
        return &x->tf;
    if (x != NULL && x->generation == km->infer_generation) {
        *err = x->error;
        return NULL;
    }
    uf__typed_func *tf = infer_new(km, decl, args, nargs, ret, numpy_model,
                                   caller, err);
    if (tf == NULL && err->code != UF_ERR_NOMEM)
        remember_failure(km, x, decl, args, nargs, ret, numpy_model, err);
    return tf;
}

static uf__typed_func *infer_new(uf__kmodule *km, const uf__kernel_decl *decl,
                                 const uf__type *const *args, int nargs,
                                 const uf__type *ret, bool numpy_model,
                                 uf__ictx *caller, uf_error *err)
{
    const uf__stmt *def = decl->def;
    if (def->u.funcdef.refused) { /* a nested def (front/closures.c) */
        uf__source_error(err, def->u.funcdef.refused_code, km->src,
                         def->u.funcdef.refused_pos, "%s",
                         def->u.funcdef.refused);
        return NULL;
    }
    if (nargs != def->u.funcdef.nparams) {
        uf__source_error(err, UF_ERR_TYPING, km->src, def->u.funcdef.name_pos,
                         "%s() takes %d argument%s but %d %s given",
                         decl->name, def->u.funcdef.nparams,
                         def->u.funcdef.nparams == 1 ? "" : "s", nargs,
                         nargs == 1 ? "was" : "were");
        return NULL;
    }
    uf__typed_func *tf;
    typed_ext *x = uf__arena_alloc(km->arena, 1, sizeof *x, err);
    if (x == NULL)
        return NULL;
    x->declared = ret;
    tf = &x->tf;
    const uf__type **targs = uf__arena_alloc(km->arena, (size_t)nargs + 1,
                                             sizeof *targs, err);
    tf->first_id = decl->def->u.funcdef.first_id;
    tf->nids = decl->def->u.funcdef.nids;
    tf->info = uf__arena_alloc(km->arena, (size_t)tf->nids + 1,
                               sizeof *tf->info, err);
    if (targs == NULL || tf->info == NULL)
        return NULL;
    for (int i = 0; i < nargs; i++) {
        if (!uf__is_value_type(args[i]) || args[i]->kind == UF__T_NONE) {
            uf__source_error(err, UF_ERR_TYPING, km->src,
                             def->u.funcdef.params[i].pos, "argument '%s' of "
                             "'%s' cannot have type %s",
                             def->u.funcdef.params[i].name, decl->name,
                             uf__tname(args[i]));
            return NULL;
        }
        targs[i] = args[i];
    }
    tf->km = km;
    tf->decl = decl;
    tf->args = targs;
    tf->nargs = nargs;
    tf->numpy_error_model = numpy_model;

    uf__ictx C;
    memset(&C, 0, sizeof C);
    C.km = km;
    C.tc = km->tc;
    C.tf = tf;
    C.err = err;
    C.caller = caller;
    for (int i = 0; i < nargs; i++) {
        int v = add_var(&C, def->u.funcdef.params[i].name, i);
        if (v < 0)
            return NULL;
        tf->vars[v].type = args[i];
        C.def_pos[v] = def->u.funcdef.params[i].pos;
    }
    if (uf__ast_walk_stmts(&def->u.funcdef.body, collect_stmt, &C) < 0 ||
        uf__infer_prune(&C) < 0 || uf__infer_check_reads(&C) < 0)
        return NULL;
    if (infer_body(&C, ret) < 0 || uf__check_array_exprs(&C) < 0)
        return NULL;

    char sym[160];
    snprintf(sym, sizeof sym, "uf.%s.%d", decl->name, km->ntyped);
    tf->symbol = uf__arena_strndup(km->arena, sym, strlen(sym), err);
    if (tf->symbol == NULL || remember(km, tf, err) < 0)
        return NULL;
    return tf;
}

uf__typed_func *uf__infer(uf__kmodule *km, const uf__kernel_decl *decl,
                          const uf__type *const *args, int nargs,
                          const uf__type *ret, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    km->infer_generation++;
    /* numba-cuda compiles kernels with error_model='numpy' too */
    bool numpy_model = decl->kind == UF__K_VECTORIZE ||
                       decl->kind == UF__K_GUVECTORIZE ||
                       decl->kind == UF__K_REDUCE ||
                       decl->kind == UF__K_CUDA_KERNEL;
    return uf__infer_spec(km, decl, args, nargs, ret, numpy_model, NULL, err);
}
