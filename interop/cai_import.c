/* uf_array_from_cai: a device array over the memory a CUDA Array
 * Interface description names, without copying. Everything in the
 * description is checked before the memory is touched, so that a bad
 * description is an error naming what is wrong, never a device fault. */
#include <stdio.h>
#include <string.h>

#include <ufjit/interop.h>

#include "common/error_internal.h"
#include "targets/cuda/cuda_memory.h"

#define WHAT "uf_array_from_cai"

/* The alignment the device's loads of a dtype need: the item's size, or
 * its parts' for complex numbers (loaded as two floats). */
static int64_t item_alignment(uf_dtype dt)
{
    int64_t n = (int64_t)uf_dtype_itemsize(dt);
    return uf_dtype_kind(dt) == 'c' ? n / 2 : n;
}

static int check_header(const uf_cai *c, uf_dtype *dt, uf_error *err)
{
    if (c->version < 0 || c->version > 3)
        return uf__error_set(err, UF_ERR_VALUE,
                             WHAT ": version %d is not a CUDA Array "
                             "Interface version (0 to 3)", c->version);
    if (c->has_mask)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             WHAT ": a \"mask\" is given: masked arrays are "
                             "not supported");
    if (c->ndim < 0 || c->ndim > UF_MAXDIMS)
        return uf__error_set(err, UF_ERR_VALUE,
                             WHAT ": %d dimensions (0 to %d are supported)",
                             c->ndim, UF_MAXDIMS);
    if (memchr(c->typestr, '\0', sizeof c->typestr) == NULL)
        return uf__error_set(err, UF_ERR_VALUE,
                             WHAT ": the typestring is not terminated "
                             "within its %zu bytes", sizeof c->typestr);
    bool swapped;
    uf_error why;
    if (uf_dtype_from_typestr(c->typestr, dt, &swapped, &why) != 0)
        return uf__error_set(err, why.code, WHAT ": %s", why.message);
    if (swapped)
        return uf__error_set(err, UF_ERR_TYPE,
                             WHAT ": typestring '%s' is in the non-native "
                             "byte order, which device kernels cannot read",
                             c->typestr);
    if (c->has_stream && c->stream == 0)
        return uf__error_set(err, UF_ERR_VALUE,
                             WHAT ": stream 0 is ambiguous and not allowed "
                             "(the legacy default stream is 1, the "
                             "per-thread default stream 2)");
    return 0;
}

/* Shape, strides and pointer: the elements' bytes lie within the address
 * space and each element is aligned for the device's loads (NumPy accepts
 * unaligned arrays; a device kernel would fault with a misaligned address,
 * which ends the CUDA context, so they are refused here). */
static int check_layout(const uf_cai *c, uf_dtype dt, uf_error *err)
{
    int64_t size = 1, align = item_alignment(dt);
    for (int k = 0; k < c->ndim; k++) {
        if (c->shape[k] < 0)
            return uf__error_set(err, UF_ERR_VALUE,
                                 WHAT ": shape[%d] is negative (%lld)", k,
                                 (long long)c->shape[k]);
        if (__builtin_mul_overflow(size, c->shape[k], &size))
            return uf__error_set(err, UF_ERR_OVERFLOW,
                                 WHAT ": the shape's size overflows");
    }
    if (size == 0)
        return 0; /* no element is ever read: any pointer and strides */
    if (c->data == 0)
        return uf__error_set(err, UF_ERR_VALUE,
                             WHAT ": data is 0 for %lld elements",
                             (long long)size);
    if (c->data % (uint64_t)align != 0)
        return uf__error_set(err, UF_ERR_VALUE,
                             WHAT ": data %#llx is not aligned to %lld "
                             "bytes for typestring '%s'",
                             (unsigned long long)c->data, (long long)align,
                             c->typestr);
    /* [lo, hi): the byte offsets from data the elements reach */
    int64_t lo = 0, hi = (int64_t)uf_dtype_itemsize(dt), reach;
    if (!c->has_strides && __builtin_mul_overflow(size, hi, &hi))
        return uf__error_set(err, UF_ERR_OVERFLOW,
                             WHAT ": the array's size in bytes overflows");
    for (int k = 0; k < c->ndim && c->has_strides; k++) {
        if (c->shape[k] == 1)
            continue;
        if (c->strides[k] % align != 0)
            return uf__error_set(err, UF_ERR_VALUE,
                                 WHAT ": strides[%d] = %lld is not a "
                                 "multiple of %lld bytes for typestring "
                                 "'%s'", k, (long long)c->strides[k],
                                 (long long)align, c->typestr);
        if (__builtin_mul_overflow(c->shape[k] - 1, c->strides[k], &reach) ||
            __builtin_add_overflow(reach < 0 ? lo : hi, reach,
                                   reach < 0 ? &lo : &hi))
            return uf__error_set(err, UF_ERR_OVERFLOW,
                                 WHAT ": the strides reach beyond 64-bit "
                                 "offsets");
    }
    if ((uint64_t)0 - (uint64_t)lo > c->data ||
        (uint64_t)hi > UINTPTR_MAX - c->data)
        return uf__error_set(err, UF_ERR_VALUE,
                             WHAT ": the strides reach outside the address "
                             "space from data %#llx",
                             (unsigned long long)c->data);
    return 0;
}

uf_array *uf_array_from_cai(const uf_cai *cai, const char *target,
                            uf_stream *consumer, uf_release_fn keepalive,
                            void *ctx, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    if (cai == NULL) {
        uf__error_set(err, UF_ERR_INVALID, WHAT ": NULL description");
        return NULL;
    }
    uf_dtype dt;
    if (check_header(cai, &dt, err) != 0 || check_layout(cai, dt, err) != 0)
        return NULL;
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, err);
    if (rt == NULL || uf__cuda_rt_enter(rt, err) != 0)
        return NULL;
    if (consumer != NULL && consumer->rt != rt) {
        uf__error_set(err, UF_ERR_INVALID,
                      WHAT ": the consumer stream belongs to target '%s', "
                      "not '%s'", consumer->rt->target, rt->target);
        return NULL;
    }
    /* the producer's work on its stream, ordered before the consumer's */
    if (cai->has_stream &&
        uf_stream_wait_foreign(rt->target, cai->stream, consumer, err) != 0) {
        char why[sizeof err->message];
        snprintf(why, sizeof why, "%s", err->message);
        uf__error_set(err, err->code, WHAT ": %s", why);
        return NULL;
    }
    return uf__cuda_array_wrap_foreign(
        rt, dt, cai->ndim, cai->shape, cai->has_strides ? cai->strides : NULL,
        (void *)cai->data, !cai->readonly, consumer, keepalive, ctx, err);
}
