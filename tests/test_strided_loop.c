/* The lazily compiled fused strided loop of vectorize signatures
 * (compiler/host/jit_strided.c, taken by uf__rt_loop in targets/cpu/loop_rt.c):
 * strided, reversed, broadcast, cast and overlapping operands give the
 * very bytes the contiguous path gives (and a C reference where the
 * kernel is one IEEE operation), on cpu and parallel; the strided loop is
 * compiled once per signature, only by a call that needs it, never for
 * kernels that keep the buffered path, once under concurrent first calls,
 * independently in a second context, and out of memory the call still
 * computes the right thing or fails cleanly. */
#include <pthread.h>

#include "test_util.h"

#include "common/alloc.h"
#include "compiler/context.h"
#include "compiler/host/jit_strided.h"
#include "targets/cpu/cpu.h"
#include "targets/cpu/strided_slot.h"
#include "compiler/module.h"
#include "ufunc/vectorize.h"

static const char SRC[] =
    "import math\n"
    "from numba import vectorize\n"
    "@vectorize(['float64(float64, float64)', 'float32(float32, float32)',\n"
    "            'int64(int64, int64)'])\n"
    "def add(a, b):\n"
    "    return a + b\n"
    "@vectorize(['float64(float64, float64)'])\n"
    "def triad(a, b):\n"
    "    return a + 3.0 * b\n"
    "@vectorize\n"
    "def sumdiff(a, b):\n"
    "    return a + b, a - b\n"
    "@vectorize(['float64(float64, float64)'])\n"
    "def hypot(x, y):\n"
    "    x = abs(x)\n"
    "    y = abs(y)\n"
    "    t = min(x, y)\n"
    "    x = max(x, y)\n"
    "    t = t / x\n"
    "    return x * math.sqrt(1 + t * t)\n"
    "@vectorize\n"
    "def mul(a, b):\n"
    "    return a * b\n"
    "@vectorize\n"
    "def ladd(a, b):\n"
    "    return a + b\n";

static uint64_t ncompiles(uf_context *ctx)
{
    return ctx->jit ? uf__jit_ncompiles(ctx->jit) : 0;
}

/* linspace(lo, hi, n) of dtype dt, viewed through `slice` (NULL: all). */
static uf_array *make(uf_dtype dt, int64_t n, double lo, double hi,
                      const char *slice)
{
    uf_error err;
    uf_array *a = uf_linspace(lo, hi, n, true, dt, &err);
    uf_assert_ok(a != NULL, &err);
    if (slice == NULL)
        return a;
    uf_array *v = uf_array_slice(a, slice, &err);
    uf_assert_ok(v != NULL, &err);
    uf_array_release(a);
    return v;
}

static uf_call_options target(const char *t)
{
    uf_call_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.target = t;
    o.num_threads = 2;
    return o;
}

typedef struct strided_case {
    const char *file;
    int line;
    const char *kernel;
    uf_dtype in[2]; /* the arrays' dtypes */
    int64_t base;   /* elements of each input's base array */
    const char *slice[2]; /* views of the inputs (NULL: the whole base);
                             "0d": a 0-d input; "col"/"row": (base,1) and
                             (1,base) */
    const char *out;      /* NULL: allocated; "in0": the first input's
                             view; else a view of a zeroed array of
                             2 * base + 1 elements */
    int nout;
} strided_case;

