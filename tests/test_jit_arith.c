/* Arithmetic operators of the lowering on hand-built kernels (see
 * jit_test_util.h): integers with Python's semantics (wrapping, // and %
 * rounding to -inf, shifts as NumPy), integer and float powers, float
 * // and %, and the statuses of Python's error model.
 *
 * Expectations: reference implementations in C for integers, and rows
 * printed by Python 3.11 / Numba 0.68 (each with its file:line) where the
 * float value matters to the last bit. */
#include "jit_test_util.h"

/* ---- integer arithmetic: Python semantics --------------------------------- */

static const int64_t int_operands[] = {
    0, 1, -1, 2, -2, 3, -3, 7, -7, 10, -10, 255, -256, 1000003,
    INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1,
};

static void test_int64_ops(void **state)
{
    (void)state;
    enum { N = sizeof int_operands / sizeof int_operands[0] };
    int64_t a[N * N], b[N * N], out[N * N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i * N + j] = int_operands[i];
            b[i * N + j] = int_operands[j];
        }
    static const uf__binop ops[] = {
        UF__OP_ADD, UF__OP_SUB, UF__OP_MUL, UF__OP_FLOORDIV, UF__OP_MOD,
        UF__OP_BITAND, UF__OP_BITOR, UF__OP_BITXOR,
    };
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        binop_ud u = {ops[o], UF_INT64};
        kspec s = {2, {UF_INT64, UF_INT64}, UF_INT64, UF_INT64, false,
                   body_binop, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        assert_int_equal(run2_both(fn, a, b, out, N * N, 8, 8, 8), 0);
        for (int k = 0; k < N * N; k++) {
            uint64_t ua = (uint64_t)a[k], ub = (uint64_t)b[k];
            int64_t want;
            switch (ops[o]) {
            case UF__OP_ADD: want = (int64_t)(ua + ub); break; /* wraps */
            case UF__OP_SUB: want = (int64_t)(ua - ub); break;
            case UF__OP_MUL: want = (int64_t)(ua * ub); break;
            case UF__OP_FLOORDIV: want = py_floordiv(a[k], b[k]); break;
            case UF__OP_MOD: want = py_mod(a[k], b[k]); break;
            case UF__OP_BITAND: want = a[k] & b[k]; break;
            case UF__OP_BITOR: want = a[k] | b[k]; break;
            default: want = a[k] ^ b[k]; break;
            }
            if (out[k] != want)
                fail_msg("op %d: %lld, %lld -> %lld, want %lld", (int)ops[o],
                         (long long)a[k], (long long)b[k], (long long)out[k],
                         (long long)want);
        }
    }
}

/* Narrow and unsigned types wrap in their own width; // and % on unsigned
 * are plain udiv/urem. */
