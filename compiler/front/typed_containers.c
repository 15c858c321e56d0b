/* numba.typed.List / numba.typed.Dict calls rewritten into the list and
 * dict expressions they mean (see typed_containers.h). Type arguments
 * (types.int64, np.float64, types.unicode_type, types.float64[:]) are
 * rendered to signature text and parsed by compiler/types/signature.c, so
 * that they mean what they mean in a signature. */
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "common/list_items.h"
#include "common/set.h"
#include "compiler/front/ast_visit.h"
#include "compiler/front/consteval.h"
#include "compiler/front/typed_containers.h"

typedef uf__kscan scan;
#define unsupported uf__kscan_unsupported

typedef struct uf__typed_var {
    const uf__stmt *def;
    const char *name;
} uf__typed_var;

typedef struct pass {
    scan *S;
    int cap, capvars;
    const uf__stmt *def; /* the function walked */
} pass;

static bool put(char *buf, size_t size, const char *s)
{
    size_t n = strlen(buf);
    return (size_t)snprintf(buf + n, size - n, "%s", s) < size - n;
}

static bool numba_types(const char *q)
{
    return strcmp(q, "numba") == 0 || strcmp(q, "numba.types") == 0;
}

/* The type expression e as signature text appended to buf. */
static int render(scan *S, const uf__expr *e, char *buf, size_t size)
{
    char q[128];
    uf_dtype dt;
    switch (e->kind) {
    case UF__EX_NAME: {
        const uf__global *g = uf__kmodule_global(S->km, e->u.name.id);
        if (g != NULL && g->kind == UF__G_DTYPE && g->dtype != UF_NTYPES)
            return put(buf, size, uf_dtype_name(g->dtype)) ? 0 : -1;
        if (g != NULL && g->kind == UF__G_MODULE &&
            strcmp(g->module, "numba.types.unicode_type") == 0)
            return put(buf, size, "unicode_type") ? 0 : -1;
        break;
    }
    case UF__EX_ATTR: {
        const char *a = e->u.attr.attr;
        if (!uf__kscan_qualify(S, e->u.attr.value, q, sizeof q))
            break;
        if (uf__const_dtype_name(q, a, &dt))
            return put(buf, size, uf_dtype_name(dt)) ? 0 : -1;
        if (numba_types(q) &&
            (strcmp(a, "unicode_type") == 0 || strcmp(a, "string") == 0))
            return put(buf, size, "unicode_type") ? 0 : -1;
        if (numba_types(q))
            return unsupported(S, e->pos, "types.%s cannot be the item, key "
                               "or value type of a numba.typed container in "
                               "kernels (numbers, unicode_type and arrays "
                               "can)", a);
        break;
    }
    case UF__EX_CALL:
        /* Numba: "No type info available for <class UniTuple> as a
         * callable" (a type built by a call inside a kernel) */
        return uf__source_error(S->err, UF_ERR_TYPING, S->km->src, e->pos,
                                "%s", "a type built by a call (types."
                                "UniTuple(...), types.Tuple(...), types."
                                "ListType(...)) cannot be used inside a "
                                "kernel: Numba has no type info for it as a "
                                "callable there");
    case UF__EX_SUBSCRIPT: /* float64[:], int32[:, ::1] */
        if (render(S, e->u.subscript.value, buf, size) != 0)
            return -1;
        if (!put(buf, size, "["))
            return -1;
        for (int i = 0; i < e->u.subscript.nindex; i++) {
            const uf__expr *x = e->u.subscript.index[i];
            const uf__expr *st = x->kind == UF__EX_SLICE ? x->u.slice.step
                                                          : NULL;
            if (x->kind != UF__EX_SLICE || x->u.slice.lower != NULL ||
                x->u.slice.upper != NULL ||
                (st != NULL && (st->kind != UF__EX_INT || st->u.i.value != 1)))
                return unsupported(S, x->pos, "%s", "an array type's "
                                   "dimensions are written ':' or '::1'");
            if (!put(buf, size, i > 0 ? ", " : "") ||
                !put(buf, size, st != NULL ? "::1" : ":"))
                return -1;
        }
        return put(buf, size, "]") ? 0 : -1;
    default:
        break;
    }
    return unsupported(S, e->pos, "%s", "expected a type such as "
                       "types.int64, np.float64, types.unicode_type or "
                       "types.float64[:]");
}

