/* Complex arithmetic in the lowering, on hand-built kernels (see
 * jit_test_util.h): *, /, ** and - against rows printed by Python 3.11
 * (CPython's algorithms, which Numba uses) and NumPy for division by zero,
 * and the cmath runtime helpers called directly. */
#include <complex.h>

#include "jit_test_util.h"

/* ---- complex ------------------------------------------------------------------ */

/* Rows printed by Python 3.11 (CPython's complex arithmetic, which Numba
 * uses) and NumPy 2.4 for division by zero. */
static void test_complex_ops(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int op;
        double ar, ai, br, bi, wr, wi;
    } rows[] = {
        {LOC, 0, 1, 2, 3, 4, -5, 10},
        {LOC, 1, 1, 2, 3, 4, 0.44, 0.08},
        {LOC, 1, 1, 1, 0, 2, 0.5, -0.5},
        {LOC, 1, 1e300, 1e300, 1e300, 1e300, 1, 0},
        {LOC, 1, 1, 1, 0, 0, INFINITY, INFINITY},  /* NumPy */
        {LOC, 1, 0, 0, 0, 0, NAN, NAN},            /* NumPy */
        {LOC, 1, 1, 0, 0, 0, INFINITY, NAN},       /* NumPy */
        {LOC, 1, -1, -2, 0, 0, -INFINITY, -INFINITY},
        {LOC, 2, 1, 2, 2, 0, -3, 4},               /* z ** 2 as z * z */
        {LOC, 2, 1, 1, 0.5, 0, 1.0986841134678098, 0.45508986056222733},
        {LOC, 2, 0, 1, 0, 1, 0.20787957635076193, 0},
        {LOC, 2, 0, 0, 0, 0, 1, 0},
        {LOC, 2, 0, 0, -1, 0, NAN, NAN},           /* Numba: EDOM -> nan */
        {LOC, 3, 1, 2, 0.5, -1, 0.5, 3},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        cbin_ud u = {rows[i].op, UF_COMPLEX128};
        kspec s = {2, {UF_COMPLEX128, UF_COMPLEX128}, UF_COMPLEX128,
                   UF_COMPLEX128, false, body_complex, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        double a[2] = {rows[i].ar, rows[i].ai}, b[2] = {rows[i].br, rows[i].bi};
        double out[2];
        assert_int_equal(run2_both(fn, a, b, out, 1, 16, 16, 16), 0);
        for (int k = 0; k < 2; k++) {
            double want = k ? rows[i].wi : rows[i].wr;
            if (!same_double(out[k], want) &&
                !(fabs(out[k] - want) <= 1e-15 * fmax(1, fabs(want))))
                uf_fail_at(rows[i].file, rows[i].line, "got %.17g%+.17gj",
                           out[0], out[1]);
        }
    }
    /* complex64 goes through the same code in single precision */
    cbin_ud u = {0, UF_COMPLEX64};
    kspec s = {2, {UF_COMPLEX64, UF_COMPLEX64}, UF_COMPLEX64, UF_COMPLEX64,
               false, body_complex, &u};
    uf__strided_loop fn = compile_or_fail(&s);
    float a[2] = {1, 2}, b[2] = {3, 4}, out[2];
    assert_int_equal(run2_both(fn, a, b, out, 1, 8, 8, 8), 0);
    assert_true(out[0] == -5.0f && out[1] == 10.0f);
    /* Python's model: complex division by zero raises */
    cbin_ud ud = {1, UF_COMPLEX128};
    kspec sp = {2, {UF_COMPLEX128, UF_COMPLEX128}, UF_COMPLEX128,
                UF_COMPLEX128, true, body_complex, &ud};
    fn = compile_or_fail(&sp);
    double za[2] = {1, 1}, zb[2] = {0, 0}, zo[2];
    void *p[3] = {za, zb, zo};
    int64_t st[3] = {16, 16, 16};
    assert_int_equal(run(fn, 3, p, st, 1), UF__JIT_ZERODIV_COMPLEX);
}

/* The cmath runtime helpers, called directly (values from Python's cmath,
 * which Numba's algorithms follow for these inputs). */
static void test_complex_runtime(void **state)
{
    (void)state;
    int n;
    const uf__runtime_symbol *rt = uf__cpu_runtime_symbols(&n);
    void (*csqrt_)(double *) = NULL, (*cexp_)(double *) = NULL;
    void (*crect_)(double *) = NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(rt[i].name, "uf__rt_csqrt") == 0)
            csqrt_ = (void (*)(double *))(uintptr_t)rt[i].addr;
        if (strcmp(rt[i].name, "uf__rt_cexp") == 0)
            cexp_ = (void (*)(double *))(uintptr_t)rt[i].addr;
        if (strcmp(rt[i].name, "uf__rt_crect") == 0)
            crect_ = (void (*)(double *))(uintptr_t)rt[i].addr;
    }
    assert_non_null(csqrt_);
    assert_non_null(cexp_);
    assert_non_null(crect_);
    static const struct {
        const char *file;
        int line;
        int fn; /* 0 sqrt, 1 exp, 2 rect */
        double x, y, wr, wi;
    } rows[] = {
        {LOC, 0, -4, 0, 0, 2},
        {LOC, 0, -4, -0.0, 0, -2},
        {LOC, 0, 3, 4, 2, 1},
        {LOC, 0, 0, 0, 0, 0},
        {LOC, 0, -INFINITY, 1, 0, INFINITY},
        {LOC, 0, 1, INFINITY, INFINITY, INFINITY},
        {LOC, 0, 1e308, 1e308, 1.09868411346781e154, 4.550898605622274e153},
        {LOC, 1, 0, M_PI, -1, 1.2246467991473532e-16},
        {LOC, 1, 1, 0, 2.718281828459045, 0},
        {LOC, 1, INFINITY, 0, INFINITY, 0},
        {LOC, 1, -INFINITY, INFINITY, 0, 0},
        {LOC, 1, NAN, 0, NAN, 0},
        {LOC, 2, 2, M_PI / 2, 1.2246467991473532e-16, 2},
        {LOC, 2, INFINITY, 0, INFINITY, 0},
        {LOC, 2, 0, INFINITY, 0, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double z[2] = {rows[i].x, rows[i].y};
        (rows[i].fn == 0 ? csqrt_ : rows[i].fn == 1 ? cexp_ : crect_)(z);
        for (int k = 0; k < 2; k++) {
            double want = k ? rows[i].wi : rows[i].wr;
            if (!same_double(z[k], want) &&
                !(fabs(z[k] - want) <= 1e-15 * fmax(1, fabs(want))))
                uf_fail_at(rows[i].file, rows[i].line, "got %.17g%+.17gj",
                           z[0], z[1]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_complex_ops),
        cmocka_unit_test(test_complex_runtime),
    };
    return cmocka_run_group_tests(tests, jit_setup, jit_teardown);
}
