/* Decorator expressions and signatures of the module scan (kmodule.c):
 * a decorator's dotted meaning from what its first name is bound to, and
 * the signatures given to it (strings, expressions rendered back to
 * Numba's signature text, module-level lists) into its kernel_decl. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/front/consteval.h"
#include "compiler/front/kmodule_scan.h"

/* Short names within this file for kmodule_scan.h's. */
typedef uf__kscan scan;
#define unsupported uf__kscan_unsupported
#define grow uf__kscan_grow

/* (the latest binding of name wins) */
const uf__siglist *uf__kscan_siglist(const scan *S, const char *name)
{
    for (int i = S->nsiglists - 1; i >= 0; i--)
        if (strcmp(S->siglists[i].name, name) == 0)
            return S->siglists[i].list ? &S->siglists[i] : NULL;
    return NULL;
}

/* The dotted meaning of a decorator expression ("numba.cuda.jit"), from
 * what its first name is bound to. False when it is not a known one. */
bool uf__kscan_qualify(scan *S, const uf__expr *e, char *buf, size_t size)
{
    if (e->kind == UF__EX_NAME) {
        const uf__global *g = uf__kmodule_global(S->km, e->u.name.id);
        if (g == NULL ||
            (g->kind != UF__G_MODULE && g->kind != UF__G_DECORATOR))
            return false;
        return (size_t)snprintf(buf, size, "%s", g->module) < size;
    }
    if (e->kind == UF__EX_ATTR) {
        if (!uf__kscan_qualify(S, e->u.attr.value, buf, size))
            return false;
        size_t n = strlen(buf);
        return (size_t)snprintf(buf + n, size - n, ".%s", e->u.attr.attr) <
               size - n;
    }
    return false;
}

typedef struct textbuf {
    char s[1024];
    size_t n;
    bool overflow;
} textbuf;

static void put(textbuf *b, const char *text)
{
    size_t len = strlen(text);
    if (b->n + len >= sizeof b->s) {
        b->overflow = true;
        return;
    }
    memcpy(b->s + b->n, text, len + 1);
    b->n += len;
}

/* A signature written as an expression (float64(float64[:], int32)) back
 * to Numba's signature text, dtypes by their canonical names. */
static int render(scan *S, const uf__expr *e, textbuf *b)
{
    char tmp[64];
    uf_dtype dt;
    switch (e->kind) {
    case UF__EX_NAME: {
        const uf__global *g = uf__kmodule_global(S->km, e->u.name.id);
        if (g != NULL && g->kind == UF__G_DTYPE)
            put(b, g->dtype == UF_NTYPES ? "void" : uf_dtype_name(g->dtype));
        else if (g != NULL && g->kind == UF__G_MODULE &&
                 strcmp(g->module, "numba.types.unicode_type") == 0)
            put(b, "unicode_type"); /* from numba.types import string */
        else
            put(b, e->u.name.id);
        return 0;
    }
    case UF__EX_ATTR: {
        const uf__expr *v = e->u.attr.value;
        const char *a = e->u.attr.attr;
        char q[96];
        if (uf__kscan_qualify(S, v, q, sizeof q)) {
            if (uf__const_dtype_name(q, a, &dt)) {
                put(b, uf_dtype_name(dt));
                return 0;
            }
            if ((strcmp(q, "numba") == 0 || strcmp(q, "numba.types") == 0) &&
                (strcmp(a, "void") == 0 || strcmp(a, "UniTuple") == 0 ||
                 strcmp(a, "Tuple") == 0 || strcmp(a, "none") == 0)) {
                put(b, a);
                return 0;
            }
            if ((strcmp(q, "numba") == 0 || strcmp(q, "numba.types") == 0) &&
                (strcmp(a, "unicode_type") == 0 || strcmp(a, "string") == 0)) {
                put(b, "unicode_type");
                return 0;
            }
        }
        return unsupported(S, e->pos, "'%s' cannot be used in a signature",
                           a);
    }
    case UF__EX_CALL:
        if (e->u.call.nkw > 0)
            return unsupported(S, e->pos, "%s", "keyword arguments in a "
                               "signature");
        if (render(S, e->u.call.func, b) < 0)
            return S->err->code;
        put(b, "(");
        for (int i = 0; i < e->u.call.nargs; i++) {
            if (i > 0)
                put(b, ", ");
            if (render(S, e->u.call.args[i], b) < 0)
                return S->err->code;
        }
        put(b, ")");
        return 0;
    case UF__EX_SUBSCRIPT:
        if (render(S, e->u.subscript.value, b) < 0)
            return S->err->code;
        put(b, "[");
        for (int i = 0; i < e->u.subscript.nindex; i++) {
            if (i > 0)
                put(b, ", ");
            if (render(S, e->u.subscript.index[i], b) < 0)
                return S->err->code;
        }
        put(b, "]");
        return 0;
    case UF__EX_SLICE:
        if (e->u.slice.lower && render(S, e->u.slice.lower, b) < 0)
            return S->err->code;
        put(b, ":");
        if (e->u.slice.upper && render(S, e->u.slice.upper, b) < 0)
            return S->err->code;
        if (e->u.slice.step) {
            put(b, ":");
            if (render(S, e->u.slice.step, b) < 0)
                return S->err->code;
        }
        return 0;
    case UF__EX_INT:
        snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)e->u.i.value);
        put(b, tmp);
        return 0;
    case UF__EX_TUPLE:
        put(b, "(");
        for (int i = 0; i < e->u.seq.n; i++) {
            if (i > 0)
                put(b, ", ");
            if (render(S, e->u.seq.elts[i], b) < 0)
                return S->err->code;
        }
        put(b, ")");
        return 0;
    default:
        return unsupported(S, e->pos, "%s", "this expression cannot be used "
                           "in a signature");
    }
}

