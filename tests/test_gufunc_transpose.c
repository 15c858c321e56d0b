/* The transposed-rows gufunc variant (compiler/host/jit_gufunc_transpose.c,
 * asked for with UFJIT_GUFUNC_TRANSPOSE=always): matvec's row sums in
 * vector lanes must give the generic loop's bytes, float64 and float32,
 * with the host's widest vectors and with AVX2's (UFJIT_CPU_FEATURES=
 * -avx512f, a context of its own), on cpu and parallel: core shapes whose
 * m and n are no multiples of the vector width, 1 and 0, F-ordered,
 * strided, reversed and broadcast operands (those take the strided
 * variant, which the rewrite leaves alone), NaN and infinities. A kernel
 * without the pattern compiles as before; the assembly shows the
 * transposes only where asked for. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "host_jit.h"
#include "test_util.h"

#include "compiler/host/jit_gufunc_transpose.h"
#include "compiler/lower/lower.h"
#include "gufunc/gufunc_internal.h"
#include "gufunc/gufunc_specialise.h"

static const char src[] =
    "from numba import guvectorize, float32\n"
    "@guvectorize(['void(float64[:,:], float64[:], float64[:])'],\n"
    "             '(m,n),(n)->(m)')\n"
    "def matvec(M, v, y):\n"
    "    for i in range(M.shape[0]):\n"
    "        acc = 0.0\n"
    "        for j in range(M.shape[1]):\n"
    "            acc += M[i, j] * v[j]\n"
    "        y[i] = acc\n"
    "@guvectorize(['void(float32[:,:], float32[:], float32[:])'],\n"
    "             '(m,n),(n)->(m)')\n"
    "def matvec32(M, v, y):\n"
    "    for i in range(M.shape[0]):\n"
    "        acc = float32(0.0)\n"
    "        for j in range(M.shape[1]):\n"
    "            acc += v[j] * M[i, j]\n"
    "        y[i] = acc\n"
    /* not the pattern: the product plus a constant */
    "@guvectorize(['void(float64[:,:], float64[:], float64[:])'],\n"
    "             '(m,n),(n)->(m)')\n"
    "def shifted(M, v, y):\n"
    "    for i in range(M.shape[0]):\n"
    "        acc = 0.0\n"
    "        for j in range(M.shape[1]):\n"
    "            acc += M[i, j] * v[j] + 0.5\n"
    "        y[i] = acc\n";

/* [0]: the host's features, [1]: AVX2 only */
static uf_context *ctx[2];
static uf_module *mod[2];

static const char *features(int c)
{
    return c == 1 ? "-avx512f" : NULL;
}

/* UFJIT_CPU_FEATURES for context c (read when its JIT starts) and the
 * transposed variant asked for or not (read per compilation). */
static void environment(int c, bool transpose)
{
    if (features(c))
        setenv("UFJIT_CPU_FEATURES", features(c), 1);
    else
        unsetenv("UFJIT_CPU_FEATURES");
    setenv("UFJIT_GUFUNC_TRANSPOSE", transpose ? "always" : "never", 1);
}

static void environment_clear(void)
{
    unsetenv("UFJIT_CPU_FEATURES");
    unsetenv("UFJIT_GUFUNC_TRANSPOSE");
}

