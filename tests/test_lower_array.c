/* The array value ABI in generated code (compiler/lower/lower_array.h) and what
 * the layout and bounds checking do to the code: the struct type, array
 * values built by hand from raw pointers (as the gufunc loop builds them)
 * and passed to a typed kernel, the contiguous fast path (a 'C' loop is
 * vectorised, reading no stride), and bounds checks present only when
 * asked (boundscheck=True, UFJIT_DEBUG=1, not UFJIT_DEBUG=0). Results of
 * array kernels against Numba are in test_plain_call.c. */
#include "host_jit.h"
#include "test_util.h"

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/host/jit_plain.h"
#include "compiler/front/kmodule.h"
#include "compiler/lower/lower_array.h"

static uf__jit *jit;
static uf__kmodule *km;

static const char text[] =
    "from numba import njit\n"
    "\n"
    "@njit\n"
    "def total(a):\n"
    "    s = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        s += a[i]\n"
    "    return s\n"
    "\n"
    "@njit\n"
    "def scale(a, k):\n"
    "    for i in range(len(a)):\n"
    "        a[i] *= k\n"
    "\n"
    "@njit(boundscheck=True)\n"
    "def checked(a, i):\n"
    "    return a[i]\n"
    "\n"
    "@njit\n"
    "def corner(m):\n"
    "    return m[-1, -1] - m[0, 0] + m.shape[1] * 1000\n";
static uf__source src = {"abi.py", text, sizeof text - 1};

static int setup(void **state)
{
    (void)state;
    uf_error err;
    jit = test_host_jit(&err);
    km = uf__kmodule_new(&src, &err);
    return jit && km ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    uf__kmodule_free(km);
    uf__jit_free(jit);
    return 0;
}

static uf__typed_func *typed(const char *name, const uf__type *const *args,
                             int n)
{
    uf_error err;
    uf__typed_func *tf = uf__infer(km, uf__kmodule_find(km, name), args, n,
                                   NULL, &err);
    uf_assert_ok(tf != NULL, &err);
    return tf;
}

static const uf__type *arr(uf_dtype dt, int nd, char layout)
{
    uf_error err;
    const uf__type *t = uf__type_array(km->tc, dt, nd, layout, &err);
    uf_assert_ok(t != NULL, &err);
    return t;
}

/* { i8*, [nd x i64], [nd x i64] } for every dimension count, 0 included */
static void test_struct_type(void **state)
{
    (void)state;
    uf_error err;
    uf__lower L;
    assert_int_equal(uf__jit_begin(jit, &L, &err), 0);
    for (int nd = 0; nd <= 4; nd++) {
        LLVMTypeRef t = uf__lower_array_type(&L, nd);
        assert_int_equal(LLVMGetTypeKind(t), LLVMStructTypeKind);
        assert_int_equal(LLVMCountStructElementTypes(t), 3);
        LLVMTypeRef f[3];
        LLVMGetStructElementTypes(t, f);
        assert_int_equal(LLVMGetTypeKind(f[0]), LLVMPointerTypeKind);
        assert_true(LLVMGetElementType(f[0]) == LLVMInt8TypeInContext(L.ctx));
        for (int k = 1; k < 3; k++) {
            assert_int_equal(LLVMGetTypeKind(f[k]), LLVMArrayTypeKind);
            assert_int_equal(LLVMGetArrayLength(f[k]), nd);
        }
        /* the lowering's type of an array value is this struct */
        assert_true(uf__lower_type(&L, arr(UF_INT8, nd, 'A'), &err) == t);
    }
    uf__jit_abort(&L);
}

/* An array value made with uf__build_array from a raw pointer, a shape and
 * strides (here a reversed, strided view of a C buffer) and passed to the
 * typed kernel `corner`, the way the gufunc loop passes its operands. */