static const uf__type *container_type(scan *S, const uf__expr *e);

/* The type that expression e stands for, or NULL with the error set: a
 * module-level container type by its name, a types.ListType / DictType
 * call at module level (module_level), else text for signature.c. */
static const uf__type *eval_type_at(scan *S, const uf__expr *e,
                                    bool module_level)
{
    if (e->kind == UF__EX_NAME) {
        const uf__global *g = uf__kmodule_global(S->km, e->u.name.id);
        if (g != NULL && g->kind == UF__G_TYPE && g->type == NULL)
            *S->err = *g->type_error; /* refused where it was bound */
        if (g != NULL && g->kind == UF__G_TYPE)
            return g->type;
    }
    if (module_level && uf__typed_is_type_call(S, e))
        return container_type(S, e);
    if (module_level && e->kind == UF__EX_CALL) {
        unsupported(S, e->pos, "%s", "this type cannot be the item, key or "
                    "value type of a container in kernels (numbers, "
                    "unicode_type, arrays, types.ListType(...) and "
                    "types.DictType(...) can)");
        return NULL;
    }
    char text[256] = "";
    int rc = render(S, e, text, sizeof text);
    if (rc != 0) {
        if (S->err->code == UF_ERR_OK)
            unsupported(S, e->pos, "%s", "type expression too long");
        return NULL;
    }
    const uf__type *t = NULL;
    uf_error local;
    uf_error_clear(&local);
    if (uf__parse_type(S->km->tc, text, &t, &local) != 0) {
        uf__source_error(S->err, local.code, S->km->src, e->pos, "%s",
                         local.message);
        return NULL;
    }
    return t;
}

static const uf__type *eval_type(scan *S, const uf__expr *e)
{
    return eval_type_at(S, e, false);
}

static bool scalar_tuple(const uf__type *t)
{
    if (t->kind != UF__T_TUPLE || t->n == 0)
        return false;
    for (int i = 0; i < t->n; i++)
        if (t->elts[i]->kind != UF__T_SCALAR)
            return false;
    return true;
}

/* A typed list or dict as an item or a value: nested at most as deep as
 * the runtime describes (lower_list_nest.c). */
static bool container_ok(const uf__type *t)
{
    return ((t->kind == UF__T_LIST && t->n == 1) ||
            (t->kind == UF__T_DICT && t->n == 2 && t->layout == 0)) &&
           uf__type_nest_depth(t) < UF__LIST_NEST_MAX;
}

/* What the lists of infer_list.c hold (uf__list_elt_ok). */
static bool list_item_ok(const uf__type *t)
{
    return t->kind == UF__T_SCALAR || t->kind == UF__T_USTR ||
           scalar_tuple(t) || container_ok(t) ||
           (t->kind == UF__T_ARRAY && t->ndim <= UF__LIST_ITEM_MAXDIM);
}

/* What the dicts of infer_dict.c hold (check_key, check_value). */
static bool dict_key_ok(const uf__type *t)
{
    if (t->kind == UF__T_USTR || t->kind == UF__T_SCALAR)
        return true;
    int n = 0; /* a tuple's 8-byte fields (common/dict.h's WIDE keys) */
    for (int i = 0; scalar_tuple(t) && i < t->n; i++)
        n += uf_dtype_kind(t->elts[i]->dtype) == 'c' ? 2 : 1;
    return n > 0 && n <= UF__SET_MAXFIELDS;
}

static bool dict_value_ok(const uf__type *t)
{
    return t->kind == UF__T_SCALAR || t->kind == UF__T_USTR ||
           scalar_tuple(t) || container_ok(t);
}

static const char *tname(const uf__type *t, char *buf, size_t size)
{
    uf__type_str(t, buf, size);
    return buf;
}

