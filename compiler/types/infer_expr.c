/* Typing of expressions: literals, names (locals, module globals, Python
 * builtins), attributes, indexing, operators, tuples. Calls are in
 * infer_call.c. Operator typing is Numba's (compiler/types/unify.c); this file
 * decides what each name and attribute stands for. */
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/front/consteval.h"
#include "compiler/types/infer_arrattr.h"
#include "compiler/types/infer_arrexpr.h"
#include "compiler/types/infer_internal.h"

/* Reads an operand; returns from the caller on error or unknown. */
#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

static const char *const python_builtins[] = {
    "abs", "min", "max", "round", "int", "float", "bool", "complex", "len",
    "range", "pow", "divmod", "sum", "print", "isinstance", "list", "sorted",
    "dict", "set", "str", "ord", "chr", /* infer_set.c, infer_ustr.c */
};

/* Python builtins the kernel language does not have, for a clearer
 * message than "not defined". */
static const char *const refused_builtins[] = {
    "tuple", "enumerate",
    "zip", "map", "filter", "reversed", "any", "all", "iter",
    "next", "type", "hash", "open", "input", "object",
    "slice", "super", "getattr", "setattr", "hasattr", "id", "repr", "hex",
    "oct", "bin", "format", "vars", "globals", "locals",
    "exec", "eval", "prange",
};

static const uf__type *function_type(uf__ictx *C, const char *name)
{
    const uf__type *t = uf__type_function(C->tc, name, C->err);
    return t;
}

/* A name of the module or a Python builtin. */
static const uf__type *global_name(uf__ictx *C, const uf__expr *e,
                                   uf__expr_info *in)
{
    const char *id = e->u.name.id;
    const uf__global *g = uf__kmodule_global(C->km, id);
    if (g == NULL) {
        for (size_t i = 0;
             i < sizeof python_builtins / sizeof *python_builtins; i++)
            if (strcmp(python_builtins[i], id) == 0) {
                in->builtin = uf__builtin_lookup(id);
                return uf__iset(C, e, function_type(C, id));
            }
        for (size_t i = 0;
             i < sizeof refused_builtins / sizeof *refused_builtins; i++)
            if (strcmp(refused_builtins[i], id) == 0)
                return strcmp(id, "hash") == 0
                    ? uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "'hash' "
                                 "is not supported in kernels (Numba's "
                                 "hash() of a str is Python's, salted per "
                                 "process by PYTHONHASHSEED, which ufjit "
                                 "does not reproduce)")
                    : strcmp(id, "prange") == 0
                    ? uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "name "
                                 "'prange' is not defined (import it: from "
                                 "numba import prange)")
                    : uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "'%s' is "
                                 "not supported in kernels", id);
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "name '%s' is not "
                          "defined (kernels can use arguments, local "
                          "variables, module constants, imported modules "
                          "and functions of the file)", id);
    }
    switch (g->kind) {
    case UF__G_CONSTANT:
        if (g->constant.type->kind == UF__T_STR) /* MODE = 'fast' */
            return uf__iset(C, e, g->constant.type);
        in->constant = &g->constant;
        return uf__iset(C, e, g->constant.type);
    case UF__G_MODULE: {
        const uf__type *t = uf__type_module(C->tc, g->module, C->err);
        return uf__iset(C, e, t);
    }
    case UF__G_BUILTIN:
        in->builtin = g->builtin;
        return uf__iset(C, e, function_type(C, uf__builtin_name(g->builtin)));
    case UF__G_DTYPE:
        if (g->dtype == UF_NTYPES)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "'%s' (void) "
                              "can only be used in signatures", id);
        return uf__iset(C, e, uf__type_dtype(C->tc, g->dtype));
    case UF__G_KERNEL:
    case UF__G_EXTERN:
        return uf__iset(C, e, function_type(C, id));
    case UF__G_ARRAY: /* Numba: a global array is a readonly constant */
        in->garray = g->array;
        return uf__iset(C, e, uf__type_array_ro(C->tc, g->array->dtype,
                                                g->array->ndim, 'C', true,
                                                C->err));
    case UF__G_TUPLE: { /* Numba freezes a global tuple as a constant */
        const uf__type *el[UF__TUPLE_MAX];
        if (g->n > UF__TUPLE_MAX)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "the module "
                              "tuple '%s' has more than %d elements, the "
                              "most kernels take", id, UF__TUPLE_MAX);
        for (int i = 0; i < g->n; i++)
            el[i] = g->elts[i].type;
        in->gtuple = g;
        return uf__iset(C, e, uf__type_tuple(C->tc, g->n, el, C->err));
    }
    case UF__G_DECORATOR:
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "the decorator "
                          "'%s' cannot be used inside a kernel", id);
    case UF__G_TYPE:
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "the type '%s' can "
                          "only be the item, key or value type of "
                          "List.empty_list / Dict.empty in kernels", id);
    }
    return uf__ierr_t(C, UF_ERR_INTERNAL, e->pos, "bad global '%s'", id);
}

