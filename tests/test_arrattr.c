/* dtypes as values, array parts and min/max/sum inside kernels
 * (compiler/types/infer_arrattr.c, compiler/lower/lower_arrattr.c)
 * through uf_call, for what the Numba oracle
 * (tests/e2e/run_arrattr_oracle.py) cannot see: a dtype returned through
 * uf_call is refused at the function (Numba boxes a NumPy dtype object,
 * which has no uf_array form), alone or in a tuple; writes through
 * a.real / a.imag reach the caller's array; no leak across 10^5 calls
 * (uf__nrt_live and uf__alloc_live back where they started); out of
 * memory at every allocation of a call reaches the caller as
 * UF_ERR_NOMEM; in CUDA code the allocating forms are refused at
 * FILE:LINE:COL while views, dtype values and sum() compile. */
#include <complex.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def dtype_of(a):\n"                /* 4 */
    "    return a.dtype\n"
    "@njit\n"
    "def pair(a):\n"                    /* 7 */
    "    return (np.float32, a)\n"
    "@njit\n"
    "def imag_of(a):\n"
    "    return a.imag\n"
    "@njit\n"
    "def write_parts(z):\n"
    "    z.real[:] = 1.5\n"
    "    z.imag[0] = -2.0\n"
    "    return z.imag.sum()\n"
    "@njit\n"
    "def mix(a, z):\n"
    "    d = z.dtype\n"
    "    t = np.zeros(a.shape[0], d)\n"
    "    c = z.conj()\n"
    "    i = a.imag\n"
    "    s = 0.0\n"
    "    for k in range(3):\n"
    "        e = np.ones(2, a.dtype)\n"
    "        s += sum(e) + min(a) + max(i)\n"
    "    return s + sum(c).imag + sum(t).real + sum(z.real)\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "arrattr_c.py", src, &err);
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

static uf_func *fn(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

static uf_array *vec(uf_dtype dt, int64_t n)
{
    uf_error err;
    uf_array *a = uf_empty(dt, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < n; i++) {
        if (dt == UF_COMPLEX128)
            ((double complex *)uf_array_data(a))[i] =
                (double)i + (double)(2 * i + 1) * I;
        else
            ((double *)uf_array_data(a))[i] = (double)(i * 7 % 5) - 2.0;
    }
    return a;
}

/* A dtype cannot come back through uf_call: refused at the function's
 * def, naming the dtype, never a crash; the same inside a tuple. */
static void test_dtype_return_refused(void **state)
{
    (void)state;
    static const struct {
        const char *name, *type;
        int line;
    } rows[] = {{"dtype_of", "dtype(float64)", 4},
                {"pair", "class(float32)", 7}};
    for (size_t r = 0; r < 2; r++) {
        uf_error err;
        uf_array *a = vec(UF_FLOAT64, 3);
        uf_array *out[2] = {NULL, NULL};
        int rc = uf_call(fn(rows[r].name), &a, 1, out, r == 0 ? 1 : 2, NULL,
                         &err);
        assert_int_equal(rc, UF_ERR_UNSUPPORTED);
        assert_null(out[0]);
        assert_non_null(strstr(err.message, rows[r].type));
        assert_non_null(strstr(err.message, "a dtype cannot come back"));
        assert_non_null(strstr(err.file, "arrattr_c.py"));
        assert_int_equal(err.line, rows[r].line);
        uf_array_release(a);
    }
}

/* a.imag of real numbers comes back read-only (Numba's readonly zeros);
 * of a complex array, the writeable view of the caller's array (stride 16,
 * as Numba's). */
static void test_imag_readonly(void **state)
{
    (void)state;
    static const uf_dtype dts[] = {UF_FLOAT64, UF_COMPLEX128};
    for (int r = 0; r < 2; r++) {
        uf_error err;
        uf_array *a = vec(dts[r], 3), *out = NULL;
        int rc = uf_call(fn("imag_of"), &a, 1, &out, 1, NULL, &err);
        uf_assert_ok(rc == 0, &err);
        assert_int_equal(uf_array_dtype(out), UF_FLOAT64);
        bool w = (uf_array_flags(out) & UF_ARRAY_WRITEABLE) != 0;
        assert_true(w == (r == 1));
        const char *d = uf_array_data(out);
        int64_t step = uf_array_strides(out)[0];
        assert_int_equal(step, r == 0 ? 8 : 16);
        for (int i = 0; i < 3; i++)
            assert_true(*(const double *)(d + i * step)
                        == (r == 0 ? 0.0 : (double)(2 * i + 1)));
        if (r == 1) /* writes reach a */
            assert_true(d == (const char *)uf_array_data(a) + 8);
        uf_array_release(out);
        uf_array_release(a);
    }
}

/* z.real[:] = v and z.imag[k] = v write the caller's complex array. */
static void test_writes_through_parts(void **state)
{
    (void)state;
    uf_error err;
    uf_array *z = vec(UF_COMPLEX128, 4), *out = NULL;
    int rc = uf_call(fn("write_parts"), &z, 1, &out, 1, NULL, &err);
    uf_assert_ok(rc == 0, &err);
    const double complex *d = uf_array_data(z);
    for (int i = 0; i < 4; i++) {
        assert_true(creal(d[i]) == 1.5);
        assert_true(cimag(d[i]) == (i == 0 ? -2.0 : (double)(2 * i + 1)));
    }
    assert_true(*(double *)uf_array_data(out) == -2.0 + 3.0 + 5.0 + 7.0);
    uf_array_release(out);
    uf_array_release(z);
}

static uf_array *call_mix(uf_array *a, uf_array *z, uf_error *err)
{
    uf_array *in[2] = {a, z}, *out = NULL;
    return uf_call(fn("mix"), in, 2, &out, 1, NULL, err) == 0 ? out : NULL;
}

/* 10^5 calls allocating zeros of a dtype variable, conj() copies, the
 * .imag zeros of a real array and ones in a loop leave nothing behind. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = vec(UF_FLOAT64, 5), *z = vec(UF_COMPLEX128, 5);
    uf_array *r = call_mix(a, z, &err);
    uf_assert_ok(r != NULL, &err);
    double first = *(double *)uf_array_data(r);
    /* 3 * (2 + min(a) - 2 + max(zeros)) - sum of the imag parts (25) +
     * 0 + sum of the real parts (10) */
    assert_true(first == 3.0 * (2.0 - 2.0 + 0.0) - 25.0 + 10.0);
    uf_array_release(r);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 100000; i++) {
        r = call_mix(a, z, &err);
        uf_assert_ok(r != NULL, &err);
        assert_true(*(double *)uf_array_data(r) == first);
        uf_array_release(r);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(a);
    uf_array_release(z);
}

