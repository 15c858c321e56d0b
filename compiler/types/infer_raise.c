/* Typing `raise` (Numba's nopython raise): the class must be one of
 * Python's built-in exceptions (compiler/types/exceptions.h), and its
 * arguments string literals or numbers, which Numba 0.68 formats into the
 * exception at run time as Python would. Arrays, tuples and complex
 * numbers as arguments are refused here. */
#include <string.h>

#include "compiler/types/exceptions.h"
#include "compiler/types/infer_internal.h"

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
    for (int i = 0; i < s->u.raise.nargs; i++) {
        const uf__expr *a = s->u.raise.args[i];
        if (a->kind == UF__EX_STR)
            continue;
        const uf__type *t = uf__infer_expr(C, a);
        if (t == NULL)
            return -1;
        if (t == UF__UNKNOWN)
            return 0;
        if (t->kind != UF__T_SCALAR || uf_dtype_kind(t->dtype) == 'c')
            return uf__ierr(C, UF_ERR_UNSUPPORTED, a->pos, "an argument "
                            "of %s of type %s: only string literals, "
                            "integers, floats and booleans are supported",
                            s->u.raise.cls, uf__tname(t));
    }
    return 0;
}
