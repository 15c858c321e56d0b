/* The short optimisation pipeline of vectorize loops (compiler/host/jit_passes.c)
 * against default<O3> (UFJIT_OPT_PIPELINE=default): for every kind of
 * kernel the contiguous loops vectorised to the same width (zmm on
 * AVX-512), bit-identical results on edge inputs, and the choice of
 * pipeline by module contents. */
#include <math.h>

#include "test_util.h"

#include <llvm-c/Core.h>

#include "common/alloc.h"
#include "compiler/host/jit_passes.h"

static const char *const header =
    "import math\nimport numpy as np\n"
    "from numba import njit, vectorize\n";

static const struct kcase {
    const char *file;
    int line;
    const char *name, *sig, *src;
    int nin;
    uf_dtype dt;
    const char *vec; /* expected in the optimised IR on AVX-512, or NULL */
} cases[] = {
    {LOC, "rel_diff", "float64(float64, float64)",
     "@vectorize(['float64(float64, float64)'])\n"
     "def rel_diff(x, y):\n    return 2 * (x - y) / (x + y)\n",
     2, UF_FLOAT64, "<8 x double>"},
    {LOC, "hypot", "float64(float64, float64)",
     "@vectorize(['float64(float64, float64)'])\n"
     "def hypot(x, y):\n    x = abs(x)\n    y = abs(y)\n"
     "    t = min(x, y)\n    x = max(x, y)\n    t = t / x\n"
     "    return x * math.sqrt(1 + t * t)\n",
     2, UF_FLOAT64, "<8 x double>"},
    {LOC, "gauss", "float32(float32, float32, float32)",
     "@vectorize(['float32(float32, float32, float32)'])\n"
     "def gauss(x, m, s):\n"
     "    return math.exp(-0.5 * ((x - m) / s) ** 2) / (s * np.float32(2.5))\n",
     3, UF_FLOAT32, NULL},
    {LOC, "polar", "float32(float32, float32, float32, float32)",
     "@njit\ndef p2c(r, t):\n    return r * math.cos(t), r * math.sin(t)\n"
     "@vectorize(['float32(float32, float32, float32, float32)'])\n"
     "def polar(r1, t1, r2, t2):\n    x1, y1 = p2c(r1, t1)\n"
     "    x2, y2 = p2c(r2, t2)\n"
     "    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5\n",
     4, UF_FLOAT32, "<16 x float>"},
    {LOC, "branchy", "float64(float64, float64)",
     "@vectorize(['float64(float64, float64)'])\n"
     "def branchy(x, y):\n    if x > y:\n        r = x - y\n"
     "    elif x < 0:\n        r = -x * y\n    else:\n        r = y\n"
     "    return r if r == r else 0.5\n",
     2, UF_FLOAT64, "<8 x double>"},
    {LOC, "inner", "float64(float64, float64)",
     "@vectorize(['float64(float64, float64)'])\n"
     "def inner(x, y):\n    acc = 0.0\n    i = 0\n"
     "    while i < 3:\n        acc += x * i - y\n        i += 1\n"
     "    for j in range(4):\n        if acc > 100.0:\n            break\n"
     "        acc = acc * 1.5 + j\n    return acc\n",
     2, UF_FLOAT64, NULL},
    {LOC, "cplx", "float64(float64, float64)",
     "@vectorize(['float64(float64, float64)'])\n"
     "def cplx(x, y):\n    z = complex(x, y)\n    w = z * z + 1j\n"
     "    return abs(w) + w.real - (w / complex(y, 1.0)).imag\n",
     2, UF_FLOAT64, NULL},
    {LOC, "idiv", "int64(int64, int64)",
     "@vectorize(['int64(int64, int64)'])\n"
     "def idiv(a, b):\n    return a // b + a % b * 3\n",
     2, UF_INT64, NULL},
};

/* Inputs with the edge values of each dtype, in every combination of two
 * operands (the others cycle). */
