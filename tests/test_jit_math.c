/* Math builtins in the lowering, on hand-built kernels (see
 * jit_test_util.h): unary functions against libm on float64 and float32,
 * two-argument and NumPy-specific functions against Python's values, and
 * the vector variants of glibc's libmvec (on by default, off with
 * UFJIT_ENABLE_LIBMVEC=0). */
#include "jit_test_util.h"

/* ---- math ------------------------------------------------------------------- */

/* Unary math builtins against libm on double and float. */
static void test_math_vs_libm(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf__builtin bi;
        double (*f)(double);
        float (*ff)(float);
        double lo, hi; /* domain sampled */
    } rows[] = {
        {LOC, UF__BI_SIN, sin, sinf, -10, 10},
        {LOC, UF__BI_COS, cos, cosf, -10, 10},
        {LOC, UF__BI_TAN, tan, tanf, -1.5, 1.5},
        {LOC, UF__BI_ASIN, asin, asinf, -1, 1},
        {LOC, UF__BI_ACOS, acos, acosf, -1, 1},
        {LOC, UF__BI_ATAN, atan, atanf, -50, 50},
        {LOC, UF__BI_SINH, sinh, sinhf, -5, 5},
        {LOC, UF__BI_COSH, cosh, coshf, -5, 5},
        {LOC, UF__BI_TANH, tanh, tanhf, -5, 5},
        {LOC, UF__BI_ASINH, asinh, asinhf, -50, 50},
        {LOC, UF__BI_ACOSH, acosh, acoshf, 1, 50},
        {LOC, UF__BI_ATANH, atanh, atanhf, -0.99, 0.99},
        {LOC, UF__BI_EXP, exp, expf, -20, 20},
        {LOC, UF__BI_EXPM1, expm1, expm1f, -1, 1},
        {LOC, UF__BI_LOG, log, logf, 1e-3, 1e3},
        {LOC, UF__BI_LOG1P, log1p, log1pf, -0.5, 10},
        {LOC, UF__BI_LOG2, log2, log2f, 1e-3, 1e3},
        {LOC, UF__BI_LOG10, log10, log10f, 1e-3, 1e3},
        {LOC, UF__BI_SQRT, sqrt, sqrtf, 0, 100},
        {LOC, UF__BI_FABS, fabs, fabsf, -3, 3},
        {LOC, UF__BI_FLOOR, floor, floorf, -3, 3},
        {LOC, UF__BI_CEIL, ceil, ceilf, -3, 3},
        {LOC, UF__BI_TRUNC, trunc, truncf, -3, 3},
        {LOC, UF__BI_NP_RINT, rint, rintf, -3, 3},
        {LOC, UF__BI_ERF, erf, erff, -3, 3},
        {LOC, UF__BI_ERFC, erfc, erfcf, -3, 3},
        {LOC, UF__BI_GAMMA, tgamma, tgammaf, 0.1, 10},
        {LOC, UF__BI_LGAMMA, lgamma, lgammaf, 0.1, 10},
    };
    enum { N = 101 };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        for (int w = 0; w < 2; w++) {
            uf_dtype dt = w ? UF_FLOAT32 : UF_FLOAT64;
            math_ud u = {rows[r].bi, dt, 1};
            kspec s = {1, {dt}, dt, dt, false, body_math, &u};
            uf__strided_loop fn = compile_or_fail(&s);
            double x[N], y[N];
            float xf[N], yf[N];
            for (int i = 0; i < N; i++) {
                x[i] = rows[r].lo + (rows[r].hi - rows[r].lo) * i / (N - 1);
                xf[i] = (float)x[i];
            }
            void *p[2] = {w ? (void *)xf : (void *)x, w ? (void *)yf : (void *)y};
            int64_t st[2] = {w ? 4 : 8, w ? 4 : 8};
            assert_int_equal(run(fn, 2, p, st, N), 0);
            for (int i = 0; i < N; i++) {
                /* vectorised forms may differ from libm by a few ulp */
                double want = w ? (double)rows[r].ff(xf[i]) : rows[r].f(x[i]);
                double got = w ? (double)yf[i] : y[i];
                double tol = (w ? 4e-7 : 4e-15) * fmax(1.0, fabs(want));
                if (!(fabs(got - want) <= tol) && !same_double(got, want))
                    uf_fail_at(rows[r].file, rows[r].line,
                               "%s(%.9g) = %.17g, libm %.17g",
                               w ? "float32" : "float64", w ? xf[i] : x[i],
                               got, want);
            }
        }
    }
}