static void test_narrow_ints(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf_dtype dt;
        uf__binop op;
        int64_t a, b, want;
    } rows[] = {
        {LOC, UF_INT8, UF__OP_ADD, 127, 1, -128},
        {LOC, UF_INT8, UF__OP_MUL, 64, 2, -128},
        {LOC, UF_INT8, UF__OP_FLOORDIV, -128, -1, 0}, /* Numba: 0 */
        {LOC, UF_INT8, UF__OP_FLOORDIV, -7, 2, -4},
        {LOC, UF_INT8, UF__OP_MOD, -7, 2, 1},
        {LOC, UF_INT16, UF__OP_SUB, -32768, 1, 32767},
        {LOC, UF_INT32, UF__OP_MUL, 65536, 65536, 0},
        {LOC, UF_INT32, UF__OP_MOD, 7, -3, -2},
        {LOC, UF_UINT8, UF__OP_ADD, 255, 1, 0},
        {LOC, UF_UINT8, UF__OP_SUB, 0, 1, 255},
        {LOC, UF_UINT8, UF__OP_FLOORDIV, 200, 7, 28},
        {LOC, UF_UINT8, UF__OP_MOD, 200, 7, 4},
        {LOC, UF_UINT8, UF__OP_MOD, 200, 0, 0},
        {LOC, UF_UINT64, UF__OP_FLOORDIV, -1, 2, INT64_MAX},
        {LOC, UF_UINT32, UF__OP_LSHIFT, 1, 31, 2147483648LL},
        {LOC, UF_UINT32, UF__OP_LSHIFT, 1, 32, 0},
        {LOC, UF_INT64, UF__OP_LSHIFT, 1, 63, INT64_MIN},
        {LOC, UF_INT64, UF__OP_LSHIFT, 1, 64, 0},     /* NumPy: 0 */
        {LOC, UF_INT64, UF__OP_LSHIFT, 1, -1, 0},     /* NumPy: 0 */
        {LOC, UF_INT64, UF__OP_RSHIFT, -8, 1, -4},
        {LOC, UF_INT64, UF__OP_RSHIFT, -8, 64, -1},   /* NumPy: -1 */
        {LOC, UF_INT64, UF__OP_RSHIFT, 8, 100, 0},
        {LOC, UF_UINT64, UF__OP_RSHIFT, -8, 1, INT64_MAX - 3},
        {LOC, UF_INT16, UF__OP_RSHIFT, -32768, 15, -1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uf_dtype dt = rows[i].dt;
        binop_ud u = {rows[i].op, dt};
        kspec s = {2, {dt, dt}, dt, UF_INT64, false, body_binop, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        /* the inputs in their own width, little-endian */
        int64_t a = rows[i].a, b = rows[i].b, out = 0;
        assert_int_equal(run2_both(fn, &a, &b, &out, 1, uf_dtype_itemsize(dt),
                                   uf_dtype_itemsize(dt), 8),
                         0);
        if (out != rows[i].want)
            uf_fail_at(rows[i].file, rows[i].line, "got %lld want %lld",
                       (long long)out, (long long)rows[i].want);
    }
}

/* Integer powers as Numba's vectorize computes them (values printed by
 * Numba 0.68 for @vectorize(['i8(i8,i8)']) def f(a, b): return a ** b). */
static void test_int_pow(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int64_t a, b, want;
    } rows[] = {
        {LOC, 2, 10, 1024},
        {LOC, 3, 0, 1},
        {LOC, -2, 3, -8},
        {LOC, 0, 0, 1},
        {LOC, 2, -1, 0},
        {LOC, 0, -1, INT64_MIN},
        {LOC, 1, -3, 1},
        {LOC, -1, -3, -1},
        {LOC, -1, -2, 1},
        {LOC, 3, 40, -6289078614652622815LL},
        {LOC, 2, 63, INT64_MIN},
        {LOC, 1, 100000, 1},
        {LOC, -1, 100001, -1},
    };
    enum { N = sizeof rows / sizeof rows[0] };
    int64_t a[N], b[N], out[N];
    for (int i = 0; i < N; i++) {
        a[i] = rows[i].a;
        b[i] = rows[i].b;
    }
    binop_ud u = {UF__OP_POW, UF_INT64};
    kspec s = {2, {UF_INT64, UF_INT64}, UF_INT64, UF_INT64, false, body_binop,
               &u};
    uf__strided_loop fn = compile_or_fail(&s);
    assert_int_equal(run2_both(fn, a, b, out, N, 8, 8, 8), 0);
    for (int i = 0; i < N; i++)
        if (out[i] != rows[i].want)
            uf_fail_at(rows[i].file, rows[i].line, "%lld ** %lld = %lld",
                       (long long)a[i], (long long)b[i], (long long)out[i]);
}

/* float ** int by squaring (Numba's int_power): exact for these. */
static void test_float_pow_int(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        double a;
        int64_t b;
        double want;
    } rows[] = {
        {LOC, 2.0, -2, 0.25},  {LOC, 1.5, 3, 3.375},   {LOC, -2.0, 3, -8.0},
        {LOC, 10.0, 22, 1e22}, {LOC, 0.0, -1, INFINITY}, {LOC, 7.0, 0, 1.0},
        {LOC, NAN, 0, 1.0},    {LOC, -0.0, 3, -0.0},
    };
    enum { N = sizeof rows / sizeof rows[0] };
    double a[N], out[N];
    int64_t b[N];
    for (int i = 0; i < N; i++) {
        a[i] = rows[i].a;
        b[i] = rows[i].b;
    }
    uf_dtype dt = UF_FLOAT64;
    kspec s = {2, {UF_FLOAT64, UF_INT64}, UF_FLOAT64, UF_FLOAT64, false,
               body_pow_int, &dt};
    uf__strided_loop fn = compile_or_fail(&s);
    assert_int_equal(run2_both(fn, a, b, out, N, 8, 8, 8), 0);
    for (int i = 0; i < N; i++)
        if (memcmp(&out[i], &rows[i].want, 8) != 0)
            uf_fail_at(rows[i].file, rows[i].line, "got %.17g want %.17g",
                       out[i], rows[i].want);
}

/* ---- float arithmetic ----------------------------------------------------- */

