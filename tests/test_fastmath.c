/* fastmath=True, as Numba honours it: LLVM's `fast` flags on the float
 * operations, comparisons and float calls of that kernel's own function
 * (a callee keeps its own decorator's setting), which lets LLVM
 * reassociate: a sum loop `s += a[i]` vectorises only with fastmath.
 * Checked on the optimised IR uf_func_inspect prints, and on results. */
#include <math.h>

#include "test_util.h"

static const char src[] =
    "import math\n"
    "from numba import vectorize, guvectorize, njit\n"
    "@vectorize(['float64(float64, float64)', 'float32(float32, float32)'],"
    " fastmath=True)\n"
    "def fm_axpy(x, y):\n"
    "    return x * y + x\n"
    "@vectorize(['float64(float64, float64)', 'float32(float32, float32)'])\n"
    "def axpy(x, y):\n"
    "    return x * y + x\n"
    "@vectorize(['float64(float64, float64)'], fastmath=False)\n"
    "def axpy_off(x, y):\n"
    "    return x * y + x\n"
    "@njit(fastmath=True)\n"
    "def fm_sum(a):\n"
    "    s = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        s += a[i]\n"
    "    return s\n"
    "@njit\n"
    "def plain_sum(a):\n"
    "    s = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        s += a[i]\n"
    "    return s\n"
    "@guvectorize(['void(float64[:], float64[:])'], '(n)->()',"
    " fastmath=True)\n"
    "def gfm_sum(a, out):\n"
    "    s = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        s += a[i]\n"
    "    out[0] = s\n"
    "@guvectorize(['void(float64[:], float64[:])'], '(n)->()')\n"
    "def g_sum(a, out):\n"
    "    s = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        s += a[i]\n"
    "    out[0] = s\n"
    /* callees: their own decorator decides, not the caller's */
    "@njit\n"
    "def strict_mul(x, y):\n"
    "    return x * y\n"
    "@njit(fastmath=True)\n"
    "def fast_div(x, y):\n"
    "    return x / y\n"
    "@vectorize(['float64(float64, float64)'], fastmath=True)\n"
    "def fm_calls_strict(x, y):\n"
    "    return strict_mul(x, y) - x\n"
    "@vectorize(['float64(float64, float64)'])\n"
    "def calls_fast(x, y):\n"
    "    return fast_div(x, y) - x\n"
    "@vectorize(['float64(float64)'], fastmath=True)\n"
    "def fm_sin(x):\n"
    "    return math.sin(x) + 1.0\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    if (!(ctx = uf_context_new(&err)) ||
        !(mod = uf_module_from_string(ctx, "fastmath.py", src, &err))) {
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

/* The optimised LLVM IR of `name` for `sig`; free with uf_free. */
static char *ir_of(const char *name, const char *sig)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    char *ir = uf_func_inspect(f, sig, UF_INSPECT_LLVM, &err);
    uf_assert_ok(ir != NULL, &err);
    return ir;
}

/* Counts lines of `ir` holding all of `a`, `b` (NULL: any) and, when
 * `fast` is 1, " fast ", when 0, no fast-math flag at all. */
static int count_lines(const char *ir, const char *a, const char *b,
                       int fast)
{
    static const char *const flags[] = {" fast ", " reassoc ", " nnan ",
                                        " ninf ", " nsz ", " arcp ",
                                        " contract ", " afn "};
    int n = 0;
    for (const char *p = ir; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char line[1024];
        size_t l = len < sizeof line - 1 ? len : sizeof line - 1;
        memcpy(line, p, l);
        line[l] = '\0';
        bool any_flag = false;
        for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
            any_flag |= strstr(line, flags[i]) != NULL;
        if (strstr(line, a) && (!b || strstr(line, b)) &&
            (fast < 0 || (fast == 1 ? strstr(line, " fast ") != NULL
                                    : !any_flag)))
            n++;
        p += len + (e != NULL);
    }
    return n;
}

