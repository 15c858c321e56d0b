/* The context's compile cache of vectorize loops (compiler/cache/cache.c) and
 * the loop dispatcher it relies on (targets/cpu/loop_rt.c):
 *   - all declared signatures compile in one module, once; loading the same
 *     source again, a lazy kernel seeing known types again, and
 *     uf_func_inspect after a call compile nothing (counted by the JIT);
 *   - any change of the module text (here a called function) compiles
 *     again, and the new code is the one that runs;
 *   - the dispatcher's paths (contiguous, stride 0, gathered, negative
 *     strides, in place, element by element when an output overlaps an
 *     input) give what a sequential loop gives. */
#include "test_util.h"

#include "compiler/context.h"
#include "compiler/module.h"
#include "ufunc/vectorize.h"

static const char *SRC =
    "from numba import vectorize, njit\n"
    "@njit\n"
    "def scale(x):\n"
    "    return 2 * x\n"
    "@vectorize(['float32(float32, float32)', 'float64(float64, float64)',"
    " 'float64(float64, float64)'])\n"
    "def rel_diff(x, y):\n"
    "    return scale(x - y) / (x + y)\n"
    "@vectorize\n"
    "def add(x, y):\n"
    "    return x + y\n";

static uint64_t ncompiles(uf_context *ctx)
{
    return ctx->jit ? uf__jit_ncompiles(ctx->jit) : 0;
}

/* rel_diff(x, y) on 5 float64 elements; returns out[k]. */
static double call_rel_diff(uf_module *m, int k)
{
    uf_error err;
    uf_func *f = uf_module_get(m, "rel_diff", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *in[2] = {uf_linspace(1, 5, 5, true, UF_FLOAT64, &err),
                       uf_linspace(2, 3, 5, true, UF_FLOAT64, &err)};
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, in, 2, &out, 1, NULL, &err) == 0, &err);
    double v = ((double *)uf_array_data(out))[k];
    uf_array_release(in[0]);
    uf_array_release(in[1]);
    uf_array_release(out);
    return v;
}

static void test_reload_compiles_nothing(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_module *m1 = uf_module_from_string(ctx, "k.py", SRC, &err);
    uf_assert_ok(m1 != NULL, &err);
    assert_int_equal(ncompiles(ctx), 0);
    /* x = 1, y = 2: 2 * (1 - 2) / 3 */
    assert_true(call_rel_diff(m1, 0) == 2.0 * (1 - 2) / 3);
    /* three declared signatures (one twice): one module */
    assert_int_equal(ncompiles(ctx), 1);
    call_rel_diff(m1, 1);
    assert_int_equal(ncompiles(ctx), 1);

    /* the same text again, another module object */
    uf_module *m2 = uf_module_from_string(ctx, "other-name.py", SRC, &err);
    uf_assert_ok(m2 != NULL, &err);
    uf_module_free(m1); /* the cache outlives the modules */
    assert_true(call_rel_diff(m2, 4) == 2.0 * (5 - 3) / 8);
    assert_int_equal(ncompiles(ctx), 1);

    /* inspect after a call: the loops from the cache, nothing compiled
     * again (the listings are made by optimising the loop again) */
    uf_func *f = uf_module_get(m2, "rel_diff", &err);
    char *s = uf_func_inspect(f, NULL, UF_INSPECT_TYPES | UF_INSPECT_LLVM |
                                           UF_INSPECT_ASM, &err);
    uf_assert_ok(s != NULL, &err);
    assert_non_null(strstr(s, "== rel_diff float32(float32, float32) =="));
    assert_non_null(strstr(s, "define "));
    assert_non_null(strstr(s, "ret"));
    assert_non_null(strstr(s, ":: float64"));
    uf_free(s);
    assert_int_equal(ncompiles(ctx), 1);
    /* a signature not compiled yet is compiled (once) */
    s = uf_func_inspect(f, "float64(int64, int64)", UF_INSPECT_LLVM, &err);
    uf_assert_ok(s != NULL, &err);
    uf_free(s);
    assert_int_equal(ncompiles(ctx), 2);
    s = uf_func_inspect(f, "float64(int64, int64)", UF_INSPECT_ASM, &err);
    uf_assert_ok(s != NULL, &err);
    uf_free(s);
    assert_int_equal(ncompiles(ctx), 2);

    /* a lazy kernel: known input types in a new module compile nothing */
    uf_func *add = uf_module_get(m2, "add", &err);
    uf_array *in[2] = {uf_linspace(1, 2, 3, true, UF_INT32, &err),
                       uf_linspace(1, 2, 3, true, UF_INT32, &err)};
    uf_array *out = NULL;
    uf_assert_ok(uf_call(add, in, 2, &out, 1, NULL, &err) == 0, &err);
    uf_array_release(out);
    assert_int_equal(ncompiles(ctx), 3);
    uf_module *m3 = uf_module_from_string(ctx, "k.py", SRC, &err);
    out = NULL;
    uf_assert_ok(uf_call(uf_module_get(m3, "add", &err), in, 2, &out, 1,
                         NULL, &err) == 0,
                 &err);
    /* int32 + int32 is int64 in Numba */
    assert_int_equal(uf_array_dtype(out), UF_INT64);
    assert_int_equal(((int64_t *)uf_array_data(out))[2], 4);
    uf_array_release(out);
    assert_int_equal(ncompiles(ctx), 3);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
    uf_module_free(m3);
    uf_module_free(m2);
    uf_context_free(ctx);
}

