/* prange in njit(parallel=True) functions (compiler/lower/lower_prange.c,
 * njit/njit_prange.c) through uf_call: each kernel run on 1, 2 and 7
 * threads (uf_call_options.num_threads) gives the same bits, and the
 * values computed here in C (exactly for integers, min/max and per-row
 * writes; floating sums within a relative 1e-12, being summed in blocks
 * and vector lanes); empty ranges, negative steps, nested prange, prange
 * in a function without parallel=True; errors raised in the body reach
 * the caller (IndexError, ZeroDivisionError, out of memory at allocation
 * N), and the compile errors of races, break/return and bad arguments at
 * file:line:col. The Numba oracle of the same kernels is
 * tests/e2e/run_prange_oracle.py. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "import numpy as np\n"
    "import numba\n"
    "import numba as nb\n"
    "from numba import njit, prange\n"
    "@njit(parallel=True)\n"
    "def psum(a):\n"
    "    s = 0.0\n"
    "    for i in prange(a.shape[0]):\n"
    "        s += a[i]\n"
    "    return s\n"
    "@njit(parallel=True)\n"
    "def pdot(a, b):\n"
    "    s = 0.0\n"
    "    for i in nb.prange(len(a)):\n"
    "        s = s + a[i] * b[i]\n"
    "    return s\n"
    "@njit(parallel=True)\n"
    "def pminmax(a):\n"
    "    lo = np.inf\n"
    "    hi = -np.inf\n"
    "    for i in numba.prange(a.shape[0]):\n"
    "        lo = min(lo, a[i])\n"
    "        hi = max(a[i], hi)\n"
    "    return lo, hi\n"

    "@njit(parallel=True)\n"
    "def pint(a):\n"
    "    s = 7\n"
    "    d = 0\n"
    "    p = 1\n"
    "    for i in prange(a.shape[0]):\n"
    "        s += a[i]\n"
    "        d -= a[i] * 3\n"
    "        p *= a[i] % 5 + 1\n"
    "    return s, d, p\n"
    "@njit(parallel=True)\n"
    "def rows(m, out):\n"
    "    t = 0.0\n"
    "    for i in prange(m.shape[0]):\n"
    "        acc = 0.0\n"
    "        for j in range(m.shape[1]):\n"
    "            acc += m[i, j]\n"
    "        out[i] = acc\n"
    "        t += acc\n"
    "    return t\n"
    "@njit(parallel=True)\n"
    "def pos2d(m):\n"
    "    t = 0\n"
    "    for i in prange(m.shape[0]):\n"
    "        for j in prange(m.shape[1]):\n"
    "            if m[i, j] > 0:\n"
    "                t += m[i, j]\n"
    "    return t\n"
    "@njit(parallel=True)\n"
    "def steps(a, start, stop, step):\n"
    "    s = 0\n"
    "    for i in prange(start, stop, step):\n"
    "        s += a[i] * i\n"
    "    return s\n"
    "@njit\n"
    "def serial(a):\n"
    "    s = 0.0\n"
    "    for i in prange(a.shape[0]):\n"
    "        s += a[i]\n"
    "    return s\n"
    "@njit(parallel=True)\n"
    "def scale(a, k):\n"
    "    for i in prange(a.shape[0]):\n"
    "        a[i] *= k\n"
    "        a[i] += 1.0\n"
    "@njit(parallel=True, boundscheck=True)\n"
    "def oob(a, k):\n"
    "    s = 0.0\n"
    "    for i in prange(a.shape[0]):\n"
    "        s += a[i + k]\n"
    "    return s\n"
    "@njit(parallel=True)\n"
    "def zdiv(a, d):\n"
    "    s = 0\n"
    "    for i in prange(a.shape[0]):\n"
    "        s += a[i] // (d + i % 3)\n"
    "    return s\n"
    "@njit(parallel=True)\n"
    "def scratch(n):\n"
    "    s = 0.0\n"
    "    for i in prange(n):\n"
    "        t = np.empty(300)\n" /* past a stack buffer (lower_scratch.h) */
    "        t[0] = i\n"
    "        s += t[0]\n"
    "    return s\n"
    "@njit(parallel=True)\n"
    "def axpb(x, w, out):\n"
    "    out[:] = x * w + 0.5\n"
    "    out[1:] += x[:-1]\n"
    "@njit(parallel=True)\n"
    "def hyp(m, v):\n"
    "    return np.sqrt(m * m + v * v) - 1.0\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "prange_c.py", src, &err);
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

