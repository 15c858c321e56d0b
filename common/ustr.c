/* Run-time strings (common/ustr.h): what generated code calls to make,
 * compare and search strings. Lengths and indices are code points. */
#include "common/ustr.h"
#include "common/utf8.h"

#include <stdio.h>
#include <string.h>

uf__ustr *uf__ustr_new(uf__nrt_meminfo **frame, int64_t n)
{
    if (n < 0 || n > (INT64_MAX - UF__USTR_CP_OFFSET) / 4)
        return NULL;
    uf__ustr *s = uf__nrt_alloc(frame, UF__USTR_CP_OFFSET + 4 * n);
    if (s == NULL)
        return NULL;
    s->len = n;
    s->hash = -1;
    return s;
}

uf__ustr *uf__ustr_concat(uf__nrt_meminfo **frame, const uf__ustr *a,
                          const uf__ustr *b)
{
    if (a->len > INT64_MAX - b->len)
        return NULL;
    uf__ustr *r = uf__ustr_new(frame, a->len + b->len);
    if (r == NULL)
        return NULL;
    if (a->len > 0)
        memcpy(r->cp, a->cp, 4 * (size_t)a->len);
    if (b->len > 0)
        memcpy(r->cp + a->len, b->cp, 4 * (size_t)b->len);
    return r;
}

uf__ustr *uf__ustr_repeat(uf__nrt_meminfo **frame, const uf__ustr *s,
                          int64_t n)
{
    if (n < 0 || s->len == 0)
        n = 0;
    if (n > 0 && s->len > INT64_MAX / n)
        return NULL;
    uf__ustr *r = uf__ustr_new(frame, s->len * n);
    if (r == NULL)
        return NULL;
    for (int64_t i = 0; i < n; i++)
        memcpy(r->cp + i * s->len, s->cp, 4 * (size_t)s->len);
    return r;
}

/* The one-character strings of U+0000 ... U+00FF, made once: s[i] and
 * `for c in s` over Latin-1 text allocate nothing (a pointer into no
 * block, kept and returned as a literal is). */
typedef struct one_char {
    int64_t len, hash;
    uint32_t cp[2];
} one_char;
#define C1(n) {1, -1, {(n), 0}}
#define C4(n) C1(n), C1((n) + 1), C1((n) + 2), C1((n) + 3)
#define C16(n) C4(n), C4((n) + 4), C4((n) + 8), C4((n) + 12)
#define C64(n) C16(n), C16((n) + 16), C16((n) + 32), C16((n) + 48)
static const one_char latin1[256] = {C64(0), C64(64), C64(128), C64(192)};

uf__ustr *uf__ustr_char(uf__nrt_meminfo **frame, int64_t c)
{
    if (c >= 0 && c < 256)
        return (uf__ustr *)(uintptr_t)&latin1[c];
    uf__ustr *r = uf__ustr_new(frame, 1);
    if (r != NULL)
        r->cp[0] = (uint32_t)c;
    return r;
}

/* Python's PySlice_AdjustIndices for one bound. */
static int64_t clamp(int64_t v, int64_t len, int64_t step)
{
    if (v < 0) {
        v += len;
        if (v < 0)
            v = step < 0 ? -1 : 0;
    } else if (v >= len) {
        v = step < 0 ? len - 1 : len;
    }
    return v;
}

uf__ustr *uf__ustr_slice(uf__nrt_meminfo **frame, const uf__ustr *s,
                         int64_t start, int64_t stop, int64_t step,
                         int32_t none)
{
    int64_t len = s->len;
    if (none & 4)
        step = 1;
    if (none & 1)
        start = step < 0 ? len - 1 : 0;
    else
        start = clamp(start, len, step);
    if (none & 2)
        stop = step < 0 ? -1 : len;
    else
        stop = clamp(stop, len, step);
    int64_t n = 0;
    if (step > 0 && start < stop)
        n = (stop - start - 1) / step + 1;
    else if (step < 0 && stop < start)
        n = (start - stop - 1) / (-step) + 1;
    uf__ustr *r = uf__ustr_new(frame, n);
    if (r == NULL)
        return NULL;
    for (int64_t i = 0; i < n; i++)
        r->cp[i] = s->cp[start + i * step];
    return r;
}

uf__ustr *uf__ustr_from_int(uf__nrt_meminfo **frame, int64_t v,
                            int32_t is_unsigned)
{
    if (v >= 0 && v <= 9)
        return uf__ustr_char(frame, '0' + v);
    char buf[24];
    int n = is_unsigned ? snprintf(buf, sizeof buf, "%llu",
                                   (unsigned long long)(uint64_t)v)
                        : snprintf(buf, sizeof buf, "%lld", (long long)v);
    uf__ustr *r = uf__ustr_new(frame, n);
    if (r == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        r->cp[i] = (unsigned char)buf[i];
    return r;
}

int32_t uf__ustr_cmp(const uf__ustr *a, const uf__ustr *b)
{
    int64_t n = a->len < b->len ? a->len : b->len;
    for (int64_t i = 0; i < n; i++)
        if (a->cp[i] != b->cp[i])
            return a->cp[i] < b->cp[i] ? -1 : 1;
    return a->len == b->len ? 0 : a->len < b->len ? -1 : 1;
}

int64_t uf__ustr_find(const uf__ustr *s, const uf__ustr *sub)
{
    if (sub->len == 0)
        return 0;
    for (int64_t i = 0; i + sub->len <= s->len; i++)
        if (s->cp[i] == sub->cp[0] &&
            memcmp(s->cp + i, sub->cp, 4 * (size_t)sub->len) == 0)
            return i;
    return -1;
}

int64_t uf__ustr_utf8(const uf__ustr *s, char *buf, int64_t cap)
{
    int64_t at = 0;
    for (int64_t i = 0; i < s->len; i++) {
        char u[4];
        int k = uf__utf8_put(s->cp[i], u);
        if (at + k < cap)
            memcpy(buf + at, u, (size_t)k);
        at += k;
    }
    if (cap > 0)
        buf[at < cap ? at : cap - 1] = '\0';
    return at;
}

void uf__ustr_write(const uf__ustr *s, void *stream)
{
    for (int64_t i = 0; i < s->len; i++) {
        char u[4];
        fwrite(u, 1, (size_t)uf__utf8_put(s->cp[i], u), (FILE *)stream);
    }
}
