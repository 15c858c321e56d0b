/* The `parallel` target of guvectorize kernels: every case of the table
 * runs on `cpu` and then on `parallel` with 1, 2, 7 and the default number
 * of threads, and the outputs must be bit for bit the same (cpu is checked
 * against NumPy and Numba by the gufunc tests; here it is the oracle).
 * Cases: many short iterations, few heavy ones (a 64x64 matvec: the work
 * of an iteration counts, not just the iteration count), broadcast loop
 * dimensions over 3 axes, strided, F-ordered and negative-stride inputs
 * and outputs, several outputs, scalar cores, a layout without outputs,
 * lazy kernels, empty and 0-d loop spaces. A bounds-checked kernel failing
 * in a worker reaches uf_error with cpu's message; a hand-written loop
 * shows how the work is cut and that it really runs on two threads.
 * tests/cmake/parallel_gu.cmake runs this under each threading layer and
 * under a bad UFJIT_THREADING_LAYER (where only the error cases run). */
#include "parallel_test_util.h"

#include "common/alloc.h"
#include "gufunc/gufunc_internal.h"

/* ---- operands ------------------------------------------------------------ */

enum fill { F_REAL, F_FINITE, F_INT, F_SENTINEL };

/* Reals with the odd values every 211 elements (none for F_FINITE);
 * F_INT: fifth powers of [-1000, 1000], which wrap in products. */
static void fill_element(const spec *s, int64_t i, char *p)
{
    int64_t k = (int64_t)(next_random() % 2001) - 1000;
    /* F_FINITE: none of the odd values */
    double v = s->fill == F_SENTINEL
                   ? -7.25
                   : real_value(i, s->fill == F_FINITE ? 0 : 211, false);

    if (s->fill == F_SENTINEL)
        k = 77;
    switch (s->dtype) {
    case UF_INT64: *(int64_t *)p = s->fill == F_INT ? k * k * k * k * k
                                                     : k; break;
    case UF_FLOAT32: *(float *)p = (float)v; break;
    case UF_FLOAT64: *(double *)p = v; break;
    default: fail_msg("dtype %s not handled", uf_dtype_name(s->dtype));
    }
}

static uf_array *make(const spec *s, uint64_t seed)
{
    return make_spec(s, seed, fill_element);
}

static int call_on(uf_func *f, uf_array **in, int nin, uf_array **out,
                   int nout, const char *target, int threads, uf_error *err)
{
    uf_call_options o = {.size = sizeof o, .target = target,
                         .num_threads = threads};
    return uf_call(f, in, nin, out, nout, &o, err);
}

/* ---- the table ----------------------------------------------------------- */

#define MAXIO 4
#define NONE {UF_NTYPES, 0, {0}, NULL, false, F_REAL}
#define F8 UF_FLOAT64
#define F4 UF_FLOAT32
#define I8 UF_INT64

typedef struct row {
    const char *file;
    int line;
    const char *kernel; /* of gufuncs.py */
    int nin, nout;
    spec in[MAXIO];
    spec out[MAXIO]; /* dtype UF_NTYPES: allocated by the call */
} row;

