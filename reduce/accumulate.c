/* uf_accumulate: NumPy's ufunc.accumulate, out[..., i, ...] =
 * f(out[..., i-1, ...], x[..., i, ...]) along one axis, out[..., 0, ...]
 * the first element (no identity), in order.
 *
 * Each step is the elementwise loop of the op: along the axis itself with
 * the output shifted by one element (in1 = out[i-1], out = out[i], the
 * loop's strided path runs that in order, as NumPy drives its loops), or,
 * when another axis is closer in memory, on whole rows at a time. On the
 * CUDA targets: accumulate_cuda.c, in the same order. */
#include <string.h>

#include "common/error_internal.h"
#include "compiler/module.h"
#include "ndarray/array_internal.h"
#include "reduce/reduce.h"
#include "reduce/reduce_cuda.h"
#include "ufunc/options.h"

typedef uf__reduce_dim adim;

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

typedef struct acc_ud {
    const uf__reduce_op *op;
    adim axis, row; /* row: the inner other axis (mode 2) */
    uf__loop_ctx *lctx;
} acc_ud;

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

/* The one axis of the options (in->ndim >= 1), read as uf_reduce reads
 * its axes once more than one is refused. */
static int axis_of(const uf_array *in, const uf_call_options *opts,
                   int *axis, uf_error *err)
{
    uf_axes_mode mode = UF__OPT(opts, axes_mode, UF_AXES_DEFAULT);
    *axis = 0;
    if (!(mode == UF_AXES_DEFAULT || (mode == UF_AXES_ALL && in->ndim == 1) ||
          (mode == UF_AXES_LIST && UF__OPT(opts, naxes, 0) == 1)))
        return uf__error_set(err, UF_ERR_VALUE,
                             "accumulate does not allow multiple axes");
    bool red[UF_MAXDIMS];
    int nlisted;
    if (uf__reduce_axes(in->ndim, opts, false, red, &nlisted, err) != 0)
        return err->code;
    while (!red[*axis])
        ++*axis;
    return 0;
}

static int check_out(const uf__reduce_op *op, const uf_array *in,
                     const uf_array *out, bool device,
                     const uf_call_options *opts, uf_error *err)
{
    char s1[UF_MAXDIMS * 22 + 4], s2[UF_MAXDIMS * 22 + 4];
    if (uf__reduce_out_usable(op, out, "accumulate of", device, err) != 0)
        return err->code;
    if (out->ndim != in->ndim ||
        memcmp(out->shape, in->shape, (size_t)in->ndim * sizeof(int64_t)))
        return uf__error_set(err, UF_ERR_SHAPE,
                             "accumulate of '%s': the output must have the "
                             "input's shape %s (out= has shape %s)",
                             op->name,
                             uf__shape_str(in->ndim, in->shape, s1,
                                           sizeof s1),
                             uf__shape_str(out->ndim, out->shape, s2,
                                           sizeof s2));
    return uf__reduce_out_cast(op, out, opts, err);
}

/* The other axes, length 1 dropped, sorted by input stride, merged. */
static int other_dims(const uf_array *src, const uf_array *res, int axis,
                      adim *d)
{
    int m = 0;
    for (int i = 0; i < src->ndim; i++)
        if (i != axis && src->shape[i] != 1)
            d[m++] = (adim){src->shape[i], src->strides[i],
                            res->strides[i], false};
    return uf__reduce_sort_merge(d, m);
}

static int run(const uf__reduce_op *op, const uf_array *src, uf_array *res,
               int axis, uf_error *err)
{
    adim d[UF_MAXDIMS];
    int nd = other_dims(src, res, axis, d);
    uf_error loop_err;
    uf_error_clear(&loop_err);
    uf__loop_ctx lctx = {.err = &loop_err};
    acc_ud u = {op,
                {src->shape[axis], src->strides[axis], res->strides[axis],
                 false},
                {1, 0, 0, false}, &lctx};
    /* out[0] = x[0] */
    uf__reduce_copy(op->type, d, nd, src->data, res->data);
    if (u.axis.n < 2)
        return 0;
    int st;
    if (nd == 0 || abs64(u.axis.si) <= abs64(d[nd - 1].si)) {
        st = uf__reduce_walk(d, nd, src->data, res->data, along_axis, &u);
    } else {
        u.row = d[nd - 1];
        st = uf__reduce_walk(d, nd - 1, src->data, res->data, by_rows, &u);
    }
    if (st == 0)
        return 0;
    return uf__reduce_loop_failed(op, st, &loop_err, err);
}

int uf_accumulate(uf_func *f, uf_array *in, uf_array **out,
                  const uf_call_options *opts, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    const uf__target *target;
    if (uf__reduce_check_call(f, in, out, opts, "accumulate", &target,
                              err) != 0)
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
    bool device = (target->caps & UF__TCAP_DEVICE) != 0;
    if (given != NULL && check_out(op, in, given, device, opts, err) != 0)
        return err->code;
    if (device)
        return uf__cuda_accumulate(f, op, target, in, axis, out, opts, err);
    if (!(src = uf__reduce_input(in, op->type, err)))
        return err->code;
    if (!(res = uf__reduce_result(given, in, op->type, in->ndim, in->shape,
                                  err)))
        goto fail;
    if (uf_array_size(in) > 0 && run(op, src, res, axis, err) != 0)
        goto fail;
    int rc = uf__reduce_deliver(out, res, err);
    uf_array_release(src);
    return rc;

fail:
    uf_array_release(res);
    uf_array_release(src);
    return err->code;
}
