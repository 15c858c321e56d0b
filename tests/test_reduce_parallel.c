/* Reductions on the `parallel` target: every case of the table runs on
 * `cpu` and then on `parallel` with 1, 2, 7 and the default number of
 * threads, and the results must be bit for bit the same (cpu is checked
 * against NumPy and Numba by test_reduce; here it is the oracle). That
 * includes float32 and float64 sums of 1e6+ elements, whose pairwise tree
 * is cut between threads along its own splits: a cut anywhere else would
 * change the last bits. Also: outer iterations shared (axis=1), kept rows
 * cut into parts (axis=0), runs folded in order (axis=None of a strided
 * view), strided, negative-stride and F-ordered inputs, given strided
 * outputs, keepdims, initial, empty and 0-d inputs, reductions that may
 * not reassociate (left to right), integer wrap-around, NaN through
 * max/min, kernels without identity and @reduce kernels. A kernel failing
 * in a worker reaches uf_error with cpu's message, and a reduction op made
 * of C functions shows the work really is cut and shared by two threads.
 * tests/cmake/parallel_gu.cmake runs this under each threading layer and
 * under a bad UFJIT_THREADING_LAYER (where only the error cases run). */
#include "parallel_test_util.h"

#include "reduce/reduce.h"

#define KERNELS UF_TEST_DATA_DIR "/../kernels/reduce_kernels.py"

static uf_module *mod;