static const row rows[] = {
    /* many cheap iterations: matvec 4x4 */
    {LOC, "matvec", 2, 1,
     {{F8, 3, {20000, 4, 4}, NULL, false, F_REAL},
      {F8, 2, {20000, 4}, NULL, false, F_REAL}}, {NONE}},
    /* float32, the vector broadcast over every iteration */
    {LOC, "matvec", 2, 1,
     {{F4, 3, {3001, 8, 8}, NULL, false, F_REAL},
      {F4, 1, {8}, NULL, false, F_REAL}}, {NONE}},
    /* few heavy iterations: 64x64, 40 of them (parts of one strip) */
    {LOC, "matvec", 2, 1,
     {{F8, 3, {40, 64, 64}, NULL, false, F_REAL},
      {F8, 2, {40, 64}, NULL, false, F_REAL}}, {NONE}},
    /* 3 loop dimensions broadcast together: (6,1,500) x (5,1) */
    {LOC, "matvec", 2, 1,
     {{F8, 5, {6, 1, 500, 3, 3}, NULL, false, F_REAL},
      {F8, 3, {5, 1, 3}, NULL, false, F_REAL}}, {NONE}},
    /* strided and F-ordered inputs, a negative-stride given output */
    {LOC, "matmul", 2, 1,
     {{F8, 3, {6000, 8, 16}, "::2, :, ::2", false, F_REAL},
      {F8, 3, {8, 8, 3000}, NULL, true, F_REAL}},
     {{F8, 3, {3000, 8, 8}, "::-1", false, F_SENTINEL}}},
    /* 4-d loop space, B broadcast over its first axis */
    {LOC, "matmul", 2, 1,
     {{F8, 4, {5, 200, 8, 8}, NULL, false, F_REAL},
      {F8, 3, {200, 8, 8}, NULL, false, F_REAL}}, {NONE}},
    /* wrapping int64 products, B shared by every iteration */
    {LOC, "matmul", 2, 1,
     {{I8, 3, {2000, 4, 6}, NULL, false, F_INT},
      {I8, 2, {6, 3}, NULL, false, F_INT}}, {NONE}},
    /* a kernel declared C-contiguous on strided views */
    {LOC, "matvec_c", 2, 1,
     {{F8, 3, {4000, 6, 10}, ":, :, ::2", false, F_REAL},
      {F8, 2, {4000, 10}, ":, 1::2", false, F_REAL}}, {NONE}},
    /* (n),()->(n) with a 0-d and a 1-d "()" operand */
    {LOC, "g", 2, 1,
     {{I8, 2, {1000, 100}, NULL, false, F_INT},
      {I8, 0, {0}, NULL, false, F_INT}}, {NONE}},
    {LOC, "g_scalar", 2, 1,
     {{F4, 2, {2000, 100}, ":, ::2", false, F_REAL},
      {F4, 1, {2000}, NULL, false, F_REAL}}, {NONE}},
    /* two scalar outputs, given strided (one negative) */
    {LOC, "max_min", 1, 2,
     {{F8, 2, {100000, 16}, NULL, false, F_REAL}},
     {{F8, 1, {200000}, "::2", false, F_SENTINEL},
      {F8, 1, {100000}, "::-1", false, F_SENTINEL}}},
    {LOC, "norm", 1, 1,
     {{F8, 2, {7, 50000}, NULL, true, F_REAL}}, {NONE}},
    {LOC, "stream_triad", 3, 1,
     {{F8, 2, {300, 1000}, NULL, false, F_REAL},
      {F8, 1, {1000}, NULL, false, F_REAL},
      {F8, 0, {0}, NULL, false, F_REAL}}, {NONE}},
    /* lazy: compiled on first use */
    {LOC, "lazy_shift", 2, 1,
     {{F8, 2, {3000, 30}, NULL, false, F_REAL},
      {F8, 0, {0}, NULL, false, F_REAL}}, {NONE}},
    /* below the cutoff, empty and 0-d loop spaces */
    {LOC, "matvec", 2, 1,
     {{F8, 3, {10, 4, 4}, NULL, false, F_REAL},
      {F8, 2, {10, 4}, NULL, false, F_REAL}}, {NONE}},
    {LOC, "matvec", 2, 1,
     {{F8, 3, {0, 4, 4}, NULL, false, F_REAL},
      {F8, 1, {4}, NULL, false, F_REAL}}, {NONE}},
    {LOC, "matvec", 2, 1,
     {{F8, 2, {300, 300}, NULL, false, F_REAL},
      {F8, 1, {300}, NULL, false, F_REAL}}, {NONE}},
};

static void make_outputs(const row *r, uf_array **out)
{
    for (int o = 0; o < r->nout; o++)
        out[o] = r->out[o].dtype == UF_NTYPES ? NULL
                                              : make(&r->out[o], 1000 + o);
}

static void run_row(const row *r)
{
    static const int threads[] = {1, 2, 7, 0};
    uf_array *in[MAXIO], *want[MAXIO], *got[MAXIO];
    uf_func *f = get("gufuncs.py", r->kernel);
    uf_error err;

    for (int i = 0; i < r->nin; i++)
        in[i] = make(&r->in[i], (uint64_t)i + 1);
    make_outputs(r, want);
    if (call_on(f, in, r->nin, want, r->nout, "cpu", 0, &err) != 0)
        uf_fail_at(r->file, r->line, "cpu: %s", err.message);
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        char what[64];

        make_outputs(r, got);
        if (call_on(f, in, r->nin, got, r->nout, "parallel", threads[t],
                    &err) != 0)
            uf_fail_at(r->file, r->line, "parallel, %d threads: %s",
                       threads[t], err.message);
        for (int o = 0; o < r->nout; o++) {
            snprintf(what, sizeof what, "%s output %d, %d threads",
                     r->kernel, o, threads[t]);
            uf_assert_same_bytes(r->file, r->line, what, want[o], got[o]);
        }
        release_all(got, r->nout);
    }
    release_all(want, r->nout);
    release_all(in, r->nin);
}

static void test_parallel_matches_cpu(void **state)
{
    (void)state;
    if (layer_is_bad())
        skip();
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        run_row(&rows[i]);
}