static void test_build_array(void **state)
{
    (void)state;
    uf_error err;
    const uf__type *a2 = arr(UF_INT32, 2, 'A');
    uf__typed_func *tf = typed("corner", &a2, 1);
    uf__lower L;
    assert_int_equal(uf__jit_begin(jit, &L, &err), 0);
    bool fallible;
    LLVMValueRef kernel = uf__lower_func(&L, tf, &fallible, &err);
    uf_assert_ok(kernel != NULL, &err);
    assert_true(fallible); /* njit: Python's error model, i32 f(T *out, ...) */

    /* i64 f(i8* data, i64 n0, i64 n1, i64 s0, i64 s1) */
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L.ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L.ctx), 0);
    LLVMTypeRef p[5] = {i8p, i64, i64, i64, i64};
    LLVMValueRef fn = LLVMAddFunction(L.mod, "corner_raw",
                                      LLVMFunctionType(i64, p, 5, 0));
    uf__lower_target_attrs(&L, fn);
    uf__fn F;
    uf__fn_begin(&F, &L, fn, false, false, &err);
    LLVMValueRef shape[2] = {LLVMGetParam(fn, 1), LLVMGetParam(fn, 2)};
    LLVMValueRef strides[2] = {LLVMGetParam(fn, 3), LLVMGetParam(fn, 4)};
    LLVMValueRef args[2] = {uf__fn_alloca(&F, i64, "out"),
                            uf__build_array(&L, LLVMGetParam(fn, 0), shape,
                                            strides, 2)};
    LLVMBuildCall2(L.b, LLVMGlobalGetValueType(kernel), kernel, args, 2, "");
    LLVMBuildRet(L.b, LLVMBuildLoad2(L.b, i64, args[0], ""));
    uf__fn_end(&F);
    const char *names[1] = {"corner_raw"};
    void *addr = NULL;
    assert_int_equal(uf__jit_finish(jit, &L, names, &addr, 1, NULL, &err), 0);
    int64_t (*corner)(char *, int64_t, int64_t, int64_t, int64_t) =
        (int64_t(*)(char *, int64_t, int64_t, int64_t, int64_t))(uintptr_t)
            addr;

    int32_t buf[4][5];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            buf[i][j] = 10 * i + j;
    /* buf[::-1, ::2]: 4 x 3, first element buf[3][0], last buf[0][4] */
    int64_t got = corner((char *)&buf[3][0], 4, 3, -20, 8);
    assert_int_equal(got, (0 * 10 + 4) - (3 * 10 + 0) + 3 * 1000);
    /* the whole buffer as given */
    got = corner((char *)buf, 4, 5, 20, 4);
    assert_int_equal(got, 34 - 0 + 5 * 1000);
}

static void listing_of(const char *name, const uf__type *const *args, int n,
                       uf__jit_listing *out)
{
    uf_error err;
    uf__typed_func *tf = typed(name, args, n);
    uf_dtype in[4] = {UF_FLOAT64, UF_FLOAT64, UF_FLOAT64, UF_FLOAT64};
    uf__plain_entry fn;
    assert_int_equal(uf__jit_plain(jit, tf, in, &fn, out, &err), 0);
    assert_non_null(out->llvm_ir);
}

/* The layout's promise: in a 'C' (or 'F') 1-D array the stride is the
 * itemsize, so the loop is vectorised; an 'A' array reads its stride. */
static void test_contiguous_fast_path(void **state)
{
    (void)state;
    uf_error err;
    const uf__type *args[2] = {arr(UF_FLOAT64, 1, 'C'),
                               uf__type_scalar(km->tc, UF_FLOAT64)};
    uf__jit_listing c, a;
    listing_of("scale", args, 2, &c);
    args[0] = arr(UF_FLOAT64, 1, 'A');
    listing_of("scale", args, 2, &a);
    if (!strstr(c.llvm_ir, "x double>"))
        fail_msg("the 'C' loop is not vectorised:\n%s", c.llvm_ir);
    /* the 'A' one loads the strides pointer, field 2 of the entry's
     * argument descriptor {data, shape, strides}; the 'C' one does not */
    assert_null(strstr(c.llvm_ir, "i64 0, i32 2"));
    assert_non_null(strstr(a.llvm_ir, "i64 0, i32 2"));
    uf__free(c.llvm_ir);
    uf__free(c.asm_text);
    uf__free(a.llvm_ir);
    uf__free(a.asm_text);
    (void)err;
}

