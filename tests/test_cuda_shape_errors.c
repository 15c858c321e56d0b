/* Shapes in the CUDA targets' broadcast and slice-store ValueErrors
 * (compiler/nvvm/nvvm_shape_error.c writes them into the launch's status
 * word, ufunc/cuda_stage.c reads them back): on cudasim the message names
 * the shapes exactly as the host's does (compiled here, run by the
 * simulator from the same IR the GPU gets), for guvectorize kernels and
 * cuda.jit kernels, operands and slice stores and augmented assignments,
 * 1-D to rank 32 (two 32-d shapes fill the status word; more dimensions
 * give the fixed message); and the kernels that carry them still go
 * through libnvvm and ptxas. UFJIT_TEST_CUDA_TARGET=cuda runs the same on
 * a GPU (skipped where there is none). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ufjit/launch.h>

#include "cuda_test_target.h"
#include "nvvm_util.h"
#include "test_util.h"

static const char src[] =
    "from numba import cuda, guvectorize\n"
    "import numpy as np\n"
    "@guvectorize(['void(float64[:], float64[:], float64[:])'],\n"
    "             '(n),(m)->(n)')\n"
    "def gu_mul(x, y, out):\n"
    "    out[:] = x * y\n"
    "@guvectorize(['void(float64[:], float64[:], float64[:])'],\n"
    "             '(n),(m)->(n)')\n"
    "def gu_store(x, y, out):\n"
    "    out[:] = y\n"
    "@guvectorize(['void(float64[:], float64[:], float64[:])'],\n"
    "             '(n),(m)->(n)')\n"
    "def gu_aug(x, y, out):\n"
    "    out[:] = x\n"
    "    out += y\n"
    "@guvectorize(['void(float64[:, :], float64[:, :], float64[:, :])'],\n"
    "             '(a,b),(c,d)->(a,b)')\n"
    "def gu_2d(x, y, out):\n"
    "    out[:, :] = x + y\n"
    "@cuda.jit\n"
    "def k_store(a, b):\n"
    "    i = cuda.grid(1)\n"
    "    if i == 0:\n"
    "        a[...] = b\n"
    "@cuda.jit\n"
    "def k_add(a, b, c):\n"
    "    i = cuda.grid(1)\n"
    "    if i < 2:\n"
    "        a[...] = b + c\n";

static uf_context *ctx;
static uf_module *mod;
static const char *target;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    target = cuda_test_target(); /* exits 77 where it cannot run */
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "cuda_shape_errors.py", src, &err);
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
    uf_array *a = uf_ones(UF_FLOAT64, nd, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

/* The message of a failing call on `t`, after "ValueError: " (or NULL
 * when the target is not here: skipped with the reason printed). */
static const char *gu_error(const char *name, const char *t, uf_array **in,
                            char *buf, size_t cap)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    uf_call_options o = {.size = sizeof o, .target = t};
    uf_array *out = NULL;
    int rc = uf_call(f, in, 2, &out, 1, &o, &err);
    uf_array_release(out);
    if (rc == UF_ERR_UNSUPPORTED || rc == UF_ERR_NO_DEVICE) {
        printf("SKIP %s on %s: %s\n", name, t, err.message);
        return NULL;
    }
    if (rc != UF_ERR_VALUE)
        fail_msg("%s on %s: %s (%s), want a ValueError", name, t,
                 err.message, uf_err_name(rc));
    const char *v = strstr(err.message, "ValueError: ");
    if (!v)
        fail_msg("%s on %s: %s", name, t, err.message);
    snprintf(buf, cap, "%s", v);
    return buf;
}

