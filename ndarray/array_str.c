/* Strings as arrays (array.h): a 1-D uint32 array of code points flagged
 * UF_ARRAY_STRING is how a string argument reaches an njit function
 * (njit/njit_call.c makes the kernel's uf__ustr from it) and how a
 * returned string comes back. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/utf8.h"
#include "ndarray/array_internal.h"

void uf__array_mark_string(uf_array *a)
{
    a->flags |= UF_ARRAY_STRING;
}

/* A string array of n (uninitialised) code points. */
static uf_array *string_array(size_t n, uf_error *err)
{
    if (n > (size_t)INT64_MAX / 4) {
        uf__error_set(err, UF_ERR_OVERFLOW, "a string of %zu characters is "
                      "too long", n);
        return NULL;
    }
    int64_t shape = (int64_t)n;
    uf_array *a = uf_empty(UF_UINT32, 1, &shape, UF_ORDER_C, err);
    if (a != NULL)
        uf__array_mark_string(a);
    return a;
}

uf_array *uf_array_from_ucs4(const uint32_t *cp, size_t n, uf_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (cp[i] > 0x10FFFF) {
            uf__error_set(err, UF_ERR_VALUE, "code point %zu of the string "
                          "(0x%X) is past U+10FFFF", i, (unsigned)cp[i]);
            return NULL;
        }
    uf_array *a = string_array(n, err);
    if (a != NULL && n > 0)
        memcpy(a->data, cp, n * 4);
    return a;
}

uf_array *uf_array_from_utf8(const char *utf8, size_t n, uf_error *err)
{
    size_t count = 0;
    for (size_t at = 0; at < n; count++) {
        uint32_t c;
        int k = uf__utf8_decode(utf8 + at, n - at, &c);
        if (k == 0) {
            uf__error_set(err, UF_ERR_VALUE, "the string is not valid UTF-8 "
                          "(at byte %zu)", at);
            return NULL;
        }
        at += (size_t)k;
    }
    uf_array *a = string_array(count, err);
    if (a == NULL)
        return NULL;
    uint32_t *out = (uint32_t *)(void *)a->data;
    for (size_t at = 0, i = 0; at < n; i++)
        at += (size_t)uf__utf8_decode(utf8 + at, n - at, &out[i]);
    return a;
}

char *uf_array_utf8(const uf_array *a, size_t *n, uf_error *err)
{
    if (a->dtype != UF_UINT32 || a->ndim != 1 ||
        a->device.type != UF_DEVICE_HOST) {
        uf__error_set(err, UF_ERR_TYPE, "a string is a 1-D uint32 array of "
                      "code points in host memory, not a %d-d %s array",
                      a->ndim, uf_dtype_name(a->dtype));
        return NULL;
    }
    int64_t len = a->shape[0];
    size_t bytes = 0;
    for (int64_t i = 0; i < len; i++) {
        uint32_t c;
        memcpy(&c, a->data + i * a->strides[0], 4);
        if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
            uf__error_set(err, UF_ERR_VALUE, "code point %lld of the string "
                          "(0x%X) has no UTF-8 form", (long long)i,
                          (unsigned)c);
            return NULL;
        }
        bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    }
    char *s = uf__malloc(bytes + 1, 1, err);
    if (s == NULL)
        return NULL;
    size_t at = 0;
    for (int64_t i = 0; i < len; i++) {
        uint32_t c;
        memcpy(&c, a->data + i * a->strides[0], 4);
        at += (size_t)uf__utf8_put(c, s + at);
    }
    s[at] = '\0';
    if (n != NULL)
        *n = at;
    return s;
}
