/* Module-level NumPy arrays (compiler/front/kmodule_array.c, read in
 * kernels through compiler/lower/lower_garray.c): tests/kernels/garrays.py's
 * arrays have NumPy's dtype, shape and bytes (the table below is what
 * NumPy 2 builds from that file: np.empty's contents are arbitrary, ufjit's
 * zeros); kernels read them as readonly arrays (values computed with NumPy
 * the same way); bad input is refused at its position; the disk cache keys
 * on the array's contents. */
#include <stdlib.h>

#include "test_util.h"

#include "common/alloc.h"
#include "compiler/context.h"
#include "compiler/front/kmodule.h"
#include "disk_cache_test_util.h"

#define KERNELS UF_TEST_DATA_DIR "/../kernels/"

static const struct {
    const char *name;
    uf_dtype dtype;
    int ndim;
    int64_t shape[2];
    const char *hex; /* arr.tobytes().hex() */
} expected[] = {
    {"F32", UF_FLOAT32, 2, {2, 3}, "0000c03f000000c000005040cdcccc3d6f12833a0000e040"},
    {"MIXED", UF_FLOAT64, 1, {3}, "000000000000f03f0000000000000440000000000000f03f"},
    {"INTS", UF_INT64, 2, {2, 2}, "0100000000000000feffffffffffffff0300000000000000409c000000000000"},
    {"U8", UF_UINT8, 1, {3}, "0102ff"},
    {"BOOLS", UF_BOOL, 1, {3}, "010001"},
    {"CPLX", UF_COMPLEX128, 1, {3}, "000000000000f03f00000000000000400000000000000080000000000000e0bf00000000000008400000000000000000"},
    {"TUP", UF_INT16, 2, {2, 3}, "010002000300040005000600"},
    {"AR1", UF_INT64, 1, {6}, "000000000000000001000000000000000200000000000000030000000000000004000000000000000500000000000000"},
    {"AR2", UF_FLOAT64, 1, {9}, "9a9999999999b93f9a9999999999c93f343333333333d33f9a9999999999d93f000000000000e03f333333333333e33f676666666666e63f9a9999999999e93fcdccccccccccec3f"},
    {"AR3", UF_FLOAT32, 1, {3}, "000020410000e04000008040"},
    {"AR4", UF_FLOAT32, 1, {10}, "0000803fcdcc8c3f9a99993f6766a63f3433b33f0100c03fcecccc3f9b99d93f6866e63f3533f33f"},
    {"LIN", UF_FLOAT64, 1, {7}, "0000000000000000555555555555c53f555555555555d53f000000000000e03f555555555555e53faaaaaaaaaaaaea3f000000000000f03f"},
    {"LIN2", UF_FLOAT32, 1, {5}, "000080bf9a9999becdcccc3ecdcc8c3f6666e63f"},
    {"LIN3", UF_INT32, 1, {4}, "0000000003000000060000000a000000"},
    {"ZER", UF_INT32, 2, {2, 3}, "000000000000000000000000000000000000000000000000"},
    {"ONE", UF_FLOAT64, 1, {4}, "000000000000f03f000000000000f03f000000000000f03f000000000000f03f"},
    {"EMP", UF_FLOAT32, 1, {3}, "000000000000000000000000"},
    {"FUL", UF_FLOAT64, 2, {2, 2}, "0000000000000440000000000000044000000000000004400000000000000440"},
    {"FUL2", UF_UINT16, 1, {3}, "070007000700"},
    {"EYE", UF_FLOAT64, 2, {3, 3}, "000000000000f03f000000000000000000000000000000000000000000000000000000000000f03f000000000000000000000000000000000000000000000000000000000000f03f"},
    {"EYE2", UF_INT8, 2, {3, 4}, "000100000000010000000001"},
    {"RS", UF_INT64, 2, {3, 4}, "00000000000000000100000000000000020000000000000003000000000000000400000000000000050000000000000006000000000000000700000000000000080000000000000009000000000000000a000000000000000b00000000000000"},
    {"RS2", UF_FLOAT64, 2, {2, 6}, "0000000000000000000000000000f03f000000000000004000000000000008400000000000001040000000000000144000000000000018400000000000001c400000000000002040000000000000224000000000000024400000000000002640"},
    {"AST", UF_FLOAT32, 1, {6}, "000000009a99d93f9a9959403333a3409a99d94000000841"},
    {"NEG", UF_FLOAT32, 2, {2, 3}, "0000c0bf00000040000050c0cdccccbd6f1283ba0000e0c0"},
    {"ARITH", UF_FLOAT32, 2, {2, 3}, "00008040000040c00000f0409a99993f8941803f00007041"},
    {"ARITH2", UF_FLOAT64, 2, {2, 2}, "000000000000d0bf000000000000f0bf000000000000d03f00000000c087c340"},
    {"BCAST", UF_INT64, 2, {3, 4}, "00000000000000000200000000000000040000000000000006000000000000000400000000000000060000000000000008000000000000000a0000000000000008000000000000000a000000000000000c000000000000000e00000000000000"},
    {"POW", UF_INT64, 1, {6}, "000000000000000001000000000000000400000000000000090000000000000010000000000000001900000000000000"},
    {"CPY", UF_FLOAT64, 1, {7}, "0000000000000000555555555555c53f555555555555d53f000000000000e03f555555555555e53faaaaaaaaaaaaea3f000000000000f03f"},
    {"SUB", UF_FLOAT32, 2, {2, 3}, "3333b33f666606c09a9949400000000083c0cabdcdccdc40"},
    {"WEAK", UF_UINT8, 1, {3}, "020300"},
};

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static void test_values_as_numpy(void **state)
{
    (void)state;
    char *text = slurp(KERNELS "garrays.py");
    uf__source src = {.name = "garrays.py", .text = text,
                      .len = strlen(text)};
    uf_error err;
    uf__kmodule *km = uf__kmodule_new(&src, &err);
    uf_assert_ok(km != NULL, &err);
    for (size_t i = 0; i < sizeof expected / sizeof *expected; i++) {
        const uf__global *g = uf__kmodule_global(km, expected[i].name);
        if (g == NULL || g->kind != UF__G_ARRAY)
            fail_msg("%s is not a module-level array", expected[i].name);
        const uf__garray *a = g->array;
        if (a->dtype != expected[i].dtype || a->ndim != expected[i].ndim)
            fail_msg("%s: %s %dd, NumPy has %s %dd", expected[i].name,
                     uf_dtype_name(a->dtype), a->ndim,
                     uf_dtype_name(expected[i].dtype), expected[i].ndim);
        for (int d = 0; d < a->ndim; d++)
            assert_int_equal(a->shape[d], expected[i].shape[d]);
        size_t n = strlen(expected[i].hex) / 2;
        assert_int_equal(a->nbytes, n);
        for (size_t b = 0; b < n; b++) {
            unsigned v;
            sscanf(expected[i].hex + 2 * b, "%2x", &v);
            if (((const unsigned char *)a->data)[b] != v)
                fail_msg("%s: byte %zu is %02x, NumPy's %02x",
                         expected[i].name, b,
                         ((const unsigned char *)a->data)[b], v);
        }
    }
    uf__kmodule_free(km);
    free(text);
}

