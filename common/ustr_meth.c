/* The methods of run-time strings (common/ustr.h's uf__ustr_meth), with
 * Python's rules for start/end, counts and fills. Case mapping and the
 * character classes are common/ustr_case.c's; whitespace of strip and
 * split is Python's whole set. */
#include <string.h>

#include "common/list.h"
#include "common/ustr.h"

static bool is_space(uint32_t c)
{
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) ||
           c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

/* Python's slice adjustment of start/end over len. */
static void bounds(int64_t len, int64_t *i, int64_t *j, int32_t given)
{
    int64_t a = given & 1 ? *i : 0, b = given & 2 ? *j : len;
    if (b > len)
        b = len;
    else if (b < 0 && (b += len) < 0)
        b = 0;
    if (a < 0 && (a += len) < 0)
        a = 0;
    *i = a, *j = b;
}

static bool match_at(const uf__ustr *s, int64_t k, const uf__ustr *sub)
{
    return sub->len == 0 ||
           memcmp(s->cp + k, sub->cp, 4 * (size_t)sub->len) == 0;
}

/* find / rfind / count over s[i:j]. */
static int64_t search(const uf__ustr *s, const uf__ustr *sub, int64_t i,
                      int64_t j, int32_t op)
{
    if (i > s->len || j - i < sub->len)
        return op == UF__USTR_OP_COUNT ? 0 : -1;
    if (op == UF__USTR_OP_COUNT) {
        if (sub->len == 0)
            return j - i + 1;
        int64_t n = 0;
        for (int64_t k = i; k + sub->len <= j;)
            if (match_at(s, k, sub))
                n++, k += sub->len;
            else
                k++;
        return n;
    }
    if (op == UF__USTR_OP_FIND || op == UF__USTR_OP_INDEX) {
        for (int64_t k = i; k + sub->len <= j; k++)
            if (match_at(s, k, sub))
                return k;
    } else {
        for (int64_t k = j - sub->len; k >= i; k--)
            if (match_at(s, k, sub))
                return k;
    }
    return -1;
}

static uf__ustr *sub_of(uf__nrt_meminfo **frame, const uf__ustr *s,
                        int64_t from, int64_t to)
{
    uf__ustr *r = uf__ustr_new(frame, to - from);
    if (r != NULL && to > from)
        memcpy(r->cp, s->cp + from, 4 * (size_t)(to - from));
    return r;
}

static bool in_chars(uint32_t c, const uf__ustr *chars)
{
    if (chars == NULL)
        return is_space(c);
    for (int64_t k = 0; k < chars->len; k++)
        if (chars->cp[k] == c)
            return true;
    return false;
}

static uf__ustr *strip(uf__nrt_meminfo **frame, const uf__ustr *s,
                       const uf__ustr *chars, int32_t op)
{
    int64_t a = 0, b = s->len;
    if (op != UF__USTR_OP_RSTRIP)
        while (a < b && in_chars(s->cp[a], chars))
            a++;
    if (op != UF__USTR_OP_LSTRIP)
        while (b > a && in_chars(s->cp[b - 1], chars))
            b--;
    return sub_of(frame, s, a, b);
}

static uf__ustr *replace(uf__nrt_meminfo **frame, const uf__ustr *s,
                         const uf__ustr *old, const uf__ustr *new_,
                         int64_t count)
{
    int64_t n = search(s, old, 0, s->len, UF__USTR_OP_COUNT);
    if (old->len == 0 && s->len == 0 && count < 0)
        n = 2; /* Numba's ''.replace('', x) gives x twice */
    if (count >= 0 && count < n)
        n = count;
    int64_t len = s->len + n * (new_->len - old->len);
    uf__ustr *r = uf__ustr_new(frame, len);
    if (r == NULL)
        return NULL;
    int64_t at = 0, k = 0;
    for (int64_t m = 0; m < n; m++) {
        int64_t hit = k;
        if (old->len > 0)
            while (!match_at(s, hit, old))
                hit++;
        else if (m > 0 && k < s->len)
            hit = k + 1; /* one character between x's */
        memcpy(r->cp + at, s->cp + k, 4 * (size_t)(hit - k));
        at += hit - k;
        memcpy(r->cp + at, new_->cp, 4 * (size_t)new_->len);
        at += new_->len;
        k = hit + old->len;
    }
    memcpy(r->cp + at, s->cp + k, 4 * (size_t)(s->len - k));
    return r;
}

/* center / ljust / rjust / zfill to width. */
static uf__ustr *pad(uf__nrt_meminfo **frame, const uf__ustr *s,
                     int64_t width, uint32_t fill, int32_t op)
{
    if (width <= s->len)
        return sub_of(frame, s, 0, s->len);
    int64_t marg = width - s->len, left;
    if (op == UF__USTR_OP_CENTER)
        left = marg / 2 + (marg & width & 1);
    else
        left = op == UF__USTR_OP_LJUST ? 0 : marg;
    uf__ustr *r = uf__ustr_new(frame, width);
    if (r == NULL)
        return NULL;
    for (int64_t k = 0; k < width; k++)
        r->cp[k] = fill;
    memcpy(r->cp + left, s->cp, 4 * (size_t)s->len);
    if (op == UF__USTR_OP_ZFILL && s->len > 0 &&
        (s->cp[0] == '+' || s->cp[0] == '-')) { /* the sign first */
        r->cp[left] = '0';
        r->cp[0] = s->cp[0];
    }
    return r;
}

