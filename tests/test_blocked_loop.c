/* Blocked contiguous loops (compiler/lower/lower_loop.c, lower.h UF__LOOP_BLOCK):
 * which kernels get one (loop-free kernels calling vector math, only
 * while libmvec is on), that their loop function has neither vector
 * epilogue nor scalar remainder, and that the padded last block
 * (uf__rt_blocked) gives every element exactly the value the vector body
 * gives it: on every length 0..67 from several starting offsets
 * (unaligned views), in place, through the buffered paths (broadcast and
 * strided operands, an output overlapping its input), with several
 * outputs, from integer inputs, on the parallel target with 1, 2 and 7
 * threads, loaded from the disk cache; nothing is written past an
 * output's end. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "disk_cache_test_util.h"
#include "test_util.h"

static const char *const src =
    "import math\n"
    "from numba import njit, vectorize\n"
    "@vectorize(['float32(float32)', 'float64(float64)'])\n"
    "def sine(x):\n    return math.sin(x)\n"
    "@njit\ndef p2c(rho, theta):\n"
    "    return rho * math.cos(theta), rho * math.sin(theta)\n"
    "@vectorize(['float32(float32, float32, float32, float32)'])\n"
    "def polar(rho1, theta1, rho2, theta2):\n"
    "    x1, y1 = p2c(rho1, theta1)\n    x2, y2 = p2c(rho2, theta2)\n"
    "    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5\n"
    "@vectorize(['UniTuple(float64, 2)(float64, float64)'])\n"
    "def expsplit(x, y):\n    return math.exp(x) * y, math.log1p(abs(x))\n"
    "@vectorize(['float64(int64)'])\n"
    "def isqrt_cos(i):\n    return math.cos(i) + math.sqrt(abs(i))\n"
    "@vectorize(['float64(float64, float64)'])\n"
    "def rel_diff(x, y):\n    return 2 * (x - y) / (x + y)\n"
    "@vectorize(['float64(float64)'])\n"
    "def looped(x):\n"
    "    s = 0.0\n"
    "    for k in range(3):\n"
    "        s += math.sin(x + k)\n"
    "    return s\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    unsetenv("UFJIT_ENABLE_LIBMVEC");
    ctx = uf_context_new(&err);
    mod = ctx ? uf_module_from_string(ctx, "blocked.py", src, &err) : NULL;
    return mod ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

static uf_func *func(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

/* The optimised IR listing of one signature. */
static char *listing(uf_module *m, const char *name, const char *sig)
{
    uf_error err;
    uf_func *f = uf_module_get(m, name, &err);
    uf_assert_ok(f != NULL, &err);
    char *s = uf_func_inspect(f, sig, UF_INSPECT_LLVM, &err);
    uf_assert_ok(s != NULL, &err);
    return s;
}

static const struct which {
    const char *file;
    int line;
    const char *name, *sig;
    bool blocked;
} which[] = {
    {LOC, "sine", "float64(float64)", true},
    {LOC, "sine", "float32(float32)", true},
    {LOC, "polar", "float32(float32, float32, float32, float32)", true},
    {LOC, "expsplit", "UniTuple(float64, 2)(float64, float64)", true},
    {LOC, "isqrt_cos", "float64(int64)", true},
    /* no vector math: the remainder is cheaper than a padded block */
    {LOC, "rel_diff", "float64(float64, float64)", false},
    /* a loop of its own: the outer loop stays scalar */
    {LOC, "looped", "float64(float64)", false},
};

static void test_which_kernels(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof which / sizeof which[0]; i++) {
        const struct which *w = &which[i];
        char *s = listing(mod, w->name, w->sig);
        char *blk = strstr(s, "_blk(");
        if ((blk != NULL) != w->blocked)
            uf_fail_at(w->file, w->line, "%s %s: blocked %d, expected %d",
                       w->name, w->sig, blk != NULL, w->blocked);
        if (blk) {
            /* the loop function: one vector loop, nothing after it */
            char *end = strstr(blk, "\n}");
            assert_non_null(end);
            *end = '\0';
            if (!strstr(blk, "vector.body") || strstr(blk, "vec.epilog") ||
                strstr(blk, "@llvm.sin.f") || strstr(blk, "@llvm.cos.f") ||
                strstr(blk, "@llvm.exp.f"))
                uf_fail_at(w->file, w->line,
                           "%s %s: not one vector loop:\n%s", w->name,
                           w->sig, blk);
        }
        uf_free(s);
    }
}

