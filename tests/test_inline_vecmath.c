/* ufjit's inline exp (compiler/host/codegen_host_inline.c) on every ISA
 * path this machine runs, forced on with UFJIT_INLINE_VECMATH=1 (the
 * default picks it only where it was measured faster): the widest
 * (AVX-512 here) and AVX2 forced with the CPU-feature override
 * (UFJIT_CPU_FEATURES=-avx512f), float64 and float32:
 *  - the vector-math line (`ufjit sysinfo`) lists it, and
 *    UFJIT_INLINE_VECMATH=0 turns it off (a libmvec or SLEEF call again);
 *    the default's line agrees with its assembly;
 *  - where inline, the loop's assembly has no call for exp and its
 *    arithmetic is in vectors of the ISA's width (zmm / ymm);
 *  - results against glibc's scalar exp on inputs that stress the code:
 *    specials, the edges of overflow and underflow (computed here from
 *    DBL_MAX / FLT_MAX and ln 2), a dense sweep through the subnormal
 *    results, the points where the reduction's k changes, a sweep of the
 *    usual range and random binades: within test_mvec_ulp's 4 ulp (within
 *    2 where the result is normal), special values the same bits, no
 *    overflow or underflow where libm has none;
 *  - the loop's scalar remainder gives the vector lanes' bits;
 *  - the bench's gaussian_pdf (float32 data, exp in float64 by Numba's
 *    typing) runs inline too. */
#include <ctype.h>
#include <float.h>
#include <math.h>

#include "inline_vecmath_util.h"
#include "test_util.h"

static const char src[] =
    "import math\n"
    "from numba import vectorize\n"
    "@vectorize(['float32(float32)', 'float64(float64)'])\n"
    "def k_exp(x):\n"
    "    return math.exp(x)\n"
    "@vectorize(['float32(float32, float32, float32)',\n"
    "            'float64(float64, float64, float64)'])\n"
    "def gaussian_pdf(x, mean, sigma):\n"
    "    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / "
    "(sigma * 2.5066282746310002)\n";

/* the paths: UFJIT_CPU_FEATURES, UFJIT_INLINE_VECMATH */
enum { PATH_WIDEST, PATH_AVX2, PATH_OFF, PATH_DEFAULT, NPATH };
static const char *const path_features[NPATH] = {NULL, "-avx512f", NULL,
                                                 NULL};
static const char *const path_inline[NPATH] = {"1", "1", "0", NULL};
static const char *const path_names[NPATH] = {"widest", "AVX2", "off",
                                              "default"};

static uf_context *ctx[NPATH];
static uf_module *mod[NPATH];
static const char *vmline[NPATH];
static bool have_avx512, have_avx2;

enum { BOUND = 4, NORMAL_BOUND = 2 };

static void set_or_unset(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

static int setup(void **state)
{
    (void)state;
    uf_error err;
    unsetenv("UFJIT_ENABLE_LIBMVEC");
    unsetenv("UFJIT_CPU_NAME");
    have_avx512 = __builtin_cpu_supports("avx512f");
    have_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    for (int p = 0; p < NPATH; p++) {
        set_or_unset("UFJIT_CPU_FEATURES", path_features[p]);
        set_or_unset("UFJIT_INLINE_VECMATH", path_inline[p]);
        ctx[p] = uf_context_new(&err);
        mod[p] = ctx[p] ? uf_module_from_string(ctx[p], "inline_vecmath.py",
                                                src, &err)
                        : NULL;
        vmline[p] = mod[p] ? uf_jit_vector_math(ctx[p], &err) : NULL;
        if (!vmline[p]) {
            print_error("%s: %s\n", path_names[p], err.message);
            return -1;
        }
    }
    unsetenv("UFJIT_CPU_FEATURES");
    unsetenv("UFJIT_INLINE_VECMATH");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int p = 0; p < NPATH; p++) {
        uf_module_free(mod[p]);
        uf_context_free(ctx[p]);
    }
    return 0;
}

/* The ISA the path's loops use ("AVX-512", "AVX2"), NULL without AVX2. */
static const char *path_isa(int p)
{
    if (!have_avx2)
        return NULL;
    return p != PATH_AVX2 && have_avx512 ? "AVX-512" : "AVX2";
}