/* Rows printed by Python 3.11: a, b, a // b, a % b. */
static const struct fdm_row {
    const char *file;
    int line;
    double a, b, q, m;
} float_divmod_rows[] = {
    {LOC, 7.0, 2.0, 3.0, 1.0},
    {LOC, -7.0, 2.0, -4.0, 1.0},
    {LOC, 7.0, -2.0, -4.0, -1.0},
    {LOC, -7.0, -2.0, 3.0, -1.0},
    {LOC, 5.5, 2.0, 2.0, 1.5},
    {LOC, -5.5, 2.0, -3.0, 0.5},
    {LOC, 0.0, 3.0, 0.0, 0.0},
    {LOC, -0.0, 3.0, -0.0, 0.0},
    {LOC, 0.0, -3.0, -0.0, -0.0},
    {LOC, -0.0, -3.0, 0.0, -0.0},
    {LOC, 1.0, -INFINITY, -1.0, -INFINITY},
    {LOC, -1.0, INFINITY, -1.0, INFINITY},
    {LOC, 7.0, INFINITY, 0.0, 7.0},
    {LOC, INFINITY, 2.0, NAN, NAN},
    {LOC, NAN, 2.0, NAN, NAN},
    {LOC, 2.0, NAN, NAN, NAN},
    {LOC, 1e+308, 1e-308, INFINITY, 3.498445546245627e-309},
    {LOC, 0.3, 0.1, 2.0, 0.09999999999999998},
    {LOC, -0.3, 0.1, -3.0, 2.7755575615628914e-17},
    {LOC, 3.0, 0.5, 6.0, 0.0},
    /* NumPy's error model (Numba's vectorize): a // 0 is a / 0, a % 0 is
     * NaN */
    {LOC, 1.0, 0.0, INFINITY, NAN},
    {LOC, -1.0, 0.0, -INFINITY, NAN},
    {LOC, 0.0, 0.0, NAN, NAN},
    {LOC, 1.0, -0.0, -INFINITY, NAN},
};

