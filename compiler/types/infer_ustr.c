/* Run-time strings (Numba's unicode_type, common/ustr.h): what Numba does
 * at run time on strings. Two different literals joined by control flow
 * unify to unicode_type (unify.c), and every operation below takes a
 * literal (infer_str.c's Literal[str]) as the run-time string it names,
 * as Numba's unicode overloads take Literal[str] and give unicode_type:
 * +, * by an integer, comparisons, `in` between strings, s[i], s[a:b:c],
 * len, not, str() of integers, bools and strings, ord, chr, and `for c in
 * s`. Comparisons of two literals and len of one still fold (infer_str.c).
 * Each typed operation records its UF__USTR_MAP entry for lower_ustr.c.
 * Refused in CUDA kernels and device functions (no allocator there). */
#include <string.h>

#include "compiler/types/infer_internal.h"

bool uf__is_string(const uf__type *t)
{
    return t != NULL && t != UF__UNKNOWN &&
           (t->kind == UF__T_STR || t->kind == UF__T_USTR);
}

bool uf__tuple_has_ustr(const uf__type *t)
{
    for (int k = 0; k < t->n; k++)
        if (t->elts[k]->kind == UF__T_USTR)
            return true;
    return false;
}

/* The refusal on a CUDA target, else 0. */
static int cuda_refused(uf__ictx *C, const uf__expr *e)
{
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "strings made "
                        "at run time are not supported in CUDA kernels and "
                        "device functions");
    return 0;
}

static const uf__type *ustr(uf__ictx *C, const uf__expr *e,
                            uf__expr_info *in, uf__builtin b)
{
    if (cuda_refused(C, e) < 0)
        return NULL;
    in->builtin = b;
    return uf__iset(C, e, uf__type_ustr(C->tc));
}

static const uf__type *boolean(uf__ictx *C, const uf__expr *e,
                               uf__expr_info *in, uf__builtin b)
{
    if (cuda_refused(C, e) < 0)
        return NULL;
    in->builtin = b;
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
}

const uf__type *uf__infer_ustr_binop(uf__ictx *C, const uf__expr *e,
                                     uf__expr_info *in, const uf__type *a,
                                     const uf__type *b)
{
    uf__binop op = e->u.binary.op;
    if (op == UF__OP_ADD && uf__is_string(a) && uf__is_string(b))
        return ustr(C, e, in, UF__BI_USTR_CONCAT);
    if (op == UF__OP_MUL &&
        ((uf__is_string(a) && uf__type_is_int(b)) ||
         (uf__is_string(b) && uf__type_is_int(a))))
        return ustr(C, e, in, UF__BI_USTR_REPEAT);
    return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "unsupported operand types "
                      "for %s%s: %s and %s (strings take + with a string "
                      "and * with an integer)", uf__binop_str(op),
                      e->u.binary.inplace ? "=" : "", uf__tname(a),
                      uf__tname(b));
}

const uf__type *uf__infer_ustr_compare(uf__ictx *C, const uf__expr *e,
                                       uf__expr_info *in, int op,
                                       const uf__type *a, const uf__type *b)
{
    if (e->u.compare.nops != 1)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "a string in "
                          "a chain of comparisons is not supported in "
                          "kernels");
    bool strings = b->kind == UF__T_TUPLE && b->n > 0; /* s in ('a', t) */
    for (int k = 0; strings && k < b->n; k++)
        strings = uf__is_string(b->elts[k]);
    if (uf__is_string(a) && strings &&
        (op == UF__CMP_IN || op == UF__CMP_NOTIN))
        return boolean(C, e, in, UF__BI_USTR_IN); /* == on each, as Numba */
    if (uf__is_string(a) && uf__is_string(b) && op != UF__CMP_IS &&
        op != UF__CMP_ISNOT)
        return boolean(C, e, in, op == UF__CMP_IN || op == UF__CMP_NOTIN
                                     ? UF__BI_USTR_IN
                                     : UF__BI_USTR_CMP);
    return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                      "function '%s' found for signature (%s, %s)",
                      uf__cmpop_str((uf__cmpop)op), uf__tname(a),
                      uf__tname(b));
}

