/* ufjit demo, vectorize kernels: the seeds' examples (section 8, NumPy
 * lines replayed by tests/cli/demo_numpy.py) and one ufunc on the cpu and
 * the parallel target, checked against C's libm (section 13). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd_demo.h"

/* The seeds' vectorize examples, as a user would write them for Numba. */
static const char demo_seeds_src[] =
    "import math\n"
    "import numpy as np\n"
    "from numba import vectorize\n"
    "\n"
    "SQRT_2PI = np.float32((2 * math.pi) ** 0.5)\n"
    "\n"
    "@vectorize\n"
    "def rel_diff(x, y):\n"
    "    return 2 * (x - y) / (x + y)\n"
    "\n"
    "@vectorize(['float32(float32, float32, float32)'])\n"
    "def gaussian_pdf(x, mean, sigma):\n"
    "    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * "
    "SQRT_2PI)\n"
    "\n"
    "@vectorize(['float64(float64, float64)'])\n"
    "def hypot(x, y):\n"
    "    x = abs(x)\n"
    "    y = abs(y)\n"
    "    t = min(x, y)\n"
    "    x = max(x, y)\n"
    "    t = t / x\n"
    "    return x * math.sqrt(1 + t * t)\n";

/* Runs kernel `name` of m on n inputs twice: the first call compiles (or
 * finds the loops compiled at load), the second only runs. Shows the
 * result under the NumPy spelling `code` and the two times. */
static int run_kernel(demo *d, uf_module *m, const char *name,
                      uf_array *const *in, int n, const char *code)
{
    uf_func *f = uf_module_get(m, name, &d->err);
    if (f == NULL)
        return -1;
    uf_array *out = NULL, *again = NULL;
    double t0 = uf__demo_now_ms();
    if (uf_call(f, in, n, &out, 1, NULL, &d->err) != 0)
        return -1;
    double t1 = uf__demo_now_ms();
    int rc = uf_call(f, in, n, &again, 1, NULL, &d->err);
    double t2 = uf__demo_now_ms();
    uf_array_release(again);
    if (rc != 0) {
        uf_array_release(out);
        return -1;
    }
    char cfn[64];
    snprintf(cfn, sizeof cfn, "%s: uf_call", name);
    if (uf__demo_show_array(d, code, cfn, out, false) != 0)
        return -1;
    uf__demo_say(
        "%s: first call %.2f ms (type inference, LLVM -O3, JIT, then the "
        "loop), second call %.2f ms (the loop only)",
        name, t1 - t0, t2 - t1);
    return 0;
}

int uf__demo_vectorize(demo *d)
{
    uf__demo_say(
        "Kernels are Python files written for Numba. ufjit parses them,");
    uf__demo_say(
        "types them with Numba's rules, compiles them with LLVM and calls");
    uf__demo_say(
        "them as NumPy ufuncs. This section's kernels are the seeds'");
    uf__demo_say("vectorize examples, from this source (seeds.py):");
    for (const char *l = demo_seeds_src; *l != '\0';) {
        const char *e = strchr(l, '\n');
        printf(e > l ? "#   %.*s\n" : "#\n", (int)(e - l), l);
        l = e + 1;
    }
    uf__demo_say(
        "Each >>> line below is what the kernel computes, in NumPy (with");
    uf__demo_say(
        "the float64 steps Numba's typing puts in: float literals are");
    uf__demo_say(
        "float64), and the array is ufjit's result on a million elements.");

    enum { N = 1000000 };
    int rc = -1;
    uf_array *a = NULL, *b = NULL, *x = NULL, *mean = NULL, *sigma = NULL;
    uf_array *hx = NULL, *hy = NULL;
    uf_context *ctx = uf__demo_context(d);
    if (ctx == NULL)
        return -1;
    double t0 = uf__demo_now_ms();
    uf_module *m =
        uf_module_from_string(ctx, "seeds.py", demo_seeds_src, &d->err);
    if (m == NULL)
        goto done;
    uf__demo_say("uf_module_from_string parsed seeds.py in %.2f ms",
                 uf__demo_now_ms() - t0);

    a = uf_arange(0, N, 1, UF_FLOAT32, &d->err);
    b = a ? uf_arange(1, 2 * N + 1, 2, UF_FLOAT32, &d->err) : NULL;
    if (b == NULL)
        goto done;
    uf__demo_prompt("a = np.arange(1000000, dtype=np.float32)", "uf_arange");
    uf__demo_prompt("b = a * 2 + 1", "uf_arange(1, 2000001, 2)");
    uf_array *ab[] = {a, b};
    if (run_kernel(d, m, "rel_diff", ab, 2,
                   "2 * (a - b).astype(np.float64) / (a + b)") != 0)
        goto done;

    float zero = 0.0f, one = 1.0f;
    x = uf_linspace(-3, 3, N, true, UF_FLOAT32, &d->err);
    mean = x ? uf_full(UF_FLOAT32, 0, NULL, &zero, UF_FLOAT32, UF_ORDER_C,
                       &d->err)
             : NULL;
    sigma = mean ? uf_full(UF_FLOAT32, 0, NULL, &one, UF_FLOAT32, UF_ORDER_C,
                           &d->err)
                 : NULL;
    if (sigma == NULL)
        goto done;
    uf__demo_prompt("x = np.linspace(-3, 3, 1000000, dtype=np.float32)",
                    "uf_linspace");
    uf__demo_prompt("mean, sigma = np.float32(0), np.float32(1)",
                    "uf_full, 0-d");
    uf__demo_prompt("import math", NULL);
    uf__demo_prompt("SQRT_2PI = np.float32((2 * math.pi) ** 0.5)",
                    "folded when seeds.py loads");
    uf_array *xms[] = {x, mean, sigma};
    if (run_kernel(d, m, "gaussian_pdf", xms, 3,
                   "(np.exp(-0.5 * (((x - mean) / sigma) ** 2).astype("
                   "np.float64)) / (sigma * SQRT_2PI)).astype(np.float32)") !=
        0)
        goto done;

    hx = uf_linspace(-5, 5, N, true, UF_FLOAT64, &d->err);
    hy = hx ? uf_linspace(3, -3, N, true, UF_FLOAT64, &d->err) : NULL;
    if (hy == NULL)
        goto done;
    uf__demo_prompt("x = np.linspace(-5, 5, 1000000)", "uf_linspace");
    uf__demo_prompt("y = np.linspace(3, -3, 1000000)", "uf_linspace");
    uf_array *xy[] = {hx, hy};
    if (run_kernel(d, m, "hypot", xy, 2, "np.hypot(x, y)") != 0)
        goto done;
    rc = 0;
done:
    uf_array_release(hy);
    uf_array_release(hx);
    uf_array_release(sigma);
    uf_array_release(mean);
    uf_array_release(x);
    uf_array_release(b);
    uf_array_release(a);
    uf_module_free(m);
    return rc;
}

