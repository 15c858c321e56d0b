/* The Unicode records of run-time strings (common/ustr_unicode.h, the
 * generated common/ustr_unicode_tables.c) against what Numba answers
 * (tests/ustr_unicode_expect.h, written by scripts/gen-ustr-unicode-
 * tables.py from Numba's str methods on one-character strings): every
 * code point 0..0x10FFFF is looked up, and those of the sample (all below
 * U+0250, every one with a multi-character mapping, one in 397 past that)
 * must give Numba's classes and full upper / lower / title / casefold
 * mappings. Also: the classes' implications at every code point, and the
 * lookup past 0x10FFFF. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/ustr_unicode.h"
#include "test_util.h"
#include "ustr_unicode_expect.h"

enum {
    E_ALPHA, E_DECIMAL, E_DIGIT, E_NUMERIC, E_SPACE, E_PRINTABLE,
    E_IDENT, E_UPPER, E_LOWER, E_TITLE, E_ALNUM, E_CASED, E_IGNORABLE,
    E_XIDCONT
};

/* The classes of one code point, as str.isX() of a one-character string
 * computes them from the record (Numba's unicode.py). */
static unsigned flags_of(uint32_t c)
{
    unsigned f = uf__uni_get(c)->flags, r = 0;
    r |= (unsigned)((f & UF__UNI_ALPHA) != 0) << E_ALPHA;
    r |= (unsigned)((f & UF__UNI_DECIMAL) != 0) << E_DECIMAL;
    r |= (unsigned)((f & UF__UNI_DIGIT) != 0) << E_DIGIT;
    r |= (unsigned)((f & UF__UNI_NUMERIC) != 0) << E_NUMERIC;
    r |= (unsigned)((f & UF__UNI_SPACE) != 0) << E_SPACE;
    r |= (unsigned)((f & UF__UNI_PRINTABLE) != 0) << E_PRINTABLE;
    r |= (unsigned)((f & UF__UNI_XID_START) != 0 || c == '_') << E_IDENT;
    r |= (unsigned)((f & UF__UNI_UPPER) != 0) << E_UPPER;
    r |= (unsigned)((f & UF__UNI_LOWER) != 0) << E_LOWER;
    r |= (unsigned)((f & (UF__UNI_UPPER | UF__UNI_TITLE)) != 0) << E_TITLE;
    r |= (unsigned)((f & (UF__UNI_ALPHA | UF__UNI_NUMERIC)) != 0)
         << E_ALNUM;
    r |= (unsigned)((f & UF__UNI_CASED) != 0) << E_CASED;
    r |= (unsigned)((f & UF__UNI_CASE_IGNORABLE) != 0) << E_IGNORABLE;
    r |= (unsigned)((f & UF__UNI_XID_CONTINUE) != 0) << E_XIDCONT;
    return r;
}

typedef int (*mapping)(uint32_t, uint32_t[3]);

/* Mapping m of c equals want (all zero: c itself). */
static bool same_map(mapping m, uint32_t c, const uint32_t want[3])
{
    uint32_t got[3] = {0, 0, 0};
    int n = m(c, got);
    if (want[0] == 0)
        return n == 1 && got[0] == c;
    int wn = want[2] ? 3 : want[1] ? 2 : 1;
    if (n != wn)
        return false;
    for (int k = 0; k < n; k++)
        if (got[k] != want[k])
            return false;
    return true;
}

static void test_sample(void **state)
{
    (void)state;
    static const mapping maps[4] = {uf__uni_upper, uf__uni_lower,
                                    uf__uni_title, uf__uni_fold};
    size_t n = sizeof uni_expect / sizeof uni_expect[0], next = 0;
    int bad = 0;
    assert_true(n > 3000);
    for (uint32_t c = 0; c <= 0x10FFFF; c++) {
        const uf__uni_record *r = uf__uni_get(c);
        assert_non_null(r);
        if (next >= n || uni_expect[next].cp != c)
            continue;
        const struct uni_expect *x = &uni_expect[next++];
        unsigned got = flags_of(c);
        if (got != x->flags && bad++ < 10)
            fprintf(stderr, "U+%04X: classes 0x%X, Numba 0x%X\n",
                    (unsigned)c, got, (unsigned)x->flags);
        for (int m = 0; m < 4; m++)
            if (!same_map(maps[m], c, x->map[m]) && bad++ < 10)
                fprintf(stderr, "U+%04X: mapping %d differs from Numba's\n",
                        (unsigned)c, m);
    }
    assert_int_equal(next, n); /* the sample is sorted and all visited */
    assert_int_equal(bad, 0);
}

/* decimal => digit => numeric, upper/lower/title => cased, a digit's
 * value below 10; and the record of an unassigned point past the end. */
static void test_every_point(void **state)
{
    (void)state;
    int64_t cased = 0, decimal = 0;
    for (uint32_t c = 0; c <= 0x10FFFF; c++) {
        const uf__uni_record *r = uf__uni_get(c);
        unsigned f = r->flags;
        if (f & UF__UNI_DECIMAL) {
            assert_true(f & UF__UNI_DIGIT);
            assert_true(r->decimal < 10);
            decimal++;
        }
        if (f & UF__UNI_DIGIT)
            assert_true(f & UF__UNI_NUMERIC);
        if (f & (UF__UNI_UPPER | UF__UNI_LOWER | UF__UNI_TITLE))
            assert_true(f & UF__UNI_CASED);
        cased += (f & UF__UNI_CASED) != 0;
        uint32_t out[3];
        int n = uf__uni_upper(c, out);
        assert_true(n >= 1 && n <= 3 && out[0] <= 0x10FFFF);
        n = uf__uni_fold(c, out);
        assert_true(n >= 1 && n <= 3 && out[0] <= 0x10FFFF);
    }
    /* Numba's Unicode 11.0 counts (Python 3.11's 14.0 has 660 decimal
     * digits) */
    fprintf(stderr, "decimal %lld cased %lld\n", (long long)decimal,
            (long long)cased);
    assert_int_equal(decimal, 610);
    assert_int_equal(cased, 4266);
    assert_int_equal(uf__uni_get(0x110000)->flags, 0);
    assert_int_equal(uf__uni_get(0xFFFFFFFFu)->flags, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample),
        cmocka_unit_test(test_every_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