/* A kernel of reduce_kernels.py, loaded by setup. */
static uf_func *kernel(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

/* ---- operands ------------------------------------------------------------ */

enum fill { F_REAL, F_POS, F_INT, F_BIGINT, F_NAN, F_SENTINEL };

/* Reals of wide magnitudes, so that the order of a float sum shows;
 * integers in [-1000, 1000] or (F_BIGINT) any int64. */
static void fill_element(const spec *s, int64_t i, char *p)
{
    double u = unit_random();
    /* wide magnitudes, so that the order of a float sum shows */
    double v = (u - 0.3) * exp2((double)(next_random() % 40) - 20);
    int64_t k = (int64_t)(next_random() % 2001) - 1000;

    if (s->fill == F_POS)
        v = fabs(v), k = k < 0 ? -k : k;
    if (s->fill == F_BIGINT)
        k = (int64_t)next_random();
    if (s->fill == F_NAN && i % 1009 == 500)
        v = NAN;
    if (s->fill == F_SENTINEL)
        v = -7.25, k = 77;
    switch (s->dtype) {
    case UF_INT8: *(int8_t *)p = (int8_t)k; break;
    case UF_INT64: *(int64_t *)p = k; break;
    case UF_FLOAT32: *(float *)p = (float)v; break;
    case UF_FLOAT64: *(double *)p = v; break;
    case UF_COMPLEX128:
        ((double *)p)[0] = v;
        ((double *)p)[1] = -3.0 * v;
        break;
    default: fail_msg("dtype %s not handled", uf_dtype_name(s->dtype));
    }
}

static uf_array *make(const spec *s, uint64_t seed)
{
    return make_spec(s, seed, fill_element);
}

/* ---- the table ----------------------------------------------------------- */

#define F8 UF_FLOAT64
#define F4 UF_FLOAT32
#define I8 UF_INT64
#define NOAX -9 /* axes[0]: the default axes */
#define ALL -8  /* axes[0]: every axis */
#define NOINIT NAN

typedef struct row {
    const char *file;
    int line;
    const char *kernel;
    spec in;
    int axes[4]; /* ending at the first 99 */
    bool keepdims;
    double initial; /* NOINIT: none */
    spec out;       /* dtype UF_NTYPES: allocated */
} row;

#define NOOUT {UF_NTYPES, 0, {0}, NULL, false, F_REAL}
#define AX(...) {__VA_ARGS__, 99}

static const row rows[] = {
    /* full sums: the tree cut between threads */
    {LOC, "vadd", {F8, 1, {1000003}, NULL, false, F_REAL}, AX(NOAX), false,
     NOINIT, NOOUT},
    {LOC, "vadd", {F4, 1, {2097153}, NULL, false, F_REAL}, AX(NOAX), false,
     NOINIT, NOOUT},
    {LOC, "vadd", {F4, 1, {3000000}, "::3", false, F_REAL}, AX(NOAX), false,
     NOINIT, NOOUT},
    {LOC, "vadd", {F8, 1, {1048576}, "::-1", false, F_REAL}, AX(NOAX),
     false, 1.5, NOOUT},
    {LOC, "vadd", {F8, 2, {1000, 1000}, NULL, false, F_REAL}, AX(ALL), false,
     NOINIT, NOOUT},
    /* axis=None of a strided view: 1000 runs folded in order */
    {LOC, "vadd", {F8, 2, {1000, 2000}, ":, :1000", false, F_REAL}, AX(ALL),
     false, NOINIT, NOOUT},
    /* 3 long runs: each cut along its tree */
    {LOC, "vadd", {F8, 2, {3, 400000}, NULL, false, F_REAL}, AX(1), false,
     NOINIT, NOOUT},
    /* 7 runs too short to cut: the outer iterations are shared */
    {LOC, "vadd", {F4, 2, {7, 10000}, NULL, false, F_REAL}, AX(1), false,
     NOINIT, NOOUT},
    /* axis 0 (kept rows cut in parts), axis 1 (outer iterations) */
    {LOC, "vadd", {F8, 2, {1000, 3000}, NULL, false, F_REAL}, AX(0), false,
     NOINIT, NOOUT},
    {LOC, "vadd", {F8, 2, {64, 40000}, NULL, false, F_REAL}, AX(0), false,
     NOINIT, NOOUT},
    {LOC, "vadd", {F4, 3, {9, 7, 20000}, NULL, false, F_REAL}, AX(0, 1),
     true, NOINIT, NOOUT},
    {LOC, "vadd", {F8, 2, {3000, 1000}, NULL, false, F_REAL}, AX(1), false,
     NOINIT, NOOUT},
    {LOC, "vadd", {F4, 2, {900, 700}, NULL, true, F_REAL}, AX(0), false,
     NOINIT, NOOUT},
    {LOC, "vadd", {F4, 2, {900, 700}, NULL, true, F_REAL}, AX(1), false,
     NOINIT, NOOUT},
    /* several axes, keepdims, initial */
    {LOC, "vadd", {F8, 3, {40, 50, 60}, NULL, false, F_REAL}, AX(0, 2),
     true, 2.5, NOOUT},
    {LOC, "vadd", {I8, 4, {8, 9, 10, 110}, NULL, false, F_BIGINT}, AX(1, 3),
     false, NOINIT, NOOUT},
    {LOC, "vadd", {UF_INT8, 1, {300001}, NULL, false, F_INT}, AX(NOAX),
     false, NOINIT, NOOUT},
    {LOC, "vadd", {UF_COMPLEX128, 1, {200001}, NULL, false, F_REAL},
     AX(NOAX), false, NOINIT, NOOUT},
    /* into a given negative-stride output */
    {LOC, "vadd", {F8, 2, {800, 600}, NULL, false, F_REAL}, AX(0), false,
     NOINIT, {F8, 1, {1200}, "::-2", false, F_SENTINEL}},
    {LOC, "vadd", {F8, 2, {50, 9000}, NULL, false, F_REAL}, AX(0), false,
     NOINIT, {F8, 1, {18000}, "::-2", false, F_SENTINEL}},
    {LOC, "vmul", {F8, 2, {500, 600}, NULL, false, F_POS}, AX(1), false,
     NOINIT, NOOUT},
    /* max/min: reorderable, NaN in the data */
    {LOC, "pymax", {I8, 2, {2000, 300}, NULL, false, F_BIGINT}, AX(ALL),
     false, NOINIT, NOOUT},
    {LOC, "pymax", {F8, 1, {500000}, NULL, false, F_NAN}, AX(NOAX), false,
     NOINIT, NOOUT},
    {LOC, "nanmax", {F4, 1, {600000}, NULL, false, F_NAN}, AX(NOAX), false,
     NOINIT, NOOUT},
    {LOC, "nanmin", {F8, 2, {600, 700}, NULL, false, F_NAN}, AX(0), false,
     NOINIT, NOOUT},
    {LOC, "nanmin", {F8, 2, {60, 20000}, NULL, false, F_NAN}, AX(0), false,
     NOINIT, NOOUT},
    /* not reorderable: left to right (serial for one outer iteration) */
    {LOC, "sub", {F8, 1, {300000}, NULL, false, F_REAL}, AX(NOAX), false,
     NOINIT, NOOUT},
    {LOC, "sub", {F8, 2, {1000, 300}, NULL, false, F_REAL}, AX(1), false,
     NOINIT, NOOUT},
    {LOC, "sub", {I8, 2, {300, 1000}, NULL, false, F_BIGINT}, AX(0), false,
     NOINIT, NOOUT},
    {LOC, "sub", {I8, 2, {30, 50000}, NULL, false, F_BIGINT}, AX(0), false,
     NOINIT, NOOUT},
    {LOC, "first_digit", {I8, 2, {2000, 40}, NULL, false, F_INT}, AX(1),
     false, NOINIT, NOOUT},
    /* no identity: each reduction starts from its first element */
    {LOC, "add_noid", {F8, 2, {400, 1000}, NULL, false, F_REAL}, AX(1),
     false, NOINIT, NOOUT},
    {LOC, "add_noid", {F8, 1, {1000001}, NULL, false, F_REAL}, AX(NOAX),
     false, NOINIT, NOOUT},
    /* @cuda.reduce kernels: every axis by default, the boxes of the
     * first element */
    {LOC, "sum_reduce", {F8, 2, {1000, 1000}, NULL, true, F_REAL}, AX(NOAX),
     false, NOINIT, NOOUT},
    {LOC, "max_reduce", {F4, 3, {100, 100, 100}, "::-1", false, F_REAL},
     AX(NOAX), false, NOINIT, NOOUT},
    /* small, empty, 0-d */
    {LOC, "vadd", {F8, 1, {10}, NULL, false, F_REAL}, AX(NOAX), false,
     NOINIT, NOOUT},
    {LOC, "vadd", {F8, 2, {0, 100000}, NULL, false, F_REAL}, AX(0), false,
     NOINIT, NOOUT},
    {LOC, "vadd", {F8, 2, {0, 100000}, NULL, false, F_REAL}, AX(1), false,
     NOINIT, NOOUT},
    {LOC, "vadd", {F8, 0, {0}, NULL, false, F_REAL}, AX(NOAX), false, NOINIT,
     NOOUT},
};

static int reduce_on(const row *r, uf_array *in, uf_array **out,
                     const char *target, int threads, uf_error *err)
{
    int naxes = 0;
    uf_array *init = NULL;
    uf_call_options o = {.size = sizeof o, .target = target,
                         .num_threads = threads, .keepdims = r->keepdims};
    uf_func *f = kernel(r->kernel);

    while (r->axes[naxes] != 99)
        naxes++;
    if (r->axes[0] == ALL)
        o.axes_mode = UF_AXES_ALL;
    else if (r->axes[0] != NOAX) {
        o.axes_mode = UF_AXES_LIST;
        o.naxes = naxes;
        o.axes = r->axes;
    }
    if (!isnan(r->initial)) {
        init = uf_full(F8, 0, NULL, &r->initial, F8, UF_ORDER_C, err);
        uf_assert_ok(init != NULL, err);
        o.initial = init;
    }
    int rc = strstr(r->kernel, "_reduce") != NULL
                 ? uf_call(f, &in, 1, out, 1, &o, err)
                 : uf_reduce(f, in, out, &o, err);
    uf_array_release(init);
    return rc;
}

static void run_row(const row *r)
{
    static const int threads[] = {1, 2, 7, 0};
    uf_array *in = make(&r->in, 1), *want, *got;
    uf_error err;

    want = r->out.dtype == UF_NTYPES ? NULL : make(&r->out, 2);
    if (reduce_on(r, in, &want, "cpu", 0, &err) != 0)
        uf_fail_at(r->file, r->line, "cpu: %s", err.message);
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        char what[64];

        got = r->out.dtype == UF_NTYPES ? NULL : make(&r->out, 2);
        if (reduce_on(r, in, &got, "parallel", threads[t], &err) != 0)
            uf_fail_at(r->file, r->line, "parallel, %d threads: %s",
                       threads[t], err.message);
        snprintf(what, sizeof what, "%s, %d threads", r->kernel, threads[t]);
        uf_assert_same_bytes(r->file, r->line, what, want, got);
        uf_array_release(got);
    }
    uf_array_release(want);
    uf_array_release(in);
}

