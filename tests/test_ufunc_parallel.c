/* The `parallel` target of vectorize kernels: every case of the table runs
 * on `cpu` and then on `parallel` with 1, 2, 7 and the default number of
 * threads, and the results must be bit for bit the same (the cpu results
 * are checked against NumPy by the kernel-corpus tests; here cpu is the
 * oracle). The cases cover the shapes of the iteration that split
 * differently (one long strip, few long strips cut into parts, many short
 * strips, broadcast and 0-stride operands, strided and negative strides,
 * F order), where=, cast inputs and outputs (the buffered path), several
 * outputs, lazily compiled kernels and vector math. Errors raised in a
 * worker (assert, integer division by zero) reach uf_error with cpu's
 * message. tests/cmake/parallel.cmake runs this under each threading layer
 * and under a bad UFJIT_THREADING_LAYER, where only the error case runs. */
#include "parallel_test_util.h"

#include "common/alloc.h"
#include "ufunc/ufunc.h"

/* ---- operands ------------------------------------------------------------ */

enum fill { F_REAL, F_POSITIVE, F_INT, F_NONZERO, F_MASK, F_SENTINEL };

static void store(char *p, uf_dtype dt, double v, int64_t k)
{
    switch (dt) {
    case UF_BOOL: *(bool *)p = k & 1; break;
    case UF_INT8: *(int8_t *)p = (int8_t)k; break;
    case UF_UINT8: *(uint8_t *)p = (uint8_t)k; break;
    case UF_INT32: *(int32_t *)p = (int32_t)k; break;
    case UF_INT64: *(int64_t *)p = k; break;
    case UF_FLOAT32: *(float *)p = (float)v; break;
    case UF_FLOAT64: *(double *)p = v; break;
    default: fail_msg("dtype %s not handled", uf_dtype_name(dt));
    }
}

/* Integers in [-1000, 1000] and reals with the odd values every 101
 * elements, shaped by s->fill. */
static void fill_element(const spec *s, int64_t i, char *p)
{
    int64_t k = (int64_t)(next_random() % 2001) - 1000;
    double v = real_value(i, 101, s->fill == F_POSITIVE);

    if (s->fill == F_NONZERO && k == 0)
        k = 3;
    if (s->fill == F_MASK)
        k = next_random() % 5 != 0; /* runs of True and False */
    if (s->fill == F_SENTINEL)
        v = -7.25, k = 77;
    store(p, s->dtype, v, k);
}

static uf_array *make(const spec *s, uint64_t seed)
{
    return make_spec(s, seed, fill_element);
}

/* ---- the table ------------------------------------------------------------ */

#define MAXIO 4
#define NONE {UF_NTYPES, 0, {0}, NULL, false, F_REAL}

typedef struct row {
    const char *file;
    int line;
    const char *kfile, *kernel;
    int nin, nout;
    spec in[MAXIO];
    spec out[MAXIO]; /* dtype UF_NTYPES: allocated by the call */
    spec where;      /* dtype UF_NTYPES: none */
} row;

#define F8 UF_FLOAT64
#define F4 UF_FLOAT32
#define I8 UF_INT64