static int setup(void **state)
{
    uf_error err;
    (void)state;
    for (int c = 0; c < 2; c++) {
        ctx[c] = uf_context_new(&err);
        mod[c] = ctx[c] ? uf_module_from_string(ctx[c], "tr.py", src, &err)
                        : NULL;
        uf_assert_ok(mod[c] != NULL, &err);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    environment_clear();
    uf__gufunc_spec_set_min_work(UF__GUFUNC_SPEC_MIN_WORK);
    for (int c = 0; c < 2; c++) {
        uf_module_free(mod[c]);
        uf_context_free(ctx[c]);
    }
    return 0;
}

/* ---- operands ------------------------------------------------------------ */

static uint64_t rng;

static double next_value(bool special)
{
    static const double odd[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0};
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    if (special && rng % 97 == 3)
        return odd[(rng >> 20) % 5];
    return -10.0 + 20.0 * (double)(rng >> 11) / 9007199254740992.0;
}

/* An array of `shape`, then the view `slice` (or none), then with its
 * last two axes swapped when `swap`. */
static uf_array *make(uf_dtype dt, int ndim, const int64_t *shape,
                      const char *slice, bool swap, bool special,
                      uint64_t seed)
{
    uf_error err;
    uf_array *a = uf_empty(dt, ndim, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    rng = seed * 0x9E3779B97F4A7C15ull + 7;
    for (int64_t i = 0; i < uf_array_size(a); i++) {
        double x = next_value(special);
        if (dt == UF_FLOAT64)
            ((double *)uf_array_data(a))[i] = x;
        else
            ((float *)uf_array_data(a))[i] = (float)x;
    }
    if (slice) {
        uf_array *v = uf_array_slice(a, slice, &err);
        uf_assert_ok(v != NULL, &err);
        uf_array_release(a);
        a = v;
    }
    if (swap) {
        int axes[3] = {0, 1, 2};
        axes[ndim - 1] = ndim - 2;
        axes[ndim - 2] = ndim - 1;
        uf_array *t = uf_array_transpose(a, axes, &err);
        uf_assert_ok(t != NULL, &err);
        uf_array_release(a);
        a = t;
    }
    return a;
}

static int call(int c, const char *kernel, uf_array *M, uf_array *v,
                uf_array **y, const char *target, uf_error *err)
{
    uf_func *f = uf_module_get(mod[c], kernel, err);
    if (f == NULL)
        return err->code;
    uf_call_options o = {.size = sizeof o, .target = target,
                         .num_threads = 2};
    uf_array *in[2] = {M, v};
    *y = NULL;
    return uf_call(f, in, 2, y, 1, &o, err);
}

typedef struct mcase {
    int line;
    int mndim;
    int64_t mshape[3];
    const char *mslice;
    bool mswap;
    int vndim;
    int64_t vshape[2];
    const char *vslice;
} mcase;

/* The generic loop and the transposed variant (cpu, parallel) of
 * `kernel` give the same bytes in context c. */
static void check(int c, const char *kernel, uf_dtype dt, const mcase *k,
                  bool special)
{
    uf_error err;
    uf_array *M = make(dt, k->mndim, k->mshape, k->mslice, k->mswap,
                       special, 1);
    uf_array *v = make(dt, k->vndim, k->vshape, k->vslice, false, special,
                       2);
    uf_array *gen, *got;
    environment(c, false);
    uf__gufunc_spec_set_min_work(-1);
    if (call(c, kernel, M, v, &gen, "cpu", &err) != 0)
        uf_fail_at(__FILE__, k->line, "generic: %s", err.message);
    environment(c, true);
    uf__gufunc_spec_set_min_work(0);
    static const char *const targets[] = {"cpu", "parallel"};
    for (int t = 0; t < 2; t++) {
        if (call(c, kernel, M, v, &got, targets[t], &err) != 0)
            uf_fail_at(__FILE__, k->line, "%s: %s", targets[t], err.message);
        uf_assert_same_bytes(__FILE__, k->line, targets[t], gen, got);
        uf_array_release(got);
    }
    environment_clear();
    uf__gufunc_spec_set_min_work(UF__GUFUNC_SPEC_MIN_WORK);
    uf_array_release(gen);
    uf_array_release(M);
    uf_array_release(v);
}

static const mcase shapes[] = {
    /* blocks and rows exactly */
    {__LINE__, 3, {3, 64, 64}, NULL, false, 2, {3, 64}, NULL},
    {__LINE__, 3, {5, 16, 32}, NULL, false, 2, {5, 32}, NULL},
    /* column and row remainders, fewer rows than the jam */
    {__LINE__, 3, {4, 61, 37}, NULL, false, 2, {4, 37}, NULL},
    {__LINE__, 3, {3, 33, 57}, NULL, false, 2, {3, 57}, NULL},
    {__LINE__, 3, {3, 17, 9}, NULL, false, 2, {3, 9}, NULL},
    {__LINE__, 3, {3, 9, 17}, NULL, false, 2, {3, 17}, NULL},
    {__LINE__, 3, {3, 7, 64}, NULL, false, 2, {3, 64}, NULL},
    {__LINE__, 3, {3, 24, 3}, NULL, false, 2, {3, 3}, NULL},
    {__LINE__, 3, {3, 16, 1}, NULL, false, 2, {3, 1}, NULL},
    {__LINE__, 3, {3, 1, 40}, NULL, false, 2, {3, 40}, NULL},
    /* zero-size core dimensions, no iterations */
    {__LINE__, 3, {3, 0, 16}, NULL, false, 2, {3, 16}, NULL},
    {__LINE__, 3, {3, 16, 0}, NULL, false, 2, {3, 0}, NULL},
    {__LINE__, 3, {0, 16, 16}, NULL, false, 2, {0, 16}, NULL},
    /* F-ordered, strided, reversed: the strided variant */
    {__LINE__, 3, {3, 24, 19}, NULL, true, 2, {3, 24}, NULL},
    {__LINE__, 3, {3, 20, 42}, "...,::2", false, 2, {3, 21}, NULL},
    {__LINE__, 3, {3, 40, 19}, ":,::2", false, 2, {3, 38}, "...,::2"},
    {__LINE__, 3, {3, 19, 23}, "::-1,::-1,::-1", false, 2, {3, 23},
     "...,::-1"},
    /* broadcast: one v for every matrix, one matrix for every v */
    {__LINE__, 3, {4, 31, 29}, NULL, false, 1, {29}, NULL},
    {__LINE__, 2, {30, 29}, NULL, false, 2, {4, 29}, NULL},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static void test_float64(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++)
        for (size_t i = 0; i < NSHAPES; i++)
            check(c, "matvec", UF_FLOAT64, &shapes[i], false);
}

static void test_float32(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++)
        for (size_t i = 0; i < NSHAPES; i++)
            check(c, "matvec32", UF_FLOAT32, &shapes[i], false);
}

/* NaN, infinities and signed zeros in the operands (a different shape:
 * variants are per core shape) */
static void test_special(void **state)
{
    (void)state;
    static const mcase k[] = {
        {__LINE__, 3, {6, 24, 40}, NULL, false, 2, {6, 40}, NULL},
        {__LINE__, 3, {6, 13, 21}, NULL, false, 2, {6, 21}, NULL},
    };
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 2; i++) {
            check(c, "matvec", UF_FLOAT64, &k[i], true);
            check(c, "matvec32", UF_FLOAT32, &k[i], true);
        }
}

