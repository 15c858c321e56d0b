/* Streaming loops (compiler/host/jit_nontemporal.h): which vector stores the
 * pass makes non-temporal (only those provably aligned), and that calls
 * large enough to stream (ufunc/loop.h UF__STREAM_BYTES) give exactly the
 * bits of the same kernel run in pieces too small to stream: from
 * unaligned views (the head before the outputs align), with outputs out of
 * phase with each other (no streaming), in place, broadcast, blocked math
 * kernels, two outputs, strided inputs (a loop for their element
 * strides), on cpu and on the parallel target; nothing is written outside
 * an output, nothing read past an input; the streaming loops are compiled
 * once, and a kernel whose loop has no vector store to stream is never
 * asked again. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "test_util.h"

#include "compiler/context.h"
#include "compiler/host/jit_nontemporal.h"
#include "compiler/module.h"
#include "common/loop.h"

static const char *const src =
    "import math\n"
    "from numba import vectorize\n"
    "@vectorize(['float64(float64, float64)', 'float32(float32, float32)'])\n"
    "def triad(a, b):\n    return a + 3.0 * b\n"
    "@vectorize(['float64(float64)', 'float32(float32)'])\n"
    "def sine(x):\n    return math.sin(x)\n"
    "@vectorize(['UniTuple(float64, 2)(float64, float64)'])\n"
    "def twice(x, y):\n    return x - y, x * y\n"
    "@vectorize(['float64(float64)'])\n"
    "def looped(x):\n"
    "    s = x\n"
    "    while s > 1.0:\n"
    "        s = s * 0.5\n"
    "    return s\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    unsetenv("UFJIT_ENABLE_LIBMVEC");
    ctx = uf_context_new(&err);
    mod = ctx ? uf_module_from_string(ctx, "stream.py", src, &err) : NULL;
    return mod ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

/* ---- the marking pass -------------------------------------------------- */

/* One function per case, each with one vector store of <8 x double> (64
 * bytes) at %out + index: the vectoriser's shape and its variations. */