static const row rows[] = {
    /* one long contiguous strip, cut into parts */
    {LOC, "hypot.py", "hypot", 2, 1,
     {{F8, 1, {200003}, NULL, false, F_REAL},
      {F8, 1, {200003}, NULL, false, F_REAL}}, {NONE}, NONE},
    /* three long strips (the slice stops coalescing) */
    {LOC, "hypot.py", "hypot", 2, 1,
     {{F4, 2, {3, 70010}, ":, :70001", false, F_REAL},
      {F4, 2, {3, 70001}, NULL, false, F_REAL}}, {NONE}, NONE},
    /* broadcast (300,1) + (1,1000): 300 strips; a lazy kernel */
    {LOC, "lazy.py", "add", 2, 1,
     {{F8, 2, {300, 1}, NULL, false, F_REAL},
      {F8, 2, {1, 1000}, NULL, false, F_REAL}}, {NONE}, NONE},
    /* a 0-d operand: stride 0 throughout */
    {LOC, "lazy.py", "add", 2, 1,
     {{I8, 1, {150001}, NULL, false, F_INT}, {I8, 0, {0}, NULL, false, F_INT}},
     {NONE}, NONE},
    /* strided and negative strides, 1-D */
    {LOC, "hypot.py", "hypot", 2, 1,
     {{F8, 1, {400006}, "::2", false, F_REAL},
      {F8, 1, {600009}, "::-3", false, F_REAL}}, {NONE}, NONE},
    /* 2-D negative strides into a strided preallocated output */
    {LOC, "hypot.py", "hypot", 2, 1,
     {{F8, 2, {500, 400}, "::-1, ::-2", false, F_REAL},
      {F8, 2, {500, 200}, NULL, false, F_REAL}},
     {{F8, 2, {500, 400}, ":, 1::2", false, F_SENTINEL}}, NONE},
    /* F order (a transposed operand and a C-order one) */
    {LOC, "hypot.py", "hypot", 2, 1,
     {{F8, 2, {400, 500}, NULL, true, F_REAL},
      {F8, 2, {500, 400}, NULL, false, F_REAL}}, {NONE}, NONE},
    {LOC, "hypot.py", "hypot", 2, 1,
     {{F8, 2, {400, 500}, NULL, true, F_REAL},
      {F8, 2, {400, 500}, NULL, true, F_REAL}}, {NONE}, NONE},
    /* many short strips: (4000, 30) of a wider array */
    {LOC, "lazy.py", "add", 2, 1,
     {{F4, 2, {4000, 40}, ":, 5:35", false, F_REAL},
      {F4, 2, {1, 30}, NULL, false, F_REAL}}, {NONE}, NONE},
    /* where=: only the selected elements are written */
    {LOC, "math_funcs.py", "sin", 1, 1,
     {{F8, 1, {180001}, NULL, false, F_REAL}},
     {{F8, 1, {180001}, NULL, false, F_SENTINEL}},
     {UF_BOOL, 1, {180001}, NULL, false, F_MASK}},
    {LOC, "lazy.py", "add", 2, 1,
     {{F8, 2, {300, 1}, NULL, false, F_REAL},
      {F8, 2, {1, 1000}, NULL, false, F_REAL}},
     {{F8, 2, {300, 1000}, NULL, false, F_SENTINEL}},
     {UF_BOOL, 1, {1000}, NULL, false, F_MASK}},
    /* casting: a float32 output of the float64 loop; int32 inputs cast to
     * float64 (the buffered path) */
    {LOC, "hypot.py", "hypot", 2, 1,
     {{F8, 1, {120007}, NULL, false, F_REAL},
      {F8, 1, {120007}, NULL, false, F_REAL}},
     {{F4, 1, {120007}, NULL, false, F_SENTINEL}}, NONE},
    {LOC, "hypot.py", "hypot", 2, 1,
     {{UF_INT32, 1, {240014}, "::-2", false, F_INT},
      {F8, 1, {120007}, NULL, false, F_REAL}},
     {{F4, 2, {120007, 2}, ":, 0", false, F_SENTINEL}}, NONE},
    /* several outputs, lazy kernels, mixed output types */
    {LOC, "multi_out.py", "sincos", 1, 2,
     {{F8, 1, {130003}, NULL, false, F_REAL}}, {NONE, NONE}, NONE},
    {LOC, "multi_out.py", "stats3", 3, 3,
     {{F8, 2, {300, 400}, NULL, false, F_REAL},
      {F8, 1, {400}, NULL, false, F_REAL},
      {F8, 2, {300, 1}, NULL, false, F_REAL}}, {NONE, NONE, NONE}, NONE},
    {LOC, "multi_out.py", "divmod_pair", 2, 2,
     {{I8, 1, {140000}, NULL, false, F_INT},
      {I8, 1, {140000}, NULL, false, F_NONZERO}},
     {{I8, 1, {140000}, NULL, false, F_SENTINEL},
      {F8, 1, {140000}, NULL, false, F_SENTINEL}}, NONE},
    {LOC, "multi_out.py", "polar", 2, 2,
     {{F4, 1, {100000}, NULL, false, F_REAL},
      {F4, 1, {100000}, NULL, false, F_REAL}}, {NONE, NONE}, NONE},
    {LOC, "lazy.py", "softplus", 1, 1,
     {{F4, 1, {150000}, NULL, false, F_REAL}}, {NONE}, NONE},
    {LOC, "lazy.py", "poly", 1, 1,
     {{I8, 1, {150000}, NULL, false, F_INT}}, {NONE}, NONE},
    /* vector math: the parts keep the vector body's alignment */
    {LOC, "math_funcs.py", "sin", 1, 1,
     {{F4, 1, {262147}, NULL, false, F_REAL}}, {NONE}, NONE},
    {LOC, "math_funcs.py", "exp", 1, 1,
     {{F8, 2, {5, 33333}, NULL, false, F_REAL}}, {NONE}, NONE},
    {LOC, "math_funcs.py", "log", 1, 1,
     {{F4, 1, {200000}, "1:", false, F_POSITIVE}}, {NONE}, NONE},
    {LOC, "math_funcs.py", "pow_", 2, 1,
     {{F8, 1, {100003}, NULL, false, F_POSITIVE},
      {F8, 1, {100003}, NULL, false, F_REAL}}, {NONE}, NONE},
    /* wrapping integer arithmetic */
    {LOC, "overflow.py", "wrap_add", 2, 1,
     {{UF_INT8, 1, {300000}, NULL, false, F_INT},
      {UF_INT8, 1, {300000}, NULL, false, F_INT}}, {NONE}, NONE},
    /* small and empty calls (the serial cutoff) */
    {LOC, "hypot.py", "hypot", 2, 1,
     {{F8, 1, {10}, NULL, false, F_REAL}, {F8, 1, {10}, NULL, false, F_REAL}},
     {NONE}, NONE},
    {LOC, "hypot.py", "hypot", 2, 1,
     {{F8, 0, {0}, NULL, false, F_REAL}, {F8, 0, {0}, NULL, false, F_REAL}},
     {NONE}, NONE},
    {LOC, "hypot.py", "hypot", 2, 1,
     {{F8, 2, {0, 100000}, NULL, false, F_REAL},
      {F8, 1, {100000}, NULL, false, F_REAL}}, {NONE}, NONE},
};