/* Prints the first line holding `a` (and `b`), for the log. */
static void show_line(const char *what, const char *ir, const char *a,
                      const char *b)
{
    for (const char *p = strstr(ir, a); p; p = strstr(p + 1, a)) {
        const char *s = p;
        while (s > ir && s[-1] != '\n')
            s--;
        const char *e = strchr(p, '\n');
        int len = e ? (int)(e - s) : (int)strlen(s);
        if (b && !memmem(s, (size_t)len, b, strlen(b)))
            continue;
        print_message("[ INFO     ] %s: %.*s\n", what, len > 160 ? 160 : len,
                      s);
        return;
    }
}

/* Elementwise: fast on the fadd/fmul of a fastmath kernel, in both
 * dtypes; none anywhere in the same kernel without fastmath (default or
 * fastmath=False). */
static void test_elementwise_flags(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *name, *sig, *ty;
        bool fast;
    } rows[] = {
        {LOC, "fm_axpy", "float64(float64, float64)", "double", true},
        {LOC, "fm_axpy", "float32(float32, float32)", "float", true},
        {LOC, "axpy", "float64(float64, float64)", "double", false},
        {LOC, "axpy", "float32(float32, float32)", "float", false},
        {LOC, "axpy_off", "float64(float64, float64)", "double", false},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char *ir = ir_of(rows[r].name, rows[r].sig);
        int fadd_fast = count_lines(ir, "fadd fast", rows[r].ty, -1);
        int fmul_fast = count_lines(ir, "fmul fast", rows[r].ty, -1);
        int fadd_plain = count_lines(ir, "= fadd ", rows[r].ty, 0);
        int fmul_plain = count_lines(ir, "= fmul ", rows[r].ty, 0);
        int any_flag = count_lines(ir, " = f", NULL, -1) -
                       count_lines(ir, " = f", NULL, 0);
        if (rows[r].fast) {
            if (fadd_fast == 0 || fmul_fast == 0 || fadd_plain || fmul_plain)
                uf_fail_at(rows[r].file, rows[r].line,
                           "%s: fadd fast %d, fmul fast %d, plain %d/%d",
                           rows[r].name, fadd_fast, fmul_fast, fadd_plain,
                           fmul_plain);
            show_line(rows[r].name, ir, "fmul fast", rows[r].ty);
        } else if (any_flag || fadd_plain == 0 || fmul_plain == 0) {
            uf_fail_at(rows[r].file, rows[r].line,
                       "%s: %d flagged float instructions, fadd %d fmul %d",
                       rows[r].name, any_flag, fadd_plain, fmul_plain);
        }
        uf_free(ir);
    }
}

/* The sum loop s += a[i]: a vector fadd (the reduction vectorised) only
 * with fastmath, in njit and guvectorize kernels. */
static void test_reduction_vectorises(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *name, *sig;
        bool fast;
    } rows[] = {
        {LOC, "fm_sum", "float64(float64[:])", true},
        {LOC, "plain_sum", "float64(float64[:])", false},
        {LOC, "gfm_sum", "void(float64[:], float64[:])", true},
        {LOC, "g_sum", "void(float64[:], float64[:])", false},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char *ir = ir_of(rows[r].name, rows[r].sig);
        int vec = count_lines(ir, "fadd fast <", "x double>", -1);
        int vec_any = count_lines(ir, "= fadd", "x double>", -1);
        int scalar = count_lines(ir, "= fadd double", NULL, 0);
        if (rows[r].fast ? vec == 0 : vec_any != 0 || scalar == 0)
            uf_fail_at(rows[r].file, rows[r].line,
                       "%s: %d vector fadd fast, %d vector fadd, %d plain "
                       "scalar fadd", rows[r].name, vec, vec_any, scalar);
        if (rows[r].fast)
            show_line(rows[r].name, ir, "fadd fast <", NULL);
        uf_free(ir);
    }
}

