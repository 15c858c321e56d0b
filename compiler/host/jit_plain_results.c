/* The results of a plain njit function as uf_call hands them out: one
 * output per number or array, a tuple's elements in order and a nested
 * tuple's flattened depth first, so `return (a, (b, c))` fills outputs
 * 0, 1 and 2 (the C API's outputs are one flat list). */
#include <stdio.h>

#include "compiler/host/jit_plain.h"

static int flatten(const uf__type *t, const uf__type **leaves, int n, int max)
{
    if (t->kind == UF__T_SCALAR || t->kind == UF__T_ARRAY ||
        t->kind == UF__T_USTR || t->kind == UF__T_STR) { /* a string: its
                                              code points (jit_plain.c) */
        if (n >= max)
            return -1;
        leaves[n] = t;
        return n + 1;
    }
    if (t->kind != UF__T_TUPLE)
        return -1;
    for (int k = 0; k < t->n && n >= 0; k++)
        n = flatten(t->elts[k], leaves, n, max);
    return n;
}

int uf__plain_results(const uf__type *ret, const uf__type **leaves, int max)
{
    if (ret->kind == UF__T_NONE)
        return 0;
    return flatten(ret, leaves, 0, max);
}

static size_t tree(const uf__type *t, int *leaf, char *buf, size_t at,
                   size_t cap)
{
#define PUT(...)                                                            \
    at += (size_t)snprintf(buf + (at < cap ? at : cap),                     \
                           at < cap ? cap - at : 0, __VA_ARGS__)
    if (t->kind == UF__T_USTR || t->kind == UF__T_STR) {
        PUT("str(%d)", (*leaf)++); /* a string: uf_call's uint32 array */
        return at;
    }
    if (t->kind != UF__T_TUPLE) {
        PUT("%d", (*leaf)++);
        return at;
    }
    PUT("(");
    for (int k = 0; k < t->n; k++) {
        if (k)
            PUT(", ");
        at = tree(t->elts[k], leaf, buf, at, cap);
    }
    PUT(t->n == 1 ? ",)" : ")");
    return at;
#undef PUT
}

int uf__plain_result_tree(const uf__type *ret, char *buf, size_t cap)
{
    const uf__type *leaves[UF__TUPLE_MAX];
    if (uf__plain_results(ret, leaves, UF__TUPLE_MAX) < 0 || cap == 0)
        return -1;
    if (ret->kind == UF__T_NONE)
        return snprintf(buf, cap, "None") < (int)cap ? 4 : -1;
    int leaf = 0;
    size_t n = tree(ret, &leaf, buf, 0, cap);
    return n < cap ? (int)n : -1;
}