/* Allocation number k of a call fails, for every k until the call
 * succeeds: UF_ERR_NOMEM each time, nothing left behind. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = vec(UF_FLOAT64, 6), *z = vec(UF_COMPLEX128, 6);
    uf_array *out = call_mix(a, z, &err);
    uf_assert_ok(out != NULL, &err);
    uf_array_release(out);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    bool kernel_oom = false;
    for (long k = 1; k < 200; k++) {
        uf__alloc_fail_at(k);
        out = call_mix(a, z, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (out != NULL) {
            uf_array_release(out);
            if (!failed)
                break;
            continue;
        }
        assert_int_equal(err.code, UF_ERR_NOMEM);
        kernel_oom |= strstr(err.message, "inside a kernel") != NULL;
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(kernel_oom);
    uf_array_release(a);
    uf_array_release(z);
}

/* CUDA code: a.conj() and .imag of real numbers allocate, refused at the
 * call's FILE:LINE:COL; views of complex parts, dtype values, sum() and
 * max() of a row compile (cudasim's host-compiled kernel). */
static void test_cuda(void **state)
{
    (void)state;
    static const char csrc[] =
        "import numpy as np\n"
        "from numba import cuda\n"
        "@cuda.jit\n"
        "def bad(z, out):\n"
        "    c = z.conj()\n"
        "    out[0] = c[0].real\n"
        "@cuda.jit\n"
        "def good(z, out):\n"
        "    d = out.dtype\n"
        "    r = z.real\n"
        "    i = cuda.grid(1)\n"
        "    if i < out.shape[0]:\n"
        "        out[i] = sum(r) + max(z.imag) + d.type(i)\n";
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "arrattr_cuda.py", csrc, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *k = uf_module_get(m, "bad", &err);
    uf_assert_ok(k != NULL, &err);
    char *text = uf_func_inspect(k, "void(complex128[:], float64[:])",
                                 UF_INSPECT_LLVM, &err);
    assert_null(text);
    assert_non_null(strstr(err.file, "arrattr_cuda.py"));
    assert_int_equal(err.line, 5);
    assert_int_equal(err.column, 9);
    assert_non_null(strstr(err.message, "CUDA kernels cannot"));
    k = uf_module_get(m, "good", &err);
    uf_assert_ok(k != NULL, &err);
    text = uf_func_inspect(k, "void(complex128[:], float64[:])",
                           UF_INSPECT_LLVM, &err);
    uf_assert_ok(text != NULL, &err);
    uf_free(text);
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dtype_return_refused),
        cmocka_unit_test(test_imag_readonly),
        cmocka_unit_test(test_writes_through_parts),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_cuda),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
