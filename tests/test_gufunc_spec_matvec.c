/* The jammed and prefetched gufunc variant (compiler/host/jit_gufunc_spec.c,
 * jit_gufunc_spec_prefetch.c) on matvec (m,n),(n)->(m) float64: every
 * y[i] is the sum over j in order (no reassociation, no contraction), so
 * the variant must give a C loop's bytes, the generic loop's bytes, on
 * cpu and parallel: at the real specialisation threshold (64x64, 1100
 * iterations) and, with the threshold off, odd m and n (the jam's and the
 * unroll's remainders), F-ordered, strided, negative-stride and broadcast
 * operands, NaN and infinities. The variant's assembly has prefetches
 * (the generic loop none). The prefetch pass alone: on a hand-built loop
 * it unrolls and prefetches one line per stream per trip, leaves
 * same-address loads alone, keeps results, and reports a bad pipeline. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "host_jit.h"
#include "test_util.h"

#include "common/alloc.h"
#include "compiler/host/jit_gufunc_spec.h"
#include "compiler/lower/lower.h"
#include "compiler/module.h"
#include "gufunc/gufunc_internal.h"
#include "gufunc/gufunc_specialise.h"

static const char src[] =
    "from numba import guvectorize\n"
    "@guvectorize(['void(float64[:,:], float64[:], float64[:])'],\n"
    "             '(m,n),(n)->(m)')\n"
    "def matvec(M, v, y):\n"
    "    for i in range(M.shape[0]):\n"
    "        acc = 0.0\n"
    "        for j in range(M.shape[1]):\n"
    "            acc += M[i, j] * v[j]\n"
    "        y[i] = acc\n";

static uf_context *ctx;
static uf_module *mod;
static uf_func *matvec;

static int setup(void **state)
{
    uf_error err;
    (void)state;
    ctx = uf_context_new(&err);
    mod = ctx ? uf_module_from_string(ctx, "mv.py", src, &err) : NULL;
    matvec = mod ? uf_module_get(mod, "matvec", &err) : NULL;
    uf_assert_ok(matvec != NULL, &err);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    uf__gufunc_spec_set_min_work(UF__GUFUNC_SPEC_MIN_WORK);
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

static int compiled(void)
{
    const uf__ufunc_loop *l = uf__gufunc_get_loop(matvec->gufunc, 0);
    return l ? uf__gufunc_variants_compiled(l) : 0;
}

/* ---- operands ------------------------------------------------------------ */

static uint64_t rng;

static double next_value(void)
{
    static const double odd[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0};
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    if (rng % 211 == 3)
        return odd[(rng >> 20) % 5];
    return -10.0 + 20.0 * (double)(rng >> 11) / 9007199254740992.0;
}

/* A float64 array of `shape`, then the view `slice` (or none), then with
 * its last two axes swapped when `swap` (F-ordered core). */
static uf_array *make(int ndim, const int64_t *shape, const char *slice,
                      bool swap, uint64_t seed)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, ndim, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    rng = seed * 0x9E3779B97F4A7C15ull + 11;
    double *p = uf_array_data(a);
    for (int64_t i = 0; i < uf_array_size(a); i++)
        p[i] = next_value();
    if (slice) {
        uf_array *v = uf_array_slice(a, slice, &err);
        uf_assert_ok(v != NULL, &err);
        uf_array_release(a);
        a = v;
    }
    if (swap) {
        int axes[8];
        for (int k = 0; k < ndim; k++)
            axes[k] = k;
        axes[ndim - 1] = ndim - 2;
        axes[ndim - 2] = ndim - 1;
        uf_array *t = uf_array_transpose(a, axes, &err);
        uf_assert_ok(t != NULL, &err);
        uf_array_release(a);
        a = t;
    }
    return a;
}

static double at(const uf_array *a, const int64_t *ix)
{
    const char *p = uf_array_data(a);
    for (int k = 0; k < uf_array_ndim(a); k++)
        p += ix[k] * uf_array_strides(a)[k];
    return *(const double *)p;
}

/* y = M v in C, each row summed in order; M (b,m,n) or (m,n), v (b,n) or
 * (n) broadcast; y C-ordered (b,m). */
