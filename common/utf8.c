/* UTF-8 both ways (common/utf8.h). */
#include "common/utf8.h"

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

int uf__utf8_put(uint32_t c, char *out)
{
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}