static int call_on(uf_func *f, uf_array **in, int nin, uf_array **out,
                   int nout, const char *target, int threads,
                   uf_array *where, uf_error *err)
{
    uf_call_options o = {.size = sizeof o, .target = target,
                         .num_threads = threads, .where = where};
    return uf_call(f, in, nin, out, nout, &o, err);
}

static void make_outputs(const row *r, uf_array **out)
{
    for (int o = 0; o < r->nout; o++)
        out[o] = r->out[o].dtype == UF_NTYPES ? NULL
                                              : make(&r->out[o], 1000 + o);
}

static void run_row(const row *r)
{
    static const int threads[] = {1, 2, 7, 0};
    uf_array *in[MAXIO], *want[MAXIO], *got[MAXIO], *where = NULL;
    uf_func *f = get(r->kfile, r->kernel);
    uf_error err;

    for (int i = 0; i < r->nin; i++)
        in[i] = make(&r->in[i], (uint64_t)i + 1);
    if (r->where.dtype != UF_NTYPES)
        where = make(&r->where, 99);
    make_outputs(r, want);
    if (call_on(f, in, r->nin, want, r->nout, "cpu", 0, where, &err) != 0)
        uf_fail_at(r->file, r->line, "cpu: %s", err.message);
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        char what[64];

        make_outputs(r, got);
        if (call_on(f, in, r->nin, got, r->nout, "parallel", threads[t],
                    where, &err) != 0)
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
    uf_array_release(where);
}

static void test_parallel_matches_cpu(void **state)
{
    (void)state;
    if (layer_is_bad())
        skip();
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        run_row(&rows[i]);
}

/* A kernel declared target='parallel' runs there when the call does not
 * say (observable: under a bad layer it fails like an explicit parallel
 * call; here it must match cpu). */
static const char declared_src[] =
    "from numba import vectorize\n"
    "@vectorize(['float64(float64, float64)'], target='parallel')\n"
    "def triad(a, b):\n"
    "    return a + 3.0 * b\n";

static void test_declared_target(void **state)
{
    (void)state;
    spec s = {F8, 1, {300001}, NULL, false, F_REAL};
    uf_array *in[2] = {make(&s, 1), make(&s, 2)}, *want = NULL, *got = NULL;
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "declared.py", declared_src,
                                         &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "triad", &err);
    uf_assert_ok(f != NULL, &err);

    uf_assert_ok(call_on(f, in, 2, &want, 1, "cpu", 0, NULL, &err) == 0,
                 &err);
    int rc = uf_call(f, in, 2, &got, 1, NULL, &err);
    if (layer_is_bad()) {
        assert_int_not_equal(rc, 0);
        assert_null(got);
        uf_error cfg;
        uf__parallel_config_error(&cfg);
        assert_string_equal(err.message, cfg.message);
    } else {
        uf_assert_ok(rc == 0, &err);
        uf_assert_same_bytes(LOC, "declared parallel", want, got);
    }
    uf_array_release(want);
    uf_array_release(got);
    release_all(in, 2);
    uf_module_free(m);
}