/* An integer index or slice bound (None allowed for a bound). */
static int int_operand(uf__ictx *C, const uf__expr *x, bool none_ok)
{
    if (x == NULL || (none_ok && x->kind == UF__EX_NONE))
        return 0;
    const uf__type *t = uf__infer_expr(C, x);
    if (t == NULL || t == UF__UNKNOWN)
        return t == NULL ? -1 : 1;
    if (uf__type_is_int(t) ||
        (t->kind == UF__T_SCALAR && t->dtype == UF_BOOL))
        return 0;
    return uf__ierr(C, UF_ERR_TYPING, x->pos, "No implementation of "
                    "function 'getitem' found for signature (unicode_type, "
                    "%s): a string takes an integer index or a slice",
                    uf__tname(t));
}

const uf__type *uf__infer_ustr_index(uf__ictx *C, const uf__expr *e,
                                     const uf__type *st)
{
    (void)st;
    uf__expr_info *in = uf__iinfo(C, e);
    if (e->u.subscript.nindex != 1)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s", "a string takes "
                          "one index");
    const uf__expr *x = e->u.subscript.index[0];
    int rc;
    if (x->kind == UF__EX_SLICE) {
        if ((rc = int_operand(C, x->u.slice.lower, true)) != 0 ||
            (rc = int_operand(C, x->u.slice.upper, true)) != 0 ||
            (rc = int_operand(C, x->u.slice.step, true)) != 0)
            return rc < 0 ? NULL : UF__UNKNOWN;
        return ustr(C, e, in, UF__BI_USTR_SLICE);
    }
    if ((rc = int_operand(C, x, false)) != 0)
        return rc < 0 ? NULL : UF__UNKNOWN;
    return ustr(C, e, in, UF__BI_USTR_INDEX);
}

const uf__type *uf__infer_ustr_not(uf__ictx *C, const uf__expr *e,
                                   uf__expr_info *in)
{
    return boolean(C, e, in, UF__BI_USTR_NOT);
}

const uf__type *uf__infer_ustr_attr(uf__ictx *C, const uf__expr *e,
                                    const uf__type *base, uf__expr_info *in)
{
    const char *a = e->u.attr.attr;
    uf__builtin b = UF__BI_NONE;
#define X(id, name)                                                         \
    if (strncmp(name, "str.", 4) == 0 && strcmp(a, &name[4]) == 0)          \
        b = UF__BI_##id;
    UF__USTR_MAP(X)
#undef X
    if (b == UF__BI_NONE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.attr.attr_pos,
                          "unknown attribute '%s' of %s (not supported in "
                          "kernels%s)", a, uf__tname(base),
                          strcmp(a, "format") == 0 ? "; Numba refuses "
                          "str.format too" : "");
    in->builtin = b;
    const uf__type *f = uf__type_function(C->tc, uf__builtin_name(b), C->err);
    return f ? uf__iset(C, e, f) : NULL;
}

/* The arguments each method takes: its integer and string slots. */
typedef struct meth_shape {
    int min, max;      /* arguments */
    const char *kinds; /* per argument: 's' string, 'S' string or None,
                          'i' integer */
    char ret;          /* 's' string, 'b' bool, 'i' int64, 'u' uint32 */
} meth_shape;

static meth_shape shape_of(uf__builtin b)
{
    switch (b) {
    case UF__BI_USTR_STRIP: case UF__BI_USTR_LSTRIP: case UF__BI_USTR_RSTRIP:
        return (meth_shape){0, 1, "S", 's'};
    case UF__BI_USTR_STARTSWITH: case UF__BI_USTR_ENDSWITH:
        return (meth_shape){1, 3, "sii", 'b'};
    case UF__BI_USTR_FIND: case UF__BI_USTR_RFIND: case UF__BI_USTR_SINDEX:
    case UF__BI_USTR_RINDEX: case UF__BI_USTR_COUNT:
        return (meth_shape){1, 3, "sii", 'i'};
    case UF__BI_USTR_REPLACE:
        return (meth_shape){2, 3, "ssi", 's'};
    case UF__BI_USTR_ISDIGIT: case UF__BI_USTR_ISALPHA:
    case UF__BI_USTR_ISALNUM: case UF__BI_USTR_ISDECIMAL:
        return (meth_shape){0, 0, "", 'i'}; /* Numba's int64 0/1 */
    case UF__BI_USTR_ISASCII:
        return (meth_shape){0, 0, "", 'u'}; /* Numba's uint32 0/1 */
    case UF__BI_USTR_ISSPACE: case UF__BI_USTR_ISUPPER:
    case UF__BI_USTR_ISLOWER: case UF__BI_USTR_ISNUMERIC:
    case UF__BI_USTR_ISPRINTABLE: case UF__BI_USTR_ISIDENTIFIER:
    case UF__BI_USTR_ISTITLE:
        return (meth_shape){0, 0, "", 'b'};
    case UF__BI_USTR_EXPANDTABS:
        return (meth_shape){0, 1, "i", 's'};
    case UF__BI_USTR_ZFILL:
        return (meth_shape){1, 1, "i", 's'};
    case UF__BI_USTR_CENTER: case UF__BI_USTR_LJUST: case UF__BI_USTR_RJUST:
        return (meth_shape){1, 2, "is", 's'};
    default: /* upper, lower, title, capitalize, swapcase, casefold */
        return (meth_shape){0, 0, "", 's'};
    }
}

