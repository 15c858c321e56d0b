/* Every ISA path of the vector math that this machine can run, forced with
 * the CPU-feature override the JIT takes (UFJIT_CPU_FEATURES, jit_cpu.h):
 *  - the widest: the host's features (AVX-512 here: _ZGVeN8v_sin);
 *  - AVX2 on an AVX-512 machine (UFJIT_CPU_FEATURES=-avx512f):
 *    _ZGVdN4v_sin, _ZGVdN8v_sinf and no 512-bit call;
 *  - no AVX2 (UFJIT_CPU_FEATURES=-avx2): no libmvec call (glibc's SSE
 *    variants are not mapped), scalar libm, bit for bit.
 * Where SLEEF is installed and picked (codegen_host_sleef.c: log on
 * AVX-512) its entry point for the path's ISA stands for libmvec's; where
 * the JIT computes the function inline (codegen_host_inline.c: exp, as
 * the path's vector-math line says) the loop has no call for it.
 * Each path compiles the transcendental kernels test_mvec_ulp.c covers,
 * checks which functions its assembly calls, and runs them on specials, a
 * sweep and random binades: within test_mvec_ulp's 4 ulp of glibc's scalar
 * libm and of the widest path, special values exact. Also: a bad override
 * is an error of the JIT, not a crash, and one asking for a feature this
 * CPU lacks is refused. */
#include <ctype.h>
#include <float.h>
#include <math.h>

#include "inline_vecmath_util.h"
#include "test_util.h"

typedef double (*f64_1)(double);
typedef float (*f32_1)(float);
typedef double (*f64_2)(double, double);
typedef float (*f32_2)(float, float);

typedef struct fn_row {
    const char *name, *expr;
    int nargs;
    void (*f64)(void);
    void (*f32)(void);
    double lo, hi;
} fn_row;

#define F1(d, f) (void (*)(void))(f64_1)(d), (void (*)(void))(f32_1)(f)
#define F2(d, f) (void (*)(void))(f64_2)(d), (void (*)(void))(f32_2)(f)

/* the bench's transcendental functions and one of each other shape */
static const fn_row rows[] = {
    {"sin", "math.sin(x)", 1, F1(sin, sinf), -10, 10},
    {"cos", "math.cos(x)", 1, F1(cos, cosf), -10, 10},
    {"exp", "math.exp(x)", 1, F1(exp, expf), -30, 30},
    {"log", "math.log(x)", 1, F1(log, logf), 0, 100},
    {"tanh", "math.tanh(x)", 1, F1(tanh, tanhf), -10, 10},
    {"atan2", "math.atan2(x, y)", 2, F2(atan2, atan2f), -5, 5},
    {"pow", "math.pow(x, y)", 2, F2(pow, powf), -10, 10},
};
enum { NROWS = sizeof rows / sizeof rows[0], BOUND = 4, NSWEEP = 3000 };

static const double specials[] = {
    0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5, -2.0, 1e-300,
    4.9e-324, 1.4e-45, DBL_MAX, FLT_MAX, 709.79, -745.1, 88.73, -103.97,
    1e22, -1e22, 0.1,
};
enum { NSPEC = sizeof specials / sizeof specials[0] };

/* the ISA paths: UFJIT_CPU_FEATURES, and which vector calls they make */
enum { ISA_WIDEST, ISA_AVX2, ISA_SCALAR, NISA };
static const char *const isa_edits[NISA] = {NULL, "-avx512f", "-avx2"};
static const char *const isa_names[NISA] = {"widest", "AVX2", "no AVX2"};

static uf_context *ctx[NISA];
static uf_module *mod[NISA];
static bool have_avx512, have_avx2;

