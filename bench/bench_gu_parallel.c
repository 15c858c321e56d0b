/* The parallel target of gufuncs and reductions against cpu, from C:
 * the gufunc cases of issue 4 (matvec 4x4 x 1e6 and 64x64 x 1e4, matmul
 * 8x8 x 1e5, (n),()->(n) 1e5 x 100, max_min 1e6 x 16; kernels as in
 * bench/kernels_gufunc.py, outputs preallocated) and the reductions
 * (sum of 1e8 float64, axis 0 and axis 1 of 1e4 x 1e4 float64), each on
 * cpu and on parallel with 2 threads, alternating so that machine noise
 * hits both sides. Prints one JSON object per line: medians, extremes,
 * the bandwidth the case implies (bytes read and written once) and the
 * load average before and after.
 *
 * A process has one threading layer, so without arguments the program
 * runs itself once per layer built (UFJIT_THREADING_LAYER set).
 *
 * usage: bench_gu_parallel [REPS [SCALE [CASE]]]     every layer
 *        bench_gu_parallel --this REPS SCALE [CASE]  this process's layer
 * SCALE divides every size (for a quick smoke run); CASE runs the cases
 * whose names contain it. With BENCH_GU_GENERIC=1 the gufunc cases also
 * run with core-shape specialisation off (gufunc_specialise.h), targets
 * "cpu-generic" and "parallel-generic", interleaved with the others;
 * BENCH_GU_SIDES=NAME runs that target alone (for perf stat);
 * BENCH_GU_MIN_WORK=N specialises calls from N kernel steps on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ufjit/ufjit.h>

/* gufunc/gufunc_specialise.h (whose header needs LLVM's) */
int64_t uf__gufunc_spec_set_min_work(int64_t work);

/* The threading layer in use, for the records. */
static const char *layer_name(void)
{
    const char *l = uf_threading_layer(NULL);
    return l != NULL ? l : "invalid";
}

static const char kernels[] =
    "from numba import guvectorize, vectorize\n"
    "@guvectorize(['void(float64[:,:], float64[:], float64[:])'],\n"
    "             '(m,n),(n)->(m)')\n"
    "def matvec(M, v, y):\n"
    "    for i in range(M.shape[0]):\n"
    "        acc = 0.0\n"
    "        for j in range(M.shape[1]):\n"
    "            acc += M[i, j] * v[j]\n"
    "        y[i] = acc\n"
    "@guvectorize(['void(float64[:,:], float64[:,:], float64[:,:])'],\n"
    "             '(m,n),(n,p)->(m,p)')\n"
    "def matmul(A, B, C):\n"
    "    for i in range(A.shape[0]):\n"
    "        for k in range(B.shape[1]):\n"
    "            C[i, k] = 0.0\n"
    "        for j in range(A.shape[1]):\n"
    "            a = A[i, j]\n"
    "            for k in range(B.shape[1]):\n"
    "                C[i, k] += a * B[j, k]\n"
    "@guvectorize(['void(float64[:], float64, float64[:])'], '(n),()->(n)')\n"
    "def g_scalar(x, c, y):\n"
    "    for i in range(x.shape[0]):\n"
    "        y[i] = x[i] * c\n"
    "@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n)->(),()')\n"
    "def max_min(x, hi, lo):\n"
    "    a = x[0]\n"
    "    b = x[0]\n"
    "    for i in range(1, x.shape[0]):\n"
    "        a = max(a, x[i])\n"
    "        b = min(b, x[i])\n"
    "    hi[0] = a\n"
    "    lo[0] = b\n"
    "@vectorize(['float64(float64, float64)'], identity=0)\n"
    "def vadd(a, b):\n"
    "    return a + b\n";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of every thread of the process (user + system). */