static int record(pass *P, const uf__expr *call, const uf__type *t,
                  const uf_error *error)
{
    uf__kmodule *km = P->S->km;
    if (t == NULL && error == NULL)
        return P->S->err->code;
    if (!uf__kscan_grow(P->S, (void **)&km->typed_decls, &P->cap,
                        km->ntyped_decls, sizeof *km->typed_decls))
        return P->S->err->code;
    km->typed_decls[km->ntyped_decls++] = (uf__typed_decl){call, t, error};
    return 0;
}

/* Only the names listed (positional up to npos) are taken. */
static int check_args(scan *S, const uf__expr *e, const char *fn, int npos,
                      const char *const *names)
{
    if (e->u.call.nargs > npos)
        return unsupported(S, e->u.call.args[npos]->pos, "%s() takes at most "
                           "%d arguments", fn, npos);
    for (int i = 0; i < e->u.call.nkw; i++) {
        bool known = false;
        for (int k = 0; k < npos; k++)
            known = known || strcmp(e->u.call.kw[i].name, names[k]) == 0;
        if (!known)
            return unsupported(S, e->u.call.kw[i].pos, "%s() got an "
                               "unexpected keyword argument '%s'", fn,
                               e->u.call.kw[i].name);
    }
    return 0;
}

static const uf__expr *required(scan *S, const uf__expr *e, int pos,
                                const char *name, const char *fn)
{
    const uf__expr *x = uf__call_arg(e, pos, name);
    if (x == NULL)
        unsupported(S, e->pos, "%s() missing required argument '%s'", fn,
                    name);
    return x;
}

/* The call now calls the builtin `fn` (list / dict) with no argument
 * (keep_args false) or its own. */
static void call_builtin(uf__expr *e, const char *fn, bool keep_args)
{
    uf__expr *f = e->u.call.func;
    f->kind = UF__EX_NAME;
    f->u.name.id = fn;
    if (!keep_args) {
        e->u.call.nargs = 0;
        e->u.call.nkw = 0;
        e->u.call.starred = false;
    }
}

static int empty_list(pass *P, uf__expr *e)
{
    scan *S = P->S;
    static const char *const names[] = {"item_type", "allocated"};
    const char *fn = "List.empty_list";
    if (check_args(S, e, fn, 2, names) != 0)
        return S->err->code;
    const uf__expr *x = required(S, e, 0, "item_type", fn);
    const uf__type *t = x ? eval_type(S, x) : NULL;
    if (t == NULL)
        return S->err->code;
    char b[128];
    if (!list_item_ok(t))
        return unsupported(S, x->pos, "List.empty_list(%s): a list of %s is "
                           "not supported in kernels (lists of numbers, "
                           "tuples of numbers, strings, arrays, typed lists "
                           "or dicts only)",
                           tname(t, b, sizeof b), b);
    if (record(P, e, uf__type_list(S->km->tc, t, S->err), NULL) != 0)
        return S->err->code;
    call_builtin(e, "list", false);
    return 0;
}

static int empty_dict(pass *P, uf__expr *e)
{
    scan *S = P->S;
    static const char *const names[] = {"key_type", "value_type", "n_keys"};
    const char *fn = "Dict.empty";
    if (check_args(S, e, fn, 3, names) != 0)
        return S->err->code;
    const uf__expr *kx = required(S, e, 0, "key_type", fn);
    const uf__type *k = kx ? eval_type(S, kx) : NULL;
    if (k == NULL)
        return S->err->code;
    const uf__expr *vx = required(S, e, 1, "value_type", fn);
    const uf__type *v = vx ? eval_type(S, vx) : NULL;
    if (v == NULL)
        return S->err->code;
    char b[128];
    if (!dict_key_ok(k))
        return unsupported(S, kx->pos, "%s cannot be a key of a dict in "
                           "kernels (keys are numbers, strings and tuples "
                           "of at most %d numbers)", tname(k, b, sizeof b),
                           UF__SET_MAXFIELDS);
    if (!dict_value_ok(v))
        return unsupported(S, vx->pos, "%s cannot be a value of a dict in "
                           "kernels (values are numbers, tuples of numbers, "
                           "strings, typed lists or dicts)",
                           tname(v, b, sizeof b));
    if (record(P, e, uf__type_dict(S->km->tc, k, v, 0, S->err), NULL) != 0)
        return S->err->code;
    call_builtin(e, "dict", false);
    return 0;
}