static const char *const mark_ir =
    "define void @aligned(double** %pp) {\n"
    "entry:\n  %out = load double*, double** %pp\n  br label %body\n"
    "body:\n  %i = phi i64 [0, %entry], [%i.next, %body]\n"
    "  %g = getelementptr inbounds double, double* %out, i64 %i\n"
    "  %p = bitcast double* %g to <8 x double>*\n"
    "  store <8 x double> zeroinitializer, <8 x double>* %p, align 8\n"
    "  %i.next = add nuw i64 %i, 8\n"
    "  %c = icmp eq i64 %i.next, 64\n  br i1 %c, label %x, label %body\n"
    "x:\n  ret void\n}\n"
    /* the second part of an interleaved store: 8 elements further */
    "define void @part(double** %pp) {\n"
    "entry:\n  %out = load double*, double** %pp\n  br label %body\n"
    "body:\n  %i = phi i64 [0, %entry], [%i.next, %body]\n"
    "  %g = getelementptr inbounds double, double* %out, i64 %i\n"
    "  %g1 = getelementptr inbounds double, double* %g, i64 8\n"
    "  %p = bitcast double* %g1 to <8 x double>*\n"
    "  store <8 x double> zeroinitializer, <8 x double>* %p, align 8\n"
    "  %i.next = add nuw i64 %i, 16\n"
    "  %c = icmp eq i64 %i.next, 64\n  br i1 %c, label %x, label %body\n"
    "x:\n  ret void\n}\n"
    /* an epilogue-like start: not provably aligned */
    "define void @start3(double** %pp) {\n"
    "entry:\n  %out = load double*, double** %pp\n  br label %body\n"
    "body:\n  %i = phi i64 [3, %entry], [%i.next, %body]\n"
    "  %g = getelementptr inbounds double, double* %out, i64 %i\n"
    "  %p = bitcast double* %g to <8 x double>*\n"
    "  store <8 x double> zeroinitializer, <8 x double>* %p, align 8\n"
    "  %i.next = add nuw i64 %i, 8\n"
    "  %c = icmp eq i64 %i.next, 67\n  br i1 %c, label %x, label %body\n"
    "x:\n  ret void\n}\n"
    /* steps of half a vector */
    "define void @step4(double** %pp) {\n"
    "entry:\n  %out = load double*, double** %pp\n  br label %body\n"
    "body:\n  %i = phi i64 [0, %entry], [%i.next, %body]\n"
    "  %g = getelementptr inbounds double, double* %out, i64 %i\n"
    "  %p = bitcast double* %g to <8 x double>*\n"
    "  store <8 x double> zeroinitializer, <8 x double>* %p, align 8\n"
    "  %i.next = add nuw i64 %i, 4\n"
    "  %c = icmp eq i64 %i.next, 64\n  br i1 %c, label %x, label %body\n"
    "x:\n  ret void\n}\n"
    /* offset by half a vector */
    "define void @off4(double** %pp) {\n"
    "entry:\n  %out = load double*, double** %pp\n  br label %body\n"
    "body:\n  %i = phi i64 [0, %entry], [%i.next, %body]\n"
    "  %g = getelementptr inbounds double, double* %out, i64 %i\n"
    "  %g1 = getelementptr inbounds double, double* %g, i64 4\n"
    "  %p = bitcast double* %g1 to <8 x double>*\n"
    "  store <8 x double> zeroinitializer, <8 x double>* %p, align 8\n"
    "  %i.next = add nuw i64 %i, 8\n"
    "  %c = icmp eq i64 %i.next, 64\n  br i1 %c, label %x, label %body\n"
    "x:\n  ret void\n}\n"
    /* a stack buffer: stays cached */
    "define void @stack(double** %pp) {\n"
    "entry:\n  %out = alloca double, i64 64, align 64\n  br label %body\n"
    "body:\n  %i = phi i64 [0, %entry], [%i.next, %body]\n"
    "  %g = getelementptr inbounds double, double* %out, i64 %i\n"
    "  %p = bitcast double* %g to <8 x double>*\n"
    "  store <8 x double> zeroinitializer, <8 x double>* %p, align 8\n"
    "  %i.next = add nuw i64 %i, 8\n"
    "  %c = icmp eq i64 %i.next, 64\n  br i1 %c, label %x, label %body\n"
    "x:\n  ret void\n}\n"
    /* 8-byte vectors: too small to stream */
    "define void @small(float** %pp) {\n"
    "entry:\n  %out = load float*, float** %pp\n  br label %body\n"
    "body:\n  %i = phi i64 [0, %entry], [%i.next, %body]\n"
    "  %g = getelementptr inbounds float, float* %out, i64 %i\n"
    "  %p = bitcast float* %g to <2 x float>*\n"
    "  store <2 x float> zeroinitializer, <2 x float>* %p, align 4\n"
    "  %i.next = add nuw i64 %i, 2\n"
    "  %c = icmp eq i64 %i.next, 64\n  br i1 %c, label %x, label %body\n"
    "x:\n  ret void\n}\n"
    /* 128 bytes (two registers): aligned to 64 only */
    "define void @wide(float** %pp) {\n"
    "entry:\n  %out = load float*, float** %pp\n  br label %body\n"
    "body:\n  %i = phi i64 [0, %entry], [%i.next, %body]\n"
    "  %g = getelementptr inbounds float, float* %out, i64 %i\n"
    "  %p = bitcast float* %g to <32 x float>*\n"
    "  store <32 x float> zeroinitializer, <32 x float>* %p, align 4\n"
    "  %i.next = add nuw i64 %i, 32\n"
    "  %c = icmp eq i64 %i.next, 64\n  br i1 %c, label %x, label %body\n"
    "x:\n  ret void\n}\n";

static const struct mark_case {
    const char *file;
    int line;
    const char *fn;
    unsigned align; /* 0: left alone */
} mark_cases[] = {
    {LOC, "aligned", 64}, {LOC, "part", 64},  {LOC, "start3", 0},
    {LOC, "step4", 0},    {LOC, "off4", 0},   {LOC, "stack", 0},
    {LOC, "small", 0},    {LOC, "wide", 64},
};

static LLVMValueRef the_store(LLVMValueRef f)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i))
            if (LLVMIsAStoreInst(i))
                return i;
    return NULL;
}