/* A kernel without the pattern: the variant the rule gives, same bytes. */
static void test_not_the_pattern(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++)
        for (size_t i = 0; i < 4; i++)
            check(c, "shifted", UF_FLOAT64, &shapes[i], false);
}

/* ---- the code ------------------------------------------------------------ */

/* UFJIT_DUMP_ASSEMBLY's text of the compilation a call of `kernel` on a
 * new core shape (m, n) makes in context c. */
static char *assembly(int c, const char *kernel, uf_dtype dt, int64_t m,
                      int64_t n, bool transpose)
{
    uf_error err;
    int64_t ms[3] = {2, m, n}, vs[2] = {2, n};
    uf_array *M = make(dt, 3, ms, NULL, false, false, 3),
             *v = make(dt, 2, vs, NULL, false, false, 4), *y;
    char path[] = "/tmp/ufjit_transpose_asm_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    environment(c, transpose);
    setenv("UFJIT_DUMP_ASSEMBLY", "1", 1);
    uf__gufunc_spec_set_min_work(0);
    int rc = call(c, kernel, M, v, &y, "cpu", &err);
    uf__gufunc_spec_set_min_work(UF__GUFUNC_SPEC_MIN_WORK);
    unsetenv("UFJIT_DUMP_ASSEMBLY");
    environment_clear();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    uf_assert_ok(rc == 0, &err);
    off_t len = lseek(fd, 0, SEEK_END);
    char *s = malloc((size_t)len + 1);
    assert_non_null(s);
    assert_int_equal(pread(fd, s, (size_t)len, 0), len);
    s[len] = '\0';
    close(fd);
    unlink(path);
    uf_array_release(y);
    uf_array_release(M);
    uf_array_release(v);
    return s;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p++)
        n++;
    return n;
}

/* Transposes (unpacks of rows) and prefetches where asked for, in zmm
 * with AVX-512 and in ymm without; none by default or without the
 * pattern. */
static void test_assembly(void **state)
{
    (void)state;
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2")) {
        printf("SKIP: the assembly checks need an AVX2 host\n");
        skip();
    }
    bool avx512 = __builtin_cpu_supports("avx512f");
    char *off = assembly(0, "matvec", UF_FLOAT64, 48, 40, false);
    char *on = assembly(0, "matvec", UF_FLOAT64, 48, 41, true);
    char *on2 = assembly(1, "matvec", UF_FLOAT64, 48, 42, true);
    char *other = assembly(0, "shifted", UF_FLOAT64, 48, 40, true);
    assert_true(count(off, "---- assembly ----") >= 1);
    assert_int_equal(count(off, "vunpcklpd"), 0);
    assert_int_equal(count(other, "vunpcklpd"), 0);
    assert_true(count(on, "vunpcklpd") >= 4);
    assert_true(count(on, "prefetcht0") >= 8);
    if (avx512) {
        assert_true(count(on, "zmm") > 0);
    } else {
        printf("note: no AVX-512 here, the first context runs AVX2 too\n");
    }
    assert_true(count(on2, "vunpcklpd") >= 4);
    assert_int_equal(count(on2, "zmm"), 0);
    free(off);
    free(on);
    free(on2);
    free(other);
}