static void test_parallel_matches_cpu(void **state)
{
    (void)state;
    if (layer_is_bad())
        skip();
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        run_row(&rows[i]);
}

/* The pairwise tree is what cpu computes: on 1e6 float32 values a
 * left-to-right float32 sum is far from the exact one, the tree (on any
 * thread count) is not. */
static void test_large_sum_accuracy(void **state)
{
    (void)state;
    if (layer_is_bad())
        skip();
    uf_error err;
    spec s = {F4, 1, {1 << 20}, NULL, false, F_POS};
    uf_array *a = make(&s, 7), *out = NULL;
    const float *x = uf_array_data(a);
    double exact = 0;
    float naive = 0;
    for (int64_t i = 0; i < (1 << 20); i++) {
        exact += x[i];
        naive += x[i];
    }
    uf_call_options o = {.size = sizeof o, .target = "parallel",
                         .num_threads = 2};
    uf_assert_ok(uf_reduce(kernel("vadd"), a, &out, &o, &err) == 0, &err);
    double got = *(const float *)uf_array_data(out);
    assert_true(fabs(got - exact) < 1e-5 * exact);
    assert_true(fabs(got - exact) < fabs((double)naive - exact));
    uf_array_release(out);
    uf_array_release(a);
}

/* ---- errors in workers --------------------------------------------------- */