static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double random_binade(bool f32)
{
    uint64_t r = rng();
    if (f32) {
        uint32_t bits = (uint32_t)(r % 0x7f800000u) | (uint32_t)(r >> 63) << 31;
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    uint64_t bits = (r % 0x7ff0000000000000u) | (rng() & 0x8000000000000000u);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
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

/* test_mvec_ulp.c's distance: HUGE_VAL when a special value differs */
static double ulps(double want, double got, bool f32)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got) ? 0 : HUGE_VAL;
    if (isinf(want) || isinf(got) || (want == 0 && got == 0))
        return want == got && signbit(want) == signbit(got) ? 0 : HUGE_VAL;
    return fabs((double)(ordered(want, f32) - ordered(got, f32)));
}

/* A context whose JIT was made with UFJIT_CPU_FEATURES=edits (NULL: the
 * variable unset), the variable restored afterwards. */
static uf_context *context_with(const char *edits, uf_error *err)
{
    const char *old = getenv("UFJIT_CPU_FEATURES");
    char *saved = old ? strdup(old) : NULL;
    if (edits)
        setenv("UFJIT_CPU_FEATURES", edits, 1);
    else
        unsetenv("UFJIT_CPU_FEATURES");
    uf_context *c = uf_context_new(err);
    if (c && uf_jit_host(c, NULL, NULL, NULL, err) != 0) {
        uf_context_free(c);
        c = NULL;
    }
    if (saved)
        setenv("UFJIT_CPU_FEATURES", saved, 1);
    else
        unsetenv("UFJIT_CPU_FEATURES");
    free(saved);
    return c;
}

static int setup(void **state)
{
    (void)state;
    uf_error err;
    unsetenv("UFJIT_ENABLE_LIBMVEC");
    unsetenv("UFJIT_CPU_NAME");
    have_avx512 = __builtin_cpu_supports("avx512f");
    have_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    static char src[4096];
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
    for (int i = 0; i < NISA; i++) {
        if (!(ctx[i] = context_with(isa_edits[i], &err)) ||
            !(mod[i] = uf_module_from_string(ctx[i], "mvec_isa.py", src,
                                             &err))) {
            print_error("%s: %s\n", isa_names[i], err.message);
            return -1;
        }
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < NISA; i++) {
        uf_module_free(mod[i]);
        uf_context_free(ctx[i]);
    }
    return 0;
}

/* Whether the assembly calls a libmvec function with prefix `pre`
 * ("_ZGVdN4v") of libm function `name` ("sinf"). */
static bool calls(const char *text, const char *pre, const char *name)
{
    for (const char *p = strstr(text, pre); p; p = strstr(p + 1, pre)) {
        const char *u = strchr(p, '_');
        u = u ? strchr(u + 1, '_') : NULL; /* after "_ZGVdN4v" */
        size_t len = strlen(name);
        if (u && strncmp(u + 1, name, len) == 0 &&
            !isalnum((unsigned char)u[1 + len]))
            return true;
    }
    return false;
}

/* Whether the assembly calls SLEEF's `name` (base name, "sin") on dtype
 * f32 for ISA suffix `isa` ("avx2", "avx512f"): Sleef_sinf16_u35avx512f. */
static bool calls_sleef(const char *text, const char *name, bool f32,
                        const char *isa)
{
    char pre[40];
    snprintf(pre, sizeof pre, "Sleef_%s%s", name, f32 ? "f" : "d");
    for (const char *p = strstr(text, pre); p; p = strstr(p + 1, pre)) {
        const char *q = p + strlen(pre);
        if (!isdigit((unsigned char)*q))
            continue;
        size_t len = strspn(q, "abcdefghijklmnopqrstuvwxyz0123456789_");
        size_t n = strlen(isa);
        if (len >= n && strncmp(q + len - n, isa, n) == 0)
            return true;
    }
    return false;
}

/* The path's result of row r on dtype f32 for n inputs x, y (doubles,
 * already rounded to float32 for f32); the assembly checked on the way. */
