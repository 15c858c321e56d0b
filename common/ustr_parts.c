/* Run-time string methods that cut a string into parts (common/ustr.h):
 * partition / rpartition, rsplit, splitlines, and expandtabs, with
 * Numba's rules (its translations of CPython's stringlib). */
#include <string.h>

#include "common/list.h"
#include "common/ustr.h"
#include "common/ustr_unicode.h"

static uf__ustr *part(uf__nrt_meminfo **frame, const uf__ustr *s,
                      int64_t from, int64_t to)
{
    uf__ustr *r = uf__ustr_new(frame, to - from);
    if (r != NULL && to > from)
        memcpy(r->cp, s->cp + from, 4 * (size_t)(to - from));
    return r;
}

static bool match_at(const uf__ustr *s, int64_t k, const uf__ustr *sub)
{
    return memcmp(s->cp + k, sub->cp, 4 * (size_t)sub->len) == 0;
}

int32_t uf__ustr_partition(uf__nrt_meminfo **frame, const uf__ustr *s,
                           const uf__ustr *sep, int32_t right, void **out)
{
    if (sep->len == 0)
        return UF__USTR_EMPTYSEP;
    int64_t at = -1;
    if (right) {
        for (int64_t k = s->len - sep->len; k >= 0 && at < 0; k--)
            if (match_at(s, k, sep))
                at = k;
    } else {
        for (int64_t k = 0; k + sep->len <= s->len && at < 0; k++)
            if (match_at(s, k, sep))
                at = k;
    }
    uf__ustr *p[3];
    if (at < 0) { /* the whole string on its side, two empty strings */
        for (int k = 0; k < 3; k++)
            p[k] = part(frame, s, 0, k == (right ? 2 : 0) ? s->len : 0);
    } else {
        p[0] = part(frame, s, 0, at);
        p[1] = part(frame, sep, 0, sep->len);
        p[2] = part(frame, s, at + sep->len, s->len);
    }
    for (int k = 0; k < 3; k++) {
        if (p[k] == NULL)
            return UF__USTR_NOMEM;
        out[k] = p[k];
    }
    return UF__USTR_OK;
}

/* Whitespace of rsplit(): Numba tests an all-ASCII string with C's
 * isspace (so not U+001C..U+001F), any other with Unicode's. */
static bool rsplit_space(uint32_t c, bool ascii)
{
    if (ascii)
        return c == ' ' || (c >= 0x09 && c <= 0x0D);
    return c < 128 ? c == ' ' || (c >= 0x09 && c <= 0x0D) ||
                         (c >= 0x1C && c <= 0x1F)
                   : uf__uni_is(c, UF__UNI_SPACE);
}

/* Appends s[a:b] to l (room made by the caller). */
static int push(uf__nrt_meminfo **frame, uf__list *l, const uf__ustr *s,
                int64_t a, int64_t b)
{
    uf__ustr *p = part(frame, s, a, b);
    if (p == NULL)
        return -1;
    memcpy(l->items + 8 * l->size++, &p, sizeof p);
    return 0;
}

static int rsplit_space_parts(uf__nrt_meminfo **frame, uf__list *l,
                              const uf__ustr *s, int64_t most)
{
    bool ascii = true;
    for (int64_t k = 0; k < s->len && ascii; k++)
        ascii = s->cp[k] < 128;
    int64_t i = s->len - 1;
    while (most > 0) {
        while (i >= 0 && rsplit_space(s->cp[i], ascii))
            i--;
        if (i < 0)
            break;
        int64_t j = i--;
        while (i >= 0 && !rsplit_space(s->cp[i], ascii))
            i--;
        if (push(frame, l, s, i + 1, j + 1) != 0)
            return -1;
        most--;
    }
    while (i >= 0 && rsplit_space(s->cp[i], ascii)) /* maxsplit reached */
        i--;
    return i >= 0 ? push(frame, l, s, 0, i + 1) : 0;
}

