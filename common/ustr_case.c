/* Case mapping and character classes of run-time strings (common/ustr.h's
 * upper ... casefold, isalpha ... isascii), with Numba's rules, which are
 * CPython 3.7's: full mappings ('ß'.upper() == 'SS'), the final-sigma
 * rule of lower(), title() by cased characters, capitalize() by title
 * case. Code points below 128 take an inline path; the rest read the
 * records of common/ustr_unicode.h. */
#include <string.h>

#include "common/ustr.h"
#include "common/ustr_unicode.h"

static bool ascii_upper(uint32_t c) { return c - 'A' < 26; }
static bool ascii_lower(uint32_t c) { return c - 'a' < 26; }

static bool is_cased(uint32_t c)
{
    return c < 128 ? ascii_upper(c) || ascii_lower(c)
                   : uf__uni_is(c, UF__UNI_CASED);
}

static bool is_upper(uint32_t c)
{
    return c < 128 ? ascii_upper(c) : uf__uni_is(c, UF__UNI_UPPER);
}

static bool is_lower(uint32_t c)
{
    return c < 128 ? ascii_lower(c) : uf__uni_is(c, UF__UNI_LOWER);
}

static bool is_title(uint32_t c)
{
    return c >= 128 && uf__uni_is(c, UF__UNI_TITLE);
}

static bool ignorable(uint32_t c)
{
    return c < 128 ? c == '\'' || c == '.' || c == ':' || c == '^' ||
                         c == '`'
                   : uf__uni_is(c, UF__UNI_CASE_IGNORABLE);
}

/* U+03A3 at k lowers to final sigma when a cased character comes before
 * it and none after, case-ignorable ones skipped (CPython's
 * handle_capital_sigma). */
static uint32_t capital_sigma(const uf__ustr *s, int64_t k)
{
    int64_t j = k - 1;
    while (j >= 0 && ignorable(s->cp[j]))
        j--;
    if (j < 0 || !is_cased(s->cp[j]))
        return 0x3C3;
    j = k + 1;
    while (j < s->len && ignorable(s->cp[j]))
        j++;
    return j == s->len || !is_cased(s->cp[j]) ? 0x3C2 : 0x3C3;
}

enum { MAP_UPPER, MAP_LOWER, MAP_TITLE, MAP_FOLD, MAP_SAME };

/* Mapping m of s[k] into out: the count. */
static int map_at(const uf__ustr *s, int64_t k, int m, uint32_t out[3])
{
    uint32_t c = s->cp[k];
    if (c < 128) {
        if (m == MAP_LOWER || m == MAP_FOLD)
            out[0] = ascii_upper(c) ? c + 32 : c;
        else if (m != MAP_SAME)
            out[0] = ascii_lower(c) ? c - 32 : c;
        else
            out[0] = c;
        return 1;
    }
    switch (m) {
    case MAP_UPPER: return uf__uni_upper(c, out);
    case MAP_LOWER:
        if (c == 0x3A3) {
            out[0] = capital_sigma(s, k);
            return 1;
        }
        return uf__uni_lower(c, out);
    case MAP_TITLE: return uf__uni_title(c, out);
    case MAP_FOLD: return uf__uni_fold(c, out);
    default: out[0] = c; return 1;
    }
}

/* The mapping op applies to s[k] (previous: whether the character before
 * it is cased, for title). */
static int which_map(int32_t op, const uf__ustr *s, int64_t k,
                     bool previous)
{
    uint32_t c = s->cp[k];
    switch (op) {
    case UF__USTR_OP_UPPER: return MAP_UPPER;
    case UF__USTR_OP_LOWER: return MAP_LOWER;
    case UF__USTR_OP_CASEFOLD: return MAP_FOLD;
    case UF__USTR_OP_CAPITALIZE: return k == 0 ? MAP_TITLE : MAP_LOWER;
    case UF__USTR_OP_TITLE: return previous ? MAP_LOWER : MAP_TITLE;
    default: /* swapcase */
        return is_upper(c) ? MAP_LOWER : is_lower(c) ? MAP_UPPER : MAP_SAME;
    }
}

/* Maps s by op into r (NULL: only counts): the length of the result. */
static int64_t map_all(const uf__ustr *s, int32_t op, uf__ustr *r)
{
    int64_t n = 0;
    bool previous = false;
    for (int64_t k = 0; k < s->len; k++) {
        uint32_t out[3];
        int m = map_at(s, k, which_map(op, s, k, previous), out);
        if (r != NULL)
            memcpy(r->cp + n, out, 4 * (size_t)m);
        n += m;
        previous = is_cased(s->cp[k]);
    }
    return n;
}

/* All of s below 128: one pass, one character each, no tables. */
static void map_ascii(const uf__ustr *s, int32_t op, uf__ustr *r)
{
    bool previous = false;
    for (int64_t k = 0; k < s->len; k++) {
        uint32_t c = s->cp[k];
        bool up = ascii_upper(c), low = ascii_lower(c);
        bool to_upper;
        switch (op) {
        case UF__USTR_OP_UPPER: to_upper = true; break;
        case UF__USTR_OP_LOWER: case UF__USTR_OP_CASEFOLD:
            to_upper = false;
            break;
        case UF__USTR_OP_CAPITALIZE: to_upper = k == 0; break;
        case UF__USTR_OP_TITLE: to_upper = !previous; break;
        default: to_upper = low; break; /* swapcase */
        }
        r->cp[k] = to_upper ? (low ? c - 32 : c) : (up ? c + 32 : c);
        previous = up || low;
    }
}