int32_t uf__ustr_meth(uf__nrt_meminfo **frame, int32_t op, const uf__ustr *s,
                      const uf__ustr *a, const uf__ustr *b, int64_t i,
                      int64_t j, int32_t given, int64_t *out)
{
    uf__ustr *r = NULL;
    switch (op) {
    case UF__USTR_OP_UPPER: case UF__USTR_OP_LOWER: case UF__USTR_OP_TITLE:
    case UF__USTR_OP_CAPITALIZE: case UF__USTR_OP_SWAPCASE:
    case UF__USTR_OP_CASEFOLD:
        r = uf__ustr_case(frame, s, op);
        break;
    case UF__USTR_OP_EXPANDTABS:
        r = uf__ustr_expandtabs(frame, s, given & 1 ? i : 8);
        break;
    case UF__USTR_OP_STRIP: case UF__USTR_OP_LSTRIP: case UF__USTR_OP_RSTRIP:
        r = strip(frame, s, a, op);
        break;
    case UF__USTR_OP_STARTSWITH: case UF__USTR_OP_ENDSWITH: {
        bounds(s->len, &i, &j, given);
        bool ok = i <= s->len && j - i >= a->len;
        if (ok)
            ok = match_at(s, op == UF__USTR_OP_STARTSWITH ? i : j - a->len,
                          a);
        *out = ok;
        return UF__USTR_OK;
    }
    case UF__USTR_OP_FIND: case UF__USTR_OP_RFIND: case UF__USTR_OP_INDEX:
    case UF__USTR_OP_RINDEX: case UF__USTR_OP_COUNT:
        bounds(s->len, &i, &j, given);
        *out = search(s, a, i, j, op);
        return *out < 0 && (op == UF__USTR_OP_INDEX ||
                            op == UF__USTR_OP_RINDEX)
                   ? UF__USTR_NOTFOUND : UF__USTR_OK;
    case UF__USTR_OP_REPLACE:
        r = replace(frame, s, a, b, given & 1 ? i : -1);
        break;
    case UF__USTR_OP_ISSPACE: case UF__USTR_OP_ISDIGIT:
    case UF__USTR_OP_ISALPHA: case UF__USTR_OP_ISALNUM:
    case UF__USTR_OP_ISUPPER: case UF__USTR_OP_ISLOWER:
    case UF__USTR_OP_ISASCII: case UF__USTR_OP_ISDECIMAL:
    case UF__USTR_OP_ISNUMERIC: case UF__USTR_OP_ISPRINTABLE:
    case UF__USTR_OP_ISIDENTIFIER: case UF__USTR_OP_ISTITLE:
        *out = uf__ustr_class(s, op);
        return UF__USTR_OK;
    default: /* zfill, center, ljust, rjust */
        if (a != NULL && a->len != 1)
            return UF__USTR_FILL;
        r = pad(frame, s, i, op == UF__USTR_OP_ZFILL ? '0'
                             : a != NULL ? a->cp[0] : ' ', op);
        break;
    }
    if (r == NULL)
        return UF__USTR_NOMEM;
    *out = (int64_t)(intptr_t)r;
    return UF__USTR_OK;
}

uf__ustr *uf__ustr_join(uf__nrt_meminfo **frame, const uf__ustr *sep,
                        const void *list)
{
    const uf__list *l = list;
    const uf__ustr *const *item = (const uf__ustr *const *)l->items;
    int64_t len = 0;
    for (int64_t k = 0; k < l->size; k++)
        len += item[k]->len + (k > 0 ? sep->len : 0);
    uf__ustr *r = uf__ustr_new(frame, len);
    if (r == NULL)
        return NULL;
    int64_t at = 0;
    for (int64_t k = 0; k < l->size; k++) {
        if (k > 0) {
            memcpy(r->cp + at, sep->cp, 4 * (size_t)sep->len);
            at += sep->len;
        }
        memcpy(r->cp + at, item[k]->cp, 4 * (size_t)item[k]->len);
        at += item[k]->len;
    }
    return r;
}

/* Appends s[a:b] to list l (room made by the caller's count). */
static int push_part(uf__nrt_meminfo **frame, uf__list *l,
                     const uf__ustr *s, int64_t a, int64_t b)
{
    uf__ustr *part = sub_of(frame, s, a, b);
    if (part == NULL)
        return -1;
    memcpy(l->items + 8 * l->size++, &part, sizeof part);
    return 0;
}

int32_t uf__ustr_split(uf__nrt_meminfo **frame, const uf__ustr *s,
                       const uf__ustr *sep, int64_t maxsplit, void **out)
{
    if (sep != NULL && sep->len == 0)
        return UF__USTR_EMPTYSEP;
    if (maxsplit < 0)
        maxsplit = INT64_MAX;
    /* at most len + 1 parts */
    uf__list *l = uf__list_new(frame, s->len + 1, 8);
    if (l == NULL)
        return UF__USTR_NOMEM;
    l->size = 0;
    int64_t k = 0, n = s->len;
    if (sep != NULL) {
        int64_t from = 0;
        while (l->size < maxsplit && k + sep->len <= n) {
            if (match_at(s, k, sep)) {
                if (push_part(frame, l, s, from, k) != 0)
                    return UF__USTR_NOMEM;
                k += sep->len;
                from = k;
            } else {
                k++;
            }
        }
        if (push_part(frame, l, s, from, n) != 0)
            return UF__USTR_NOMEM;
    } else {
        /* Numba's whitespace split: maxsplit 0 is no limit, and past
         * maxsplit parts the rest is dropped (Python keeps it whole) */
        if (maxsplit == 0)
            maxsplit = INT64_MAX;
        while (k < n && is_space(s->cp[k]))
            k++;
        while (k < n && l->size < maxsplit) {
            int64_t a = k;
            while (k < n && !is_space(s->cp[k]))
                k++;
            if (push_part(frame, l, s, a, k) != 0)
                return UF__USTR_NOMEM;
            while (k < n && is_space(s->cp[k]))
                k++;
        }
    }
    *out = l;
    return UF__USTR_OK;
}