static double cpu_time(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double load1(void)
{
    double l[1] = {-1};
    return getloadavg(l, 1) == 1 ? l[0] : -1;
}

/* t: wall times, u: CPU times of the same calls (their ratio shows how
 * many cores the call really had on a shared machine). */
static void report(const char *name, const char *target, double bytes,
                   double *t, double *u, int reps, double load0)
{
    qsort(t, (size_t)reps, sizeof *t, cmp);
    qsort(u, (size_t)reps, sizeof *u, cmp);
    printf("{\"layer\": \"%s\", \"case\": \"%s\", \"target\": \"%s\", "
           "\"threads\": %d, \"median_ms\": %.3f, \"min_ms\": %.3f, "
           "\"max_ms\": %.3f, \"cpu_ms\": %.3f, \"GBps\": %.2f, "
           "\"load_before\": %.2f, \"load_after\": %.2f}\n",
           layer_name(), name, target,
           strncmp(target, "cpu", 3) == 0 ? 1 : 2, 1e3 * t[reps / 2],
           1e3 * t[0], 1e3 * t[reps - 1], 1e3 * u[reps / 2],
           bytes / t[reps / 2] * 1e-9, load0, load1());
    fflush(stdout);
}

typedef struct bcase {
    const char *name, *kernel;
    int nin, nout;
    int ndim[4];
    int64_t shape[4][3];
    int axis; /* reductions: 0, 1, or -1 for every axis; -2: a gufunc */
} bcase;

static int one_call(uf_func *f, const bcase *c, uf_array **in,
                    uf_array **out, const uf_call_options *o, uf_error *err)
{
    if (c->axis == -2)
        return uf_call(f, in, c->nin, out, c->nout, o, err);
    uf_call_options r = *o;
    int ax = c->axis;
    if (ax == -1) {
        r.axes_mode = UF_AXES_ALL;
    } else {
        r.axes_mode = UF_AXES_LIST;
        r.naxes = 1;
        r.axes = &ax;
    }
    return uf_reduce(f, in[0], out, &r, err);
}

static int run_case(uf_module *m, const bcase *c, int reps, int64_t scale,
                    uf_error *err)
{
    uf_func *f = uf_module_get(m, c->kernel, err);
    uf_array *in[3] = {0}, *out[2] = {0};
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    uf_call_options par = {.size = sizeof par, .target = "parallel",
                           .num_threads = 2};
    /* [side][rep] wall then CPU times; sides cpu, parallel, and with
     * generic the same without specialisation */
    const char *env = getenv("BENCH_GU_GENERIC");
    int nsides = c->axis == -2 && env && strcmp(env, "1") == 0 ? 4 : 2;
    /* for perf stat: BENCH_GU_SIDES=cpu or cpu-generic runs that side
     * alone */
    const char *only = getenv("BENCH_GU_SIDES");
    static const char *const names[4] = {"cpu", "parallel", "cpu-generic",
                                         "parallel-generic"};
    double *t = calloc((size_t)reps * 8, sizeof *t), *u = t + 4 * reps;
    double bytes = 0, load0 = load1();
    int rc = -1;

    if (f == NULL || t == NULL)
        goto done;
    for (int i = 0; i < c->nin + c->nout; i++) {
        int64_t shape[3];
        memcpy(shape, c->shape[i], sizeof shape);
        /* the loop (or first) axis; not the output of an axis-0 sum */
        if (c->ndim[i] > 0 && shape[0] > 1 && !(c->axis == 0 && i > 0))
            shape[0] = shape[0] / scale > 1 ? shape[0] / scale : 1;
        uf_array *v;
        if (i < c->nin) {
            /* a ramp, reshaped */
            int64_t n = 1;
            for (int k = 0; k < c->ndim[i]; k++)
                n *= shape[k];
            uf_array *a = uf_linspace(-1.0, 3.0, n, true, UF_FLOAT64, err);
            v = a ? uf_array_reshape(a, c->ndim[i], shape, UF_ORDER_C, false,
                                     err)
                  : NULL;
            uf_array_release(a);
            in[i] = v;
        } else {
            v = uf_empty(UF_FLOAT64, c->ndim[i], shape, UF_ORDER_C, err);
            out[i - c->nin] = v;
        }
        if (v == NULL)
            goto done;
        bytes += (double)uf_array_nbytes(v);
    }
    /* warm up: compile, first touch, thread pools */
    if (one_call(f, c, in, out, &cpu, err) < 0 ||
        (only == NULL && one_call(f, c, in, out, &par, err) < 0))
        goto done;
    for (int r = 0; r < reps; r++) {
        for (int k = 0; k < nsides; k++) {
            int side = (r + k) % nsides;
            if (only != NULL && strcmp(only, names[side]) != 0)
                continue;
            const uf_call_options *o = side % 2 ? &par : &cpu;
            int64_t was = side >= 2 ? uf__gufunc_spec_set_min_work(-1) : 0;
            double t0 = now(), u0 = cpu_time();
            int crc = one_call(f, c, in, out, o, err);
            u[side * reps + r] = cpu_time() - u0;
            t[side * reps + r] = now() - t0;
            if (side >= 2)
                uf__gufunc_spec_set_min_work(was);
            if (crc < 0)
                goto done;
        }
    }
    for (int side = 0; side < nsides; side++)
        if (only == NULL || strcmp(only, names[side]) == 0)
            report(c->name, names[side], bytes, t + side * reps,
               u + side * reps, reps, load0);
    rc = 0;
done:
    for (int i = 0; i < 3; i++)
        uf_array_release(in[i]);
    for (int i = 0; i < 2; i++)
        uf_array_release(out[i]);
    free(t);
    return rc;
}

static const bcase cases[] = {
    {"matvec_4x4_1e6", "matvec", 2, 1, {3, 2, 2},
     {{1000000, 4, 4}, {1000000, 4}, {1000000, 4}}, -2},
    {"matvec_64x64_1e4", "matvec", 2, 1, {3, 2, 2},
     {{10000, 64, 64}, {10000, 64}, {10000, 64}}, -2},
    {"matmul_8x8_1e5", "matmul", 2, 1, {3, 3, 3},
     {{100000, 8, 8}, {100000, 8, 8}, {100000, 8, 8}}, -2},
    {"n_scalar_n_1e5x100", "g_scalar", 2, 1, {2, 1, 2},
     {{100000, 100}, {100000}, {100000, 100}}, -2},
    {"max_min_1e6x16", "max_min", 1, 2, {2, 1, 1},
     {{1000000, 16}, {1000000}, {1000000}}, -2},
    {"sum_1e8_f64", "vadd", 1, 1, {1, 0}, {{100000000}, {0}}, -1},
    {"sum_axis0_1e4x1e4", "vadd", 1, 1, {2, 1}, {{10000, 10000}, {10000}},
     0},
    {"sum_axis1_1e4x1e4", "vadd", 1, 1, {2, 1}, {{10000, 10000}, {10000}},
     1},
};

static int this_layer(int reps, int64_t scale, const char *only)
{
    /* BENCH_GU_MIN_WORK: specialise smaller calls too (scaled runs that
     * stay in cache) */
    if (getenv("BENCH_GU_MIN_WORK") != NULL)
        uf__gufunc_spec_set_min_work(atoll(getenv("BENCH_GU_MIN_WORK")));
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = ctx ? uf_module_from_string(ctx, "bench_gu.py", kernels,
                                               &err)
                       : NULL;
    int rc = m != NULL ? 0 : -1;

    for (size_t i = 0; rc == 0 && i < sizeof cases / sizeof cases[0]; i++)
        if (only == NULL || strstr(cases[i].name, only) != NULL)
            rc = run_case(m, &cases[i], reps, scale, &err);
    if (rc != 0)
        fprintf(stderr, "bench_gu_parallel: %s\n", err.message);
    uf_module_free(m);
    uf_context_free(ctx);
    return rc == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "--this") == 0)
        return this_layer(atoi(argv[2]), atoll(argv[3]),
                          argc > 4 ? argv[4] : NULL);

    const char *reps = argc > 1 ? argv[1] : "11";
    const char *scale = argc > 2 ? argv[2] : "1";
    const char *only = argc > 3 ? argv[3] : NULL;
    char layers[64];
    int status = 0;

    snprintf(layers, sizeof layers, "%s", uf_threading_layers_available());
    for (char *l = strtok(layers, " "); l != NULL; l = strtok(NULL, " ")) {
        pid_t pid = fork();

        if (pid < 0)
            return 1;
        if (pid == 0) {
            setenv("UFJIT_THREADING_LAYER", l, 1);
            execl("/proc/self/exe", argv[0], "--this", reps, scale, only,
                  (char *)NULL);
            _exit(127);
        }
        int st;
        if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
            WEXITSTATUS(st) != 0)
            status = 1;
    }
    return status;
}
