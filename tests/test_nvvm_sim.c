/* CUDA kernels compiled for cudasim (compiler/nvvm/nvvm_sim.c) and run by
 * a stub simulator defined here (threads one after another, the special
 * registers in a uf__sim_thread that uf__sim_self returns), with the
 * parameters packed as cuLaunchKernel takes them (nvvm.h's ABI, sizes
 * from param_sizes): every variant gives the CPU target's results bit
 * for bit, broadcasting with stride 0 and N-d views in one launch, several
 * outputs, scalars by value, and the status word reporting an IndexError
 * and an assert as the CPU does. */
#include "nvvm_util.h"

#include "compiler/host/jit.h"
#include "targets/cpu/cpu.h"

/* ---- the stub simulator ---- */

static uf__sim_thread self;

static const uf__sim_thread *stub_self(void)
{
    return &self;
}

/* Runs `k` over grid x block threads, one after another. */
static void launch(const uf__sim_kernel *k, unsigned grid, unsigned block,
                   void **params)
{
    memset(&self, 0, sizeof self);
    self.ntid[0] = block;
    self.nctaid[0] = grid;
    self.ntid[1] = self.ntid[2] = self.nctaid[1] = self.nctaid[2] = 1;
    self.warpsize = 32;
    for (unsigned b = 0; b < grid; b++)
        for (unsigned t = 0; t < block; t++) {
            self.ctaid[0] = b;
            self.tid[0] = t;
            self.laneid = t % 32;
            k->fn(params);
        }
}

static uf__jit *sim_jit(uf_error *err)
{
    static const uf__runtime_symbol rt[] = {
        {UF__SIM_SELF, (void *)(uintptr_t)stub_self}};
    return uf__jit_new(rt, 1, err);
}

static uf__jit *cpu_jit(uf_error *err)
{
    int n;
    const uf__runtime_symbol *rt = uf__cpu_runtime_symbols(&n);
    return uf__jit_new(rt, n, err);
}

/* Parameters packed from a list of (pointer, size) as the kernel's
 * param_sizes say they must be. */
typedef struct packed {
    void *p[64];
    int n;
} packed;

static void put(packed *pk, const uf__sim_kernel *k, void *v, size_t size)
{
    assert_true(pk->n < k->nparams);
    assert_int_equal(k->param_sizes[pk->n], size);
    pk->p[pk->n++] = v;
}

typedef struct fixture {
    nvvm_file f;
    uf__jit *sim, *cpu;
} fixture;

static int setup(void **state)
{
    /* the CPU's math through libm, as cudasim's: bit-identical results */
    setenv("UFJIT_ENABLE_LIBMVEC", "0", 1);
    fixture *fx = calloc(1, sizeof *fx);
    uf_error err;
    char path[512];
    snprintf(path, sizeof path, "%s/seeds.py", UF_TEST_KERNELS_DIR);
    if (!fx || !nvvm_file_load(&fx->f, path) || !(fx->sim = sim_jit(&err)) ||
        !(fx->cpu = cpu_jit(&err)))
        return -1;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    uf__jit_free(fx->sim);
    uf__jit_free(fx->cpu);
    nvvm_file_free(&fx->f);
    free(fx);
    return 0;
}

static void sig_of(uf__kmodule *km, const char *kernel, const char *sig,
                   nvvm_sig *s)
{
    const uf__kernel_decl *d = uf__kmodule_find(km, kernel);
    assert_non_null(d);
    assert_true(nvvm_sig_make(km, d, sig, s));
    s->spec.out_types = s->outs;
}

/* The CPU target's loop over n contiguous elements of ptrs. */
static void cpu_run(uf__jit *cpu, const nvvm_sig *s, char **ptrs, int nops,
                    int64_t n, const size_t *itemsize)
{
    uf_error err;
    uf__strided_loop loop;
    uf_assert_ok(uf__jit_ufunc_loop(cpu, s->spec.tf, s->outs, &loop, NULL,
                                    &err) == 0,
                 &err);
    int64_t strides[16];
    for (int k = 0; k < nops; k++)
        strides[k] = (int64_t)itemsize[k];
    assert_int_equal(loop(NULL, ptrs, &n, strides, NULL), 0);
}

/* gaussian_pdf(x, mean, sigma) float32: contiguous, then mean and sigma
 * broadcast (stride 0) in the strided variant, then sigma by value with
 * 32-bit indices; 37 elements on a 2 x 8 grid (grid-stride). */