/* Adds one signature (a string, or an expression rendered to one). */
static int add_signature(scan *S, uf__kernel_decl *d, const uf__expr *e,
                         int *cap)
{
    uf__kmodule *km = S->km;
    const char *text;
    if (e->kind == UF__EX_STR) {
        text = uf__arena_strndup(km->arena, e->u.str.s, e->u.str.len, S->err);
    } else {
        textbuf b = {.n = 0, .overflow = false};
        b.s[0] = '\0';
        if (render(S, e, &b) < 0)
            return S->err->code;
        if (b.overflow)
            return unsupported(S, e->pos, "%s", "signature too long");
        text = uf__arena_strndup(km->arena, b.s, b.n, S->err);
    }
    if (text == NULL)
        return S->err->code;
    int capp = *cap;
    if (!grow(S, (void **)&d->signatures, cap, d->nsignatures,
              sizeof *d->signatures) ||
        !grow(S, (void **)&d->signature_pos, &capp, d->nsignatures,
              sizeof *d->signature_pos))
        return S->err->code;
    d->signatures[d->nsignatures] = text;
    d->signature_pos[d->nsignatures] = e->pos;
    d->nsignatures++;
    return 0;
}

/* The first positional argument of vectorize/njit/...: a list of
 * signatures, one signature string, or one signature expression. */
int uf__kscan_signatures(scan *S, uf__kernel_decl *d, const uf__expr *e)
{
    int cap = 0;
    /* a module-level list: its strings are where errors point */
    const uf__siglist *l;
    if (e->kind == UF__EX_NAME && (l = uf__kscan_siglist(S, e->u.name.id)) &&
        uf__kmodule_global(S->km, e->u.name.id) == NULL)
        e = l->list;
    if (e->kind == UF__EX_LIST || e->kind == UF__EX_TUPLE) {
        if (e->kind == UF__EX_TUPLE && e->parenthesized && e->u.seq.n > 0 &&
            e->u.seq.elts[0]->kind != UF__EX_STR &&
            e->u.seq.elts[0]->kind != UF__EX_CALL)
            /* (int64[:], int64[:]): one signature without a return type */
            return add_signature(S, d, e, &cap);
        for (int i = 0; i < e->u.seq.n; i++)
            if (add_signature(S, d, e->u.seq.elts[i], &cap) < 0)
                return S->err->code;
        if (e->u.seq.n == 0)
            return unsupported(S, e->pos, "%s", "empty signature list: give "
                               "at least one signature or none at all");
        return 0;
    }
    return add_signature(S, d, e, &cap);
}