static uf_array *reference(const uf_array *M, const uf_array *v)
{
    uf_error err;
    int mb = uf_array_ndim(M) == 3, vb = uf_array_ndim(v) == 2;
    const int64_t *ms = uf_array_shape(M);
    int64_t b = mb ? ms[0] : vb ? uf_array_shape(v)[0] : 1;
    int64_t m = ms[mb], n = ms[mb + 1];
    int64_t shape[2] = {b, m};
    uf_array *y = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(y != NULL, &err);
    double *out = uf_array_data(y);
    for (int64_t k = 0; k < b; k++)
        for (int64_t i = 0; i < m; i++) {
            double acc = 0.0;
            for (int64_t j = 0; j < n; j++) {
                int64_t mi[3] = {k, i, j}, mi2[2] = {i, j};
                int64_t vi[2] = {k, j}, vi1[1] = {j};
                /* volatile: a product rounded on its own, as the kernel
                 * (no contraction into an FMA) */
                volatile double prod = at(M, mb ? mi : mi2) *
                                       at(v, vb ? vi : vi1);
                acc += prod;
            }
            out[k * m + i] = acc;
        }
    return y;
}

/* The C loop's values: bit for bit, except that NaNs only have to be NaN
 * (when two meet in an add, which one's sign and payload come out depends
 * on the operand order the compiler picked, the C test's or LLVM's). */
static void assert_values(int line, const uf_array *want,
                          const uf_array *got)
{
    assert_int_equal(uf_array_size(want), uf_array_size(got));
    const double *w = uf_array_data(want), *g = uf_array_data(got);
    for (int64_t k = 0; k < uf_array_size(want); k++)
        if (!(isnan(w[k]) ? isnan(g[k])
                          : memcmp(&w[k], &g[k], sizeof w[k]) == 0))
            uf_fail_at(__FILE__, line, "element %lld: %a, C loop %a",
                       (long long)k, g[k], w[k]);
}