static const strided_case cases[] = {
    {LOC, "add", {UF_FLOAT64, UF_FLOAT64}, 2001, {"::2", "::2"}, NULL, 1},
    {LOC, "add", {UF_FLOAT32, UF_FLOAT32}, 3001, {"::3", "::-3"}, NULL, 1},
    {LOC, "add", {UF_INT64, UF_INT64}, 2000, {"::-2", "1::2"}, NULL, 1},
    {LOC, "add", {UF_FLOAT64, UF_FLOAT64}, 4001, {"::4", "0d"}, NULL, 1},
    {LOC, "add", {UF_FLOAT64, UF_FLOAT64}, 1000, {NULL, NULL}, "::2", 1},
    {LOC, "add", {UF_FLOAT64, UF_FLOAT64}, 1000, {NULL, "::-1"}, "::-2", 1},
    {LOC, "add", {UF_FLOAT64, UF_FLOAT64}, 300, {"col", "row"}, NULL, 1},
    {LOC, "add", {UF_INT32, UF_FLOAT64}, 2001, {"::2", "::2"}, NULL, 1},
    {LOC, "add", {UF_FLOAT64, UF_FLOAT64}, 2001, {"::2", "::2"}, "in0", 1},
    {LOC, "triad", {UF_FLOAT64, UF_FLOAT64}, 3000, {"::3", "::-3"}, NULL, 1},
    {LOC, "sumdiff", {UF_FLOAT64, UF_FLOAT64}, 2000, {"::-2", "::2"}, NULL, 2},
    {LOC, "hypot", {UF_FLOAT64, UF_FLOAT64}, 2001, {"::2", "::2"}, NULL, 1},
    {LOC, "mul", {UF_FLOAT32, UF_FLOAT32}, 2001, {"::2", "::-2"}, NULL, 1},
    {LOC, "add", {UF_FLOAT64, UF_FLOAT64}, 1, {"::2", "::2"}, NULL, 1},
    {LOC, "add", {UF_FLOAT64, UF_FLOAT64}, 0, {"::2", "::2"}, NULL, 1},
};

static uf_array *case_input(const strided_case *c, int k, int64_t base)
{
    uf_error err;
    const char *s = c->slice[k];
    double lo = k ? -7.25 : 0.5, hi = k ? 13.5 : 1234.75;
    if (s && strcmp(s, "0d") == 0) {
        double v = 2.5;
        uf_array *a = uf_full(c->in[k], 0, NULL, &v, UF_FLOAT64, UF_ORDER_C,
                              &err);
        uf_assert_ok(a != NULL, &err);
        return a;
    }
    if (s && (strcmp(s, "col") == 0 || strcmp(s, "row") == 0)) {
        int64_t shape[2] = {1, 1};
        shape[strcmp(s, "row") == 0] = base;
        uf_array *a = make(c->in[k], base, lo, hi, NULL);
        uf_array *r = uf_array_reshape(a, 2, shape, UF_ORDER_C, false, &err);
        uf_assert_ok(r != NULL, &err);
        uf_array_release(a);
        return r;
    }
    return make(c->in[k], base, lo, hi, s);
}

/* One case on `tgt`: the views' result, then the same call on contiguous
 * copies of the inputs (made before, as overlapping outputs may change
 * them), compared byte for byte. Returns the outputs (caller releases). */
