/* glibc's vector math (libmvec) against its scalar libm, through ufjit.
 *
 * With libmvec on (the default), every math function lower_math.c maps to
 * libmvec is compiled as a @vectorize kernel in float32 and float64, called
 * with uf_call on arrays long enough for the vector loop (with a tail), and
 * compared with glibc's scalar function called from C: the results must be
 * within the bound stated per function (libmvec's documented 4 ulp), and
 * special values exact (a NaN result stays NaN, infinities and zeros are
 * the same bits, no overflow or underflow that libm does not have). Where
 * the JIT calls SLEEF instead (codegen_host_sleef.c: installed, and
 * measured faster for that function and ISA) the row measures SLEEF's
 * entry point to the same bound; test_sleef_covered says whether any did,
 * or why SLEEF is not in use. Where the JIT computes the function inline
 * (codegen_host_inline.c: exp, listed on the vector-math line) the row
 * measures that code, which must leave no call in the loop (also
 * tests/test_inline_vecmath.c). The ctest runs test_mvec_ulp_libmvec
 * (UFJIT_ENABLE_SLEEF=0) and test_mvec_ulp_avx2 (UFJIT_CPU_FEATURES=
 * -avx512f) cover libmvec's own variants and the AVX2 ones.
 *
 * Inputs per function: a dense sweep of the usual range, random magnitudes
 * over every binade with both signs (huge trig arguments, exp near overflow
 * and underflow, subnormals), and the special values (and, for the two-
 * argument functions, every pair of them: pow's special cases). The
 * measured table is printed; UF_MVEC_ULP_N=<n> widens the sweeps. */
#include <float.h>
#include <math.h>

#include "inline_vecmath_util.h"
#include "test_util.h"

typedef double (*f64_1)(double);
typedef float (*f32_1)(float);
typedef double (*f64_2)(double, double);
typedef float (*f32_2)(float, float);

/* One mapped function: kernel expression, glibc references, the dense
 * sweep's range (both dtypes) and the asserted bound in ulp. */
typedef struct fn_row {
    const char *file;
    int line;
    const char *name, *expr;
    int nargs;
    void (*f64)(void);
    void (*f32)(void);
    double lo, hi;
    double bound;
} fn_row;

#define F1(d, f) (void (*)(void))(f64_1)(d), (void (*)(void))(f32_1)(f)
#define F2(d, f) (void (*)(void))(f64_2)(d), (void (*)(void))(f32_2)(f)

static const fn_row rows[] = {
    {LOC, "sin", "math.sin(x)", 1, F1(sin, sinf), -10, 10, 4},
    {LOC, "cos", "math.cos(x)", 1, F1(cos, cosf), -10, 10, 4},
    {LOC, "tan", "math.tan(x)", 1, F1(tan, tanf), -10, 10, 4},
    {LOC, "asin", "math.asin(x)", 1, F1(asin, asinf), -1, 1, 4},
    {LOC, "acos", "math.acos(x)", 1, F1(acos, acosf), -1, 1, 4},
    {LOC, "atan", "math.atan(x)", 1, F1(atan, atanf), -20, 20, 4},
    {LOC, "atan2", "math.atan2(x, y)", 2, F2(atan2, atan2f), -5, 5, 4},
    {LOC, "sinh", "math.sinh(x)", 1, F1(sinh, sinhf), -20, 20, 4},
    {LOC, "cosh", "math.cosh(x)", 1, F1(cosh, coshf), -20, 20, 4},
    {LOC, "tanh", "math.tanh(x)", 1, F1(tanh, tanhf), -10, 10, 4},
    {LOC, "asinh", "math.asinh(x)", 1, F1(asinh, asinhf), -20, 20, 4},
    {LOC, "acosh", "math.acosh(x)", 1, F1(acosh, acoshf), 1, 40, 4},
    {LOC, "atanh", "math.atanh(x)", 1, F1(atanh, atanhf), -1, 1, 4},
    {LOC, "exp", "math.exp(x)", 1, F1(exp, expf), -30, 30, 4},
    {LOC, "expm1", "math.expm1(x)", 1, F1(expm1, expm1f), -10, 10, 4},
    {LOC, "log", "math.log(x)", 1, F1(log, logf), 0, 100, 4},
    {LOC, "log1p", "math.log1p(x)", 1, F1(log1p, log1pf), -1, 100, 4},
    {LOC, "log2", "math.log2(x)", 1, F1(log2, log2f), 0, 100, 4},
    {LOC, "log10", "math.log10(x)", 1, F1(log10, log10f), 0, 100, 4},
    {LOC, "pow", "math.pow(x, y)", 2, F2(pow, powf), -10, 10, 4},
    {LOC, "hypot", "math.hypot(x, y)", 2, F2(hypot, hypotf), -100, 100, 4},
    {LOC, "erf", "math.erf(x)", 1, F1(erf, erff), -6, 6, 4},
    {LOC, "erfc", "math.erfc(x)", 1, F1(erfc, erfcf), -6, 30, 4},
};
enum { NROWS = sizeof rows / sizeof rows[0] };

