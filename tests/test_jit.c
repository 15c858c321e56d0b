/* The host JIT and the emission helpers, on hand-built kernels: each test
 * builds a scalar kernel with the lowering's operator/math helpers, wraps
 * it in the ufunc loop (uf__lower_loop), compiles it with the JIT and runs
 * it over C arrays, contiguous and strided.
 *
 * Expectations are Python's semantics: reference implementations in C for
 * integers, and rows printed by Python 3.11 / Numba 0.68 (pasted as table
 * rows, each with its file:line) where the float or complex value matters
 * to the last bit. */
#include <complex.h>
#include <math.h>
#include <pthread.h>
#include <time.h>

#include "test_util.h"

#include "common/alloc.h"
#include "compiler/lower.h"

static uf__jit *jit;

/* Compile times of every kernel of this file, for the summary. */
static double compile_ms[512];
static int ncompiles;
static bool record_times = true; /* off while several threads compile */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int setup(void **state)
{
    (void)state;
    uf_error err;
    double t0 = now_ms();
    jit = uf__jit_new(&err);
    if (!jit) {
        print_error("uf__jit_new: %s\n", err.message);
        return -1;
    }
    print_message("[ INFO     ] JIT created in %.2f ms for %s\n",
                  now_ms() - t0, uf__jit_host_cpu(jit));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    uf__jit_free(jit);
    jit = NULL;
    return 0;
}

/* ---- building kernels ---------------------------------------------------- */

/* Emits the kernel's result from its arguments. */
typedef LLVMValueRef (*body_fn)(uf__fn *F, LLVMValueRef *args,
                                const void *ud);

typedef struct kspec {
    int nin;
    uf_dtype in[4];
    uf_dtype res; /* the kernel's result */
    uf_dtype out; /* the loop's output (converted from res) */
    bool python; /* Python's error model: fallible, statuses */
    body_fn body;
    const void *ud;
} kspec;

/* Builds and compiles `loop(kernel)`; NULL with the error printed. */
static uf__strided_loop compile_spec(const kspec *s, uf__jit_listing *lst)
{
    uf__lower L;
    uf_error err;
    double t0 = now_ms();
    if (uf__jit_begin(jit, &L, &err) != 0)
        return NULL;
    LLVMTypeRef rt = uf__lower_dtype(&L, s->res);
    LLVMTypeRef params[5];
    unsigned np = 0;
    if (s->python)
        params[np++] = LLVMPointerType(rt, 0);
    for (int i = 0; i < s->nin; i++)
        params[np++] = uf__lower_dtype(&L, s->in[i]);
    LLVMTypeRef fty = LLVMFunctionType(
        s->python ? LLVMInt32TypeInContext(L.ctx) : rt, params, np, 0);
    char kname[64], lname[64];
    snprintf(kname, sizeof kname, "%s_kernel", L.prefix);
    snprintf(lname, sizeof lname, "%s_loop", L.prefix);
    LLVMValueRef fn = LLVMAddFunction(L.mod, kname, fty);
    uf__lower_kernel_attrs(&L, fn);
    uf__fn F;
    uf__fn_begin(&F, &L, fn, s->python, !s->python, &err);
    LLVMValueRef args[4];
    for (int i = 0; i < s->nin; i++)
        args[i] = LLVMGetParam(fn, (unsigned)i + (s->python ? 1 : 0));
    LLVMValueRef v = s->body(&F, args, s->ud);
    if (!v) {
        print_error("kernel body failed: %s\n", err.message);
        uf__fn_end(&F);
        uf__jit_abort(&L);
        return NULL;
    }
    if (s->python) {
        LLVMBuildStore(L.b, v, LLVMGetParam(fn, 0));
        LLVMBuildRet(L.b, LLVMConstNull(LLVMInt32TypeInContext(L.ctx)));
    } else {
        LLVMBuildRet(L.b, v);
    }
    uf__fn_end(&F);
    if (!uf__lower_loop(&L, fn, s->python, s->in, s->nin, &s->res, 1, false,
                        &s->out, lname, &err)) {
        print_error("loop: %s\n", err.message);
        uf__jit_abort(&L);
        return NULL;
    }
    const char *names[1] = {lname};
    void *addr = NULL;
    if (uf__jit_finish(jit, &L, names, &addr, 1, lst, &err) != 0) {
        print_error("jit: %s\n", err.message);
        return NULL;
    }
    if (record_times &&
        ncompiles < (int)(sizeof compile_ms / sizeof compile_ms[0]))
        compile_ms[ncompiles++] = now_ms() - t0;
    return (uf__strided_loop)(uintptr_t)addr;
}

static uf__strided_loop compile_or_fail(const kspec *s)
{
    uf__strided_loop fn = compile_spec(s, NULL);
    assert_non_null(fn);
    return fn;
}

/* Runs a loop over n elements; operands given with byte strides. */
static int run(uf__strided_loop fn, int nops, void **ptrs,
               const int64_t *strides, int64_t n)
{
    char *data[8];
    for (int k = 0; k < nops; k++)
        data[k] = ptrs[k];
    int64_t dims[1] = {n};
    return fn(NULL, data, dims, strides, NULL);
}

/* Runs a 2-input loop twice: contiguous, and through buffers of twice the
 * itemsize stride (the strided path); checks both give `out`. */
static int run2_both(uf__strided_loop fn, const void *a, const void *b,
                     void *out, int64_t n, size_t ia, size_t ib, size_t io)
{
    void *p[3] = {(void *)a, (void *)b, out};
    int64_t s[3] = {(int64_t)ia, (int64_t)ib, (int64_t)io};
    int rc = run(fn, 3, p, s, n);
    if (rc != 0)
        return rc;
    char *sa = calloc((size_t)n + 1, 2 * ia), *sb = calloc((size_t)n + 1, 2 * ib);
    char *so = calloc((size_t)n + 1, 2 * io);
    for (int64_t i = 0; i < n; i++) {
        memcpy(sa + 2 * ia * (size_t)i, (const char *)a + ia * (size_t)i, ia);
        memcpy(sb + 2 * ib * (size_t)i, (const char *)b + ib * (size_t)i, ib);
    }
    void *q[3] = {sa, sb, so};
    int64_t t[3] = {(int64_t)(2 * ia), (int64_t)(2 * ib), (int64_t)(2 * io)};
    rc = run(fn, 3, q, t, n);
    int same = 1;
    for (int64_t i = 0; i < n && rc == 0; i++)
        if (memcmp(so + 2 * io * (size_t)i, (char *)out + io * (size_t)i, io))
            same = 0;
    free(sa);
    free(sb);
    free(so);
    if (rc == 0 && !same) {
        print_error("strided and contiguous results differ\n");
        return -1;
    }
    return rc;
}

