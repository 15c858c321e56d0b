/* ufjit's inline exp (compiler/host/codegen_host_inline.c) against the
 * library calls it replaces, through ufjit itself: a @vectorize kernel
 * called with uf_call on N elements (in L1/L2), one thread. Variants,
 * each its own context compiled under its own environment:
 *   inline   UFJIT_INLINE_VECMATH=1 (inline wherever the CPU has FMA)
 *   libmvec  UFJIT_INLINE_VECMATH=0 UFJIT_ENABLE_SLEEF=0
 *   sleef    UFJIT_INLINE_VECMATH=0 (SLEEF where codegen_host_sleef.c
 *            picks it, else libmvec)
 * each on the widest ISA and on AVX2 (UFJIT_CPU_FEATURES=-avx512f). The
 * variants alternate call by call so that the machine's other load hits
 * each alike; prints per kernel and dtype the minimum wall time and the
 * minimum CPU time per element, and what the loop calls.
 *
 * usage: bench_inline_vecmath [REPS [N]]   (defaults 30 4096) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ufjit/ufjit.h>

static const char src[] =
    "import math\n"
    "from numba import vectorize\n"
    "SQRT_2PI = math.sqrt(2.0 * math.pi)\n"
    "@vectorize(['float32(float32)', 'float64(float64)'])\n"
    "def k_exp(x):\n"
    "    return math.exp(x)\n"
    "@vectorize(['float32(float32)', 'float64(float64)'])\n"
    "def k_gauss(x):\n"
    "    return math.exp(-0.5 * ((x - 0.25) / 1.5) ** 2) / (1.5 * SQRT_2PI)\n"
    "@vectorize(['float32(float32)', 'float64(float64)'])\n"
    "def k_gnoexp(x):\n"
    "    return (-0.5 * ((x - 0.25) / 1.5) ** 2) / (1.5 * SQRT_2PI)\n";

#define NVAR 6
static const struct {
    const char *name, *inl, *sleef, *features;
} variants[NVAR] = {
    {"inline", "1", NULL, NULL},
    {"libmvec", "0", "0", NULL},
    {"sleef", "0", NULL, NULL},
    {"inline-avx2", "1", NULL, "-avx512f"},
    {"libmvec-avx2", "0", "0", "-avx512f"},
    {"sleef-avx2", "0", NULL, "-avx512f"},
};

/* exp alone, the bench's gaussian_pdf (scalar mean and sigma as
 * constants), and that without the exp: its two divisions alone */
static const char *const kernels[] = {"k_exp", "k_gauss", "k_gnoexp"};

static double clock_of(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double load1(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = -1;
        fclose(f);
    }
    return l;
}

static void set_or_unset(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

/* "_ZGVeN8v_exp" / "Sleef_expf16_u10avx512f" / "no call": the first
 * vector math function the assembly names. */
static void what_calls(uf_func *f, const char *sig, char *buf, size_t size)
{
    uf_error err;
    char *text = uf_func_inspect(f, sig, UF_INSPECT_ASM, &err);
    snprintf(buf, size, "no call");
    if (!text)
        return;
    const char *s = strstr(text, "_ZGV");
    if (!s)
        s = strstr(text, "Sleef_");
    if (s)
        snprintf(buf, size, "%.*s", (int)strcspn(s, "@ ,\t\n"), s);
    uf_free(text);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 30;
    int64_t n = argc > 2 ? atoll(argv[2]) : 4096;
    int inner = (int)(200000 / n) + 1;
    uf_error err;
    uf_context *ctx[NVAR];
    uf_module *mod[NVAR];
    char vm[NVAR][512];
    for (int v = 0; v < NVAR; v++) {
        set_or_unset("UFJIT_INLINE_VECMATH", variants[v].inl);
        set_or_unset("UFJIT_ENABLE_SLEEF", variants[v].sleef);
        set_or_unset("UFJIT_CPU_FEATURES", variants[v].features);
        ctx[v] = uf_context_new(&err);
        mod[v] = ctx[v] ? uf_module_from_string(ctx[v], "inline_vecmath.py",
                                                src, &err)
                        : NULL;
        const char *text = ctx[v] ? uf_jit_vector_math(ctx[v], &err) : NULL;
        if (!mod[v] || !text) {
            fprintf(stderr, "%s: %s\n", variants[v].name, err.message);
            return 1;
        }
        snprintf(vm[v], sizeof vm[v], "%s", text);
    }
    unsetenv("UFJIT_INLINE_VECMATH");
    unsetenv("UFJIT_ENABLE_SLEEF");
    unsetenv("UFJIT_CPU_FEATURES");
    for (int v = 0; v < NVAR; v++)
        printf("# %-13s %s\n", variants[v].name, vm[v]);
    printf("# %d rounds of %d calls on %lld elements, load average %.2f "
           "before\n",
           reps, inner, (long long)n, load1());
    printf("%-8s %-8s %-13s %9s %9s  %s\n", "kernel", "dtype", "variant",
           "ns/elem", "cpu ns", "loop calls");
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
        for (int f32 = 0; f32 < 2; f32++) {
            uf_dtype dt = f32 ? UF_FLOAT32 : UF_FLOAT64;
            uf_array *in = uf_empty(dt, 1, &n, UF_ORDER_C, &err);
            uf_array *out = uf_empty(dt, 1, &n, UF_ORDER_C, &err);
            if (!in || !out)
                return 1;
            for (int64_t i = 0; i < n; i++) {
                double x = -20.0 + 40.0 * (double)i / (double)n;
                if (f32)
                    ((float *)uf_array_data(in))[i] = (float)x;
                else
                    ((double *)uf_array_data(in))[i] = x;
            }
            uf_func *fn[NVAR];
            double best[NVAR], best_cpu[NVAR];
            const char *sig = f32 ? "float32(float32)" : "float64(float64)";
            for (int v = 0; v < NVAR; v++) {
                fn[v] = uf_module_get(mod[v], kernels[k], &err);
                if (!fn[v])
                    return 1;
                best[v] = best_cpu[v] = 1e30;
            }
            for (int r = -1; r < reps; r++)
                for (int v = 0; v < NVAR; v++) {
                    double t0 = clock_of(CLOCK_MONOTONIC);
                    double c0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
                    for (int i = 0; i < inner; i++)
                        if (uf_call(fn[v], &in, 1, &out, 1, NULL, &err) != 0) {
                            fprintf(stderr, "%s\n", err.message);
                            return 1;
                        }
                    double t = clock_of(CLOCK_MONOTONIC) - t0;
                    double c = clock_of(CLOCK_PROCESS_CPUTIME_ID) - c0;
                    if (r >= 0 && t < best[v])
                        best[v] = t;
                    if (r >= 0 && c < best_cpu[v])
                        best_cpu[v] = c;
                }
            for (int v = 0; v < NVAR; v++) {
                char calls[64];
                what_calls(fn[v], sig, calls, sizeof calls);
                double per = 1e9 / ((double)inner * (double)n);
                printf("%-8s %-8s %-13s %9.3f %9.3f  %s\n", kernels[k] + 2,
                       f32 ? "float32" : "float64", variants[v].name,
                       best[v] * per, best_cpu[v] * per, calls);
            }
            uf_array_release(in);
            uf_array_release(out);
        }
    printf("# load average %.2f after\n", load1());
    for (int v = 0; v < NVAR; v++) {
        uf_module_free(mod[v]);
        uf_context_free(ctx[v]);
    }
    return 0;
}