static const uf__type *type_meth(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b, const uf__type *const *a,
                                 int n)
{
    uf__expr_info *in = uf__iinfo(C, e);
    const char *name = uf__builtin_name(b) + 4;
    const uf__type *recv = uf__infer_expr(C, e->u.call.func->u.attr.value);
    if (recv == NULL || recv == UF__UNKNOWN)
        return recv;
    meth_shape m = shape_of(b);
    if (n < m.min || n > m.max)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "str.%s() takes %d to "
                          "%d arguments (%d given)", name, m.min, m.max, n);
    for (int k = 0; k < n; k++) {
        bool ok = m.kinds[k] == 'i'
                      ? uf__type_is_int(a[k])
                      : uf__is_string(a[k]) ||
                            (m.kinds[k] == 'S' && a[k]->kind == UF__T_NONE);
        if (!ok)
            return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[k]->pos,
                              "No implementation of function 'str.%s' found "
                              "for argument %d of type %s (it takes %s)",
                              name, k + 1, uf__tname(a[k]),
                              m.kinds[k] == 'i' ? "an integer" : "a string");
    }
    if (m.ret == 's')
        return ustr(C, e, in, b);
    if (m.ret == 'b')
        return boolean(C, e, in, b);
    if (cuda_refused(C, e) < 0)
        return NULL;
    in->builtin = b;
    return uf__iset(C, e, uf__type_scalar(C->tc, m.ret == 'u' ? UF_UINT32
                                                              : UF_INT64));
}

/* s.partition(sep) / s.rpartition(sep): Numba's UniTuple(unicode_type x
 * 3); s.splitlines([keepends]): list(unicode_type). */
static const uf__type *type_parts(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b, const uf__type *const *a,
                                  int n)
{
    uf__expr_info *in = uf__iinfo(C, e);
    const uf__type *ustr_t = uf__type_ustr(C->tc);
    const char *name = uf__builtin_name(b);
    bool lines = b == UF__BI_USTR_SPLITLINES;
    bool ok = lines ? n <= 1 && (n == 0 || uf__type_is_int(a[0]) ||
                                 (a[0]->kind == UF__T_SCALAR &&
                                  a[0]->dtype == UF_BOOL))
                    : n == 1 && uf__is_string(a[0]);
    if (!ok)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "function '%s' for these arguments: it takes %s",
                          name, lines ? "keepends (a bool or an integer)"
                                      : "sep (a string)");
    if (cuda_refused(C, e) < 0)
        return NULL;
    in->builtin = b;
    const uf__type *three[3] = {ustr_t, ustr_t, ustr_t};
    const uf__type *r = lines ? uf__type_list(C->tc, ustr_t, C->err)
                              : uf__type_tuple(C->tc, 3, three, C->err);
    return r ? uf__iset(C, e, r) : NULL;
}

/* sep.join(l) of a list of strings; s.split([sep[, maxsplit]]) and
 * s.rsplit(...) giving Numba's list(unicode_type). */
static const uf__type *type_join_split(uf__ictx *C, const uf__expr *e,
                                       uf__builtin b,
                                       const uf__type *const *a, int n)
{
    uf__expr_info *in = uf__iinfo(C, e);
    const uf__type *ustr_t = uf__type_ustr(C->tc);
    if (b == UF__BI_USTR_JOIN) {
        if (n != 1 || a[0]->kind != UF__T_LIST || a[0]->n != 1 ||
            a[0]->elts[0] != ustr_t)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation "
                              "of function 'str.join' found for signature "
                              "(%s): it takes a list of strings",
                              n > 0 ? uf__tname(a[0]) : "");
        return ustr(C, e, in, b);
    }
    if (n > 2 || (n > 0 && !uf__is_string(a[0]) &&
                  a[0]->kind != UF__T_NONE) ||
        (n > 1 && !uf__type_is_int(a[1])))
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation "
                          "of function '%s' for these arguments: it takes "
                          "sep (a string or None) and maxsplit (an "
                          "integer)", uf__builtin_name(b));
    if (cuda_refused(C, e) < 0)
        return NULL;
    in->builtin = b;
    const uf__type *r = uf__type_list(C->tc, ustr_t, C->err);
    return r ? uf__iset(C, e, r) : NULL;
}