static uf_array *input(uf_dtype dt, int k, int nin, int64_t n)
{
    static const double fv[] = {0.0, -0.0, 1.0, -1.0, 2.5, -7.25, 1e-310,
                                1e308, -1e308, INFINITY, -INFINITY, NAN,
                                3.0, 0.1, 100.0, -3.5};
    static const double iv[] = {0, 1, -1, 2, -2, 7, -7, 9, -9, 1000,
                                -1000, 3, 4, -4, 123456, -5};
    const double *v = dt == UF_INT64 ? iv : fv;
    const int nv = 16;
    uf_error err;
    uf_array *a = uf_empty(dt, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < n; i++) {
        int64_t j = k == 0 ? i % nv : k == 1 ? (i / nv) % nv : (i * 7 + k) % nv;
        (void)nin;
        double x = v[j];
        if (dt == UF_FLOAT64)
            ((double *)uf_array_data(a))[i] = x;
        else if (dt == UF_FLOAT32)
            ((float *)uf_array_data(a))[i] = (float)x;
        else
            ((int64_t *)uf_array_data(a))[i] = (int64_t)x;
    }
    return a;
}

/* The kernel compiled in a new context with the current environment:
 * its output on the edge inputs, and its asm/IR listing if asked. */
static uf_array *run(const struct kcase *c, int variant, unsigned what,
                     char **listing)
{
    uf_error err;
    char src[2048];
    snprintf(src, sizeof src, "# variant %d\n%s%s", variant, header, c->src);
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "passes.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, c->name, &err);
    uf_assert_ok(f != NULL, &err);
    if (listing) {
        *listing = uf_func_inspect(f, c->sig, what, &err);
        uf_assert_ok(*listing != NULL, &err);
    }
    const int64_t n = 16 * 16 + 5; /* vector body and remainder */
    uf_array *in[4] = {NULL}, *out = NULL;
    for (int i = 0; i < c->nin; i++)
        in[i] = input(c->dt, i, c->nin, n);
    int rc = uf_call(f, in, c->nin, &out, 1, NULL, &err);
    if (c->dt == UF_INT64 && rc < 0) { /* x // 0: an error either way */
        out = NULL;
    } else
        uf_assert_ok(rc == 0, &err);
    for (int i = 0; i < c->nin; i++)
        uf_array_release(in[i]);
    uf_module_free(m);
    uf_context_free(ctx);
    return out;
}

static void test_same_code_and_results(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct kcase *c = &cases[i];
        char *asm_short = NULL, *asm_o3 = NULL, *ir = NULL;
        unsetenv("UFJIT_OPT_PIPELINE");
        uf_array *a = run(c, 1, UF_INSPECT_ASM, &asm_short);
        uf_array *b0 = run(c, 2, UF_INSPECT_LLVM, &ir);
        setenv("UFJIT_OPT_PIPELINE", "default", 1);
        uf_array *b = run(c, 3, UF_INSPECT_ASM, &asm_o3);
        unsetenv("UFJIT_OPT_PIPELINE");
        /* the same vector width: zmm loops under both or neither (the
         * code may differ in operand order and register choice) */
        if (!strstr(asm_short, "zmm") != !strstr(asm_o3, "zmm") ||
            !strstr(asm_short, "ymm") != !strstr(asm_o3, "ymm"))
            uf_fail_at(c->file, c->line, "%s: vector width differs from O3's",
                       c->name);
#if defined(__x86_64__)
        if (c->vec && __builtin_cpu_supports("avx512f") &&
            !strstr(ir, c->vec))
            uf_fail_at(c->file, c->line, "%s: no %s in the loop", c->name,
                       c->vec);
#endif
        if (a || b) {
            if (!a || !b)
                uf_fail_at(c->file, c->line, "%s: one pipeline failed",
                           c->name);
            uf_assert_same_bytes(c->file, c->line, c->name, b, a);
            uf_assert_same_bytes(c->file, c->line, c->name, b, b0);
        }
        uf_array_release(a);
        uf_array_release(b0);
        uf_array_release(b);
        uf_free(asm_short);
        uf_free(asm_o3);
        uf_free(ir);
    }
}