/* Seed 000's copy has no outputs: it writes its first input. Threads
 * share it when that input is not broadcast; with a broadcast writeable
 * input (which one is written cannot be known) the call stays serial. */
static void test_no_output_layout(void **state)
{
    (void)state;
    static const int threads[] = {1, 2, 7, 0};
    static const spec rhs_specs[] = {
        {F8, 2, {400, 500}, NULL, true, F_REAL},
        {F8, 1, {400}, NULL, false, F_REAL},
    };
    spec lhs_spec = {F8, 2, {500, 800}, ":, ::2", false, F_SENTINEL};
    uf_func *f = get("gufuncs.py", "copy");
    uf_error err;

    if (layer_is_bad())
        skip();
    for (size_t k = 0; k < 2; k++) {
        uf_array *rhs = make(&rhs_specs[k], 3);
        uf_array *want[2] = {make(&lhs_spec, 4), rhs};
        uf_assert_ok(call_on(f, want, 2, NULL, 0, "cpu", 0, &err) == 0,
                     &err);
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
            uf_array *got[2] = {make(&lhs_spec, 4), rhs};
            uf_assert_ok(call_on(f, got, 2, NULL, 0, "parallel", threads[t],
                                 &err) == 0, &err);
            uf_assert_same_bytes(LOC, "copy", want[0], got[0]);
            uf_array_release(got[0]);
        }
        uf_array_release(want[0]);
        uf_array_release(rhs);
    }
}

/* A kernel declared target='parallel' runs there when the call does not
 * say: under a bad layer it fails like an explicit parallel call. */
static const char declared_src[] =
    "from numba import guvectorize\n"
    "@guvectorize(['void(float64[:,:], float64[:], float64[:])'],\n"
    "             '(m,n),(n)->(m)', target='parallel')\n"
    "def matvec(M, v, y):\n"
    "    for i in range(M.shape[0]):\n"
    "        acc = 0.0\n"
    "        for j in range(M.shape[1]):\n"
    "            acc += M[i, j] * v[j]\n"
    "        y[i] = acc\n";

static void test_declared_target(void **state)
{
    (void)state;
    spec sm = {F8, 3, {30000, 4, 4}, NULL, false, F_REAL};
    spec sv = {F8, 2, {30000, 4}, NULL, false, F_REAL};
    uf_array *in[2] = {make(&sm, 1), make(&sv, 2)}, *want = NULL, *got = NULL;
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "declared.py", declared_src,
                                         &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "matvec", &err);
    uf_assert_ok(f != NULL, &err);

    uf_assert_ok(call_on(f, in, 2, &want, 1, "cpu", 0, &err) == 0, &err);
    int rc = uf_call(f, in, 2, &got, 1, NULL, &err);
    if (layer_is_bad()) {
        uf_error cfg;
        uf__parallel_config_error(&cfg);
        assert_int_equal(rc, cfg.code);
        assert_string_equal(err.message, cfg.message);
        assert_null(got);
    } else {
        uf_assert_ok(rc == 0, &err);
        uf_assert_same_bytes(LOC, "declared parallel", want, got);
    }
    uf_array_release(want);
    uf_array_release(got);
    release_all(in, 2);
    uf_module_free(m);
}

/* ---- errors in workers --------------------------------------------------- */

static const char bc_src[] =
    "from numba import guvectorize\n"
    "@guvectorize(['void(float64[:], float64[:])'], '(n)->()',\n"
    "             boundscheck=True)\n"
    "def pick(x, out):\n"
    "    out[0] = x[int(x[0])]\n";

/* Rows of x pick x[x[0]]: 1 everywhere except the rows in `bad`, which
 * read past the end (index 8 or 9 of 8): an IndexError from the worker
 * that met it, the first one to fail winning. */