static void test_mark_rules(void **state)
{
    (void)state;
    LLVMContextRef c = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        mark_ir, strlen(mark_ir), "mark");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(c, buf, &m, &msg))
        fail_msg("IR: %s", msg);
    LLVMSetDataLayout(m, "e-m:e-i64:64-f80:128-n8:16:32:64-S128");
    int want = 0;
    for (size_t k = 0; k < sizeof mark_cases / sizeof mark_cases[0]; k++)
        want += mark_cases[k].align != 0;
    assert_int_equal(uf__jit_mark_nontemporal(m), want);
    unsigned kind = LLVMGetMDKindIDInContext(c, "nontemporal", 11);
    for (size_t k = 0; k < sizeof mark_cases / sizeof mark_cases[0]; k++) {
        const struct mark_case *mc = &mark_cases[k];
        LLVMValueRef st = the_store(LLVMGetNamedFunction(m, mc->fn));
        assert_non_null(st);
        bool nt = LLVMGetMetadata(st, kind) != NULL;
        if (nt != (mc->align != 0) ||
            (nt && LLVMGetAlignment(st) != mc->align))
            uf_fail_at(mc->file, mc->line, "%s: nontemporal %d align %u",
                       mc->fn, nt, LLVMGetAlignment(st));
    }
    LLVMDisposeModule(m);
    LLVMContextDispose(c);
}

/* ---- calls ------------------------------------------------------------- */

/* Elements per call: every output over UF__STREAM_BYTES even in float32. */
#define N ((int64_t)(UF__STREAM_BYTES / 4 + 1000))
/* Reference calls run in pieces of this many elements: never streamed. */
#define PIECE 65536
#define PAD 64 /* elements around every output, checked untouched */

static uint64_t ncompiles(void)
{
    return ctx->jit ? uf__jit_ncompiles(ctx->jit) : 0;
}

