/* Kernels built to make the compiler recurse, loop or allocate without
 * bound (issue 20). Each either fails with UF_ERR_LIMIT at a position, or
 * compiles and computes the right values; CTest's TIMEOUT for this test
 * (tests/cmake/limits.cmake) turns a return of super-linear cost into a
 * failure. Stack use is bounded too: ast_limits.h. */
#include "test_util.h"

#include <sys/resource.h>

#include "compiler/front/ast_limits.h"
#include "compiler/lower/lower.h"

static char *grow_text(char *s, size_t *len, size_t *cap, const char *add)
{
    size_t n = strlen(add);
    if (*len + n + 1 > *cap) {
        *cap = 2 * (*len + n + 1);
        s = realloc(s, *cap);
        assert_non_null(s);
    }
    memcpy(s + *len, add, n + 1);
    *len += n;
    return s;
}

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    t->s = grow_text(t->s, &t->len, &t->cap, buf);
}

static const char head[] = "from numba import njit, vectorize\n";

/* `return x + x + ... + x` with n terms */
static char *chain(int n)
{
    text t = {0};
    add(&t, "%s@vectorize(['float64(float64)'])\ndef f(x):\n    return x",
        head);
    for (int i = 1; i < n; i++)
        add(&t, " + x");
    add(&t, "\n");
    return t.s;
}

/* if/elif chain of n branches */
static char *elifs(int n)
{
    text t = {0};
    add(&t, "%s@vectorize(['float64(float64)'])\ndef f(x):\n"
            "    if x < 0:\n        y = 0.0\n", head);
    for (int i = 1; i < n; i++)
        add(&t, "    elif x < %d:\n        y = %d.0\n", i, i);
    add(&t, "    else:\n        y = -1.0\n    return y\n");
    return t.s;
}

/* n sequential `if x > i: x = x + 1` */
static char *ifs(int n)
{
    text t = {0};
    add(&t, "%s@vectorize(['float64(float64)'])\ndef f(x):\n", head);
    for (int i = 0; i < n; i++)
        add(&t, "    if x > %d:\n        x = x + 1\n", i);
    add(&t, "    return x\n");
    return t.s;
}

/* g0(x) = x + 1; g_i calls g_{i-1} `calls` times (added) */
static char *njit_chain(int n, int calls)
{
    text t = {0};
    add(&t, "%s@njit\ndef g0(x):\n    return x + 1\n", head);
    for (int i = 1; i < n; i++) {
        add(&t, "@njit\ndef g%d(x):\n    return g%d(x)", i, i - 1);
        for (int c = 1; c < calls; c++)
            add(&t, " + g%d(x)", i - 1);
        add(&t, "\n");
    }
    add(&t, "@vectorize(['float64(float64)'])\ndef f(x):\n    return g%d(x)\n",
        n - 1);
    return t.s;
}

static uf_context *ctx;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    return ctx != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    uf_context_free(ctx);
    return 0;
}

/* Loads src, calls f on xs (n values) into ys; 0 or the error code. */
static int run(char *src, const double *xs, double *ys, int n, uf_error *err)
{
    uf_module *m = uf_module_from_string(ctx, "limits.py", src, err);
    free(src);
    if (m == NULL)
        return err->code;
    int rc = -1;
    uf_func *f = uf_module_get(m, "f", err);
    int64_t shape[1] = {n};
    uf_array *in = uf_array_wrap(UF_FLOAT64, 1, shape, NULL, (void *)xs,
                                 false, NULL, NULL, err);
    uf_array *out = NULL;
    if (f != NULL && in != NULL)
        rc = uf_call(f, &in, 1, &out, 1, NULL, err);
    if (rc == 0)
        memcpy(ys, uf_array_data(out), (size_t)n * sizeof *ys);
    uf_array_release(out);
    uf_array_release(in);
    uf_module_free(m);
    return rc == 0 ? 0 : err->code;
}

static void expect_limit(char *src, int line, int col, const char *words)
{
    uf_error err;
    double x = 1, y;
    assert_int_equal(run(src, &x, &y, 1, &err), UF_ERR_LIMIT);
    assert_int_equal(err.line, line);
    assert_int_equal(err.column, col);
    if (strstr(err.message, words) == NULL)
        fail_msg("'%s' not in: %s", words, err.message);
}

static void long_chains(void **state)
{
    (void)state;
    /* 100k terms crashed typing; a 1 MB line crashed SSA renaming */
    expect_limit(chain(100000), 4, 12, "expression nested too deeply");
    expect_limit(chain(UF__MAX_EXPR_HEIGHT + 2), 4, 12, "more than 1000");
    /* the tallest accepted: n terms give height n (names at height 1) */
    uf_error err;
    double xs[3] = {1.5, -2, 0}, ys[3];
    assert_int_equal(run(chain(UF__MAX_EXPR_HEIGHT), xs, ys, 3, &err), 0);
    for (int i = 0; i < 3; i++)
        assert_true(ys[i] == xs[i] * UF__MAX_EXPR_HEIGHT);
}