int32_t uf__ustr_rsplit(uf__nrt_meminfo **frame, const uf__ustr *s,
                        const uf__ustr *sep, int64_t maxsplit, void **out)
{
    if (sep != NULL && sep->len == 0)
        return UF__USTR_EMPTYSEP;
    int64_t most = maxsplit < 0 ? INT64_MAX : maxsplit;
    uf__list *l = uf__list_new(frame, s->len + 1, 8); /* at most len + 1 */
    if (l == NULL)
        return UF__USTR_NOMEM;
    l->size = 0;
    if (sep == NULL) {
        if (rsplit_space_parts(frame, l, s, most) != 0)
            return UF__USTR_NOMEM;
    } else if (sep->len == 1) {
        /* Numba's _rsplit_char: after a match the character before it is
         * skipped ('all'.rsplit('l') == ['al', '']) */
        int64_t i = s->len - 1, j = i;
        for (; i >= 0 && most > 0; i--) {
            if (s->cp[i] != sep->cp[0])
                continue;
            if (push(frame, l, s, i + 1, j + 1) != 0)
                return UF__USTR_NOMEM;
            j = i = i - 1;
            most--;
        }
        if (push(frame, l, s, 0, j + 1) != 0)
            return UF__USTR_NOMEM;
    } else {
        int64_t j = s->len;
        for (int64_t k = j - sep->len; most > 0 && k >= 0; k--) {
            if (!match_at(s, k, sep))
                continue;
            if (push(frame, l, s, k + sep->len, j) != 0)
                return UF__USTR_NOMEM;
            j = k;
            k -= sep->len - 1;
            most--;
        }
        if (push(frame, l, s, 0, j) != 0)
            return UF__USTR_NOMEM;
    }
    uf__list_reverse(l, 8); /* the parts came last first */
    *out = l;
    return UF__USTR_OK;
}

static bool line_break(uint32_t c)
{
    return c < 128 ? (c >= 0x0A && c <= 0x0D) || (c >= 0x1C && c <= 0x1E)
                   : uf__uni_is(c, UF__UNI_LINEBREAK);
}

int32_t uf__ustr_splitlines(uf__nrt_meminfo **frame, const uf__ustr *s,
                            int64_t keepends, void **out)
{
    uf__list *l = uf__list_new(frame, s->len + 1, 8);
    if (l == NULL)
        return UF__USTR_NOMEM;
    l->size = 0;
    int64_t i = 0, n = s->len;
    while (i < n) {
        int64_t j = i;
        while (i < n && !line_break(s->cp[i]))
            i++;
        int64_t eol = i;
        if (i < n) { /* \r\n is one break */
            if (i + 1 < n && s->cp[i] == '\r' && s->cp[i + 1] == '\n')
                i++;
            i++;
            if (keepends)
                eol = i;
        }
        if (push(frame, l, s, j, eol) != 0)
            return UF__USTR_NOMEM;
    }
    *out = l;
    return UF__USTR_OK;
}

/* expandtabs: each tab to spaces up to the next multiple of tabsize from
 * the line's start (none when tabsize <= 0). */
uf__ustr *uf__ustr_expandtabs(uf__nrt_meminfo **frame, const uf__ustr *s,
                              int64_t tabsize)
{
    int64_t len = 0, col = 0;
    for (int64_t k = 0; k < s->len; k++) {
        uint32_t c = s->cp[k];
        if (c == '\t') {
            if (tabsize > 0) {
                int64_t add = tabsize - col % tabsize;
                if (len > INT64_MAX / 8 - add)
                    return NULL;
                col += add, len += add;
            }
        } else {
            len++, col++;
            if (c == '\n' || c == '\r')
                col = 0;
        }
    }
    uf__ustr *r = uf__ustr_new(frame, len);
    if (r == NULL)
        return NULL;
    int64_t at = 0;
    col = 0;
    for (int64_t k = 0; k < s->len; k++) {
        uint32_t c = s->cp[k];
        if (c == '\t') {
            if (tabsize > 0) {
                int64_t add = tabsize - col % tabsize;
                for (int64_t m = 0; m < add; m++)
                    r->cp[at++] = ' ';
                col += add;
            }
        } else {
            r->cp[at++] = c;
            col++;
            if (c == '\n' || c == '\r')
                col = 0;
        }
    }
    return r;
}