/* Without libmvec nothing is blocked (scalar libm in a scalar loop). */
static void test_not_without_libmvec(void **state)
{
    (void)state;
    uf_error err;
    setenv("UFJIT_ENABLE_LIBMVEC", "0", 1);
    uf_context *c = uf_context_new(&err);
    uf_assert_ok(c != NULL, &err);
    uf_module *m = uf_module_from_string(c, "nomvec.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    char *s = listing(m, "sine", "float64(float64)");
    assert_null(strstr(s, "_blk("));
    uf_free(s);
    uf_module_free(m);
    uf_context_free(c);
    unsetenv("UFJIT_ENABLE_LIBMVEC");
}

#define FULL 80 /* whole blocks: every element through the vector body */
#define MAXN 67

/* Operand k: a ramp through zero. (Awkward values are checked against
 * libm in test_special_values: libmvec's result for one lane can depend on
 * the others -- sinf(-0.0) comes out +0.0 in a vector holding an infinity
 * -- so bit-equality with the body holds only without them.) */
static double value(int k, int64_t i)
{
    return 0.37 * (double)i - 3.1 * k - 2.2;
}

static uf_array *operand(uf_dtype dt, int k, int64_t n)
{
    uf_error err;
    uf_array *a = uf_empty(dt, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < n; i++) {
        double x = value(k, i);
        if (dt == UF_FLOAT64)
            ((double *)uf_array_data(a))[i] = x;
        else if (dt == UF_FLOAT32)
            ((float *)uf_array_data(a))[i] = (float)x;
        else
            ((int64_t *)uf_array_data(a))[i] = (int64_t)(x * 1000.0);
    }
    return a;
}

static uf_array *slice(uf_array *a, int64_t from, int64_t n, int64_t step)
{
    char expr[64];
    uf_error err;
    snprintf(expr, sizeof expr, "%lld:%lld:%lld", (long long)from,
             (long long)(from + n * step), (long long)step);
    uf_array *v = uf_array_slice(a, expr, &err);
    uf_assert_ok(v != NULL, &err);
    return v;
}

static const struct kcase {
    const char *file;
    int line;
    const char *name;
    int nin, nout;
    uf_dtype in, out;
} kcases[] = {
    {LOC, "sine", 1, 1, UF_FLOAT64, UF_FLOAT64},
    {LOC, "sine", 1, 1, UF_FLOAT32, UF_FLOAT32},
    {LOC, "polar", 4, 1, UF_FLOAT32, UF_FLOAT32},
    {LOC, "expsplit", 2, 2, UF_FLOAT64, UF_FLOAT64},
    {LOC, "isqrt_cos", 1, 1, UF_INT64, UF_FLOAT64},
};

/* Checks out[j] (n elements) against full[j] from `from`. */
static void same(const struct kcase *c, uf_array **full, uf_array **out,
                 int64_t from, int64_t n, const char *how)
{
    size_t isz = uf_dtype_itemsize(c->out);
    for (int j = 0; j < c->nout; j++) {
        const char *got = uf_array_data(out[j]);
        const char *want = (const char *)uf_array_data(full[j]) + from * isz;
        int64_t st = uf_array_strides(out[j])[0];
        for (int64_t i = 0; i < n; i++)
            if (memcmp(got + i * st, want + i * (int64_t)isz, isz) != 0)
            {
                double g = 0, w = 0;
                if (isz == 8) {
                    memcpy(&g, got + i * st, 8);
                    memcpy(&w, want + i * 8, 8);
                } else if (isz == 4) {
                    float gf, wf;
                    memcpy(&gf, got + i * st, 4);
                    memcpy(&wf, want + i * 4, 4);
                    g = gf;
                    w = wf;
                }
                uf_fail_at(c->file, c->line,
                           "%s: output %d element %lld of %lld from %lld "
                           "(%s) differs from the vector body's (%.17g, "
                           "%.17g)",
                           c->name, j, (long long)i, (long long)n,
                           (long long)from, how, g, w);
            }
    }
}

/* Every length from several offsets, given outputs framed by sentinels,
 * and in place. */
static void test_tails_equal_body(void **state)
{
    (void)state;
    uf_error err;
    for (size_t ci = 0; ci < sizeof kcases / sizeof kcases[0]; ci++) {
        const struct kcase *c = &kcases[ci];
        uf_func *f = func(c->name);
        uf_array *in[4], *full[2] = {NULL, NULL};
        for (int k = 0; k < c->nin; k++)
            in[k] = operand(c->in, k, FULL);
        uf_assert_ok(uf_call(f, in, c->nin, full, c->nout, NULL, &err) == 0,
                     &err);
        static const int64_t starts[] = {0, 1, 5, 13};
        for (size_t si = 0; si < 4; si++)
            for (int64_t n = 0; n <= MAXN && starts[si] + n <= FULL; n++) {
                int64_t s = starts[si];
                uf_array *vin[4], *frame[2], *out[2];
                for (int k = 0; k < c->nin; k++)
                    vin[k] = slice(in[k], s, n, 1);
                for (int j = 0; j < c->nout; j++) {
                    int64_t len = n + 40;
                    double sentinel = -12345.0;
                    frame[j] = uf_full(c->out, 1, &len, &sentinel,
                                       UF_FLOAT64, UF_ORDER_C, &err);
                    uf_assert_ok(frame[j] != NULL, &err);
                    out[j] = slice(frame[j], 20, n, 1);
                }
                uf_assert_ok(uf_call(f, vin, c->nin, out, c->nout, NULL,
                                     &err) == 0,
                             &err);
                same(c, full, out, s, n, "view");
                for (int j = 0; j < c->nout; j++) {
                    uf_array *before = slice(frame[j], 0, 20, 1);
                    uf_array *after = slice(frame[j], 20 + n, 20, 1);
                    uf_array *ref = uf_full(c->out, 1, (int64_t[]){20},
                                            &(double){-12345.0}, UF_FLOAT64,
                                            UF_ORDER_C, &err);
                    uf_assert_same_bytes(c->file, c->line, "before", ref,
                                         before);
                    uf_assert_same_bytes(c->file, c->line, "after", ref,
                                         after);
                    uf_array_release(before);
                    uf_array_release(after);
                    uf_array_release(ref);
                    uf_array_release(out[j]);
                    uf_array_release(frame[j]);
                }
                /* in place: the output is the first input's copy */
                if (c->in == c->out && c->nout == 1) {
                    uf_array *copy = uf_array_copy(vin[0], UF_ORDER_C, &err);
                    uf_assert_ok(copy != NULL, &err);
                    uf_array *args[4];
                    for (int k = 0; k < c->nin; k++)
                        args[k] = k == 0 ? copy : vin[k];
                    uf_array *o = uf_array_retain(copy);
                    uf_assert_ok(uf_call(f, args, c->nin, &o, 1, NULL,
                                         &err) == 0,
                                 &err);
                    same(c, full, &o, s, n, "in place");
                    uf_array_release(o);
                    uf_array_release(copy);
                }
                for (int k = 0; k < c->nin; k++)
                    uf_array_release(vin[k]);
            }
        for (int k = 0; k < c->nin; k++)
            uf_array_release(in[k]);
        for (int j = 0; j < c->nout; j++)
            uf_array_release(full[j]);
    }
}

/* Strided (x[::2]) and broadcast (a 0-d operand) inputs: the buffered
 * and fused paths hand contig chunks of any length. */
static void test_buffered_paths(void **state)
{
    (void)state;
    uf_error err;
    const struct kcase *c = &kcases[2]; /* polar, 4 inputs */
    uf_func *f = func(c->name);
    uf_array *in[4], *full[1] = {NULL};
    for (int k = 0; k < 4; k++)
        in[k] = operand(c->in, k, FULL);
    uf_assert_ok(uf_call(f, in, 4, full, 1, NULL, &err) == 0, &err);
    for (int64_t n = 0; n <= FULL / 2; n++) {
        /* strided: inputs k at 2i of a doubled copy */
        uf_array *wide[4], *vin[4], *out = NULL;
        for (int k = 0; k < 4; k++) {
            int64_t len = 2 * n;
            wide[k] = uf_empty(c->in, 1, &len, UF_ORDER_C, &err);
            for (int64_t i = 0; i < n; i++)
                ((float *)uf_array_data(wide[k]))[2 * i] =
                    ((float *)uf_array_data(in[k]))[i];
            vin[k] = slice(wide[k], 0, n, 2);
        }
        uf_assert_ok(uf_call(f, vin, 4, &out, 1, NULL, &err) == 0, &err);
        same(c, full, &out, 0, n, "strided");
        uf_array_release(out);
        for (int k = 0; k < 4; k++) {
            uf_array_release(vin[k]);
            uf_array_release(wide[k]);
        }
    }
    /* broadcast: rho1 = in[0][3] for every element, the rest as they are;
     * compared against the same call with rho1 materialised */
    for (int64_t n = 1; n <= MAXN; n++) {
        uf_array *vin[4], *a = NULL, *b = NULL;
        float r = ((float *)uf_array_data(in[0]))[3];
        vin[0] = uf_empty(UF_FLOAT32, 0, NULL, UF_ORDER_C, &err);
        *(float *)uf_array_data(vin[0]) = r;
        for (int k = 1; k < 4; k++)
            vin[k] = slice(in[k], 0, n, 1);
        uf_assert_ok(uf_call(f, vin, 4, &a, 1, NULL, &err) == 0, &err);
        uf_array_release(vin[0]);
        vin[0] = uf_full(UF_FLOAT32, 1, &n, &r, UF_FLOAT32, UF_ORDER_C, &err);
        uf_assert_ok(uf_call(f, vin, 4, &b, 1, NULL, &err) == 0, &err);
        uf_assert_same_bytes(c->file, c->line, "broadcast", b, a);
        uf_array_release(a);
        uf_array_release(b);
        for (int k = 0; k < 4; k++)
            uf_array_release(vin[k]);
    }
    for (int k = 0; k < 4; k++)
        uf_array_release(in[k]);
    uf_array_release(full[0]);
}

/* |got - want| <= 4 ulp of want (in float32 when `f32`), NaN for NaN,
 * the same infinity. */
static bool near(double got, double want, bool f32)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (isinf(want) || isinf(got))
        return got == want;
    double ulp = f32 ? (double)(nextafterf((float)fabs(want), INFINITY) -
                                (float)fabs(want))
                     : nextafter(fabs(want), INFINITY) - fabs(want);
    return fabs(got - want) <= 4 * ulp;
}