static int call(uf_array *M, uf_array *v, uf_array **y, const char *target,
                uf_error *err)
{
    uf_call_options o = {.size = sizeof o, .target = target,
                         .num_threads = 2};
    uf_array *in[2] = {M, v};
    *y = NULL;
    return uf_call(matvec, in, 2, y, 1, &o, err);
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

/* The generic loop, the C loop and the variant (cpu, parallel) agree bit
 * for bit; `min_work` decides when the variant is used. */
static int check(const mcase *c, int64_t min_work)
{
    uf_error err;
    uf_array *M = make(c->mndim, c->mshape, c->mslice, c->mswap, 1);
    uf_array *v = make(c->vndim, c->vshape, c->vslice, false, 2);
    uf_array *want = reference(M, v), *gen, *got;
    uf__gufunc_spec_set_min_work(-1);
    if (call(M, v, &gen, "cpu", &err) != 0)
        uf_fail_at(__FILE__, c->line, "generic: %s", err.message);
    assert_values(c->line, want, gen);
    uf__gufunc_spec_set_min_work(min_work);
    int before = compiled();
    static const char *const targets[] = {"cpu", "parallel"};
    for (int t = 0; t < 2; t++) {
        if (call(M, v, &got, targets[t], &err) != 0)
            uf_fail_at(__FILE__, c->line, "%s: %s", targets[t], err.message);
        uf_assert_same_bytes(__FILE__, c->line, targets[t], gen, got);
        uf_array_release(got);
    }
    uf__gufunc_spec_set_min_work(UF__GUFUNC_SPEC_MIN_WORK);
    uf_array_release(gen);
    uf_array_release(want);
    uf_array_release(M);
    uf_array_release(v);
    return compiled() - before;
}

/* 64x64 over 1100 iterations: above the default threshold, a variant. */
static void test_threshold(void **state)
{
    (void)state;
    mcase c = {__LINE__, 3, {1100, 64, 64}, NULL, false, 2, {1100, 64},
               NULL};
    assert_int_equal(check(&c, UF__GUFUNC_SPEC_MIN_WORK), 1);
}

static void test_shapes(void **state)
{
    /* core sizes up to 64 (larger ones are never specialised), each
     * shape new: one variant each */
    static const mcase cases[] = {
        /* odd m (jam remainder) and n (unroll remainder) */
        {__LINE__, 3, {7, 63, 61}, NULL, false, 2, {7, 61}, NULL},
        {__LINE__, 3, {5, 13, 57}, NULL, false, 2, {5, 57}, NULL},
        {__LINE__, 3, {9, 3, 7}, NULL, false, 2, {9, 7}, NULL},
        {__LINE__, 3, {6, 1, 9}, NULL, false, 2, {6, 9}, NULL},
        {__LINE__, 3, {6, 9, 1}, NULL, false, 2, {6, 1}, NULL},
        {__LINE__, 3, {4, 64, 64}, NULL, false, 2, {4, 64}, NULL},
        {__LINE__, 3, {3, 62, 9}, NULL, false, 2, {3, 9}, NULL},
        /* F-ordered core of M */
        {__LINE__, 3, {5, 33, 17}, NULL, true, 2, {5, 33}, NULL},
        /* strided: every other column, every other row, reversed */
        {__LINE__, 3, {4, 20, 42}, "...,::2", false, 2, {4, 21}, NULL},
        {__LINE__, 3, {4, 40, 19}, ":,::2", false, 2, {4, 38}, "...,::2"},
        {__LINE__, 3, {4, 19, 23}, "::-1,::-1,::-1", false, 2, {4, 23},
         "...,::-1"},
        /* broadcast: one v for every matrix, one matrix for every v */
        {__LINE__, 3, {6, 31, 29}, NULL, false, 1, {29}, NULL},
        {__LINE__, 2, {30, 29}, NULL, false, 2, {6, 29}, NULL},
        /* zero-size core dimensions */
        {__LINE__, 3, {3, 0, 8}, NULL, false, 2, {3, 8}, NULL},
        {__LINE__, 3, {3, 8, 0}, NULL, false, 2, {3, 0}, NULL},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (check(&cases[i], 0) != 1)
            uf_fail_at(__FILE__, cases[i].line, "no new variant");
}

/* Rows that hit NaN and infinities: inf - inf, NaN payloads through. */
static void test_special(void **state)
{
    uf_error err;
    (void)state;
    int64_t ms[3] = {8, 8, 16}, vs[2] = {8, 16};
    uf_array *M = make(3, ms, NULL, false, 3), *v = make(2, vs, NULL, false,
                                                        4);
    double *m = uf_array_data(M), *x = uf_array_data(v);
    m[0] = INFINITY;
    m[1] = -INFINITY; /* row 0: inf - inf */
    m[16 + 5] = NAN;  /* row 1 */
    x[16 + 3] = INFINITY;
    m[128 + 3 * 16 + 3] = 0.0; /* 0 * inf */
    m[256 + 7 * 16 + 15] = 1e308;
    x[32 + 15] = 1e10; /* overflow in the last step */
    uf_array *want = reference(M, v), *got;
    uf__gufunc_spec_set_min_work(0);
    for (int t = 0; t < 2; t++) {
        assert_int_equal(call(M, v, &got, t ? "parallel" : "cpu", &err), 0);
        assert_values(__LINE__, want, got);
        uf_array_release(got);
    }
    double *w = uf_array_data(want);
    assert_true(isnan(w[0]) && isnan(w[1]) && isnan(w[8 + 3]));
    assert_true(isinf(w[2 * 8 + 7]));
    uf__gufunc_spec_set_min_work(UF__GUFUNC_SPEC_MIN_WORK);
    uf_array_release(want);
    uf_array_release(M);
    uf_array_release(v);
}

/* UFJIT_DUMP_ASSEMBLY's text of the compilations `fn` makes. */
static char *assembly_of(void (*fn)(void))
{
    char path[] = "/tmp/ufjit_spec_asm_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    setenv("UFJIT_DUMP_ASSEMBLY", "1", 1);
    fn();
    unsetenv("UFJIT_DUMP_ASSEMBLY");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    off_t len = lseek(fd, 0, SEEK_END);
    char *s = malloc((size_t)len + 1);
    assert_non_null(s);
    assert_int_equal(pread(fd, s, (size_t)len, 0), len);
    s[len] = '\0';
    close(fd);
    unlink(path);
    return s;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p++)
        n++;
    return n;
}

static uf_array *asm_M, *asm_v;

static void run_once(void)
{
    uf_error err;
    uf_array *y;
    assert_int_equal(call(asm_M, asm_v, &y, "cpu", &err), 0);
    uf_array_release(y);
}

/* The generic loop has no prefetch, the variant has: a 48x40 matvec's
 * inner loop, unrolled 8 times, prefetches each row's line and v's once
 * per trip. */
static void test_prefetched(void **state)
{
    (void)state;
    int64_t ms[3] = {3, 48, 40}, vs[2] = {3, 40};
    asm_M = make(3, ms, NULL, false, 5);
    asm_v = make(2, vs, NULL, false, 6);
    uf__gufunc_spec_set_min_work(-1);
    char *generic = assembly_of(run_once);
    uf__gufunc_spec_set_min_work(0);
    /* the jammed variant whatever the CPU's rule (jit_gufunc_spec.c) */
    setenv("UFJIT_GUFUNC_JAM", "always", 1);
    char *variant = assembly_of(run_once);
    /* and the kernel's own loop, constants in, no prefetch */
    setenv("UFJIT_GUFUNC_JAM", "never", 1);
    ms[1] = 47; /* a core shape with no variant compiled yet */
    uf_array_release(asm_M);
    asm_M = make(3, ms, NULL, false, 5);
    char *plain = assembly_of(run_once);
    unsetenv("UFJIT_GUFUNC_JAM");
    uf__gufunc_spec_set_min_work(UF__GUFUNC_SPEC_MIN_WORK);
    assert_int_equal(count(generic, "prefetch"), 0);
    assert_true(count(variant, "---- assembly ----") >= 1);
    assert_true(count(variant, "prefetcht0") >= 5);
    assert_true(count(plain, "---- assembly ----") >= 1);
    assert_int_equal(count(plain, "prefetch"), 0);
    free(generic);
    free(variant);
    free(plain);
    uf_array_release(asm_M);
    uf_array_release(asm_v);
}

/* ---- the pass on a hand-built loop ---------------------------------------- */

/* double f(double *a, double *b, double *c, i64 n):
 *     s = 0; for i in 0..n: s = s + a[i] * b[2i] + c[0]; c[1] = s; ret s
 * (c[0] the same address every trip: reloaded, after the store, never
 * prefetched) */
static LLVMValueRef build_loop(uf__lower *L, const char *name)
{
    LLVMContextRef C = L->ctx;
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(C),
                i64 = LLVMInt64TypeInContext(C),
                pd = LLVMPointerType(f64, 0);
    LLVMTypeRef params[4] = {pd, pd, pd, i64};
    LLVMValueRef fn = LLVMAddFunction(L->mod, name,
                                      LLVMFunctionType(f64, params, 4, 0));
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(C, fn, "entry"),
                      loop = LLVMAppendBasicBlockInContext(C, fn, "loop"),
                      exit = LLVMAppendBasicBlockInContext(C, fn, "exit");
    LLVMBuilderRef B = L->b;
    LLVMValueRef zero = LLVMConstInt(i64, 0, 0), one = LLVMConstInt(i64, 1, 0),
                 two = LLVMConstInt(i64, 2, 0), fz = LLVMConstReal(f64, 0.0);
    LLVMPositionBuilderAtEnd(B, entry);
    LLVMValueRef n = LLVMGetParam(fn, 3);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGT, n, zero, ""), loop,
                    exit);
    LLVMPositionBuilderAtEnd(B, loop);
    LLVMValueRef i = LLVMBuildPhi(B, i64, "i"), s = LLVMBuildPhi(B, f64, "s");
    LLVMValueRef a = LLVMBuildLoad2(
        B, f64, LLVMBuildInBoundsGEP2(B, f64, LLVMGetParam(fn, 0), &i, 1, ""),
        "a");
    LLVMValueRef i2 = LLVMBuildMul(B, i, two, "");
    LLVMValueRef b = LLVMBuildLoad2(
        B, f64,
        LLVMBuildInBoundsGEP2(B, f64, LLVMGetParam(fn, 1), &i2, 1, ""), "b");
    LLVMValueRef c0 = LLVMBuildLoad2(B, f64, LLVMGetParam(fn, 2), "c0");
    LLVMValueRef s2 = LLVMBuildFAdd(
        B, LLVMBuildFAdd(B, s, LLVMBuildFMul(B, a, b, ""), ""), c0, "s2");
    LLVMBuildStore(B, s2,
                   LLVMBuildInBoundsGEP2(B, f64, LLVMGetParam(fn, 2), &one, 1,
                                         ""));
    LLVMValueRef i1 = LLVMBuildAdd(B, i, one, "i1");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i1, n, ""), loop, exit);
    LLVMValueRef iv[2] = {zero, i1}, sv[2] = {fz, s2};
    LLVMBasicBlockRef from[2] = {entry, loop};
    LLVMAddIncoming(i, iv, from, 2);
    LLVMAddIncoming(s, sv, from, 2);
    LLVMPositionBuilderAtEnd(B, exit);
    LLVMValueRef r = LLVMBuildPhi(B, f64, "r");
    LLVMValueRef rv[2] = {fz, s2};
    LLVMAddIncoming(r, rv, from, 2);
    LLVMBuildRet(B, r);
    return fn;
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