/* ---- errors in workers ------------------------------------------------------ */

typedef struct err_row {
    const char *file;
    int line;
    const char *kfile, *kernel;
    int nin, nout;
    spec in[2];
    int bad_in;     /* the input made to fail */
    int64_t bad[2]; /* its elements (in memory order) set so the kernel
                       fails; -1: none */
    int code;
    const char *message;
} err_row;

static const err_row err_rows[] = {
    {LOC, "err_assert.py", "non_negative_twice", 1, 1,
     {{F8, 1, {200003}, NULL, false, F_POSITIVE}}, 0, {150001, -1},
     UF_ERR_VALUE,
     "ufunc 'non_negative_twice': AssertionError (assert on kernel line 8)"},
    /* two failing chunks: one error, the same message */
    {LOC, "err_assert.py", "non_negative_twice", 1, 1,
     {{F8, 1, {200003}, NULL, false, F_POSITIVE}}, 0, {3, 199999},
     UF_ERR_VALUE,
     "ufunc 'non_negative_twice': AssertionError (assert on kernel line 8)"},
    /* the buffered path: float32 input cast to the float64 loop */
    {LOC, "err_assert.py", "non_negative_twice", 1, 1,
     {{F4, 2, {400, 500}, NULL, true, F_POSITIVE}}, 0, {170000, -1},
     UF_ERR_VALUE,
     "ufunc 'non_negative_twice': AssertionError (assert on kernel line 8)"},
    /* two outputs, many short strips of a wider array */
    {LOC, "parallel_err.py", "checked_divmod", 2, 2,
     {{I8, 2, {600, 300}, NULL, false, F_INT},
      {I8, 2, {600, 301}, ":, 1:", false, F_NONZERO}}, 1, {123456, -1},
     UF_ERR_VALUE,
     "ufunc 'checked_divmod': AssertionError (assert on kernel line 4)"},
};

static void set_bad(uf_array *a, int64_t flat)
{
    /* the arrays here are C- or F-contiguous views of fresh arrays: the
     * flat position in memory is enough */
    char *p = (char *)uf_array_data(a) + flat * (int64_t)uf_array_itemsize(a);
    switch (uf_array_dtype(a)) {
    case UF_FLOAT64: *(double *)p = -1.0; break;
    case UF_FLOAT32: *(float *)p = -1.0f; break;
    case UF_INT64: *(int64_t *)p = 0; break;
    default: fail();
    }
}

static void test_worker_errors(void **state)
{
    static const int threads[] = {1, 2, 7, 0};
    (void)state;

    if (layer_is_bad())
        skip();
    for (size_t k = 0; k < sizeof err_rows / sizeof err_rows[0]; k++) {
        const err_row *r = &err_rows[k];
        uf_func *f = get(r->kfile, r->kernel);
        uf_array *in[2];
        uf_error err;

        for (int i = 0; i < r->nin; i++)
            in[i] = make(&r->in[i], (uint64_t)i + 5);
        for (int b = 0; b < 2; b++)
            if (r->bad[b] >= 0)
                set_bad(in[r->bad_in], r->bad[b]);
        for (size_t t = 0; t <= sizeof threads / sizeof threads[0]; t++) {
            bool cpu = t == sizeof threads / sizeof threads[0];
            uf_array *out[2] = {NULL, NULL};
            int rc = call_on(f, in, r->nin, out, r->nout, cpu ? "cpu"
                             : "parallel", cpu ? 0 : threads[t], NULL, &err);
            if (rc != r->code || strcmp(err.message, r->message) != 0)
                uf_fail_at(r->file, r->line, "%s %d threads: %d '%s'",
                           cpu ? "cpu" : "parallel", cpu ? 1 : threads[t],
                           rc, err.message);
            /* no output handed back on failure */
            assert_null(out[0]);
            assert_null(out[1]);
        }
        release_all(in, r->nin);
    }
}