static const uf__type *name_expr(uf__ictx *C, const uf__expr *e,
                                 uf__expr_info *in)
{
    const uf__typed_func *tf = C->tf;
    int i = uf__typed_var(tf, e->u.name.id);
    if (i >= 0) {
        in->var = i;
        if (tf->vars[i].type == NULL) {
            if (!C->incomplete) {
                C->first_unknown = e->pos;
                C->unknown_name = tf->vars[i].name;
            }
            C->incomplete = true;
            return UF__UNKNOWN;
        }
        return uf__iset(C, e, tf->vars[i].type);
    }
    return global_name(C, e, in);
}

/* module.attr: a submodule, dtype, constant or function of the module. */
static const uf__type *module_attr(uf__ictx *C, const uf__expr *e,
                                   const uf__type *mod, uf__expr_info *in)
{
    const char *m = mod->name, *a = e->u.attr.attr;
    uf_dtype dt;
    uf__constant c;
    bool cuda;
    const uf__type *ct = uf__infer_cuda_attr(C, e, m, in, &cuda);
    if (cuda)
        return ct;
    if (strcmp(m, "numba") == 0 &&
        (strcmp(a, "cuda") == 0 || strcmp(a, "types") == 0))
        return uf__iset(C, e, uf__type_module(C->tc, a[0] == 'c' ? "numba.cuda"
                                                      : "numba.types",
                                              C->err));
    if (strcmp(m, "numpy") == 0 && strcmp(a, "random") == 0) /* np.random */
        return uf__iset(C, e, uf__type_module(C->tc, "numpy.random", C->err));
    if (strcmp(m, "numpy") == 0 && strcmp(a, "linalg") == 0) /* np.linalg */
        return uf__iset(C, e, uf__type_module(C->tc, "numpy.linalg",
                                              C->err));
    if (strcmp(m, "numpy") == 0 && strcmp(a, "polynomial") == 0)
        return uf__iset(C, e, uf__type_module(C->tc, "numpy.polynomial",
                                              C->err));
    if (strcmp(m, "numpy.polynomial") == 0 &&
        (strcmp(a, "polynomial") == 0 || strcmp(a, "polyutils") == 0))
        return uf__iset(C, e, uf__type_module(
                                  C->tc, a[4] == 'n' ? "numpy.polynomial."
                                                       "polynomial"
                                                     : "numpy.polynomial."
                                                       "polyutils",
                                  C->err));
    if (strncmp(m, "numpy.polynomial", 16) == 0 && a[0] >= 'A' &&
        a[0] <= 'Z')
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.attr.attr_pos,
                          "%s.%s: NumPy's polynomial classes are not "
                          "supported in kernels (the functions of "
                          "numpy.polynomial.polynomial are)", m, a);
    if (uf__const_dtype_name(m, a, &dt))
        return uf__iset(C, e, uf__type_dtype(C->tc, dt));
    if (uf__const_module_attr(C->tc, m, a, &c)) {
        uf__constant *p = in->constant ? (uf__constant *)in->constant
                                       : uf__arena_alloc(C->km->arena, 1,
                                                         sizeof *p, C->err);
        if (p == NULL)
            return NULL;
        *p = c;
        in->constant = p;
        return uf__iset(C, e, c.type);
    }
    char q[128];
    snprintf(q, sizeof q, "%s.%s", m, a);
    uf__builtin b = uf__builtin_lookup(q);
    if (b == UF__BI_NONE && strcmp(q, "numpy.conjugate") == 0)
        b = UF__BI_NP_CONJ;
    if (b != UF__BI_NONE) {
        in->builtin = b;
        return uf__iset(C, e, function_type(C, uf__builtin_name(b)));
    }
    return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.attr.attr_pos, "unknown "
                      "attribute '%s' of module '%s' (not supported in "
                      "kernels)", a, m);
}

/* a.flags.c_contiguous, .contiguous (the same) and .f_contiguous, as
 * Numba's ArrayFlags: a bool, from the layout when it decides it, else
 * from the strides at run time (lower_array.c). `a.flags` itself is
 * typed as the array (its value). */
static const uf__type *flags_attr(uf__ictx *C, const uf__expr *e,
                                  uf__expr_info *in)
{
    const uf__expr *fl = e->u.attr.value;
    const uf__type *base;
    OPERAND(base, fl->u.attr.value);
    if (base->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, fl->u.attr.attr_pos,
                          "unknown attribute 'flags' of %s (not supported "
                          "in kernels)", uf__tname(base));
    if (!uf__iset(C, fl, base))
        return NULL;
    in->builtin = e->u.attr.attr[0] == 'f' ? UF__BI_ATTR_F_CONTIGUOUS
                                           : UF__BI_ATTR_C_CONTIGUOUS;
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
}