static double *run_path(int isa, const fn_row *row, bool f32,
                        const double *x, const double *y, int64_t n)
{
    uf_error err;
    char kname[32], sig[64], fname[16];
    snprintf(kname, sizeof kname, "k_%s", row->name);
    snprintf(fname, sizeof fname, "%s%s", row->name, f32 ? "f" : "");
    const char *dt = f32 ? "float32" : "float64";
    snprintf(sig, sizeof sig, "%s(%s%s%s)", dt, dt,
             row->nargs == 2 ? ", " : "", row->nargs == 2 ? dt : "");
    uf_func *f = uf_module_get(mod[isa], kname, &err);
    uf_assert_ok(f != NULL, &err);
    char *text = uf_func_inspect(f, sig, UF_INSPECT_ASM, &err);
    uf_assert_ok(text != NULL, &err);
    const char *avx2_pre = row->nargs == 2 ? (f32 ? "_ZGVdN8vv" : "_ZGVdN4vv")
                                           : (f32 ? "_ZGVdN8v" : "_ZGVdN4v");
    const char *e_pre = row->nargs == 2 ? (f32 ? "_ZGVeN16vv" : "_ZGVeN8vv")
                                        : (f32 ? "_ZGVeN16v" : "_ZGVeN8v");
    /* libmvec's variant or SLEEF's, where the JIT picked SLEEF */
    bool d_call = calls(text, avx2_pre, fname) ||
                  calls_sleef(text, row->name, f32, "avx2");
    bool e_call = calls(text, e_pre, fname) ||
                  calls_sleef(text, row->name, f32, "avx512f");
    bool any = strstr(text, "_ZGV") != NULL || strstr(text, "Sleef_") != NULL;
    /* ufjit's inline code on this path's ISA: no call of either kind */
    const char *vm = uf_jit_vector_math(ctx[isa], &err);
    uf_assert_ok(vm != NULL, &err);
    bool wide = isa == ISA_WIDEST && have_avx512;
    if (isa != ISA_SCALAR &&
        uf_test_inline_listed(vm, fname, wide ? "AVX-512" : "AVX2")) {
        if (d_call || e_call)
            fail_msg("%s %s on the %s path: inline, yet a vector call",
                     row->name, dt, isa_names[isa]);
        d_call = !wide; /* what the checks below want of the path */
        e_call = wide;
    }
    if (isa == ISA_AVX2 || (isa == ISA_WIDEST && !have_avx512 && have_avx2))
        if (!d_call || e_call)
            fail_msg("%s %s on the %s path: %s%s expected (and no "
                     "512-bit call), the assembly has %s", row->name, dt,
                     isa_names[isa], avx2_pre, fname,
                     e_call ? "an AVX-512 call" : "no AVX2 call");
    if (isa == ISA_WIDEST && have_avx512 && !e_call)
        fail_msg("%s %s: no %s_%s on an AVX-512 CPU", row->name, dt, e_pre,
                 fname);
    if (isa == ISA_SCALAR && any)
        fail_msg("%s %s without AVX2: a libmvec call remains", row->name, dt);
    uf_free(text);

    uf_dtype t = f32 ? UF_FLOAT32 : UF_FLOAT64;
    uf_array *a = uf_empty(t, 1, &n, UF_ORDER_C, &err);
    uf_array *b = a ? uf_empty(t, 1, &n, UF_ORDER_C, &err) : NULL;
    uf_assert_ok(b != NULL, &err);
    for (int64_t i = 0; i < n; i++) {
        if (f32) {
            ((float *)uf_array_data(a))[i] = (float)x[i];
            ((float *)uf_array_data(b))[i] = (float)y[i];
        } else {
            ((double *)uf_array_data(a))[i] = x[i];
            ((double *)uf_array_data(b))[i] = y[i];
        }
    }
    uf_array *in[2] = {a, b}, *out = NULL;
    uf_assert_ok(uf_call(f, in, row->nargs, &out, 1, NULL, &err) == 0, &err);
    double *res = malloc((size_t)n * sizeof *res);
    assert_non_null(res);
    for (int64_t i = 0; i < n; i++)
        res[i] = f32 ? ((float *)uf_array_data(out))[i]
                     : ((double *)uf_array_data(out))[i];
    uf_array_release(out);
    uf_array_release(a);
    uf_array_release(b);
    return res;
}