static void long_elif_chains(void **state)
{
    (void)state;
    /* each elif is a block inside the previous else: depth grows */
    expect_limit(elifs(3000), 2003, 9, "blocks nested too deeply");
    uf_error err;
    double xs[4] = {-1, 0.5, 900.5, 5000}, ys[4];
    assert_int_equal(run(elifs(990), xs, ys, 4, &err), 0);
    assert_true(ys[0] == 0 && ys[1] == 1 && ys[2] == 901 && ys[3] == -1);
}

static void long_if_sequences(void **state)
{
    (void)state;
    /* typing was quadratic in time (a linear name search over the SSA
     * versions), then in size: each join was fed after every definition
     * reaching it (n^2 / 2 feeds). Joins fed at the merge points take 2n.
     * x > i holds at every if once it holds at the first (x grows by one
     * each time), so 10.5 and 5000 end n higher. */
    uf_error err;
    double xs[3] = {-5, 10.5, 5000}, ys[3];
    int rc = run(ifs(3000), xs, ys, 3, &err);
    uf_assert_ok(rc == 0, &err);
    assert_true(ys[0] == -5 && ys[1] == 3010.5 && ys[2] == 8000);
}

static void deep_call_chains(void **state)
{
    (void)state;
    /* 2000 kernels each calling the previous: typing and lowering recurse
     * once per call */
    uf_error err;
    double x = 1, y;
    assert_int_equal(run(njit_chain(2000, 1), &x, &y, 1, &err), UF_ERR_LIMIT);
    assert_non_null(strstr(err.message, "calls nested too deeply"));
    /* a chain that fits: g99(x) = g0(x) = x + 1 */
    assert_int_equal(run(njit_chain(100, 1), &x, &y, 1, &err), 0);
    assert_true(y == 2);
}

static void doubling_call_chains(void **state)
{
    (void)state;
    /* g_i = g_{i-1} + g_{i-1}: 2^29 inlined copies without a budget, and
     * 2^n scans deciding fallibility. (Past the budget the calls run:
     * 2^20 of them here, as many as Python would make.) */
    uf_error err;
    double xs[2] = {1, -1}, ys[2];
    assert_int_equal(run(njit_chain(30, 2), xs, ys, 2, &err), 0);
    assert_true(ys[0] == 2 * 0x1p29 && ys[1] == 0);
}

static void errors_deep_in_call_chains(void **state)
{
    (void)state;
    /* an error in g0 under 30 callers: the callers' fixed point typed
     * the failing callee again on each pass, 2^30 times */
    text t = {0};
    add(&t, "%s@njit\ndef g0(x):\n    return x + undefined_name\n", head);
    for (int i = 1; i < 30; i++)
        add(&t, "@njit\ndef g%d(x):\n    return g%d(x) + 1\n", i, i - 1);
    add(&t, "@vectorize(['float64(float64)'])\ndef f(x):\n"
            "    return g29(x)\n");
    uf_error err;
    double x = 1, y;
    assert_int_not_equal(run(t.s, &x, &y, 1, &err), 0);
    assert_int_equal(err.line, 4);
    assert_non_null(strstr(err.message, "undefined_name"));
    /* the failure of a callee without arguments is remembered too (its
     * argument list is empty: fuzz_kernel found a memcpy from NULL) */
    text z = {0};
    add(&z, "%s@njit\ndef g():\n    return undefined_name\n"
            "@vectorize(['float64(float64)'])\ndef f(x):\n"
            "    return x + g() + g()\n", head);
    assert_int_not_equal(run(z.s, &x, &y, 1, &err), 0);
    assert_int_equal(err.line, 4);
    assert_non_null(strstr(err.message, "undefined_name"));
}

/* rusage's peak resident size, in MiB */
static long peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}

static void many_functions(void **state)
{
    (void)state;
    /* 900 small njit functions summed by one kernel: each specialisation's
     * side table was sized by the whole file (1.3 GB here); now by its
     * function (about 60 MB for the whole run) */
    const int n = 900;
    text t = {0};
    add(&t, "%s", head);
    for (int i = 0; i < n; i++)
        add(&t, "@njit\ndef g%d(x):\n    y = x * %d + 1.0\n"
                "    return y * y - x\n", i, i);
    add(&t, "@vectorize(['float64(float64)'])\ndef f(x):\n    return g0(x)");
    for (int i = 1; i < n; i++)
        add(&t, " + g%d(x)", i);
    add(&t, "\n");
    long before = peak_mib();
    uf_error err;
    double x = 2, y, want = 0;
    for (int i = 0; i < n; i++)
        want += (2.0 * i + 1) * (2.0 * i + 1) - 2;
    int rc = run(t.s, &x, &y, 1, &err);
    uf_assert_ok(rc == 0, &err);
    assert_true(y == want);
    long grew = peak_mib() - before;
    if (grew > 600)
        fail_msg("typing 900 functions raised the peak by %ld MiB", grew);
}

int main(void)
{
    /* first: it measures the peak memory the others would have raised */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(many_functions),
        cmocka_unit_test(long_chains),
        cmocka_unit_test(long_elif_chains),
        cmocka_unit_test(long_if_sequences),
        cmocka_unit_test(deep_call_chains),
        cmocka_unit_test(doubling_call_chains),
        cmocka_unit_test(errors_deep_in_call_chains),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