/* ---- the rewrite on hand-built loops ------------------------------------- */

enum shape { PATTERN, STORE_IN_LOOP, FSUB, STRIDE_2 };

/* void f(double *M, double *v, double *y, i64 n): for k < K,
 *     y[k] = y[k] + M[k n + 0] v[0] + ... + M[k n + n-1] v[n-1]
 * in order, as the jammed loop after LLVM's pipeline (the sums' phis and
 * the exit's phis also fed by the entry, for n <= 0); `shape` spoils it. */
static void build_rows(uf__lower *L, const char *name, int K, enum shape sh)
{
    LLVMContextRef C = L->ctx;
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(C),
                i64 = LLVMInt64TypeInContext(C), pd = LLVMPointerType(f64, 0);
    LLVMTypeRef params[4] = {pd, pd, pd, i64};
    LLVMValueRef fn = LLVMAddFunction(
        L->mod, name,
        LLVMFunctionType(LLVMVoidTypeInContext(C), params, 4, 0));
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(C, fn, "entry"),
                      loop = LLVMAppendBasicBlockInContext(C, fn, "loop"),
                      exit = LLVMAppendBasicBlockInContext(C, fn, "exit");
    LLVMBuilderRef B = L->b;
    LLVMValueRef M = LLVMGetParam(fn, 0), v = LLVMGetParam(fn, 1),
                 y = LLVMGetParam(fn, 2), n = LLVMGetParam(fn, 3);
    LLVMValueRef base[16], init[16], acc[16], upd[16];
    LLVMPositionBuilderAtEnd(B, entry);
    for (int k = 0; k < K; k++) {
        LLVMValueRef kk = LLVMConstInt(i64, (unsigned)k, 0);
        base[k] = LLVMBuildMul(B, kk, n, "");
        init[k] = LLVMBuildLoad2(B, f64, LLVMBuildGEP2(B, f64, y, &kk, 1, ""),
                                 "");
    }
    LLVMBuildCondBr(B,
                    LLVMBuildICmp(B, LLVMIntSGT, n, LLVMConstInt(i64, 0, 0),
                                  ""),
                    loop, exit);
    LLVMPositionBuilderAtEnd(B, loop);
    LLVMValueRef j = LLVMBuildPhi(B, i64, "j");
    for (int k = 0; k < K; k++)
        acc[k] = LLVMBuildPhi(B, f64, "acc");
    LLVMValueRef x = LLVMBuildLoad2(B, f64, LLVMBuildGEP2(B, f64, v, &j, 1, ""),
                                    "x");
    LLVMValueRef col = sh == STRIDE_2
                           ? LLVMBuildShl(B, j, LLVMConstInt(i64, 1, 0), "")
                           : j;
    for (int k = 0; k < K; k++) {
        LLVMValueRef ix = LLVMBuildAdd(B, base[k], col, "");
        LLVMValueRef r = LLVMBuildLoad2(
            B, f64, LLVMBuildGEP2(B, f64, M, &ix, 1, ""), "r");
        LLVMValueRef prod = LLVMBuildFMul(B, r, x, "");
        upd[k] = sh == FSUB ? LLVMBuildFSub(B, acc[k], prod, "")
                            : LLVMBuildFAdd(B, acc[k], prod, "");
    }
    if (sh == STORE_IN_LOOP)
        LLVMBuildStore(B, x, LLVMBuildGEP2(B, f64, y, &n, 1, ""));
    LLVMValueRef j1 = LLVMBuildAdd(B, j, LLVMConstInt(i64, 1, 0), "j1");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, j1, n, ""), exit, loop);
    LLVMBasicBlockRef from[2] = {entry, loop};
    LLVMValueRef jv[2] = {LLVMConstInt(i64, 0, 0), j1};
    LLVMAddIncoming(j, jv, from, 2);
    LLVMPositionBuilderAtEnd(B, exit);
    LLVMValueRef sum[16];
    for (int k = 0; k < K; k++) {
        LLVMValueRef av[2] = {init[k], upd[k]};
        LLVMAddIncoming(acc[k], av, from, 2);
        sum[k] = LLVMBuildPhi(B, f64, "s");
        LLVMAddIncoming(sum[k], av, from, 2);
    }
    for (int k = 0; k < K; k++) {
        LLVMValueRef kk = LLVMConstInt(i64, (unsigned)k, 0);
        LLVMBuildStore(B, sum[k], LLVMBuildGEP2(B, f64, y, &kk, 1, ""));
    }
    LLVMBuildRetVoid(B);
}

