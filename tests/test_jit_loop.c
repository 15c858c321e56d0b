/* The ufunc loop wrapper (uf__lower_loop) around hand-built kernels (see
 * jit_test_util.h): every layout (contiguous and vectorised, strided,
 * negative, broadcast scalars, overlapping and in place, empty), output
 * conversions and bool operands, and kernels returning a tuple into
 * several outputs. */
#include "jit_test_util.h"

/* ---- the loop wrapper ------------------------------------------------------- */

/* a + 3.0*b: correct on every layout, and the contiguous loop uses packed
 * vector instructions. */
static void test_loop_layouts(void **state)
{
    (void)state;
    uf_dtype dt = UF_FLOAT64;
    kspec s = {2, {dt, dt}, dt, dt, false, body_axpy, &dt};
    uf__jit_listing lst;
    uf__strided_loop fn = compile_spec(&s, &lst);
    assert_non_null(fn);
    assert_non_null(strstr(lst.llvm_ir, "define"));
    assert_non_null(strstr(lst.asm_text, "vmulpd"));
    bool wide = strstr(lst.asm_text, "zmm") || strstr(lst.asm_text, "ymm");
    if (!wide)
        fail_msg("contiguous loop not vectorised:\n%s", lst.asm_text);
    uf__free(lst.llvm_ir);
    uf__free(lst.asm_text);

    enum { N = 1003 };
    static double a[2 * N], b[2 * N], out[2 * N];
    for (int i = 0; i < 2 * N; i++) {
        a[i] = i * 0.5;
        b[i] = 1000.0 - i;
    }
    /* contiguous */
    void *p[3] = {a, b, out};
    int64_t st[3] = {8, 8, 8};
    assert_int_equal(run(fn, 3, p, st, N), 0);
    for (int i = 0; i < N; i++)
        assert_true(out[i] == a[i] + 3.0 * b[i]);
    /* every other element, a broadcast scalar, negative stride */
    memset(out, 0, sizeof out);
    void *q[3] = {a, &b[5], &out[2 * N - 1]};
    int64_t sq[3] = {16, 0, -8};
    assert_int_equal(run(fn, 3, q, sq, N), 0);
    for (int i = 0; i < N; i++)
        assert_true(out[2 * N - 1 - i] == a[2 * i] + 3.0 * b[5]);
    /* broadcast path: a scalar (stride 0) against contiguous arrays, over
     * more than one chunk, and shorter than a chunk */
    static const int64_t lens[] = {N, 7, 256, 257, 1};
    for (size_t t = 0; t < sizeof lens / sizeof lens[0]; t++) {
        for (int which = 0; which < 2; which++) {
            memset(out, 0, sizeof out);
            double sc = 2.5;
            void *bp[3] = {which ? (void *)a : (void *)&sc,
                           which ? (void *)&sc : (void *)b, out};
            int64_t bs[3] = {which ? 8 : 0, which ? 0 : 8, 8};
            assert_int_equal(run(fn, 3, bp, bs, lens[t]), 0);
            for (int i = 0; i < lens[t]; i++) {
                double want = which ? a[i] + 3.0 * sc : sc + 3.0 * b[i];
                if (out[i] != want)
                    fail_msg("broadcast %d n=%lld i=%d: %g", which,
                             (long long)lens[t], i, out[i]);
            }
            assert_true(out[lens[t]] == 0.0);
        }
    }
    /* both inputs scalars */
    double s1 = 1.0, s2 = 2.0;
    void *sp[3] = {&s1, &s2, out};
    int64_t ss[3] = {0, 0, 8};
    assert_int_equal(run(fn, 3, sp, ss, 300), 0);
    for (int i = 0; i < 300; i++)
        assert_true(out[i] == 7.0);
    /* an output overlapping a broadcast scalar: sequential semantics (the
     * scalar changes after element 0 is written) */
    out[0] = 1.0;
    for (int i = 1; i < 10; i++)
        out[i] = 0.0;
    void *op[3] = {out, out, out};
    int64_t os[3] = {0, 8, 8};
    assert_int_equal(run(fn, 3, op, os, 3), 0);
    /* out[0] = 1 + 3*1 = 4, then out[1] = 4 + 0, out[2] = 4 + 0 */
    assert_true(out[0] == 4.0 && out[1] == 4.0 && out[2] == 4.0);
    /* empty and negative lengths do nothing */
    out[0] = -1;
    assert_int_equal(run(fn, 3, p, st, 0), 0);
    assert_int_equal(run(fn, 3, p, st, -5), 0);
    assert_true(out[0] == -1);
    /* in place: out is the first input */
    for (int i = 0; i < N; i++)
        out[i] = i;
    void *r[3] = {out, b, out};
    assert_int_equal(run(fn, 3, r, st, N), 0);
    for (int i = 0; i < N; i++)
        assert_true(out[i] == i + 3.0 * b[i]);
    /* overlapping by one element: must behave like the sequential loop */
    for (int i = 0; i < N + 1; i++)
        a[i] = 1.0;
    for (int i = 0; i < N; i++)
        b[i] = 0.0;
    void *o[3] = {a, b, &a[1]};
    assert_int_equal(run(fn, 3, o, st, N), 0);
    for (int i = 0; i <= N; i++)
        assert_true(a[i] == 1.0);

    /* float32 vectorises too */
    dt = UF_FLOAT32;
    kspec s32 = {2, {dt, dt}, dt, dt, false, body_axpy, &dt};
    fn = compile_spec(&s32, &lst);
    assert_non_null(fn);
    assert_non_null(strstr(lst.asm_text, "vmulps"));
    uf__free(lst.llvm_ir);
    uf__free(lst.asm_text);
}