static void test_changed_callee_compiles_again(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_module *m1 = uf_module_from_string(ctx, "k.py", SRC, &err);
    assert_true(call_rel_diff(m1, 0) == 2.0 * (1 - 2) / 3);
    assert_int_equal(ncompiles(ctx), 1);
    /* only the called function changes */
    char src[2048];
    snprintf(src, sizeof src, "%s", SRC);
    char *two = strstr(src, "return 2 * x");
    assert_non_null(two);
    two[7] = '3';
    uf_module *m2 = uf_module_from_string(ctx, "k.py", src, &err);
    uf_assert_ok(m2 != NULL, &err);
    assert_true(call_rel_diff(m2, 0) == 3.0 * (1 - 2) / 3);
    assert_int_equal(ncompiles(ctx), 2);
    /* and the old text still finds its own loops */
    assert_true(call_rel_diff(m1, 0) == 2.0 * (1 - 2) / 3);
    assert_int_equal(ncompiles(ctx), 2);
    uf_module_free(m1);
    uf_module_free(m2);
    uf_context_free(ctx);
}

/* ---- the dispatcher's paths --------------------------------------------- */

typedef struct path_case {
    const char *file;
    int line;
    const char *name;
    int64_t n;
    /* element offsets and strides (in elements) of in0, in1, out in one
     * buffer of doubles */
    int64_t off[3], stride[3];
} path_case;

static const path_case paths[] = {
    {LOC, "contiguous", 1000, {0, 2000, 4000}, {1, 1, 1}},
    {LOC, "one element", 1, {0, 10, 20}, {5, 0, 7}},
    {LOC, "scalar broadcast", 1000, {0, 2000, 4000}, {1, 0, 1}},
    {LOC, "two scalars", 3000, {0, 1, 4000}, {0, 0, 1}},
    {LOC, "gathered", 999, {0, 2001, 4000}, {2, 1, 1}},
    {LOC, "gathered and scattered", 700, {0, 2001, 4000}, {2, 3, 5}},
    {LOC, "negative strides", 900, {999, 2001, 4900}, {-1, 1, -2}},
    {LOC, "in place", 1000, {0, 2000, 0}, {1, 1, 1}},
    {LOC, "in place strided", 500, {0, 2000, 0}, {2, 1, 2}},
    /* out[i] = in0[i] + in1[i] with out = in0 shifted by one: a running
     * sum, only element after element */
    {LOC, "output overlaps input", 1000, {0, 2000, 1}, {1, 1, 1}},
    {LOC, "output of stride 0 read back", 50, {7, 2000, 7}, {0, 1, 0}},
    {LOC, "empty", 0, {0, 1, 2}, {1, 1, 1}},
};

static void test_dispatch_paths(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = uf_module_from_string(ctx, "k.py", SRC, &err);
    uf_func *add = uf_module_get(m, "add", &err);
    uf_dtype in[2] = {UF_FLOAT64, UF_FLOAT64};
    uf__ufunc_loop loop;
    uf_assert_ok(uf__vectorize_func_loop(add, in, &loop, &err) == 0, &err);
    enum { SIZE = 8192 };
    double *got = malloc(SIZE * sizeof *got);
    double *want = malloc(SIZE * sizeof *want);
    for (size_t c = 0; c < sizeof paths / sizeof paths[0]; c++) {
        const path_case *p = &paths[c];
        for (int i = 0; i < SIZE; i++)
            got[i] = want[i] = (double)(i % 97) - 40.5;
        /* the sequential definition */
        for (int64_t i = 0; i < p->n; i++)
            want[p->off[2] + i * p->stride[2]] =
                want[p->off[0] + i * p->stride[0]] +
                want[p->off[1] + i * p->stride[1]];
        char *data[3];
        int64_t strides[3];
        for (int k = 0; k < 3; k++) {
            data[k] = (char *)(got + p->off[k]);
            strides[k] = p->stride[k] * (int64_t)sizeof(double);
        }
        uf__loop_ctx lctx = {.err = &err};
        int64_t n = p->n;
        if (loop.fn(&lctx, data, &n, strides, loop.aux) != 0)
            uf_fail_at(p->file, p->line, "%s: the loop failed", p->name);
        for (int i = 0; i < SIZE; i++)
            if (got[i] != want[i])
                uf_fail_at(p->file, p->line, "%s: element %d is %g, not %g",
                           p->name, i, got[i], want[i]);
    }
    free(got);
    free(want);
    uf_module_free(m);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reload_compiles_nothing),
        cmocka_unit_test(test_changed_callee_compiles_again),
        cmocka_unit_test(test_dispatch_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
