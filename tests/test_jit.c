/* The host JIT itself, on hand-built kernels: the host CPU, status
 * messages, verifier and lookup errors, out-of-memory paths, several
 * threads compiling at once, and the cost of a compilation (printed). The
 * lowering's operators and the loop wrapper are tested by the other
 * test_jit_*.c files (helpers in jit_test_util.h): arith (Python's integer
 * and float arithmetic), convert (casts, comparisons), math (math
 * builtins, libmvec), complex, loop (layouts, conversions, tuples). */
#include <pthread.h>

#include "jit_test_util.h"

/* ---- the JIT itself ------------------------------------------------------ */

static void test_host(void **state)
{
    (void)state;
    const char *cpu = uf__jit_host_cpu(jit);
    const char *feat = uf__jit_host_features(jit);
    assert_non_null(cpu);
    assert_true(strlen(cpu) > 0);
    assert_non_null(strstr(feat, "+sse2"));
}

static void test_status_messages(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int status;
        const char *msg;
    } rows[] = {
        {LOC, UF__JIT_ZERODIV_INT, "ZeroDivisionError: integer division by zero"},
        {LOC, UF__JIT_ZEROMOD_INT, "ZeroDivisionError: integer modulo by zero"},
        {LOC, UF__JIT_ZERODIV, "ZeroDivisionError: division by zero"},
        {LOC, UF__JIT_ZEROMOD, "ZeroDivisionError: modulo by zero"},
        {LOC, UF__JIT_ZEROPOW,
         "ZeroDivisionError: 0 cannot be raised to a negative power"},
        {LOC, UF__JIT_ZERODIV_COMPLEX,
         "ZeroDivisionError: complex division by zero"},
        {LOC, UF__JIT_RANGE_STEP, "ValueError: range() arg 3 must not be zero"},
        {LOC, UF__JIT_ASSERT + 12, "AssertionError (assert on kernel line 12)"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uf_error err;
        int rc = uf__jit_status_error(rows[i].status, &err);
        if (rc != UF_ERR_VALUE || strcmp(err.message, rows[i].msg) != 0)
            uf_fail_at(rows[i].file, rows[i].line, "got %d '%s'", rc,
                       err.message);
    }
    uf_error err;
    assert_int_equal(uf__jit_status_error(999, &err), UF_ERR_INTERNAL);
}

/* A module that does not verify is an internal error with LLVM's text. */
static void test_verifier_error(void **state)
{
    (void)state;
    uf__lower L;
    uf_error err;
    long live = uf__alloc_live();
    assert_int_equal(uf__jit_begin(jit, &L, &err), 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L.ctx);
    LLVMValueRef fn = LLVMAddFunction(L.mod, "bad",
                                      LLVMFunctionType(i32, NULL, 0, 0));
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(L.ctx, fn, "entry");
    LLVMPositionBuilderAtEnd(L.b, bb);
    LLVMBuildAdd(L.b, LLVMConstInt(i32, 1, 0), LLVMConstInt(i32, 2, 0), "");
    /* no terminator */
    const char *names[1] = {"bad"};
    void *addr;
    assert_int_equal(uf__jit_finish(jit, &L, names, &addr, 1, NULL, &err),
                     UF_ERR_INTERNAL);
    assert_non_null(strstr(err.message, "LLVM: invalid module"));
    assert_non_null(strstr(err.message, "terminator"));
    assert_int_equal(uf__alloc_live(), live);
}

/* Looking up a symbol the module does not define fails cleanly. */
static void test_lookup_error(void **state)
{
    (void)state;
    uf__lower L;
    uf_error err;
    assert_int_equal(uf__jit_begin(jit, &L, &err), 0);
    const char *names[1] = {"uf_no_such_symbol_anywhere"};
    void *addr;
    assert_int_equal(uf__jit_finish(jit, &L, names, &addr, 1, NULL, &err),
                     UF_ERR_INTERNAL);
    assert_non_null(strstr(err.message, "uf_no_such_symbol_anywhere"));
}

