/* Per-code-point Unicode properties of run-time strings (common/ustr.h):
 * case mappings and the classes behind str.upper() ... str.isidentifier().
 * The records are Numba's (CPython 3.7's layout and Unicode 11.0 data,
 * generated into common/ustr_unicode_tables.c by
 * scripts/gen-ustr-unicode-tables.py), so answers match Numba's, which can
 * differ from the running Python's for characters added since Unicode 11.
 * Code points below 128 never need the tables (common/ustr_case.c keeps an
 * ASCII fast path). */
#ifndef UF_COMMON_USTR_UNICODE_H
#define UF_COMMON_USTR_UNICODE_H

#include <stdbool.h>
#include <stdint.h>

/* CPython's _PyUnicode_TypeRecord: upper/lower/title are deltas to the
 * code point, or with UF__UNI_EXTENDED offsets into uf__uni_ext_case
 * (bits 0-15 the offset, 24-31 the count; lower's bits 20-22 the count of
 * the case folding that follows lower's code points). */
typedef struct uf__uni_record {
    int32_t upper, lower, title;
    uint8_t decimal, digit;
    uint16_t flags;
} uf__uni_record;

enum {
    UF__UNI_ALPHA = 0x01,
    UF__UNI_DECIMAL = 0x02,
    UF__UNI_DIGIT = 0x04,
    UF__UNI_LOWER = 0x08,
    UF__UNI_LINEBREAK = 0x10,
    UF__UNI_SPACE = 0x20,
    UF__UNI_TITLE = 0x40,
    UF__UNI_UPPER = 0x80,
    UF__UNI_XID_START = 0x100,
    UF__UNI_XID_CONTINUE = 0x200,
    UF__UNI_PRINTABLE = 0x400,
    UF__UNI_NUMERIC = 0x800,
    UF__UNI_CASE_IGNORABLE = 0x1000,
    UF__UNI_CASED = 0x2000,
    UF__UNI_EXTENDED = 0x4000
};

/* The record of c (c > 0x10FFFF: the record of unassigned points). */
const uf__uni_record *uf__uni_get(uint32_t c);
extern const uint32_t *const uf__uni_ext_case;

/* Flags of c: whether any of `mask` is set. */
static inline bool uf__uni_is(uint32_t c, unsigned mask)
{
    return (uf__uni_get(c)->flags & mask) != 0;
}

/* The full mappings of c into out (room for 3): the count written. */
int uf__uni_upper(uint32_t c, uint32_t out[3]);
int uf__uni_lower(uint32_t c, uint32_t out[3]);
int uf__uni_title(uint32_t c, uint32_t out[3]);
int uf__uni_fold(uint32_t c, uint32_t out[3]);

#endif
