/* String arguments of njit functions (njit/njit_call.c, ndarray/
 * array_str.c): uf_array_from_utf8 / uf_array_from_ucs4 make a 1-D uint32
 * array of code points flagged UF_ARRAY_STRING, which types as Numba's
 * unicode_type; a returned string comes back flagged the same way and
 * uf_array_utf8 gives its text. Values against Python's (len, count,
 * upper, slicing, dict keys, concatenation), the argument itself returned
 * (copied out: the kernel's copy dies with the call), declared
 * signatures, a non-contiguous view of code points, bad UTF-8 and code
 * points, 10^5 calls leaving nothing behind, out of memory at every
 * allocation. */
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "from numba import njit\n"
    "@njit\n"
    "def info(s, c):\n"
    "    return len(s), s.count(c), s.upper(), s[1:-1]\n"
    "@njit\n"
    "def same(s):\n"
    "    return s\n"
    "@njit\n"
    "def words(s):\n"
    "    d = {}\n"
    "    for w in s.split():\n"
    "        if w in d:\n"
    "            d[w] += 1\n"
    "        else:\n"
    "            d[w] = 1\n"
    "    return d[s.split()[0]], len(d)\n"
    "@njit\n"
    "def join(a, n, b):\n"
    "    return a + str(n) + b\n"
    "@njit('int64(unicode_type)')\n"
    "def declared(s):\n"
    "    return len(s) * 10\n"
    "@njit\n"
    "def num(x):\n"
    "    return x + 1\n";

static uf_module *load(uf_context **ctx, uf_error *err)
{
    *ctx = uf_context_new(err);
    uf_assert_ok(*ctx != NULL, err);
    uf_module *mod = uf_module_from_string(*ctx, "strarg.py", src, err);
    uf_assert_ok(mod != NULL, err);
    return mod;
}

