/* Vectorize loops are generated without loop strength reduction
 * (compiler/host/jit.c codegen_begin, compiler/host/llvm_options.cpp): the bench's
 * kernels give bit-identical results to default<O3> code generated with
 * it (UFJIT_OPT_PIPELINE=default) on every length from 0 to 67 (empty,
 * vector bodies, remainders, in place) -- gaussian_pdf, sine and
 * polar_distance as blocked loops (lower.h), generated without machine
 * LICM too -- and the process-wide options are back at LLVM's default
 * after each compilation. */
#include <math.h>

#include "test_util.h"

#include "compiler/host/llvm_options.h"

static const char *const header =
    "import math\nimport numpy as np\n"
    "from numba import njit, vectorize\n"
    "SQRT_2PI = np.float32((2 * math.pi) ** 0.5)\n";

static const struct kcase {
    const char *file;
    int line;
    const char *name, *src;
    int nin;
    uf_dtype dt;
} cases[] = {
    {LOC, "rel_diff",
     "@vectorize(['float64(float64, float64)'])\n"
     "def rel_diff(x, y):\n    return 2 * (x - y) / (x + y)\n",
     2, UF_FLOAT64},
    {LOC, "triad",
     "@vectorize(['float32(float32, float32)'])\n"
     "def triad(a, b):\n    return a + 3.0 * b\n",
     2, UF_FLOAT32},
    {LOC, "hypot",
     "@vectorize(['float32(float32, float32)'])\n"
     "def hypot(x, y):\n    x = abs(x)\n    y = abs(y)\n"
     "    t = min(x, y)\n    x = max(x, y)\n    t = t / x\n"
     "    return x * math.sqrt(1 + t * t)\n",
     2, UF_FLOAT32},
    {LOC, "gaussian_pdf",
     "@vectorize(['float32(float32, float32, float32)'])\n"
     "def gaussian_pdf(x, mean, sigma):\n"
     "    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / "
     "(sigma * SQRT_2PI)\n",
     3, UF_FLOAT32},
    {LOC, "sine",
     "@vectorize(['float64(float64)'])\n"
     "def sine(x):\n    return math.sin(x)\n",
     1, UF_FLOAT64},
    {LOC, "polar_distance",
     "@njit\ndef p2c(rho, theta):\n"
     "    return rho * math.cos(theta), rho * math.sin(theta)\n"
     "@vectorize(['float32(float32, float32, float32, float32)'])\n"
     "def polar_distance(rho1, theta1, rho2, theta2):\n"
     "    x1, y1 = p2c(rho1, theta1)\n    x2, y2 = p2c(rho2, theta2)\n"
     "    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5\n",
     4, UF_FLOAT32},
};

#define MAXN 67

/* Operand k of n elements: edge values first, then a ramp. */
static uf_array *input(uf_dtype dt, int k, int64_t n)
{
    static const double edge[] = {0.0, -0.0, 1.0, -1.0, INFINITY, NAN,
                                  1e-30, -2.5};
    uf_error err;
    uf_array *a = uf_empty(dt, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < n; i++) {
        double x = i < 8 ? edge[(i + k) % 8] : 0.37 * (double)i - 3.1 * k;
        if (dt == UF_FLOAT64)
            ((double *)uf_array_data(a))[i] = x;
        else
            ((float *)uf_array_data(a))[i] = (float)x;
    }
    return a;
}

/* The kernel's results on lengths 0..MAXN (out[n]), compiled in a new
 * context with the current environment; in place (the output is the
 * first input) when `inplace`. */
static void run(const struct kcase *c, int variant, bool inplace,
                uf_array **out)
{
    uf_error err;
    char src[2048];
    snprintf(src, sizeof src, "# variant %d\n%s%s", variant, header, c->src);
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "lsr.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, c->name, &err);
    uf_assert_ok(f != NULL, &err);
    for (int64_t n = 0; n <= MAXN; n++) {
        uf_array *in[4] = {NULL};
        for (int i = 0; i < c->nin; i++)
            in[i] = input(c->dt, i, n);
        out[n] = inplace ? uf_array_retain(in[0]) : NULL;
        uf_assert_ok(uf_call(f, in, c->nin, &out[n], 1, NULL, &err) == 0,
                     &err);
        for (int i = 0; i < c->nin; i++)
            uf_array_release(in[i]);
    }
    uf_module_free(m);
    uf_context_free(ctx);
    /* code generation set -disable-lsr and -disable-machine-licm (blocked
     * loops) back to LLVM's default (off) */
    int was = uf__llvm_disable_lsr(0);
    if (was != 0)
        uf_fail_at(c->file, c->line, "%s: -disable-lsr left at %d", c->name,
                   was);
    was = uf__llvm_disable_machine_licm(0);
    if (was != 0)
        uf_fail_at(c->file, c->line, "%s: -disable-machine-licm left at %d",
                   c->name, was);
}

static void test_same_results_as_o3(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct kcase *c = &cases[i];
        for (int inplace = 0; inplace < 2; inplace++) {
            uf_array *a[MAXN + 1], *b[MAXN + 1];
            unsetenv("UFJIT_OPT_PIPELINE");
            run(c, 2 * inplace + 1, inplace, a);
            setenv("UFJIT_OPT_PIPELINE", "default", 1);
            run(c, 2 * inplace + 2, inplace, b);
            unsetenv("UFJIT_OPT_PIPELINE");
            for (int n = 0; n <= MAXN; n++) {
                char what[96];
                snprintf(what, sizeof what, "%s, %d elements%s", c->name, n,
                         inplace ? ", in place" : "");
                uf_assert_same_bytes(c->file, c->line, what, b[n], a[n]);
                uf_array_release(a[n]);
                uf_array_release(b[n]);
            }
        }
    }
}

/* The option's setter itself: the previous value back each time. */
static void test_option_setter(void **state)
{
    (void)state;
    assert_int_equal(uf__llvm_disable_lsr(1), 0);
    assert_int_equal(uf__llvm_disable_lsr(1), 1);
    assert_int_equal(uf__llvm_disable_lsr(0), 1);
    assert_int_equal(uf__llvm_disable_lsr(0), 0);
    assert_int_equal(uf__llvm_disable_machine_licm(1), 0);
    assert_int_equal(uf__llvm_disable_machine_licm(0), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_option_setter),
        cmocka_unit_test(test_same_results_as_o3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