static void test_isa_paths(void **state)
{
    (void)state;
    if (!have_avx2)
        print_message("[ INFO     ] no AVX2: only the scalar path runs\n");
    else if (!have_avx512)
        print_message("[ INFO     ] no AVX-512: the AVX2 path is the widest; "
                      "forcing it is the default\n");
    int64_t cap = NSPEC * NSPEC + 2 * NSWEEP;
    double *x = malloc((size_t)cap * sizeof *x);
    double *y = malloc((size_t)cap * sizeof *y);
    assert_non_null(x);
    assert_non_null(y);
    for (int r = 0; r < NROWS; r++)
        for (int f32 = 0; f32 < 2; f32++) {
            const fn_row *row = &rows[r];
            rng_state = 0x2545f4914f6cdd1du ^ (uint64_t)r ^ (uint64_t)f32;
            int64_t n = 0;
            for (int i = 0; i < NSPEC; i++)
                for (int j = 0; j < (row->nargs == 2 ? NSPEC : 1); j++, n++)
                    x[n] = specials[i], y[n] = specials[j];
            for (int i = 0; i < NSWEEP; i++, n++) {
                x[n] = row->lo + (row->hi - row->lo) * i / NSWEEP;
                y[n] = row->lo + (row->hi - row->lo) *
                                     (double)(rng() % 1000) / 1000.0;
            }
            for (int i = 0; i < NSWEEP; i++, n++)
                x[n] = random_binade(f32), y[n] = random_binade(f32);
            for (int64_t i = 0; i < n && f32; i++)
                x[i] = (float)x[i], y[i] = (float)y[i];
            double *got[NISA];
            for (int isa = 0; isa < NISA; isa++)
                got[isa] = run_path(isa, row, f32, x, y, n);
            double worst[NISA] = {0}, vs_widest = 0;
            for (int64_t i = 0; i < n; i++) {
                double want;
                if (f32)
                    want = row->nargs == 2
                               ? ((f32_2)row->f32)((float)x[i], (float)y[i])
                               : ((f32_1)row->f32)((float)x[i]);
                else
                    want = row->nargs == 2 ? ((f64_2)row->f64)(x[i], y[i])
                                           : ((f64_1)row->f64)(x[i]);
                for (int isa = 0; isa < NISA; isa++) {
                    double d = ulps(want, got[isa][i], f32);
                    /* no AVX2: scalar libm, bit for bit */
                    if (isa == ISA_SCALAR && !(isnan(want) && isnan(got[isa][i])) &&
                        memcmp(&want, &got[isa][i], sizeof want) != 0)
                        d = HUGE_VAL;
                    if (d > BOUND)
                        fail_msg("%s %s, %s path, x=%.17g y=%.17g: libm "
                                 "%.17g, ufjit %.17g (%.0f ulp)",
                                 row->name, f32 ? "float32" : "float64",
                                 isa_names[isa], x[i], y[i], want,
                                 got[isa][i], d);
                    worst[isa] = fmax(worst[isa], d);
                }
                double d = ulps(got[ISA_WIDEST][i], got[ISA_AVX2][i], f32);
                if (d > BOUND)
                    fail_msg("%s %s x=%.17g y=%.17g: widest %.17g, AVX2 "
                             "%.17g (%.0f ulp)", row->name,
                             f32 ? "float32" : "float64", x[i], y[i],
                             got[ISA_WIDEST][i], got[ISA_AVX2][i], d);
                vs_widest = fmax(vs_widest, d);
            }
            print_message("[ INFO     ] %-6s %s: max ulp vs libm: widest %.0f, "
                          "AVX2 %.0f, no AVX2 %.0f; AVX2 vs widest %.0f\n",
                          row->name, f32 ? "float32" : "float64",
                          worst[ISA_WIDEST], worst[ISA_AVX2],
                          worst[ISA_SCALAR], vs_widest);
            for (int isa = 0; isa < NISA; isa++)
                free(got[isa]);
        }
    free(x);
    free(y);
}

