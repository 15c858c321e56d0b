/* uf_reduce and the call path of @reduce kernels: NumPy's ufunc.reduce
 * (axes, keepdims, initial, the ufunc's identity, out=) on top of the
 * engine in reduce_exec.c, on the target the options or the kernel's
 * declaration name (one with threads: reduce_parallel.c, same results). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ufjit/cuda.h>

#include "common/error_internal.h"
#include "compiler/module.h"
#include "ndarray/array_internal.h"
#include "ndarray/cast.h"
#include "reduce/reduce.h"
#include "reduce/reduce_cuda.h"
#include "ufunc/call_check.h"
#include "ufunc/options.h"

#define SHAPE_STR (UF_MAXDIMS * 22 + 4)

/* Numba's identity= values other than None: 0, 1, 'reorderable' (no
 * value) and, should the kernel scanner pass one through, a literal. */
static int identity_value(const char *id, uf_dtype t, void *buf, bool *have)
{
    *have = false;
    if (id == NULL || strcmp(id, "None") == 0 ||
        strcmp(id, "reorderable") == 0)
        return 0;
    char *end;
    if (strcmp(id, "True") == 0 || strcmp(id, "False") == 0) {
        bool b = id[0] == 'T';
        uf__get_cast(UF_BOOL, t)((const char *)&b, 0, buf, 0, 1);
    } else {
        long long i = strtoll(id, &end, 0);
        if (*end == '\0') {
            int64_t v = i;
            uf__get_cast(UF_INT64, t)((const char *)&v, 0, buf, 0, 1);
        } else {
            double d = strtod(id, &end);
            if (*end != '\0')
                return -1;
            uf__get_cast(UF_FLOAT64, t)((const char *)&d, 0, buf, 0, 1);
        }
    }
    *have = true;
    return 0;
}

/* The start value of every reduction: initial=, else the identity; none
 * for kernels without one (each reduction starts from its first
 * element). */
static int start_value(uf_func *f, const uf__reduce_op *op,
                       const uf_call_options *opts, void *buf, bool *have,
                       uf_error *err)
{
    uf_array *init = UF__OPT(opts, initial, (uf_array *)NULL);
    if (init != NULL) {
        char s[SHAPE_STR];
        if (init->ndim != 0)
            return uf__error_set(err, UF_ERR_VALUE,
                                 "initial value of reduction '%s' must be a "
                                 "scalar (a 0-d array), not an array of "
                                 "shape %s", op->name,
                                 uf__shape_str(init->ndim, init->shape, s,
                                               sizeof s));
        /* as Numba's init= is converted to the array's type
         * (np.float64(init)), where a complex value is a TypeError rather
         * than its real part */
        if (uf_dtype_kind(init->dtype) == 'c' && uf_dtype_kind(op->type) != 'c')
            return uf__error_set(err, UF_ERR_TYPE,
                                 "initial value of reduction '%s' is %s, "
                                 "which cannot be converted to the "
                                 "reduction's %s without dropping its "
                                 "imaginary part", op->name,
                                 uf_dtype_name(init->dtype),
                                 uf_dtype_name(op->type));
        /* a 0-d device array: its one element read back (as numba-cuda
         * takes init= as a host scalar) */
        uf_array *h = init->device.type == UF_DEVICE_HOST
                          ? uf_array_retain(init)
                          : uf_copy_to_host(init, NULL, NULL, err);
        if (h == NULL)
            return err->code;
        uf__get_cast(h->dtype, op->type)(h->data, 0, buf, 0, 1);
        uf_array_release(h);
        *have = true;
        return 0;
    }
    const char *id = f->decl->kind == UF__K_VECTORIZE ? f->decl->identity
                                                      : NULL;
    if (identity_value(id, op->type, buf, have) != 0)
        return uf__error_set(err, UF_ERR_VALUE,
                             "'%s': cannot read identity=%s", op->name, id);
    return 0;
}

/* Where the caller's output must match: keepdims keeps reduced axes as 1. */
static int check_out(const uf__reduce_op *op, const uf_array *out, int rnd,
                     const int64_t *rshape, bool keepdims, bool device,
                     const uf_call_options *opts, uf_error *err)
{
    char s1[SHAPE_STR], s2[SHAPE_STR];
    if (uf__reduce_out_usable(op, out, "reduction", device, err) != 0)
        return err->code;
    if (out->ndim != rnd)
        return uf__error_set(err, UF_ERR_SHAPE,
                             "output parameter for reduction operation %s "
                             "has the wrong number of dimensions: Found %d "
                             "but expected %d%s", op->name, out->ndim, rnd,
                             keepdims ? " (must match the operand's when "
                                        "keepdims=True)" : "");
    if (memcmp(out->shape, rshape, (size_t)rnd * sizeof *rshape) != 0)
        return uf__error_set(err, UF_ERR_SHAPE,
                             "output parameter for reduction operation %s "
                             "has shape %s, expected %s", op->name,
                             uf__shape_str(out->ndim, out->shape, s1,
                                           sizeof s1),
                             uf__shape_str(rnd, rshape, s2, sizeof s2));
    return uf__reduce_out_cast(op, out, opts, err);
}