static uf_context *ctx;
static uf_module *mod;

static double call_f64(const char *name, int n, const int64_t *args)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *in[4] = {NULL}, *out[1] = {NULL};
    for (int i = 0; i < n; i++) {
        in[i] = uf_full(UF_INT64, 0, NULL, &args[i], UF_INT64, UF_ORDER_C,
                        &err);
        uf_assert_ok(in[i] != NULL, &err);
    }
    uf_assert_ok(uf_call(f, in, n, out, 1, NULL, &err) == 0, &err);
    double v;
    uf_array *d = uf_array_astype(out[0], UF_FLOAT64, UF_CASTING_UNSAFE,
                                  UF_ORDER_C, &err);
    uf_assert_ok(d != NULL, &err);
    v = *(const double *)uf_array_data(d);
    uf_array_release(d);
    uf_array_release(out[0]);
    for (int i = 0; i < n; i++)
        uf_array_release(in[i]);
    return v;
}

static void test_kernels_read_them(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    mod = uf_module_load(ctx, KERNELS "garrays.py", &err);
    uf_assert_ok(mod != NULL, &err);
    /* the values NumPy gives the same loops (see garrays.py) */
    assert_true(call_f64("total", 0, NULL) == 19.851000001537614);
    const int64_t ij[3][2] = {{0, 1}, {2, 3}, {1, 2}};
    const double pick[3] = {0, 14, 11};
    for (int i = 0; i < 3; i++)
        assert_true(call_f64("pick", 2, ij[i]) == pick[i]);
    const int64_t r0 = 0, r1 = 1;
    assert_true(call_f64("row_sum", 1, &r0) == 8.5);
    assert_true(call_f64("row_sum", 1, &r1) == 17.20200002193451);
    static const double lin2[7] = {0.0, 0.3333333333333333,
                                   0.6666666666666666, 1.0,
                                   1.3333333333333333, 1.6666666666666665,
                                   2.0};
    for (int64_t i = 0; i < 7; i++)
        assert_true(call_f64("via_helper", 1, &i) == lin2[i]);
    /* the vectorize loop over a table, float64 and float32 */
    static const double t64[10] = {
        0.0, 1.8666667143503826, 3.733333428700765, 5.599999904632568,
        7.46666685740153, 9.333333333333334, 1.0, 1.7000000476837158,
        3.566666762034098, 5.433333237965901};
    static const float t32[10] = {0.0f, 1.8666667f, 3.7333333f, 5.6f,
                                  7.4666667f, 9.333333f, 1.0f, 1.7f,
                                  3.5666668f, 5.4333334f};
    uf_func *t = uf_module_get(mod, "table", &err);
    uf_assert_ok(t != NULL, &err);
    for (int k = 0; k < 2; k++) {
        int64_t n = 10;
        uf_array *in = uf_arange(0, 10, 1, k ? UF_INT32 : UF_INT64, &err);
        uf_array *out = NULL;
        uf_assert_ok(in != NULL, &err);
        uf_assert_ok(uf_call(t, &in, 1, &out, 1, NULL, &err) == 0, &err);
        assert_int_equal(uf_array_size(out), n);
        if (k)
            assert_memory_equal(uf_array_data(out), t32, sizeof t32);
        else
            assert_memory_equal(uf_array_data(out), t64, sizeof t64);
        uf_array_release(in);
        uf_array_release(out);
    }
    uf_module_free(mod);
    uf_context_free(ctx);
}

