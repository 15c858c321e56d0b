/* Run-time strings in kernels (Numba's unicode_type: common/ustr.c,
 * compiler/types/infer_ustr.c, compiler/lower/lower_ustr.c) through the C
 * API, for what the Numba oracle does not reach: a returned string as
 * uf_call gives it (a 1-D uint32 array of code points, "str(k)" in the
 * result tree) for the empty string and characters of 1, 2, 3 and 4
 * UTF-8 bytes; negative indices and the IndexError status; 10^5 calls
 * that make strings leaving no NRT block behind; out of memory at every
 * allocation of a concatenation loop giving UF_ERR_NOMEM with nothing
 * leaked; the refusals at file:line:col. */
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "from numba import njit, prange\n"                      /* 1 */
    "@njit\n"                                               /* 2 */
    "def pick(i):\n"                                        /* 3 */
    "    s = '' if i == 99 else 'a\\u00e9\\u4e2d\\U0001f600'\n" /* 4 */
    "    if i == 99:\n"                                     /* 5 */
    "        return s, 0\n"                                 /* 6 */
    "    return s[i] + s, len(s)\n"                         /* 7 */
    "@njit\n"                                               /* 8 */
    "def grow(n):\n"                                        /* 9 */
    "    s = ''\n"                                          /* 10 */
    "    for i in range(n):\n"                              /* 11 */
    "        s += str(i) + ','\n"                           /* 12 */
    "    return len(s)\n"                                   /* 13 */
    "@njit(parallel=True)\n"                                /* 14 */
    "def par(n):\n"                                         /* 15 */
    "    r = 0\n"                                           /* 16 */
    "    for i in prange(n):\n"                             /* 17 */
    "        r += len(str(i))\n"                            /* 18 */
    "    return r\n"                                        /* 19 */
    "@njit\n"                                               /* 20 */
    "def fmt(n):\n"                                         /* 21 */
    "    return '%d' % n\n"                                 /* 22 */
    "@njit\n"                                               /* 23 */
    "def up(i):\n"                                          /* 24 */
    "    s = 'a\\u3000b' if i > 0 else '\\u00e9'\n"          /* 25 */
    "    return s.upper().center(5, '.')\n"                /* 26 */
    "from numba import cuda\n"                             /* 27 */
    "@cuda.jit('void(float64[:])')\n"                      /* 28 */
    "def dev(x):\n"                                         /* 29 */
    "    s = 'a' if x[0] > 0 else 'bc'\n"                   /* 30 */
    "    x[0] = len(s)\n"                                   /* 31 */
    "@njit\n"                                               /* 32 */
    "def words(n):\n"                                       /* 33 */
    "    r = 0\n"                                           /* 34 */
    "    for i in range(n):\n"                              /* 35 */
    "        p = (str(i) + ' a b').split()\n"               /* 36 */
    "        r += len(' '.join(p))\n"                       /* 37 */
    "    return r\n";                                       /* 38 */