/* Two-argument functions and the special ones. */
static void test_math_binary(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf__builtin bi;
        double a, b, want;
    } rows[] = {
        {LOC, UF__BI_ATAN2, 1.0, -1.0, 2.356194490192345},
        {LOC, UF__BI_HYPOT, 3.0, 4.0, 5.0},
        {LOC, UF__BI_HYPOT, INFINITY, NAN, INFINITY},
        {LOC, UF__BI_COPYSIGN, 3.0, -0.0, -3.0},
        {LOC, UF__BI_FMOD, -7.0, 2.0, -1.0},
        {LOC, UF__BI_FMOD, 7.0, -2.0, 1.0},
        {LOC, UF__BI_MPOW, 2.0, 10.0, 1024.0},
        {LOC, UF__BI_LOG, 8.0, 2.0, 3.0}, /* math.log(x, base) */
        {LOC, UF__BI_NP_MAXIMUM, NAN, 1.0, NAN},
        {LOC, UF__BI_NP_MAXIMUM, 1.0, NAN, NAN},
        {LOC, UF__BI_NP_MAXIMUM, 1.0, 2.0, 2.0},
        {LOC, UF__BI_NP_MINIMUM, 1.0, NAN, NAN},
        {LOC, UF__BI_NP_MINIMUM, -1.0, 2.0, -1.0},
        {LOC, UF__BI_NP_FMAX, NAN, 1.0, 1.0},
        {LOC, UF__BI_NP_FMAX, 1.0, NAN, 1.0},
        {LOC, UF__BI_NP_FMIN, NAN, 1.0, 1.0},
        {LOC, UF__BI_NP_FMIN, 3.0, 1.0, 1.0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        math_ud u = {rows[i].bi, UF_FLOAT64, 2};
        kspec s = {2, {UF_FLOAT64, UF_FLOAT64}, UF_FLOAT64, UF_FLOAT64, false,
                   body_math, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        double out;
        assert_int_equal(run2_both(fn, &rows[i].a, &rows[i].b, &out, 1, 8, 8,
                                   8),
                         0);
        if (!same_double(out, rows[i].want) &&
            !(fabs(out - rows[i].want) < 1e-15))
            uf_fail_at(rows[i].file, rows[i].line, "got %.17g", out);
    }
    static const struct {
        const char *file;
        int line;
        uf__builtin bi;
        double x, want;
    } urows[] = {
        {LOC, UF__BI_NP_RINT, 2.5, 2.0},     {LOC, UF__BI_NP_RINT, -0.5, -0.0},
        {LOC, UF__BI_NP_RINT, 3.5, 4.0},     {LOC, UF__BI_NP_SIGN, -0.0, -0.0},
        {LOC, UF__BI_NP_SIGN, -3.0, -1.0},   {LOC, UF__BI_NP_SIGN, NAN, NAN},
        {LOC, UF__BI_DEGREES, M_PI, 180.0},  {LOC, UF__BI_RADIANS, 180.0, M_PI},
        {LOC, UF__BI_NP_SQUARE, -3.0, 9.0},  {LOC, UF__BI_ISNAN, NAN, 1},
        {LOC, UF__BI_ISINF, -INFINITY, 1},   {LOC, UF__BI_ISFINITE, NAN, 0},
        {LOC, UF__BI_ISFINITE, 1e308, 1},    {LOC, UF__BI_ISINF, NAN, 0},
    };
    for (size_t i = 0; i < sizeof urows / sizeof urows[0]; i++) {
        uf__builtin bi = urows[i].bi;
        bool pred = bi == UF__BI_ISNAN || bi == UF__BI_ISINF ||
                    bi == UF__BI_ISFINITE;
        math_ud u = {bi, UF_FLOAT64, 1};
        kspec s = {1, {UF_FLOAT64}, pred ? UF_BOOL : UF_FLOAT64, UF_FLOAT64,
                   false, body_math, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        double out;
        void *p[2] = {(void *)&urows[i].x, &out};
        int64_t st[2] = {8, 8};
        assert_int_equal(run(fn, 2, p, st, 1), 0);
        if (!same_double(out, urows[i].want))
            uf_fail_at(urows[i].file, urows[i].line, "got %.17g", out);
    }
}

/* By default sin/exp/tanh/log in a contiguous loop call glibc's vector
 * variants, within 4 ulp of libm (tests/test_mvec_ulp.c measures every
 * function); UFJIT_ENABLE_LIBMVEC=0 keeps the scalar libm calls. */
static void test_libmvec(void **state)
{
    (void)state;
    uf_error err;
    const char *was = getenv("UFJIT_ENABLE_LIBMVEC");
    char saved_env[16] = "";
    if (was)
        snprintf(saved_env, sizeof saved_env, "%s", was);
    unsetenv("UFJIT_ENABLE_LIBMVEC");
    uf__jit *vj = test_host_jit(&err);
    setenv("UFJIT_ENABLE_LIBMVEC", "0", 1);
    uf__jit *sj = vj ? test_host_jit(&err) : NULL;
    if (was)
        setenv("UFJIT_ENABLE_LIBMVEC", saved_env, 1);
    else
        unsetenv("UFJIT_ENABLE_LIBMVEC");
    uf_assert_ok(vj != NULL && sj != NULL, &err);
    assert_false(uf__jit_have_mvec(sj));
    uf__jit *saved = jit;
    static const struct {
        const char *file;
        int line;
        uf__builtin bi;
        uf_dtype dt;
        double (*f)(double);
        float (*ff)(float);
    } rows[] = {
        {LOC, UF__BI_SIN, UF_FLOAT64, sin, NULL},
        {LOC, UF__BI_EXP, UF_FLOAT64, exp, NULL},
        {LOC, UF__BI_TANH, UF_FLOAT64, tanh, NULL},
        {LOC, UF__BI_SIN, UF_FLOAT32, NULL, sinf},
        {LOC, UF__BI_LOG, UF_FLOAT32, NULL, logf},
    };
    bool vectorised = false;
    for (size_t r = 0; r < 2 * (sizeof rows / sizeof rows[0]); r++) {
        /* first every row with the default, then with libmvec off */
        size_t row = r % (sizeof rows / sizeof rows[0]);
        bool off = r != row;
        jit = off ? sj : vj;
        uf_dtype dt = rows[row].dt;
        math_ud u = {rows[row].bi, dt, 1};
        kspec s = {1, {dt}, dt, dt, false, body_math, &u};
        uf__jit_listing lst;
        uf__strided_loop fn = compile_spec(&s, &lst);
        assert_non_null(fn);
        if (off && strstr(lst.asm_text, "_ZGV"))
            uf_fail_at(rows[row].file, rows[row].line,
                       "libmvec used with UFJIT_ENABLE_LIBMVEC=0");
        vectorised |= !off && strstr(lst.asm_text, "_ZGV") != NULL;
        uf__free(lst.llvm_ir);
        uf__free(lst.asm_text);
        enum { N = 200 };
        double x[N], y[N];
        float xf[N], yf[N];
        for (int i = 0; i < N; i++) {
            x[i] = 0.05 + i * 0.047;
            xf[i] = (float)x[i];
        }
        bool f32 = dt == UF_FLOAT32;
        void *p[2] = {f32 ? (void *)xf : (void *)x, f32 ? (void *)yf : (void *)y};
        int64_t st[2] = {f32 ? 4 : 8, f32 ? 4 : 8};
        assert_int_equal(run(fn, 2, p, st, N), 0);
        for (int i = 0; i < N; i++) {
            double want = f32 ? (double)rows[row].ff(xf[i])
                              : rows[row].f(x[i]);
            double got = f32 ? (double)yf[i] : y[i];
            double ulp = f32 ? (double)(nextafterf((float)want, INFINITY) -
                                        (float)want)
                             : nextafter(want, INFINITY) - want;
            /* libmvec off: libm's own results */
            if (fabs(got - want) > (off ? 0 : 4) * ulp)
                uf_fail_at(rows[row].file, rows[row].line, "x=%.9g: %.17g vs "
                           "libm %.17g%s", f32 ? xf[i] : x[i], got, want,
                           off ? " (libmvec off)" : "");
        }
    }
    jit = saved;
    uf__jit_free(vj);
    uf__jit_free(sj);
    /* where libmvec or AVX2 are missing the loops stay scalar */
    if (!vectorised)
        print_message("[ INFO     ] libmvec not used on this host\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_math_vs_libm),
        cmocka_unit_test(test_math_binary),
        cmocka_unit_test(test_libmvec),
    };
    return cmocka_run_group_tests(tests, jit_setup, jit_teardown);
}
