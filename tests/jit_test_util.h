/* Helpers shared by the JIT tests (test_jit*.c except test_jit_passes.c):
 * one JIT per test program (jit_setup/jit_teardown), scalar kernels built
 * from a kspec with the lowering's emission helpers and wrapped in the
 * ufunc loop (compile_spec), loops run over C arrays contiguous and
 * strided (run, run2_both), the kernel bodies several files use, and
 * Python's integer division for reference values. Functions are static
 * inline: each test uses a subset. */
#ifndef UF_TESTS_JIT_TEST_UTIL_H
#define UF_TESTS_JIT_TEST_UTIL_H

#include <math.h>
#include <time.h>

#include "host_jit.h"
#include "test_util.h"

#include "common/alloc.h"
#include "compiler/lower/lower.h"

static uf__jit *jit;

/* Compile times of every kernel of this test program, for the summary
 * of test_jit.c's test_compile_time. */
static double compile_ms[512];
static int ncompiles;
static bool record_times = true; /* off while several threads compile */

static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline int jit_setup(void **state)
{
    (void)state;
    uf_error err;
    double t0 = now_ms();
    jit = test_host_jit(&err);
    if (!jit) {
        print_error("uf__jit_new: %s\n", err.message);
        return -1;
    }
    print_message("[ INFO     ] JIT created in %.2f ms for %s\n",
                  now_ms() - t0, uf__jit_host_cpu(jit));
    return 0;
}

static inline int jit_teardown(void **state)
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
static inline uf__strided_loop compile_spec(const kspec *s,
                                            uf__jit_listing *lst)
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

static inline uf__strided_loop compile_or_fail(const kspec *s)
{
    uf__strided_loop fn = compile_spec(s, NULL);
    assert_non_null(fn);
    return fn;
}

/* Runs a loop over n elements; operands given with byte strides. */
static inline int run(uf__strided_loop fn, int nops, void **ptrs,
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
static inline int run2_both(uf__strided_loop fn, const void *a,
                            const void *b, void *out, int64_t n, size_t ia,
                            size_t ib, size_t io)
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

static inline LLVMValueRef body_binop(uf__fn *F, LLVMValueRef *a,
                                       const void *ud)
{
    const binop_ud *u = ud;
    return uf__emit_binop(F, u->op, u->dt, a[0], a[1]);
}

typedef struct cast_ud {
    uf_dtype from, to;
} cast_ud;

static inline LLVMValueRef body_cast(uf__fn *F, LLVMValueRef *a,
                                       const void *ud)
{
    const cast_ud *u = ud;
    return uf__emit_cast(F, a[0], u->from, u->to);
}

typedef struct cmp_ud {
    uf__cmpop op;
    uf_dtype dt;
} cmp_ud;

static inline LLVMValueRef body_cmp(uf__fn *F, LLVMValueRef *a,
                                       const void *ud)
{
    const cmp_ud *u = ud;
    return uf__emit_cmp(F, u->op, u->dt, a[0], a[1]);
}

typedef struct math_ud {
    uf__builtin bi;
    uf_dtype dt;
    int nargs;
} math_ud;

static inline LLVMValueRef body_math(uf__fn *F, LLVMValueRef *a,
                                       const void *ud)
{
    const math_ud *u = ud;
    return uf__emit_math(F, u->bi, u->dt, a, u->nargs);
}

static inline LLVMValueRef body_pow_int(uf__fn *F, LLVMValueRef *a,
                                       const void *ud)
{
    const uf_dtype *dt = ud;
    return uf__emit_pow_int(F, *dt, a[0], UF_INT64, a[1]);
}

typedef struct cbin_ud {
    int op; /* 0 mul, 1 div, 2 pow, 3 abs */
    uf_dtype dt;
} cbin_ud;

static inline LLVMValueRef body_complex(uf__fn *F, LLVMValueRef *a,
                                       const void *ud)
{
    const cbin_ud *u = ud;
    switch (u->op) {
    case 0: return uf__emit_cmul(F, u->dt, a[0], a[1]);
    case 1: return uf__emit_cdiv(F, u->dt, a[0], a[1]);
    case 2: return uf__emit_cpow(F, u->dt, a[0], a[1]);
    default: return uf__emit_binop(F, UF__OP_SUB, u->dt, a[0], a[1]);
    }
}

static inline LLVMValueRef body_axpy(uf__fn *F, LLVMValueRef *a,
                                       const void *ud)
{
    const uf_dtype *dt = ud;
    LLVMValueRef three = uf__emit_const_float(F, *dt, 3.0);
    return uf__emit_binop(F, UF__OP_ADD, *dt, a[0],
                          uf__emit_binop(F, UF__OP_MUL, *dt, three, a[1]));
}

/* ---- reference values --------------------------------------------------- */

/* Python's // and % on int64 (0 where Numba guards: x // 0, MIN // -1). */
static inline int64_t py_floordiv(int64_t a, int64_t b)
{
    if (b == 0 || (a == INT64_MIN && b == -1))
        return 0; /* NumPy model / Numba's guard */
    int64_t q = a / b, r = a % b;
    return (r != 0 && ((r ^ b) < 0)) ? q - 1 : q;
}

static inline int64_t py_mod(int64_t a, int64_t b)
{
    if (b == 0 || (a == INT64_MIN && b == -1))
        return 0;
    int64_t r = a % b;
    return (r != 0 && ((r ^ b) < 0)) ? r + b : r;
}

/* Equal bit for bit, or both NaN. */
static inline bool same_double(double x, double y)
{
    return (isnan(x) && isnan(y)) || memcmp(&x, &y, sizeof x) == 0;
}

#endif
