/* NumPy reductions inside kernels (compiler/types/infer_npreduce.c,
 * compiler/lower/lower_npreduce.c) through uf_call, with NumPy's answers
 * computed here: long double sums, C-order scans for min/max/argmin, the
 * first NaN's index, int64 wrap-around. Covers empty arrays (Numba's
 * ValueErrors), one element, scalars (0-d arguments), negative-step and
 * non-contiguous 2-D views, NaN/inf, bool arrays, dot of different
 * lengths, a.T, and the same reductions in a guvectorize kernel on the
 * cpu, parallel and cudasim targets. README's list of them is checked
 * against the compiler's table. The Numba oracle of the same functions is
 * tests/e2e/run_npreduce_oracle.py. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "cuda_test_target.h"

#include "compiler/types/infer_npreduce.h"

#define README UF_TEST_DATA_DIR "/../../README.md"

static const char src[] =
    "from numba import njit, guvectorize\n"
    "import numpy as np\n"
    "@njit\n"
    "def stats(a):\n"
    "    return (np.sum(a), a.prod(), np.min(a), a.max(), np.argmin(a),\n"
    "            a.argmax(), np.mean(a), a.var(), np.std(a))\n"
    "@njit\n"
    "def nanstats(a):\n"
    "    return np.nansum(a), np.nanmin(a), np.nanmax(a), np.nanmean(a)\n"
    "@njit\n"
    "def isum(a):\n"
    "    return np.sum(a), a.min(), a.argmax(), np.all(a), a.any()\n"
    "@njit\n"
    "def bsum(a):\n"
    "    return np.sum(a), np.all(a), a.any(), a.argmax(), np.mean(a)\n"
    "@njit\n"
    "def total(a):\n"
    "    return np.sum(a), np.prod(a), np.mean(a), a.all(), a.any()\n"
    "@njit\n"
    "def only_min(a):\n"
    "    return a.min()\n"
    "@njit\n"
    "def only_argmax(a):\n"
    "    return np.argmax(a)\n"
    "@njit\n"
    "def only_nanmin(a):\n"
    "    return np.nanmin(a)\n"
    "@njit\n"
    "def dot(x, y):\n"
    "    return np.dot(x, y), x @ y, np.vdot(x, y)\n"
    "@njit\n"
    "def scalar(x):\n"
    "    return np.min(x), np.amax(x), np.all(x)\n"
    "@njit\n"
    "def tr(a):\n"
    "    t = a.T\n"
    "    return t.shape[0], t.strides[0], t[2, 1], t.argmax(), a.nbytes\n"
    "@guvectorize(['void(float64[:], float64[:], int64[:], float64[:])'],\n"
    "             '(n)->(),(),()')\n"
    "def gu(x, s, k, m):\n"
    "    s[0] = np.sum(x)\n"
    "    k[0] = x.argmin()\n"
    "    m[0] = np.nanmax(x) + x[::-1].mean()\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "npreduce_c.py", src, &err);
    if (!mod)
        fprintf(stderr, "%s\n", err.message);
    return mod ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

static uf_func *fn(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

static uf_array *vec(uf_dtype dt, const double *v, int64_t n)
{
    uf_error err;
    uf_array *a = uf_empty(dt, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < n; i++) {
        void *p = uf_array_getptr(a, &i, &err);
        switch (dt) {
        case UF_FLOAT64: *(double *)p = v[i]; break;
        case UF_FLOAT32: *(float *)p = (float)v[i]; break;
        case UF_INT64: *(int64_t *)p = (int64_t)v[i]; break;
        case UF_INT32: *(int32_t *)p = (int32_t)v[i]; break;
        case UF_BOOL: *(uint8_t *)p = v[i] != 0; break;
        default: fail_msg("vec: dtype");
        }
    }
    return a;
}

static double getd(uf_array *a)
{
    switch (uf_array_dtype(a)) {
    case UF_FLOAT64: return *(double *)uf_array_data(a);
    case UF_FLOAT32: return *(float *)uf_array_data(a);
    case UF_INT64: return (double)*(int64_t *)uf_array_data(a);
    case UF_INT32: return *(int32_t *)uf_array_data(a);
    case UF_BOOL: return *(uint8_t *)uf_array_data(a);
    default: fail_msg("getd: dtype"); return 0;
    }
}

/* Calls f(in...) for n results; 0 or the error's code (err filled). */
static int call(const char *name, uf_array **in, int nin, uf_array **res,
                int nres, uf_error *err)
{
    for (int k = 0; k < nres; k++)
        res[k] = NULL;
    return uf_call(fn(name), in, nin, res, nres, NULL, err);
}

