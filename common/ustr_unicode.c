/* The full case mappings of one code point (common/ustr_unicode.h), as
 * CPython's _PyUnicode_To*Full read its type records. */
#include "common/ustr_unicode.h"

/* Mapping `v` of record r of c: a delta, or (extended) a count in bits
 * 24-31 and an offset in bits 0-15 of uf__uni_ext_case. */
static int mapped(const uf__uni_record *r, uint32_t c, int32_t v,
                  uint32_t out[3])
{
    if (!(r->flags & UF__UNI_EXTENDED)) {
        out[0] = (uint32_t)((int32_t)c + v);
        return 1;
    }
    int n = (int)((uint32_t)v >> 24), at = v & 0xFFFF;
    for (int k = 0; k < n && k < 3; k++)
        out[k] = uf__uni_ext_case[at + k];
    return n < 3 ? n : 3;
}

int uf__uni_upper(uint32_t c, uint32_t out[3])
{
    const uf__uni_record *r = uf__uni_get(c);
    return mapped(r, c, r->upper, out);
}

int uf__uni_lower(uint32_t c, uint32_t out[3])
{
    const uf__uni_record *r = uf__uni_get(c);
    return mapped(r, c, r->lower, out);
}

int uf__uni_title(uint32_t c, uint32_t out[3])
{
    const uf__uni_record *r = uf__uni_get(c);
    return mapped(r, c, r->title, out);
}

/* Case folding follows lower's code points in the extended array when it
 * differs from lower (count in bits 20-22 of lower). */
int uf__uni_fold(uint32_t c, uint32_t out[3])
{
    const uf__uni_record *r = uf__uni_get(c);
    int n = (r->lower >> 20) & 7;
    if (!(r->flags & UF__UNI_EXTENDED) || n == 0)
        return mapped(r, c, r->lower, out);
    int at = (r->lower & 0xFFFF) + (int)((uint32_t)r->lower >> 24);
    for (int k = 0; k < n && k < 3; k++)
        out[k] = uf__uni_ext_case[at + k];
    return n < 3 ? n : 3;
}