/* Awkward values in every position of short strips (padded blocks
 * only): libm's answers within the vector functions' bound. */
static void test_special_values(void **state)
{
    (void)state;
    static const double special[] = {0.0,  -0.0,     1.0,  -1.0,
                                      INFINITY, NAN, 1e-30, -2.5,
                                      1e6,  -INFINITY, 1e300, -1e-310};
    enum { NS = sizeof special / sizeof special[0] };
    uf_error err;
    uf_func *f = func("sine");
    for (int dt = 0; dt < 2; dt++)
        for (int64_t n = 1; n <= 2 * NS; n++)
            for (int64_t rot = 0; rot < NS; rot++) {
                uf_dtype t = dt ? UF_FLOAT32 : UF_FLOAT64;
                uf_array *x = uf_empty(t, 1, &n, UF_ORDER_C, &err), *y = NULL;
                uf_assert_ok(x != NULL, &err);
                for (int64_t i = 0; i < n; i++) {
                    double v = special[(i + rot) % NS];
                    if (dt)
                        ((float *)uf_array_data(x))[i] = (float)v;
                    else
                        ((double *)uf_array_data(x))[i] = v;
                }
                uf_assert_ok(uf_call(f, &x, 1, &y, 1, NULL, &err) == 0, &err);
                for (int64_t i = 0; i < n; i++) {
                    double v = dt ? ((float *)uf_array_data(x))[i]
                                  : ((double *)uf_array_data(x))[i];
                    double got = dt ? ((float *)uf_array_data(y))[i]
                                    : ((double *)uf_array_data(y))[i];
                    double want = dt ? (double)sinf((float)v) : sin(v);
                    if (!near(got, want, dt == 1))
                        uf_fail_at(__FILE__, __LINE__, "sin(%.17g) %s: %.17g, libm %.17g", v,
                                   dt ? "float32" : "float64", got, want);
                }
                uf_array_release(x);
                uf_array_release(y);
            }
}