/* A callee keeps its own decorator's setting once inlined. */
static void test_callee_flags(void **state)
{
    (void)state;
    /* fastmath caller, strict callee: the caller's fsub is fast, the
     * callee's fmul is not */
    char *ir = ir_of("fm_calls_strict", "float64(float64, float64)");
    if (count_lines(ir, "fsub fast", "double", -1) == 0 ||
        count_lines(ir, "= fmul double", NULL, 0) == 0 ||
        count_lines(ir, "fmul fast", NULL, -1) != 0)
        fail_msg("fm_calls_strict: flags do not follow the decorators");
    uf_free(ir);
    /* strict caller, fastmath callee */
    ir = ir_of("calls_fast", "float64(float64, float64)");
    if (count_lines(ir, "fdiv fast", "double", -1) == 0 ||
        count_lines(ir, "= fsub double", NULL, 0) == 0 ||
        count_lines(ir, "fsub fast", NULL, -1) != 0)
        fail_msg("calls_fast: flags do not follow the decorators");
    uf_free(ir);
    /* a float call gets the flags too (Numba: calls of float type) */
    ir = ir_of("fm_sin", "float64(float64)");
    if (count_lines(ir, "call fast", "sin", -1) == 0)
        fail_msg("fm_sin: the sin call has no fast flag");
    uf_free(ir);
}

static uf_array *vec_f64(int64_t n, uf_error *err)
{
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, err);
    if (a)
        for (int64_t i = 0; i < n; i++)
            ((double *)uf_array_data(a))[i] = 1.0 / (double)(i + 1) +
                                              (i % 7) * 1e-3;
    return a;
}

/* Results: the reassociated sums agree with the sequential one to a
 * relative 1e-12 (exactly for the strict kernels), elementwise results
 * are x*y+x rounded once or twice (contracted to an fma: 1 ulp). */
static void test_results(void **state)
{
    (void)state;
    uf_error err;
    static const int64_t sizes[] = {0, 1, 3, 17, 1000, 4099};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int64_t n = sizes[s];
        uf_array *a = vec_f64(n, &err);
        uf_assert_ok(a != NULL, &err);
        const double *x = uf_array_data(a);
        double seq = 0;
        for (int64_t i = 0; i < n; i++)
            seq += x[i];
        static const char *const names[] = {"fm_sum", "plain_sum", "gfm_sum",
                                            "g_sum"};
        for (int k = 0; k < 4; k++) {
            uf_func *f = uf_module_get(mod, names[k], &err);
            uf_assert_ok(f != NULL, &err);
            uf_array *out = NULL;
            uf_assert_ok(uf_call(f, &a, 1, &out, 1, NULL, &err) == 0, &err);
            double got = *(double *)uf_array_data(out);
            bool strict = k == 1 || k == 3;
            if (strict ? got != seq
                       : fabs(got - seq) > 1e-12 * fabs(seq))
                fail_msg("%s n=%lld: %.17g vs sequential %.17g", names[k],
                         (long long)n, got, seq);
            uf_array_release(out);
        }
        uf_func *f = uf_module_get(mod, "fm_axpy", &err);
        uf_assert_ok(f != NULL, &err);
        uf_array *in[2] = {a, a};
        uf_array *out = NULL;
        uf_assert_ok(uf_call(f, in, 2, &out, 1, NULL, &err) == 0, &err);
        for (int64_t i = 0; i < n; i++) {
            double want = x[i] * x[i] + x[i];
            double got = ((double *)uf_array_data(out))[i];
            if (fabs(got - want) > 2.3e-16 * fabs(want))
                fail_msg("fm_axpy[%lld]: %.17g vs %.17g", (long long)i, got,
                         want);
        }
        uf_array_release(out);
        uf_array_release(a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elementwise_flags),
        cmocka_unit_test(test_reduction_vectorises),
        cmocka_unit_test(test_callee_flags),
        cmocka_unit_test(test_results),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
