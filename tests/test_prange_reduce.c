/* prange reductions on arrays and with /= (compiler/lower/
 * lower_prange_array.c, njit/njit_prange_array.c), and allocations in a
 * prange body swept per iteration, through uf_call on 1, 2 and 7 threads:
 * the same bits on each, exact values (integer-valued floats, powers of
 * two), 1-, 2- and 3-d reductions, `s = s + e`, an argument reduced in
 * place, empty loops; out of memory at every allocation of a call is
 * UF_ERR_NOMEM and leaks nothing; the allocator's peak of a loop that
 * allocates per iteration stays bounded by its variables; the operators
 * Numba refuses fail as Numba's do (// a TypingError, **, % and |= &= ^=
 * on arrays and numbers ValueErrors); an array reduction read elsewhere in
 * the body reads its block's partial. The Numba oracle of the same constructs is
 * tests/e2e/run_prange_oracle.py (tests/kernels/host/prange_reduce.py). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "import numpy as np\n"
    "from numba import njit, prange\n"
    "@njit(parallel=True)\n"
    "def rowsum(m):\n"
    "    s = np.zeros(m.shape[1])\n"
    "    for i in prange(m.shape[0]):\n"
    "        s += m[i, :]\n"
    "    return s\n"
    "@njit(parallel=True)\n"
    "def rowsum_rebind(m):\n"
    "    s = np.zeros(m.shape[1])\n"
    "    for i in prange(m.shape[0]):\n"
    "        s = s + m[i]\n"
    "    return s\n"
    "@njit(parallel=True)\n"
    "def halve(m):\n"
    "    s = np.full((2, m.shape[1]), 1024.0)\n"
    "    d = np.ones(3)\n"
    "    for i in prange(m.shape[0]):\n"
    "        s /= 2.0\n"
    "        d -= 1.0\n"
    "    return s, d\n"
    "@njit(parallel=True)\n"
    "def into(m, s):\n"
    "    for i in prange(m.shape[0]):\n"
    "        s *= 2.0\n"
    "    return s\n"
    "@njit(parallel=True)\n"
    "def pdiv(n):\n"
    "    s = 1000.0\n"
    "    for i in prange(n):\n"
    "        s /= 2.0\n"
    "    return s\n"
    "@njit(parallel=True)\n"
    "def rowsum_read(m, out):\n"
    "    s = np.zeros(m.shape[1])\n"
    "    for i in prange(m.shape[0]):\n"
    "        s += m[i, :]\n"
    "        out[i] = s[0]\n"
    "        if s.sum() > 1e300:\n"
    "            s[1] = 0.0\n"
    "    return s\n"
    "@njit(parallel=True)\n"
    "def fresh(n):\n"
    "    s = 0.0\n"
    "    for i in prange(n):\n"
    "        t = np.empty(100)\n"
    "        t[:] = i\n"
    "        u = t * 2.0\n"
    "        s += u[0]\n"
    "    return s\n";

static uf_context *ctx;
static uf_module *mod;
static const int thread_counts[] = {1, 2, 7};

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "prange_red.py", src, &err);
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

/* rows x cols of small integers (exact float sums in any order) */
static uf_array *matrix(int64_t rows, int64_t cols)
{
    uf_error err;
    int64_t shape[2] = {rows, cols};
    uf_array *a = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *d = uf_array_data(a);
    for (int64_t i = 0; i < rows * cols; i++)
        d[i] = (double)((i * 7919) % 23 - 11);
    return a;
}

