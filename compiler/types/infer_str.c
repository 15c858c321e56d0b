/* Strings known at compile time (Numba's Literal[str]): a string literal,
 * a module-level str constant, a local holding one, or an argument of a
 * callee specialised per value (Numba's literal dispatch). Such a string
 * has no run-time value: every operation kernels take on it folds here
 * to a constant (lowered by compiler/lower/lower_str.c), and branches on
 * those constants are pruned (infer_prune.c) as Numba prunes literal
 * comparisons. Operations Numba would do at run time on its unicode_type
 * (concatenation, indexing, a string chosen at run time) are refused. */
#include <string.h>

#include "compiler/types/infer_internal.h"

int uf__infer_strlit(uf__ictx *C, const uf__expr *x, const char **out)
{
    if (x->kind == UF__EX_STR) {
        *out = x->u.str.s;
        return 1;
    }
    const uf__type *t = uf__infer_expr(C, x);
    if (t == NULL)
        return -1;
    if (t == UF__UNKNOWN || t->kind != UF__T_STR)
        return 0;
    *out = t->name;
    return 1;
}

const char *uf__str_join_hint(const uf__type *a, const uf__type *b)
{
    if (a == NULL || b == NULL || a->kind != UF__T_STR ||
        b->kind != UF__T_STR)
        return "";
    return " (Numba makes them unicode_type, a string known only at run "
           "time: kernels take strings known at compile time only)";
}

/* A folded constant of `dtype` on `e`, lowered as that constant. */
static const uf__type *fold(uf__ictx *C, const uf__expr *e,
                            uf__expr_info *in, uf_dtype dtype, int64_t v)
{
    uf__constant *k = uf__arena_alloc(C->km->arena, 1, sizeof *k, C->err);
    if (k == NULL)
        return NULL;
    k->type = uf__type_scalar(C->tc, dtype);
    if (dtype == UF_BOOL)
        k->v.b = v != 0;
    else
        k->v.i = v;
    in->constant = k;
    in->builtin = UF__BI_STR_FOLD;
    return uf__iset(C, e, k->type);
}

/* Python's order of two strings: by code point, which is the order of
 * their UTF-8 bytes. */
static int str_order(const uf__type *a, const uf__type *b)
{
    size_t n = (size_t)(a->n < b->n ? a->n : b->n);
    int c = n > 0 ? memcmp(a->name, b->name, n) : 0;
    if (c != 0)
        return c < 0 ? -1 : 1;
    return a->n == b->n ? 0 : a->n < b->n ? -1 : 1;
}

/* `s in t` for t a tuple of strings (Numba's tuple contains compares
 * each element with ==). -1 when t holds something else. */
static int str_in_tuple(const uf__type *s, const uf__type *t)
{
    if (t->kind != UF__T_TUPLE)
        return -1;
    int found = 0;
    for (int i = 0; i < t->n; i++) {
        if (t->elts[i]->kind != UF__T_STR)
            return -1;
        if (t->elts[i] == s)
            found = 1;
    }
    return found;
}

const uf__type *uf__infer_str_compare(uf__ictx *C, const uf__expr *e,
                                      uf__expr_info *in, int op,
                                      const uf__type *a, const uf__type *b)
{
    if (e->u.compare.nops != 1)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "a string in "
                          "a chain of comparisons is not supported in "
                          "kernels");
    int r = -1;
    if (op == UF__CMP_IN || op == UF__CMP_NOTIN) {
        if (a->kind == UF__T_STR && (r = str_in_tuple(a, b)) >= 0)
            return fold(C, e, in, UF_BOOL, op == UF__CMP_IN ? r : !r);
        if (a->kind == UF__T_STR && b->kind == UF__T_STR)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s",
                              "substring tests ('in' between two strings) "
                              "are not supported in kernels");
    } else if (a->kind == UF__T_STR && b->kind == UF__T_STR &&
               op != UF__CMP_IS && op != UF__CMP_ISNOT) {
        int c = str_order(a, b);
        switch ((uf__cmpop)op) {
        case UF__CMP_EQ: r = c == 0; break;
        case UF__CMP_NE: r = c != 0; break;
        case UF__CMP_LT: r = c < 0; break;
        case UF__CMP_LE: r = c <= 0; break;
        case UF__CMP_GT: r = c > 0; break;
        default: r = c >= 0; break;
        }
        return fold(C, e, in, UF_BOOL, r);
    }
    return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                      "function '%s' found for signature (%s, %s): strings "
                      "compare with strings known at compile time, 'in' "
                      "takes a tuple of them",
                      uf__cmpop_str((uf__cmpop)op), uf__tname(a),
                      uf__tname(b));
}

const uf__type *uf__infer_str_len(uf__ictx *C, const uf__expr *e,
                                  uf__expr_info *in, const uf__type *s)
{
    int64_t n = 0; /* code points: the bytes that start one */
    for (int i = 0; i < s->n; i++)
        n += ((unsigned char)s->name[i] & 0xC0) != 0x80;
    return fold(C, e, in, UF_INT64, n);
}

const uf__type *uf__infer_str_not(uf__ictx *C, const uf__expr *e,
                                  uf__expr_info *in, const uf__type *s)
{
    return fold(C, e, in, UF_BOOL, s->n == 0);
}
