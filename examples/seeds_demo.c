/* Runs the seeds' rel_diff and gaussian_pdf over 10 million elements
 * through ufjit's C API and checks a few values against the formulas.
 *
 * usage: seeds_demo [KERNELS.py] [N]   (default: seeds.py next to it) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ufjit/ufjit.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Calls `name` on inputs and returns the (allocated) output, timing it. */
static uf_array *run(uf_module *m, const char *name, uf_array **in, int nin,
                     uf_error *err)
{
    uf_func *f = uf_module_get(m, name, err);
    if (f == NULL)
        return NULL;
    uf_array *out = NULL;
    double t0 = now();
    if (uf_call(f, in, nin, &out, 1, NULL, err) < 0)
        return NULL;
    double t1 = now();
    if (uf_call(f, in, nin, &out, 1, NULL, err) < 0) { /* into `out` */
        uf_array_release(out);
        return NULL;
    }
    printf("%-13s first call (compiles) %7.2f ms, second call %7.2f ms\n",
           name, (t1 - t0) * 1e3, (now() - t1) * 1e3);
    return out;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "seeds.py";
    int64_t n = argc > 2 ? atoll(argv[2]) : 10000000;
    int status = 1;
    uf_error err;
    uf_error_clear(&err);
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = ctx ? uf_module_load(ctx, path, &err) : NULL;
    uf_array *x = uf_linspace(-3, 3, n, true, UF_FLOAT32, &err);
    uf_array *y = uf_linspace(1, 2, n, true, UF_FLOAT32, &err);
    float mean = 0.0f, sigma = 1.0f;
    uf_array *mu = uf_full(UF_FLOAT32, 0, NULL, &mean, UF_FLOAT32,
                           UF_ORDER_C, &err);
    uf_array *sd = uf_full(UF_FLOAT32, 0, NULL, &sigma, UF_FLOAT32,
                           UF_ORDER_C, &err);
    uf_array *rd = NULL, *pdf = NULL;
    if (!m || !x || !y || !mu || !sd)
        goto done;

    rd = run(m, "rel_diff", (uf_array *[]){x, y}, 2, &err);
    pdf = run(m, "gaussian_pdf", (uf_array *[]){x, mu, sd}, 3, &err);
    if (rd == NULL || pdf == NULL)
        goto done;

    /* Spot checks against the formulas, in the kernels' own precision. */
    const float *xs = uf_array_data(x), *ys = uf_array_data(y);
    const float *r = uf_array_data(rd), *p = uf_array_data(pdf);
    status = 0;
    for (int64_t i = 0; i < n; i += n / 7 + 1) {
        double want_r = 2.0 * ((double)xs[i] - ys[i]) / ((double)xs[i] + ys[i]);
        double want_p = exp(-0.5 * (double)xs[i] * xs[i]) /
                        (double)(1.0f * (float)sqrt(2 * M_PI));
        if (fabs(r[i] - want_r) > 1e-5 * fabs(want_r) + 1e-6 ||
            fabs(p[i] - want_p) > 1e-6) {
            printf("mismatch at %lld: %g vs %g, %g vs %g\n", (long long)i,
                   r[i], want_r, p[i], want_p);
            status = 1;
        }
    }
    printf("%lld elements, results %s\n", (long long)n,
           status ? "WRONG" : "checked");

done:
    if (err.code != UF_ERR_OK)
        fprintf(stderr, "seeds_demo: %s\n", err.message);
    uf_array_release(rd);
    uf_array_release(pdf);
    uf_array_release(x);
    uf_array_release(y);
    uf_array_release(mu);
    uf_array_release(sd);
    uf_module_free(m);
    uf_context_free(ctx);
    return status;
}