/* A module with an external loop function calling an internal kernel,
 * with or without a loop in the kernel / a second loop outside. */
static LLVMModuleRef module(LLVMContextRef ctx, bool kernel_loop,
                            bool second_loop)
{
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("t", ctx);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef fty = LLVMFunctionType(i64, &i64, 1, false);
    LLVMValueRef k = LLVMAddFunction(mod, "kernel", fty);
    LLVMSetLinkage(k, LLVMInternalLinkage);
    LLVMBasicBlockRef e = LLVMAppendBasicBlockInContext(ctx, k, "e");
    LLVMBasicBlockRef l = LLVMAppendBasicBlockInContext(ctx, k, "l");
    LLVMBasicBlockRef x = LLVMAppendBasicBlockInContext(ctx, k, "x");
    LLVMPositionBuilderAtEnd(b, e);
    LLVMBuildBr(b, l);
    LLVMPositionBuilderAtEnd(b, l);
    LLVMValueRef c = LLVMBuildICmp(b, LLVMIntSGT, LLVMGetParam(k, 0),
                                   LLVMConstInt(i64, 0, false), "c");
    LLVMBuildCondBr(b, c, kernel_loop ? l : x, x);
    LLVMPositionBuilderAtEnd(b, x);
    LLVMBuildRet(b, LLVMGetParam(k, 0));

    LLVMValueRef f = LLVMAddFunction(mod, "loop", fty);
    LLVMBasicBlockRef fe = LLVMAppendBasicBlockInContext(ctx, f, "e");
    LLVMBasicBlockRef fl = LLVMAppendBasicBlockInContext(ctx, f, "l");
    LLVMBasicBlockRef fl2 = LLVMAppendBasicBlockInContext(ctx, f, "l2");
    LLVMBasicBlockRef fx = LLVMAppendBasicBlockInContext(ctx, f, "x");
    LLVMPositionBuilderAtEnd(b, fe);
    LLVMBuildBr(b, fl);
    LLVMPositionBuilderAtEnd(b, fl);
    LLVMValueRef arg = LLVMGetParam(f, 0);
    LLVMValueRef r = LLVMBuildCall2(b, fty, k, &arg, 1, "r");
    LLVMValueRef c2 = LLVMBuildICmp(b, LLVMIntSGT, r,
                                    LLVMConstInt(i64, 0, false), "c");
    LLVMBuildCondBr(b, c2, fl, fl2);
    LLVMPositionBuilderAtEnd(b, fl2);
    LLVMBuildCondBr(b, c2, second_loop ? fl2 : fx, fx);
    LLVMPositionBuilderAtEnd(b, fx);
    LLVMBuildRet(b, r);
    /* as the lowering lays them out: the exit before the loop (an edge
     * backwards in the layout, not a loop) */
    LLVMMoveBasicBlockBefore(fx, fl);
    LLVMDisposeBuilder(b);
    return mod;
}

static void test_pipeline_choice(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        bool kernel_loop, second_loop, force_o3, want_short;
    } rows[] = {
        {LOC, false, false, false, true},
        {LOC, true, false, false, false},
        {LOC, false, true, false, false},
        {LOC, false, false, true, false},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef mod = module(ctx, rows[i].kernel_loop,
                                   rows[i].second_loop);
        if (rows[i].force_o3)
            setenv("UFJIT_OPT_PIPELINE", "default", 1);
        const char *p = uf__passes_elementwise(mod);
        unsetenv("UFJIT_OPT_PIPELINE");
        if (rows[i].want_short ? p != uf__passes_short : p != NULL)
            uf_fail_at(rows[i].file, rows[i].line, "got pipeline %s",
                       p ? p : "default<O3>");
        LLVMDisposeModule(mod);
        LLVMContextDispose(ctx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_code_and_results),
        cmocka_unit_test(test_pipeline_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
