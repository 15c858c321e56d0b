/* Lookups over the generated tables of unicode_ident.c, and a strict
 * UTF-8 decoder (Python's: no overlong forms, no surrogates). */
#include <stddef.h>

#include "compiler/front/unicode_ident.h"

bool uf__cp_in(const uf__cp_range *r, int n, uint32_t cp)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (cp < r[mid].lo)
            hi = mid - 1;
        else if (cp > r[mid].hi)
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

int uf__utf8_decode(const char *s, size_t n, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n == 0)
        return 0;
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    }
    int len;
    uint32_t c, min;
    if (u[0] >= 0xC2 && u[0] <= 0xDF) {
        len = 2, c = u[0] & 0x1F, min = 0x80;
    } else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
        len = 3, c = u[0] & 0x0F, min = 0x800;
    } else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
        len = 4, c = u[0] & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < (size_t)len)
        return 0;
    for (int k = 1; k < len; k++) {
        if ((u[k] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (u[k] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return len;
}