const uf__type *uf__infer_ustr_call(uf__ictx *C, const uf__expr *e,
                                    uf__builtin b, const uf__type *const *a,
                                    int n)
{
    if (b == UF__BI_USTR_JOIN || b == UF__BI_USTR_SPLIT ||
        b == UF__BI_USTR_RSPLIT)
        return type_join_split(C, e, b, a, n);
    if (b == UF__BI_USTR_SPLITLINES || b == UF__BI_USTR_PARTITION ||
        b == UF__BI_USTR_RPARTITION)
        return type_parts(C, e, b, a, n);
    if (uf__builtin_is_ustr_meth(b)) /* s.upper() ... */
        return type_meth(C, e, b, a, n);
    uf__expr_info *in = uf__iinfo(C, e);
    const char *name = b == UF__BI_USTR_STR ? "str"
                       : b == UF__BI_USTR_ORD ? "ord" : "chr";
    if (n != 1)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes exactly one "
                          "argument (%d given)", name, n);
    const uf__type *t = a[0];
    bool integer = uf__type_is_int(t);
    bool boolv = t->kind == UF__T_SCALAR && t->dtype == UF_BOOL;
    if (b == UF__BI_USTR_STR && (integer || boolv || uf__is_string(t)))
        return ustr(C, e, in, b);
    if (b == UF__BI_USTR_STR && t->kind == UF__T_SCALAR)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "str() of %s: "
                          "Numba 0.68 gives the constant '<object type:%s>' "
                          "rather than the number's digits; kernels refuse "
                          "it (str() takes integers, bools and strings)",
                          uf__tname(t), uf__tname(t));
    if (b == UF__BI_USTR_ORD && uf__is_string(t)) {
        if (cuda_refused(C, e) < 0)
            return NULL;
        in->builtin = b;
        return uf__iset(C, e, uf__type_scalar(C->tc, UF_INT64));
    }
    if (b == UF__BI_USTR_CHR && (integer || boolv))
        return ustr(C, e, in, b);
    return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                      "function '%s' found for signature (%s)", name,
                      uf__tname(t));
}

const uf__type *uf__infer_ustr_augassign(uf__ictx *C, const uf__stmt *s,
                                         const uf__type *a,
                                         const uf__type *b)
{
    uf__binop op = s->u.augassign.op;
    if ((op == UF__OP_ADD && uf__is_string(b)) ||
        (op == UF__OP_MUL && uf__type_is_int(b))) {
        if (cuda_refused(C, s->u.augassign.target) < 0)
            return NULL;
        return uf__type_ustr(C->tc);
    }
    uf__ierr(C, UF_ERR_TYPING, s->pos, "unsupported operand types for %s=: "
             "%s and %s (strings take + with a string and * with an "
             "integer)", uf__binop_str(op), uf__tname(a), uf__tname(b));
    return NULL;
}

/* At the fixed point: a variable of a CUDA kernel or device function that
 * holds a run-time string (two literals joined) is refused where it got
 * that type, as Numba's CUDA target has no unicode_type. 0 or -1. */
int uf__infer_ustr_check(uf__ictx *C)
{
    uf__kernel_kind k = C->tf->decl->kind;
    if (k != UF__K_CUDA_KERNEL && k != UF__K_DEVICE)
        return 0;
    for (int i = 0; i < C->tf->nvars; i++)
        if (C->tf->vars[i].type != NULL &&
            C->tf->vars[i].type->kind == UF__T_USTR)
            return uf__ierr(C, UF_ERR_UNSUPPORTED, C->def_pos[i], "'%.*s' "
                            "holds a string known only at run time "
                            "(unicode_type): strings made at run time are "
                            "not supported in CUDA kernels and device "
                            "functions", (int)strcspn(C->tf->vars[i].name,
                                                      "."),
                            C->tf->vars[i].name);
    return 0;
}