/* Output conversion and bool operands in the loop. */
static void test_loop_conversions(void **state)
{
    (void)state;
    /* float64 result stored as int32 */
    binop_ud u = {UF__OP_MUL, UF_FLOAT64};
    kspec s = {2, {UF_FLOAT64, UF_FLOAT64}, UF_FLOAT64, UF_INT32, false,
               body_binop, &u};
    uf__strided_loop fn = compile_or_fail(&s);
    double a[3] = {1.5, -2.5, 10}, b[3] = {3, 3, 0.5};
    int32_t o[3];
    assert_int_equal(run2_both(fn, a, b, o, 3, 8, 8, 4), 0);
    assert_true(o[0] == 4 && o[1] == -7 && o[2] == 5);
    /* bool inputs: any nonzero byte is True; bool output is 0/1 */
    binop_ud ub = {UF__OP_BITXOR, UF_BOOL};
    kspec sb = {2, {UF_BOOL, UF_BOOL}, UF_BOOL, UF_BOOL, false, body_binop,
                &ub};
    fn = compile_or_fail(&sb);
    unsigned char x[4] = {0, 2, 0, 255}, y[4] = {0, 0, 1, 7}, z[4];
    assert_int_equal(run2_both(fn, x, y, z, 4, 1, 1, 1), 0);
    assert_true(z[0] == 0 && z[1] == 1 && z[2] == 1 && z[3] == 0);
    /* complex128 result stored as float64 keeps the real part */
    cbin_ud uc = {0, UF_COMPLEX128};
    kspec sc = {2, {UF_COMPLEX128, UF_COMPLEX128}, UF_COMPLEX128, UF_FLOAT64,
                false, body_complex, &uc};
    fn = compile_or_fail(&sc);
    double ca[2] = {1, 2}, cb[2] = {3, 4}, co;
    assert_int_equal(run2_both(fn, ca, cb, &co, 1, 16, 16, 8), 0);
    assert_true(co == -5.0);
}

/* A kernel returning a pair fills two outputs. */
static void test_loop_tuple(void **state)
{
    (void)state;
    uf__lower L;
    uf_error err;
    assert_int_equal(uf__jit_begin(jit, &L, &err), 0);
    LLVMTypeRef d = LLVMDoubleTypeInContext(L.ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L.ctx);
    LLVMTypeRef pair[2] = {d, i64};
    LLVMTypeRef st = LLVMStructTypeInContext(L.ctx, pair, 2, 0);
    LLVMTypeRef params[2] = {d, d};
    LLVMValueRef k = LLVMAddFunction(L.mod, "k2",
                                     LLVMFunctionType(st, params, 2, 0));
    uf__lower_kernel_attrs(&L, k);
    uf__fn F;
    uf__fn_begin(&F, &L, k, false, true, &err);
    LLVMValueRef a = LLVMGetParam(k, 0), b = LLVMGetParam(k, 1);
    LLVMValueRef sum = uf__emit_binop(&F, UF__OP_ADD, UF_FLOAT64, a, b);
    LLVMValueRef q = uf__emit_cast(
        &F, uf__emit_binop(&F, UF__OP_FLOORDIV, UF_FLOAT64, a, b), UF_FLOAT64,
        UF_INT64);
    LLVMValueRef r = LLVMGetUndef(st);
    r = LLVMBuildInsertValue(L.b, r, sum, 0, "");
    r = LLVMBuildInsertValue(L.b, r, q, 1, "");
    LLVMBuildRet(L.b, r);
    uf__fn_end(&F);
    uf_dtype in[2] = {UF_FLOAT64, UF_FLOAT64}, res[2] = {UF_FLOAT64, UF_INT64};
    uf_dtype out[2] = {UF_FLOAT32, UF_INT64};
    char name[64];
    snprintf(name, sizeof name, "%s_loop", L.prefix);
    assert_non_null(uf__lower_loop(&L, k, false, in, 2, res, 2, true, out,
                                   name, &err));
    const char *names[1] = {name};
    void *addr;
    assert_int_equal(uf__jit_finish(jit, &L, names, &addr, 1, NULL, &err), 0);
    uf__strided_loop fn = (uf__strided_loop)(uintptr_t)addr;
    double x[3] = {7, -7, 1}, y[3] = {2, 2, 0.25};
    float o1[3];
    int64_t o2[3];
    void *p[4] = {x, y, o1, o2};
    int64_t s[4] = {8, 8, 4, 8};
    assert_int_equal(run(fn, 4, p, s, 3), 0);
    assert_true(o1[0] == 9.0f && o1[1] == -5.0f && o1[2] == 1.25f);
    assert_true(o2[0] == 3 && o2[1] == -4 && o2[2] == 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_layouts),
        cmocka_unit_test(test_loop_conversions),
        cmocka_unit_test(test_loop_tuple),
    };
    return cmocka_run_group_tests(tests, jit_setup, jit_teardown);
}