static bool is_flags_attr(const uf__expr *e)
{
    const uf__expr *v = e->u.attr.value;
    const char *a = e->u.attr.attr;
    return v->kind == UF__EX_ATTR && strcmp(v->u.attr.attr, "flags") == 0 &&
           (!strcmp(a, "c_contiguous") || !strcmp(a, "f_contiguous") ||
            !strcmp(a, "contiguous"));
}

/* a.ctypes.data, as Numba's ArrayCTypes: the address of a's first
 * element as a uintp (uint64), usable in arithmetic. `a.ctypes` itself
 * is typed as the array (its value); nothing else of it is read. */
static const uf__type *ctypes_attr(uf__ictx *C, const uf__expr *e,
                                   uf__expr_info *in)
{
    const uf__expr *ct = e->u.attr.value;
    const uf__type *base;
    OPERAND(base, ct->u.attr.value);
    if (base->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, ct->u.attr.attr_pos,
                          "unknown attribute 'ctypes' of %s (not supported "
                          "in kernels)", uf__tname(base));
    if (!uf__iset(C, ct, base))
        return NULL;
    in->builtin = UF__BI_ATTR_CTYPES_DATA;
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_UINT64));
}

static const uf__type *attr_expr(uf__ictx *C, const uf__expr *e,
                                 uf__expr_info *in)
{
    if (is_flags_attr(e))
        return flags_attr(C, e, in);
    if (e->u.attr.value->kind == UF__EX_ATTR &&
        strcmp(e->u.attr.value->u.attr.attr, "ctypes") == 0 &&
        strcmp(e->u.attr.attr, "data") == 0)
        return ctypes_attr(C, e, in);
    const uf__type *base;
    OPERAND(base, e->u.attr.value);
    const char *a = e->u.attr.attr;
    if (base->kind == UF__T_MODULE)
        return module_attr(C, e, base, in);
    if (base->kind == UF__T_DTYPE) /* d.type: infer_arrattr.c */
        return uf__infer_dtype_attr(C, e, base, in);
    if (base->kind == UF__T_SCALAR && base->dtype != UF_BOOL) {
        if (strcmp(a, "real") == 0 || strcmp(a, "imag") == 0) {
            in->builtin = a[0] == 'r' ? UF__BI_ATTR_REAL : UF__BI_ATTR_IMAG;
            uf_dtype d = base->dtype;
            if (d == UF_COMPLEX64)
                d = UF_FLOAT32;
            else if (d == UF_COMPLEX128)
                d = UF_FLOAT64;
            return uf__iset(C, e, uf__type_scalar(C->tc, d));
        }
        if (strcmp(a, "conjugate") == 0) {
            in->builtin = UF__BI_METH_CONJUGATE;
            return uf__iset(C, e, function_type(C, ".conjugate"));
        }
    }
    if (strcmp(a, "__delitem__") == 0 && base->kind != UF__T_LIST &&
        base->kind != UF__T_DICT) /* `del x[i]`: compiler/front/parser_del.c */
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "'del' of an item of %s "
                          "is not supported (Numba has no delitem for it: "
                          "only list and dict items can be deleted)",
                          uf__tname(base));
    if (base->kind == UF__T_LIST) /* l.append: infer_list.c */
        return uf__infer_list_attr(C, e, base, in);
    if (uf__is_string(base)) /* s.upper: infer_ustr.c */
        return uf__infer_ustr_attr(C, e, base, in);
    if (base->kind == UF__T_SET) /* s.add: infer_set.c */
        return uf__infer_set_attr(C, e, base, in);
    if (base->kind == UF__T_DICT) /* d.get: infer_dict.c */
        return uf__infer_dict_attr(C, e, base, in);
    if (base->kind == UF__T_ARRAY) { /* array_members.c's table */
        bool member;
        const uf__type *r = uf__infer_array_attr(C, e, base, in, &member);
        if (member)
            return r;
        if (strcmp(a, "ctypes") == 0)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.attr.attr_pos,
                              "%s", "a.ctypes is supported as a.ctypes.data "
                              "only");
        if (strcmp(a, "flags") == 0)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.attr.attr_pos,
                              "%s", "a.flags is supported as "
                              "a.flags.c_contiguous, .f_contiguous and "
                              ".contiguous only");
    }
    return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.attr.attr_pos, "unknown "
                      "attribute '%s' of %s (not supported in kernels)", a,
                      uf__tname(base));
}