static const double specials[] = {
    0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1.0, -1.0, 0.5, -0.5,
    2.0, -2.0, 3.0, -3.0, 1.5, -1.5, 1e-300, -1e-300, 4.9e-324, -4.9e-324,
    2.2250738585072009e-308, 1.4e-45, 1.17549421e-38, 1e-40, DBL_MAX,
    -DBL_MAX, FLT_MAX, -FLT_MAX, 709.78, 709.79, -745.1, -708.4, 88.72,
    88.73, -103.97, -87.3, 1e22, -1e22, 1e300, 3.4e38, 0.1, 1e-8,
};
enum { NSPEC = sizeof specials / sizeof specials[0] };

static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A random value of either sign whose binade is uniform over the dtype's
 * finite range (subnormals included). */
static double random_binade(bool f32)
{
    uint64_t r = rng();
    if (f32) {
        uint32_t bits = (uint32_t)(r % 0x7f800000u) | (uint32_t)(r >> 63) << 31;
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    uint64_t bits = r % 0x7ff0000000000000u;
    bits |= rng() & 0x8000000000000000u;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* Order-preserving integer images: ulp distance is their difference. */
static int64_t ordered64(double x)
{
    int64_t i;
    memcpy(&i, &x, sizeof i);
    return i < 0 ? INT64_MIN - i : i;
}

static int64_t ordered32(float x)
{
    int32_t i;
    memcpy(&i, &x, sizeof i);
    return i < 0 ? (int64_t)INT32_MIN - i : i;
}

/* ulp distance of got from want; HUGE_VAL when a special value differs
 * (NaN-ness, an infinity, the sign of a zero) or got overflows where want
 * does not. Underflow is graded: 0 next to the smallest subnormal is 1
 * ulp (erfcf(10.05): glibc's scalar erfcf gives 0, libmvec 1.4e-45). */
static double ulps(double want, double got, bool f32)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got) ? 0 : HUGE_VAL;
    if (isinf(want) || isinf(got) || (want == 0 && got == 0))
        return want == got && signbit(want) == signbit(got) ? 0 : HUGE_VAL;
    int64_t d = f32 ? ordered32((float)want) - ordered32((float)got)
                    : ordered64(want) - ordered64(got);
    return fabs((double)d);
}

typedef struct measure {
    double max;
    double at_x, at_y, want, got;
    int64_t n;
} measure;

static uf_context *ctx;
static uf_module *mod;
static int nsleef; /* rows whose vector loop calls SLEEF */
static const char *vmline; /* uf_jit_vector_math */