int uf__reduce_check_call(uf_func *f, const uf_array *in, uf_array **out,
                          const uf_call_options *opts, const char *method,
                          const uf__target **target, uf_error *err)
{
    if (f == NULL || in == NULL || out == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "%s: NULL function, input or output pointer",
                             method);
    if (opts != NULL &&
        opts->size < offsetof(uf_call_options, where) + sizeof opts->where)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_call_options.size must be set to "
                             "sizeof(uf_call_options) (got %zu)", opts->size);
    const char *name = uf__func_target(f, opts);
    const uf__target *t = uf__target_find(name);
    /* the CUDA targets run reduce (reduce_cuda.c) and accumulate
     * (accumulate_cuda.c) on device arrays too */
    bool device = t != NULL && (t->caps & UF__TCAP_DEVICE);
    if (!device && in->device.type != UF_DEVICE_HOST)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "%s: the input is not in host memory", method);
    if (t == NULL || !(t->caps & UF__TCAP_REDUCE)) {
        char list[128];
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "%s of '%s': target '%s' is not available "
                             "(reductions run on %s)", method, f->decl->name,
                             name, uf__target_list(UF__TCAP_REDUCE, list,
                                                     sizeof list));
    }
    if (UF__OPT(opts, where, (uf_array *)NULL) != NULL)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "%s of '%s': where= is not supported", method,
                             f->decl->name);
    if (UF__OPT(opts, num_threads, 0) < 0)
        return uf__error_set(err, UF_ERR_VALUE,
                             "num_threads must be positive, or 0 for the "
                             "default (got %d)", opts->num_threads);
    if (target != NULL)
        *target = t;
    return 0;
}

/* The input as the loops read it: of the accumulator type and aligned. */
uf_array *uf__reduce_input(uf_array *in, uf_dtype t, uf_error *err)
{
    if (in->dtype == t && (in->flags & UF_ARRAY_ALIGNED))
        return uf_array_retain(in);
    return uf_array_astype(in, t, UF_CASTING_UNSAFE, UF_ORDER_K, err);
}

int uf__reduce_impl(uf_func *f, uf_array *in, uf_array **out,
                    const uf_call_options *opts, bool dflt_all,
                    uf_error *err)
{
    const uf__target *target;
    if (uf__reduce_check_call(f, in, out, opts, "reduce", &target, err) != 0)
        return err->code;
    const uf__reduce_op *op;
    if (uf__reduce_op_get(f, in->dtype, &op, err) != 0)
        return err->code;
    bool red[UF_MAXDIMS];
    int nlisted;
    if (uf__reduce_axes(in->ndim, opts, dflt_all, red, &nlisted, err) != 0)
        return err->code;
    if (nlisted > 1 && !op->reorderable)
        return uf__error_set(err, UF_ERR_VALUE,
                             "reduction operation '%s' is not reorderable, "
                             "so at most one axis may be specified",
                             op->name);
    bool keepdims = UF__OPT(opts, keepdims, false), empty = false;
    int rnd = 0;
    int64_t rshape[UF_MAXDIMS];
    for (int i = 0; i < in->ndim; i++) {
        if (red[i])
            empty = empty || in->shape[i] == 0;
        if (!red[i] || keepdims)
            rshape[rnd++] = red[i] ? 1 : in->shape[i];
    }
    _Alignas(16) unsigned char start[16];
    bool have_start = false;
    if (start_value(f, op, opts, start, &have_start, err) != 0)
        return err->code;
    if (empty && !have_start)
        return uf__error_set(err, UF_ERR_VALUE,
                             "zero-size array to reduction operation %s "
                             "which has no identity", op->name);
    uf_array *given = *out;
    if (given != NULL &&
        check_out(op, given, rnd, rshape, keepdims,
                  (target->caps & UF__TCAP_DEVICE) != 0, opts, err) != 0)
        return err->code;
    if (target->caps & UF__TCAP_DEVICE)
        return uf__cuda_reduce(f, op, target, in, red, keepdims, rnd, rshape,
                               start, have_start, out, opts, err);

    uf_array *src = NULL, *res = NULL;
    if (!(src = uf__reduce_input(in, op->type, err)))
        return err->code;
    if (!(res = uf__reduce_result(given, in, op->type, rnd, rshape, err)))
        goto fail;
    if (have_start && uf_array_fill(res, start, op->type, err) != 0)
        goto fail;

    int64_t ostrides[UF_MAXDIMS];
    for (int i = 0, k = 0; i < in->ndim; i++) {
        if (!red[i] || keepdims)
            k++;
        ostrides[i] = red[i] ? 0 : res->strides[k - 1];
    }
    uf__reduce_args a = {op, in->ndim, src->shape, src->data, src->strides,
                         res->data, ostrides, red, have_start,
                         target,
                         UF__OPT(opts, num_threads, 0)};
    if (uf__reduce_exec(&a, err) != 0)
        goto fail;
    int rc = uf__reduce_deliver(out, res, err);
    uf_array_release(src);
    return rc;

fail:
    uf_array_release(res);
    uf_array_release(src);
    return err->code;
}

int uf_reduce(uf_func *f, uf_array *in, uf_array **out,
              const uf_call_options *opts, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    return uf__reduce_impl(f, in, out, opts,
                           f != NULL && f->decl->kind == UF__K_REDUCE, err);
}