static void test_gaussian_pdf_variants(void **state)
{
    fixture *fx = *state;
    uf_error err;
    nvvm_sig s;
    sig_of(fx->f.km, "gaussian_pdf", "float32(float32, float32, float32)", &s);
    enum { N = 37 };
    float x[N], mean[N], sigma[N], want[N], got[N];
    for (int i = 0; i < N; i++) {
        x[i] = -3.0f + 0.17f * (float)i;
        mean[i] = 0.25f;
        sigma[i] = 1.5f;
    }
    char *ptrs[4] = {(char *)x, (char *)mean, (char *)sigma, (char *)want};
    size_t isz[4] = {4, 4, 4, 4};
    cpu_run(fx->cpu, &s, ptrs, 4, N, isz);

    for (int variant = 0; variant < 3; variant++) {
        s.spec.v = (uf__nvvm_variant){0};
        if (variant == 1)
            s.spec.v.layout = UF__NVVM_STRIDED;
        if (variant == 2) {
            s.spec.v.index32 = true;
            s.spec.v.scalar_in = 1u << 2;
        }
        uf__nvvm_kernel kernel;
        uf__nvvm_sites sites;
        uf__sim_kernel k;
        uf_assert_ok(uf__nvvm_ufunc_sim(fx->sim, &s.spec, &kernel, &sites,
                                        &k, &err) == 0,
                     &err);
        assert_false(kernel.has_status);
        memset(got, 0, sizeof got);
        packed pk = {0};
        int64_t n64 = N, st4 = 4, st0 = 0;
        int32_t n32 = N;
        void *px = x, *pm = mean, *ps = sigma, *po = got;
        if (variant == 2)
            put(&pk, &k, &n32, 4);
        else
            put(&pk, &k, &n64, 8);
        put(&pk, &k, &px, 8);
        if (variant == 1)
            put(&pk, &k, &st4, 8);
        put(&pk, &k, &pm, 8);
        if (variant == 1)
            put(&pk, &k, &st0, 8); /* broadcast mean[0] */
        if (variant == 2)
            put(&pk, &k, &sigma[0], 4);
        else
            put(&pk, &k, &ps, 8);
        if (variant == 1)
            put(&pk, &k, &st0, 8);
        put(&pk, &k, &po, 8);
        if (variant == 1)
            put(&pk, &k, &st4, 8);
        assert_int_equal(pk.n, k.nparams);
        launch(&k, 2, 8, pk.p);
        assert_memory_equal(got, want, sizeof want);
        uf__nvvm_sites_clear(&sites);
    }
}

/* rel_diff float64 on a 2-D broadcast in ONE N-d launch: x of shape
 * (3, 4) transposed (a non-contiguous view) against y of shape (4,)
 * broadcast over rows. */
static void test_rel_diff_nd(void **state)
{
    fixture *fx = *state;
    uf_error err;
    nvvm_sig s;
    sig_of(fx->f.km, "rel_diff", "float64(float64, float64)", &s);
    s.spec.v = (uf__nvvm_variant){.layout = UF__NVVM_ND, .ndim = 2};
    uf__nvvm_kernel kernel;
    uf__nvvm_sites sites;
    uf__sim_kernel k;
    uf_assert_ok(uf__nvvm_ufunc_sim(fx->sim, &s.spec, &kernel, &sites, &k,
                                    &err) == 0,
                 &err);
    /* base: 4 x 3 C-ordered; x = base.T, shape (3, 4), strides (8, 24) */
    double base[12], y[4] = {0.5, -1.0, 2.0, 7.0}, got[12], want[12];
    for (int i = 0; i < 12; i++)
        base[i] = 1.0 + 0.37 * i;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) {
            double xv = base[c * 3 + r], yv = y[c];
            want[r * 4 + c] = 2 * (xv - yv) / (xv + yv);
        }
    int64_t n = 12, shape[2] = {3, 4}, xs[2] = {8, 24}, ys[2] = {0, 8},
            os[2] = {32, 8};
    void *px = base, *py = y, *po = got;
    packed pk = {0};
    put(&pk, &k, &n, 8);
    put(&pk, &k, &shape[0], 8);
    put(&pk, &k, &shape[1], 8);
    put(&pk, &k, &px, 8);
    put(&pk, &k, &xs[0], 8);
    put(&pk, &k, &xs[1], 8);
    put(&pk, &k, &py, 8);
    put(&pk, &k, &ys[0], 8);
    put(&pk, &k, &ys[1], 8);
    put(&pk, &k, &po, 8);
    put(&pk, &k, &os[0], 8);
    put(&pk, &k, &os[1], 8);
    assert_int_equal(pk.n, k.nparams);
    launch(&k, 1, 5, pk.p);
    assert_memory_equal(got, want, sizeof want);
    uf__nvvm_sites_clear(&sites);
}

/* A module of its own for kernels written here. */
static const char extra_text[] =
    "import math\n"
    "from numba import vectorize\n"
    "\n"
    "@vectorize(['UniTuple(float64, 2)(float64)'])\n"
    "def sincos(x):\n"
    "    return math.sin(x), math.cos(x)\n"
    "\n"
    "@vectorize(['float64(float64, int64)'])\n"
    "def pick(x, k):\n"
    "    t = (x, 2.0 * x, 3.0 * x)\n"
    "    return t[k]\n"
    "\n"
    "@vectorize(['float64(float64)'])\n"
    "def non_negative_twice(x):\n"
    "    assert x >= 0\n"
    "    return x * 2\n";
static uf__source extra_src = {"extra.py", extra_text, sizeof extra_text - 1};