/* A literal index (3 or -1) for tuples: true and *out when it is one. */
static bool literal_index(const uf__expr *e, int64_t *out)
{
    bool neg = false;
    if (e->kind == UF__EX_UNARY && e->u.unary.op == UF__OP_NEG) {
        neg = true;
        e = e->u.unary.operand;
    }
    if (e->kind != UF__EX_INT || e->u.i.too_big ||
        e->u.i.value > (uint64_t)INT64_MAX)
        return false;
    *out = neg ? -(int64_t)e->u.i.value : (int64_t)e->u.i.value;
    return true;
}

static const uf__type *subscript_expr(uf__ictx *C, const uf__expr *e)
{
    const uf__type *base;
    OPERAND(base, e->u.subscript.value);
    if (base->kind == UF__T_ARRAY)
        return uf__infer_array_index(C, e, base);
    if (base->kind == UF__T_FLATITER)
        return uf__infer_flat_index(C, e, base);
    if (base->kind == UF__T_LIST) /* infer_list.c */
        return uf__infer_list_index(C, e, base);
    if (uf__is_string(base)) /* infer_ustr.c */
        return uf__infer_ustr_index(C, e, base);
    if (base->kind == UF__T_DICT && base->layout == 0) /* infer_dict.c */
        return uf__infer_dict_index(C, e, base);
    if (base->kind != UF__T_TUPLE)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s is not "
                          "subscriptable", uf__tname(base));
    if (e->u.subscript.nindex != 1 ||
        e->u.subscript.index[0]->kind == UF__EX_SLICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "tuples are "
                          "indexed with one integer (no slices)");
    const uf__expr *x = e->u.subscript.index[0];
    const uf__type *t;
    OPERAND(t, x);
    if (!uf__type_is_int(t))
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "tuple indices must be "
                          "integers, not %s", uf__tname(t));
    int64_t k;
    if (literal_index(x, &k)) {
        if (k < 0)
            k += base->n;
        if (k < 0 || k >= base->n)
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "tuple index out of "
                              "range for %s", uf__tname(base));
        return uf__iset(C, e, base->elts[k]);
    }
    for (int i = 1; i < base->n; i++)
        if (base->elts[i] != base->elts[0])
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s can only be "
                              "indexed with a literal integer",
                              uf__tname(base));
    if (base->n == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s", "tuple index out "
                          "of range");
    return uf__iset(C, e, base->elts[0]);
}

static const uf__type *unary_expr(uf__ictx *C, const uf__expr *e,
                                  uf__expr_info *in)
{
    const uf__type *t;
    OPERAND(t, e->u.unary.operand);
    if (t->kind == UF__T_ARRAY && e->u.unary.op != UF__OP_NOT) /* -x */
        return uf__infer_array_ufunc(
            C, e, uf__arrexpr_unop_ufunc((int)e->u.unary.op), &t, 1);
    if (e->u.unary.op == UF__OP_NOT && t->kind == UF__T_STR)
        return uf__infer_str_not(C, e, in, t); /* infer_str.c */
    if (e->u.unary.op == UF__OP_NOT && t->kind == UF__T_USTR)
        return uf__infer_ustr_not(C, e, in); /* infer_ustr.c */
    if (e->u.unary.op == UF__OP_NOT && t->kind == UF__T_SET)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "function not_ found for signature (%s) (Numba "
                          "has none: test len(s) == 0)", uf__tname(t));
    if (e->u.unary.op == UF__OP_NOT && t->kind == UF__T_DICT)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "function not_ found for signature (%s) (Numba "
                          "has none: test len(d) == 0)", uf__tname(t));
    if (e->u.unary.op == UF__OP_NOT && uf__check_truth(C, e, t) < 0)
        return NULL;
    if (e->u.unary.op == UF__OP_NOT && t->kind == UF__T_LIST)
        return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL)); /* empty */
    const uf__type *optype = NULL;
    const uf__type *r = uf__type_unary(C->tc, (int)e->u.unary.op, t, &optype);
    if (r == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "unsupported operand "
                          "type for unary %s: %s",
                          uf__unop_str(e->u.unary.op), uf__tname(t));
    in->optype = optype;
    return uf__iset(C, e, r);
}

/* A literal count for tuple repetition: an int literal or a module
 * constant int (Numba takes an IntegerLiteral only); -1 otherwise. */
static int64_t literal_count(uf__ictx *C, const uf__expr *x)
{
    if (x->kind == UF__EX_INT && !x->u.i.too_big && x->u.i.value <= INT32_MAX)
        return (int64_t)x->u.i.value;
    const uf__constant *k = uf__iinfo(C, x)->constant;
    if (k && k->type->kind == UF__T_SCALAR && uf_dtype_kind(k->type->dtype) == 'i')
        return k->v.i < 0 ? 0 : k->v.i;
    return -1;
}

