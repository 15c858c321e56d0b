/* Typing `raise` (Numba's nopython raise) and `print(...)`: the class must be one of
 * Python's built-in exceptions (compiler/types/exceptions.h), and its
 * arguments string literals or numbers, which Numba 0.68 formats into the
 * exception at run time as Python would. Arrays, tuples and complex
 * numbers as arguments are refused here. */
#include <string.h>

#include "compiler/types/exceptions.h"
#include "compiler/types/infer_internal.h"

/* The arguments of an exception or of print: string literals and
 * numbers other than complex. 0, -1 with the error set, 1 when one is
 * not typed yet. */
static int format_args(uf__ictx *C, const char *what, uf__expr *const *args,
                       int n)
{
    for (int i = 0; i < n; i++) {
        const uf__expr *a = args[i];
        if (a->kind == UF__EX_STR)
            continue;
        const uf__type *t = uf__infer_expr(C, a);
        if (t == NULL)
            return -1;
        if (t == UF__UNKNOWN)
            return 1;
        if (t->kind == UF__T_STR || t->kind == UF__T_USTR) /* a string */
            continue;
        if (t->kind != UF__T_SCALAR || uf_dtype_kind(t->dtype) == 'c')
            return uf__ierr(C, UF_ERR_UNSUPPORTED, a->pos, "an argument "
                            "of %s of type %s: only string literals, "
                            "integers, floats and booleans are supported",
                            what, uf__tname(t));
    }
    return 0;
}

/* print(a, b, ...): Numba's print of numbers and string constants, one
 * line on stdout, flushed (lower_raise.c); sep=, end= and file= and
 * arrays are refused. */
const uf__type *uf__infer_print(uf__ictx *C, const uf__expr *e)
{
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "print() is "
                          "not supported in CUDA kernels");
    if (e->u.call.nkw > 0)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.call.kw[0].pos, "%s",
                          "keyword arguments of print() (sep=, end=, file=) "
                          "are not supported in kernels");
    if (e->u.call.nargs > UF__RAISE_MAXARGS)
        return uf__ierr_t(C, UF_ERR_LIMIT, e->pos, "print() of more than "
                          "%d values", UF__RAISE_MAXARGS);
    int rc = format_args(C, "print()", e->u.call.args, e->u.call.nargs);
    if (rc != 0)
        return rc < 0 ? NULL : UF__UNKNOWN;
    uf__iinfo(C, e)->builtin = UF__BI_PRINT;
    return uf__iset(C, e, uf__type_none(C->tc));
}

int uf__infer_raise(uf__ictx *C, const uf__stmt *s)
{
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr(C, UF_ERR_UNSUPPORTED, s->pos, "%s", "'raise' is "
                        "not supported in CUDA kernels (its message is "
                        "recorded by a host helper)");
    if (uf__exception_code(s->u.raise.cls) == UF_ERR_OK)
        return uf__ierr(C, UF_ERR_UNSUPPORTED, s->u.raise.cls_pos,
                        "raising '%s': only Python's built-in exception "
                        "classes (ValueError, IndexError, ...) may be "
                        "raised in kernels", s->u.raise.cls);
    if (s->u.raise.nargs > UF__RAISE_MAXARGS)
        return uf__ierr(C, UF_ERR_LIMIT, s->pos, "an exception of more than "
                        "%d arguments", UF__RAISE_MAXARGS);
    int rc = format_args(C, s->u.raise.cls, s->u.raise.args,
                         s->u.raise.nargs);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    return 0;
}
