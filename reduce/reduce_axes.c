/* Which axes a reduction runs over, from uf_call_options, with NumPy's
 * checks and messages. */
#include <string.h>

#include "common/error_internal.h"
#include "reduce/reduce.h"
#include "ufunc/options.h"

int uf__reduce_axes(int ndim, const uf_call_options *opts, bool dflt_all,
                    bool *red, int *nlisted, uf_error *err)
{
    uf_axes_mode mode = UF__OPT(opts, axes_mode, UF_AXES_DEFAULT);
    int naxes = UF__OPT(opts, naxes, 0);
    const int *axes = UF__OPT(opts, axes, (const int *)NULL);
    memset(red, 0, (size_t)ndim * sizeof *red);
    *nlisted = 0;
    if (mode == UF_AXES_DEFAULT && dflt_all)
        mode = UF_AXES_ALL;
    switch (mode) {
    case UF_AXES_DEFAULT:
        /* NumPy reduces a 0-d array along "axis 0" to itself */
        if (ndim > 0) {
            red[0] = true;
            *nlisted = 1;
        }
        return 0;
    case UF_AXES_ALL:
        for (int i = 0; i < ndim; i++)
            red[i] = true;
        *nlisted = ndim;
        return 0;
    case UF_AXES_LIST:
        break;
    default:
        return uf__error_set(err, UF_ERR_INVALID, "invalid axes mode %d",
                             (int)mode);
    }
    if (naxes < 0 || (naxes > 0 && axes == NULL))
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_call_options: %d ax%s but no axis list",
                             naxes, naxes == 1 ? "is" : "es");
    /* a single axis 0 or -1 of a 0-d array: NumPy's scalar axis= */
    if (ndim == 0 && naxes == 1 && (axes[0] == 0 || axes[0] == -1))
        return 0;
    /* NumPy's normalize_axis_tuple: every bound first, then duplicates */
    for (int i = 0; i < naxes; i++)
        if (axes[i] < -ndim || axes[i] >= ndim)
            return uf__error_set(err, UF_ERR_INDEX,
                                 "axis %d is out of bounds for array of "
                                 "dimension %d", axes[i], ndim);
    for (int i = 0; i < naxes; i++) {
        int ax = axes[i] < 0 ? axes[i] + ndim : axes[i];
        if (red[ax])
            return uf__error_set(err, UF_ERR_VALUE,
                                 "duplicate value in 'axis'");
        red[ax] = true;
    }
    *nlisted = naxes;
    return 0;
}