static int setup(void **state)
{
    (void)state;
    uf_error err;
    /* libmvec is on unless UFJIT_ENABLE_LIBMVEC=0 */
    unsetenv("UFJIT_ENABLE_LIBMVEC");
    static char src[8192];
    size_t n = (size_t)snprintf(src, sizeof src,
                                "import math\nfrom numba import vectorize\n");
    for (int r = 0; r < NROWS; r++)
        n += (size_t)snprintf(
            src + n, sizeof src - n,
            "@vectorize(['float32(float32%s)', 'float64(float64%s)'])\n"
            "def k_%s(x%s):\n    return %s\n",
            rows[r].nargs == 2 ? ", float32" : "",
            rows[r].nargs == 2 ? ", float64" : "", rows[r].name,
            rows[r].nargs == 2 ? ", y" : "", rows[r].expr);
    if (n >= sizeof src)
        return -1;
    if (!(ctx = uf_context_new(&err)) ||
        !(mod = uf_module_from_string(ctx, "mvec_ulp.py", src, &err))) {
        print_error("%s\n", err.message);
        return -1;
    }
    vmline = uf_jit_vector_math(ctx, &err);
    if (!vmline) {
        print_error("%s\n", err.message);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

static int64_t sweep_n(void)
{
    const char *s = getenv("UF_MVEC_ULP_N");
    long v = s ? strtol(s, NULL, 10) : 0;
    return v > 0 ? v : 20000;
}

/* Inputs of one row: specials (all pairs for two arguments), the dense
 * sweep, random binades, the specials again at the end (in the loop's
 * tail). Returns the count. */
static int64_t make_inputs(const fn_row *row, bool f32, double *x, double *y,
                           int64_t nsweep)
{
    int64_t n = 0;
    if (row->nargs == 2) {
        for (int i = 0; i < NSPEC; i++)
            for (int j = 0; j < NSPEC; j++, n++)
                x[n] = specials[i], y[n] = specials[j];
    } else {
        for (int i = 0; i < NSPEC; i++, n++)
            x[n] = specials[i], y[n] = 0;
    }
    for (int64_t i = 0; i < nsweep; i++, n++) {
        x[n] = row->lo + (row->hi - row->lo) * (double)i / (double)nsweep;
        /* pairs: the second argument sweeps the same range, shuffled */
        y[n] = row->lo + (row->hi - row->lo) *
                             (double)(rng() % 100000) / 100000.0;
        /* pow: real exponents for positive bases, else integers and
         * halves (odd, even, NaN results) */
        if (strcmp(row->name, "pow") == 0)
            y[n] = x[n] > 0 ? (double)(rng() % 800001) / 10000 - 40
                            : (double)(int64_t)(rng() % 80) / 4 - 10;
    }
    for (int64_t i = 0; i < nsweep; i++, n++) {
        x[n] = random_binade(f32);
        y[n] = random_binade(f32);
        if (strcmp(row->name, "pow") == 0 && (rng() & 1))
            x[n] = fabs(x[n]);
    }
    for (int i = 0; i < NSPEC; i++, n++)
        x[n] = specials[i], y[n] = specials[(i * 7) % NSPEC];
    return n;
}

static bool is_special(double v)
{
    return v == 0 || isinf(v) || isnan(v);
}

/* Runs one row in one dtype through uf_call and measures it. */
static void run_row(const fn_row *row, bool f32, measure *m, bool *vector,
                    bool *sleef, bool *inl)
{
    uf_error err;
    char kname[32];
    snprintf(kname, sizeof kname, "k_%s", row->name);
    uf_func *f = uf_module_get(mod, kname, &err);
    uf_assert_ok(f != NULL, &err);
    char sig[64];
    snprintf(sig, sizeof sig, "%s(%s%s)", f32 ? "float32" : "float64",
             f32 ? "float32" : "float64",
             row->nargs == 2 ? (f32 ? ", float32" : ", float64") : "");
    char *asm_text = uf_func_inspect(f, sig, UF_INSPECT_ASM, &err);
    uf_assert_ok(asm_text != NULL, &err);
    char want_sym[32];
    snprintf(want_sym, sizeof want_sym, "_%s%s", row->name, f32 ? "f" : "");
    /* "_ZGVeN16v_sinf": the vector call of this function */
    *vector = false;
    for (const char *p = strstr(asm_text, "_ZGV"); p && !*vector;
         p = strstr(p + 4, "_ZGV")) {
        const char *u = strchr(p + 4, '_');
        size_t len = strlen(want_sym);
        *vector = u && strncmp(u, want_sym, len) == 0 &&
                  !(u[len] >= 'a' && u[len] <= 'z') &&
                  !(u[len] >= '0' && u[len] <= '9');
    }
    /* "Sleef_sinf16_u35avx512f": SLEEF's, where the JIT picked it */
    char sleef_sym[40];
    snprintf(sleef_sym, sizeof sleef_sym, "Sleef_%s%s", row->name,
             f32 ? "f" : "d");
    *sleef = false;
    for (const char *p = strstr(asm_text, sleef_sym); p && !*sleef;
         p = strstr(p + 1, sleef_sym)) {
        const char *q = p + strlen(sleef_sym);
        *sleef = *q >= '1' && *q <= '9';
    }
    *vector |= *sleef;
    /* ufjit's own code, on the ISA the loops use: no call at all */
    char fname[32];
    snprintf(fname, sizeof fname, "%s%s", row->name, f32 ? "f" : "");
    *inl = uf_test_inline_listed(
        vmline, fname,
        strncmp(vmline, "glibc libmvec, AVX-512", 22) == 0 ? "AVX-512"
                                                            : "AVX2");
    if (*inl && *vector)
        fail_msg("%s: inline on the vector-math line, the loop calls a "
                 "vector %s", fname, row->name);
    *vector |= *inl;
    uf_free(asm_text);

    int64_t nsweep = sweep_n();
    int64_t cap = NSPEC * NSPEC + 2 * nsweep + NSPEC;
    double *x = malloc((size_t)cap * sizeof *x);
    double *y = malloc((size_t)cap * sizeof *y);
    assert_non_null(x);
    assert_non_null(y);
    rng_state = 0x9e3779b97f4a7c15u ^ (uint64_t)(row - rows) ^ f32;
    int64_t n = make_inputs(row, f32, x, y, nsweep);
    uf_dtype dt = f32 ? UF_FLOAT32 : UF_FLOAT64;
    uf_array *a = uf_empty(dt, 1, &n, UF_ORDER_C, &err);
    uf_array *b = a ? uf_empty(dt, 1, &n, UF_ORDER_C, &err) : NULL;
    uf_assert_ok(b != NULL, &err);
    for (int64_t i = 0; i < n; i++) {
        if (f32) {
            ((float *)uf_array_data(a))[i] = (float)x[i];
            ((float *)uf_array_data(b))[i] = (float)y[i];
            x[i] = (float)x[i];
            y[i] = (float)y[i];
        } else {
            ((double *)uf_array_data(a))[i] = x[i];
            ((double *)uf_array_data(b))[i] = y[i];
        }
    }
    uf_array *in[2] = {a, b};
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, in, row->nargs, &out, 1, NULL, &err) == 0, &err);
    memset(m, 0, sizeof *m);
    m->n = n;
    for (int64_t i = 0; i < n; i++) {
        double want, got;
        if (f32) {
            float xf = (float)x[i], yf = (float)y[i];
            want = row->nargs == 2 ? ((f32_2)row->f32)(xf, yf)
                                   : ((f32_1)row->f32)(xf);
            got = ((float *)uf_array_data(out))[i];
        } else {
            want = row->nargs == 2 ? ((f64_2)row->f64)(x[i], y[i])
                                   : ((f64_1)row->f64)(x[i]);
            got = ((double *)uf_array_data(out))[i];
        }
        double d = ulps(want, got, f32);
        /* special inputs: the results are the same bits (NaN: a NaN) */
        if (is_special(x[i]) || (row->nargs == 2 && is_special(y[i])))
            if (!(isnan(want) && isnan(got)) &&
                memcmp(&want, &got, sizeof want) != 0)
                d = HUGE_VAL;
        if (d > m->max) {
            m->max = d;
            m->at_x = x[i];
            m->at_y = y[i];
            m->want = want;
            m->got = got;
        }
    }
    uf_array_release(out);
    uf_array_release(a);
    uf_array_release(b);
    free(x);
    free(y);
}