/* t + u and t * n (n * t) of tuples, as Python and Numba: the elements
 * of both in order, or t's repeated n times (n a literal). The result is
 * a tuple type of its own, lowered by lower_expr.c's element moves. */
static const uf__type *tuple_binop(uf__ictx *C, const uf__expr *e,
                                   const uf__type *a, const uf__type *b)
{
    const uf__type *el[UF__TUPLE_MAX];
    int n = 0;
    if (e->u.binary.op == UF__OP_ADD && a->kind == UF__T_TUPLE &&
        b->kind == UF__T_TUPLE && !e->u.binary.inplace) {
        if (a->n + b->n > UF__TUPLE_MAX)
            goto too_long;
        for (int i = 0; i < a->n; i++)
            el[n++] = a->elts[i];
        for (int i = 0; i < b->n; i++)
            el[n++] = b->elts[i];
    } else if (e->u.binary.op == UF__OP_MUL && !e->u.binary.inplace &&
               (a->kind == UF__T_TUPLE) != (b->kind == UF__T_TUPLE)) {
        const uf__type *t = a->kind == UF__T_TUPLE ? a : b;
        const uf__expr *cx = a->kind == UF__T_TUPLE ? e->u.binary.right
                                                    : e->u.binary.left;
        int64_t k = literal_count(C, cx);
        if (k < 0)
            return uf__ierr_t(C, UF_ERR_TYPING, cx->pos, "a tuple can be "
                              "repeated only by a literal int count (its "
                              "length is part of its type), as in Numba");
        if (k * t->n > UF__TUPLE_MAX)
            goto too_long;
        for (int64_t r = 0; r < k; r++)
            for (int i = 0; i < t->n; i++)
                el[n++] = t->elts[i];
    } else {
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "unsupported operand "
                          "types for %s%s: %s and %s",
                          uf__binop_str(e->u.binary.op),
                          e->u.binary.inplace ? "=" : "", uf__tname(a),
                          uf__tname(b));
    }
    const uf__type *r = uf__type_tuple(C->tc, n, el, C->err);
    return r ? uf__iset(C, e, r) : NULL;
too_long:
    return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "the tuple would have "
                      "more than %d elements, the most kernels take",
                      UF__TUPLE_MAX);
}

static const uf__type *binary_expr(uf__ictx *C, const uf__expr *e,
                                   uf__expr_info *in)
{
    const uf__type *a, *b;
    OPERAND(a, e->u.binary.left);
    OPERAND(b, e->u.binary.right);
    const uf__type *ab[2] = {a, b};
    if (e->u.binary.inplace && a->kind == UF__T_ARRAY) { /* a += v */
        if (uf__infer_array_augassign(C, e->pos, e->u.binary.op,
                                      e->u.binary.right, a, b) < 0)
            return NULL;
        return uf__iset(C, e, a);
    }
    if (uf__any_array(ab, 2) && e->u.binary.op != UF__OP_MATMUL) /* x * w */
        return uf__infer_array_ufunc(
            C, e, uf__arrexpr_binop_ufunc((int)e->u.binary.op), ab, 2);
    if (a->kind == UF__T_SET || b->kind == UF__T_SET) /* infer_set.c */
        return uf__infer_set_binop(C, e, a, b);
    if (a->kind == UF__T_LIST || b->kind == UF__T_LIST) /* infer_list_ops.c */
        return uf__infer_list_binop(C, e, a, b);
    if (uf__is_string(a) || uf__is_string(b)) /* infer_ustr.c */
        return uf__infer_ustr_binop(C, e, in, a, b);
    if (a->kind == UF__T_TUPLE || b->kind == UF__T_TUPLE) /* (2,) + shape */
        return tuple_binop(C, e, a, b);
    const uf__type *optype = NULL, *r = NULL;
    if (e->u.binary.op == UF__OP_MATMUL &&
        (a->kind == UF__T_ARRAY || b->kind == UF__T_ARRAY))
        return uf__infer_matmul(C, e, a, b);
    if (a->kind == UF__T_SCALAR && b->kind == UF__T_SCALAR)
        r = uf__type_binop(C->tc, (int)e->u.binary.op, a, b, &optype);
    if (r == NULL) {
        if (uf__typectx_oom(C->tc))
            return uf__ioom(C);
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "unsupported operand "
                          "types for %s%s: %s and %s",
                          uf__binop_str(e->u.binary.op),
                          e->u.binary.inplace ? "=" : "", uf__tname(a),
                          uf__tname(b));
    }
    in->optype = optype;
    return uf__iset(C, e, r);
}

/* a is b / a is not b, as Numba's generic_is and array_is: None is None;
 * values of different types (None and anything else too) are not; numbers
 * and bools of one type compare with == (NaN is not NaN); arrays of one
 * type are when shape, strides and data pointer agree. Lowered by
 * lower_expr.c's lower_is. */
