/* arange and linspace with NumPy's arithmetic, so that values match
 * np.arange / np.linspace bit for bit. */
#include <math.h>
#include <string.h>

#include "common/error_internal.h"
#include "ndarray/array_internal.h"
#include "ndarray/cast.h"

/* np.arange fills from its first two values: element i is
 * first + i * (second - first), computed in the result type. */
static void fill_arange(uf_array *a, double start, double step)
{
    int64_t n = a->shape[0];
    double first = start, second = start + step;
    switch (uf_dtype_kind(a->dtype)) {
    case 'f':
        if (a->dtype == UF_FLOAT32) {
            float f0 = (float)first, d = (float)second - f0;
            float *out = (float *)a->data;
            for (int64_t i = 0; i < n; i++)
                out[i] = f0 + (float)i * d;
            return;
        } else {
            double d = second - first, *out = (double *)a->data;
            for (int64_t i = 0; i < n; i++)
                out[i] = first + (double)i * d;
            return;
        }
    case 'c': {
        double d = second - first;
        for (int64_t i = 0; i < n; i++) {
            double v[2] = {first + (double)i * d, 0.0};
            uf__get_cast(UF_COMPLEX128, a->dtype)(
                (const char *)v, 0, a->data + i * a->strides[0], 0, 1);
        }
        return;
    }
    default: {
        /* Integers (and bool): the two first values are converted, then
         * the sequence continues with wrapping integer arithmetic. */
        int64_t i0, i1;
        uf__get_cast(UF_FLOAT64, UF_INT64)((const char *)&first, 0,
                                           (char *)&i0, 0, 1);
        uf__get_cast(UF_FLOAT64, UF_INT64)((const char *)&second, 0,
                                           (char *)&i1, 0, 1);
        uint64_t d = (uint64_t)i1 - (uint64_t)i0;
        uf__cast_fn cast = uf__get_cast(UF_INT64, a->dtype);
        for (int64_t i = 0; i < n; i++) {
            int64_t v = (int64_t)((uint64_t)i0 + (uint64_t)i * d);
            cast((const char *)&v, 0, a->data + i * a->strides[0], 0, 1);
        }
        return;
    }
    }
}

uf_array *uf_arange(double start, double stop, double step, uf_dtype dtype,
                    uf_error *err)
{
    if (step == 0.0) {
        uf__error_set(err, UF_ERR_VALUE, "arange: step must not be zero");
        return NULL;
    }
    double len = ceil((stop - start) / step);
    if (isnan(len)) {
        uf__error_set(err, UF_ERR_VALUE,
                      "arange: cannot compute length (start, stop or step "
                      "is NaN or infinite)");
        return NULL;
    }
    if (len < 0)
        len = 0;
    if (len >= 9.2e18) {
        uf__error_set(err, UF_ERR_OVERFLOW,
                      "arange: maximum allowed size exceeded");
        return NULL;
    }
    int64_t n = (int64_t)len;
    if (dtype == UF_BOOL && n > 2) {
        uf__error_set(err, UF_ERR_TYPE,
                      "arange() is only supported for booleans when the "
                      "result has at most length 2");
        return NULL;
    }
    uf_array *a = uf_empty(dtype, 1, &n, UF_ORDER_C, err);
    if (a != NULL)
        fill_arange(a, start, step);
    return a;
}

uf_array *uf_linspace(double start, double stop, int64_t num, bool endpoint,
                      uf_dtype dtype, uf_error *err)
{
    if (num < 0) {
        uf__error_set(err, UF_ERR_VALUE,
                      "Number of samples, %lld, must be non-negative",
                      (long long)num);
        return NULL;
    }
    uf_array *a = uf_empty(dtype, 1, &num, UF_ORDER_C, err);
    if (a == NULL)
        return NULL;
    int64_t div = endpoint ? num - 1 : num;
    double delta = stop - start;
    double step = div > 0 ? delta / div : NAN;
    bool int_kind = uf_dtype_kind(dtype) == 'i' || uf_dtype_kind(dtype) == 'u';
    uf__cast_fn cast = uf__get_cast(UF_FLOAT64, dtype);
    size_t itemsize = uf_dtype_itemsize(dtype);
    for (int64_t i = 0; i < num; i++) {
        double y = (double)i;
        /* NumPy's order of operations, including its fallback when the
         * step underflows to zero. */
        if (div > 0)
            y = step == 0.0 ? y / (double)div * delta : y * step;
        else
            y = y * delta;
        y += start;
        if (endpoint && num > 1 && i == num - 1)
            y = stop;
        if (int_kind)
            y = floor(y);
        cast((const char *)&y, 0, a->data + (size_t)i * itemsize, 0, 1);
    }
    return a;
}
