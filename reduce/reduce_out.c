/* The output side of uf_reduce and uf_accumulate (reduce.h): the checks of
 * a caller's output both make, the array their loops write, and handing
 * the result over. */
#include "common/error_internal.h"
#include "ndarray/array_internal.h"
#include "reduce/reduce.h"
#include "ufunc/options.h"

int uf__reduce_out_usable(const uf__reduce_op *op, const uf_array *out,
                          const char *method, bool device_target,
                          uf_error *err)
{
    if (out->device.type != UF_DEVICE_HOST && !device_target)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "%s '%s': the output is not in host memory",
                             method, op->name);
    if (!(out->flags & UF_ARRAY_WRITEABLE))
        return uf__error_set(err, UF_ERR_READONLY,
                             "output array is read-only");
    return 0;
}

int uf__reduce_out_cast(const uf__reduce_op *op, const uf_array *out,
                        const uf_call_options *opts, uf_error *err)
{
    /* the device has no cast on the way out (nor NumPy's buffering) */
    if (out->device.type != UF_DEVICE_HOST && out->dtype != op->type)
        return uf__error_set(err, UF_ERR_CAST,
                             "ufunc '%s': out= is a device array of dtype "
                             "%s, but the result is %s (device outputs are "
                             "not cast: pass a %s device array, or a host "
                             "one)", op->name, uf_dtype_name(out->dtype),
                             uf_dtype_name(op->type),
                             uf_dtype_name(op->type));
    uf_casting casting = UF__OPT(opts, casting_set, false)
                             ? opts->casting : UF_CASTING_SAME_KIND;
    if (!uf_can_cast(op->type, out->dtype, casting))
        return uf__error_set(err, UF_ERR_CAST,
                             "Cannot cast ufunc '%s' output from "
                             "dtype('%s') to dtype('%s') with casting rule "
                             "'%s'", op->name, uf_dtype_name(op->type),
                             uf_dtype_name(out->dtype),
                             uf_casting_name(casting));
    return 0;
}

uf_array *uf__reduce_result(uf_array *given, const uf_array *in, uf_dtype t,
                            int ndim, const int64_t *shape, uf_error *err)
{
    if (given != NULL && given->dtype == t &&
        (given->flags & UF_ARRAY_ALIGNED) && !uf__arrays_overlap(given, in))
        return uf_array_retain(given);
    return uf_empty(t, ndim, shape, UF_ORDER_C, err);
}

int uf__reduce_deliver(uf_array **out, uf_array *res, uf_error *err)
{
    uf_array *given = *out;
    if (given == NULL) {
        *out = res;
        return 0;
    }
    int rc = 0;
    if (res != given &&
        uf_array_copyto(given, res, UF_CASTING_UNSAFE, err) != 0)
        rc = err->code;
    uf_array_release(res);
    return rc;
}