static const uf__type *is_expr(uf__ictx *C, const uf__expr *e,
                               uf__expr_info *in, uf__cmpop op,
                               const uf__type *a, const uf__type *b)
{
    if (e->u.compare.nops != 1)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "'%s' in a chain of "
                          "comparisons is not supported in kernels",
                          uf__cmpop_str(op));
    bool simple[2];
    const uf__type *ab[2] = {a, b};
    for (int k = 0; k < 2; k++)
        simple[k] = ab[k]->kind == UF__T_NONE ||
                    ab[k]->kind == UF__T_SCALAR || ab[k]->kind == UF__T_ARRAY;
    if (!simple[0] || !simple[1])
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "the '%s' operator "
                          "on %s and %s is not supported in kernels (None, "
                          "numbers, bools and arrays are)", uf__cmpop_str(op),
                          uf__tname(a), uf__tname(b));
    in->optype = a == b && a->kind != UF__T_NONE ? a : NULL;
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
}

/* t == u, t < u ... of tuples of numbers, as Numba's tuple_eq and
 * tuple_cmp_ordered: element by element in the pair's own comparison
 * type (lower_expr.c); tuples of different lengths are unequal, and
 * ordered by length when one is the other's prefix. */
static const uf__type *tuple_compare(uf__ictx *C, const uf__expr *e,
                                     uf__cmpop op, const uf__type *a,
                                     const uf__type *b)
{
    if (e->u.compare.nops != 1 || op > UF__CMP_GE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "'%s' of tuples "
                          "%sis not supported in kernels", uf__cmpop_str(op),
                          e->u.compare.nops != 1 ? "in a chain " : "");
    int n = a->n < b->n ? a->n : b->n;
    for (int i = 0; i < n; i++) {
        const uf__type *ot;
        if (a->elts[i]->kind != UF__T_SCALAR ||
            b->elts[i]->kind != UF__T_SCALAR ||
            !uf__type_compare(C->tc, (int)op, a->elts[i], b->elts[i], &ot))
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "'%s' is not "
                              "supported between %s and %s (element %d: %s "
                              "and %s)", uf__cmpop_str(op), uf__tname(a),
                              uf__tname(b), i, uf__tname(a->elts[i]),
                              uf__tname(b->elts[i]));
    }
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
}

static const uf__type *compare_expr(uf__ictx *C, const uf__expr *e,
                                    uf__expr_info *in)
{
    const uf__type *a, *b, *common = NULL;
    OPERAND(a, e->u.compare.operands[0]);
    for (int i = 0; i < e->u.compare.nops; i++) {
        uf__cmpop op = e->u.compare.ops[i];
        const uf__expr *rhs = e->u.compare.operands[i + 1];
        OPERAND(b, rhs);
        if (op == UF__CMP_IS || op == UF__CMP_ISNOT)
            return is_expr(C, e, in, op, a, b);
        const uf__type *ab[2] = {a, b};
        if ((op == UF__CMP_IN || op == UF__CMP_NOTIN) && uf__is_string(a) &&
            (b->kind == UF__T_DICT || b->kind == UF__T_LIST ||
             b->kind == UF__T_SET))
            return uf__infer_contains(C, e, in, a, b); /* s in d, l, set */
        if (a->kind == UF__T_USTR || b->kind == UF__T_USTR ||
            (a->kind == UF__T_STR && b->kind == UF__T_STR &&
             (op == UF__CMP_IN || op == UF__CMP_NOTIN)) ||
            (b->kind == UF__T_TUPLE && b->n > 0 && /* s in ('a', t) */
             (op == UF__CMP_IN || op == UF__CMP_NOTIN) &&
             (a->kind == UF__T_USTR ||
              (a->kind == UF__T_STR && uf__tuple_has_ustr(b)))))
            return uf__infer_ustr_compare(C, e, in, (int)op, a, b);
        if (a->kind == UF__T_STR || b->kind == UF__T_STR ||
            ((op == UF__CMP_IN || op == UF__CMP_NOTIN) && b->n > 0 &&
             b->kind == UF__T_TUPLE && b->elts[0]->kind == UF__T_STR))
            return uf__infer_str_compare(C, e, in, (int)op, a, b);
        if (uf__any_array(ab, 2) && e->u.compare.nops == 1 &&
            uf__arrexpr_cmp_ufunc((int)op) != UF__BI_NONE) /* x < y */
            return uf__infer_array_ufunc(C, e, uf__arrexpr_cmp_ufunc((int)op),
                                         ab, 2);
        if (op == UF__CMP_IN || op == UF__CMP_NOTIN)
            return uf__infer_contains(C, e, in, a, b);
        if (a->kind == UF__T_DTYPE || b->kind == UF__T_DTYPE)
            return uf__infer_dtype_compare(C, e, in, (int)op, a, b);
        if (a->kind == UF__T_TUPLE && b->kind == UF__T_TUPLE)
            return tuple_compare(C, e, op, a, b); /* a.shape == (3, 4) */
        if (a->kind == UF__T_SET || b->kind == UF__T_SET) /* infer_set.c */
            return uf__infer_set_compare(C, e, in, (int)op, a, b);
        if (a->kind == UF__T_LIST && b->kind == UF__T_LIST) /* list_ops */
            return uf__infer_list_compare(C, e, in, (int)op, a, b);
        if (a->kind == UF__T_DICT && b->kind == UF__T_DICT) /* infer_dict */
            return uf__infer_dict_compare(C, e, in, (int)op, a, b);
        const uf__type *optype = NULL, *r = NULL;
        if (a->kind == UF__T_SCALAR && b->kind == UF__T_SCALAR)
            r = uf__type_compare(C->tc, (int)op, a, b, &optype);
        if (r == NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "'%s' is not "
                              "supported between %s and %s",
                              uf__cmpop_str(op), uf__tname(a), uf__tname(b));
        if (common == NULL) {
            common = optype;
        } else if (optype != NULL && optype != common) {
            const uf__type *u = uf__type_unify(C->tc, common, optype);
            if (u == NULL && uf__typectx_oom(C->tc))
                return uf__ioom(C);
            if (u == NULL)
                return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "cannot compare "
                                  "%s and %s in one chain", uf__tname(common),
                                  uf__tname(optype));
            common = u;
        }
        a = b;
    }
    in->optype = common;
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
}