/* ---- bodies --------------------------------------------------------------- */

typedef struct binop_ud {
    uf__binop op;
    uf_dtype dt;
} binop_ud;

static LLVMValueRef body_binop(uf__fn *F, LLVMValueRef *a, const void *ud)
{
    const binop_ud *u = ud;
    return uf__emit_binop(F, u->op, u->dt, a[0], a[1]);
}

typedef struct cast_ud {
    uf_dtype from, to;
} cast_ud;

static LLVMValueRef body_cast(uf__fn *F, LLVMValueRef *a, const void *ud)
{
    const cast_ud *u = ud;
    return uf__emit_cast(F, a[0], u->from, u->to);
}

typedef struct cmp_ud {
    uf__cmpop op;
    uf_dtype dt;
} cmp_ud;

static LLVMValueRef body_cmp(uf__fn *F, LLVMValueRef *a, const void *ud)
{
    const cmp_ud *u = ud;
    return uf__emit_cmp(F, u->op, u->dt, a[0], a[1]);
}

typedef struct math_ud {
    uf__builtin bi;
    uf_dtype dt;
    int nargs;
} math_ud;

static LLVMValueRef body_math(uf__fn *F, LLVMValueRef *a, const void *ud)
{
    const math_ud *u = ud;
    return uf__emit_math(F, u->bi, u->dt, a, u->nargs);
}

static LLVMValueRef body_pow_int(uf__fn *F, LLVMValueRef *a, const void *ud)
{
    const uf_dtype *dt = ud;
    return uf__emit_pow_int(F, *dt, a[0], UF_INT64, a[1]);
}

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
        uf__jit *j = uf__jit_new(&err);
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

/* ---- integer arithmetic: Python semantics --------------------------------- */

static int64_t py_floordiv(int64_t a, int64_t b)
{
    if (b == 0 || (a == INT64_MIN && b == -1))
        return 0; /* NumPy model / Numba's guard */
    int64_t q = a / b, r = a % b;
    return (r != 0 && ((r ^ b) < 0)) ? q - 1 : q;
}

static int64_t py_mod(int64_t a, int64_t b)
{
    if (b == 0 || (a == INT64_MIN && b == -1))
        return 0;
    int64_t r = a % b;
    return (r != 0 && ((r ^ b) < 0)) ? r + b : r;
}

static const int64_t int_operands[] = {
    0, 1, -1, 2, -2, 3, -3, 7, -7, 10, -10, 255, -256, 1000003,
    INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1,
};

static void test_int64_ops(void **state)
{
    (void)state;
    enum { N = sizeof int_operands / sizeof int_operands[0] };
    int64_t a[N * N], b[N * N], out[N * N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i * N + j] = int_operands[i];
            b[i * N + j] = int_operands[j];
        }
    static const uf__binop ops[] = {
        UF__OP_ADD, UF__OP_SUB, UF__OP_MUL, UF__OP_FLOORDIV, UF__OP_MOD,
        UF__OP_BITAND, UF__OP_BITOR, UF__OP_BITXOR,
    };
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        binop_ud u = {ops[o], UF_INT64};
        kspec s = {2, {UF_INT64, UF_INT64}, UF_INT64, UF_INT64, false,
                   body_binop, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        assert_int_equal(run2_both(fn, a, b, out, N * N, 8, 8, 8), 0);
        for (int k = 0; k < N * N; k++) {
            uint64_t ua = (uint64_t)a[k], ub = (uint64_t)b[k];
            int64_t want;
            switch (ops[o]) {
            case UF__OP_ADD: want = (int64_t)(ua + ub); break; /* wraps */
            case UF__OP_SUB: want = (int64_t)(ua - ub); break;
            case UF__OP_MUL: want = (int64_t)(ua * ub); break;
            case UF__OP_FLOORDIV: want = py_floordiv(a[k], b[k]); break;
            case UF__OP_MOD: want = py_mod(a[k], b[k]); break;
            case UF__OP_BITAND: want = a[k] & b[k]; break;
            case UF__OP_BITOR: want = a[k] | b[k]; break;
            default: want = a[k] ^ b[k]; break;
            }
            if (out[k] != want)
                fail_msg("op %d: %lld, %lld -> %lld, want %lld", (int)ops[o],
                         (long long)a[k], (long long)b[k], (long long)out[k],
                         (long long)want);
        }
    }
}

/* Narrow and unsigned types wrap in their own width; // and % on unsigned
 * are plain udiv/urem. */