static void test_worker_errors(void **state)
{
    (void)state;
    static const int threads[] = {1, 2, 7, 0};
    static const int64_t bad[][2] = {{700001, -1}, {3, 999990}};
    spec s = {I8, 1, {1000000}, NULL, false, F_POS};
    uf_func *f = kernel("checked_sum");
    uf_error err, cfg;
    bool bad_layer = uf__parallel_config_error(&cfg) != 0;

    for (size_t k = 0; k < 2; k++) {
        uf_array *a = make(&s, 3);
        char want[sizeof err.message];
        int64_t *x = uf_array_data(a);
        for (int b = 0; b < 2; b++)
            if (bad[k][b] >= 0)
                x[bad[k][b]] = -5;
        /* cpu first (t = -1), then each thread count */
        for (int t = -1; t < (int)(sizeof threads / sizeof threads[0]);
             t++) {
            bool cpu = t < 0;
            uf_array *out = NULL;
            uf_call_options o = {.size = sizeof o,
                                 .target = cpu ? "cpu" : "parallel",
                                 .num_threads = cpu ? 0 : threads[t]};
            int rc = uf_call(f, &a, 1, &out, 1, &o, &err);
            assert_null(out);
            if (bad_layer && !cpu) {
                assert_int_equal(rc, cfg.code);
                assert_string_equal(err.message, cfg.message);
                continue;
            }
            assert_int_equal(rc, UF_ERR_VALUE);
            assert_non_null(strstr(err.message, "AssertionError"));
            if (cpu)
                snprintf(want, sizeof want, "%s", err.message);
            else
                assert_string_equal(err.message, want);
        }
        uf_array_release(a);
    }
}

