/* Compiling kernels from source beyond the Numba table: vectorised code
 * for a simple loop, statuses (Python's error model in njit, assert, a
 * zero range() step), refused kernels, allocation failures. */
#include "lower_test_corpus.h"

/* The loop of `a + 3.0*b` from source vectorises (packed AVX code). */
static void test_vectorized_listing(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *kernel;
        uf_dtype dt;
        const char *insn;
    } rows[] = {
        {LOC, "axpy", UF_FLOAT64, "vmulpd"},
        /* 3.0 is a float64 literal: float32 inputs compute in float64 */
        {LOC, "axpy", UF_FLOAT32, "vcvtps2pd"},
        {LOC, "axpy_f4", UF_FLOAT32, "vmulps"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uf_dtype in[2] = {rows[i].dt, rows[i].dt};
        uf_error err;
        uf__typed_func *tf = specialise(rows[i].kernel, in, 2, &err);
        uf_assert_ok(tf != NULL, &err);
        uf__jit_listing lst;
        uf__strided_loop fn = compile_kernel(tf, in, &lst, &err);
        uf_assert_ok(fn != NULL, &err);
        bool wide = strstr(lst.asm_text, "zmm") || strstr(lst.asm_text, "ymm");
        if (!strstr(lst.asm_text, rows[i].insn) || !wide)
            uf_fail_at(rows[i].file, rows[i].line, "not vectorised:\n%s",
                       lst.asm_text);
        if (!strstr(lst.llvm_ir, "fmul <"))
            uf_fail_at(rows[i].file, rows[i].line, "no vector IR:\n%s",
                       lst.llvm_ir);
        uf__free(lst.llvm_ir);
        uf__free(lst.asm_text);
    }
}

/* Statuses: Python's error model in an njit kernel, an assert, range()
 * with a zero step (both raise in Numba's vectorize too). */
static void test_statuses(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *kernel;
        int nin;
        uf_dtype in[3];
        int64_t a[3]; /* the middle element fails */
        int status;
    } rows[] = {
        {LOC, "njit_div", 2, {UF_INT64, UF_INT64}, {7, 0, 0}, UF__JIT_ZERODIV_INT},
        {LOC, "call_njit", 2, {UF_INT64, UF_INT64}, {7, 0, 0}, 0},
        {LOC, "checked", 1, {UF_INT64}, {-1, 0, 0}, UF__JIT_ASSERT +
                                                     CHECKED_ASSERT_LINE},
        {LOC, "checked", 1, {UF_INT64}, {1, 0, 0}, 0},
        {LOC, "sum_range", 3, {UF_INT64, UF_INT64, UF_INT64}, {0, 10, 0},
         UF__JIT_RANGE_STEP},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uf_error err;
        int nin = rows[i].nin;
        uf__typed_func *tf = specialise(rows[i].kernel, rows[i].in, nin, &err);
        uf_assert_ok(tf != NULL, &err);
        uf_dtype out[4];
        int nout = tf->ret->kind == UF__T_TUPLE ? tf->ret->n : 1;
        for (int j = 0; j < nout; j++)
            out[j] = tf->ret->kind == UF__T_TUPLE ? tf->ret->elts[j]->dtype
                                                  : tf->ret->dtype;
        uf__strided_loop fn = compile_kernel(tf, out, NULL, &err);
        uf_assert_ok(fn != NULL, &err);
        /* three elements per input: 1, the row's value, 1 */
        int64_t ins[3][3], outs[4][3];
        char *data[7];
        int64_t strides[7];
        for (int k = 0; k < nin; k++) {
            for (int e = 0; e < 3; e++)
                ins[k][e] = e == 1 ? rows[i].a[k] : 1;
            data[k] = (char *)ins[k];
            strides[k] = 8;
        }
        for (int j = 0; j < nout; j++) {
            data[nin + j] = (char *)outs[j];
            strides[nin + j] = (int64_t)uf_dtype_itemsize(out[j]);
        }
        int64_t dims[1] = {3};
        int rc = fn(NULL, data, dims, strides, NULL);
        if (rc != rows[i].status)
            uf_fail_at(rows[i].file, rows[i].line, "%s: status %d, want %d",
                       rows[i].kernel, rc, rows[i].status);
        /* the same values broadcast (stride 0) against contiguous
         * outputs: the broadcast path passes the status on too */
        for (int k = 0; k < nin; k++) {
            data[k] = (char *)&ins[k][1];
            strides[k] = 0;
        }
        rc = fn(NULL, data, dims, strides, NULL);
        if (rc != rows[i].status)
            uf_fail_at(rows[i].file, rows[i].line, "%s broadcast: status %d, "
                       "want %d", rows[i].kernel, rc, rows[i].status);
    }
}

/* What the lowering refuses is an error, never a crash or a miscompile. */
static void test_unsupported(void **state)
{
    (void)state;
    static const char text[] =
        "from numba import guvectorize\n"
        "@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')\n"
        "def g(x, y):\n"
        "    for i in range(x.shape[0]):\n"
        "        y[i] = x[i]\n";
    uf__source s = {"arrays.py", text, sizeof text - 1};
    uf_error err;
    uf__kmodule *m = uf__kmodule_new(&s, &err);
    uf_assert_ok(m != NULL, &err);
    const uf__type *arr = uf__type_array(m->tc, UF_FLOAT64, 1, 'A', &err);
    const uf__type *args[2] = {arr, arr};
    uf__typed_func *tf = uf__infer(m, uf__kmodule_find(m, "g"), args, 2,
                                   NULL, &err);
    uf_assert_ok(tf != NULL, &err);
    long live = uf__alloc_live();
    uf__strided_loop fn;
    uf_dtype out[1] = {UF_FLOAT64};
    assert_int_not_equal(uf__jit_ufunc_loop(jit, tf, out, &fn, NULL, &err), 0);
    assert_int_equal(err.code, UF_ERR_UNSUPPORTED);
    assert_int_equal(uf__alloc_live(), live);
    uf__kmodule_free(m);
}

/* Allocation failures inside the compile path are clean. */
static void test_compile_nomem(void **state)
{
    (void)state;
    uf_dtype in[4] = {UF_FLOAT64, UF_FLOAT64, UF_FLOAT64, UF_FLOAT64};
    uf_error err;
    uf__typed_func *tf = specialise("polar_distance", in, 4, &err);
    uf_assert_ok(tf != NULL, &err);
    long live = uf__alloc_live();
    bool ok = false;
    for (long n = 1; n < 40 && !ok; n++) {
        uf__strided_loop fn = NULL;
        uf__jit_listing lst;
        uf__alloc_fail_at(n);
        int rc = uf__jit_ufunc_loop(jit, tf, in, &fn, &lst, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (rc == 0) {
            uf__free(lst.llvm_ir);
            uf__free(lst.asm_text);
            ok = !failed;
        } else {
            assert_int_equal(err.code, UF_ERR_NOMEM);
        }
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(ok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectorized_listing),
        cmocka_unit_test(test_statuses),
        cmocka_unit_test(test_unsupported),
        cmocka_unit_test(test_compile_nomem),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