static void test_narrow_ints(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf_dtype dt;
        uf__binop op;
        int64_t a, b, want;
    } rows[] = {
        {LOC, UF_INT8, UF__OP_ADD, 127, 1, -128},
        {LOC, UF_INT8, UF__OP_MUL, 64, 2, -128},
        {LOC, UF_INT8, UF__OP_FLOORDIV, -128, -1, 0}, /* Numba: 0 */
        {LOC, UF_INT8, UF__OP_FLOORDIV, -7, 2, -4},
        {LOC, UF_INT8, UF__OP_MOD, -7, 2, 1},
        {LOC, UF_INT16, UF__OP_SUB, -32768, 1, 32767},
        {LOC, UF_INT32, UF__OP_MUL, 65536, 65536, 0},
        {LOC, UF_INT32, UF__OP_MOD, 7, -3, -2},
        {LOC, UF_UINT8, UF__OP_ADD, 255, 1, 0},
        {LOC, UF_UINT8, UF__OP_SUB, 0, 1, 255},
        {LOC, UF_UINT8, UF__OP_FLOORDIV, 200, 7, 28},
        {LOC, UF_UINT8, UF__OP_MOD, 200, 7, 4},
        {LOC, UF_UINT8, UF__OP_MOD, 200, 0, 0},
        {LOC, UF_UINT64, UF__OP_FLOORDIV, -1, 2, INT64_MAX},
        {LOC, UF_UINT32, UF__OP_LSHIFT, 1, 31, 2147483648LL},
        {LOC, UF_UINT32, UF__OP_LSHIFT, 1, 32, 0},
        {LOC, UF_INT64, UF__OP_LSHIFT, 1, 63, INT64_MIN},
        {LOC, UF_INT64, UF__OP_LSHIFT, 1, 64, 0},     /* NumPy: 0 */
        {LOC, UF_INT64, UF__OP_LSHIFT, 1, -1, 0},     /* NumPy: 0 */
        {LOC, UF_INT64, UF__OP_RSHIFT, -8, 1, -4},
        {LOC, UF_INT64, UF__OP_RSHIFT, -8, 64, -1},   /* NumPy: -1 */
        {LOC, UF_INT64, UF__OP_RSHIFT, 8, 100, 0},
        {LOC, UF_UINT64, UF__OP_RSHIFT, -8, 1, INT64_MAX - 3},
        {LOC, UF_INT16, UF__OP_RSHIFT, -32768, 15, -1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uf_dtype dt = rows[i].dt;
        binop_ud u = {rows[i].op, dt};
        kspec s = {2, {dt, dt}, dt, UF_INT64, false, body_binop, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        /* the inputs in their own width, little-endian */
        int64_t a = rows[i].a, b = rows[i].b, out = 0;
        assert_int_equal(run2_both(fn, &a, &b, &out, 1, uf_dtype_itemsize(dt),
                                   uf_dtype_itemsize(dt), 8),
                         0);
        if (out != rows[i].want)
            uf_fail_at(rows[i].file, rows[i].line, "got %lld want %lld",
                       (long long)out, (long long)rows[i].want);
    }
}

/* Integer powers as Numba's vectorize computes them (values printed by
 * Numba 0.68 for @vectorize(['i8(i8,i8)']) def f(a, b): return a ** b). */
static void test_int_pow(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int64_t a, b, want;
    } rows[] = {
        {LOC, 2, 10, 1024},
        {LOC, 3, 0, 1},
        {LOC, -2, 3, -8},
        {LOC, 0, 0, 1},
        {LOC, 2, -1, 0},
        {LOC, 0, -1, INT64_MIN},
        {LOC, 1, -3, 1},
        {LOC, -1, -3, -1},
        {LOC, -1, -2, 1},
        {LOC, 3, 40, -6289078614652622815LL},
        {LOC, 2, 63, INT64_MIN},
        {LOC, 1, 100000, 1},
        {LOC, -1, 100001, -1},
    };
    enum { N = sizeof rows / sizeof rows[0] };
    int64_t a[N], b[N], out[N];
    for (int i = 0; i < N; i++) {
        a[i] = rows[i].a;
        b[i] = rows[i].b;
    }
    binop_ud u = {UF__OP_POW, UF_INT64};
    kspec s = {2, {UF_INT64, UF_INT64}, UF_INT64, UF_INT64, false, body_binop,
               &u};
    uf__strided_loop fn = compile_or_fail(&s);
    assert_int_equal(run2_both(fn, a, b, out, N, 8, 8, 8), 0);
    for (int i = 0; i < N; i++)
        if (out[i] != rows[i].want)
            uf_fail_at(rows[i].file, rows[i].line, "%lld ** %lld = %lld",
                       (long long)a[i], (long long)b[i], (long long)out[i]);
}

/* float ** int by squaring (Numba's int_power): exact for these. */
static void test_float_pow_int(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        double a;
        int64_t b;
        double want;
    } rows[] = {
        {LOC, 2.0, -2, 0.25},  {LOC, 1.5, 3, 3.375},   {LOC, -2.0, 3, -8.0},
        {LOC, 10.0, 22, 1e22}, {LOC, 0.0, -1, INFINITY}, {LOC, 7.0, 0, 1.0},
        {LOC, NAN, 0, 1.0},    {LOC, -0.0, 3, -0.0},
    };
    enum { N = sizeof rows / sizeof rows[0] };
    double a[N], out[N];
    int64_t b[N];
    for (int i = 0; i < N; i++) {
        a[i] = rows[i].a;
        b[i] = rows[i].b;
    }
    uf_dtype dt = UF_FLOAT64;
    kspec s = {2, {UF_FLOAT64, UF_INT64}, UF_FLOAT64, UF_FLOAT64, false,
               body_pow_int, &dt};
    uf__strided_loop fn = compile_or_fail(&s);
    assert_int_equal(run2_both(fn, a, b, out, N, 8, 8, 8), 0);
    for (int i = 0; i < N; i++)
        if (memcmp(&out[i], &rows[i].want, 8) != 0)
            uf_fail_at(rows[i].file, rows[i].line, "got %.17g want %.17g",
                       out[i], rows[i].want);
}

/* ---- float arithmetic ----------------------------------------------------- */

static bool same_double(double x, double y)
{
    return (isnan(x) && isnan(y)) || memcmp(&x, &y, sizeof x) == 0;
}

/* Rows printed by Python 3.11: a, b, a // b, a % b. */
static const struct fdm_row {
    const char *file;
    int line;
    double a, b, q, m;
} float_divmod_rows[] = {
    {LOC, 7.0, 2.0, 3.0, 1.0},
    {LOC, -7.0, 2.0, -4.0, 1.0},
    {LOC, 7.0, -2.0, -4.0, -1.0},
    {LOC, -7.0, -2.0, 3.0, -1.0},
    {LOC, 5.5, 2.0, 2.0, 1.5},
    {LOC, -5.5, 2.0, -3.0, 0.5},
    {LOC, 0.0, 3.0, 0.0, 0.0},
    {LOC, -0.0, 3.0, -0.0, 0.0},
    {LOC, 0.0, -3.0, -0.0, -0.0},
    {LOC, -0.0, -3.0, 0.0, -0.0},
    {LOC, 1.0, -INFINITY, -1.0, -INFINITY},
    {LOC, -1.0, INFINITY, -1.0, INFINITY},
    {LOC, 7.0, INFINITY, 0.0, 7.0},
    {LOC, INFINITY, 2.0, NAN, NAN},
    {LOC, NAN, 2.0, NAN, NAN},
    {LOC, 2.0, NAN, NAN, NAN},
    {LOC, 1e+308, 1e-308, INFINITY, 3.498445546245627e-309},
    {LOC, 0.3, 0.1, 2.0, 0.09999999999999998},
    {LOC, -0.3, 0.1, -3.0, 2.7755575615628914e-17},
    {LOC, 3.0, 0.5, 6.0, 0.0},
    /* NumPy's error model (Numba's vectorize): a // 0 is a / 0, a % 0 is
     * NaN */
    {LOC, 1.0, 0.0, INFINITY, NAN},
    {LOC, -1.0, 0.0, -INFINITY, NAN},
    {LOC, 0.0, 0.0, NAN, NAN},
    {LOC, 1.0, -0.0, -INFINITY, NAN},
};

