/* The parallel target against cpu, from C: the triad a + 3.0*b (float64)
 * and rel_diff (float32) on N elements (default 10 million), cpu and
 * parallel on 2 threads, alternating so machine noise hits both; a call
 * on 10 elements on each target (the serial cutoff); and the runtime's
 * bare fork-join (uf__parallel_for on 2 threads, trivial body).
 *
 * A process has one threading layer, so without arguments the program runs
 * itself once per layer built (UFJIT_THREADING_LAYER set in the child).
 * Prints one JSON object per line for bench/run.py.
 *
 * usage: bench_parallel [N [REPS]]           every layer
 *        bench_parallel --this N REPS        the layer of this process */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ufjit/ufjit.h>

/* (internal: the bare fork-join below times the runtime's parallel-for
 * itself, beneath any call path) */
#include "targets/parallel/parallel.h"

/* The threading layer in use, for the records. */
static const char *layer_name(void)
{
    const char *l = uf_threading_layer(NULL);
    return l != NULL ? l : "invalid";
}

static const char kernels[] =
    "from numba import vectorize\n"
    "@vectorize(['float64(float64, float64)'])\n"
    "def triad(a, b):\n"
    "    return a + 3.0 * b\n"
    "@vectorize(['float32(float32, float32)'])\n"
    "def rel_diff(x, y):\n"
    "    return 2 * (x - y) / (x + y)\n";

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

static void report(const char *name, const char *target, int threads,
                   long long n, double *t, int reps)
{
    qsort(t, (size_t)reps, sizeof *t, cmp);
    printf("{\"layer\": \"%s\", \"case\": \"%s\", \"target\": \"%s\", "
           "\"threads\": %d, \"n\": %lld, \"median_s\": %.6g, "
           "\"min_s\": %.6g, \"max_s\": %.6g}\n",
           layer_name(), name, target, threads, n, t[reps / 2], t[0],
           t[reps - 1]);
    fflush(stdout);
}

/* Calls f on `in` into `out` `inner` times per sample, `reps` samples per
 * target, cpu and parallel alternating. */
static int time_case(uf_func *f, const char *name, uf_array **in,
                     uf_array *out, long long n, int reps, int inner,
                     uf_error *err)
{
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    uf_call_options par = {.size = sizeof par, .target = "parallel",
                           .num_threads = 2};
    double *tc = calloc((size_t)reps, sizeof *tc);
    double *tp = calloc((size_t)reps, sizeof *tp);
    int rc = -1;

    if (tc == NULL || tp == NULL)
        goto done;
    /* warm up: compile, first touch, thread pools */
    if (uf_call(f, in, 2, &out, 1, &cpu, err) < 0 ||
        uf_call(f, in, 2, &out, 1, &par, err) < 0)
        goto done;
    for (int r = 0; r < reps; r++) {
        for (int side = 0; side < 2; side++) {
            const uf_call_options *o = (r + side) % 2 ? &par : &cpu;
            double t0 = now();
            for (int k = 0; k < inner; k++)
                if (uf_call(f, in, 2, &out, 1, o, err) < 0)
                    goto done;
            (o == &par ? tp : tc)[r] = (now() - t0) / inner;
        }
    }
    report(name, "cpu", 1, n, tc, reps);
    report(name, "parallel", 2, n, tp, reps);
    rc = 0;
done:
    free(tc);
    free(tp);
    return rc;
}

static int run_case(uf_module *m, const char *kernel, uf_dtype dt,
                    long long n, int reps, int inner, uf_error *err)
{
    uf_func *f = uf_module_get(m, kernel, err);
    uf_array *in[2] = {NULL, NULL}, *out = NULL;
    char name[64];
    int rc = -1;

    if (f == NULL)
        return -1;
    in[0] = uf_linspace(1.0, 2.0, n, true, dt, err);
    in[1] = in[0] ? uf_linspace(3.0, 5.0, n, true, dt, err) : NULL;
    out = in[1] ? uf_empty(dt, 1, (int64_t[]){n}, UF_ORDER_C, err) : NULL;
    snprintf(name, sizeof name, "%s_%s", kernel, uf_dtype_name(dt));
    if (out != NULL)
        rc = time_case(f, name, in, out, n, reps, inner, err);
    uf_array_release(out);
    uf_array_release(in[1]);
    uf_array_release(in[0]);
    return rc;
}

static int nothing(void *ctx, int64_t begin, int64_t end, uf_error *err)
{
    (void)ctx, (void)begin, (void)end, (void)err;
    return 0;
}

static int fork_join(int reps, uf_error *err)
{
    enum { INNER = 2000 };
    double *t = calloc((size_t)reps, sizeof *t);

    if (t == NULL)
        return -1;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        for (int k = 0; k < INNER; k++)
            if (uf__parallel_for(2, 1, 2, nothing, NULL, err) != 0) {
                free(t);
                return -1;
            }
        t[r] = (now() - t0) / INNER;
    }
    report("fork_join_empty", "runtime", 2, 2, t, reps);
    free(t);
    return 0;
}

static int this_layer(long long n, int reps)
{
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = ctx ? uf_module_from_string(ctx, "bench_parallel.py",
                                               kernels, &err)
                       : NULL;
    int rc = -1;

    if (m != NULL && run_case(m, "triad", UF_FLOAT64, n, reps, 1, &err) == 0 &&
        run_case(m, "rel_diff", UF_FLOAT32, n, reps, 1, &err) == 0 &&
        run_case(m, "triad", UF_FLOAT64, 10, reps, 100000, &err) == 0 &&
        run_case(m, "triad", UF_FLOAT64, 100000, reps, 200, &err) == 0 &&
        fork_join(reps, &err) == 0)
        rc = 0;
    if (rc != 0)
        fprintf(stderr, "bench_parallel: %s\n", err.message);
    uf_module_free(m);
    uf_context_free(ctx);
    return rc == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "--this") == 0)
        return this_layer(atoll(argv[2]), atoi(argv[3]));

    const char *n = argc > 1 ? argv[1] : "10000000";
    const char *reps = argc > 2 ? argv[2] : "21";
    char layers[64];
    int status = 0;

    snprintf(layers, sizeof layers, "%s", uf_threading_layers_available());
    for (char *l = strtok(layers, " "); l != NULL; l = strtok(NULL, " ")) {
        pid_t pid = fork();

        if (pid < 0)
            return 1;
        if (pid == 0) {
            setenv("UFJIT_THREADING_LAYER", l, 1);
            execl("/proc/self/exe", argv[0], "--this", n, reps, (char *)NULL);
            _exit(127);
        }
        int st;
        if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
            WEXITSTATUS(st) != 0)
            status = 1;
    }
    return status;
}