static void test_bad_options(void **state)
{
    (void)state;
    spec s = {F8, 1, {10}, NULL, false, F_REAL};
    uf_array *in[2] = {make(&s, 1), make(&s, 2)}, *out = NULL;
    uf_func *f = get("hypot.py", "hypot");
    uf_error err;

    assert_int_equal(call_on(f, in, 2, &out, 1, "parallel", -2, NULL, &err),
                     UF_ERR_VALUE);
    assert_string_equal(err.message, "num_threads must be positive, or 0 "
                                     "for the default (got -2)");
    assert_int_equal(call_on(f, in, 2, &out, 1, "gpu", 0, NULL, &err),
                     UF_ERR_UNSUPPORTED);
    assert_string_equal(err.message, "unknown target 'gpu' (the targets are "
                                     "cpu, parallel, cuda, cudasim)");
    uf_error cfg;
    int want = uf__parallel_config_error(&cfg) != 0 ? cfg.code : UF_ERR_VALUE;
    assert_int_equal(call_on(f, in, 2, &out, 1, "parallel", 1025, NULL,
                             &err), want);
    if (!layer_is_bad())
        assert_string_equal(err.message, "the number of threads must be "
                                         "from 1 to 1024 (0 for the "
                                         "default), not 1025");
    assert_null(out);
    release_all(in, 2);
}

/* Under a bad UFJIT_THREADING_LAYER: parallel calls of every size fail
 * with the layer's message and no output; cpu calls are unaffected. */
static void test_bad_layer(void **state)
{
    (void)state;
    static const int64_t sizes[] = {10, 200000};
    uf_func *f = get("hypot.py", "hypot");
    uf_error cfg, err;

    if (!layer_is_bad())
        skip();
    uf__parallel_config_error(&cfg);
    for (size_t k = 0; k < 2; k++) {
        spec s = {F8, 1, {sizes[k]}, NULL, false, F_REAL};
        uf_array *in[2] = {make(&s, 1), make(&s, 2)}, *out = NULL;

        assert_int_equal(call_on(f, in, 2, &out, 1, "parallel", 2, NULL,
                                 &err), cfg.code);
        assert_string_equal(err.message, cfg.message);
        assert_null(out);
        uf_assert_ok(call_on(f, in, 2, &out, 1, "cpu", 0, NULL, &err) == 0,
                     &err);
        uf_array_release(out);
        release_all(in, 2);
    }
}

/* A fallible kernel with two inputs and two outputs (integer division
 * by zero gives 0 in vectorize kernels, as NumPy: the assert fails). */
static const char err_src[] =
    "from numba import vectorize\n"
    "@vectorize(['UniTuple(int64, 2)(int64, int64)'])\n"
    "def checked_divmod(x, y):\n"
    "    assert y != 0\n"
    "    return x // y, x % y\n";

/* ---- how the work is cut, seen from a C loop --------------------------- */

static struct {
    atomic_int calls, short_calls;
    thread_seen th;
} seen;

/* out = a + b, recording the calls. */
static int add_rec(void *lctx, char *const *d, const int64_t *n,
                   const int64_t *st, void *aux)
{
    (void)lctx, (void)aux;
    atomic_fetch_add(&seen.calls, 1);
    if (n[0] < 4096)
        atomic_fetch_add(&seen.short_calls, 1);
    thread_seen_enter(&seen.th);
    for (int64_t i = 0; i < n[0]; i++)
        *(double *)(d[2] + i * st[2]) = *(double *)(d[0] + i * st[0]) +
                                        *(double *)(d[1] + i * st[1]);
    return 0;
}

static uf__ufunc *recording_ufunc(void)
{
    uf_error err;
    uf__ufunc *u = uf__ufunc_new("add_rec", 2, 1, NULL, NULL, &err);
    uf__ufunc_loop l;

    uf_assert_ok(u != NULL, &err);
    memset(&l, 0, sizeof l);
    l.types[0] = l.types[1] = l.types[2] = UF_FLOAT64;
    l.fn = add_rec;
    uf_assert_ok(uf__ufunc_add_loop(u, &l, &err) == 0, &err);
    return u;
}

static void reset_seen(bool wait)
{
    atomic_store(&seen.calls, 0);
    atomic_store(&seen.short_calls, 0);
    thread_seen_reset(&seen.th, wait);
}

/* Large calls run on two threads at once in a few long loop calls; small
 * ones in one call on the caller's thread; cpu never leaves it. */