static const int thread_counts[] = {1, 2, 7};

static uf_array *f64_array(int64_t n, double (*f)(int64_t))
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < n; i++)
        ((double *)uf_array_data(a))[i] = f(i);
    return a;
}

static uf_array *i64_array(int64_t n, int64_t (*f)(int64_t))
{
    uf_error err;
    uf_array *a = uf_empty(UF_INT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < n; i++)
        ((int64_t *)uf_array_data(a))[i] = f(i);
    return a;
}

static uf_array *i64_scalar(int64_t v)
{
    uf_error err;
    uf_array *a = uf_full(UF_INT64, 0, NULL, &v, UF_INT64, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

static double wave(int64_t i) { return sin((double)i * 0.37) * 1e3 + 0.1; }
static double ramp(int64_t i) { return 1.0 / (double)(i + 1); }
static int64_t ints(int64_t i) { return (i * 7919) % 1000 - 300; }

/* name(in) on `threads` threads; returns 0 or the error code, the
 * results in out[0..nout) (allocated). */
static int call_on(const char *name, uf_array **in, int nin, uf_array **out,
                   int nout, int threads, uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    uf_assert_ok(f != NULL, err);
    uf_call_options o = {.size = sizeof o, .num_threads = threads};
    for (int k = 0; k < nout; k++)
        out[k] = NULL;
    return uf_call(f, in, nin, out, nout, &o, err);
}

/* The results of name(in) on every thread count, the same bits each
 * time; the 1-thread results stay in out. */
static void same_on_all(const char *name, uf_array **in, int nin,
                        uf_array **out, int nout)
{
    uf_error err;
    for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts;
         t++) {
        uf_array *r[4];
        int rc = call_on(name, in, nin, r, nout, thread_counts[t], &err);
        uf_assert_ok(rc == 0, &err);
        for (int k = 0; k < nout; k++) {
            if (t == 0) {
                out[k] = r[k];
                continue;
            }
            assert_int_equal(uf_array_dtype(r[k]), uf_array_dtype(out[k]));
            assert_int_equal(uf_array_size(r[k]), uf_array_size(out[k]));
            if (memcmp(uf_array_data(r[k]), uf_array_data(out[k]),
                       (size_t)uf_array_size(r[k]) *
                           uf_dtype_itemsize(uf_array_dtype(r[k]))) != 0)
                uf_fail_at(__FILE__, __LINE__, "%s result %d differs on %d "
                           "threads", name, k, thread_counts[t]);
            uf_array_release(r[k]);
        }
    }
}

static double f64_of(const uf_array *a)
{
    return *(const double *)uf_array_data(a);
}

static int64_t i64_of(const uf_array *a)
{
    return *(const int64_t *)uf_array_data(a);
}

static void assert_close(double got, double want)
{
    if (!(fabs(got - want) <= 1e-12 * fmax(1.0, fabs(want))))
        uf_fail_at(__FILE__, __LINE__, "%.17g != %.17g", got, want);
}

static const int64_t sizes[] = {0, 1, 10, 63, 64, 65, 1000, 100003};

static void test_float_reductions(void **state)
{
    (void)state;
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        int64_t n = sizes[z];
        uf_array *a = f64_array(n, wave), *b = f64_array(n, ramp);
        const double *x = uf_array_data(a), *y = uf_array_data(b);
        double s = 0, d = 0, lo = INFINITY, hi = -INFINITY;
        for (int64_t i = 0; i < n; i++) {
            s += x[i];
            d += x[i] * y[i];
            lo = x[i] < lo ? x[i] : lo;
            hi = x[i] > hi ? x[i] : hi;
        }
        uf_array *r[2];
        same_on_all("psum", &a, 1, r, 1);
        assert_close(f64_of(r[0]), s);
        uf_array_release(r[0]);
        same_on_all("pdot", (uf_array *[]){a, b}, 2, r, 1);
        assert_close(f64_of(r[0]), d);
        uf_array_release(r[0]);
        same_on_all("serial", &a, 1, r, 1); /* prange as range: in order */
        assert_true(f64_of(r[0]) == s);
        uf_array_release(r[0]);
        same_on_all("pminmax", &a, 1, r, 2);
        assert_true(f64_of(r[0]) == lo && f64_of(r[1]) == hi);
        uf_array_release(r[0]);
        uf_array_release(r[1]);
        uf_array_release(a);
        uf_array_release(b);
    }
}

