/* ValueErrors that name the shapes (compiler/lower/lower_shape_error.c,
 * compiler/host/jit_status.c's uf__rt_broadcast_error): operands that do
 * not broadcast ("operands could not be broadcast together with shapes
 * (3,) (4,)", NumPy's words), a slice store from another shape ("cannot
 * assign slice of shape (2, 3) from input of shape (4, 3)", Numba's), an
 * augmented assignment (NumPy's output operand words), in njit functions
 * and guvectorize kernels on cpu and parallel, and on cudasim (its
 * own shapes, never a host kernel's stale record). */
#include <stdio.h>
#include <string.h>

#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "from numba import njit, guvectorize\n"
    "import numpy as np\n"
    "@njit\n"
    "def add(a, b):\n"
    "    return a + b\n"
    "@njit\n"
    "def three(a, b, c):\n"
    "    return a * b + np.sqrt(c)\n"
    "@njit\n"
    "def store(out, a, b):\n"
    "    out[:] = a + b\n"
    "@njit\n"
    "def copy(out, a):\n"
    "    out[:] = a\n"
    "@njit\n"
    "def aug(out, a):\n"
    "    out += a\n"
    "@njit\n"
    "def in_loop(a, n):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.ones(i + 1) + a\n"
    "        s += t[0]\n"
    "    return s\n"
    "@guvectorize(['void(float64[:], float64[:], float64[:])'],\n"
    "             '(n),(m)->(n)')\n"
    "def gu(x, y, out):\n"
    "    out[:] = x * y\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "shape_errors.py", src, &err);
    if (!mod)
        fprintf(stderr, "%s\n", err.message);
    return mod ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

