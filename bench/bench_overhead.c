/* The fixed cost of a small ufunc call from C (issue 5's goal: a
 * 10-element call under 0.15 us on `cpu`, under 0.3 us on `parallel`):
 * ns per uf_call of a float64 add on 10-element arrays with and without a
 * preallocated output, on 0-d arrays, and on the parallel target.
 *
 *   bench_overhead [calls per round (default 1000000)] [rounds (5)]
 *
 * Rounds alternate between the cases (the machine is shared); the median
 * round of each case is printed, one "case ns" line each. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ufjit/ufjit.h"

static const char *const src =
    "from numba import vectorize\n"
    "@vectorize(['float64(float64, float64)'])\n"
    "def add(a, b):\n"
    "    return a + b\n";

enum { CPU_NULL, CPU_OUT, CPU_0D, PAR_NULL, PAR_OUT, NCASES };
static const char *const names[NCASES] = {
    "cpu_10_out_null", "cpu_10_out_given", "cpu_0d",
    "parallel_10_out_null", "parallel_10_out_given"};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ns per call of `calls` calls of case k, or -1 on an error. */
static double run_case(uf_func *f, int k, long calls, uf_array *const *in10,
                       uf_array *const *in0, uf_array *out10)
{
    uf_call_options opts = {0};
    uf_error err;
    uf_array *const *in = k == CPU_0D ? in0 : in10;
    bool given = k == CPU_OUT || k == PAR_OUT;

    opts.size = sizeof opts;
    opts.target = k >= PAR_NULL ? "parallel" : "cpu";
    uf_error_clear(&err);
    double t0 = now();
    for (long i = 0; i < calls; i++) {
        uf_array *out = given ? out10 : NULL;
        if (uf_call(f, in, 2, &out, 1, &opts, &err) != 0) {
            fprintf(stderr, "bench_overhead: %s: %s\n", names[k],
                    err.message);
            return -1;
        }
        if (!given)
            uf_array_release(out);
    }
    return (now() - t0) * 1e9 / (double)calls;
}

int main(int argc, char **argv)
{
    long calls = argc > 1 ? atol(argv[1]) : 1000000;
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    uf_error err;
    int64_t ten = 10;
    double one = 1.5, t[NCASES][64];
    uf_array *in10[2] = {NULL, NULL}, *in0[2] = {NULL, NULL}, *out10 = NULL;
    int rc = 1;

    if (calls < 1 || rounds < 1 || rounds > 64) {
        fprintf(stderr, "usage: bench_overhead [calls>0] [rounds 1..64]\n");
        return 2;
    }
    uf_error_clear(&err);
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = ctx ? uf_module_from_string(ctx, "overhead.py", src, &err)
                       : NULL;
    uf_func *f = m ? uf_module_get(m, "add", &err) : NULL;
    if (f == NULL)
        goto done;
    for (int a = 0; a < 2; a++)
        if (!(in10[a] = uf_full(UF_FLOAT64, 1, &ten, &one, UF_FLOAT64,
                                UF_ORDER_C, &err)) ||
            !(in0[a] = uf_full(UF_FLOAT64, 0, NULL, &one, UF_FLOAT64,
                               UF_ORDER_C, &err)))
            goto done;
    if (!(out10 = uf_empty(UF_FLOAT64, 1, &ten, UF_ORDER_C, &err)))
        goto done;
    /* warm up: compile, start the thread pool */
    for (int k = 0; k < NCASES; k++)
        if (run_case(f, k, calls / 10 + 1, in10, in0, out10) < 0)
            goto fail;
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < NCASES; k++)
            if ((t[k][r] = run_case(f, k, calls, in10, in0, out10)) < 0)
                goto fail;
    for (int k = 0; k < NCASES; k++) {
        qsort(t[k], (size_t)rounds, sizeof t[k][0], cmp_double);
        printf("%-22s %7.1f\n", names[k], t[k][rounds / 2]);
    }
    if (((double *)uf_array_data(out10))[9] != 3.0) {
        fprintf(stderr, "bench_overhead: wrong result\n");
        goto fail;
    }
    rc = 0;
    goto release;
done:
    fprintf(stderr, "bench_overhead: %s\n", err.message);
fail:
release:
    for (int a = 0; a < 2; a++) {
        uf_array_release(in10[a]);
        uf_array_release(in0[a]);
    }
    uf_array_release(out10);
    uf_module_free(m);
    uf_context_free(ctx);
    return rc;
}