static bool all_ascii(const uf__ustr *s)
{
    uint32_t any = 0;
    for (int64_t k = 0; k < s->len; k++)
        any |= s->cp[k];
    return any < 128;
}

uf__ustr *uf__ustr_case(uf__nrt_meminfo **frame, const uf__ustr *s,
                        int32_t op)
{
    if (all_ascii(s)) {
        uf__ustr *r = uf__ustr_new(frame, s->len);
        if (r != NULL)
            map_ascii(s, op, r);
        return r;
    }
    uf__ustr *r = uf__ustr_new(frame, map_all(s, op, NULL));
    if (r != NULL)
        map_all(s, op, r);
    return r;
}

/* isupper / islower (CPython's rule, Numba's single-character case):
 * one cased character of the kind and none of the other kinds. */
static bool one_case(const uf__ustr *s, bool upper)
{
    if (s->len == 1)
        return upper ? is_upper(s->cp[0]) : is_lower(s->cp[0]);
    bool cased = false;
    for (int64_t k = 0; k < s->len; k++) {
        uint32_t c = s->cp[k];
        if ((upper ? is_lower(c) : is_upper(c)) || is_title(c))
            return false;
        cased |= upper ? is_upper(c) : is_lower(c);
    }
    return cased;
}

/* istitle: upper or title case only after uncased characters, lower case
 * only after cased ones, and at least one cased character. */
static bool title_case(const uf__ustr *s)
{
    bool cased = false, previous = false;
    for (int64_t k = 0; k < s->len; k++) {
        uint32_t c = s->cp[k];
        if (is_upper(c) || is_title(c)) {
            if (previous)
                return false;
            previous = cased = true;
        } else if (is_lower(c)) {
            if (!previous)
                return false;
            previous = cased = true;
        } else {
            previous = false;
        }
    }
    return cased;
}

static bool identifier(const uf__ustr *s)
{
    if (s->len == 0)
        return false;
    uint32_t c = s->cp[0];
    if (c != '_' && !(c < 128 ? ascii_upper(c) || ascii_lower(c)
                              : uf__uni_is(c, UF__UNI_XID_START)))
        return false;
    for (int64_t k = 1; k < s->len; k++) {
        c = s->cp[k];
        if (!(c < 128 ? ascii_upper(c) || ascii_lower(c) || c == '_' ||
                            c - '0' < 10
                      : uf__uni_is(c, UF__UNI_XID_CONTINUE)))
            return false;
    }
    return true;
}

/* The flags a class needs of every character. */
static unsigned class_mask(int32_t op)
{
    switch (op) {
    case UF__USTR_OP_ISALPHA: return UF__UNI_ALPHA;
    case UF__USTR_OP_ISALNUM: return UF__UNI_ALPHA | UF__UNI_NUMERIC;
    case UF__USTR_OP_ISDIGIT: return UF__UNI_DIGIT;
    case UF__USTR_OP_ISDECIMAL: return UF__UNI_DECIMAL;
    case UF__USTR_OP_ISNUMERIC: return UF__UNI_NUMERIC;
    case UF__USTR_OP_ISSPACE: return UF__UNI_SPACE;
    default: return UF__UNI_PRINTABLE;
    }
}

/* Class op of an ASCII character, without the tables. */
static bool ascii_class(uint32_t c, int32_t op)
{
    bool letter = ascii_upper(c) || ascii_lower(c), digit = c - '0' < 10;
    switch (op) {
    case UF__USTR_OP_ISALPHA: return letter;
    case UF__USTR_OP_ISALNUM: return letter || digit;
    case UF__USTR_OP_ISSPACE:
        return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
    case UF__USTR_OP_ISPRINTABLE: return c >= 0x20 && c < 0x7F;
    default: return digit; /* isdigit, isdecimal, isnumeric */
    }
}

int64_t uf__ustr_class(const uf__ustr *s, int32_t op)
{
    switch (op) {
    case UF__USTR_OP_ISUPPER: return one_case(s, true);
    case UF__USTR_OP_ISLOWER: return one_case(s, false);
    case UF__USTR_OP_ISTITLE: return title_case(s);
    case UF__USTR_OP_ISIDENTIFIER: return identifier(s);
    case UF__USTR_OP_ISASCII:
        for (int64_t k = 0; k < s->len; k++)
            if (s->cp[k] >= 128)
                return 0;
        return 1;
    default: break;
    }
    if (s->len == 0) /* ''.isprintable() is True */
        return op == UF__USTR_OP_ISPRINTABLE;
    uint32_t c0 = s->cp[0];
    if (s->len == 1 && c0 < 128 &&
        (op == UF__USTR_OP_ISALPHA || op == UF__USTR_OP_ISALNUM))
        /* Numba gives CPython's pyctype bits for one ASCII character:
         * lower 1, upper 2, digit 4 */
        return ascii_lower(c0) ? 1 : ascii_upper(c0) ? 2
               : op == UF__USTR_OP_ISALNUM && c0 - '0' < 10 ? 4 : 0;
    unsigned mask = class_mask(op);
    for (int64_t k = 0; k < s->len; k++) {
        uint32_t c = s->cp[k];
        if (!(c < 128 ? ascii_class(c, op) : uf__uni_is(c, mask)))
            return 0;
    }
    return 1;
}