/* The parallel target splits strips anywhere: the same bytes as cpu. */
static void test_parallel_same_as_cpu(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = func("sine");
    int64_t n = 200003;
    uf_array *x = uf_linspace(-40.0, 40.0, n, true, UF_FLOAT64, &err);
    uf_assert_ok(x != NULL, &err);
    uf_array *ref = NULL;
    uf_assert_ok(uf_call(f, &x, 1, &ref, 1, NULL, &err) == 0, &err);
    /* within 4 ulp of libm's sin (test_mvec_ulp measures the bound) */
    for (int64_t i = 0; i < n; i += 997) {
        double xi = ((double *)uf_array_data(x))[i];
        double got = ((double *)uf_array_data(ref))[i], want = sin(xi);
        assert_true(near(got, want, false));
    }
    static const int threads[] = {1, 2, 7};
    for (int t = 0; t < 3; t++) {
        uf_call_options o = {.size = sizeof o, .target = "parallel",
                             .num_threads = threads[t]};
        uf_array *out = NULL;
        uf_assert_ok(uf_call(f, &x, 1, &out, 1, &o, &err) == 0, &err);
        uf_assert_same_bytes(LOC, "parallel", ref, out);
        uf_array_release(out);
    }
    uf_array_release(ref);
    uf_array_release(x);
}