/* ---- the parallel target --------------------------------------------- */

static const char demo_wave_src[] =
    "import math\n"
    "from numba import vectorize\n"
    "\n"
    "@vectorize(['float64(float64)'])\n"
    "def wave(x):\n"
    "    return math.exp(-0.05 * x) * math.sin(3.0 * x) + math.sqrt(x)\n";

/* wave on `target` with `threads`, timed; checked against `want` within
 * `tol` (0: bit for bit). The result is returned in *out. */
static void wave_on(demo *d, uf_func *f, uf_array *x, const char *target,
                    int threads, const double *want, double tol,
                    const char *against, uf_array **out, double *ms)
{
    uf_call_options o = {
        .size = sizeof o, .target = target, .num_threads = threads};
    char name[64];
    double t[2];
    if (threads > 0)
        snprintf(name, sizeof name, "wave on %s, %d threads", target,
                 threads);
    else
        snprintf(name, sizeof name, "wave on %s", target);
    if (uf__demo_call2(d, name, f, &x, 1, out, 1, &o, t) != 0)
        return;
    int64_t n = uf_array_size(x);
    double diff = uf__demo_max_diff(uf_array_data(*out), want, n);
    bool ok = tol > 0 ? diff <= tol
                      : memcmp(uf_array_data(*out), want,
                               (size_t)n * sizeof(double)) == 0;
    uf__demo_check(d, ok, name,
                   "%lld float64 %s (max rel. diff %.2g); %.2f ms, first "
                   "call %.2f ms",
                   (long long)n, against, diff, t[1], t[0]);
    *ms = t[1];
}

int uf__demo_parallel(demo *d)
{
    uf__demo_say("target='parallel' splits a ufunc's iteration space "
                 "between threads;");
    uf__demo_say("the call option num_threads (or UFJIT_NUM_THREADS) says "
                 "how many.");
    uf__demo_say("The same kernel runs on cpu (one thread) and on parallel "
                 "with 2:");
    uf_module *m = uf__demo_module(d, "wave.py", demo_wave_src);
    uf_func *f = uf__demo_func(d, m, "wave");
    if (f == NULL) {
        uf_module_free(m);
        return 0;
    }
    enum { N = 2000000 };
    int rc = -1;
    double *want = NULL;
    uf_array *cpu = NULL, *par = NULL;
    uf_array *x = uf__demo_random(d, 1, (int64_t[]){N}, 0.0, 10.0, 13);
    uf_array *w =
        x ? uf_empty(UF_FLOAT64, 1, (int64_t[]){N}, UF_ORDER_C, &d->err)
          : NULL;
    if (w == NULL)
        goto done;
    const double *px = uf_array_data(x);
    want = uf_array_data(w);
    double t0 = uf__demo_now_ms();
    for (int64_t i = 0; i < N; i++)
        want[i] = exp(-0.05 * px[i]) * sin(3.0 * px[i]) + sqrt(px[i]);
    uf__demo_say("x: %d float64 in [0, 10); the same in a C loop with libm: "
                 "%.2f ms",
                 N, uf__demo_now_ms() - t0);
    uf_error lerr;
    uf_error_clear(&lerr);
    const char *layer = uf_threading_layer(&lerr);
    if (layer == NULL)
        uf__demo_say("threading: %s", lerr.message);
    else
        uf__demo_say("threading layer: %s (built in: %s; "
                     "UFJIT_THREADING_LAYER picks one), default threads %d",
                     layer, uf_threading_layers_available(),
                     uf_threading_default_threads());
    double ms_cpu = 0, ms_par = 0;
    wave_on(d, f, x, "cpu", 0, want, 1e-13, "as C's libm within 1e-13", &cpu,
            &ms_cpu);
    if (cpu != NULL)
        wave_on(d, f, x, "parallel", 2, uf_array_data(cpu), 0,
                "as the cpu result, bit for bit", &par, &ms_par);
    if (par != NULL && ms_par > 0)
        uf__demo_say("parallel with 2 threads ran %.2fx as fast as cpu "
                     "(both cores are shared with whatever else runs)",
                     ms_cpu / ms_par);
    rc = 0;
done:
    uf_array_release(par);
    uf_array_release(cpu);
    uf_array_release(w);
    uf_array_release(x);
    uf_module_free(m);
    return rc;
}