static void test_int_reductions(void **state)
{
    (void)state;
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        int64_t n = sizes[z];
        uf_array *a = i64_array(n, ints);
        const int64_t *x = uf_array_data(a);
        int64_t s = 7, d = 0;
        uint64_t p = 1; /* wraps as int64 does in NumPy */
        for (int64_t i = 0; i < n; i++) {
            s += x[i];
            d -= x[i] * 3;
            p *= (uint64_t)(((x[i] % 5) + 5) % 5 + 1);
        }
        uf_array *r[3];
        same_on_all("pint", &a, 1, r, 3);
        assert_int_equal(i64_of(r[0]), s);
        assert_int_equal(i64_of(r[1]), d);
        assert_int_equal(i64_of(r[2]), (int64_t)p);
        for (int k = 0; k < 3; k++)
            uf_array_release(r[k]);
        uf_array_release(a);
    }
}

/* Ranges with steps of both signs, empty ones included: s = sum a[i]*i. */
static void test_steps(void **state)
{
    (void)state;
    static const int64_t cases[][3] = {
        {0, 1000, 1}, {999, -1, -1}, {999, -1, -3}, {5, 900, 7},
        {900, 5, -7}, {10, 10, 1}, {10, 0, 1},     {0, 10, -1},
        {3, 4, 100},  {999, 0, -1000},
    };
    uf_array *a = i64_array(1000, ints);
    const int64_t *x = uf_array_data(a);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int64_t b = cases[c][0], e = cases[c][1], st = cases[c][2], s = 0;
        for (int64_t i = b; st > 0 ? i < e : i > e; i += st)
            s += x[i] * i;
        uf_array *in[4] = {a, i64_scalar(b), i64_scalar(e), i64_scalar(st)};
        uf_array *r;
        same_on_all("steps", in, 4, &r, 1);
        if (i64_of(r) != s)
            uf_fail_at(__FILE__, __LINE__, "prange(%lld, %lld, %lld): %lld "
                       "!= %lld", (long long)b, (long long)e, (long long)st,
                       (long long)i64_of(r), (long long)s);
        uf_array_release(r);
        for (int k = 1; k < 4; k++)
            uf_array_release(in[k]);
    }
    /* a zero step: ValueError, as range */
    uf_error err;
    uf_array *in[4] = {a, i64_scalar(0), i64_scalar(5), i64_scalar(0)};
    uf_array *r;
    assert_int_not_equal(call_on("steps", in, 4, &r, 1, 2, &err), 0);
    assert_non_null(strstr(err.message, "must not be zero"));
    for (int k = 1; k < 4; k++)
        uf_array_release(in[k]);
    uf_array_release(a);
}

/* Per-row writes and a reduction of the rows; nested prange (the inner
 * one serial) over a 2-D array. */