/* An output overlapping its input one element on (x[1:] = sin(x[:-1])):
 * the old values are read (NumPy's rule for overlapping operands), and
 * every element gets the bits a call without overlap gives it. */
static void test_overlap(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = func("sine");
    for (int64_t n = 2; n <= MAXN; n++) {
        uf_array *x = operand(UF_FLOAT64, 0, n), *ref = NULL;
        uf_array *in = slice(x, 0, n - 1, 1), *out = slice(x, 1, n - 1, 1);
        uf_array *copy = uf_array_copy(in, UF_ORDER_C, &err);
        uf_assert_ok(copy != NULL, &err);
        uf_assert_ok(uf_call(f, &copy, 1, &ref, 1, NULL, &err) == 0, &err);
        uf_assert_ok(uf_call(f, &in, 1, &out, 1, NULL, &err) == 0, &err);
        uf_assert_same_bytes(LOC, "x[1:] = sin(x[:-1])", ref, out);
        uf_array_release(in);
        uf_array_release(out);
        uf_array_release(copy);
        uf_array_release(ref);
        uf_array_release(x);
    }
}

/* A blocked loop loaded from the disk cache keeps its block (told by its
 * symbol's name): every length gives what the compiled loop gave. */
static void test_disk_cache_keeps_block(void **state)
{
    (void)state;
    uf_error err;
    dk_fresh_dir();
    uf_array *want[2][MAXN + 1];
    for (int round = 0; round < 2; round++) {
        /* round 0 compiles and stores, round 1 loads */
        uf_context *c = uf_context_new(&err);
        uf_assert_ok(c != NULL, &err);
        uf_module *m = uf_module_from_string(c, "disk.py", src, &err);
        uf_assert_ok(m != NULL, &err);
        uf_func *f = uf_module_get(m, "polar", &err);
        for (int64_t n = 0; n <= MAXN; n++) {
            uf_array *in[4];
            for (int k = 0; k < 4; k++)
                in[k] = operand(UF_FLOAT32, k, n);
            want[round][n] = NULL;
            uf_assert_ok(uf_call(f, in, 4, &want[round][n], 1, NULL, &err) ==
                             0,
                         &err);
            for (int k = 0; k < 4; k++)
                uf_array_release(in[k]);
        }
        uf_module_free(m);
        uf_context_free(c);
        assert_int_equal(dk_list(dk_dir, NULL), 1);
    }
    for (int64_t n = 0; n <= MAXN; n++) {
        uf_assert_same_bytes(LOC, "loaded", want[0][n], want[1][n]);
        uf_array_release(want[0][n]);
        uf_array_release(want[1][n]);
    }
    unsetenv("UFJIT_CACHE_DIR");
    dk_remove_dir(dk_dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_which_kernels),
        cmocka_unit_test(test_not_without_libmvec),
        cmocka_unit_test(test_tails_equal_body),
        cmocka_unit_test(test_buffered_paths),
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_parallel_same_as_cpu),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_disk_cache_keeps_block),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