static bool picked(int p, bool f32)
{
    const char *isa = path_isa(p);
    return isa && p != PATH_OFF &&
           uf_test_inline_listed(vmline[p], f32 ? "expf" : "exp", isa);
}

/* Whether the assembly calls an exp: libmvec's, SLEEF's or libm's. */
static bool calls_exp(const char *text)
{
    if (strstr(text, "_ZGV") || strstr(text, "Sleef_"))
        return true;
    for (const char *p = strstr(text, "exp"); p; p = strstr(p + 1, "exp")) {
        bool start = p == text || !(isalnum((unsigned char)p[-1]) ||
                                    p[-1] == '_' || p[-1] == '.');
        const char *e = p + 3 + (p[3] == 'f');
        if (start && !(isalnum((unsigned char)*e) || *e == '_'))
            return true;
    }
    return false;
}

static uf_func *get(int p, const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod[p], name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

static char *asm_of(int p, const char *name, const char *sig)
{
    uf_error err;
    char *text = uf_func_inspect(get(p, name), sig, UF_INSPECT_ASM, &err);
    uf_assert_ok(text != NULL, &err);
    return text;
}

/* The line says what is picked, and UFJIT_INLINE_VECMATH=0 is off. */
static void test_vector_math_line(void **state)
{
    (void)state;
    for (int p = 0; p < NPATH; p++)
        print_message("[ INFO     ] %-6s %s\n", path_names[p], vmline[p]);
    if (strncmp(vmline[PATH_WIDEST], "glibc libmvec", 13) != 0) {
        print_message("[ SKIPPED  ] no libmvec: %s\n", vmline[PATH_WIDEST]);
        skip();
    }
    assert_non_null(strstr(vmline[PATH_OFF], "inline: off "
                                             "(UFJIT_INLINE_VECMATH=0)"));
    if (!have_avx2) {
        assert_non_null(strstr(vmline[PATH_WIDEST], "inline: not used"));
        return;
    }
    /* forced: exp in both dtypes; AVX2 forced lists no AVX-512 */
    for (int p = 0; p < PATH_OFF; p++)
        for (int f32 = 0; f32 < 2; f32++)
            if (!picked(p, f32))
                fail_msg("%s: no inline exp%s with UFJIT_INLINE_VECMATH=1",
                         path_names[p], f32 ? "f" : "");
    assert_false(uf_test_inline_listed(vmline[PATH_AVX2], "exp", "AVX-512") ||
                 uf_test_inline_listed(vmline[PATH_AVX2], "expf", "AVX-512"));
}

/* Where picked: no call, vector arithmetic of the ISA's width; where not
 * (or off): the library's vector call. */
static void test_assembly(void **state)
{
    (void)state;
    if (!have_avx2)
        skip();
    for (int p = 0; p < NPATH; p++)
        for (int f32 = 0; f32 < 2; f32++) {
            const char *sig = f32 ? "float32(float32)" : "float64(float64)";
            char *text = asm_of(p, "k_exp", sig);
            bool wide = strcmp(path_isa(p), "AVX-512") == 0;
            if (picked(p, f32)) {
                if (calls_exp(text))
                    fail_msg("%s %s: inline exp picked, the loop calls one",
                             path_names[p], sig);
                /* the polynomial's fmas on whole vectors */
                const char *reg = wide ? "zmm" : "ymm";
                bool vec = false;
                for (const char *q = strstr(text, "vfmadd"); q && !vec;
                     q = strstr(q + 1, "vfmadd")) {
                    size_t line = strcspn(q, "\n");
                    const char *r = strstr(q, reg);
                    vec = r && r < q + line;
                }
                if (!vec || (!wide && strstr(text, "zmm")))
                    fail_msg("%s %s: no %s fmas in the inline exp's loop",
                             path_names[p], sig, reg);
            } else if (!strstr(text, "_ZGV") && !strstr(text, "Sleef_")) {
                fail_msg("%s %s: not inline, and no vector call either",
                         path_names[p], sig);
            }
            uf_free(text);
        }
    /* the bench's kernel: float32 data, exp in float64 */
    for (int f32 = 0; f32 < 2; f32++) {
        if (!picked(PATH_WIDEST, false))
            break;
        char *text = asm_of(PATH_WIDEST, "gaussian_pdf",
                            f32 ? "float32(float32, float32, float32)"
                                : "float64(float64, float64, float64)");
        if (calls_exp(text))
            fail_msg("gaussian_pdf %s: calls an exp", f32 ? "f32" : "f64");
        uf_free(text);
    }
}

static uint64_t rng_state = 0x853c49e6748fea9bu;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int64_t ordered(double x, bool f32)
{
    if (f32) {
        int32_t i;
        float f = (float)x;
        memcpy(&i, &f, sizeof i);
        return i < 0 ? (int64_t)INT32_MIN - i : i;
    }
    int64_t i;
    memcpy(&i, &x, sizeof i);
    return i < 0 ? INT64_MIN - i : i;
}

/* The inputs, rounded to the dtype; returns how many. */
static int64_t make_inputs(double *x, int64_t cap, bool f32)
{
    int64_t n = 0;
#define PUT(v) (n < cap ? (void)(x[n++] = f32 ? (double)(float)(v) : (v)) \
                        : (void)0)
    /* the last finite result and the first overflowing input, from the
     * largest finite number; the last nonzero result from the smallest
     * subnormal (exp(x) rounds to it down to ln(min) - ln 2 / 2) */
    double big = f32 ? FLT_MAX : DBL_MAX;
    double tiny = f32 ? 0x1p-149 : 0x1p-1074;
    double edges[] = {log(big), log(tiny), log(tiny) - M_LN2 / 2,
                      log(f32 ? FLT_MIN : DBL_MIN)};
    double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN,
                         big, -big, tiny, -tiny, 1.0, -1.0, 1e-8};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        PUT(specials[i]);
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
        double v = f32 ? (double)(float)edges[e] : edges[e];
        for (int s = 0; s < 40; s++) {
            PUT(v);
            v = f32 ? (double)nextafterf((float)v, INFINITY)
                    : nextafter(v, INFINITY);
        }
        v = f32 ? (double)(float)edges[e] : edges[e];
        for (int s = 0; s < 40; s++) {
            v = f32 ? (double)nextafterf((float)v, -INFINITY)
                    : nextafter(v, -INFINITY);
            PUT(v);
        }
    }
    /* every result from the smallest normal down to 0, densely */
    double lo = log(tiny) - 1, hi = log(f32 ? FLT_MIN : DBL_MIN) + 1;
    for (int i = 0; i < 20000; i++)
        PUT(lo + (hi - lo) * i / 20000);
    /* (k + 1/2) ln 2: where the reduction's k changes */
    for (int k = (int)(log(tiny) / M_LN2) - 2; k <= (f32 ? 129 : 1025); k++)
        for (int d = -2; d <= 2; d++) {
            double v = (k + 0.5) * M_LN2;
            v = f32 ? (double)((float)v + d * 0x1p-23f * fabsf((float)v))
                    : v + d * 0x1p-52 * fabs(v);
            PUT(v);
        }
    for (int i = 0; i < 20000; i++)
        PUT(-30 + 60.0 * i / 20000);
    for (int i = 0; i < 20000; i++) {
        uint64_t r = rng();
        double v;
        if (f32) {
            uint32_t b = (uint32_t)(r % 0x7f800000u) | (uint32_t)(r >> 63) << 31;
            float fv;
            memcpy(&fv, &b, sizeof fv);
            v = fv;
        } else {
            uint64_t b = (r % 0x7ff0000000000000u) | (rng() & (1ull << 63));
            memcpy(&v, &b, sizeof v);
        }
        PUT(v);
    }