static void check_float_divmod(uf_dtype dt)
{
    enum { N = sizeof float_divmod_rows / sizeof float_divmod_rows[0] };
    size_t isz = uf_dtype_itemsize(dt);
    double a[N], b[N], q[N], m[N];
    float af[N], bf[N], qf[N], mf[N];
    for (int i = 0; i < N; i++) {
        a[i] = float_divmod_rows[i].a;
        b[i] = float_divmod_rows[i].b;
        af[i] = (float)a[i];
        bf[i] = (float)b[i];
    }
    for (int w = 0; w < 2; w++) {
        binop_ud u = {w ? UF__OP_MOD : UF__OP_FLOORDIV, dt};
        kspec s = {2, {dt, dt}, dt, dt, false, body_binop, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        if (dt == UF_FLOAT64)
            assert_int_equal(run2_both(fn, a, b, w ? m : q, N, 8, 8, 8), 0);
        else
            assert_int_equal(run2_both(fn, af, bf, w ? mf : qf, N, isz, isz,
                                       isz),
                             0);
    }
    for (int i = 0; i < N; i++) {
        const struct fdm_row *r = &float_divmod_rows[i];
        if (dt == UF_FLOAT64) {
            if (!same_double(q[i], r->q) || !same_double(m[i], r->m))
                uf_fail_at(r->file, r->line, "%g // %g = %.17g, %% = %.17g",
                           r->a, r->b, q[i], m[i]);
        } else if (fabs(r->a) < 1e30 && fabs(r->b) > 1e-30 &&
                   r->a != 0.3 && r->a != -0.3) {
            /* float32: the same rows where the values are exact in float */
            if (!same_double(qf[i], (float)r->q) ||
                !same_double(mf[i], (float)r->m))
                uf_fail_at(r->file, r->line, "f32 %g // %g = %g, %% = %g",
                           r->a, r->b, (double)qf[i], (double)mf[i]);
        }
    }
}

static void test_float_divmod(void **state)
{
    (void)state;
    check_float_divmod(UF_FLOAT64);
    check_float_divmod(UF_FLOAT32);
}

static void test_float_ops(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf__binop op;
        double a, b, want;
    } rows[] = {
        {LOC, UF__OP_DIV, 1.0, 0.0, INFINITY},
        {LOC, UF__OP_DIV, -1.0, 0.0, -INFINITY},
        {LOC, UF__OP_DIV, 0.0, 0.0, NAN},
        {LOC, UF__OP_DIV, 1.0, -0.0, -INFINITY},
        {LOC, UF__OP_ADD, INFINITY, -INFINITY, NAN},
        {LOC, UF__OP_MUL, 0.0, -1.0, -0.0},
        {LOC, UF__OP_SUB, 0.1, 0.3, -0.19999999999999998},
        {LOC, UF__OP_POW, 2.0, 0.5, 1.4142135623730951},
        {LOC, UF__OP_POW, -8.0, 1.0 / 3.0, NAN},
        {LOC, UF__OP_POW, 0.0, -1.0, INFINITY},
        {LOC, UF__OP_POW, NAN, 0.0, 1.0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        binop_ud u = {rows[i].op, UF_FLOAT64};
        kspec s = {2, {UF_FLOAT64, UF_FLOAT64}, UF_FLOAT64, UF_FLOAT64, false,
                   body_binop, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        double out;
        assert_int_equal(run2_both(fn, &rows[i].a, &rows[i].b, &out, 1, 8, 8,
                                   8),
                         0);
        if (!same_double(out, rows[i].want))
            uf_fail_at(rows[i].file, rows[i].line, "got %.17g", out);
    }
    /* true division of ints is float64 */
    binop_ud u = {UF__OP_DIV, UF_INT64};
    kspec s = {2, {UF_INT64, UF_INT64}, UF_FLOAT64, UF_FLOAT64, false,
               body_binop, &u};
    uf__strided_loop fn = compile_or_fail(&s);
    int64_t a[4] = {7, -7, 1, 0}, b[4] = {2, 2, 0, 0};
    double out[4];
    assert_int_equal(run2_both(fn, a, b, out, 4, 8, 8, 8), 0);
    assert_true(out[0] == 3.5 && out[1] == -3.5 && isinf(out[2]) &&
                isnan(out[3]));
}

/* ---- Python's error model: statuses --------------------------------------- */

static void test_python_model_raises(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf_dtype dt, res;
        uf__binop op;
        double a, b;
        int status;
    } rows[] = {
        {LOC, UF_INT64, UF_INT64, UF__OP_FLOORDIV, 1, 0, UF__JIT_ZERODIV_INT},
        {LOC, UF_INT64, UF_INT64, UF__OP_MOD, 1, 0, UF__JIT_ZEROMOD_INT},
        {LOC, UF_INT64, UF_FLOAT64, UF__OP_DIV, 1, 0, UF__JIT_ZERODIV},
        {LOC, UF_FLOAT64, UF_FLOAT64, UF__OP_DIV, 1, 0, UF__JIT_ZERODIV},
        {LOC, UF_FLOAT64, UF_FLOAT64, UF__OP_FLOORDIV, 1, 0, UF__JIT_ZERODIV},
        {LOC, UF_FLOAT64, UF_FLOAT64, UF__OP_MOD, 1, -0.0, UF__JIT_ZEROMOD},
        {LOC, UF_INT64, UF_INT64, UF__OP_POW, 0, -2, UF__JIT_ZEROPOW},
        {LOC, UF_INT64, UF_INT64, UF__OP_FLOORDIV, 7, 2, 0},
        {LOC, UF_FLOAT64, UF_FLOAT64, UF__OP_MOD, 7, 2, 0},
        {LOC, UF_INT64, UF_INT64, UF__OP_POW, 0, 2, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uf_dtype dt = rows[i].dt;
        binop_ud u = {rows[i].op, dt};
        kspec s = {2, {dt, dt}, rows[i].res, UF_FLOAT64, true, body_binop, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        union {
            int64_t i;
            double f;
        } a[3], b[3];
        double out[3];
        for (int k = 0; k < 3; k++) {
            /* the failing element in the middle: the loop stops there */
            bool bad = k == 1;
            double av = bad ? rows[i].a : 1, bv = bad ? rows[i].b : 1;
            if (dt == UF_INT64) {
                a[k].i = (int64_t)av;
                b[k].i = (int64_t)bv;
            } else {
                a[k].f = av;
                b[k].f = bv;
            }
        }
        out[2] = -123.0;
        void *p[3] = {a, b, out};
        int64_t st[3] = {8, 8, 8};
        int rc = run(fn, 3, p, st, 3);
        if (rc != rows[i].status)
            uf_fail_at(rows[i].file, rows[i].line, "status %d, want %d", rc,
                       rows[i].status);
        if (rc != 0 && out[2] != -123.0)
            uf_fail_at(rows[i].file, rows[i].line,
                       "the loop ran past the failing element");
    }
}

/* ---- conversions ------------------------------------------------------------ */

static void test_casts(void **state)
{
    (void)state;
    /* value in (as double or int64 bits), expected out as int64 or double */
    static const struct {
        const char *file;
        int line;
        uf_dtype from, to;
        double fin;
        int64_t iin;
        double fwant;
        int64_t iwant;
    } rows[] = {
        {LOC, UF_FLOAT64, UF_INT64, 3.7, 0, 0, 3},
        {LOC, UF_FLOAT64, UF_INT64, -3.7, 0, 0, -3},
        {LOC, UF_FLOAT64, UF_INT32, -2147483648.9, 0, 0, -2147483648LL},
        {LOC, UF_FLOAT64, UF_UINT8, 255.9, 0, 0, 255},
        {LOC, UF_FLOAT64, UF_BOOL, NAN, 0, 0, 1},
        {LOC, UF_FLOAT64, UF_BOOL, -0.0, 0, 0, 0},
        {LOC, UF_FLOAT64, UF_FLOAT32, 0.1, 0, (double)0.1f, 0},
        {LOC, UF_FLOAT32, UF_FLOAT64, 0.1, 0, (double)0.1f, 0},
        {LOC, UF_INT64, UF_INT8, 0, 300, 0, 44},
        {LOC, UF_INT64, UF_INT16, 0, -32769, 0, 32767},
        {LOC, UF_INT8, UF_INT64, 0, -5, 0, -5},
        {LOC, UF_UINT8, UF_INT64, 0, 200, 0, 200},
        {LOC, UF_INT8, UF_UINT16, 0, -1, 0, 65535},
        {LOC, UF_INT64, UF_FLOAT64, 0, 9007199254740993LL, 9007199254740992.0,
         0},
        {LOC, UF_UINT64, UF_FLOAT64, 0, -1, 18446744073709551616.0, 0},
        {LOC, UF_INT64, UF_BOOL, 0, 256, 0, 1},
        {LOC, UF_INT64, UF_BOOL, 0, 0, 0, 0},
        {LOC, UF_BOOL, UF_FLOAT64, 0, 1, 1.0, 0},
        {LOC, UF_BOOL, UF_INT32, 0, 1, 0, 1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uf_dtype from = rows[i].from, to = rows[i].to;
        bool fout = uf_dtype_kind(to) == 'f';
        cast_ud u = {from, to};
        kspec s = {1, {from}, to, fout ? UF_FLOAT64 : UF_INT64, false,
                   body_cast, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        unsigned char in[8] = {0};
        if (from == UF_FLOAT64) {
            memcpy(in, &rows[i].fin, 8);
        } else if (from == UF_FLOAT32) {
            float f = (float)rows[i].fin;
            memcpy(in, &f, 4);
        } else {
            memcpy(in, &rows[i].iin, 8); /* little-endian: low bytes */
        }
        union {
            int64_t i;
            double f;
        } out;
        void *p[2] = {in, &out};
        int64_t st[2] = {(int64_t)uf_dtype_itemsize(from), 8};
        assert_int_equal(run(fn, 2, p, st, 1), 0);
        if (fout ? !same_double(out.f, rows[i].fwant) : out.i != rows[i].iwant)
            uf_fail_at(rows[i].file, rows[i].line, "got %lld / %.17g",
                       (long long)out.i, out.f);
    }
}

/* Comparisons: NaN is unordered, != is true for it. */
static void test_compare(void **state)
{
    (void)state;
    static const uf__cmpop ops[] = {UF__CMP_EQ, UF__CMP_NE, UF__CMP_LT,
                                    UF__CMP_LE, UF__CMP_GT, UF__CMP_GE};
    static const double vals[] = {-1.0, 0.0, -0.0, 2.5, INFINITY, NAN};
    enum { NV = sizeof vals / sizeof vals[0] };
    double a[NV * NV], b[NV * NV];
    unsigned char out[NV * NV];
    for (int i = 0; i < NV; i++)
        for (int j = 0; j < NV; j++) {
            a[i * NV + j] = vals[i];
            b[i * NV + j] = vals[j];
        }
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        cmp_ud u = {ops[o], UF_FLOAT64};
        kspec s = {2, {UF_FLOAT64, UF_FLOAT64}, UF_BOOL, UF_BOOL, false,
                   body_cmp, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        assert_int_equal(run2_both(fn, a, b, out, NV * NV, 8, 8, 1), 0);
        for (int k = 0; k < NV * NV; k++) {
            double x = a[k], y = b[k];
            bool want = ops[o] == UF__CMP_EQ   ? x == y
                        : ops[o] == UF__CMP_NE ? x != y
                        : ops[o] == UF__CMP_LT ? x < y
                        : ops[o] == UF__CMP_LE ? x <= y
                        : ops[o] == UF__CMP_GT ? x > y
                                               : x >= y;
            if (out[k] != (unsigned char)want)
                fail_msg("cmp %d on %g, %g gave %d", (int)ops[o], x, y,
                         out[k]);
        }
    }
    /* unsigned compare of uint64 values with the top bit set */
    cmp_ud u = {UF__CMP_LT, UF_UINT64};
    kspec s = {2, {UF_UINT64, UF_UINT64}, UF_BOOL, UF_BOOL, false, body_cmp, &u};
    uf__strided_loop fn = compile_or_fail(&s);
    uint64_t x = 1, y = UINT64_MAX;
    unsigned char r;
    assert_int_equal(run2_both(fn, &x, &y, &r, 1, 8, 8, 1), 0);
    assert_int_equal(r, 1);
}

/* ---- math ------------------------------------------------------------------- */

/* Unary math builtins against libm on double and float. */
static void test_math_vs_libm(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf__builtin bi;
        double (*f)(double);
        float (*ff)(float);
        double lo, hi; /* domain sampled */
    } rows[] = {
        {LOC, UF__BI_SIN, sin, sinf, -10, 10},
        {LOC, UF__BI_COS, cos, cosf, -10, 10},
        {LOC, UF__BI_TAN, tan, tanf, -1.5, 1.5},
        {LOC, UF__BI_ASIN, asin, asinf, -1, 1},
        {LOC, UF__BI_ACOS, acos, acosf, -1, 1},
        {LOC, UF__BI_ATAN, atan, atanf, -50, 50},
        {LOC, UF__BI_SINH, sinh, sinhf, -5, 5},
        {LOC, UF__BI_COSH, cosh, coshf, -5, 5},
        {LOC, UF__BI_TANH, tanh, tanhf, -5, 5},
        {LOC, UF__BI_ASINH, asinh, asinhf, -50, 50},
        {LOC, UF__BI_ACOSH, acosh, acoshf, 1, 50},
        {LOC, UF__BI_ATANH, atanh, atanhf, -0.99, 0.99},
        {LOC, UF__BI_EXP, exp, expf, -20, 20},
        {LOC, UF__BI_EXPM1, expm1, expm1f, -1, 1},
        {LOC, UF__BI_LOG, log, logf, 1e-3, 1e3},
        {LOC, UF__BI_LOG1P, log1p, log1pf, -0.5, 10},
        {LOC, UF__BI_LOG2, log2, log2f, 1e-3, 1e3},
        {LOC, UF__BI_LOG10, log10, log10f, 1e-3, 1e3},
        {LOC, UF__BI_SQRT, sqrt, sqrtf, 0, 100},
        {LOC, UF__BI_FABS, fabs, fabsf, -3, 3},
        {LOC, UF__BI_FLOOR, floor, floorf, -3, 3},
        {LOC, UF__BI_CEIL, ceil, ceilf, -3, 3},
        {LOC, UF__BI_TRUNC, trunc, truncf, -3, 3},
        {LOC, UF__BI_NP_RINT, rint, rintf, -3, 3},
        {LOC, UF__BI_ERF, erf, erff, -3, 3},
        {LOC, UF__BI_ERFC, erfc, erfcf, -3, 3},
        {LOC, UF__BI_GAMMA, tgamma, tgammaf, 0.1, 10},
        {LOC, UF__BI_LGAMMA, lgamma, lgammaf, 0.1, 10},
    };
    enum { N = 101 };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        for (int w = 0; w < 2; w++) {
            uf_dtype dt = w ? UF_FLOAT32 : UF_FLOAT64;
            math_ud u = {rows[r].bi, dt, 1};
            kspec s = {1, {dt}, dt, dt, false, body_math, &u};
            uf__strided_loop fn = compile_or_fail(&s);
            double x[N], y[N];
            float xf[N], yf[N];
            for (int i = 0; i < N; i++) {
                x[i] = rows[r].lo + (rows[r].hi - rows[r].lo) * i / (N - 1);
                xf[i] = (float)x[i];
            }
            void *p[2] = {w ? (void *)xf : (void *)x, w ? (void *)yf : (void *)y};
            int64_t st[2] = {w ? 4 : 8, w ? 4 : 8};
            assert_int_equal(run(fn, 2, p, st, N), 0);
            for (int i = 0; i < N; i++) {
                /* vectorised forms may differ from libm by a few ulp */
                double want = w ? (double)rows[r].ff(xf[i]) : rows[r].f(x[i]);
                double got = w ? (double)yf[i] : y[i];
                double tol = (w ? 4e-7 : 4e-15) * fmax(1.0, fabs(want));
                if (!(fabs(got - want) <= tol) && !same_double(got, want))
                    uf_fail_at(rows[r].file, rows[r].line,
                               "%s(%.9g) = %.17g, libm %.17g",
                               w ? "float32" : "float64", w ? xf[i] : x[i],
                               got, want);
            }
        }
    }
}

/* Two-argument functions and the special ones. */
static void test_math_binary(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf__builtin bi;
        double a, b, want;
    } rows[] = {
        {LOC, UF__BI_ATAN2, 1.0, -1.0, 2.356194490192345},
        {LOC, UF__BI_HYPOT, 3.0, 4.0, 5.0},
        {LOC, UF__BI_HYPOT, INFINITY, NAN, INFINITY},
        {LOC, UF__BI_COPYSIGN, 3.0, -0.0, -3.0},
        {LOC, UF__BI_FMOD, -7.0, 2.0, -1.0},
        {LOC, UF__BI_FMOD, 7.0, -2.0, 1.0},
        {LOC, UF__BI_MPOW, 2.0, 10.0, 1024.0},
        {LOC, UF__BI_LOG, 8.0, 2.0, 3.0}, /* math.log(x, base) */
        {LOC, UF__BI_NP_MAXIMUM, NAN, 1.0, NAN},
        {LOC, UF__BI_NP_MAXIMUM, 1.0, NAN, NAN},
        {LOC, UF__BI_NP_MAXIMUM, 1.0, 2.0, 2.0},
        {LOC, UF__BI_NP_MINIMUM, 1.0, NAN, NAN},
        {LOC, UF__BI_NP_MINIMUM, -1.0, 2.0, -1.0},
        {LOC, UF__BI_NP_FMAX, NAN, 1.0, 1.0},
        {LOC, UF__BI_NP_FMAX, 1.0, NAN, 1.0},
        {LOC, UF__BI_NP_FMIN, NAN, 1.0, 1.0},
        {LOC, UF__BI_NP_FMIN, 3.0, 1.0, 1.0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        math_ud u = {rows[i].bi, UF_FLOAT64, 2};
        kspec s = {2, {UF_FLOAT64, UF_FLOAT64}, UF_FLOAT64, UF_FLOAT64, false,
                   body_math, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        double out;
        assert_int_equal(run2_both(fn, &rows[i].a, &rows[i].b, &out, 1, 8, 8,
                                   8),
                         0);
        if (!same_double(out, rows[i].want) &&
            !(fabs(out - rows[i].want) < 1e-15))
            uf_fail_at(rows[i].file, rows[i].line, "got %.17g", out);
    }
    static const struct {
        const char *file;
        int line;
        uf__builtin bi;
        double x, want;
    } urows[] = {
        {LOC, UF__BI_NP_RINT, 2.5, 2.0},     {LOC, UF__BI_NP_RINT, -0.5, -0.0},
        {LOC, UF__BI_NP_RINT, 3.5, 4.0},     {LOC, UF__BI_NP_SIGN, -0.0, -0.0},
        {LOC, UF__BI_NP_SIGN, -3.0, -1.0},   {LOC, UF__BI_NP_SIGN, NAN, NAN},
        {LOC, UF__BI_DEGREES, M_PI, 180.0},  {LOC, UF__BI_RADIANS, 180.0, M_PI},
        {LOC, UF__BI_NP_SQUARE, -3.0, 9.0},  {LOC, UF__BI_ISNAN, NAN, 1},
        {LOC, UF__BI_ISINF, -INFINITY, 1},   {LOC, UF__BI_ISFINITE, NAN, 0},
        {LOC, UF__BI_ISFINITE, 1e308, 1},    {LOC, UF__BI_ISINF, NAN, 0},
    };
    for (size_t i = 0; i < sizeof urows / sizeof urows[0]; i++) {
        uf__builtin bi = urows[i].bi;
        bool pred = bi == UF__BI_ISNAN || bi == UF__BI_ISINF ||
                    bi == UF__BI_ISFINITE;
        math_ud u = {bi, UF_FLOAT64, 1};
        kspec s = {1, {UF_FLOAT64}, pred ? UF_BOOL : UF_FLOAT64, UF_FLOAT64,
                   false, body_math, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        double out;
        void *p[2] = {(void *)&urows[i].x, &out};
        int64_t st[2] = {8, 8};
        assert_int_equal(run(fn, 2, p, st, 1), 0);
        if (!same_double(out, urows[i].want))
            uf_fail_at(urows[i].file, urows[i].line, "got %.17g", out);
    }
}

/* By default sin/exp/tanh/log in a contiguous loop call glibc's vector
 * variants, within 4 ulp of libm (tests/test_mvec_ulp.c measures every
 * function); UFJIT_ENABLE_LIBMVEC=0 keeps the scalar libm calls. */
static void test_libmvec(void **state)
{
    (void)state;
    uf_error err;
    const char *was = getenv("UFJIT_ENABLE_LIBMVEC");
    char saved_env[16] = "";
    if (was)
        snprintf(saved_env, sizeof saved_env, "%s", was);
    unsetenv("UFJIT_ENABLE_LIBMVEC");
    uf__jit *vj = uf__jit_new(&err);
    setenv("UFJIT_ENABLE_LIBMVEC", "0", 1);
    uf__jit *sj = vj ? uf__jit_new(&err) : NULL;
    if (was)
        setenv("UFJIT_ENABLE_LIBMVEC", saved_env, 1);
    else
        unsetenv("UFJIT_ENABLE_LIBMVEC");
    uf_assert_ok(vj != NULL && sj != NULL, &err);
    assert_false(uf__jit_have_mvec(sj));
    uf__jit *saved = jit;
    static const struct {
        const char *file;
        int line;
        uf__builtin bi;
        uf_dtype dt;
        double (*f)(double);
        float (*ff)(float);
    } rows[] = {
        {LOC, UF__BI_SIN, UF_FLOAT64, sin, NULL},
        {LOC, UF__BI_EXP, UF_FLOAT64, exp, NULL},
        {LOC, UF__BI_TANH, UF_FLOAT64, tanh, NULL},
        {LOC, UF__BI_SIN, UF_FLOAT32, NULL, sinf},
        {LOC, UF__BI_LOG, UF_FLOAT32, NULL, logf},
    };
    bool vectorised = false;
    for (size_t r = 0; r < 2 * (sizeof rows / sizeof rows[0]); r++) {
        /* first every row with the default, then with libmvec off */
        size_t row = r % (sizeof rows / sizeof rows[0]);
        bool off = r != row;
        jit = off ? sj : vj;
        uf_dtype dt = rows[row].dt;
        math_ud u = {rows[row].bi, dt, 1};
        kspec s = {1, {dt}, dt, dt, false, body_math, &u};
        uf__jit_listing lst;
        uf__strided_loop fn = compile_spec(&s, &lst);
        assert_non_null(fn);
        if (off && strstr(lst.asm_text, "_ZGV"))
            uf_fail_at(rows[row].file, rows[row].line,
                       "libmvec used with UFJIT_ENABLE_LIBMVEC=0");
        vectorised |= !off && strstr(lst.asm_text, "_ZGV") != NULL;
        uf__free(lst.llvm_ir);
        uf__free(lst.asm_text);
        enum { N = 200 };
        double x[N], y[N];
        float xf[N], yf[N];
        for (int i = 0; i < N; i++) {
            x[i] = 0.05 + i * 0.047;
            xf[i] = (float)x[i];
        }
        bool f32 = dt == UF_FLOAT32;
        void *p[2] = {f32 ? (void *)xf : (void *)x, f32 ? (void *)yf : (void *)y};
        int64_t st[2] = {f32 ? 4 : 8, f32 ? 4 : 8};
        assert_int_equal(run(fn, 2, p, st, N), 0);
        for (int i = 0; i < N; i++) {
            double want = f32 ? (double)rows[row].ff(xf[i])
                              : rows[row].f(x[i]);
            double got = f32 ? (double)yf[i] : y[i];
            double ulp = f32 ? (double)(nextafterf((float)want, INFINITY) -
                                        (float)want)
                             : nextafter(want, INFINITY) - want;
            /* libmvec off: libm's own results */
            if (fabs(got - want) > (off ? 0 : 4) * ulp)
                uf_fail_at(rows[row].file, rows[row].line, "x=%.9g: %.17g vs "
                           "libm %.17g%s", f32 ? xf[i] : x[i], got, want,
                           off ? " (libmvec off)" : "");
        }
    }
    jit = saved;
    uf__jit_free(vj);
    uf__jit_free(sj);
    /* where libmvec or AVX2 are missing the loops stay scalar */
    if (!vectorised)
        print_message("[ INFO     ] libmvec not used on this host\n");
}

/* ---- complex ------------------------------------------------------------------ */

typedef struct cbin_ud {
    int op; /* 0 mul, 1 div, 2 pow, 3 abs */
    uf_dtype dt;
} cbin_ud;

static LLVMValueRef body_complex(uf__fn *F, LLVMValueRef *a, const void *ud)
{
    const cbin_ud *u = ud;
    switch (u->op) {
    case 0: return uf__emit_cmul(F, u->dt, a[0], a[1]);
    case 1: return uf__emit_cdiv(F, u->dt, a[0], a[1]);
    case 2: return uf__emit_cpow(F, u->dt, a[0], a[1]);
    default: return uf__emit_binop(F, UF__OP_SUB, u->dt, a[0], a[1]);
    }
}

/* Rows printed by Python 3.11 (CPython's complex arithmetic, which Numba
 * uses) and NumPy 2.4 for division by zero. */
static void test_complex_ops(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int op;
        double ar, ai, br, bi, wr, wi;
    } rows[] = {
        {LOC, 0, 1, 2, 3, 4, -5, 10},
        {LOC, 1, 1, 2, 3, 4, 0.44, 0.08},
        {LOC, 1, 1, 1, 0, 2, 0.5, -0.5},
        {LOC, 1, 1e300, 1e300, 1e300, 1e300, 1, 0},
        {LOC, 1, 1, 1, 0, 0, INFINITY, INFINITY},  /* NumPy */
        {LOC, 1, 0, 0, 0, 0, NAN, NAN},            /* NumPy */
        {LOC, 1, 1, 0, 0, 0, INFINITY, NAN},       /* NumPy */
        {LOC, 1, -1, -2, 0, 0, -INFINITY, -INFINITY},
        {LOC, 2, 1, 2, 2, 0, -3, 4},               /* z ** 2 as z * z */
        {LOC, 2, 1, 1, 0.5, 0, 1.0986841134678098, 0.45508986056222733},
        {LOC, 2, 0, 1, 0, 1, 0.20787957635076193, 0},
        {LOC, 2, 0, 0, 0, 0, 1, 0},
        {LOC, 2, 0, 0, -1, 0, NAN, NAN},           /* Numba: EDOM -> nan */
        {LOC, 3, 1, 2, 0.5, -1, 0.5, 3},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        cbin_ud u = {rows[i].op, UF_COMPLEX128};
        kspec s = {2, {UF_COMPLEX128, UF_COMPLEX128}, UF_COMPLEX128,
                   UF_COMPLEX128, false, body_complex, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        double a[2] = {rows[i].ar, rows[i].ai}, b[2] = {rows[i].br, rows[i].bi};
        double out[2];
        assert_int_equal(run2_both(fn, a, b, out, 1, 16, 16, 16), 0);
        for (int k = 0; k < 2; k++) {
            double want = k ? rows[i].wi : rows[i].wr;
            if (!same_double(out[k], want) &&
                !(fabs(out[k] - want) <= 1e-15 * fmax(1, fabs(want))))
                uf_fail_at(rows[i].file, rows[i].line, "got %.17g%+.17gj",
                           out[0], out[1]);
        }
    }
    /* complex64 goes through the same code in single precision */
    cbin_ud u = {0, UF_COMPLEX64};
    kspec s = {2, {UF_COMPLEX64, UF_COMPLEX64}, UF_COMPLEX64, UF_COMPLEX64,
               false, body_complex, &u};
    uf__strided_loop fn = compile_or_fail(&s);
    float a[2] = {1, 2}, b[2] = {3, 4}, out[2];
    assert_int_equal(run2_both(fn, a, b, out, 1, 8, 8, 8), 0);
    assert_true(out[0] == -5.0f && out[1] == 10.0f);
    /* Python's model: complex division by zero raises */
    cbin_ud ud = {1, UF_COMPLEX128};
    kspec sp = {2, {UF_COMPLEX128, UF_COMPLEX128}, UF_COMPLEX128,
                UF_COMPLEX128, true, body_complex, &ud};
    fn = compile_or_fail(&sp);
    double za[2] = {1, 1}, zb[2] = {0, 0}, zo[2];
    void *p[3] = {za, zb, zo};
    int64_t st[3] = {16, 16, 16};
    assert_int_equal(run(fn, 3, p, st, 1), UF__JIT_ZERODIV_COMPLEX);
}

/* The cmath runtime helpers, called directly (values from Python's cmath,
 * which Numba's algorithms follow for these inputs). */
static void test_complex_runtime(void **state)
{
    (void)state;
    int n;
    const uf__runtime_symbol *rt = uf__lower_runtime(&n);
    void (*csqrt_)(double *) = NULL, (*cexp_)(double *) = NULL;
    void (*crect_)(double *) = NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(rt[i].name, "uf__rt_csqrt") == 0)
            csqrt_ = (void (*)(double *))(uintptr_t)rt[i].addr;
        if (strcmp(rt[i].name, "uf__rt_cexp") == 0)
            cexp_ = (void (*)(double *))(uintptr_t)rt[i].addr;
        if (strcmp(rt[i].name, "uf__rt_crect") == 0)
            crect_ = (void (*)(double *))(uintptr_t)rt[i].addr;
    }
    assert_non_null(csqrt_);
    assert_non_null(cexp_);
    assert_non_null(crect_);
    static const struct {
        const char *file;
        int line;
        int fn; /* 0 sqrt, 1 exp, 2 rect */
        double x, y, wr, wi;
    } rows[] = {
        {LOC, 0, -4, 0, 0, 2},
        {LOC, 0, -4, -0.0, 0, -2},
        {LOC, 0, 3, 4, 2, 1},
        {LOC, 0, 0, 0, 0, 0},
        {LOC, 0, -INFINITY, 1, 0, INFINITY},
        {LOC, 0, 1, INFINITY, INFINITY, INFINITY},
        {LOC, 0, 1e308, 1e308, 1.09868411346781e154, 4.550898605622274e153},
        {LOC, 1, 0, M_PI, -1, 1.2246467991473532e-16},
        {LOC, 1, 1, 0, 2.718281828459045, 0},
        {LOC, 1, INFINITY, 0, INFINITY, 0},
        {LOC, 1, -INFINITY, INFINITY, 0, 0},
        {LOC, 1, NAN, 0, NAN, 0},
        {LOC, 2, 2, M_PI / 2, 1.2246467991473532e-16, 2},
        {LOC, 2, INFINITY, 0, INFINITY, 0},
        {LOC, 2, 0, INFINITY, 0, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double z[2] = {rows[i].x, rows[i].y};
        (rows[i].fn == 0 ? csqrt_ : rows[i].fn == 1 ? cexp_ : crect_)(z);
        for (int k = 0; k < 2; k++) {
            double want = k ? rows[i].wi : rows[i].wr;
            if (!same_double(z[k], want) &&
                !(fabs(z[k] - want) <= 1e-15 * fmax(1, fabs(want))))
                uf_fail_at(rows[i].file, rows[i].line, "got %.17g%+.17gj",
                           z[0], z[1]);
        }
    }
}

/* ---- the loop wrapper ------------------------------------------------------- */

static LLVMValueRef body_axpy(uf__fn *F, LLVMValueRef *a, const void *ud)
{
    const uf_dtype *dt = ud;
    LLVMValueRef three = uf__emit_const_float(F, *dt, 3.0);
    return uf__emit_binop(F, UF__OP_ADD, *dt, a[0],
                          uf__emit_binop(F, UF__OP_MUL, *dt, three, a[1]));
}

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
        cmocka_unit_test(test_int64_ops),
        cmocka_unit_test(test_narrow_ints),
        cmocka_unit_test(test_int_pow),
        cmocka_unit_test(test_float_pow_int),
        cmocka_unit_test(test_float_divmod),
        cmocka_unit_test(test_float_ops),
        cmocka_unit_test(test_python_model_raises),
        cmocka_unit_test(test_casts),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_math_vs_libm),
        cmocka_unit_test(test_math_binary),
        cmocka_unit_test(test_libmvec),
        cmocka_unit_test(test_complex_ops),
        cmocka_unit_test(test_complex_runtime),
        cmocka_unit_test(test_loop_layouts),
        cmocka_unit_test(test_loop_conversions),
        cmocka_unit_test(test_loop_tuple),
        cmocka_unit_test(test_listing_nomem),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_compile_time),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
