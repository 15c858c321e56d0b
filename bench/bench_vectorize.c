/* Times one vectorize kernel through the public API: the compile of its
 * signatures (first call) and then `reps` calls into a preallocated output.
 * Prints one line of JSON for bench/run.py.
 *
 * usage: bench_vectorize KERNELS.py NAME DTYPE N REPS NIN [SCALARS]
 * Inputs are arange-based arrays of N elements (first input) and, when
 * SCALARS is "scalars", 0-d arrays for the other inputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ufjit/ufjit.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: %s KERNELS.py NAME DTYPE N REPS NIN "
                        "[scalars]\n", argv[0]);
        return 2;
    }
    uf_error err;
    uf_error_clear(&err);
    uf_dtype dt;
    if (uf_dtype_from_name(argv[3], &dt, &err) < 0)
        goto fail;
    int64_t n = atoll(argv[4]);
    int reps = atoi(argv[5]), nin = atoi(argv[6]);
    int scalars = argc > 7 && strcmp(argv[7], "scalars") == 0;
    if (nin < 1 || nin > 8 || reps < 1)
        return 2;

    double t0 = now();
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = ctx ? uf_module_load(ctx, argv[1], &err) : NULL;
    uf_func *f = m ? uf_module_get(m, argv[2], &err) : NULL;
    if (f == NULL)
        goto fail;
    double t_load = now() - t0;

    uf_array *in[8] = {0};
    for (int i = 0; i < nin; i++) {
        double v = 1.5 + i;
        if (i > 0 && scalars)
            in[i] = uf_full(dt, 0, NULL, &v, UF_FLOAT64, UF_ORDER_C, &err);
        else
            in[i] = uf_linspace(1.0 + i, 2.0 + 3 * i, n, true, dt, &err);
        if (in[i] == NULL)
            goto fail;
    }
    uf_array *out = NULL;
    t0 = now();
    if (uf_call(f, in, nin, &out, 1, NULL, &err) < 0)
        goto fail;
    double t_first = now() - t0;

    double *t = calloc((size_t)reps, sizeof *t);
    for (int r = 0; r < reps; r++) {
        t0 = now();
        if (uf_call(f, in, nin, &out, 1, NULL, &err) < 0)
            goto fail;
        t[r] = now() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    printf("{\"load_s\": %.6g, \"first_call_s\": %.6g, \"median_s\": %.6g, "
           "\"min_s\": %.6g, \"max_s\": %.6g}\n", t_load, t_first,
           t[reps / 2], t[0], t[reps - 1]);
    free(t);
    uf_array_release(out);
    for (int i = 0; i < nin; i++)
        uf_array_release(in[i]);
    uf_module_free(m);
    uf_context_free(ctx);
    return 0;

fail:
    fprintf(stderr, "bench_vectorize: %s\n", err.message);
    return 1;
}