bool uf__typed_is_type_call(uf__kscan *S, const uf__expr *e)
{
    char q[128];
    return e->kind == UF__EX_CALL &&
           uf__kscan_qualify(S, e->u.call.func, q, sizeof q) &&
           (strcmp(q, "numba.types.ListType") == 0 ||
            strcmp(q, "numba.types.DictType") == 0 ||
            strcmp(q, "numba.core.types.ListType") == 0 ||
            strcmp(q, "numba.core.types.DictType") == 0);
}

/* types.ListType(T) / types.DictType(K, V) at module level. */
static const uf__type *container_type(scan *S, const uf__expr *e)
{
    char q[128], b[128];
    uf__kscan_qualify(S, e->u.call.func, q, sizeof q);
    bool dict = strstr(q, "DictType") != NULL;
    int want = dict ? 2 : 1;
    if (e->u.call.nkw != 0 || e->u.call.nargs != want || e->u.call.starred) {
        unsupported(S, e->pos, "types.%s takes %d positional argument%s "
                    "here", dict ? "DictType(key_type, value_type)"
                                 : "ListType(item_type)",
                    want, want == 1 ? "" : "s");
        return NULL;
    }
    const uf__type *t[2] = {NULL, NULL};
    for (int i = 0; i < want; i++)
        if ((t[i] = eval_type_at(S, e->u.call.args[i], true)) == NULL)
            return NULL;
    const uf__expr *x = e->u.call.args[dict ? 1 : 0];
    if (!dict && !list_item_ok(t[0])) {
        unsupported(S, x->pos, "types.ListType(%s): a list of %s is not "
                    "supported in kernels (lists of numbers, tuples of "
                    "numbers, strings, arrays, typed lists or dicts only)",
                    tname(t[0], b, sizeof b), b);
        return NULL;
    }
    if (dict && !dict_key_ok(t[0])) {
        unsupported(S, e->u.call.args[0]->pos, "%s cannot be a key of a "
                    "dict in kernels (keys are numbers, strings and tuples "
                    "of at most %d numbers)", tname(t[0], b, sizeof b),
                    UF__SET_MAXFIELDS);
        return NULL;
    }
    if (dict && !dict_value_ok(t[1])) {
        unsupported(S, x->pos, "%s cannot be a value of a dict in kernels "
                    "(values are numbers, tuples of numbers, strings, typed "
                    "lists or dicts)", tname(t[1], b, sizeof b));
        return NULL;
    }
    return dict ? uf__type_dict(S->km->tc, t[0], t[1], 0, S->err)
                : uf__type_list(S->km->tc, t[0], S->err);
}

const uf__type *uf__typed_module_type(uf__kscan *S, const uf__expr *e)
{
    return container_type(S, e);
}

static int rewrite_call(pass *P, uf__expr *e, const char *q)
{
    scan *S = P->S;
    if (strcmp(q, "numba.typed.List") == 0) {
        if (e->u.call.nkw != 0 || e->u.call.nargs > 1)
            return unsupported(S, e->pos, "%s", "List() takes at most one "
                               "argument, an iterable");
        call_builtin(e, "list", true);
        return 0;
    }
    if (strcmp(q, "numba.typed.Dict") == 0) {
        if (e->u.call.nkw != 0 || e->u.call.nargs != 0)
            return unsupported(S, e->pos, "%s", "Dict() takes no arguments "
                               "in kernels (Dict.empty(key_type, "
                               "value_type) declares the types)");
        call_builtin(e, "dict", false);
        return 0;
    }
    if (strcmp(q, "numba.typed.List.empty_list") == 0)
        return empty_list(P, e);
    if (strcmp(q, "numba.typed.Dict.empty") == 0)
        return empty_dict(P, e);
    return unsupported(S, e->pos, "'%s' is not supported in kernels "
                       "(List(), List(iterable), List.empty_list(T), Dict() "
                       "and Dict.empty(K, V) are)", q);
}