static uf_func *func(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

/* A 1-d array of n + 2 * PAD elements, a ramp through zero (no special
 * values: libmvec lanes may depend on each other for those). */
static uf_array *ramp_len(uf_dtype dt, int k, int64_t len);
static uf_array *ramp(uf_dtype dt, int k, int64_t n)
{
    return ramp_len(dt, k, n + 2 * PAD);
}

static uf_array *ramp_len(uf_dtype dt, int k, int64_t len)
{
    uf_error err;
    uf_array *a = uf_empty(dt, 1, &len, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < len; i++) {
        double x = 1e-5 * (double)i - 3.1 * k - 2.2;
        if (dt == UF_FLOAT64)
            ((double *)uf_array_data(a))[i] = x;
        else
            ((float *)uf_array_data(a))[i] = (float)x;
    }
    return a;
}

/* a[from : from + n * step : step], n elements (from >= -step when
 * step < 0, so that the stop stays a real index) */
static uf_array *view_step(uf_array *a, int64_t from, int64_t n, int64_t step)
{
    char expr[96];
    uf_error err;
    snprintf(expr, sizeof expr, "%lld:%lld:%lld", (long long)from,
             (long long)(from + n * step), (long long)step);
    uf_array *v = uf_array_slice(a, expr, &err);
    uf_assert_ok(v != NULL, &err);
    assert_int_equal(uf_array_size(v), n);
    return v;
}

static uf_array *view(uf_array *a, int64_t from, int64_t n)
{
    return view_step(a, from, n, 1);
}

static void call(uf_func *f, uf_array **in, int nin, uf_array **out,
                 int nout, const char *target, int threads)
{
    uf_error err;
    uf_call_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.target = target;
    o.num_threads = threads;
    uf_assert_ok(uf_call(f, in, nin, out, nout, &o, &err) == 0, &err);
}

/* Where input k's view starts in its base, of N * |step| + 2 * PAD
 * elements: in_off from its start, or from its end when reversed. */
static int64_t in_start(int64_t in_off, int64_t step)
{
    return step > 0 ? in_off : in_off + (N - 1) * -step;
}

/* `f` over n elements of views from offsets in_off/out_off[j] (inputs
 * every step[k] elements, 0 meaning 1), whole and (reference) in pieces;
 * the outputs and their padding compared. */
static void check(const char *file, int line, const char *name,
                  uf_dtype dt, int nin, int nout, int64_t in_off,
                  const int64_t *step_in, const int64_t *out_off,
                  const char *target, int threads)
{
    uf_func *f = func(name);
    uf_array *ib[4], *in[4], *ob[2], *rb[2], *out[2];
    int64_t step[4];
    for (int k = 0; k < nin; k++) {
        step[k] = step_in[k] ? step_in[k] : 1;
        int64_t mag = step[k] < 0 ? -step[k] : step[k];
        ib[k] = ramp_len(dt, k, N * mag + 2 * PAD);
        in[k] = view_step(ib[k], in_start(in_off, step[k]), N, step[k]);
    }
    for (int j = 0; j < nout; j++) {
        ob[j] = ramp(dt, 7 + j, N);
        rb[j] = ramp(dt, 7 + j, N);
        out[j] = view(ob[j], out_off[j], N);
    }
    call(f, in, nin, out, nout, target, threads);
    for (int64_t at = 0; at < N; at += PIECE) {
        int64_t len = N - at < PIECE ? N - at : PIECE;
        uf_array *pi[4], *po[2];
        for (int k = 0; k < nin; k++)
            pi[k] = view_step(ib[k], in_start(in_off, step[k]) + at * step[k],
                              len, step[k]);
        for (int j = 0; j < nout; j++)
            po[j] = view(rb[j], out_off[j] + at, len);
        call(f, pi, nin, po, nout, "cpu", 1);
        for (int k = 0; k < nin; k++)
            uf_array_release(pi[k]);
        for (int j = 0; j < nout; j++)
            uf_array_release(po[j]);
    }
    char what[128];
    snprintf(what, sizeof what, "%s on %s/%d, outputs from %lld, step %lld",
             name, target, threads, (long long)out_off[0],
             (long long)step[0]);
    for (int j = 0; j < nout; j++) /* whole bases: padding included */
        uf_assert_same_bytes(file, line, what, rb[j], ob[j]);
    for (int k = 0; k < nin; k++) {
        uf_array_release(in[k]);
        uf_array_release(ib[k]);
    }
    for (int j = 0; j < nout; j++) {
        uf_array_release(out[j]);
        uf_array_release(ob[j]);
        uf_array_release(rb[j]);
    }
}

static const struct call_case {
    const char *file;
    int line;
    const char *name;
    uf_dtype dt;
    int nin, nout;
    int64_t in_off, step[4], out_off[2];
} call_cases[] = {
    {LOC, "triad", UF_FLOAT64, 2, 1, PAD, {0}, {PAD, 0}},
    {LOC, "triad", UF_FLOAT64, 2, 1, PAD + 1, {0}, {PAD + 3, 0}},
    {LOC, "triad", UF_FLOAT32, 2, 1, PAD, {0}, {PAD + 5, 0}},
    {LOC, "sine", UF_FLOAT64, 1, 1, PAD + 2, {0}, {PAD + 1, 0}},
    {LOC, "sine", UF_FLOAT32, 1, 1, PAD, {0}, {PAD + 13, 0}},
    {LOC, "twice", UF_FLOAT64, 2, 2, PAD, {0}, {PAD + 2, PAD + 10}},
    /* out of phase: outputs never aligned together, nothing streams */
    {LOC, "twice", UF_FLOAT64, 2, 2, PAD, {0}, {PAD, PAD + 1}},
    /* strided inputs: the streaming loop for their element strides,
     * after a head through the fused strided loop */
    {LOC, "triad", UF_FLOAT64, 2, 1, PAD, {2, 2}, {PAD, 0}},
    {LOC, "triad", UF_FLOAT32, 2, 1, PAD + 1, {-1, 3}, {PAD + 7, 0}},
    {LOC, "twice", UF_FLOAT64, 2, 2, PAD, {2, 1}, {PAD + 2, PAD + 10}},
    /* too far apart for it: the fused strided loop */
    {LOC, "triad", UF_FLOAT32, 2, 1, PAD, {5, -2}, {PAD, 0}},
    /* vector math: never strided-streamed (blocked) */
    {LOC, "sine", UF_FLOAT64, 1, 1, PAD, {-2}, {PAD + 1, 0}},
};

static void test_streamed_bits(void **state)
{
    (void)state;
    static const struct {
        const char *target;
        int threads;
    } targets[] = {{"cpu", 1}, {"parallel", 2}, {"parallel", 7}};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
        for (size_t i = 0; i < sizeof call_cases / sizeof call_cases[0];
             i++) {
            const struct call_case *c = &call_cases[i];
            if (targets[t].threads > 2 && i % 3 != 0)
                continue; /* 7 threads: a third of the cases (time) */
            check(c->file, c->line, c->name, c->dt, c->nin, c->nout,
                  c->in_off, c->step, c->out_off, targets[t].target,
                  targets[t].threads);
        }
}

/* A fresh module `file` with an add float64 kernel (nothing compiled yet);
 * *f its function. */
static uf_module *add_module(const char *file, uf_func **f)
{
    static const char *const src_add =
        "from numba import vectorize\n"
        "@vectorize(['float64(float64, float64)'])\n"
        "def add(a, b):\n    return a + b\n";
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, file, src_add, &err);
    uf_assert_ok(m != NULL, &err);
    *f = uf_module_get(m, "add", &err);
    uf_assert_ok(*f != NULL, &err);
    return m;
}

