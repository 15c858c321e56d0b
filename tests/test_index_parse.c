/* uf_index_parse: NumPy's basic-indexing syntax as text. The expected
 * entries are what Python builds for a[<text>] (each checked by hand in
 * Python: a slice object's start/stop/step, an int, None, Ellipsis). */
#include "test_util.h"

#include "common/alloc.h"

#define S(...) {UF_INDEX_SLICE, __VA_ARGS__}
#define I(v) {UF_INDEX_INTEGER, true, false, false, (v), 0, 0}
#define NEW {UF_INDEX_NEWAXIS, false, false, false, 0, 0, 0}
#define ELL {UF_INDEX_ELLIPSIS, false, false, false, 0, 0, 0}
/* slice(start, stop, step) with "absent" parts */
#define SL(hs, s, he, e, hp, p) S(hs, he, hp, s, e, p)

static void test_valid(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *text;
        int n;
        uf_index want[5];
    } rows[] = {
        {LOC, "::2,1:-1", 2,
         {SL(0, 0, 0, 0, 1, 2), SL(1, 1, 1, -1, 0, 1)}},
        {LOC, "0", 1, {I(0)}},
        {LOC, "-1, ..., None", 3, {I(-1), ELL, NEW}},
        {LOC, ":, np.newaxis", 2, {SL(0, 0, 0, 0, 0, 1), NEW}},
        {LOC, "  :  ", 1, {SL(0, 0, 0, 0, 0, 1)}},
        {LOC, "::", 1, {SL(0, 0, 0, 0, 0, 1)}},
        {LOC, "1:2:", 1, {SL(1, 1, 1, 2, 0, 1)}},
        {LOC, "5:", 1, {SL(1, 5, 0, 0, 0, 1)}},
        {LOC, ":-1:-1", 1, {SL(0, 0, 1, -1, 1, -1)}},
        {LOC, "None:5:None", 1, {SL(0, 0, 1, 5, 0, 1)}},
        {LOC, "None : None", 1, {SL(0, 0, 0, 0, 0, 1)}},
        {LOC, "None", 1, {NEW}},
        {LOC, "numpy.newaxis,newaxis", 2, {NEW, NEW}},
        {LOC, "Ellipsis", 1, {ELL}},
        {LOC, "...,0", 2, {ELL, I(0)}},
        {LOC, "0,", 1, {I(0)}},
        {LOC, "0 , 1 ,", 2, {I(0), I(1)}},
        {LOC, "()", 0, {{0}}},
        {LOC, " ( ) ", 0, {{0}}},
        {LOC, "+3", 1, {I(3)}},
        {LOC, "- 4", 1, {I(-4)}},
        {LOC, "-0", 1, {I(0)}},
        {LOC, "007", 1, {I(7)}},
        {LOC, "\t1 ,\n2\r", 2, {I(1), I(2)}},
        {LOC, "-9223372036854775808", 1, {I(INT64_MIN)}},
        {LOC, "9223372036854775807", 1, {I(INT64_MAX)}},
        {LOC, "-3:+3:-9223372036854775808", 1,
         {SL(1, -3, 1, 3, 1, INT64_MIN)}},
        {LOC, "1:2:3, 4, ..., None, :", 5,
         {SL(1, 1, 1, 2, 1, 3), I(4), ELL, NEW, SL(0, 0, 0, 0, 0, 1)}},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_index got[8];
        int n = -1;
        uf_error err;
        memset(got, 0x5a, sizeof got);
        if (uf_index_parse(rows[r].text, got, 8, &n, &err) != 0)
            uf_fail_at(rows[r].file, rows[r].line, "\"%s\": %s",
                       rows[r].text, err.message);
        if (n != rows[r].n)
            uf_fail_at(rows[r].file, rows[r].line, "%d entries, want %d", n,
                       rows[r].n);
        for (int i = 0; i < n; i++) {
            const uf_index *g = &got[i], *w = &rows[r].want[i];
            if (g->kind != w->kind || g->has_start != w->has_start ||
                g->has_stop != w->has_stop || g->has_step != w->has_step ||
                (w->has_start && g->start != w->start) ||
                (w->has_stop && g->stop != w->stop) ||
                (w->has_step && g->step != w->step))
                uf_fail_at(rows[r].file, rows[r].line,
                           "entry %d: kind %d start %d/%lld stop %d/%lld "
                           "step %d/%lld", i, (int)g->kind, g->has_start,
                           (long long)g->start, g->has_stop,
                           (long long)g->stop, g->has_step,
                           (long long)g->step);
            /* absent parts read as 0, 0 and a step of 1 */
            if ((g->kind == UF_INDEX_SLICE &&
                 ((!g->has_start && g->start != 0) ||
                  (!g->has_stop && g->stop != 0) ||
                  (!g->has_step && g->step != 1))) ||
                (g->kind != UF_INDEX_SLICE && g->kind != UF_INDEX_INTEGER &&
                 (g->start | g->stop | g->step) != 0))
                uf_fail_at(rows[r].file, rows[r].line,
                           "entry %d: absent parts not zeroed", i);
        }
    }
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *text;
        int max;
        int code;
        const char *message;
    } rows[] = {
        {LOC, "", 8, UF_ERR_SYNTAX, "invalid index \"\": expected an index "
         "at position 0, found end of expression"},
        {LOC, "   ", 8, UF_ERR_SYNTAX, "invalid index \"   \": expected an "
         "index at position 3, found end of expression"},
        {LOC, "1,,2", 8, UF_ERR_SYNTAX, "invalid index \"1,,2\": expected an "
         "index at position 2, found ','"},
        {LOC, ",", 8, UF_ERR_SYNTAX, "invalid index \",\": expected an index "
         "at position 0, found ','"},
        {LOC, "0,,", 8, UF_ERR_SYNTAX, "invalid index \"0,,\": expected an "
         "index at position 2, found ','"},
        {LOC, "1:2:3:4", 8, UF_ERR_SYNTAX, "invalid index \"1:2:3:4\": "
         "expected ',' or end of expression at position 5, found ':'"},
        {LOC, "1 2", 8, UF_ERR_SYNTAX, "invalid index \"1 2\": expected ',' "
         "or end of expression at position 2, found '2'"},
        {LOC, "a", 8, UF_ERR_SYNTAX, "invalid index \"a\": expected an index "
         "at position 0, found 'a'"},
        {LOC, "1.5", 8, UF_ERR_SYNTAX, "invalid index \"1.5\": expected a "
         "decimal integer at position 1, found '.'"},
        {LOC, "0, 12x", 8, UF_ERR_SYNTAX, "invalid index \"0, 12x\": "
         "expected a decimal integer at position 5, found 'x'"},
        {LOC, "0x10", 8, UF_ERR_SYNTAX, "invalid index \"0x10\": expected a "
         "decimal integer at position 1, found 'x'"},
        {LOC, "-", 8, UF_ERR_SYNTAX, "invalid index \"-\": expected digits "
         "at position 1, found end of expression"},
        {LOC, "--1", 8, UF_ERR_SYNTAX, "invalid index \"--1\": expected "
         "digits at position 1, found '-'"},
        {LOC, "1:-None", 8, UF_ERR_SYNTAX, "invalid index \"1:-None\": "
         "expected digits at position 3, found 'N'"},
        {LOC, "Nonex", 8, UF_ERR_SYNTAX, "invalid index \"Nonex\": expected "
         "an index at position 0, found 'N'"},
        {LOC, "None None", 8, UF_ERR_SYNTAX, "invalid index \"None None\": "
         "expected ',' or end of expression at position 5, found 'N'"},
        {LOC, "np.newaxi", 8, UF_ERR_SYNTAX, "invalid index \"np.newaxi\": "
         "expected an index at position 0, found 'n'"},
        {LOC, "..", 8, UF_ERR_SYNTAX, "invalid index \"..\": expected an "
         "index at position 0, found '.'"},
        {LOC, "....", 8, UF_ERR_SYNTAX, "invalid index \"....\": expected "
         "',' or end of expression at position 3, found '.'"},
        {LOC, "(1, 2)", 8, UF_ERR_SYNTAX, "invalid index \"(1, 2)\": "
         "expected ')' (only the empty tuple \"()\" may be parenthesised) at "
         "position 1, found '1'"},
        {LOC, "(),", 8, UF_ERR_SYNTAX, "invalid index \"(),\": expected end "
         "of expression at position 2, found ','"},
        {LOC, "[0]", 8, UF_ERR_SYNTAX, "invalid index \"[0]\": expected an "
         "index at position 0, found '['"},
        {LOC, "0\x01", 8, UF_ERR_SYNTAX, "invalid index \"0\x01\": expected "
         "',' or end of expression at position 1, found byte 0x01"},
        {LOC, "9223372036854775808", 8, UF_ERR_SYNTAX, "invalid index "
         "\"9223372036854775808\": the integer at position 0 does not fit in "
         "64 bits"},
        {LOC, ": -9223372036854775809", 8, UF_ERR_SYNTAX, "invalid index \": "
         "-9223372036854775809\": the integer at position 2 does not fit in "
         "64 bits"},
        {LOC, "0, 0, 0", 2, UF_ERR_INVALID, "invalid index \"0, 0, 0\": more "
         "than 2 entries (entry at position 6)"},
        {LOC, "0", 0, UF_ERR_INVALID, "invalid index \"0\": more than 0 "
         "entries (entry at position 0)"},
    };
    long live = uf__alloc_live();
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_index got[8];
        int n = 77;
        uf_error err;
        int rc = uf_index_parse(rows[r].text, got, rows[r].max, &n, &err);
        if (rc != rows[r].code || err.code != rows[r].code ||
            strcmp(err.message, rows[r].message) != 0)
            uf_fail_at(rows[r].file, rows[r].line, "\"%s\": %d %s: %s",
                       rows[r].text, rc, uf_err_name(err.code), err.message);
        if (n != 0)
            uf_fail_at(rows[r].file, rows[r].line, "*n is %d after an error",
                       n);
    }
    assert_int_equal(uf__alloc_live(), live);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    uf_index ix[2];
    int n;
    uf_error err;
    assert_int_equal(uf_index_parse(NULL, ix, 2, &n, &err), UF_ERR_INVALID);
    assert_int_equal(n, 0);
    assert_int_equal(uf_index_parse("0", NULL, 2, &n, &err), UF_ERR_INVALID);
    assert_int_equal(uf_index_parse("0", ix, 2, NULL, &err), UF_ERR_INVALID);
    assert_int_equal(uf_index_parse("0", ix, -1, &n, &err), UF_ERR_INVALID);
    /* max 0 with no room is fine for an empty index */
    assert_int_equal(uf_index_parse("()", NULL, 0, &n, &err), 0);
    assert_int_equal(n, 0);
    /* a NULL err is allowed */
    assert_int_equal(uf_index_parse("1:", ix, 2, &n, NULL), 0);
    assert_int_equal(uf_index_parse("1::0:", ix, 2, &n, NULL), UF_ERR_SYNTAX);
}

/* A long expression: the position in the message is the real offset, and
 * a very long text is cut in the message instead of overflowing it. */
static void test_long_expression(void **state)
{
    (void)state;
    char text[4096];
    size_t len = 0;
    for (int i = 0; i < 300; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%d",
                                i ? ", " : "", i % 10);
    uf_index ix[300];
    int n;
    uf_error err;
    assert_int_equal(uf_index_parse(text, ix, 300, &n, &err), 0);
    assert_int_equal(n, 300);
    assert_int_equal(ix[299].start, 9);
    snprintf(text + len, sizeof text - len, ", x");
    assert_int_equal(uf_index_parse(text, ix, 300, &n, &err), UF_ERR_SYNTAX);
    char want[64];
    snprintf(want, sizeof want, "at position %zu, found 'x'", len + 2);
    if (strstr(err.message, want) == NULL)
        fail_msg("%s (want \"%s\")", err.message, want);
    assert_true(strlen(err.message) < sizeof err.message - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_long_expression),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