static void check_float_divmod(uf_dtype dt)
{
    enum { N = sizeof float_divmod_rows / sizeof float_divmod_rows[0] };
    size_t isz = uf_dtype_itemsize(dt);
    double a[N], b[N], q[N], m[N];
    float af[N], bf[N], qf[N], mf[N];
    for (int i = 0; i < N; i++) {
        a[i] = float_divmod_rows[i].a;
        b[i] = float_divmod_rows[i].b;
        af[i] = (float)a[i];
        bf[i] = (float)b[i];
    }
    for (int w = 0; w < 2; w++) {
        binop_ud u = {w ? UF__OP_MOD : UF__OP_FLOORDIV, dt};
        kspec s = {2, {dt, dt}, dt, dt, false, body_binop, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        if (dt == UF_FLOAT64)
            assert_int_equal(run2_both(fn, a, b, w ? m : q, N, 8, 8, 8), 0);
        else
            assert_int_equal(run2_both(fn, af, bf, w ? mf : qf, N, isz, isz,
                                       isz),
                             0);
    }
    for (int i = 0; i < N; i++) {
        const struct fdm_row *r = &float_divmod_rows[i];
        if (dt == UF_FLOAT64) {
            if (!same_double(q[i], r->q) || !same_double(m[i], r->m))
                uf_fail_at(r->file, r->line, "%g // %g = %.17g, %% = %.17g",
                           r->a, r->b, q[i], m[i]);
        } else if (fabs(r->a) < 1e30 && fabs(r->b) > 1e-30 &&
                   r->a != 0.3 && r->a != -0.3) {
            /* float32: the same rows where the values are exact in float */
            if (!same_double(qf[i], (float)r->q) ||
                !same_double(mf[i], (float)r->m))
                uf_fail_at(r->file, r->line, "f32 %g // %g = %g, %% = %g",
                           r->a, r->b, (double)qf[i], (double)mf[i]);
        }
    }
}

static void test_float_divmod(void **state)
{
    (void)state;
    check_float_divmod(UF_FLOAT64);
    check_float_divmod(UF_FLOAT32);
}

static void test_float_ops(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf__binop op;
        double a, b, want;
    } rows[] = {
        {LOC, UF__OP_DIV, 1.0, 0.0, INFINITY},
        {LOC, UF__OP_DIV, -1.0, 0.0, -INFINITY},
        {LOC, UF__OP_DIV, 0.0, 0.0, NAN},
        {LOC, UF__OP_DIV, 1.0, -0.0, -INFINITY},
        {LOC, UF__OP_ADD, INFINITY, -INFINITY, NAN},
        {LOC, UF__OP_MUL, 0.0, -1.0, -0.0},
        {LOC, UF__OP_SUB, 0.1, 0.3, -0.19999999999999998},
        {LOC, UF__OP_POW, 2.0, 0.5, 1.4142135623730951},
        {LOC, UF__OP_POW, -8.0, 1.0 / 3.0, NAN},
        {LOC, UF__OP_POW, 0.0, -1.0, INFINITY},
        {LOC, UF__OP_POW, NAN, 0.0, 1.0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        binop_ud u = {rows[i].op, UF_FLOAT64};
        kspec s = {2, {UF_FLOAT64, UF_FLOAT64}, UF_FLOAT64, UF_FLOAT64, false,
                   body_binop, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        double out;
        assert_int_equal(run2_both(fn, &rows[i].a, &rows[i].b, &out, 1, 8, 8,
                                   8),
                         0);
        if (!same_double(out, rows[i].want))
            uf_fail_at(rows[i].file, rows[i].line, "got %.17g", out);
    }
    /* true division of ints is float64 */
    binop_ud u = {UF__OP_DIV, UF_INT64};
    kspec s = {2, {UF_INT64, UF_INT64}, UF_FLOAT64, UF_FLOAT64, false,
               body_binop, &u};
    uf__strided_loop fn = compile_or_fail(&s);
    int64_t a[4] = {7, -7, 1, 0}, b[4] = {2, 2, 0, 0};
    double out[4];
    assert_int_equal(run2_both(fn, a, b, out, 4, 8, 8, 8), 0);
    assert_true(out[0] == 3.5 && out[1] == -3.5 && isinf(out[2]) &&
                isnan(out[3]));
}

/* ---- Python's error model: statuses --------------------------------------- */

static void test_python_model_raises(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf_dtype dt, res;
        uf__binop op;
        double a, b;
        int status;
    } rows[] = {
        {LOC, UF_INT64, UF_INT64, UF__OP_FLOORDIV, 1, 0, UF__JIT_ZERODIV_INT},
        {LOC, UF_INT64, UF_INT64, UF__OP_MOD, 1, 0, UF__JIT_ZEROMOD_INT},
        {LOC, UF_INT64, UF_FLOAT64, UF__OP_DIV, 1, 0, UF__JIT_ZERODIV},
        {LOC, UF_FLOAT64, UF_FLOAT64, UF__OP_DIV, 1, 0, UF__JIT_ZERODIV},
        {LOC, UF_FLOAT64, UF_FLOAT64, UF__OP_FLOORDIV, 1, 0, UF__JIT_ZERODIV},
        {LOC, UF_FLOAT64, UF_FLOAT64, UF__OP_MOD, 1, -0.0, UF__JIT_ZEROMOD},
        {LOC, UF_INT64, UF_INT64, UF__OP_POW, 0, -2, UF__JIT_ZEROPOW},
        {LOC, UF_INT64, UF_INT64, UF__OP_FLOORDIV, 7, 2, 0},
        {LOC, UF_FLOAT64, UF_FLOAT64, UF__OP_MOD, 7, 2, 0},
        {LOC, UF_INT64, UF_INT64, UF__OP_POW, 0, 2, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uf_dtype dt = rows[i].dt;
        binop_ud u = {rows[i].op, dt};
        kspec s = {2, {dt, dt}, rows[i].res, UF_FLOAT64, true, body_binop, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        union {
            int64_t i;
            double f;
        } a[3], b[3];
        double out[3];
        for (int k = 0; k < 3; k++) {
            /* the failing element in the middle: the loop stops there */
            bool bad = k == 1;
            double av = bad ? rows[i].a : 1, bv = bad ? rows[i].b : 1;
            if (dt == UF_INT64) {
                a[k].i = (int64_t)av;
                b[k].i = (int64_t)bv;
            } else {
                a[k].f = av;
                b[k].f = bv;
            }
        }
        out[2] = -123.0;
        void *p[3] = {a, b, out};
        int64_t st[3] = {8, 8, 8};
        int rc = run(fn, 3, p, st, 3);
        if (rc != rows[i].status)
            uf_fail_at(rows[i].file, rows[i].line, "status %d, want %d", rc,
                       rows[i].status);
        if (rc != 0 && out[2] != -123.0)
            uf_fail_at(rows[i].file, rows[i].line,
                       "the loop ran past the failing element");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int64_ops),
        cmocka_unit_test(test_narrow_ints),
        cmocka_unit_test(test_int_pow),
        cmocka_unit_test(test_float_pow_int),
        cmocka_unit_test(test_float_divmod),
        cmocka_unit_test(test_float_ops),
        cmocka_unit_test(test_python_model_raises),
    };
    return cmocka_run_group_tests(tests, jit_setup, jit_teardown);
}