#undef PUT
    return n;
}

static uf_array *run(int p, bool f32, const double *x, int64_t n)
{
    uf_error err;
    uf_dtype t = f32 ? UF_FLOAT32 : UF_FLOAT64;
    uf_array *a = uf_empty(t, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < n; i++) {
        if (f32)
            ((float *)uf_array_data(a))[i] = (float)x[i];
        else
            ((double *)uf_array_data(a))[i] = x[i];
    }
    uf_array *out = NULL;
    uf_assert_ok(uf_call(get(p, "k_exp"), &a, 1, &out, 1, NULL, &err) == 0,
                 &err);
    assert_int_equal(uf_array_dtype(out), t);
    uf_array_release(a);
    return out;
}

static double element(const uf_array *a, int64_t i, bool f32)
{
    return f32 ? ((const float *)uf_array_data(a))[i]
               : ((const double *)uf_array_data(a))[i];
}

/* Against glibc's scalar exp, on every path that picks the inline code. */
static void test_ulp(void **state)
{
    (void)state;
    enum { CAP = 80000 };
    double *x = malloc(CAP * sizeof *x);
    assert_non_null(x);
    int checked = 0;
    for (int p = 0; p < PATH_OFF; p++)
        for (int f32 = 0; f32 < 2; f32++) {
            if (!picked(p, f32))
                continue;
            checked++;
            int64_t n = make_inputs(x, CAP, f32);
            uf_array *out = run(p, f32, x, n);
            double worst = 0, worst_normal = 0, at = 0;
            for (int64_t i = 0; i < n; i++) {
                double want = f32 ? expf((float)x[i]) : exp(x[i]);
                double got = element(out, i, f32);
                double d;
                if (isnan(want) || isnan(got))
                    d = isnan(want) && isnan(got) ? 0 : HUGE_VAL;
                else if (isinf(want) || isinf(got) || want == 0 ||
                         got == 0 || isinf(x[i]) || x[i] == 0)
                    /* specials, overflow, underflow: the same bits */
                    d = memcmp(&want, &got, sizeof want) == 0 ? 0 : HUGE_VAL;
                else
                    d = fabs((double)(ordered(want, f32) -
                                      ordered(got, f32)));
                if (d > worst)
                    worst = d, at = x[i];
                if (fabs(want) >= (f32 ? FLT_MIN : DBL_MIN) &&
                    d > worst_normal)
                    worst_normal = d;
                if (d > BOUND || (d > NORMAL_BOUND &&
                                  fabs(want) >= (f32 ? FLT_MIN : DBL_MIN)))
                    fail_msg("%s %s: exp(%.17g): libm %.17g, inline %.17g",
                             path_names[p], f32 ? "float32" : "float64",
                             x[i], want, got);
            }
            print_message("[ INFO     ] %-6s %s: %lld inputs, max %.0f ulp "
                          "(normal results %.0f) at %.17g\n",
                          path_names[p], f32 ? "float32" : "float64",
                          (long long)n, worst, worst_normal, at);
            uf_array_release(out);
        }
    free(x);
    if (!checked) {
        print_message("[ SKIPPED  ] inline exp not picked on this CPU\n");
        skip();
    }
}