static uf_array *i64(int64_t v)
{
    uf_error err;
    uf_array *a = uf_full(UF_INT64, 0, NULL, &v, UF_INT64, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

/* pick(i): out[0] the string, out[1] its length; 0 or the error code. */
static int call_pick(uf_module *mod, int64_t i, uf_array **out,
                     uf_error *err)
{
    uf_func *f = uf_module_get(mod, "pick", err);
    uf_assert_ok(f != NULL, err);
    uf_array *x = i64(i);
    out[0] = out[1] = NULL;
    int rc = uf_call(f, &x, 1, out, 2, NULL, err);
    uf_array_release(x);
    return rc;
}

static void expect_cps(uf_array *a, const uint32_t *cp, int64_t n)
{
    assert_int_equal(uf_array_dtype(a), UF_UINT32);
    assert_int_equal(uf_array_ndim(a), 1);
    assert_int_equal(uf_array_shape(a)[0], n);
    const char *d = uf_array_data(a);
    for (int64_t k = 0; k < n; k++) {
        uint32_t c;
        memcpy(&c, d + k * uf_array_strides(a)[0], 4);
        assert_int_equal(c, cp[k]);
    }
}

static void test_values(void **state)
{
    (void)state;
    uf_error err;
    long live = uf__alloc_live(), nrt = uf__nrt_live();
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "ustr.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    static const uint32_t s[4] = {0x61, 0xE9, 0x4E2D, 0x1F600};
    /* s[i] + s for each kind of character, by positive and negative i */
    for (int64_t i = -4; i < 4; i++) {
        uf_array *out[2];
        uf_assert_ok(call_pick(mod, i, out, &err) == 0, &err);
        uint32_t want[5] = {s[(i + 4) % 4], s[0], s[1], s[2], s[3]};
        expect_cps(out[0], want, 5);
        assert_int_equal(*(int64_t *)uf_array_data(out[1]), 4);
        uf_array_release(out[0]);
        uf_array_release(out[1]);
    }
    uf_func *f = uf_module_get(mod, "pick", &err);
    assert_string_equal(uf_func_result_tree(f), "(str(0), 1)");
    /* the empty string: no code points */
    uf_array *out[2];
    uf_assert_ok(call_pick(mod, 99, out, &err) == 0, &err);
    expect_cps(out[0], NULL, 0);
    uf_array_release(out[0]);
    uf_array_release(out[1]);
    /* past either end: Numba's IndexError, nothing allocated */
    for (int64_t i = 4; i >= -5; i -= 9) {
        assert_int_not_equal(call_pick(mod, i, out, &err), 0);
        assert_int_equal(err.code, UF_ERR_INDEX);
        assert_non_null(strstr(err.message, "IndexError: string index out "
                                            "of range"));
        assert_null(out[0]);
    }
    /* methods: case mapping past ASCII (Unicode's tables) */
    uf_func *up = uf_module_get(mod, "up", &err);
    uf_assert_ok(up != NULL, &err);
    uf_array *one = i64(1), *zero = i64(0), *r = NULL;
    uf_assert_ok(uf_call(up, &one, 1, &r, 1, NULL, &err) == 0, &err);
    static const uint32_t want[5] = {'.', 'A', 0x3000, 'B', '.'};
    expect_cps(r, want, 5);
    uf_array_release(r);
    r = NULL;
    uf_assert_ok(uf_call(up, &zero, 1, &r, 1, NULL, &err) == 0, &err);
    static const uint32_t want_e[5] = {'.', '.', 0xC9, '.', '.'};
    expect_cps(r, want_e, 5);
    uf_array_release(r);
    uf_array_release(one);
    uf_array_release(zero);
    uf_module_free(mod);
    uf_context_free(ctx);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

/* 10^5 calls each making and returning strings: no block outlives its
 * call (the returned ones die with their uf_array). */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "ustr.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    uf_array *out[2];
    uf_assert_ok(call_pick(mod, 1, out, &err) == 0, &err);
    uf_array_release(out[0]);
    uf_array_release(out[1]);
    long nrt = uf__nrt_live();
    for (int k = 0; k < 100000; k++) {
        uf_assert_ok(call_pick(mod, k % 4, out, &err) == 0, &err);
        uf_array_release(out[0]);
        uf_array_release(out[1]);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    /* a loop of 2000 concatenations: swept as it goes, all freed */
    uf_func *g = uf_module_get(mod, "grow", &err);
    uf_assert_ok(g != NULL, &err);
    uf_array *n = i64(2000), *len = NULL;
    uf__nrt_peak_reset();
    uf_assert_ok(uf_call(g, &n, 1, &len, 1, NULL, &err) == 0, &err);
    assert_int_equal(*(int64_t *)uf_array_data(len), 8890);
    assert_true(uf__nrt_peak() - nrt < 200);
    assert_int_equal(uf__nrt_live(), nrt);
    uf_array_release(len);
    uf_array_release(n);
    uf_module_free(mod);
    uf_context_free(ctx);
}

/* split and join in a loop (a list of new strings each iteration): the
 * sweeps keep memory bounded, everything freed; out of memory at each of
 * their allocations: UF_ERR_NOMEM, nothing left behind. */
static void test_split_join(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "ustr.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    uf_func *w = uf_module_get(mod, "words", &err);
    uf_assert_ok(w != NULL, &err);
    uf_array *n = i64(1000), *r = NULL;
    uf_assert_ok(uf_call(w, &n, 1, &r, 1, NULL, &err) == 0, &err);
    uf_array_release(r);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    uf__nrt_peak_reset();
    r = NULL;
    uf_assert_ok(uf_call(w, &n, 1, &r, 1, NULL, &err) == 0, &err);
    assert_int_equal(*(int64_t *)uf_array_data(r), 6890);
    assert_true(uf__nrt_peak() - nrt < 300);
    assert_int_equal(uf__nrt_live(), nrt);
    uf_array_release(r);
    uf_array_release(n);
    n = i64(20);
    int kernel_oom = 0;
    for (long k = 1; k < 400; k++) {
        r = NULL;
        uf__alloc_fail_at(k);
        int rc = uf_call(w, &n, 1, &r, 1, NULL, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (rc == 0) {
            assert_int_equal(*(int64_t *)uf_array_data(r), 110);
            uf_array_release(r);
            if (!failed)
                break;
            continue;
        }
        assert_int_equal(err.code, UF_ERR_NOMEM);
        kernel_oom += strstr(err.message, "inside a kernel") != NULL;
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(kernel_oom >= 60);
    uf_array_release(n);
    uf_module_free(mod);
    uf_context_free(ctx);
}

/* Out of memory at each allocation of grow(50): UF_ERR_NOMEM, no block
 * and no allocation left behind. */
static void test_oom(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "ustr.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    uf_func *g = uf_module_get(mod, "grow", &err);
    uf_assert_ok(g != NULL, &err);
    uf_array *n = i64(50), *len = NULL;
    uf_assert_ok(uf_call(g, &n, 1, &len, 1, NULL, &err) == 0, &err);
    uf_array_release(len);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    int kernel_oom = 0;
    for (long k = 1; k < 400; k++) {
        len = NULL;
        uf__alloc_fail_at(k);
        int rc = uf_call(g, &n, 1, &len, 1, NULL, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (rc == 0) {
            assert_int_equal(*(int64_t *)uf_array_data(len), 140);
            uf_array_release(len);
            if (!failed)
                break;
            continue;
        }
        assert_int_equal(err.code, UF_ERR_NOMEM);
        kernel_oom += strstr(err.message, "inside a kernel") != NULL;
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(kernel_oom >= 100); /* 150 strings made in the loop */
    uf_array_release(n);
    uf_module_free(mod);
    uf_context_free(ctx);
}

static void expect_refused(uf_module *mod, const char *name, int line,
                           int col, const char *text)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_array *x = i64(3), *out = NULL;
    assert_true(f == NULL || uf_call(f, &x, 1, &out, 1, NULL, &err) != 0);
    assert_null(out);
    assert_int_equal(err.line, line);
    assert_int_equal(err.column, col);
    assert_non_null(strstr(err.message, text));
    uf_array_release(x);
}

static void test_refusals(void **state)
{
    (void)state;
    uf_error err;
    long live = uf__alloc_live();
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "ustr.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    expect_refused(mod, "par", 18, 18, "prange body run in parallel");
    expect_refused(mod, "fmt", 22, 12, "unsupported operand types for %");
    /* CUDA: Numba's CUDA target has no unicode_type */
    uf_func *dev = uf_module_get(mod, "dev", &err);
    uf_assert_ok(dev != NULL, &err);
    assert_null(uf_func_inspect(dev, "void(float64[:])", UF_INSPECT_LLVM,
                                &err));
    assert_int_equal(err.line, 30);
    assert_int_equal(err.column, 5);
    assert_non_null(strstr(err.message, "not supported in CUDA kernels"));
    uf_module_free(mod);
    uf_context_free(ctx);
    assert_int_equal(uf__alloc_live(), live);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_oom),
        cmocka_unit_test(test_split_join),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