/* ---- refusals ---------------------------------------------------------- */

#define HEAD "import numpy as np\nfrom numba import njit, cuda\n"

static const struct {
    const char *src;
    const char *msg; /* a part of the message */
    int line, col;
} scan_errors[] = {
    {HEAD "A = np.sin(np.arange(3))\n", "np.sin() is not supported at "
     "module level: module-level arrays are built with np.array", 3, 8},
    {HEAD "A = np.sqrt(2)\n", "numpy.sqrt() is not supported in a module "
     "constant", 3, 5},
    {HEAD "A = np.array([[1, 2], [3]])\n", "inhomogeneous shape", 3, 23},
    {HEAD "A = np.arange(6).reshape(4, 2)\n", "cannot reshape", 3, 5},
    {HEAD "A = np.arange(6).reshape(5, -1)\n", "cannot reshape", 3, 5},
    {HEAD "A = np.arange(6).sum()\n", "the array method .sum() is not "
     "supported", 3, 18},
    {HEAD "A = np.zeros(3) @ np.ones(3)\n", "the operator @", 3, 5},
    {HEAD "A = np.zeros(-3)\n", "negative dimensions", 3, 14},
    {HEAD "A = np.zeros(3, dtype=x)\n", "dtype= must be", 3, 23},
    {HEAD "A = np.zeros(3, order='F')\n", "keyword 'order'", 3, 17},
    {HEAD "A = np.array([300], dtype=np.uint8)\n", "out of bounds for "
     "uint8", 3, 14},
    {HEAD "A = np.zeros(3) + np.zeros(4)\n", "broadcast", 3, 5},
    {HEAD "A = -np.array([True])\n", "boolean negative", 3, 5},
    {HEAD "A = np.array(3.0)\n", "0-d module-level array", 3, 14},
    {HEAD "A = np.zeros(1 << 22)\n", "more than 16777216 bytes", 3, 5},
    {HEAD "A = np.arange(3)\nB = A[1]\n", "indexing a module-level array",
     4, 5},
    {HEAD "A = [1, 2]\n", "tuple and list module constants are not "
     "supported", 3, 5},
};

static void test_scan_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof scan_errors / sizeof *scan_errors; i++) {
        uf__source src = {.name = "k.py", .text = scan_errors[i].src,
                          .len = strlen(scan_errors[i].src)};
        uf_error err;
        uf_error_clear(&err);
        uf__kmodule *km = uf__kmodule_new(&src, &err);
        if (km != NULL || strstr(err.message, scan_errors[i].msg) == NULL ||
            err.line != scan_errors[i].line ||
            err.column != scan_errors[i].col)
            fail_msg("case %zu: expected '%s' at %d:%d, got '%s' at %d:%d",
                     i, scan_errors[i].msg, scan_errors[i].line,
                     scan_errors[i].col, err.message, err.line, err.column);
    }
}