typedef double (*loop_fn)(double *, double *, double *, int64_t);

static void test_pass(void **state)
{
    uf__lower L;
    uf_error err;
    (void)state;
    assert_int_equal(uf__jit_begin(jit, &L, &err), 0);
    char name[64];
    snprintf(name, sizeof name, "%s_f", L.prefix);
    build_loop(&L, name);
    assert_int_equal(uf__jit_gufunc_prefetch(jit, &L, "function(instcombine)",
                                             name, 8, 4096, &err),
                     0);
    char *ir = LLVMPrintModuleToString(L.mod);
    /* the loop unrolled 8 times: a's 8 doubles a line, b's 16 two; its
     * remainder loop (one trip a time): one each; c[0] none */
    int calls = count(ir, "call void @llvm.prefetch");
    assert_non_null(strstr(ir, "unroll_iter"));
    LLVMDisposeMessage(ir);
    assert_int_equal(calls, 5);
    L.passes = "verify";
    const char *names[1] = {name};
    void *addr = NULL;
    assert_int_equal(uf__jit_finish(jit, &L, names, &addr, 1, NULL, &err), 0);
    loop_fn f = (loop_fn)(uintptr_t)addr;
    for (int64_t n = 0; n < 40; n += 3) { /* remainders of the unroll */
        double a[40], b[80], c[2] = {0.25, 0}, s = 0;
        for (int k = 0; k < 80; k++) {
            b[k] = 0.5 * k - 7;
            if (k < 40)
                a[k] = 1.0 / (k + 1);
        }
        for (int64_t k = 0; k < n; k++) {
            volatile double p = a[k] * b[2 * k];
            s = s + p + 0.25;
        }
        double got = f(a, b, c, n);
        assert_memory_equal(&got, &s, sizeof s);
    }
}

