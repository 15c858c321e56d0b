/* The transposed-rows gufunc variant (compiler/host/jit_gufunc_transpose.c)
 * against the loop the CPU's rule gives without it, in one process, the
 * variants alternating call by call so that machine noise hits each:
 * matvec (m,n),(n)->(m) float64 and float32, cpu and parallel (2
 * threads). Each variant has its own context, compiled under its own
 * environment: the default ("rule"), UFJIT_GUFUNC_TRANSPOSE=always
 * ("transposed"), and both again with UFJIT_CPU_FEATURES=-avx512f (the
 * AVX2 code of the same CPU). Prints, per case, the minimum and median
 * wall time and the CPU time per call of each variant (the CPU time is
 * what the machine's other load changes least), and the load average.
 *
 * A small BATCH (cache-resident operands: the compute alone) repeats the
 * call to 1e4 matrices a sample, specialised below the usual threshold.
 *
 * usage: bench_gu_transpose [REPS [BATCH [M [N [NVARIANTS]]]]]
 *        (9 1e4 64 64 4; 2: without the AVX2 pair) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ufjit/ufjit.h>

/* gufunc/gufunc_specialise.h (whose header needs LLVM's) */
int64_t uf__gufunc_spec_set_min_work(int64_t work);

static const char src[] =
    "from numba import guvectorize\n"
    "@guvectorize(['void(float64[:,:], float64[:], float64[:])',\n"
    "              'void(float32[:,:], float32[:], float32[:])'],\n"
    "             '(m,n),(n)->(m)')\n"
    "def matvec(M, v, y):\n"
    "    for i in range(M.shape[0]):\n"
    "        acc = 0.0\n"
    "        for j in range(M.shape[1]):\n"
    "            acc += M[i, j] * v[j]\n"
    "        y[i] = acc\n";

#define NVAR 4
static const struct {
    const char *name, *transpose, *features;
} variants[NVAR] = {
    {"rule", NULL, NULL},
    {"transposed", "always", NULL},
    {"rule-avx2", NULL, "-avx512f"},
    {"transposed-avx2", "always", "-avx512f"},
};

static double clock_of(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
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

static void setenv_or_unset(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 9;
    int64_t batch = argc > 2 ? (int64_t)atof(argv[2]) : 10000;
    int64_t m = argc > 3 ? atoi(argv[3]) : 64, n = argc > 4 ? atoi(argv[4])
                                                          : 64;
    int nvar = argc > 5 ? atoi(argv[5]) : NVAR;
    if (nvar < 1 || nvar > NVAR)
        nvar = NVAR;
    int64_t calls = batch < 10000 ? 10000 / batch : 1;
    if (calls > 1)
        uf__gufunc_spec_set_min_work(0);
    uf_error err;
    uf_context *ctx[NVAR];
    uf_func *fn[NVAR];
    uf_module *mod[NVAR];
    for (int k = 0; k < NVAR; k++) {
        ctx[k] = uf_context_new(&err);
        mod[k] = ctx[k] ? uf_module_from_string(ctx[k], "mv.py", src, &err)
                        : NULL;
        fn[k] = mod[k] ? uf_module_get(mod[k], "matvec", &err) : NULL;
        if (!fn[k]) {
            fprintf(stderr, "bench_gu_transpose: %s\n", err.message);
            return 1;
        }
    }
    static const uf_dtype types[2] = {UF_FLOAT64, UF_FLOAT32};
    static const char *const targets[2] = {"cpu", "parallel"};
    double load_before = load1();
    for (int t = 0; t < 2; t++) {
        int64_t ms[3] = {batch, m, n}, vs[2] = {batch, n};
        uf_array *in[2] = {uf_empty(types[t], 3, ms, UF_ORDER_C, &err),
                           uf_empty(types[t], 2, vs, UF_ORDER_C, &err)};
        uf_array *y[NVAR] = {NULL};
        if (!in[0] || !in[1])
            return 1;
        for (int a = 0; a < 2; a++) {
            int64_t size = uf_array_size(in[a]);
            char *p = uf_array_data(in[a]);
            srand(1 + a);
            for (int64_t i = 0; i < size; i++) {
                double x = rand() / (double)RAND_MAX - 0.5;
                if (t == 0)
                    ((double *)p)[i] = x;
                else
                    ((float *)p)[i] = (float)x;
            }
        }
        for (int g = 0; g < 2; g++) {
            uf_call_options o = {.size = sizeof o, .target = targets[g],
                                 .num_threads = 2};
            double *wall = calloc((size_t)(NVAR * reps), sizeof *wall);
            double *cpu = calloc((size_t)(NVAR * reps), sizeof *cpu);
            for (int r = -1; r < reps; r++)
                for (int k = 0; k < nvar; k++) {
                    if (r < 0) { /* compiles under the variant's env */
                        setenv_or_unset("UFJIT_GUFUNC_TRANSPOSE",
                                        variants[k].transpose);
                        setenv_or_unset("UFJIT_CPU_FEATURES",
                                        variants[k].features);
                    }
                    uf_array *out[1] = {y[k]};
                    double w0 = clock_of(CLOCK_MONOTONIC),
                           c0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
                    for (int64_t c = 0; c < (r < 0 ? 1 : calls); c++)
                        if (uf_call(fn[k], in, 2, out, 1, &o, &err) != 0) {
                            fprintf(stderr, "bench_gu_transpose: %s\n",
                                    err.message);
                            return 1;
                        }
                    double w1 = clock_of(CLOCK_MONOTONIC),
                           c1 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
                    y[k] = out[0];
                    if (r >= 0) {
                        wall[k * reps + r] = w1 - w0;
                        cpu[k * reps + r] = c1 - c0;
                    }
                }
            unsetenv("UFJIT_GUFUNC_TRANSPOSE");
            unsetenv("UFJIT_CPU_FEATURES");
            for (int k = 1; k < nvar; k++)
                if (memcmp(uf_array_data(y[0]), uf_array_data(y[k]),
                           (size_t)(batch * m) * uf_dtype_itemsize(types[t]))) {
                    fprintf(stderr, "bench_gu_transpose: %s differs\n",
                            variants[k].name);
                    return 1;
                }
            printf("matvec %lldx%lld x %lld (x %lld calls) %s %s:",
                   (long long)m, (long long)n, (long long)batch,
                   (long long)calls,
                   t == 0 ? "float64" : "float32", targets[g]);
            for (int k = 0; k < nvar; k++) {
                qsort(wall + k * reps, (size_t)reps, sizeof *wall, cmp);
                qsort(cpu + k * reps, (size_t)reps, sizeof *cpu, cmp);
                printf("  %s min %.2f med %.2f cpu %.2f ms", variants[k].name,
                       1e3 * wall[k * reps], 1e3 * wall[k * reps + reps / 2],
                       1e3 * cpu[k * reps]);
            }
            printf("\n");
            fflush(stdout);
            free(wall);
            free(cpu);
        }
        for (int k = 0; k < NVAR; k++)
            uf_array_release(y[k]);
        uf_array_release(in[0]);
        uf_array_release(in[1]);
    }
    printf("load average (1 min) %.2f before, %.2f after\n", load_before,
           load1());
    for (int k = 0; k < NVAR; k++) {
        uf_module_free(mod[k]);
        uf_context_free(ctx[k]);
    }
    return 0;
}