/* a and b / a or b: the result is one of the operands, so Numba unifies
 * their types (the join after the short circuit). An operand whose test
 * is pruned (infer_prune.c) always passes the result on (not unified) or
 * always is the result (what follows is dead, not typed). */
static const uf__type *boolop_expr(uf__ictx *C, const uf__expr *e)
{
    const uf__type *r = NULL;
    signed char stop = e->u.boolop.is_and ? -1 : 1;
    for (int i = 0; i < e->u.boolop.n; i++) {
        const uf__expr *v = e->u.boolop.values[i];
        const uf__type *t;
        OPERAND(t, v);
        if (uf__check_truth(C, v, t) < 0)
            return NULL;
        bool last = i == e->u.boolop.n - 1;
        signed char tr = last ? 0 : uf__iinfo(C, v)->truth;
        if (tr == -stop)
            continue; /* never the result */
        const uf__type *u = r == NULL ? t : uf__type_unify(C->tc, r, t);
        if (u == NULL && uf__typectx_oom(C->tc))
            return uf__ioom(C);
        if (u == NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, v->pos, "Cannot unify %s and "
                              "%s for the result of '%s'", uf__tname(r),
                              uf__tname(t),
                              e->u.boolop.is_and ? "and" : "or");
        r = u;
        if (tr == stop)
            break; /* always the result: the rest is dead */
    }
    return uf__iset(C, e, r);
}

/* a if c else b; with c pruned (infer_prune.c) the other arm is dead:
 * neither typed nor unified, and c typed only where parts of it run. */
static const uf__type *ifexp_expr(uf__ictx *C, const uf__expr *e)
{
    const uf__type *c, *a, *b;
    const uf__expr *ce = e->u.ifexp.cond;
    signed char tr = uf__iinfo(C, ce)->truth;
    if (tr != 0) {
        if (uf__cond_runs(ce)) {
            OPERAND(c, ce);
            if (uf__check_truth(C, ce, c) < 0)
                return NULL;
        }
        const uf__expr *arm = tr > 0 ? e->u.ifexp.then : e->u.ifexp.orelse;
        OPERAND(a, arm);
        if (!uf__is_value_type(a))
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "a "
                              "conditional expression must give values");
        return uf__iset(C, e, a);
    }
    OPERAND(c, e->u.ifexp.cond);
    if (uf__check_truth(C, e->u.ifexp.cond, c) < 0)
        return NULL;
    OPERAND(a, e->u.ifexp.then);
    OPERAND(b, e->u.ifexp.orelse);
    if (!uf__is_value_type(a) || !uf__is_value_type(b))
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "a "
                          "conditional expression must give values");
    const uf__type *u = uf__type_unify(C->tc, a, b);
    if (u == NULL && uf__typectx_oom(C->tc))
        return uf__ioom(C);
    if (u == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.ifexp.orelse->pos, "Cannot "
                          "unify %s and %s for the conditional expression%s",
                          uf__tname(a), uf__tname(b), uf__str_join_hint(a, b));
    return uf__iset(C, e, u);
}