/* sincos: two outputs from one launch, as the CPU's loop gives them. */
static void test_two_outputs(void **state)
{
    fixture *fx = *state;
    uf_error err;
    uf__kmodule *km = uf__kmodule_new(&extra_src, &err);
    uf_assert_ok(km != NULL, &err);
    nvvm_sig s;
    sig_of(km, "sincos", "UniTuple(float64, 2)(float64)", &s);
    enum { N = 9 };
    double x[N], s1[N], c1[N], s2[N], c2[N];
    for (int i = 0; i < N; i++)
        x[i] = -2.0 + 0.55 * i;
    char *ptrs[3] = {(char *)x, (char *)s1, (char *)c1};
    size_t isz[3] = {8, 8, 8};
    cpu_run(fx->cpu, &s, ptrs, 3, N, isz);
    uf__nvvm_kernel kernel;
    uf__nvvm_sites sites;
    uf__sim_kernel k;
    uf_assert_ok(uf__nvvm_ufunc_sim(fx->sim, &s.spec, &kernel, &sites, &k,
                                    &err) == 0,
                 &err);
    int64_t n = N;
    void *px = x, *ps = s2, *pc = c2;
    packed pk = {0};
    put(&pk, &k, &n, 8);
    put(&pk, &k, &px, 8);
    put(&pk, &k, &ps, 8);
    put(&pk, &k, &pc, 8);
    launch(&k, 3, 2, pk.p);
    assert_memory_equal(s1, s2, sizeof s1);
    assert_memory_equal(c1, c2, sizeof c1);
    uf__nvvm_sites_clear(&sites);
    uf__kmodule_free(km);
}

/* Under UFJIT_DEBUG=1, t[k] out of range: the status word holds what the
 * CPU's message says (kernel, line, index, axis -1, size 3), the failing
 * threads counted; an assert gives UF__JIT_ASSERT + its line. */
static void test_status_word(void **state)
{
    fixture *fx = *state;
    uf_error err;
    setenv("UFJIT_DEBUG", "1", 1);
    uf__kmodule *km = uf__kmodule_new(&extra_src, &err);
    uf_assert_ok(km != NULL, &err);
    nvvm_sig s;
    sig_of(km, "pick", "float64(float64, int64)", &s);
    uf__nvvm_kernel kernel;
    uf__nvvm_sites sites;
    uf__sim_kernel k;
    uf_assert_ok(uf__nvvm_ufunc_sim(fx->sim, &s.spec, &kernel, &sites, &k,
                                    &err) == 0,
                 &err);
    unsetenv("UFJIT_DEBUG");
    assert_true(kernel.has_status);
    assert_int_equal(k.nparams, 5); /* n, x, k, out, status */
    double x[6] = {1, 2, 3, 4, 5, 6}, out[6] = {0};
    int64_t idx[6] = {0, 1, 2, 7, 1, 9};
    uf__nvvm_status st;
    memset(&st, 0, sizeof st);
    int64_t n = 6;
    void *px = x, *pi = idx, *po = out, *pst = &st;
    packed pk = {0};
    put(&pk, &k, &n, 8);
    put(&pk, &k, &px, 8);
    put(&pk, &k, &pi, 8);
    put(&pk, &k, &po, 8);
    put(&pk, &k, &pst, 8);
    launch(&k, 1, 6, pk.p);
    assert_int_equal(st.code, UF__JIT_INDEX);
    assert_int_equal(st.nfail, 2);
    assert_int_equal(st.index, 7); /* thread 3 ran first */
    assert_int_equal(st.size, 3);
    assert_int_equal(st.axis, -1);
    assert_int_equal(st.line, 11);
    assert_true(st.site >= 0 && st.site < sites.n);
    assert_string_equal(sites.v[st.site].kernel, "pick");
    assert_string_equal(sites.v[st.site].file, "extra.py");
    /* the threads that did not fail wrote their element */
    assert_true(out[0] == 1.0 && out[1] == 4.0 && out[2] == 9.0);
    uf__nvvm_sites_clear(&sites);

    sig_of(km, "non_negative_twice", "float64(float64)", &s);
    uf_assert_ok(uf__nvvm_ufunc_sim(fx->sim, &s.spec, &kernel, &sites, &k,
                                    &err) == 0,
                 &err);
    assert_true(kernel.has_status);
    double y[3] = {1, -1, 2};
    memset(&st, 0, sizeof st);
    void *py = y;
    packed p2 = {0};
    put(&p2, &k, &n, 8);
    n = 3;
    put(&p2, &k, &py, 8);
    put(&p2, &k, &po, 8);
    put(&p2, &k, &pst, 8);
    launch(&k, 1, 4, p2.p);
    assert_int_equal(st.code, UF__JIT_ASSERT + 15);
    assert_int_equal(st.nfail, 1);
    uf__nvvm_sites_clear(&sites);
    uf__kmodule_free(km);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gaussian_pdf_variants),
        cmocka_unit_test(test_rel_diff_nd),
        cmocka_unit_test(test_two_outputs),
        cmocka_unit_test(test_status_word),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