static uf__jit *jit;

static int jit_setup(void **state)
{
    uf_error err;
    (void)state;
    jit = test_host_jit(&err);
    return jit ? 0 : -1;
}

static int jit_teardown(void **state)
{
    (void)state;
    uf__jit_free(jit);
    return 0;
}

typedef void (*rows_fn)(double *, double *, double *, int64_t);

/* The pattern rewritten (8 rows: one zmm group or two ymm groups), run
 * for every remainder of the column blocks, the same bits as C's loop. */
static void test_rewrite_runs(void **state)
{
    (void)state;
    static const int bytes[2] = {64, 32};
    for (int b = 0; b < 2; b++) {
        uf__lower L;
        uf_error err;
        assert_int_equal(uf__jit_begin(jit, &L, &err), 0);
        char name[64];
        snprintf(name, sizeof name, "%s_rows", L.prefix);
        build_rows(&L, name, 8, PATTERN);
        LLVMValueRef fn = LLVMGetNamedFunction(L.mod, name);
        assert_int_equal(uf__gufunc_transpose(L.mod, fn, bytes[b], 4096), 1);
        /* nothing left to match: the vector loop is no longer it */
        L.passes = "verify";
        const char *names[1] = {name};
        void *addr = NULL;
        if (uf__jit_finish(jit, &L, names, &addr, 1, NULL, &err) != 0)
            uf_fail_at(__FILE__, __LINE__, "%s", err.message);
        rows_fn f = (rows_fn)(uintptr_t)addr;
        for (int64_t n = -1; n <= 41; n++) {
            double M[8 * 41], v[41], y[9], want[8];
            rng = (uint64_t)(n + 2) * 977;
            for (int i = 0; i < 8 * 41; i++)
                M[i] = next_value(true);
            for (int i = 0; i < 41; i++)
                v[i] = next_value(false);
            for (int k = 0; k < 9; k++)
                y[k] = k - 3.5;
            for (int k = 0; k < 8; k++) {
                want[k] = y[k];
                for (int64_t j = 0; j < n; j++) {
                    volatile double p = M[k * n + j] * v[j];
                    want[k] += p;
                }
            }
            f(M, v, y, n);
            for (int k = 0; k < 8; k++)
                if (!(isnan(want[k]) ? isnan(y[k])
                                     : memcmp(&want[k], &y[k], 8) == 0))
                    uf_fail_at(__FILE__, __LINE__,
                               "%d bytes, n %lld, row %d: %a, C %a",
                               bytes[b], (long long)n, k, y[k], want[k]);
        }
    }
}

/* Loops that are not exactly the pattern stay as they are, byte for
 * byte of their IR. */
static void test_rewrite_refuses(void **state)
{
    (void)state;
    static const struct {
        int rows, bytes;
        enum shape sh;
    } c[] = {
        {8, 64, STORE_IN_LOOP}, {8, 64, FSUB}, {8, 64, STRIDE_2},
        {6, 64, PATTERN}, /* 6 rows: no whole group of 8 */
        {6, 32, PATTERN}, /* nor of 4 */
        {8, 16, PATTERN}, /* SSE's 2 lanes: four groups, rewritten */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        uf__lower L;
        uf_error err;
        assert_int_equal(uf__jit_begin(jit, &L, &err), 0);
        build_rows(&L, "rows", c[i].rows, c[i].sh);
        LLVMValueRef fn = LLVMGetNamedFunction(L.mod, "rows");
        char *before = LLVMPrintModuleToString(L.mod);
        int n = uf__gufunc_transpose(L.mod, fn, c[i].bytes, 4096);
        char *after = LLVMPrintModuleToString(L.mod);
        bool expect = c[i].sh == PATTERN && c[i].rows % (c[i].bytes / 8) == 0;
        if (n != (expect ? 1 : 0))
            uf_fail_at(__FILE__, __LINE__, "case %zu: %d loops rewritten", i,
                       n);
        if (!expect)
            assert_string_equal(before, after);
        LLVMDisposeMessage(before);
        LLVMDisposeMessage(after);
        uf__jit_abort(&L);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float64),
        cmocka_unit_test(test_float32),
        cmocka_unit_test(test_special),
        cmocka_unit_test(test_not_the_pattern),
        cmocka_unit_test(test_assembly),
    };
    const struct CMUnitTest pass[] = {
        cmocka_unit_test(test_rewrite_runs),
        cmocka_unit_test(test_rewrite_refuses),
    };
    int failed = cmocka_run_group_tests(tests, setup, teardown);
    return failed + cmocka_run_group_tests(pass, jit_setup, jit_teardown);
}
