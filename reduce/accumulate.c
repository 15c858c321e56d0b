/* uf_accumulate: NumPy's ufunc.accumulate, out[..., i, ...] =
 * f(out[..., i-1, ...], x[..., i, ...]) along one axis, out[..., 0, ...]
 * the first element (no identity), in order.
 *
 * Each step is the elementwise loop of the op: along the axis itself with
 * the output shifted by one element (in1 = out[i-1], out = out[i], the
 * loop's strided path runs that in order, as NumPy drives its loops), or,
 * when another axis is closer in memory, on whole rows at a time. */
#include <string.h>

#include "common/error_internal.h"
#include "compiler/module.h"
#include "ndarray/array_internal.h"
#include "ndarray/cast.h"
#include "reduce/reduce.h"
#include "ufunc/options.h"

typedef struct adim {
    int64_t n, si, so;
} adim;

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

typedef int (*visit_fn)(void *ud, const char *in, char *out);

/* Calls fn at every position of the dims (outermost first); none: once. */
static int walk(const adim *d, int nd, const char *in, char *out,
                visit_fn fn, void *ud)
{
    int64_t c[UF_MAXDIMS] = {0};
    for (;;) {
        int rc = fn(ud, in, out);
        if (rc != 0)
            return rc;
        int i = nd - 1;
        for (; i >= 0; i--) {
            in += d[i].si;
            out += d[i].so;
            if (++c[i] < d[i].n)
                break;
            in -= c[i] * d[i].si;
            out -= c[i] * d[i].so;
            c[i] = 0;
        }
        if (i < 0)
            return 0;
    }
}

typedef struct acc_ud {
    const uf__reduce_op *op;
    uf__cast_fn copy;
    adim axis, row; /* row: the inner other axis (mode 2) */
    uf__loop_ctx *lctx;
} acc_ud;

static int seed_row(void *ud, const char *in, char *out)
{
    acc_ud *u = ud;
    u->copy(in, u->row.si, out, u->row.so, u->row.n);
    return 0;
}

/* Mode 1: the whole axis at one position of the other axes. */
static int along_axis(void *ud, const char *in, char *out)
{
    acc_ud *u = ud;
    const adim *a = &u->axis;
    char *data[3] = {out, (char *)in + a->si, out + a->so};
    int64_t strides[3] = {a->so, a->si, a->so};
    int64_t n = a->n - 1;
    return u->op->fns.binary(u->lctx, data, &n, strides, NULL);
}

/* Mode 2: row after row. */
static int by_rows(void *ud, const char *in, char *out)
{
    acc_ud *u = ud;
    int64_t strides[3] = {u->row.so, u->row.si, u->row.so};
    for (int64_t i = 1; i < u->axis.n; i++) {
        char *data[3] = {out + (i - 1) * u->axis.so,
                         (char *)in + i * u->axis.si, out + i * u->axis.so};
        int rc = u->op->fns.binary(u->lctx, data, &u->row.n, strides, NULL);
        if (rc != 0)
            return rc;
    }
    return 0;
}