static const struct {
    const char *src;
    const char *msg;
    int line, col;
} call_errors[] = {
    {HEAD "A = np.arange(3.0)\n@njit\ndef f(i):\n    A[i] = 1.0\n"
     "    return 0\n", "Cannot modify readonly array of type: readonly "
     "array(float64, 1d, C) ('A' is a read-only global array)", 6, 5},
    {HEAD "A = np.ones((2, 2))\n@njit\ndef f(i):\n    r = A[i]\n"
     "    r[0] += 1.0\n    return 0\n", "Cannot modify readonly array",
     7, 5},
    {HEAD "A = np.ones(2)\n@njit\ndef g(a):\n    a[0] = 2.0\n    return 0\n"
     "@njit\ndef f(i):\n    return g(A)\n", "Cannot modify readonly array",
     6, 5},
    {HEAD "A = np.ones(2)\n@njit\ndef f(i):\n"
     "    return cuda.const.array_like(A)[i]\n",
     "numba.cuda.const.array_like is only available on the CUDA targets",
     6, 12},
};

static void test_kernel_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_context *c = uf_context_new(&err);
    uf_assert_ok(c != NULL, &err);
    for (size_t i = 0; i < sizeof call_errors / sizeof *call_errors; i++) {
        uf_module *m = uf_module_from_string(c, "k.py", call_errors[i].src,
                                             &err);
        uf_assert_ok(m != NULL, &err);
        uf_func *f = uf_module_get(m, "f", &err);
        uf_assert_ok(f != NULL, &err);
        int64_t zero = 0;
        uf_array *in = uf_full(UF_INT64, 0, NULL, &zero, UF_INT64,
                               UF_ORDER_C, &err), *out = NULL;
        int rc = uf_call(f, &in, 1, &out, 1, NULL, &err);
        if (rc == 0 || strstr(err.message, call_errors[i].msg) == NULL ||
            err.line != call_errors[i].line ||
            err.column != call_errors[i].col)
            fail_msg("case %zu: expected '%s' at %d:%d, got rc %d '%s' at "
                     "%d:%d", i, call_errors[i].msg, call_errors[i].line,
                     call_errors[i].col, rc, err.message, err.line,
                     err.column);
        uf_array_release(in);
        uf_array_release(out);
        uf_module_free(m);
    }
    uf_context_free(c);
}

/* ---- the disk cache ------------------------------------------------------ */

/* f() of a module whose table is `data`, in a new context: its value,
 * and the compilations it took in *ncompiles */
static double cached_sum(const char *data, uint64_t *ncompiles)
{
    char src[512];
    snprintf(src, sizeof src,
             "import numpy as np\nfrom numba import njit\n"
             "T = np.array([%s], dtype=np.float32)\n"
             "@njit(cache=True)\ndef f():\n    s = 0.0\n"
             "    for v in T:\n        s += v\n    return s\n", data);
    uf_error err;
    uf_context *c = uf_context_new(&err);
    uf_assert_ok(c != NULL, &err);
    uf_module *m = uf_module_from_string(c, "k.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "f", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, NULL, 0, &out, 1, NULL, &err) == 0, &err);
    double v = *(const double *)uf_array_data(out);
    *ncompiles = c->jit ? uf__jit_ncompiles(c->jit) : 0;
    uf_array_release(out);
    uf_module_free(m);
    uf_context_free(c);
    return v;
}

static void test_cache_keys_on_data(void **state)
{
    (void)state;
    dk_fresh_dir();
    uint64_t n;
    assert_true(cached_sum("1, 2, 3", &n) == 6.0);
    assert_true(n >= 1);
    assert_true(cached_sum("1, 2, 3", &n) == 6.0);
    assert_int_equal(n, 0); /* the same data: a hit */
    assert_true(cached_sum("1, 2, 4", &n) == 7.0);
    assert_true(n >= 1); /* other data, same name: compiled again */
    assert_true(cached_sum("1, 2, 3", &n) == 6.0);
    assert_int_equal(n, 0);
    dk_remove_dir(dk_dir);
    unsetenv("UFJIT_CACHE_DIR");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_as_numpy),
        cmocka_unit_test(test_kernels_read_them),
        cmocka_unit_test(test_scan_errors),
        cmocka_unit_test(test_kernel_errors),
        cmocka_unit_test(test_cache_keys_on_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