static void test_bad_options(void **state)
{
    (void)state;
    spec s = {F8, 1, {10}, NULL, false, F_REAL};
    uf_array *a = make(&s, 1), *out = NULL;
    uf_error err, cfg;
    uf_call_options o = {.size = sizeof o, .target = "parallel",
                         .num_threads = -2};

    assert_int_equal(uf_reduce(kernel("vadd"), a, &out, &o, &err),
                     UF_ERR_VALUE);
    assert_string_equal(err.message, "num_threads must be positive, or 0 "
                                     "for the default (got -2)");
    o.num_threads = 2;
    if (uf__parallel_config_error(&cfg) != 0) {
        /* every size of parallel call fails, cpu ones do not */
        assert_int_equal(uf_reduce(kernel("vadd"), a, &out, &o, &err),
                         cfg.code);
        assert_string_equal(err.message, cfg.message);
        assert_null(out);
    }
    o.target = "cpu";
    uf_assert_ok(uf_reduce(kernel("vadd"), a, &out, &o, &err) == 0, &err);
    uf_array_release(out);
    uf_array_release(a);
}

/* A kernel declared target='parallel' reduces there by default. */
static const char declared_src[] =
    "from numba import vectorize\n"
    "@vectorize(['float64(float64, float64)'], identity=0,\n"
    "           target='parallel')\n"
    "def padd(a, b):\n"
    "    return a + b\n";

static void test_declared_target(void **state)
{
    (void)state;
    spec s = {F8, 1, {1000003}, NULL, false, F_REAL};
    uf_array *a = make(&s, 4), *want = NULL, *got = NULL;
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "declared.py", declared_src,
                                         &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "padd", &err);
    uf_assert_ok(f != NULL, &err);
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};

    uf_assert_ok(uf_reduce(f, a, &want, &cpu, &err) == 0, &err);
    int rc = uf_reduce(f, a, &got, NULL, &err);
    if (layer_is_bad()) {
        uf_error cfg;
        uf__parallel_config_error(&cfg);
        assert_int_equal(rc, cfg.code);
        assert_null(got);
    } else {
        uf_assert_ok(rc == 0, &err);
        uf_assert_same_bytes(LOC, "declared parallel", want, got);
    }
    uf_array_release(want);
    uf_array_release(got);
    uf_array_release(a);
    uf_module_free(m);
}

/* ---- how the work is cut, seen from C functions -------------------------- */

static struct {
    atomic_int trees, rows, seqs;
    atomic_llong elements;
    thread_seen th;
} seen;

static int c_combine(void *acc, const void *b)
{
    *(double *)acc += *(const double *)b;
    return 0;
}

static int c_seq(void *acc, const char *x, int64_t n, int64_t stride)
{
    atomic_fetch_add(&seen.seqs, 1);
    thread_seen_enter(&seen.th);
    for (int64_t i = 0; i < n; i++)
        *(double *)acc += *(const double *)(x + i * stride);
    return 0;
}

/* Not a real tree: the pieces it is given are what the test looks at. */
static int c_tree(void *res, const char *x, int64_t n)
{
    atomic_fetch_add(&seen.trees, 1);
    atomic_fetch_add(&seen.elements, n);
    thread_seen_enter(&seen.th);
    double s = 0;
    for (int64_t i = 0; i < n; i++)
        s += ((const double *)x)[i];
    *(double *)res = s;
    return 0;
}

static int c_binary(void *lctx, char *const *d, const int64_t *n,
                    const int64_t *st, void *aux)
{
    (void)lctx, (void)aux;
    atomic_fetch_add(&seen.rows, 1);
    atomic_fetch_add(&seen.elements, n[0]);
    thread_seen_enter(&seen.th);
    for (int64_t i = 0; i < n[0]; i++)
        *(double *)(d[2] + i * st[2]) = *(double *)(d[0] + i * st[0]) +
                                        *(double *)(d[1] + i * st[1]);
    return 0;
}

static void reset_seen(bool wait)
{
    atomic_store(&seen.trees, 0);
    atomic_store(&seen.rows, 0);
    atomic_store(&seen.seqs, 0);
    atomic_store(&seen.elements, 0);
    thread_seen_reset(&seen.th, wait);
}

/* Reduces a C-order (rows, cols) float64 array of ones with the C op
 * along `axis` (-1: both) on 2 threads (`parallel`) or on cpu; checks
 * the sums. */