static void test_2d(void **state)
{
    (void)state;
    int64_t shape[2] = {517, 33};
    uf_error err;
    uf_array *m = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_array *mi = uf_empty(UF_INT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(m != NULL && mi != NULL, &err);
    double *x = uf_array_data(m);
    int64_t *xi = uf_array_data(mi);
    for (int64_t k = 0; k < shape[0] * shape[1]; k++) {
        x[k] = wave(k);
        xi[k] = ints(k);
    }
    double want_rows[517], total = 0;
    int64_t pos = 0;
    for (int64_t i = 0; i < shape[0]; i++) {
        double acc = 0;
        for (int64_t j = 0; j < shape[1]; j++) {
            acc += x[i * shape[1] + j];
            pos += xi[i * shape[1] + j] > 0 ? xi[i * shape[1] + j] : 0;
        }
        want_rows[i] = acc;
        total += acc;
    }
    for (size_t t = 0; t < 3; t++) {
        uf_array *out = uf_zeros(UF_FLOAT64, 1, shape, UF_ORDER_C, &err);
        uf_array *r;
        int rc = call_on("rows", (uf_array *[]){m, out}, 2, &r, 1,
                         thread_counts[t], &err);
        uf_assert_ok(rc == 0, &err);
        assert_close(f64_of(r), total);
        for (int64_t i = 0; i < shape[0]; i++)
            assert_true(((double *)uf_array_data(out))[i] == want_rows[i]);
        uf_array_release(r);
        uf_array_release(out);
    }
    uf_array *r;
    same_on_all("pos2d", &mi, 1, &r, 1);
    assert_int_equal(i64_of(r), pos);
    uf_array_release(r);
    uf_array_release(m);
    uf_array_release(mi);
}

/* a[i] op= v with i the prange index: plain stores, no result. */
static void test_array_updates(void **state)
{
    (void)state;
    uf_array *a = f64_array(100003, ramp);
    uf_array *k = NULL;
    uf_error err;
    double two = 2.0;
    k = uf_full(UF_FLOAT64, 0, NULL, &two, UF_FLOAT64, UF_ORDER_C, &err);
    uf_assert_ok(k != NULL, &err);
    uf_func *f = uf_module_get(mod, "scale", &err);
    uf_assert_ok(f != NULL, &err);
    uf_call_options o = {.size = sizeof o, .num_threads = 7};
    uf_assert_ok(uf_call(f, (uf_array *[]){a, k}, 2, NULL, 0, &o, &err) == 0,
                 &err);
    for (int64_t i = 0; i < 100003; i++)
        assert_true(((double *)uf_array_data(a))[i] == ramp(i) * 2.0 + 1.0);
    uf_array_release(k);
    uf_array_release(a);
}

/* Whole-array expressions in a parallel=True function: nests of 2^16
 * elements or more split along axis 0 over the threads, smaller ones
 * serial; the same values either way. */
static void test_array_expressions(void **state)
{
    (void)state;
    static const int64_t lens[] = {5, 65535, 65536, 100003};
    uf_error err;
    for (size_t z = 0; z < sizeof lens / sizeof *lens; z++) {
        int64_t n = lens[z];
        uf_array *x = f64_array(n, wave), *w = f64_array(n, ramp);
        const double *xv = uf_array_data(x), *wv = uf_array_data(w);
        for (size_t t = 0; t < 3; t++) {
            uf_array *out = uf_zeros(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
            uf_assert_ok(out != NULL, &err);
            uf_func *f = uf_module_get(mod, "axpb", &err);
            uf_call_options o = {.size = sizeof o,
                                 .num_threads = thread_counts[t]};
            uf_assert_ok(uf_call(f, (uf_array *[]){x, w, out}, 3, NULL, 0,
                                 &o, &err) == 0,
                         &err);
            const double *ov = uf_array_data(out);
            for (int64_t i = 0; i < n; i++) {
                double want = xv[i] * wv[i] + 0.5;
                if (i > 0)
                    want += xv[i - 1];
                if (ov[i] != want)
                    uf_fail_at(__FILE__, __LINE__, "n %lld, %d threads: "
                               "out[%lld] = %.17g, not %.17g", (long long)n,
                               thread_counts[t], (long long)i, ov[i], want);
            }
            uf_array_release(out);
        }
        uf_array_release(x);
        uf_array_release(w);
    }
    int64_t shape[2] = {1001, 97};
    uf_array *m = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_array *v = f64_array(97, ramp);
    uf_assert_ok(m != NULL, &err);
    double *mv = uf_array_data(m);
    for (int64_t k = 0; k < shape[0] * shape[1]; k++)
        mv[k] = wave(k);
    uf_array *r;
    same_on_all("hyp", (uf_array *[]){m, v}, 2, &r, 1);
    assert_int_equal(uf_array_ndim(r), 2);
    const double *rv = uf_array_data(r);
    for (int64_t i = 0; i < shape[0]; i++)
        for (int64_t j = 0; j < shape[1]; j++) {
            double a = mv[i * shape[1] + j], b = ramp(j);
            assert_true(rv[i * shape[1] + j] == sqrt(a * a + b * b) - 1.0);
        }
    uf_array_release(r);
    uf_array_release(m);
    uf_array_release(v);
}

/* Errors raised in a block reach the caller as from a serial loop. */
static void test_body_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = f64_array(10000, ramp), *ai = i64_array(10000, ints);
    uf_array *r = NULL;
    for (size_t t = 0; t < 3; t++) {
        uf_array *k = i64_scalar(1);
        int rc = call_on("oob", (uf_array *[]){a, k}, 2, &r, 1,
                         thread_counts[t], &err);
        assert_int_equal(rc, UF_ERR_INDEX);
        assert_non_null(strstr(err.message, "IndexError: index 10000 is out "
                                            "of bounds for axis 0"));
        assert_non_null(strstr(err.message, "prange_c.py:"));
        uf_array_release(k);
        k = i64_scalar(0);
        rc = call_on("zdiv", (uf_array *[]){ai, k}, 2, &r, 1,
                     thread_counts[t], &err);
        assert_int_not_equal(rc, 0);
        assert_non_null(strstr(err.message, "ZeroDivisionError"));
        uf_array_release(k);
    }
    /* allocation inside the body: values, no leak, and out of memory at
     * the Nth allocation of a call */
    long live = uf__nrt_live();
    uf_array *n = i64_scalar(5000);
    for (size_t t = 0; t < 3; t++) {
        uf_assert_ok(call_on("scratch", &n, 1, &r, 1, thread_counts[t],
                             &err) == 0,
                     &err);
        assert_true(f64_of(r) == 4999.0 * 5000.0 / 2);
        uf_array_release(r);
    }
    for (long fail = 1; fail <= 4000; fail += 1333) {
        uf__alloc_fail_at(fail);
        int rc = call_on("scratch", &n, 1, &r, 1, 2, &err);
        uf__alloc_fail_at(0);
        assert_int_equal(rc, UF_ERR_NOMEM);
    }
    assert_int_equal(uf__nrt_live(), live);
    uf_array_release(n);
    uf_array_release(a);
    uf_array_release(ai);
}

typedef struct bad_case {
    const char *body; /* a parallel=True function named f */
    const char *want;   /* in the message */
    int line, col;
} bad_case;

static void test_compile_errors(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"def f(a):\n    s = 0.0\n    for i in prange(a.shape[0]):\n"
         "        s = a[i]\n    return s\n",
         "variable 's' is assigned inside a prange loop", 9, 9},
        {"def f(a):\n    s = 0.0\n    for i in prange(a.shape[0]):\n"
         "        s += a[i]\n        a[i] = s\n    return s\n",
         "is a reduction read inside the prange loop", 8, 5},
        {"def f(a):\n    s = 0.0\n    for i in prange(a.shape[0]):\n"
         "        s += a[i]\n        s *= 2.0\n    return s\n",
         "not as a reduction", 10, 9},
        {"def f(a):\n    for i in prange(a.shape[0]):\n"
         "        if a[i] > 0:\n            break\n    return 0\n",
         "'break' out of a prange loop", 9, 13},
        {"def f(a):\n    for i in prange(a.shape[0]):\n"
         "        return a[i]\n    return 0.0\n",
         "'return' inside a prange loop", 8, 9},
        {"def f(a):\n    s = 0\n    for i in prange():\n        s += 1\n"
         "    return s\n",
         "prange", 8, 14},
        {"def f(a):\n    s = 0\n    for i in prange(1.5):\n        s += 1\n"
         "    return s\n",
         "must be integers", 8, 21},
        {"def f(a):\n    s = 0\n    for i in prange(1, 2, 3, 4):\n"
         "        s += 1\n    return s\n",
         "prange", 8, 14},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "import numpy as np\nfrom numba import njit, prange\n\n\n"
                 "@njit(parallel=True)\n%s",
                 cases[c].body);
        uf_error err;
        uf_module *m = uf_module_from_string(ctx, "bad.py", text, &err);
        uf_assert_ok(m != NULL, &err);
        uf_func *f = uf_module_get(m, "f", &err);
        uf_assert_ok(f != NULL, &err);
        uf_array *a = f64_array(10, ramp), *r = NULL;
        int rc = uf_call(f, &a, 1, &r, 1, NULL, &err);
        if (rc == 0 || !strstr(err.message, cases[c].want) ||
            err.line != cases[c].line || err.column != cases[c].col)
            uf_fail_at(__FILE__, __LINE__, "case %zu: rc %d, %d:%d: %s", c,
                       rc, err.line, err.column, err.message);
        uf_array_release(a);
        uf_module_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_reductions),
        cmocka_unit_test(test_int_reductions),
        cmocka_unit_test(test_steps),
        cmocka_unit_test(test_2d),
        cmocka_unit_test(test_array_updates),
        cmocka_unit_test(test_array_expressions),
        cmocka_unit_test(test_body_errors),
        cmocka_unit_test(test_compile_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