static void test_worker_errors(void **state)
{
    (void)state;
    static const int threads[] = {1, 2, 7, 0};
    static const struct {
        int line;
        int64_t bad[2];
        double idx[2];
    } cases[] = {
        {__LINE__, {150001, -1}, {8, 0}},
        {__LINE__, {3, 199990}, {8, 8}},
        {__LINE__, {5, 199990}, {8, 9}},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "bc.py", bc_src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "pick", &err);
    uf_assert_ok(f != NULL, &err);

    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uf_array *x = uf_full(F8, 2, (int64_t[]){200000, 8},
                              &(double){1.0}, F8, UF_ORDER_C, &err);
        uf_assert_ok(x != NULL, &err);
        double *p = uf_array_data(x);
        for (int b = 0; b < 2; b++)
            if (cases[k].bad[b] >= 0)
                p[cases[k].bad[b] * 8] = cases[k].idx[b];
        for (size_t t = 0; t <= sizeof threads / sizeof threads[0]; t++) {
            bool cpu = t == sizeof threads / sizeof threads[0];
            uf_array *out = NULL;
            int rc = call_on(f, &x, 1, &out, 1, cpu ? "cpu" : "parallel",
                             cpu ? 0 : threads[t], &err);
            bool msg8 = strcmp(err.message,
                               "gufunc 'pick': IndexError: index 8 is out "
                               "of bounds for axis 0 with size 8 (in 'pick'"
                               " at bc.py:5)") == 0;
            bool msg9 = strstr(err.message, "index 9 is out of bounds for "
                                            "axis 0 with size 8") != NULL;
            if (layer_is_bad() && !cpu) {
                uf_error cfg;
                uf__parallel_config_error(&cfg);
                assert_string_equal(err.message, cfg.message);
            } else if (rc != UF_ERR_INDEX ||
                       !(msg8 || (cases[k].idx[1] == 9 && msg9)))
                uf_fail_at(__FILE__, cases[k].line, "%s %d threads: %d '%s'",
                           cpu ? "cpu" : "parallel", cpu ? 1 : threads[t],
                           rc, err.message);
            assert_null(out);
        }
        uf_array_release(x);
    }
    uf_module_free(m);
}

static void test_bad_options(void **state)
{
    (void)state;
    spec sm = {F8, 3, {10, 4, 4}, NULL, false, F_REAL};
    spec sv = {F8, 1, {4}, NULL, false, F_REAL};
    uf_array *in[2] = {make(&sm, 1), make(&sv, 2)}, *out = NULL;
    uf_func *f = get("gufuncs.py", "matvec");
    uf_error err, cfg;

    assert_int_equal(call_on(f, in, 2, &out, 1, "parallel", -2, &err),
                     UF_ERR_VALUE);
    assert_string_equal(err.message, "num_threads must be positive, or 0 "
                                     "for the default (got -2)");
    /* an unknown target is named with the list */
    assert_int_equal(call_on(f, in, 2, &out, 1, "nosuch", 0, &err),
                     UF_ERR_UNSUPPORTED);
    assert_string_equal(err.message, "unknown target 'nosuch' (the targets "
                                     "are cpu, parallel, cuda, cudasim)");
    int want = uf__parallel_config_error(&cfg) != 0 ? cfg.code : UF_ERR_VALUE;
    assert_int_equal(call_on(f, in, 2, &out, 1, "parallel", 1025, &err),
                     want);
    assert_null(out);
    /* a bad layer fails parallel calls of every size, never cpu ones */
    if (layer_is_bad()) {
        assert_int_equal(call_on(f, in, 2, &out, 1, "parallel", 2, &err),
                         cfg.code);
        assert_string_equal(err.message, cfg.message);
        assert_null(out);
    }
    uf_assert_ok(call_on(f, in, 2, &out, 1, "cpu", 0, &err) == 0, &err);
    uf_array_release(out);
    release_all(in, 2);
}

/* ---- how the work is cut, seen from a C loop ----------------------------- */

static struct {
    atomic_int calls, iterations;
    thread_seen th;
} seen;

/* (i),(i)->(): out = sum a*b, recording the calls. */
static int dot_rec(void *lctx, char *const *d, const int64_t *dims,
                   const int64_t *s, void *aux)
{
    (void)lctx, (void)aux;
    atomic_fetch_add(&seen.calls, 1);
    atomic_fetch_add(&seen.iterations, (int)dims[0]);
    thread_seen_enter(&seen.th);
    for (int64_t k = 0; k < dims[0]; k++) {
        double acc = 0;
        for (int64_t i = 0; i < dims[1]; i++)
            acc += *(double *)(d[0] + k * s[0] + i * s[3]) *
                   *(double *)(d[1] + k * s[1] + i * s[4]);
        *(double *)(d[2] + k * s[2]) = acc;
    }
    return 0;
}

static void reset_seen(bool wait)
{
    atomic_store(&seen.calls, 0);
    atomic_store(&seen.iterations, 0);
    thread_seen_reset(&seen.th, wait);
}

/* Runs dot_rec on a (rows, n) . (n) on `target`, 2 threads; returns the
 * loop calls seen and checks every iteration ran once, right. */