static void c_reduce(const uf__reduce_op *op, int64_t rows_, int64_t cols,
                     int axis, bool parallel)
{
    uf_error err;
    double one = 1.0;
    uf_array *a = uf_full(F8, 2, (int64_t[]){rows_, cols}, &one, F8,
                          UF_ORDER_C, &err);
    int64_t nout = axis == 0 ? cols : axis == 1 ? rows_ : 1;
    uf_array *out = uf_zeros(F8, 1, &nout, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL && out != NULL, &err);
    bool red[2] = {axis != 1, axis != 0};
    int64_t os[2] = {axis == 1 ? 8 : 0, axis == 0 ? 8 : 0};
    uf__reduce_args args = {op, 2, uf_array_shape(a), uf_array_data(a),
                            uf_array_strides(a), uf_array_data(out), os,
                            red, true,
                            uf__target_find(parallel ? "parallel" : "cpu"),
                            2};
    uf_assert_ok(uf__reduce_exec(&args, &err) == 0, &err);
    double want = axis == 0   ? (double)rows_
                  : axis == 1 ? (double)cols
                              : (double)(rows_ * cols);
    const double *y = uf_array_data(out);
    for (int64_t i = 0; i < nout; i++)
        if (y[i] != want)
            fail_msg("axis %d, element %lld: %g, not %g", axis,
                     (long long)i, y[i], want);
    uf_array_release(out);
    uf_array_release(a);
}

static void test_work_split(void **state)
{
    (void)state;
    if (layer_is_bad())
        skip();
    uf__reduce_op op = {.name = "c_add", .type = F8, .kind = UF__RK_ADD,
                        .reorderable = true, .reassociate = true,
                        .fns = {c_combine, c_seq, c_tree, c_binary}};
    bool serial = strcmp(uf__parallel_layer(), "serial") == 0;

    /* a full sum of 2^20 + 1 elements: the tree cut into 8 pieces */
    reset_seen(!serial);
    c_reduce(&op, 1, (1 << 20) + 1, -1, true);
    assert_int_equal(atomic_load(&seen.trees), serial ? 1 : 8);
    assert_int_equal(atomic_load(&seen.elements), (1 << 20) + 1);
    assert_int_equal(atomic_load(&seen.th.other_thread), !serial);
    reset_seen(false);
    c_reduce(&op, 1, (1 << 20) + 1, -1, false);
    assert_int_equal(atomic_load(&seen.trees), 1);
    assert_false(atomic_load(&seen.th.other_thread));
    /* axis 0: the kept row of 32768 cut into 8 parts of 4096 */
    reset_seen(!serial);
    c_reduce(&op, 64, 32768, 0, true);
    assert_int_equal(atomic_load(&seen.rows), serial ? 64 : 8 * 64);
    assert_int_equal(atomic_load(&seen.elements), 64 * 32768);
    /* rows of 12000: parts of 4096 elements or more, so 2 */
    reset_seen(!serial);
    c_reduce(&op, 64, 12000, 0, true);
    assert_int_equal(atomic_load(&seen.rows), serial ? 64 : 2 * 64);
    assert_int_equal(atomic_load(&seen.th.other_thread), !serial);
    /* axis 1: 4096 runs shared out whole */
    reset_seen(!serial);
    c_reduce(&op, 4096, 64, 1, true);
    assert_int_equal(atomic_load(&seen.trees), 4096);
    assert_int_equal(atomic_load(&seen.th.other_thread), !serial);
    /* too little work: the caller's thread */
    reset_seen(false);
    c_reduce(&op, 1, 60000, -1, true);
    assert_int_equal(atomic_load(&seen.trees), 1);
    assert_false(atomic_load(&seen.th.other_thread));
    /* an op that may not reassociate, one outer iteration: serial */
    op.reassociate = false;
    reset_seen(false);
    c_reduce(&op, 1, 1 << 20, -1, true);
    assert_int_equal(atomic_load(&seen.seqs), 1);
    assert_false(atomic_load(&seen.th.other_thread));
}

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    mod = ctx ? uf_module_load(ctx, KERNELS, &err) : NULL;
    return mod != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parallel_matches_cpu),
        cmocka_unit_test(test_large_sum_accuracy),
        cmocka_unit_test(test_worker_errors),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_declared_target),
        cmocka_unit_test(test_work_split),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