static int visit_expr(const uf__expr *ce, void *ud)
{
    pass *P = ud;
    uf__expr *e = (uf__expr *)ce; /* the tree is the arena's, writable */
    char q[128];
    if (e->kind == UF__EX_CALL &&
        uf__kscan_qualify(P->S, e->u.call.func, q, sizeof q) &&
        strncmp(q, "numba.typed", 11) == 0 &&
        (q[11] == '\0' || q[11] == '.')) {
        /* a refusal is kept for the kernel's typing */
        uf_error *outer = P->S->err, *local =
            uf__arena_alloc(P->S->km->arena, 1, sizeof *local, outer);
        if (local == NULL)
            return outer->code;
        uf_error_clear(local);
        P->S->err = local;
        int rc = rewrite_call(P, e, q);
        P->S->err = outer;
        if (rc != 0 && local->code == UF_ERR_NOMEM)
            return uf__error_nomem(outer);
        if (rc != 0) {
            call_builtin(e, "list", false);
            if (record(P, e, NULL, local) != 0)
                return outer->code;
            return 0;
        }
    }
    return uf__ast_children(e, visit_expr, ud);
}

/* l = List(...): l's item type is fixed once known. */
static int note_list_var(pass *P, const uf__stmt *s)
{
    const uf__expr *v = s->u.assign.value;
    char q[128];
    if (v->kind != UF__EX_CALL ||
        !uf__kscan_qualify(P->S, v->u.call.func, q, sizeof q) ||
        (strcmp(q, "numba.typed.List") != 0 &&
         strcmp(q, "numba.typed.List.empty_list") != 0))
        return 0;
    uf__kmodule *km = P->S->km;
    for (int i = 0; i < s->u.assign.ntargets; i++) {
        const uf__expr *t = s->u.assign.targets[i];
        if (t->kind != UF__EX_NAME)
            continue;
        if (!uf__kscan_grow(P->S, (void **)&km->typed_vars, &P->capvars,
                            km->ntyped_vars, sizeof *km->typed_vars))
            return P->S->err->code;
        km->typed_vars[km->ntyped_vars++] =
            (uf__typed_var){P->def, t->u.name.id};
    }
    return 0;
}

static int visit_stmt(uf__stmt *s, void *ud)
{
    if (s->kind == UF__ST_ASSIGN && note_list_var(ud, s) != 0)
        return ((pass *)ud)->S->err->code;
    return uf__ast_stmt_exprs(s, visit_expr, ud);
}

int uf__typed_containers(uf__kscan *S)
{
    pass P = {S, 0, 0, NULL};
    const uf__ast_module *m = S->km->ast;
    for (int i = 0; i < m->body.n; i++) {
        const uf__stmt *s = m->body.stmts[i];
        if (s->kind != UF__ST_FUNCDEF)
            continue;
        P.def = s;
        int rc = uf__ast_walk_stmts(&s->u.funcdef.body, visit_stmt, &P);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int uf__typed_declared(const uf__kmodule *km, const uf__expr *e,
                       const uf__type **out, uf_error *err)
{
    for (int i = 0; i < km->ntyped_decls; i++) {
        const uf__typed_decl *d = &km->typed_decls[i];
        if (d->call != e)
            continue;
        if (d->type == NULL) {
            *err = *d->error;
            return -1;
        }
        *out = d->type;
        return 1;
    }
    return 0;
}

bool uf__typed_list_var(const uf__kmodule *km, const uf__stmt *def,
                        const char *name)
{
    for (int i = 0; i < km->ntyped_vars; i++)
        if (km->typed_vars[i].def == def &&
            strcmp(km->typed_vars[i].name, name) == 0)
            return true;
    return false;
}

bool uf__typed_casts(const uf__type *from, const uf__type *to)
{
    if (from->kind != UF__T_SCALAR || to->kind != UF__T_SCALAR)
        return false;
    uf__conversion c = uf__type_conversion(from, to);
    if (c <= UF__CONV_SAFE)
        return true;
    char fk = uf_dtype_kind(from->dtype), tk = uf_dtype_kind(to->dtype);
    bool fi = fk == 'i' || fk == 'u', ti = tk == 'i' || tk == 'u';
    return (fi && (ti || tk == 'f')) || (fk == 'f' && tk == 'f') ||
           (fk == 'c' && tk == 'c');
}