static uf_array *i64_scalar(int64_t v)
{
    uf_error err;
    uf_array *a = uf_full(UF_INT64, 0, NULL, &v, UF_INT64, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

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

static void column_sums(const uf_array *m, double *want)
{
    const int64_t *sh = uf_array_shape(m);
    const double *d = uf_array_data(m);
    for (int64_t j = 0; j < sh[1]; j++) {
        want[j] = 0;
        for (int64_t i = 0; i < sh[0]; i++)
            want[j] += d[i * sh[1] + j];
    }
}

static void test_row_sums(void **state)
{
    (void)state;
    static const int64_t rows[] = {0, 1, 63, 64, 517, 20000};
    static const char *const kernels[] = {"rowsum", "rowsum_rebind"};
    for (size_t k = 0; k < 2; k++)
        for (size_t c = 0; c < sizeof rows / sizeof *rows; c++) {
            uf_array *m = matrix(rows[c], 33);
            double want[33], first[33];
            column_sums(m, want);
            for (size_t t = 0; t < 3; t++) {
                uf_error err;
                uf_array *r;
                uf_assert_ok(call_on(kernels[k], &m, 1, &r, 1,
                                     thread_counts[t], &err) == 0,
                             &err);
                assert_int_equal(uf_array_ndim(r), 1);
                assert_int_equal(uf_array_shape(r)[0], 33);
                const double *got = uf_array_data(r);
                if (t == 0)
                    memcpy(first, got, sizeof first);
                for (int j = 0; j < 33; j++)
                    if (got[j] != want[j] || got[j] != first[j])
                        uf_fail_at(__FILE__, __LINE__,
                                   "%s %lld rows, %d threads: [%d] %.17g, "
                                   "want %.17g",
                                   kernels[k], (long long)rows[c],
                                   thread_counts[t], j, got[j], want[j]);
                uf_array_release(r);
            }
            uf_array_release(m);
        }
}

/* An array reduction read elsewhere in the body (Numba accepts it): the
 * reads see the block's partial, so out[i] holds the running sum of row
 * i's block; blocks come from the trip count alone, so the same bits on
 * every thread count, and s is still the column sums. */
static void test_read_in_body(void **state)
{
    (void)state;
    static const int64_t rows[] = {0, 1, 63, 64, 517, 20000};
    for (size_t c = 0; c < sizeof rows / sizeof *rows; c++) {
        uf_error err;
        uf_array *m = matrix(rows[c], 3);
        double want[3];
        column_sums(m, want);
        const double *md = uf_array_data(m);
        int64_t n = rows[c];
        uf_array *first = NULL;
        for (size_t t = 0; t < 3; t++) {
            uf_array *out = uf_zeros(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
            uf_assert_ok(out != NULL, &err);
            uf_array *in[2] = {m, out}, *r;
            uf_assert_ok(call_on("rowsum_read", in, 2, &r, 1,
                                 thread_counts[t], &err) == 0,
                         &err);
            const double *got = uf_array_data(r), *o = uf_array_data(out);
            for (int j = 0; j < 3; j++)
                if (got[j] != want[j])
                    uf_fail_at(__FILE__, __LINE__, "%lld rows, %d threads: "
                               "s[%d] %.17g, want %.17g", (long long)n,
                               thread_counts[t], j, got[j], want[j]);
            /* each read is a running sum from its block's start: the
             * first row of a block reads its own value */
            for (int64_t i = 0; i < n; i++) {
                double d = o[i] - (i > 0 ? o[i - 1] : 0.0);
                if (d != md[i * 3] && o[i] != md[i * 3])
                    uf_fail_at(__FILE__, __LINE__, "%lld rows: out[%lld] "
                               "%.17g is no running sum", (long long)n,
                               (long long)i, o[i]);
            }
            if (t == 0)
                first = out;
            else {
                if (memcmp(uf_array_data(first), o,
                           (size_t)n * sizeof(double)) != 0)
                    uf_fail_at(__FILE__, __LINE__, "%lld rows: the reads "
                               "differ on %d threads", (long long)n,
                               thread_counts[t]);
                uf_array_release(out);
            }
            uf_array_release(r);
        }
        uf_array_release(first);
        uf_array_release(m);
    }
}

static void test_div_and_inplace(void **state)
{
    (void)state;
    uf_error err;
    uf_array *m = matrix(10, 5), *r[2];
    for (size_t t = 0; t < 3; t++) {
        uf_assert_ok(call_on("halve", &m, 1, r, 2, thread_counts[t], &err) ==
                         0,
                     &err);
        assert_int_equal(uf_array_ndim(r[0]), 2);
        for (int j = 0; j < 10; j++)
            assert_true(((double *)uf_array_data(r[0]))[j] == 1.0);
        for (int j = 0; j < 3; j++)
            assert_true(((double *)uf_array_data(r[1]))[j] == -9.0);
        uf_array_release(r[0]);
        uf_array_release(r[1]);
        /* s /= 2.0 ten times on a scalar: Numba's 1000 / 1024 */
        uf_array *n = i64_scalar(10);
        uf_assert_ok(call_on("pdiv", &n, 1, r, 1, thread_counts[t], &err) ==
                         0,
                     &err);
        assert_true(*(double *)uf_array_data(r[0]) == 0.9765625);
        uf_array_release(r[0]);
        uf_array_release(n);
        /* an argument reduced in place, as Numba: the caller sees it */
        int64_t len = 5;
        double one = 1.0;
        uf_array *s = uf_full(UF_FLOAT64, 1, &len, &one, UF_FLOAT64,
                              UF_ORDER_C, &err);
        uf_array *in[2] = {m, s};
        uf_assert_ok(call_on("into", in, 2, r, 1, thread_counts[t], &err) ==
                         0,
                     &err);
        for (int j = 0; j < 5; j++) {
            assert_true(((double *)uf_array_data(r[0]))[j] == 1024.0);
            assert_true(((double *)uf_array_data(s))[j] == 1024.0);
        }
        uf_array_release(r[0]);
        uf_array_release(s);
    }
    uf_array_release(m);
}

/* Out of memory at the Nth allocation of a call (the partials, the
 * rebinding's arrays, the body's temporaries): UF_ERR_NOMEM, and nothing
 * left behind. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_array *m = matrix(300, 9), *r;
    static const char *const kernels[] = {"rowsum", "rowsum_rebind"};
    for (size_t k = 0; k < 2; k++) {
        uf_assert_ok(call_on(kernels[k], &m, 1, &r, 1, 2, &err) == 0, &err);
        uf_array_release(r);
        long live = uf__nrt_live(), heap = uf__alloc_live();
        int failed = 0;
        for (long fail = 1; fail <= 400; fail += 7) {
            uf__alloc_fail_at(fail);
            int rc = call_on(kernels[k], &m, 1, &r, 1, 2, &err);
            uf__alloc_fail_at(0);
            if (rc == 0) {
                uf_array_release(r);
                continue;
            }
            failed++;
            assert_int_equal(rc, UF_ERR_NOMEM);
        }
        assert_true(failed > 0);
        assert_int_equal(uf__nrt_live(), live);
        assert_int_equal(uf__alloc_live(), heap);
    }
    uf_array_release(m);
}

/* Arrays made in a prange body are freed when their iteration ends: on
 * one thread at most the body's variables' blocks are alive, not the
 * block of iterations' (200000 / 256 = 782 before). */
static void test_body_sweep(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64_scalar(200000), *r;
    uf_assert_ok(call_on("fresh", &n, 1, &r, 1, 1, &err) == 0, &err);
    uf_array_release(r);
    for (size_t t = 0; t < 3; t++) {
        long live = uf__nrt_live();
        uf__nrt_peak_reset();
        uf_assert_ok(call_on("fresh", &n, 1, &r, 1, thread_counts[t], &err) ==
                         0,
                     &err);
        long peak = uf__nrt_peak() - live;
        assert_true(*(double *)uf_array_data(r) == 199999.0 * 200000.0);
        uf_array_release(r);
        printf("fresh on %d threads: %ld blocks alive at most\n",
               thread_counts[t], peak);
        /* per thread t and u, and the previous iteration's (variables
         * keep theirs at the latch until they are assigned again) */
        if (peak > 4L * thread_counts[t])
            uf_fail_at(__FILE__, __LINE__, "%d threads: %ld blocks alive",
                       thread_counts[t], peak);
        assert_int_equal(uf__nrt_live(), live);
    }
    uf_array_release(n);
}

typedef struct bad_case {
    const char *body; /* a parallel=True function named f of one array */
    int code;
    const char *want; /* in the message */
    int line, col;
} bad_case;

static void test_refused(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"def f(a):\n    s = 1000\n    for i in prange(a.shape[0]):\n"
         "        s //= 2\n    return s\n",
         UF_ERR_TYPE, "Parallel floordiv reductions are not supported", 7,
         9},
        {"def f(a):\n    s = 2.0\n    for i in prange(a.shape[0]):\n"
         "        s = s ** 1.01\n    return s\n",
         UF_ERR_VALUE, "unsupported reduction function", 7, 9},
        {"def f(a):\n    s = 1000\n    for i in prange(a.shape[0]):\n"
         "        s %= 7\n    return s\n",
         UF_ERR_VALUE, "unsupported reduction function", 7, 9},
        {"def f(a):\n    s = np.zeros(3, dtype=np.int64)\n"
         "    for i in prange(a.shape[0]):\n        s |= 1\n    return s\n",
         UF_ERR_VALUE, "unsupported reduction function", 7, 9},
        {"def f(a):\n    s = np.zeros(3, dtype=np.bool_)\n"
         "    for i in prange(a.shape[0]):\n        s = s + (a[i] > 0)\n"
         "    return s\n",
         UF_ERR_UNSUPPORTED, "prange reduction with + on 's'", 6, 5},
        {"def f(a):\n    s = np.zeros(3, dtype=np.int64)\n"
         "    for i in prange(a.shape[0]):\n        s /= 2\n    return s\n",
         0, "", 0, 0}, /* NumPy's casting refusal, whatever it says */
        /* |= &= ^= on numbers: Numba 0.68's supported_reduction has
         * none of them (its ValueError at the statement) */
        {"def f(a):\n    s = 0\n    for i in prange(a.shape[0]):\n"
         "        s |= i\n    return s\n",
         UF_ERR_VALUE, "unsupported reduction function", 7, 9},
        {"def f(a):\n    s = True\n    for i in prange(a.shape[0]):\n"
         "        s &= a[i] > 0\n    return s\n",
         UF_ERR_VALUE, "unsupported reduction function", 7, 9},
        {"def f(a):\n    s = 5\n    for i in prange(a.shape[0]):\n"
         "        s = s ^ i\n    return s\n",
         UF_ERR_VALUE, "unsupported reduction function", 7, 9},
        /* a number read elsewhere in the body: Numba's result would
         * depend on its threads */
        {"def f(a):\n    s = 0.0\n    for i in prange(a.shape[0]):\n"
         "        s += a[i]\n        a[i] = s\n    return s\n",
         UF_ERR_UNSUPPORTED, "is a reduction read inside the prange loop",
         6, 5},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "import numpy as np\nfrom numba import njit, prange\n"
                 "@njit(parallel=True)\n%s",
                 cases[c].body);
        uf_error err;
        uf_module *m = uf_module_from_string(ctx, "bad.py", text, &err);
        uf_assert_ok(m != NULL, &err);
        uf_func *f = uf_module_get(m, "f", &err);
        uf_assert_ok(f != NULL, &err);
        int64_t len = 10;
        uf_array *a = uf_zeros(UF_FLOAT64, 1, &len, UF_ORDER_C, &err), *r;
        r = NULL;
        int rc = uf_call(f, &a, 1, &r, 1, NULL, &err);
        if (rc == 0 ||
            (cases[c].code &&
             (rc != cases[c].code || !strstr(err.message, cases[c].want) ||
              err.line != cases[c].line || err.column != cases[c].col)))
            uf_fail_at(__FILE__, __LINE__, "case %zu: rc %d, %d:%d: %s", c,
                       rc, rc ? err.line : 0, rc ? err.column : 0,
                       rc ? err.message : "no error");
        uf_array_release(r);
        uf_array_release(a);
        uf_module_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_sums),
        cmocka_unit_test(test_read_in_body),
        cmocka_unit_test(test_div_and_inplace),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_body_sweep),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