static int split_calls(uf__gufunc *g, int64_t rows_, int64_t n,
                       const char *target, bool wait)
{
    /* finite: a NaN's sign would depend on how the compiler orders the
     * operands of the two sums */
    spec sa = {F8, 2, {rows_, n}, NULL, false, F_FINITE};
    spec sb = {F8, 1, {n}, NULL, false, F_FINITE};
    uf_array *in[2] = {make(&sa, 1), make(&sb, 2)}, *out = NULL;
    uf_call_options o = {.size = sizeof o, .num_threads = 2};
    uf_error err;

    reset_seen(wait);
    uf_assert_ok(uf__gufunc_call_target(g, target, in, 2, &out, 1, &o,
                                        &err) == 0, &err);
    assert_int_equal(atomic_load(&seen.iterations), rows_);
    const double *a = uf_array_data(in[0]), *b = uf_array_data(in[1]);
    const double *y = uf_array_data(out);
    for (int64_t r = 0; r < rows_; r++) {
        double acc = 0;
        for (int64_t i = 0; i < n; i++)
            acc += a[r * n + i] * b[i];
        assert_memory_equal(&acc, &y[r], sizeof acc);
    }
    uf_array_release(out);
    release_all(in, 2);
    return atomic_load(&seen.calls);
}

/* Enough work runs in 2 threads x 4 parts on two threads at once, the
 * work of an iteration counting (300 iterations of 1000 elements are
 * shared, 300 of 10 are not); cpu never leaves the caller's thread. */
static void test_work_split(void **state)
{
    (void)state;
    if (layer_is_bad())
        skip();
    uf_error err;
    uf__gufunc_layout *L = uf__gufunc_layout_parse("(i),(i)->()", -1, -1,
                                                   &err);
    uf_assert_ok(L != NULL, &err);
    uf__gufunc *g = uf__gufunc_new("dot_rec", L, NULL, NULL, &err);
    uf_assert_ok(g != NULL, &err);
    uf__ufunc_loop l;
    memset(&l, 0, sizeof l);
    l.types[0] = l.types[1] = l.types[2] = UF_FLOAT64;
    l.fn = dot_rec;
    uf_assert_ok(uf__gufunc_add_loop(g, &l, &err) == 0, &err);
    bool serial = strcmp(uf__parallel_layer(), "serial") == 0;

    /* 300 heavy iterations: one strip cut into 8 parts */
    assert_int_equal(split_calls(g, 300, 1000, "parallel", !serial),
                     serial ? 1 : 8);
    assert_int_equal(atomic_load(&seen.th.other_thread), !serial);
    assert_int_equal(split_calls(g, 300, 1000, "cpu", false), 1);
    assert_false(atomic_load(&seen.th.other_thread));
    /* 300 light iterations: below the cutoff */
    assert_int_equal(split_calls(g, 300, 10, "parallel", false), 1);
    assert_false(atomic_load(&seen.th.other_thread));
    /* 100000 light ones: 8 parts (of whole 64-iteration blocks), two
     * per chunk so that each chunk has 32768 steps or more */
    assert_int_equal(split_calls(g, 100000, 2, "parallel", !serial),
                     serial ? 1 : 4);
    assert_int_equal(atomic_load(&seen.th.other_thread), !serial);
    uf__gufunc_free(g);
    uf__gufunc_layout_free(L);
}

/* Allocation N failing, N = 1, 2, ...: nothing leaks, the error is
 * UF_ERR_NOMEM, and past the last allocation the call succeeds. */
static void test_out_of_memory(void **state)
{
    (void)state;
    if (layer_is_bad())
        skip();
    spec sm = {F8, 3, {20000, 4, 4}, "::-1", false, F_REAL};
    spec sv = {F4, 2, {20000, 4}, NULL, false, F_REAL};
    uf_array *in[2] = {make(&sm, 1), make(&sv, 2)}, *out = NULL;
    uf_func *f = get("gufuncs.py", "matvec");
    uf_error err;
    bool done = false;

    uf_assert_ok(call_on(f, in, 2, &out, 1, "cpu", 0, &err) == 0, &err);
    uf_array_release(out);
    for (long n = 1; n < 100 && !done; n++) {
        long live = uf__alloc_live();
        out = NULL;
        uf__alloc_fail_at(n);
        int rc = call_on(f, in, 2, &out, 1, "parallel", 2, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (!failed) {
            uf_assert_ok(rc == 0, &err);
            uf_array_release(out);
            done = true;
            continue;
        }
        assert_int_equal(rc, UF_ERR_NOMEM);
        assert_null(out);
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(done);
    release_all(in, 2);
}

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    return ctx != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free_modules();
    uf_context_free(ctx);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parallel_matches_cpu),
        cmocka_unit_test(test_no_output_layout),
        cmocka_unit_test(test_declared_target),
        cmocka_unit_test(test_worker_errors),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_work_split),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