static uf_array *str(const char *s)
{
    uf_error err;
    uf_array *a = uf_array_from_utf8(s, strlen(s), &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

static void expect_text(uf_array *a, const char *want)
{
    uf_error err;
    assert_true(uf_array_flags(a) & UF_ARRAY_STRING);
    size_t n = 0;
    char *t = uf_array_utf8(a, &n, &err);
    uf_assert_ok(t != NULL, &err);
    assert_string_equal(t, want);
    assert_int_equal(n, strlen(want));
    uf_free(t);
}

static int64_t i64_of(uf_array *a)
{
    return *(int64_t *)uf_array_data(a);
}

static void test_values(void **state)
{
    (void)state;
    uf_error err;
    long live = uf__alloc_live(), nrt = uf__nrt_live();
    uf_context *ctx;
    uf_module *mod = load(&ctx, &err);
    /* 'straße ß' (non-ASCII: upper() gives SS): Python's answers */
    uf_array *in[3] = {str("stra\xc3\x9f" "e \xc3\x9f"), str("\xc3\x9f")};
    uf_array *out[4] = {NULL};
    uf_func *f = uf_module_get(mod, "info", &err);
    uf_assert_ok(uf_call(f, in, 2, out, 4, NULL, &err) == 0, &err);
    assert_int_equal(i64_of(out[0]), 8);
    assert_int_equal(i64_of(out[1]), 2);
    expect_text(out[2], "STRASSE SS");
    expect_text(out[3], "tra\xc3\x9f" "e ");
    assert_string_equal(uf_func_result_tree(f), "(0, 1, str(2), str(3))");
    for (int k = 0; k < 4; k++)
        uf_array_release(out[k]);
    /* the argument returned: copied out (the kernel's copy is gone) */
    f = uf_module_get(mod, "same", &err);
    uf_array *r = NULL;
    uf_assert_ok(uf_call(f, in, 1, &r, 1, NULL, &err) == 0, &err);
    expect_text(r, "stra\xc3\x9f" "e \xc3\x9f");
    assert_ptr_not_equal(uf_array_data(r), uf_array_data(in[0]));
    uf_array_release(r);
    /* strings as dict keys (hashes computed in the kernel's copy) */
    f = uf_module_get(mod, "words", &err);
    uf_array *w = str("a b a c a"), *wo[2] = {NULL};
    uf_assert_ok(uf_call(f, &w, 1, wo, 2, NULL, &err) == 0, &err);
    assert_int_equal(i64_of(wo[0]), 3);
    assert_int_equal(i64_of(wo[1]), 3);
    uf_array_release(wo[0]);
    uf_array_release(wo[1]);
    uf_array_release(w);
    /* mixed with a number; the empty string */
    f = uf_module_get(mod, "join", &err);
    int64_t seven = 7;
    uf_array *j[3] = {str(""), uf_full(UF_INT64, 0, NULL, &seven, UF_INT64,
                                       UF_ORDER_C, &err),
                      str("\xf0\x9f\x98\x80")};
    r = NULL;
    uf_assert_ok(uf_call(f, j, 3, &r, 1, NULL, &err) == 0, &err);
    expect_text(r, "7\xf0\x9f\x98\x80");
    uf_array_release(r);
    for (int k = 0; k < 3; k++)
        uf_array_release(j[k]);
    /* a declared unicode_type signature takes it; a number does not */
    f = uf_module_get(mod, "declared", &err);
    r = NULL;
    uf_assert_ok(uf_call(f, in, 1, &r, 1, NULL, &err) == 0, &err);
    assert_int_equal(i64_of(r), 80);
    uf_array_release(r);
    r = NULL;
    uf_array *n = uf_full(UF_INT64, 0, NULL, &seven, UF_INT64, UF_ORDER_C,
                          &err);
    assert_int_equal(uf_call(f, &n, 1, &r, 1, NULL, &err), UF_ERR_TYPE);
    assert_non_null(strstr(err.message, "no signature matching"));
    uf_array_release(n);
    /* a string where a number is wanted: the typing error names both */
    f = uf_module_get(mod, "num", &err);
    assert_int_not_equal(uf_call(f, in, 1, &r, 1, NULL, &err), 0);
    assert_non_null(strstr(err.message, "unicode_type"));
    assert_null(r);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
    uf_module_free(mod);
    uf_context_free(ctx);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

/* The constructors and uf_array_utf8 on their own. */
static void test_arrays(void **state)
{
    (void)state;
    uf_error err;
    /* bad UTF-8: overlong, a surrogate, truncated, past U+10FFFF */
    static const char *const bad[] = {"a\xc0\xaf", "\xed\xa0\x80",
                                      "ab\xe4\xb8", "\xf4\x90\x80\x80"};
    for (int k = 0; k < 4; k++) {
        assert_null(uf_array_from_utf8(bad[k], strlen(bad[k]), &err));
        assert_int_equal(err.code, UF_ERR_VALUE);
        assert_non_null(strstr(err.message, "not valid UTF-8"));
    }
    assert_non_null(strstr(err.message, "at byte 0"));
    /* code points: a lone surrogate is a Python str's, past 0x10FFFF is
     * no character; neither has a UTF-8 form */
    uint32_t cp[3] = {'x', 0xD800, 0x110000};
    assert_null(uf_array_from_ucs4(cp, 3, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "code point 2"));
    uf_array *s = uf_array_from_ucs4(cp, 2, &err);
    uf_assert_ok(s != NULL, &err);
    assert_int_equal(uf_array_dtype(s), UF_UINT32);
    assert_int_equal(uf_array_shape(s)[0], 2);
    assert_null(uf_array_utf8(s, NULL, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    /* a view is a plain array; uf_array_utf8 reads any 1-D uint32 */
    uf_array *v = uf_array_slice(s, "::-1", &err);
    uf_assert_ok(v != NULL, &err);
    assert_false(uf_array_flags(v) & UF_ARRAY_STRING);
    uf_array_release(v);
    uf_array_release(s);
    uf_array *e = uf_array_from_utf8("", 0, &err);
    uf_assert_ok(e != NULL, &err);
    expect_text(e, "");
    uf_array_release(e);
    /* not code points */
    uf_array *f = uf_zeros(UF_FLOAT64, 1, (int64_t[]){2}, UF_ORDER_C, &err);
    assert_null(uf_array_utf8(f, NULL, &err));
    assert_int_equal(err.code, UF_ERR_TYPE);
    uf_array_release(f);
}

/* 10^5 calls with string arguments and results: no block or allocation
 * outlives its call; out of memory at each allocation of one. */
static void test_many_calls(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx;
    uf_module *mod = load(&ctx, &err);
    uf_func *f = uf_module_get(mod, "info", &err);
    uf_array *in[2] = {str("hello world"), str("o")};
    uf_array *out[4] = {NULL};
    uf_assert_ok(uf_call(f, in, 2, out, 4, NULL, &err) == 0, &err);
    for (int k = 0; k < 4; k++) {
        uf_array_release(out[k]);
        out[k] = NULL;
    }
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 100000; i++) {
        uf_assert_ok(uf_call(f, in, 2, out, 4, NULL, &err) == 0, &err);
        assert_int_equal(i64_of(out[1]), 2);
        for (int k = 0; k < 4; k++) {
            uf_array_release(out[k]);
            out[k] = NULL;
        }
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    /* out of memory at each allocation of a call: UF_ERR_NOMEM, nothing
     * left behind (the argument's copy included) */
    int failures = 0;
    for (long k = 1; k < 200; k++) {
        uf__alloc_fail_at(k);
        int rc = uf_call(f, in, 2, out, 4, NULL, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (rc == 0) {
            expect_text(out[2], "HELLO WORLD");
            for (int j = 0; j < 4; j++) {
                uf_array_release(out[j]);
                out[j] = NULL;
            }
            if (!failed)
                break;
            continue;
        }
        failures++;
        assert_int_equal(err.code, UF_ERR_NOMEM);
        for (int j = 0; j < 4; j++)
            assert_null(out[j]);
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(failures >= 3);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
    uf_module_free(mod);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_arrays),
        cmocka_unit_test(test_many_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
