/* Typing of np.logspace(start, stop, num=50) and np.geomspace(start,
 * stop, num=50) (builtins.h: UF__NPSPACE_MAP), as Numba 0.68 types them
 * (numba/np/arrayobj.py numpy_logspace, numpy_geomspace): start and stop
 * numbers (ints, floats or complex; a bool, an array, a tuple are
 * TypingErrors), num an integer (a bool, a float are TypingErrors); the
 * only arguments Numba takes (endpoint=, base=, dtype=, axis= are
 * TypingErrors there too). The result a new 1-D C array: complex128 when
 * start or stop is complex, else float64. Both allocate on the host: CUDA
 * kernels and device functions refuse them as they refuse np.linspace. */
#include <string.h>

#include "compiler/types/infer_internal.h"

static const char *const names[] = {"start", "stop", "num"};

const uf__type *uf__infer_npspace(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    bool geo = b == UF__BI_NP_GEOMSPACE;
    const char *fn = geo ? "geomspace" : "logspace";
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "np.%s() allocates "
                          "an array, which CUDA kernels cannot do: use "
                          "cuda.local.array(shape, dtype) with a shape known "
                          "at compile time", fn);
    if (uf__call_check_params(C, e, fn, names, 3) != 0)
        return NULL;
    bool cplx = false;
    for (int i = 0; i < 3; i++) {
        const uf__expr *x = uf__call_arg(e, i, names[i]);
        if (x == NULL) {
            if (i < 2)
                return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.%s() "
                                  "missing required argument '%s'", fn,
                                  names[i]);
            continue;
        }
        const uf__type *t = uf__infer_expr(C, x);
        if (t == NULL || t == UF__UNKNOWN)
            return t;
        bool num = t->kind == UF__T_SCALAR && t->dtype != UF_BOOL;
        bool ok = i < 2 ? num : num && uf__type_is_int(t);
        if (!ok)
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.%s(): the "
                              "argument \"%s\" must be %s (Numba's), not %s",
                              fn, names[i], i < 2 ? "a number" :
                              "an integer", uf__tname(t));
        cplx = cplx || (i < 2 && uf__type_is_complex(t));
    }
    const uf__type *r = uf__type_array(
        C->tc, cplx ? UF_COMPLEX128 : UF_FLOAT64, 1, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}