static void test_work_split(void **state)
{
    (void)state;
    if (layer_is_bad())
        skip();
    uf__ufunc *u = recording_ufunc();
    spec big = {F8, 1, {1 << 20}, NULL, false, F_REAL};
    spec small = {F8, 1, {1000}, NULL, false, F_REAL};
    spec rows2 = {F8, 2, {2000, 500}, ":, :400", false, F_REAL};
    uf_array *in[2] = {make(&big, 1), make(&big, 2)}, *out = NULL;
    uf_call_options o = {.size = sizeof o, .num_threads = 2};
    bool serial = strcmp(uf__parallel_layer(), "serial") == 0;
    uf_error err;

    reset_seen(!serial);
    uf_assert_ok(uf__ufunc_call_target(u, "parallel", in, 2, &out, 1, &o,
                                       &err) == 0, &err);
    /* one strip: 2 threads x 4 parts, each a multiple of 4096 elements */
    assert_int_equal(atomic_load(&seen.calls), serial ? 1 : 8);
    assert_int_equal(atomic_load(&seen.short_calls), 0);
    assert_int_equal(atomic_load(&seen.th.other_thread), !serial);
    uf_array_release(out);
    out = NULL;

    /* cpu: the same data, one call, the caller's thread */
    reset_seen(false);
    uf_assert_ok(uf__ufunc_call_target(u, "cpu", in, 2, &out, 1, &o, &err)
                 == 0, &err);
    assert_int_equal(atomic_load(&seen.calls), 1);
    assert_false(atomic_load(&seen.th.other_thread));
    uf_array_release(out);
    out = NULL;
    release_all(in, 2);

    /* below the cutoff: serial */
    in[0] = make(&small, 1);
    in[1] = make(&small, 2);
    reset_seen(false);
    uf_assert_ok(uf__ufunc_call_target(u, "parallel", in, 2, &out, 1, &o,
                                       &err) == 0, &err);
    assert_int_equal(atomic_load(&seen.calls), 1);
    assert_false(atomic_load(&seen.th.other_thread));
    uf_array_release(out);
    out = NULL;
    release_all(in, 2);

    /* 2000 strips of 400: whole strips per loop call, shared out */
    in[0] = make(&rows2, 1);
    in[1] = make(&rows2, 2);
    reset_seen(!serial);
    uf_assert_ok(uf__ufunc_call_target(u, "parallel", in, 2, &out, 1, &o,
                                       &err) == 0, &err);
    assert_int_equal(atomic_load(&seen.calls), 2000);
    assert_int_equal(atomic_load(&seen.th.other_thread), !serial);
    uf_array_release(out);
    release_all(in, 2);
    uf__ufunc_free(u);
}

/* Allocation N failing, N = 1, 2, ...: the per-thread cast buffers are
 * allocated in the workers, and a failure there reaches the caller as
 * UF_ERR_NOMEM with nothing left allocated. */
static void test_out_of_memory(void **state)
{
    (void)state;
    if (layer_is_bad())
        skip();
    spec s = {F8, 2, {300, 401}, ":, 1:", false, F_REAL};
    uf_array *in[2] = {make(&s, 1), make(&s, 2)};
    uf_array *out = uf_empty(F4, 2, (int64_t[]){300, 400}, UF_ORDER_C, NULL);
    uf_func *f = get("hypot.py", "hypot");
    uf_error err;
    int failures = 0;

    /* compiled before counting */
    uf_assert_ok(call_on(f, in, 2, &out, 1, "cpu", 0, NULL, &err) == 0,
                 &err);
    for (long n = 1; n < 100; n++) {
        long live = uf__alloc_live();
        uf__alloc_fail_at(n);
        int rc = call_on(f, in, 2, &out, 1, "parallel", 2, NULL, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (!failed) {
            uf_assert_ok(rc == 0, &err);
            break;
        }
        failures++;
        assert_int_equal(rc, UF_ERR_NOMEM);
        assert_int_equal(uf__alloc_live(), live);
    }
    /* the buffers of 2 x 4 chunks */
    assert_true(failures >= 2);
    uf_array_release(out);
    release_all(in, 2);
}

static int setup(void **state)
{
    uf_error err;
    (void)state;
    ctx = uf_context_new(&err);
    if (ctx == NULL)
        return -1;
    modules[0].m = uf_module_from_string(ctx, "parallel_err.py", err_src,
                                         &err);
    if (modules[0].m == NULL) {
        print_error("%s\n", err.message);
        return -1;
    }
    modules[0].file = "parallel_err.py";
    return 0;
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
        cmocka_unit_test(test_declared_target),
        cmocka_unit_test(test_work_split),
        cmocka_unit_test(test_worker_errors),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_bad_layer),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