/* The streaming loop is compiled by the first streamed call, once; a
 * kernel with no vector store to stream (a loop inside: not vectorised)
 * is tried once and then left on its contig. */
static void test_compiled_once(void **state)
{
    (void)state;
    uf_func *f;
    uf_module *m = add_module("once.py", &f);
    uf_array *a = ramp(UF_FLOAT64, 0, N), *b = ramp(UF_FLOAT64, 1, N);
    uf_array *o = ramp(UF_FLOAT64, 2, N);
    uf_array *in[2] = {a, b};
    int64_t small = 1000;
    uf_array *sa = view(a, 0, small), *sb = view(b, 0, small);
    uf_array *so = view(o, 0, small);
    uf_array *sin2[2] = {sa, sb};
    call(f, sin2, 2, &so, 1, "cpu", 1); /* compiles the signature */
    uint64_t n0 = ncompiles();
    call(f, sin2, 2, &so, 1, "cpu", 1);
    assert_int_equal(ncompiles(), n0); /* small calls never stream */
    call(f, in, 2, &o, 1, "cpu", 1);
    assert_int_equal(ncompiles(), n0 + 1);
    call(f, in, 2, &o, 1, "parallel", 2);
    assert_int_equal(ncompiles(), n0 + 1);
    const double *pa = uf_array_data(a), *pb = uf_array_data(b);
    const double *po = uf_array_data(o);
    for (int64_t i = 0; i < N + 2 * PAD; i++)
        if (po[i] != pa[i] + pb[i])
            fail_msg("add: element %lld", (long long)i);

    uf_func *lf = func("looped");
    uf_array *x = ramp(UF_FLOAT64, 0, N), *y = ramp(UF_FLOAT64, 1, N);
    call(lf, &x, 1, &y, 1, "cpu", 1); /* the signature, then the try */
    uint64_t n1 = ncompiles();
    call(lf, &x, 1, &y, 1, "cpu", 1);
    call(lf, &x, 1, &y, 1, "parallel", 2);
    assert_int_equal(ncompiles(), n1);
    const double *px = uf_array_data(x), *py = uf_array_data(y);
    for (int64_t i = 0; i < N + 2 * PAD; i++) {
        double s = px[i];
        while (s > 1.0)
            s *= 0.5;
        if (py[i] != s)
            fail_msg("looped: element %lld", (long long)i);
    }
    uf_array *all[] = {a, b, o, sa, sb, so, x, y};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        uf_array_release(all[k]);
    uf_module_free(m);
}

/* Strided inputs: one streaming loop for the first element strides seen
 * (a[::2] + b[::2]), compiled once; other strides take the fused strided
 * loop. The inputs' bases end right after their last element: a loop
 * reading past it (the vectoriser's strided loads) fails under ASan. */