static void release(uf_array **a, int n)
{
    for (int k = 0; k < n; k++)
        uf_array_release(a[k]);
}

static void near(const char *what, double got, double want, double tol)
{
    if (isnan(want) ? !isnan(got)
                    : !(got == want || fabs(got - want) <= tol))
        fail_msg("%s: %.17g, NumPy %.17g", what, got, want);
}

/* The elements of a (any view) in C order, as doubles. */
static int64_t elements(uf_array *a, double *out)
{
    uf_error err;
    int nd = uf_array_ndim(a);
    int64_t n = uf_array_size(a), idx[UF_MAXDIMS];
    for (int64_t i = 0; i < n; i++) {
        int64_t r = i;
        for (int d = nd - 1; d >= 0; d--) {
            idx[d] = r % uf_array_shape(a)[d];
            r /= uf_array_shape(a)[d];
        }
        out[i] = *(double *)uf_array_getptr(a, idx, &err);
    }
    return n;
}

/* stats() of a float64 array or view against a reference computed in
 * long double and by C-order scans (NaN propagating; the first NaN's
 * index for argmin/argmax). */
static void check_stats(const char *what, uf_array *a)
{
    static double x[4096];
    int64_t n = elements(a, x);
    long double s = 0, p = 1, sa = 0;
    double mn = INFINITY, mx = -INFINITY;
    int64_t imn = 0, imx = 0, inan = -1;
    for (int64_t i = 0; i < n; i++) {
        s += x[i];
        p *= x[i];
        sa += fabs(x[i]);
        if (isnan(x[i]) && inan < 0)
            inan = i;
        if (x[i] < mn)
            mn = x[i], imn = i;
        if (x[i] > mx)
            mx = x[i], imx = i;
    }
    if (inan >= 0)
        mn = mx = NAN, imn = imx = inan;
    long double m = s / n, ss = 0;
    for (int64_t i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    uf_array *res[9];
    uf_error err;
    uf_assert_ok(call("stats", &a, 1, res, 9, &err) == 0, &err);
    double tol = 8 * 2.2e-16 * (double)sa + 1e-300;
    char w[128];
    snprintf(w, sizeof w, "%s sum", what);
    near(w, getd(res[0]), (double)s, tol);
    snprintf(w, sizeof w, "%s prod", what);
    near(w, getd(res[1]), (double)p, 1e-12 * fabs((double)p));
    snprintf(w, sizeof w, "%s min", what);
    near(w, getd(res[2]), mn, 0);
    snprintf(w, sizeof w, "%s max", what);
    near(w, getd(res[3]), mx, 0);
    snprintf(w, sizeof w, "%s argmin", what);
    near(w, getd(res[4]), (double)imn, 0);
    snprintf(w, sizeof w, "%s argmax", what);
    near(w, getd(res[5]), (double)imx, 0);
    snprintf(w, sizeof w, "%s mean", what);
    near(w, getd(res[6]), (double)m, tol / n);
    snprintf(w, sizeof w, "%s var", what);
    near(w, getd(res[7]), (double)(ss / n), 1e-12 * (double)(ss / n) + 1e-300);
    snprintf(w, sizeof w, "%s std", what);
    near(w, getd(res[8]), sqrt((double)(ss / n)),
         1e-12 * sqrt((double)(ss / n)) + 1e-300);
    for (int k = 0; k < 9; k++)
        if (uf_array_dtype(res[k]) != (k == 4 || k == 5 ? UF_INT64
                                                        : UF_FLOAT64))
            fail_msg("%s output %d: dtype %s", what, k,
                     uf_dtype_name(uf_array_dtype(res[k])));
    release(res, 9);
}

/* Whole arrays of every length around the vector path's steps, and views
 * of them: reversed, strided, 2-D transposed and non-contiguous. */
static void test_float_stats_and_views(void **state)
{
    (void)state;
    static const int64_t lens[] = {1, 2, 7, 8, 31, 32, 33, 63, 100, 1001};
    static const char *views[] = {"::-1", "::3", "1:-1", "::-7"};
    uf_error err;
    for (size_t c = 0; c < sizeof lens / sizeof *lens; c++) {
        int64_t n = lens[c];
        uf_array *a = uf_arange(0, (double)n, 1, UF_FLOAT64, &err);
        uf_assert_ok(a != NULL, &err);
        double *d = uf_array_data(a);
        for (int64_t i = 0; i < n; i++) /* values of mixed sign, no ties */
            d[i] = sin((double)i * 1.7 + 0.3) * 10;
        char what[64];
        snprintf(what, sizeof what, "n=%lld", (long long)n);
        check_stats(what, a);
        for (size_t v = 0; v < sizeof views / sizeof *views; v++) {
            uf_array *w = uf_array_slice(a, views[v], &err);
            uf_assert_ok(w != NULL, &err);
            if (uf_array_size(w) > 0) {
                snprintf(what, sizeof what, "n=%lld[%s]", (long long)n,
                         views[v]);
                check_stats(what, w);
            }
            uf_array_release(w);
        }
        uf_array_release(a);
    }
    /* 2-D: C, a transposed (F) view, a non-contiguous reversed view */
    int64_t shape[2] = {9, 13};
    uf_array *m = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(m != NULL, &err);
    double *d = uf_array_data(m);
    for (int i = 0; i < 9 * 13; i++)
        d[i] = cos(i * 0.9) * (i % 5 + 1);
    check_stats("9x13", m);
    static const char *views2[] = {"::-1, 1::2", "::2, ::-3", "3, :",
                                   ":, 4", "1:1, :"};
    for (size_t v = 0; v < sizeof views2 / sizeof *views2; v++) {
        uf_array *w = uf_array_slice(m, views2[v], &err);
        uf_assert_ok(w != NULL, &err);
        if (uf_array_size(w) > 0)
            check_stats(views2[v], w);
        uf_array_release(w);
    }
    uf_array *t = uf_array_transpose(m, NULL, &err);
    uf_assert_ok(t != NULL, &err);
    check_stats("9x13.T", t);
    uf_array_release(t);
    uf_array_release(m);
}

static void test_nan_inf(void **state)
{
    (void)state;
    uf_error err;
    const double v[] = {3, NAN, -INFINITY, NAN, 1};
    uf_array *a = vec(UF_FLOAT64, v, 5), *res[9];
    check_stats("nan", a);
    uf_assert_ok(call("nanstats", &a, 1, res, 4, &err) == 0, &err);
    near("nansum", getd(res[0]), -INFINITY, 0);
    near("nanmin", getd(res[1]), -INFINITY, 0);
    near("nanmax", getd(res[2]), 3, 0);
    near("nanmean", getd(res[3]), -INFINITY, 0);
    release(res, 4);
    uf_array_release(a);
    const double allnan[] = {NAN, NAN};
    a = vec(UF_FLOAT32, allnan, 2);
    uf_assert_ok(call("nanstats", &a, 1, res, 4, &err) == 0, &err);
    near("nansum of NaNs", getd(res[0]), 0, 0);
    assert_int_equal(uf_array_dtype(res[0]), UF_FLOAT32);
    near("nanmin of NaNs", getd(res[1]), NAN, 0);
    near("nanmax of NaNs", getd(res[2]), NAN, 0);
    near("nanmean of NaNs", getd(res[3]), NAN, 0);
    assert_int_equal(uf_array_dtype(res[3]), UF_FLOAT64); /* Numba's */
    release(res, 4);
    uf_array_release(a);
    const double infs[] = {INFINITY, INFINITY, -INFINITY};
    a = vec(UF_FLOAT64, infs, 3);
    uf_assert_ok(call("stats", &a, 1, res, 9, &err) == 0, &err);
    near("sum inf-inf", getd(res[0]), NAN, 0);
    near("argmin inf", getd(res[4]), 2, 0);
    near("argmax inf", getd(res[5]), 0, 0);
    release(res, 9);
    uf_array_release(a);
}

/* int64 sums wrap as NumPy's accumulator; int32 sums in int64 */
static void test_ints_and_bools(void **state)
{
    (void)state;
    uf_error err;
    int64_t n = 3;
    uf_array *a = uf_empty(UF_INT64, 1, &n, UF_ORDER_C, &err);
    int64_t *p = uf_array_data(a);
    p[0] = p[1] = p[2] = INT64_C(1) << 62;
    uf_array *res[5];
    uf_assert_ok(call("isum", &a, 1, res, 5, &err) == 0, &err);
    uint64_t want = 3 * (UINT64_C(1) << 62);
    assert_int_equal(*(int64_t *)uf_array_data(res[0]), (int64_t)want);
    release(res, 5);
    uf_array_release(a);
    const double big[] = {2147483647, 2147483647, -5, 7, 7};
    a = vec(UF_INT32, big, 5);
    uf_assert_ok(call("isum", &a, 1, res, 5, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(res[0]), UF_INT64);
    assert_int_equal(*(int64_t *)uf_array_data(res[0]),
                     INT64_C(2147483647) * 2 + 9);
    assert_int_equal(uf_array_dtype(res[1]), UF_INT32);
    near("int32 min", getd(res[1]), -5, 0);
    near("int32 argmax (first of ties)", getd(res[2]), 0, 0);
    near("int32 all", getd(res[3]), 1, 0);
    release(res, 5);
    uf_array_release(a);
    const double bits[] = {0, 1, 1, 0, 1, 1, 1};
    a = vec(UF_BOOL, bits, 7);
    uf_assert_ok(call("bsum", &a, 1, res, 5, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(res[0]), UF_INT64);
    near("bool sum", getd(res[0]), 5, 0);
    near("bool all", getd(res[1]), 0, 0);
    near("bool any", getd(res[2]), 1, 0);
    near("bool argmax", getd(res[3]), 1, 0);
    near("bool mean", getd(res[4]), 5.0 / 7, 1e-16);
    release(res, 5);
    uf_array_release(a);
}

/* Empty arrays: Numba's ValueErrors for min/argmax/nanmin, identities
 * and NaN for the rest; one element; a 0-d argument (a scalar). */
static void test_empty_one_scalar(void **state)
{
    (void)state;
    uf_error err;
    uf_array *e = vec(UF_FLOAT64, NULL, 0), *res[5];
    static const struct {
        const char *kernel, *msg;
    } raises[] = {
        {"only_min", "ValueError: zero-size array to reduction operation "
                     "minimum which has no identity"},
        {"only_argmax", "ValueError: attempt to get argmax of an empty "
                        "sequence"},
        {"only_nanmin", "ValueError: zero-size array to reduction operation "
                        "not possible"},
    };
    for (size_t k = 0; k < sizeof raises / sizeof *raises; k++) {
        assert_int_equal(call(raises[k].kernel, &e, 1, res, 1, &err),
                         UF_ERR_VALUE);
        if (!strstr(err.message, raises[k].msg))
            fail_msg("%s: %s", raises[k].kernel, err.message);
    }
    uf_assert_ok(call("total", &e, 1, res, 5, &err) == 0, &err);
    near("empty sum", getd(res[0]), 0, 0);
    near("empty prod", getd(res[1]), 1, 0);
    near("empty mean", getd(res[2]), NAN, 0);
    near("empty all", getd(res[3]), 1, 0);
    near("empty any", getd(res[4]), 0, 0);
    release(res, 5);
    uf_array_release(e);
    /* an empty 2-D view raises too */
    int64_t shape[2] = {3, 0};
    e = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    assert_int_equal(call("only_min", &e, 1, res, 1, &err), UF_ERR_VALUE);
    uf_array_release(e);
    const double one[] = {-2.5};
    uf_array *a = vec(UF_FLOAT64, one, 1);
    check_stats("one", a);
    uf_array_release(a);
    double v = 4.5;
    a = uf_full(UF_FLOAT64, 0, NULL, &v, UF_FLOAT64, UF_ORDER_C, &err);
    uf_assert_ok(call("scalar", &a, 1, res, 3, &err) == 0, &err);
    near("np.min(4.5)", getd(res[0]), 4.5, 0);
    near("np.amax(4.5)", getd(res[1]), 4.5, 0);
    near("np.all(4.5)", getd(res[2]), 1, 0);
    release(res, 3);
    uf_array_release(a);
}

static void test_dot_and_transpose(void **state)
{
    (void)state;
    uf_error err;
    double xv[67], yv[67];
    long double want = 0;
    for (int i = 0; i < 67; i++) {
        xv[i] = i * 0.5 - 3;
        yv[i] = 1.0 / (i + 1);
    }
    uf_array *x = vec(UF_FLOAT64, xv, 67), *y = vec(UF_FLOAT64, yv, 67);
    uf_array *yr = uf_array_slice(y, "::-1", &err);
    for (int i = 0; i < 67; i++)
        want += (long double)xv[i] * yv[66 - i];
    uf_array *in[2] = {x, yr}, *res[5];
    uf_assert_ok(call("dot", in, 2, res, 3, &err) == 0, &err);
    for (int k = 0; k < 3; k++)
        near("dot", getd(res[k]), (double)want, 1e-12);
    release(res, 3);
    uf_array *x5 = uf_array_slice(x, ":5", &err);
    in[1] = x5;
    assert_int_equal(call("dot", in, 2, res, 3, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "incompatible array sizes for "
                                        "np.dot(a, b) (vector * vector)"));
    uf_array_release(x5);
    uf_array_release(yr);
    uf_array_release(x);
    uf_array_release(y);
    /* a.T of a 4x3 C array: shape 3, strides 8, t[2, 1] = a[1, 2] */
    int64_t shape[2] = {4, 3};
    uf_array *m = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    double *d = uf_array_data(m);
    for (int i = 0; i < 12; i++)
        d[i] = (i * 7) % 12;
    uf_assert_ok(call("tr", &m, 1, res, 5, &err) == 0, &err);
    near("T.shape[0]", getd(res[0]), 3, 0);
    near("T.strides[0]", getd(res[1]), 8, 0);
    near("T[2, 1]", getd(res[2]), d[1 * 3 + 2], 0);
    /* argmax of the transposed view, C order of the view: 11 is d[5]
     * (row 1, col 2) -> t[2, 1] -> flat 2 * 4 + 1 */
    near("T.argmax()", getd(res[3]), 9, 0);
    near("nbytes", getd(res[4]), 96, 0);
    release(res, 5);
    uf_array_release(m);
}

/* The guvectorize kernel on every target: cpu is the reference;
 * parallel gives the same bits; cudasim, or the GPU under
 * UFJIT_TEST_CUDA_TARGET=cuda (a plain loop instead of the host's vector
 * accumulators), agrees within rounding. */
static void test_targets(void **state)
{
    (void)state;
    uf_error err;
    int64_t shape[2] = {37, 45};
    uf_array *a = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    double *d = uf_array_data(a);
    for (int i = 0; i < 37 * 45; i++)
        d[i] = (i % 11 == 3) ? NAN : sin(i * 0.37) * 100;
    uf_array *view = uf_array_slice(a, "::-1, 1::2", &err);
    const char *targets[] = {"cpu", "parallel", cuda_test_target()};
    uf_array *ref[3] = {NULL, NULL, NULL};
    for (int which = 0; which < 2; which++) {
        uf_array *in = which ? view : a;
        for (size_t t = 0; t < 3; t++) {
            uf_call_options o;
            memset(&o, 0, sizeof o);
            o.size = sizeof o;
            o.target = targets[t];
            uf_array *res[3] = {NULL, NULL, NULL};
            if (uf_call(fn("gu"), &in, 1, res, 3, &o, &err) != 0)
                fail_msg("%s: %s", targets[t], err.message);
            for (int k = 0; k < 3; k++) {
                if (uf_array_device(res[k]).type != UF_DEVICE_CUDA)
                    continue;
                uf_array *h = uf_copy_to_host(res[k], NULL, NULL, &err);
                uf_assert_ok(h != NULL, &err);
                uf_array_release(res[k]);
                res[k] = h;
            }
            if (t == 0) {
                for (int k = 0; k < 3; k++)
                    ref[k] = res[k];
                /* the reference against a scan of rows here */
                double x[64];
                for (int64_t r = 0; r < uf_array_shape(in)[0]; r++) {
                    char ix[32];
                    snprintf(ix, sizeof ix, "%lld", (long long)r);
                    uf_array *row = uf_array_slice(in, ix, &err);
                    uf_assert_ok(row != NULL, &err);
                    int64_t n = elements(row, x), kmin = 0;
                    for (int64_t i = 1; i < n; i++)
                        if (isnan(x[i]) ? !isnan(x[kmin]) : x[i] < x[kmin])
                            kmin = isnan(x[kmin]) ? kmin : i;
                    if (((int64_t *)uf_array_data(ref[1]))[r] != kmin)
                        fail_msg("row %lld argmin %lld, want %lld",
                                 (long long)r,
                                 (long long)((int64_t *)uf_array_data(
                                     ref[1]))[r],
                                 (long long)kmin);
                    uf_array_release(row);
                }
                continue;
            }
            for (int64_t r = 0; r < uf_array_shape(in)[0]; r++)
                for (int k = 0; k < 3; k++) {
                    double g = k == 1 ? (double)((int64_t *)uf_array_data(
                                            res[k]))[r]
                                      : ((double *)uf_array_data(res[k]))[r];
                    double w = k == 1 ? (double)((int64_t *)uf_array_data(
                                            ref[k]))[r]
                                      : ((double *)uf_array_data(ref[k]))[r];
                    char what[96];
                    snprintf(what, sizeof what, "%s row %lld output %d",
                             targets[t], (long long)r, k);
                    near(what, g, w, t == 1 ? 0 : 1e-11 * fabs(w));
                }
            release(res, 3);
        }
        release(ref, 3);
    }
    uf_array_release(view);
    uf_array_release(a);
}

/* README's list (between "<!-- numpy-reductions -->" markers) is the
 * compiler's table: every function `np.NAME`, method `.NAME()` and
 * attribute `.NAME`, and nothing else. */
static void test_readme_lists_the_table(void **state)
{
    (void)state;
    FILE *f = fopen(README, "rb");
    if (!f) { /* the GPU kit carries the tests without the sources */
        printf("SKIP part: %s is not here\n", README);
        return;
    }
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *begin = strstr(text, "<!-- numpy-reductions -->");
    char *end = begin ? strstr(begin, "<!-- /numpy-reductions -->") : NULL;
    if (!begin || !end)
        fail_msg("README.md has no <!-- numpy-reductions --> list");
    *end = '\0';
    int known = 0, listed = 0;
    const char *name, *kind;
    for (int i = 0; uf__npreduce_listing_at(i, &name, &kind); i++) {
        char want[80];
        if (strcmp(kind, "function") == 0)
            snprintf(want, sizeof want, "`np.%s`", name + 6);
        else if (strcmp(kind, "method") == 0)
            snprintf(want, sizeof want, "`.%s()`", name);
        else
            snprintf(want, sizeof want, "`%s`", name);
        if (!strstr(begin, want))
            fail_msg("README's list lacks %s", want);
        known++;
    }
    for (char *p = begin; (p = strchr(p, '`')) != NULL; p++) {
        char *q = strchr(p + 1, '`');
        if (!q)
            break;
        listed++;
        p = q;
    }
    assert_int_equal(listed, known);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_stats_and_views),
        cmocka_unit_test(test_nan_inf),
        cmocka_unit_test(test_ints_and_bools),
        cmocka_unit_test(test_empty_one_scalar),
        cmocka_unit_test(test_dot_and_transpose),
        cmocka_unit_test(test_targets),
        cmocka_unit_test(test_readme_lists_the_table),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