/* guvectorize: the device names the shapes as cpu does, word for word. */
static void test_gufunc_like_cpu(void **state)
{
    (void)state;
    static const struct {
        const char *name, *want;
        int nd;
        int64_t x[2], y[2];
    } cases[] = {
        {"gu_mul", "operands could not be broadcast together with shapes "
                   "(3,) (4,)", 1, {3}, {4}},
        {"gu_store", "cannot assign slice of shape (3,) from input of "
                     "shape (4,)", 1, {3}, {4}},
        {"gu_aug", "non-broadcastable output operand with shape (3,) "
                   "doesn't match the broadcast shape (4,)", 1, {3}, {4}},
        {"gu_mul", "cannot assign slice of shape (1,) from input of shape "
                   "(0,)", 1, {1}, {0}},
        {"gu_2d", "operands could not be broadcast together with shapes "
                  "(2,3) (4,3)", 2, {2, 3}, {4, 3}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uf_array *in[2] = {ones(cases[i].nd, cases[i].x),
                           ones(cases[i].nd, cases[i].y)};
        char host[512], dev[512];
        const char *h = gu_error(cases[i].name, "cpu", in, host, sizeof host);
        const char *d = gu_error(cases[i].name, target, in, dev, sizeof dev);
        printf("%s: cpu \"%s\", %s \"%s\"\n", cases[i].name, h, target,
               d ? d : "(skipped)");
        assert_non_null(strstr(h, cases[i].want));
        if (d)
            assert_string_equal(d, h);
        uf_array_release(in[0]);
        uf_array_release(in[1]);
        if (!d)
            return;
    }
}

/* a[...] = b in a cuda.jit kernel of rank nd: (1, ..., 1, 3) from
 * (1, ..., 1, 4); NULL when skipped. */
static const char *launch_store(int nd, char *buf, size_t cap)
{
    uf_error err;
    int64_t sa[UF_MAXDIMS], sb[UF_MAXDIMS];
    for (int k = 0; k < nd; k++)
        sa[k] = sb[k] = 1;
    sa[nd - 1] = 3;
    sb[nd - 1] = 4;
    uf_array *args[2] = {ones(nd, sa), ones(nd, sb)};
    uf_launch_options o = {.size = sizeof o, .target = target};
    uf_func *f = uf_module_get(mod, "k_store", &err);
    uf_assert_ok(f != NULL, &err);
    int rc = uf_launch(f, (uf_dim3){1, 1, 1}, (uf_dim3){32, 1, 1}, args, 2, &o, &err);
    uf_array_release(args[0]);
    uf_array_release(args[1]);
    if (rc == UF_ERR_UNSUPPORTED || rc == UF_ERR_NO_DEVICE) {
        printf("SKIP k_store on %s: %s\n", target, err.message);
        return NULL;
    }
    if (rc != UF_ERR_VALUE)
        fail_msg("k_store rank %d: %s (%s)", nd, err.message,
                 uf_err_name(rc));
    snprintf(buf, cap, "%s", err.message);
    return buf;
}

/* cuda.jit: ranks 1, 2 and 32 named (two 32-d shapes fill the status
 * word), rank 33 the fixed message; many threads failing at once leave
 * one whole report. */
static void test_cuda_jit_ranks(void **state)
{
    (void)state;
    char msg[1024];
    for (int nd = 1; nd <= 33; nd++) {
        if (nd > 2 && nd != 32 && nd != 33)
            continue;
        if (!launch_store(nd, msg, sizeof msg))
            return;
        char want[1024] = "cannot assign slice of shape (";
        for (int pass = 0; pass < 2; pass++) {
            for (int k = 0; k < nd - 1; k++)
                strcat(want, "1, ");
            strcat(want, pass == 0 ? "3" : "4");
            strcat(want, nd == 1 ? ",)" : ")");
            if (pass == 0)
                strcat(want, " from input of shape (");
        }
        printf("rank %d: %s\n", nd, msg);
        if (nd <= 32) {
            if (!strstr(msg, want))
                fail_msg("rank %d: \"%s\", want \"%s\"", nd, msg, want);
        } else {
            assert_null(strstr(msg, "(1, 1"));
            assert_non_null(strstr(msg, "ValueError: cannot assign slice "
                                        "from input of a shape"));
        }
    }
    /* two threads raise: one report, both shapes whole */
    uf_error err;
    uf_array *args[3] = {ones(1, (int64_t[]){2}), ones(1, (int64_t[]){3}),
                         ones(1, (int64_t[]){5})};
    uf_launch_options o = {.size = sizeof o, .target = target};
    int rc = uf_launch(uf_module_get(mod, "k_add", &err), (uf_dim3){1, 1, 1},
                       (uf_dim3){64, 1, 1}, args, 3, &o, &err);
    assert_int_equal(rc, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "operands could not be broadcast "
                                        "together with shapes (3,) (5,)"));
    for (int i = 0; i < 3; i++)
        uf_array_release(args[i]);
}

/* The kernels that write shapes still pass libnvvm and ptxas. */
static void test_ptx_passes_ptxas(void **state)
{
    (void)state;
    if (!nvvm_have_libnvvm() || !nvvm_have_ptxas())
        return;
    static const char *const names[] = {"gu_mul", "gu_store", "gu_2d"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        uf_error err;
        uf_func *f = uf_module_get(mod, names[i], &err);
        uf_assert_ok(f != NULL, &err);
        char *s = uf_func_inspect(f, NULL, UF_INSPECT_PTX, &err);
        uf_assert_ok(s != NULL, &err);
        assert_non_null(strstr(s, ".entry"));
        if (!strstr(s, "ptxas info    : Used") || strstr(s, "error"))
            fail_msg("%s: ptxas did not take the PTX:\n%s", names[i], s);
        uf_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gufunc_like_cpu),
        cmocka_unit_test(test_cuda_jit_ranks),
        cmocka_unit_test(test_ptx_passes_ptxas),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