/* A malformed override and a feature the CPU lacks: the JIT refuses,
 * naming the variable; the environment is left as it was. */
static void test_bad_override(void **state)
{
    (void)state;
    uf_error err;
    static const char *const bad[] = {"avx512f", "+", "-avx2,,+fma",
                                      "+avx 2", "-avx2;rm"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uf_context *c = context_with(bad[i], &err);
        if (c)
            fail_msg("UFJIT_CPU_FEATURES='%s' was accepted", bad[i]);
        assert_int_equal(err.code, UF_ERR_VALUE);
        assert_non_null(strstr(err.message, "UFJIT_CPU_FEATURES"));
    }
    /* a feature the host's list turns off: the first "-name" in it */
    const char *feat = NULL;
    assert_int_equal(uf_jit_host(ctx[ISA_WIDEST], NULL, &feat, NULL, &err), 0);
    const char *minus = feat[0] == '-' ? feat : strstr(feat, ",-");
    if (!minus) {
        print_message("[ INFO     ] the host's features turn nothing off: "
                      "no missing feature to ask for\n");
        return;
    }
    minus += *minus == ',';
    size_t len = strcspn(minus, ",");
    char plus[64];
    snprintf(plus, sizeof plus, "+%.*s", (int)(len - 1), minus + 1);
    uf_context *c = context_with(plus, &err);
    if (c)
        fail_msg("UFJIT_CPU_FEATURES='%s' (a feature this CPU lacks) was "
                 "accepted", plus);
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "does not have"));
    /* the variable's old value (unset) is back */
    assert_null(getenv("UFJIT_CPU_FEATURES"));
}

/* UFJIT_CPU_NAME replaces the name the JIT reports (and compiles for). */
static void test_cpu_name(void **state)
{
    (void)state;
    uf_error err;
    setenv("UFJIT_CPU_NAME", "x86-64", 1);
    uf_context *c = uf_context_new(&err);
    const char *cpu = NULL;
    int rc = c ? uf_jit_host(c, &cpu, NULL, NULL, &err) : -1;
    unsetenv("UFJIT_CPU_NAME");
    uf_assert_ok(rc == 0, &err);
    assert_string_equal(cpu, "x86-64");
    uf_context_free(c);
}

/* uf_jit_vector_math: what each path's JIT says it uses (the ISA named),
 * and a NULL context is an error. */
static void test_vector_math_text(void **state)
{
    (void)state;
    uf_error err;
    const char *w = uf_jit_vector_math(ctx[ISA_WIDEST], &err);
    const char *a = uf_jit_vector_math(ctx[ISA_AVX2], &err);
    const char *s = uf_jit_vector_math(ctx[ISA_SCALAR], &err);
    uf_assert_ok(w && a && s, &err);
    print_message("[ INFO     ] widest: %s\n[ INFO     ] AVX2: %s\n"
                  "[ INFO     ] no AVX2: %s\n", w, a, s);
    if (have_avx512)
        assert_non_null(strstr(w, "AVX-512"));
    if (have_avx2) {
        assert_non_null(strstr(a, "glibc libmvec, AVX2 variants"));
        assert_null(strstr(a, "AVX-512"));
    }
    assert_non_null(strstr(s, "scalar libm"));
    assert_null(uf_jit_vector_math(NULL, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isa_paths),
        cmocka_unit_test(test_bad_override),
        cmocka_unit_test(test_cpu_name),
        cmocka_unit_test(test_vector_math_text),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