static const uf__type *tuple_expr(uf__ictx *C, const uf__expr *e)
{
    int n = e->u.seq.n;
    if (n > UF__TUPLE_MAX)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "tuples of more "
                          "than %d elements are not supported",
                          UF__TUPLE_MAX);
    const uf__type *elts[UF__TUPLE_MAX];
    for (int i = 0; i < n; i++) {
        const uf__expr *x = e->u.seq.elts[i];
        OPERAND(elts[i], x);
        if (!uf__is_value_type(elts[i]) || elts[i]->kind == UF__T_NONE)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x->pos, "%s cannot be "
                              "a tuple element", uf__tname(elts[i]));
    }
    return uf__iset(C, e, uf__type_tuple(C->tc, n, elts, C->err));
}

/* [1.0, 2.0] as np.array's object, nested lists too: the tuple of its
 * elements (kernels have no lists; Numba's reflected list of numbers
 * gives the same array). */
static const uf__type *list_as_tuple(uf__ictx *C, const uf__expr *e)
{
    int n = e->u.seq.n;
    if (n > UF__TUPLE_MAX)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "lists of more "
                          "than %d elements are not supported",
                          UF__TUPLE_MAX);
    const uf__type *elts[UF__TUPLE_MAX];
    for (int i = 0; i < n; i++) {
        const uf__expr *x = e->u.seq.elts[i];
        C->list_as_tuple = x->kind == UF__EX_LIST;
        elts[i] = uf__infer_expr(C, x);
        C->list_as_tuple = false;
        if (elts[i] == NULL || elts[i] == UF__UNKNOWN)
            return elts[i];
        if (elts[i]->kind == UF__T_LIST) /* [[...] for ...] inside: a */
            return uf__infer_list_literal(C, e); /* list of lists */
        if (elts[i]->kind != UF__T_SCALAR && elts[i]->kind != UF__T_TUPLE)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x->pos, "%s cannot be "
                              "an element of a list in kernels (lists of "
                              "numbers are np.array's and np.asarray's "
                              "argument only)", uf__tname(elts[i]));
    }
    return uf__iset(C, e, uf__type_tuple(C->tc, n, elts, C->err));
}

static const uf__type *int_literal(uf__ictx *C, const uf__expr *e)
{
    if (e->u.i.too_big)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "integer "
                          "literal too large (it must fit in 64 bits)");
    /* Numba types literals past int64's range as uint64 */
    uf_dtype d = e->u.i.value > (uint64_t)INT64_MAX ? UF_UINT64 : UF_INT64;
    return uf__iset(C, e, uf__type_scalar(C->tc, d));
}

const uf__type *uf__infer_expr(uf__ictx *C, const uf__expr *e)
{
    uf__expr_info *in = uf__iinfo(C, e);
    const uf__constant *keep = in->constant;
    signed char truth = in->truth, truth_end = in->truth_end; /* pruning */
    memset(in, 0, sizeof *in);
    in->var = -1;
    in->truth = truth;
    in->truth_end = truth_end;
    switch (e->kind) {
    case UF__EX_INT:
        return int_literal(C, e);
    case UF__EX_FLOAT:
        return uf__iset(C, e, uf__type_scalar(C->tc, UF_FLOAT64));
    case UF__EX_IMAG:
        return uf__iset(C, e, uf__type_scalar(C->tc, UF_COMPLEX128));
    case UF__EX_BOOL:
        return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
    case UF__EX_NONE:
        return uf__iset(C, e, uf__type_none(C->tc));
    case UF__EX_NAME:
        return name_expr(C, e, in);
    case UF__EX_ATTR:
        in->constant = keep; /* reuse a folded module constant's storage */
        return attr_expr(C, e, in);
    case UF__EX_CALL:
        return uf__infer_call(C, e);
    case UF__EX_SUBSCRIPT:
        return subscript_expr(C, e);
    case UF__EX_UNARY:
        return unary_expr(C, e, in);
    case UF__EX_BINARY:
        return binary_expr(C, e, in);
    case UF__EX_BOOLOP:
        return boolop_expr(C, e);
    case UF__EX_COMPARE:
        return compare_expr(C, e, in);
    case UF__EX_IFEXP:
        return ifexp_expr(C, e);
    case UF__EX_TUPLE:
        return tuple_expr(C, e);
    case UF__EX_STR: /* Numba's Literal[str] (infer_str.c) */
        return uf__iset(C, e, uf__type_strlit(C->tc, e->u.str.s,
                                              e->u.str.len, C->err));
    case UF__EX_LIST:
        if (C->list_as_tuple)
            return list_as_tuple(C, e);
        return uf__infer_list_literal(C, e); /* infer_list.c */
    case UF__EX_SLICE:
    case UF__EX_ELLIPSIS:
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "slices are "
                          "not supported in kernels");
    }
    return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "unsupported "
                      "expression");
}