static void test_strided_compiled_once(void **state)
{
    (void)state;
    uf_func *f;
    uf_module *m = add_module("strided.py", &f);
    uf_array *a = ramp_len(UF_FLOAT64, 0, 2 * N - 1);
    uf_array *b = ramp_len(UF_FLOAT64, 1, 2 * N - 1);
    uf_array *o = ramp_len(UF_FLOAT64, 2, N);
    uf_array *in[2] = {view_step(a, 0, N, 2), view_step(b, 0, N, 2)};
    uf_array *small[2] = {view_step(a, 0, 100, 2), view_step(b, 0, 100, 2)};
    uf_array *so = view(o, 0, 100);
    call(f, small, 2, &so, 1, "cpu", 1); /* the signature, the fused loop */
    uint64_t n0 = ncompiles();
    call(f, in, 2, &o, 1, "cpu", 1);
    assert_int_equal(ncompiles(), n0 + 1);
    call(f, in, 2, &o, 1, "parallel", 2);
    assert_int_equal(ncompiles(), n0 + 1);
    const double *pa = uf_array_data(a), *pb = uf_array_data(b);
    const double *po = uf_array_data(o);
    for (int64_t i = 0; i < N; i++)
        if (po[i] != pa[2 * i] + pb[2 * i])
            fail_msg("a[::2] + b[::2]: element %lld", (long long)i);
    /* other strides: nothing more compiled, the same sums */
    int64_t n3 = (2 * N - 2) / 3 + 1;
    uf_array *in3[2] = {view_step(a, 0, n3, 3), view_step(b, 0, n3, 3)};
    uf_array *o3 = view(o, 0, n3);
    call(f, in3, 2, &o3, 1, "parallel", 2);
    assert_int_equal(ncompiles(), n0 + 1);
    for (int64_t i = 0; i < n3; i++)
        if (po[i] != pa[3 * i] + pb[3 * i])
            fail_msg("a[::3] + b[::3]: element %lld", (long long)i);
    uf_array *all[] = {a, b, o, in[0], in[1], small[0], small[1], so,
                       in3[0], in3[1], o3};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        uf_array_release(all[k]);
    uf_module_free(m);
}

/* In place (the output is the input) and broadcast (a stride-0 input: the
 * buffered path with the streaming loop), on both targets. */
static void test_in_place_and_broadcast(void **state)
{
    (void)state;
    uf_func *f = func("triad");
    static const char *const targets[] = {"cpu", "parallel"};
    for (int t = 0; t < 2; t++) {
        uf_array *a = ramp(UF_FLOAT64, 0, N), *b = ramp(UF_FLOAT64, 1, N);
        uf_error cerr;
        uf_array *a0 = uf_array_copy(a, UF_ORDER_C, &cerr);
        uf_assert_ok(a0 != NULL, &cerr);
        uf_array *in[2] = {a, b};
        call(f, in, 2, &a, 1, targets[t], 2);
        const double *p = uf_array_data(a), *p0 = uf_array_data(a0);
        const double *pb = uf_array_data(b);
        for (int64_t i = 0; i < N + 2 * PAD; i++)
            if (p[i] != p0[i] + 3.0 * pb[i])
                fail_msg("in place on %s: element %lld", targets[t],
                         (long long)i);

        /* (rows, 1) + (1, cols) -> (rows, cols): column 0 broadcast */
        uf_error err;
        int64_t rows = 300, cols = N / 300 + 1, shape[2] = {rows, cols};
        int64_t cshape[2] = {rows, 1}, rshape[2] = {1, cols};
        uf_array *cv = uf_empty(UF_FLOAT64, 2, cshape, UF_ORDER_C, &err);
        uf_array *rv = uf_empty(UF_FLOAT64, 2, rshape, UF_ORDER_C, &err);
        uf_array *o = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
        uf_assert_ok(cv && rv && o, &err);
        double *pc = uf_array_data(cv), *pr = uf_array_data(rv);
        for (int64_t i = 0; i < rows; i++)
            pc[i] = 0.5 * (double)i;
        for (int64_t j = 0; j < cols; j++)
            pr[j] = -0.25 * (double)j;
        uf_array *bin[2] = {cv, rv};
        call(f, bin, 2, &o, 1, targets[t], 2);
        const double *po = uf_array_data(o);
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++)
                if (po[i * cols + j] != pc[i] + 3.0 * pr[j])
                    fail_msg("broadcast on %s: [%lld, %lld]", targets[t],
                             (long long)i, (long long)j);
        uf_array *all[] = {a, b, a0, cv, rv, o};
        for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
            uf_array_release(all[k]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mark_rules),
        cmocka_unit_test(test_streamed_bits),
        cmocka_unit_test(test_compiled_once),
        cmocka_unit_test(test_strided_compiled_once),
        cmocka_unit_test(test_in_place_and_broadcast),
    };
    /* every large call streams, untimed (common/stream_pick.h) */
    setenv("UFJIT_STREAM_STORES", "always", 1);
    return cmocka_run_group_tests(tests, setup, teardown);
}