static void run_case(uf_module *m, const strided_case *c, const char *tgt,
                     int64_t base, uf_array **got)
{
    uf_error err;
    uf_func *f = uf_module_get(m, c->kernel, &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *in[2], *copy[2], *want[2] = {NULL, NULL}, *outbase = NULL;
    for (int k = 0; k < 2; k++) {
        in[k] = case_input(c, k, base);
        copy[k] = uf_array_copy(in[k], UF_ORDER_C, &err);
        uf_assert_ok(copy[k] != NULL, &err);
    }
    got[0] = got[1] = NULL;
    if (c->out && strcmp(c->out, "in0") == 0) {
        got[0] = uf_array_retain(in[0]);
    } else if (c->out) {
        int64_t n = 2 * base + 1;
        outbase = uf_zeros(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
        uf_assert_ok(outbase != NULL, &err);
        got[0] = uf_array_slice(outbase, c->out, &err);
        uf_assert_ok(got[0] != NULL, &err);
        /* as many elements as the inputs: trim the view */
        char trim[32];
        snprintf(trim, sizeof trim, ":%lld", (long long)uf_array_size(in[0]));
        uf_array *t = uf_array_slice(got[0], trim, &err);
        uf_assert_ok(t != NULL, &err);
        uf_array_release(got[0]);
        got[0] = t;
    }
    uf_call_options o = target(tgt);
    if (uf_call(f, in, 2, got, c->nout, &o, &err) < 0)
        uf_fail_at(c->file, c->line, "%s: %s", tgt, err.message);
    o = target("cpu");
    if (uf_call(f, copy, 2, want, c->nout, &o, &err) < 0)
        uf_fail_at(c->file, c->line, "contiguous: %s", err.message);
    for (int j = 0; j < c->nout; j++)
        uf_assert_same_bytes(c->file, c->line, tgt, want[j], got[j]);
    /* one IEEE addition: C gives the same bits */
    if (strcmp(c->kernel, "add") == 0 && c->in[0] == UF_FLOAT64 &&
        c->in[1] == UF_FLOAT64 && !c->slice[0] == !c->slice[1] &&
        uf_array_ndim(want[0]) == 1) {
        uf_array *a = uf_array_copy(copy[0], UF_ORDER_C, &err);
        uf_array *b = uf_array_copy(copy[1], UF_ORDER_C, &err);
        uf_array *w = uf_array_copy(got[0], UF_ORDER_C, &err);
        const double *pa = uf_array_data(a), *pb = uf_array_data(b);
        const double *pw = uf_array_data(w);
        int64_t nb = uf_array_size(b);
        for (int64_t i = 0; i < uf_array_size(w); i++)
            if (pw[i] != pa[i] + pb[nb == 1 ? 0 : i])
                uf_fail_at(c->file, c->line, "element %lld: %.17g", (long long)i,
                           pw[i]);
        uf_array_release(a);
        uf_array_release(b);
        uf_array_release(w);
    }
    for (int k = 0; k < 2; k++) {
        uf_array_release(in[k]);
        uf_array_release(copy[k]);
        uf_array_release(want[k]);
    }
    uf_array_release(outbase);
}

static void test_same_bytes_as_contiguous(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = uf_module_from_string(ctx, "k.py", SRC, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const strided_case *c = &cases[i];
        /* small on cpu; large (split between threads) on parallel,
         * compared with cpu byte for byte */
        uf_array *small[2], *cpu[2], *par[2];
        run_case(m, c, "cpu", c->base, small);
        int64_t big = c->base > 1000 ? 100 * c->base : c->base;
        run_case(m, c, "cpu", big, cpu);
        run_case(m, c, "parallel", big, par);
        for (int j = 0; j < c->nout; j++) {
            uf_assert_same_bytes(c->file, c->line, "parallel vs cpu", cpu[j],
                                 par[j]);
            uf_array_release(small[j]);
            uf_array_release(cpu[j]);
            uf_array_release(par[j]);
        }
    }
    uf_module_free(m);
    uf_context_free(ctx);
}

/* a[::step] + b[::step] of n elements on `tgt` through f; checks the sums
 * against C; returns whether they were right. */
static bool add_strided(uf_func *f, const char *tgt, int64_t n,
                        const char *step)
{
    uf_error err;
    uf_array *a = make(UF_FLOAT64, n, 0.25, 99.5, step);
    uf_array *b = make(UF_FLOAT64, n, -3.5, 7.75, step);
    uf_array *in[2] = {a, b}, *out = NULL;
    uf_call_options o = target(tgt);
    bool ok = uf_call(f, in, 2, &out, 1, &o, &err) == 0;
    if (ok) {
        uf_array *ca = uf_array_copy(a, UF_ORDER_C, &err);
        uf_array *cb = uf_array_copy(b, UF_ORDER_C, &err);
        const double *pa = uf_array_data(ca), *pb = uf_array_data(cb);
        const double *po = uf_array_data(out);
        for (int64_t i = 0; ok && i < uf_array_size(out); i++)
            ok = po[i] == pa[i] + pb[i];
        uf_array_release(ca);
        uf_array_release(cb);
    }
    uf_array_release(a);
    uf_array_release(b);
    uf_array_release(out);
    return ok;
}

static void test_compiled_once_when_needed(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = uf_module_from_string(ctx, "k.py", SRC, &err);
    uf_func *add = uf_module_get(m, "add", &err);
    uf_func *hyp = uf_module_get(m, "hypot", &err);
    uf_func *mul = uf_module_get(m, "mul", &err);
    uf_assert_ok(add && hyp && mul, &err);
    /* contiguous and broadcast calls: the contiguous loops only */
    assert_true(add_strided(add, "cpu", 1000, NULL));
    assert_int_equal(ncompiles(ctx), 1);
    uf_array *col = make(UF_FLOAT64, 50, 0, 1, NULL);
    uf_array *row = make(UF_FLOAT64, 60, 0, 1, NULL);
    int64_t cs[2] = {50, 1}, rs[2] = {1, 60};
    uf_array *in[2] = {uf_array_reshape(col, 2, cs, UF_ORDER_C, false, &err),
                       uf_array_reshape(row, 2, rs, UF_ORDER_C, false, &err)};
    uf_array *out = NULL;
    uf_assert_ok(uf_call(add, in, 2, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(ncompiles(ctx), 1);
    /* the first strided call compiles the strided loop, later ones,
     * whatever their strides and target, do not */
    assert_true(add_strided(add, "cpu", 1001, "::2"));
    assert_int_equal(ncompiles(ctx), 2);
    assert_true(add_strided(add, "cpu", 1001, "::-3"));
    assert_true(add_strided(add, "parallel", 300001, "::2"));
    assert_true(add_strided(add, "cpu", 1000, NULL));
    assert_int_equal(ncompiles(ctx), 2);
    /* a kernel doing more per element keeps the buffered path: nothing
     * compiled for it */
    uf_array *h[2] = {make(UF_FLOAT64, 999, 1, 2, "::2"),
                      make(UF_FLOAT64, 999, 3, 4, "::2")}, *ho = NULL;
    uf_assert_ok(uf_call(hyp, h, 2, &ho, 1, NULL, &err) == 0, &err);
    uf_array_release(ho);
    ho = NULL;
    uf_assert_ok(uf_call(hyp, h, 2, &ho, 1, NULL, &err) == 0, &err);
    uf_array_release(ho);
    assert_int_equal(ncompiles(ctx), 3); /* hypot's contiguous loop */
    /* a lazy kernel: its first call compiles the contiguous loop holding
     * the context lock, so the strided loop comes with the next strided
     * call */
    uf_array *x[2] = {make(UF_FLOAT64, 999, 1, 2, "::2"),
                      make(UF_FLOAT64, 999, 3, 4, "::-2")}, *xo = NULL;
    for (int i = 0; i < 3; i++) {
        uf_assert_ok(uf_call(mul, x, 2, &xo, 1, NULL, &err) == 0, &err);
        uf_array_release(xo);
        xo = NULL;
        assert_int_equal(ncompiles(ctx), i == 0 ? 4 : 5);
    }
    /* a second context compiles its own */
    uf_context *ctx2 = uf_context_new(&err);
    uf_module *m2 = uf_module_from_string(ctx2, "k.py", SRC, &err);
    uf_func *add2 = uf_module_get(m2, "add", &err);
    uf_assert_ok(add2 != NULL, &err);
    assert_true(add_strided(add2, "cpu", 777, "::2"));
    assert_true(add_strided(add2, "cpu", 777, "::2"));
    assert_int_equal(ncompiles(ctx2), 2);
    assert_int_equal(ncompiles(ctx), 5);
    uf_module_free(m2);
    uf_context_free(ctx2);
    for (int k = 0; k < 2; k++) {
        uf_array_release(in[k]);
        uf_array_release(h[k]);
        uf_array_release(x[k]);
    }
    uf_array_release(col);
    uf_array_release(row);
    uf_array_release(out);
    uf_module_free(m);
    uf_context_free(ctx);
}

/* Operands that depend on each other (an output one element after an
 * input, as accumulate runs them): the slot's loop runs them in order. */
static void test_dependent_in_order(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = uf_module_from_string(ctx, "k.py", SRC, &err);
    uf_func *add = uf_module_get(m, "add", &err);
    uf_assert_ok(add != NULL, &err);
    uf_dtype in[2] = {UF_FLOAT64, UF_FLOAT64};
    uf__ufunc_loop loop;
    uf_assert_ok(uf__vectorize_func_loop(add, in, &loop, &err) == 0, &err);
    assert_int_equal(ncompiles(ctx), 1);
    enum { N = 500 };
    double got[2 * N + 1], want[2 * N + 1], v[N];
    for (int i = 0; i <= 2 * N; i++)
        got[i] = want[i] = 0.5 * i - 7;
    for (int i = 0; i < N; i++)
        v[i] = 1.0 / (i + 1);
    /* x[2i + 2] = x[2i] + v[i], in order */
    for (int i = 0; i < N; i++)
        want[2 * i + 2] = want[2 * i] + v[i];
    char *data[3] = {(char *)got, (char *)v, (char *)(got + 2)};
    int64_t n = N, strides[3] = {16, 8, 16};
    uf__loop_ctx lctx = {.err = &err};
    assert_int_equal(loop.fn(&lctx, data, &n, strides, loop.aux), 0);
    assert_memory_equal(got, want, sizeof got);
    assert_int_equal(ncompiles(ctx), 2);
    uf_module_free(m);
    uf_context_free(ctx);
}

typedef struct worker {
    uf_func *f;
    bool ok;
} worker;

static void *hammer(void *p)
{
    worker *w = p;
    w->ok = true;
    for (int i = 0; i < 3; i++)
        w->ok = add_strided(w->f, "parallel", 150001, i % 2 ? "::-2" : "::2") &&
                w->ok;
    return NULL;
}

/* Four threads meeting the strided loop at once: each call is right
 * (those that came while it compiled took the buffered path), and it is
 * compiled once, for a declared and a lazy kernel. */
static void test_concurrent_first_calls(void **state)
{
    (void)state;
    const char *names[2] = {"add", "ladd"};
    for (int k = 0; k < 2; k++) {
        uf_error err;
        uf_context *ctx = uf_context_new(&err);
        uf_module *m = uf_module_from_string(ctx, "k.py", SRC, &err);
        uf_func *f = uf_module_get(m, names[k], &err);
        uf_assert_ok(f != NULL, &err);
        enum { NT = 4 };
        pthread_t t[NT];
        worker w[NT];
        for (int i = 0; i < NT; i++) {
            w[i] = (worker){f, false};
            assert_int_equal(pthread_create(&t[i], NULL, hammer, &w[i]), 0);
        }
        for (int i = 0; i < NT; i++) {
            assert_int_equal(pthread_join(t[i], NULL), 0);
            assert_true(w[i].ok);
        }
        /* one more call after the rush compiles it if no call could */
        assert_true(add_strided(f, "cpu", 1001, "::2"));
        assert_int_equal(ncompiles(ctx), 2);
        assert_true(add_strided(f, "parallel", 100001, "::3"));
        assert_int_equal(ncompiles(ctx), 2);
        uf_module_free(m);
        uf_context_free(ctx);
    }
}

/* Allocation N failing during the first strided call: the call fails
 * with UF_ERR_NOMEM or computes the right sums (a strided loop that could
 * not be compiled leaves the buffered path), and nothing leaks. */
static void test_out_of_memory(void **state)
{
    (void)state;
    for (long n = 1; n < 200; n++) {
        uf_error err;
        uf_context *ctx = uf_context_new(&err);
        uf_module *m = uf_module_from_string(ctx, "k.py", SRC, &err);
        uf_func *add = uf_module_get(m, "add", &err);
        uf_assert_ok(add != NULL, &err);
        assert_true(add_strided(add, "cpu", 100, NULL));
        uf_array *a = make(UF_FLOAT64, 99, 0.25, 99.5, "::2");
        uf_array *b = make(UF_FLOAT64, 99, -3.5, 7.75, "::2");
        uf_array *in[2] = {a, b}, *out = NULL;
        uf__alloc_fail_at(n);
        int rc = uf_call(add, in, 2, &out, 1, NULL, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (rc < 0)
            assert_int_equal(err.code, UF_ERR_NOMEM);
        assert_true(add_strided(add, "cpu", 99, "::2"));
        uf_array_release(out);
        uf_array_release(a);
        uf_array_release(b);
        uf_module_free(m);
        uf_context_free(ctx);
        if (!failed)
            return; /* the call made fewer than n allocations */
    }
    fail_msg("the strided call kept allocating");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_bytes_as_contiguous),
        cmocka_unit_test(test_compiled_once_when_needed),
        cmocka_unit_test(test_dependent_in_order),
        cmocka_unit_test(test_concurrent_first_calls),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