/* A pipeline LLVM cannot parse is an error, the module left to abort. */
static void test_bad_pipeline(void **state)
{
    uf__lower L;
    uf_error err;
    (void)state;
    assert_int_equal(uf__jit_begin(jit, &L, &err), 0);
    build_loop(&L, "f");
    assert_int_equal(
        uf__jit_gufunc_prefetch(jit, &L, "no-such-pass", "f", 8, 4096, &err),
        UF_ERR_INTERNAL);
    assert_non_null(strstr(err.message, "LLVM optimisation"));
    uf__jit_abort(&L);
    /* no function of that name / no distance: optimised, nothing added */
    assert_int_equal(uf__jit_begin(jit, &L, &err), 0);
    build_loop(&L, "f");
    assert_int_equal(uf__jit_gufunc_prefetch(jit, &L, "function(instcombine)",
                                             "g", 8, 4096, &err),
                     0);
    assert_int_equal(uf__jit_gufunc_prefetch(jit, &L, "function(instcombine)",
                                             "f", 8, 0, &err),
                     0);
    char *ir = LLVMPrintModuleToString(L.mod);
    assert_null(strstr(ir, "llvm.prefetch"));
    LLVMDisposeMessage(ir);
    uf__jit_abort(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_threshold, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shapes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_special, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefetched, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pass, jit_setup, jit_teardown),
        cmocka_unit_test_setup_teardown(test_bad_pipeline, jit_setup,
                                        jit_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