/* The scalar remainder of the loop computes the vector lanes' bits: each
 * short array (all remainder, or a vector and a tail) against the same
 * values inside one long array. */
static void test_remainder_same_bits(void **state)
{
    (void)state;
    enum { LONG = 512 };
    double x[LONG];
    for (int i = 0; i < LONG; i++)
        x[i] = -750 + 1500.0 * (double)(rng() % 1000000) / 1e6;
    for (int p = 0; p < PATH_OFF; p++)
        for (int f32 = 0; f32 < 2; f32++) {
            if (!picked(p, f32))
                continue;
            uf_array *all = run(p, f32, x, LONG);
            for (int64_t n = 1; n <= 37; n += 3) {
                uf_array *part = run(p, f32, x + 100, n);
                for (int64_t i = 0; i < n; i++) {
                    double a = element(all, 100 + i, f32);
                    double b = element(part, i, f32);
                    if (memcmp(&a, &b, sizeof a) != 0)
                        fail_msg("%s %s: exp(%.17g) %.17g in a long array, "
                                 "%.17g in one of %lld",
                                 path_names[p], f32 ? "float32" : "float64",
                                 x[100 + i], a, b, (long long)n);
                }
                uf_array_release(part);
            }
            uf_array_release(all);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_math_line),
        cmocka_unit_test(test_assembly),
        cmocka_unit_test(test_ulp),
        cmocka_unit_test(test_remainder_same_bits),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