static uf_array *ones(int nd, const int64_t *shape)
{
    uf_error err;
    double one = 1.0;
    uf_array *a = uf_full(UF_FLOAT64, nd, shape, &one, UF_FLOAT64,
                          UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

typedef struct shape_case {
    const char *file;
    int line;
    const char *name, *target;
    int nin;
    int nd[3];
    int64_t shape[3][3];
    const char *want; /* NULL: succeeds */
} shape_case;

static void test_messages(void **state)
{
    (void)state;
    static const shape_case cases[] = {
        {LOC, "add", NULL, 2, {1, 1}, {{3}, {4}},
         "ValueError: operands could not be broadcast together with shapes "
         "(3,) (4,) (in 'add')"},
        {LOC, "add", NULL, 2, {2, 3}, {{2, 3}, {4, 1, 2}},
         "operands could not be broadcast together with shapes (2,3) "
         "(4,1,2)"},
        {LOC, "add", NULL, 2, {1, 0}, {{3}, {0}}, NULL}, /* 0-d broadcasts */
        {LOC, "add", NULL, 2, {1, 1}, {{0}, {1}}, NULL}, /* empty */
        {LOC, "add", NULL, 2, {1, 1}, {{0}, {2}},
         "together with shapes (0,) (2,)"},
        {LOC, "three", NULL, 3, {1, 1, 2}, {{3}, {3}, {2, 4}},
         "together with shapes (3,) (3,) (2,4)"},
        {LOC, "store", NULL, 3, {1, 1, 1}, {{3}, {4}, {4}},
         "ValueError: cannot assign slice of shape (3,) from input of shape "
         "(4,) (in 'store')"},
        {LOC, "store", NULL, 3, {2, 1, 1}, {{2, 3}, {3}, {2}},
         "together with shapes (3,) (2,)"},
        {LOC, "copy", NULL, 2, {2, 2}, {{2, 3}, {4, 3}},
         "cannot assign slice of shape (2, 3) from input of shape (4, 3)"},
        {LOC, "copy", NULL, 2, {1, 2}, {{3}, {2, 3}},
         "cannot assign slice of shape (3,) from input of shape (2, 3)"},
        {LOC, "aug", NULL, 2, {1, 1}, {{3}, {4}},
         "non-broadcastable output operand with shape (3,) doesn't match "
         "the broadcast shape (4,)"},
        {LOC, "gu", "cpu", 2, {2, 1}, {{5, 3}, {4}},
         "gufunc 'gu': ValueError: operands could not be broadcast together "
         "with shapes (3,) (4,)"},
        {LOC, "gu", "parallel", 2, {2, 1}, {{500, 3}, {4}},
         "together with shapes (3,) (4,)"},
        {LOC, "gu", "parallel", 2, {2, 1}, {{500, 3}, {1}}, NULL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const shape_case *k = &cases[c];
        uf_error err;
        uf_func *f = uf_module_get(mod, k->name, &err);
        uf_assert_ok(f != NULL, &err);
        uf_array *in[3];
        for (int i = 0; i < k->nin; i++)
            in[i] = ones(k->nd[i], k->shape[i]);
        uf_call_options o = {.size = sizeof o, .target = k->target};
        uf_array *out = NULL;
        bool returns = strcmp(k->name, "add") == 0 ||
                       strcmp(k->name, "three") == 0 ||
                       strcmp(k->name, "gu") == 0;
        long live = uf__nrt_live();
        int rc = uf_call(f, in, k->nin, &out, returns ? 1 : 0,
                         k->target ? &o : NULL, &err);
        for (int i = 0; i < k->nin; i++)
            uf_array_release(in[i]);
        uf_array_release(out);
        if (uf__nrt_live() != live)
            uf_fail_at(k->file, k->line, "%s left blocks", k->name);
        if (k->want == NULL) {
            if (rc != 0)
                uf_fail_at(k->file, k->line, "%s: %s", k->name, err.message);
            continue;
        }
        if (rc != UF_ERR_VALUE || strstr(err.message, k->want) == NULL)
            uf_fail_at(k->file, k->line, "%s: got %s (%s), want \"%s\"",
                       k->name, err.message, uf_err_name(rc), k->want);
    }
}

/* A shape error inside a loop that allocates: the frame is freed, the
 * message names the iteration's shapes. */
static void test_in_loop(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = uf_module_get(mod, "in_loop", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *in[2] = {ones(1, (int64_t[]){1}), NULL};
    double n = 3;
    in[1] = uf_full(UF_INT64, 0, NULL, &n, UF_FLOAT64, UF_ORDER_C, &err);
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, in, 2, &out, 1, NULL, &err) == 0, &err);
    uf_array_release(out);
    uf_array_release(in[0]);
    in[0] = ones(1, (int64_t[]){2});
    long live = uf__nrt_live();
    out = NULL;
    assert_int_equal(uf_call(f, in, 2, &out, 1, NULL, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "shapes (3,) (2,)")); /* i == 2 */
    assert_int_equal(uf__nrt_live(), live);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
}

/* cudasim names the shapes too (its kernels write them into the launch's
 * status word: compiler/nvvm/nvvm_shape_error.c), its own and never a
 * host kernel's stale record of the same thread (test_cuda_shape_errors.c
 * has the rest). */
static void test_cudasim_shapes(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = uf_module_get(mod, "gu", &err);
    uf_assert_ok(f != NULL, &err);
    uf_func *g = uf_module_get(mod, "add", &err);
    uf_assert_ok(g != NULL, &err);
    uf_array *h[2] = {ones(1, (int64_t[]){2}), ones(1, (int64_t[]){7})};
    uf_array *r = NULL;
    assert_int_equal(uf_call(g, h, 2, &r, 1, NULL, &err), UF_ERR_VALUE);
    uf_array *in[2] = {ones(2, (int64_t[]){5, 3}), ones(1, (int64_t[]){4})};
    uf_call_options o = {.size = sizeof o, .target = "cudasim"};
    uf_array *out = NULL;
    int rc = uf_call(f, in, 2, &out, 1, &o, &err);
    if (rc == UF_ERR_UNSUPPORTED) {
        printf("cudasim unavailable here: %s (skipped)\n", err.message);
    } else {
        assert_int_equal(rc, UF_ERR_VALUE);
        assert_null(strstr(err.message, "(7,)"));
        assert_non_null(strstr(err.message, "operands could not be "
                                            "broadcast together with "
                                            "shapes (3,) (4,)"));
    }
    uf_array_release(out);
    for (int i = 0; i < 2; i++) {
        uf_array_release(in[i]);
        uf_array_release(h[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_in_loop),
        cmocka_unit_test(test_cudasim_shapes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