/* Bounds checks exist only when asked for (their calls of the error helper
 * pass the kernel's name as a string constant "uf.str.NAME"), call the
 * helper by name, and fail with UF__JIT_INDEX and the message. */
static void test_boundscheck_code(void **state)
{
    (void)state;
    const uf__type *args[2] = {arr(UF_FLOAT64, 1, 'C'),
                               uf__type_scalar(km->tc, UF_INT64)};
    const uf__type *one = args[0];
    uf__jit_listing l;
    unsetenv("UFJIT_DEBUG");
    listing_of("total", &one, 1, &l);
    assert_null(strstr(l.llvm_ir, "@uf.str."));
    uf__free(l.llvm_ir);
    uf__free(l.asm_text);
    listing_of("checked", args, 2, &l);
    assert_non_null(strstr(l.llvm_ir, "@uf.str."));
    /* the reporter by its name, which the JIT resolves, never by an
     * address of this process: object code in the disk cache runs in
     * others (an address there crashed the next process) */
    assert_non_null(strstr(l.llvm_ir, "call void @" UF__RT_INDEX_ERROR "("));
    assert_null(strstr(l.llvm_ir, "inttoptr"));
    uf__free(l.llvm_ir);
    uf__free(l.asm_text);

    /* UFJIT_DEBUG is read when compiling; "0" means off */
    const uf__type *a2 = arr(UF_FLOAT64, 2, 'F');
    setenv("UFJIT_DEBUG", "0", 1);
    listing_of("corner", &a2, 1, &l);
    assert_null(strstr(l.llvm_ir, "@uf.str."));
    uf__free(l.llvm_ir);
    uf__free(l.asm_text);
    setenv("UFJIT_DEBUG", "1", 1);
    uf__typed_func *tf = typed("corner", &a2, 1);
    assert_true(uf__lower_boundscheck(tf));
    assert_true(uf__lower_fallible(tf));
    unsetenv("UFJIT_DEBUG");
    assert_false(uf__lower_boundscheck(tf));

    /* running the checked entry: 0 in range, UF__JIT_INDEX out of it */
    uf_error err;
    uf__plain_entry fn;
    uf_dtype in[2] = {UF_FLOAT64, UF_INT8};
    assert_int_equal(uf__jit_plain(jit, typed("checked", args, 2), in, &fn,
                                   NULL, &err), 0);
    double data[3] = {1.5, 2.5, 3.5};
    int64_t shape[1] = {3}, strides[1] = {8};
    uf__plain_arg d = {data, shape, strides};
    int8_t idx = -3;
    double res = 0;
    void *argv[2] = {&d, &idx}, *outs[1] = {&res};
    assert_int_equal(fn(argv, outs), 0);
    assert_true(res == 1.5);
    idx = 3;
    assert_int_equal(fn(argv, outs), UF__JIT_INDEX);
    assert_int_equal(uf__jit_status_error(UF__JIT_INDEX, &err), UF_ERR_INDEX);
    assert_string_equal(err.message, "IndexError: index 3 is out of bounds "
                                     "for axis 0 with size 3 (in 'checked' "
                                     "at abi.py:17)");
    idx = -4;
    assert_int_equal(fn(argv, outs), UF__JIT_INDEX);
    assert_int_equal(uf__jit_status_error(UF__JIT_INDEX, &err), UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "index -4 is out of bounds"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_struct_type),
        cmocka_unit_test(test_build_array),
        cmocka_unit_test(test_contiguous_fast_path),
        cmocka_unit_test(test_boundscheck_code),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