/* A JIT that cannot allocate fails with NOMEM and leaks nothing. */
static void test_jit_new_nomem(void **state)
{
    (void)state;
    long live = uf__alloc_live();
    bool ok = false;
    for (long n = 1; n < 50 && !ok; n++) {
        uf_error err;
        uf__alloc_fail_at(n);
        uf__jit *j = test_host_jit(&err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (j) {
            ok = !failed;
            uf__jit_free(j);
        } else {
            assert_int_equal(err.code, UF_ERR_NOMEM);
        }
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(ok);
}

/* Listing allocation failures are clean (LLVM's own memory is not ours to
 * count; ours must balance). */
static void test_listing_nomem(void **state)
{
    (void)state;
    uf_dtype dt = UF_FLOAT64;
    kspec s = {2, {dt, dt}, dt, dt, false, body_axpy, &dt};
    long live = uf__alloc_live();
    bool ok = false;
    for (long n = 1; n < 20 && !ok; n++) {
        uf__jit_listing lst;
        uf__alloc_fail_at(n);
        uf__strided_loop fn = compile_spec(&s, &lst);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (fn && !failed) {
            ok = true;
            uf__free(lst.llvm_ir);
            uf__free(lst.asm_text);
        } else if (fn) {
            uf__free(lst.llvm_ir);
            uf__free(lst.asm_text);
        }
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(ok);
}

/* One JIT, several threads compiling and running at once. */
static void *compile_worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int r = 0; r < 4; r++) {
        binop_ud u = {r % 2 ? UF__OP_MOD : UF__OP_FLOORDIV, UF_INT64};
        kspec s = {2, {UF_INT64, UF_INT64}, UF_INT64, UF_INT64, false,
                   body_binop, &u};
        uf__strided_loop fn = compile_spec(&s, NULL);
        if (!fn)
            return (void *)1;
        int64_t a[3] = {-7, 7, id + 10}, b[3] = {2, -2, 3}, o[3];
        void *p[3] = {a, b, o};
        int64_t st[3] = {8, 8, 8};
        if (run(fn, 3, p, st, 3) != 0)
            return (void *)1;
        for (int i = 0; i < 3; i++)
            if (o[i] != (r % 2 ? py_mod(a[i], b[i]) : py_floordiv(a[i], b[i])))
                return (void *)1;
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    pthread_t t[3];
    record_times = false;
    for (int i = 0; i < 3; i++)
        assert_int_equal(pthread_create(&t[i], NULL, compile_worker,
                                        (void *)(intptr_t)i),
                         0);
    for (int i = 0; i < 3; i++) {
        void *ret;
        assert_int_equal(pthread_join(t[i], &ret), 0);
        assert_null(ret);
    }
    record_times = true;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Printed, not asserted: the cost of one small kernel. */
static void test_compile_time(void **state)
{
    (void)state;
    uf_dtype dt = UF_FLOAT64;
    kspec s = {2, {dt, dt}, dt, dt, false, body_axpy, &dt};
    double t[20];
    for (int i = 0; i < 20; i++) {
        double t0 = now_ms();
        assert_non_null(compile_spec(&s, NULL));
        t[i] = now_ms() - t0;
    }
    qsort(t, 20, sizeof t[0], cmp_double);
    double all[512];
    memcpy(all, compile_ms, (size_t)ncompiles * sizeof all[0]);
    qsort(all, (size_t)ncompiles, sizeof all[0], cmp_double);
    print_message("[ INFO     ] a + 3.0*b loop: median %.2f ms, min %.2f, max "
                  "%.2f (20 compiles); all %d kernels of this test: median "
                  "%.2f ms, first %.2f ms\n",
                  t[10], t[0], t[19], ncompiles, all[ncompiles / 2],
                  compile_ms[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host),
        cmocka_unit_test(test_status_messages),
        cmocka_unit_test(test_verifier_error),
        cmocka_unit_test(test_lookup_error),
        cmocka_unit_test(test_jit_new_nomem),
        cmocka_unit_test(test_listing_nomem),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_compile_time),
    };
    return cmocka_run_group_tests(tests, jit_setup, jit_teardown);
}