static void test_mvec_ulp(void **state)
{
    (void)state;
    int nvector = 0;
    print_message("[ INFO     ] function  dtype    max ulp  at x (, y): "
                  "libm vs libmvec (or SLEEF)\n");
    for (int r = 0; r < NROWS; r++) {
        for (int f32 = 0; f32 < 2; f32++) {
            measure m;
            bool vector, sleef, inl;
            run_row(&rows[r], f32, &m, &vector, &sleef, &inl);
            nvector += vector;
            nsleef += sleef;
            print_message("[ INFO     ] %-8s  %-7s  %7.0f  %s%.9g", rows[r].name,
                          f32 ? "float32" : "float64", m.max,
                          sleef ? "(SLEEF) " : inl ? "(inline) "
                                           : vector ? "" : "(scalar) ",
                          m.at_x);
            if (rows[r].nargs == 2)
                print_message(", %.9g", m.at_y);
            print_message(": %.17g vs %.17g\n", m.want, m.got);
            if (m.max > rows[r].bound)
                uf_fail_at(rows[r].file, rows[r].line,
                           "%s %s: %.0f ulp > %.0f at x=%.17g y=%.17g: "
                           "libm %.17g, ufjit %.17g",
                           rows[r].name, f32 ? "float32" : "float64", m.max,
                           rows[r].bound, m.at_x, m.at_y, m.want, m.got);
        }
    }
    /* with AVX2 and glibc >= 2.35 every mapped function is vectorised */
    if (nvector == 0)
        print_message("[ INFO     ] libmvec not used on this host: scalar "
                      "libm only\n");
    else
        assert_int_equal(nvector, 2 * NROWS);
}

/* SLEEF's entry points, where the JIT picks them (codegen_host_sleef.c),
 * were measured by test_mvec_ulp with the rest, to the same bound: here
 * the check that they were, or the reason they were not. */
static void test_sleef_covered(void **state)
{
    (void)state;
    uf_error err;
    const char *vm = uf_jit_vector_math(ctx, &err);
    uf_assert_ok(vm != NULL, &err);
    const char *s = strstr(vm, "SLEEF");
    if (!s || strncmp(s, "SLEEF (", 7) != 0) {
        print_message("[ SKIPPED  ] SLEEF not used by this JIT: %s\n",
                      s ? s : vm);
        skip();
    }
    print_message("[ INFO     ] %d function/dtype rows ran on SLEEF: %s\n",
                  nsleef, s);
    assert_true(nsleef > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mvec_ulp),
        cmocka_unit_test(test_sleef_covered),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