static int axis_of(const uf_array *in, const uf_call_options *opts,
                   int *axis, uf_error *err)
{
    uf_axes_mode mode = UF__OPT(opts, axes_mode, UF_AXES_DEFAULT);
    int naxes = UF__OPT(opts, naxes, 0);
    const int *axes = UF__OPT(opts, axes, (const int *)NULL);
    *axis = 0;
    if (mode == UF_AXES_DEFAULT || (mode == UF_AXES_ALL && in->ndim == 1))
        return 0;
    if (mode != UF_AXES_LIST || naxes != 1)
        return uf__error_set(err, UF_ERR_VALUE,
                             "accumulate does not allow multiple axes");
    if (axes == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_call_options: 1 axis but no axis list");
    if (axes[0] < -in->ndim || axes[0] >= in->ndim)
        return uf__error_set(err, UF_ERR_INDEX,
                             "axis %d is out of bounds for array of "
                             "dimension %d", axes[0], in->ndim);
    *axis = axes[0] < 0 ? axes[0] + in->ndim : axes[0];
    return 0;
}

static int check_out(const uf__reduce_op *op, const uf_array *in,
                     const uf_array *out, const uf_call_options *opts,
                     uf_error *err)
{
    if (out->device.type != UF_DEVICE_HOST)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "accumulate of '%s': the output is not in host "
                             "memory", op->name);
    if (!(out->flags & UF_ARRAY_WRITEABLE))
        return uf__error_set(err, UF_ERR_READONLY,
                             "output array is read-only");
    if (out->ndim != in->ndim ||
        memcmp(out->shape, in->shape, (size_t)in->ndim * sizeof(int64_t)))
        return uf__error_set(err, UF_ERR_SHAPE,
                             "accumulate of '%s': the output must have the "
                             "input's shape", op->name);
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

/* The other axes, length 1 dropped, sorted by input stride, merged. */
static int other_dims(const uf_array *src, const uf_array *res, int axis,
                      adim *d)
{
    int m = 0;
    for (int i = 0; i < src->ndim; i++)
        if (i != axis && src->shape[i] != 1)
            d[m++] = (adim){src->shape[i], src->strides[i], res->strides[i]};
    for (int i = 1; i < m; i++) {
        adim v = d[i];
        int j = i;
        while (j > 0 && abs64(d[j - 1].si) < abs64(v.si)) {
            d[j] = d[j - 1];
            j--;
        }
        d[j] = v;
    }
    int k = 0;
    for (int i = 1; i < m; i++) {
        if (d[k].si == d[i].si * d[i].n && d[k].so == d[i].so * d[i].n) {
            d[k].n *= d[i].n;
            d[k].si = d[i].si;
            d[k].so = d[i].so;
        } else {
            d[++k] = d[i];
        }
    }
    return m == 0 ? 0 : k + 1;
}

static int run(const uf__reduce_op *op, const uf_array *src, uf_array *res,
               int axis, uf_error *err)
{
    adim d[UF_MAXDIMS];
    int nd = other_dims(src, res, axis, d);
    uf_error loop_err;
    uf_error_clear(&loop_err);
    uf__loop_ctx lctx = {.err = &loop_err};
    acc_ud u = {op, uf__get_cast(op->type, op->type),
                {src->shape[axis], src->strides[axis], res->strides[axis]},
                {1, 0, 0}, &lctx};
    /* out[0] = x[0] */
    if (nd > 0)
        u.row = d[nd - 1];
    walk(d, nd > 0 ? nd - 1 : 0, src->data, res->data, seed_row, &u);
    if (u.axis.n < 2)
        return 0;
    int st;
    if (nd == 0 || abs64(u.axis.si) <= abs64(d[nd - 1].si))
        st = walk(d, nd, src->data, res->data, along_axis, &u);
    else
        st = walk(d, nd - 1, src->data, res->data, by_rows, &u);
    if (st == 0)
        return 0;
    if (loop_err.code != UF_ERR_OK)
        return uf__error_set(err, loop_err.code, "ufunc '%s': %s", op->name,
                             loop_err.message);
    return uf__reduce_status(op, st, err);
}

int uf_accumulate(uf_func *f, uf_array *in, uf_array **out,
                  const uf_call_options *opts, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    if (uf__reduce_check_call(f, in, out, opts, "accumulate", err) != 0)
        return err->code;
    if (in->ndim == 0)
        return uf__error_set(err, UF_ERR_TYPE, "cannot accumulate on a "
                             "scalar");
    if (UF__OPT(opts, initial, (uf_array *)NULL) != NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "accumulate of '%s' takes no initial value",
                             f->decl->name);
    int axis;
    if (axis_of(in, opts, &axis, err) != 0)
        return err->code;
    const uf__reduce_op *op;
    if (uf__reduce_op_get(f, in->dtype, &op, err) != 0)
        return err->code;
    uf_array *given = *out, *src = NULL, *res = NULL;
    if (given != NULL && check_out(op, in, given, opts, err) != 0)
        return err->code;
    if (!(src = uf__reduce_input(in, op->type, err)))
        return err->code;
    if (given != NULL && given->dtype == op->type &&
        (given->flags & UF_ARRAY_ALIGNED) && !uf__arrays_overlap(given, in))
        res = uf_array_retain(given);
    else if (!(res = uf_empty(op->type, in->ndim, in->shape, UF_ORDER_C,
                              err)))
        goto fail;
    if (uf_array_size(in) > 0 && run(op, src, res, axis, err) != 0)
        goto fail;
    if (given != NULL && res != given &&
        uf_array_copyto(given, res, UF_CASTING_UNSAFE, err) != 0)
        goto fail;
    uf_array_release(src);
    if (given != NULL) {
        uf_array_release(res);
        return 0;
    }
    *out = res;
    return 0;

fail:
    uf_array_release(res);
    uf_array_release(src);
    return err->code;
}
