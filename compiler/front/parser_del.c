/* The 'del' statement: `del d[k]`, `del l[i]`, `del l[a:b:c]` and
 * several targets (`del d[k], l[i]`, `del (a[0], b[1])`, `del [a, b]`),
 * as Numba compiles them.
 *
 * Each subscript target becomes the expression statement
 * `value.__delitem__(index)` (a slice stays a slice node as the one
 * argument): typing takes the method on lists and dicts only
 * (infer_list.c, infer_dict.c), and refuses it on anything else naming
 * the 'del' (infer_expr.c), as Numba has no delitem for arrays, strings
 * or tuples. The statements of all but the last target go to p->pending,
 * which the caller emits before the last, so they run in source order.
 * `del x` of a name and `del a.b` are refused in the function, as Numba
 * refuses them compiling it ("Illegal IR, del found", "Unsupported
 * constraint encountered: del"). */
#include <string.h>

#include "compiler/front/parser.h"

/* The statement deleting subscript target t. */
static uf__stmt *delitem(uf__parser *p, uf__pos pos, uf__expr *t)
{
    uf__expr *arg = t->u.subscript.index[0];
    if (t->u.subscript.nindex != 1) { /* d[1, 2]: the tuple (1, 2) */
        arg = uf__new_expr(p, UF__EX_TUPLE, t->u.subscript.index[0]->pos);
        if (arg == NULL)
            return NULL;
        arg->u.seq.elts = t->u.subscript.index;
        arg->u.seq.n = t->u.subscript.nindex;
    }
    uf__expr *attr = uf__new_expr(p, UF__EX_ATTR, t->pos);
    uf__expr *call = uf__new_expr(p, UF__EX_CALL, t->pos);
    uf__expr **args = uf__arena_alloc(p->arena, 1, sizeof *args, p->err);
    uf__stmt *s = uf__new_stmt(p, UF__ST_EXPR, pos);
    if (attr == NULL || call == NULL || args == NULL || s == NULL) {
        p->failed = true;
        return NULL;
    }
    attr->u.attr.value = t->u.subscript.value;
    attr->u.attr.attr = "__delitem__";
    attr->u.attr.attr_pos = t->pos;
    args[0] = arg;
    call->u.call.func = attr;
    call->u.call.args = args;
    call->u.call.nargs = 1;
    s->u.expr.value = call;
    return s;
}

/* The statement for target t (PASS for a refused one), or NULL. */
static uf__stmt *one_target(uf__parser *p, uf__pos pos, uf__expr *t)
{
    switch (t->kind) {
    case UF__EX_SUBSCRIPT:
        return delitem(p, pos, t);
    case UF__EX_NAME:
        if (!uf__refuse_in_def(p, t->pos, "'del' of a variable (Numba "
                               "refuses it: \"Illegal IR, del found\")"))
            return NULL;
        return uf__new_stmt(p, UF__ST_PASS, pos);
    case UF__EX_ATTR:
        if (!uf__refuse_in_def(p, t->pos, "'del' of an attribute (Numba "
                               "refuses it: \"Unsupported constraint "
                               "encountered: del\")"))
            return NULL;
        return uf__new_stmt(p, UF__ST_PASS, pos);
    default:
        return uf__syntax_error(p, t->pos, "cannot delete %s",
                                uf__expr_desc(t));
    }
}

static bool pend(uf__parser *p, uf__stmt *s)
{
    if (!uf__grow(p, (void **)&p->pending, &p->cappending, p->npending,
                  sizeof(void *)))
        return false;
    p->pending[p->npending++] = s;
    return true;
}

/* Flattens the targets of t (nested tuples) into v. */
static bool flatten(uf__parser *p, uf__expr *t, uf__pvec *v)
{
    if (t->kind != UF__EX_TUPLE && t->kind != UF__EX_LIST) /* del [a, b] */
        return uf__pvec_push(p, v, t);
    if (t->u.seq.n == 0)
        return uf__syntax_error(p, t->pos, "cannot delete %s",
                                "()") != NULL;
    for (int i = 0; i < t->u.seq.n; i++)
        if (!flatten(p, t->u.seq.elts[i], v))
            return false;
    return true;
}

/* del_stmt: 'del' del_target (',' del_target)* [','] */
uf__stmt *uf__parse_del(uf__parser *p)
{
    uf__pos pos = uf__advance(p)->pos;
    uf__pvec v = {0};
    for (;;) {
        uf__expr *e = uf__parse_bitor(p);
        if (e == NULL || !flatten(p, e, &v))
            return NULL;
        if (!uf__accept(p, UF__TOK_COMMA) || uf__at(p, UF__TOK_NEWLINE) ||
            uf__at(p, UF__TOK_SEMI))
            break;
    }
    uf__stmt *last = NULL;
    for (int i = 0; i < v.n; i++) {
        if (last != NULL && !pend(p, last))
            return NULL;
        if ((last = one_target(p, pos, v.items[i])) == NULL)
            return NULL;
    }
    return last;
}
