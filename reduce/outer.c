/* uf_outer: NumPy's ufunc.outer, f(a[i...], b[j...]) of shape
 * a.shape + b.shape: `a` viewed with b.ndim trailing length-1 axes, then
 * an ordinary call, which broadcasts the two. */
#include <string.h>

#include "common/error_internal.h"
#include "compiler/module.h"
#include "ndarray/array_internal.h"

int uf_outer(uf_func *f, uf_array *a, uf_array *b, uf_array **out,
             const uf_call_options *opts, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    if (f == NULL || a == NULL || b == NULL || out == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "outer: NULL function, input or output "
                             "pointer");
    if (f->decl->kind != UF__K_VECTORIZE)
        return uf__error_set(err, UF_ERR_INVALID,
                             "'%s' is not a vectorize kernel: it has no "
                             "outer method", f->decl->name);
    if (f->nin != 2)
        return uf__error_set(err, UF_ERR_VALUE,
                             "'%s': outer product only supported for binary "
                             "functions (it takes %d inputs)", f->decl->name,
                             f->nin);
    int nd = a->ndim + b->ndim;
    if (nd > UF_MAXDIMS)
        return uf__error_set(err, UF_ERR_VALUE,
                             "outer of '%s': %d + %d dimensions, more than "
                             "%d", f->decl->name, a->ndim, b->ndim,
                             UF_MAXDIMS);
    int64_t shape[UF_MAXDIMS], strides[UF_MAXDIMS];
    memcpy(shape, a->shape, (size_t)a->ndim * sizeof *shape);
    memcpy(shape + a->ndim, b->shape, (size_t)b->ndim * sizeof *shape);
    uf_array *given = *out;
    if (given != NULL &&
        (given->ndim != nd ||
         memcmp(given->shape, shape, (size_t)nd * sizeof *shape) != 0)) {
        /* said in the caller's terms, not the broadcast view's below */
        char s1[UF_MAXDIMS * 22 + 4], s2[UF_MAXDIMS * 22 + 4];
        return uf__error_set(err, UF_ERR_SHAPE,
                             "outer of '%s': out= has shape %s, but the "
                             "result's is %s (a.shape + b.shape)",
                             f->decl->name,
                             uf__shape_str(given->ndim, given->shape, s1,
                                           sizeof s1),
                             uf__shape_str(nd, shape, s2, sizeof s2));
    }
    for (int i = 0; i < nd; i++) {
        shape[i] = i < a->ndim ? a->shape[i] : 1;
        strides[i] = i < a->ndim ? a->strides[i] : 0;
    }
    uf_array *av = uf__array_view(a, a->dtype, nd, shape, strides, a->data,
                                  err);
    if (av == NULL)
        return err->code;
    uf_array *ins[2] = {av, b};
    uf_array *outs[1] = {*out};
    int rc = uf_call(f, ins, 2, outs, 1, opts, err);
    if (rc == 0)
        *out = outs[0];
    uf_array_release(av);
    return rc;
}
