/* ufjit demo, section 10: ufunc methods on binary vectorize kernels
 * (reduce with identity=, accumulate, outer) and the seeds' @cuda.reduce
 * kernel. The big sum shows the pairwise summation's accuracy against a
 * naive and a Kahan sum in C; the small results print as NumPy lines. */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "cli/cmd_demo.h"

static const char demo_reduce_src[] =
    "from numba import cuda, vectorize\n"
    "\n"
    "@vectorize(['int64(int64, int64)', 'float64(float64, float64)'],\n"
    "           identity=0)\n"
    "def add(a, b):\n"
    "    return a + b\n"
    "\n"
    "@vectorize(['int64(int64, int64)', 'float64(float64, float64)'],\n"
    "           identity=1)\n"
    "def mul(a, b):\n"
    "    return a * b\n"
    "\n"
    "# the seeds' reduction kernel\n"
    "@cuda.reduce\n"
    "def sum_reduce(a, b):\n"
    "    return a + b\n";

/* |x - exact| in units in the last place of exact. */
static double ulps(double x, double exact)
{
    return fabs(x - exact) / (nextafter(exact, INFINITY) - exact);
}

/* A 0-d float64 result's value. */
static double scalar(const uf_array *a)
{
    return *(const double *)uf_array_data(a);
}

/* uf_reduce twice (the first call compiles), timed as uf__demo_call2. */
static int reduce2(demo *d, uf_func *f, uf_array *x, uf_array **out,
                   double ms[2])
{
    double t0 = uf__demo_now_ms();
    int rc = uf_reduce(f, x, out, NULL, &d->err);
    double t1 = uf__demo_now_ms();
    uf_array_release(*out);
    *out = NULL;
    if (rc == 0)
        rc = uf_reduce(f, x, out, NULL, &d->err);
    ms[0] = t1 - t0;
    ms[1] = uf__demo_now_ms() - t1;
    if (rc != 0)
        uf__demo_refused(d, "add.reduce");
    return rc;
}

/* Sums of 10 million float64 in [0, 1): ufjit's pairwise sum (uf_reduce
 * on add, and the @cuda.reduce kernel through uf_call) against Kahan's
 * compensated sum; a naive loop for contrast. */
static int demo_big_sum(demo *d, uf_module *m)
{
    enum { N = 10000000 };
    uf_array *x = uf__demo_random(d, 1, (int64_t[]){N}, 0, 1, 7);
    if (x == NULL)
        return -1;
    const double *p = uf_array_data(x);
    double t0 = uf__demo_now_ms(), naive = 0.0;
    for (int64_t i = 0; i < N; i++)
        naive += p[i];
    double t1 = uf__demo_now_ms(), kahan = 0.0, c = 0.0;
    for (int64_t i = 0; i < N; i++) {
        double y = p[i] - c, t = kahan + y;
        c = (t - kahan) - y;
        kahan = t;
    }
    double t2 = uf__demo_now_ms();
    uf__demo_say("x: 10000000 float64 in [0, 1). In C: naive loop %.17g "
                 "(%.2f ms),",
                 naive, t1 - t0);
    uf__demo_say("Kahan's compensated sum %.17g (%.2f ms), %.0f ulps apart.",
                 kahan, t2 - t1, ulps(naive, kahan));
    /* NumPy's pairwise scheme (blocks of 128 in 8 accumulators, halved
     * above) errs by at most about (16 + log2(n / 128)) eps/2 * sum(|x|),
     * some 20 ulps of this sum; a naive loop's bound is n eps/2 * sum. */
    double bound = (16.0 + ceil(log2(N / 128.0))) * DBL_EPSILON / 2 * kahan;
    uf_func *add = uf__demo_func(d, m, "add");
    uf_func *sum = uf__demo_func(d, m, "sum_reduce");
    uf_array *out = NULL;
    double ms[2];
    if (add != NULL && reduce2(d, add, x, &out, ms) == 0) {
        double s = scalar(out);
        uf__demo_check(d, fabs(s - kahan) <= bound, "add.reduce",
                       "sum %.17g, %.0f ulps from Kahan's (pairwise bound "
                       "%.0f); %.2f ms, first call %.2f ms",
                       s, ulps(s, kahan), ulps(kahan + bound, kahan), ms[1],
                       ms[0]);
    }
    uf_array_release(out);
    out = NULL;
    /* cuda.reduce runs on the GPU (its default target), else on cudasim,
     * in the cpu's pairwise order either way */
    uf_error derr;
    uf_call_options so = {.size = sizeof so,
                          .target = uf_cuda_driver(NULL, 0, NULL, 0, &derr) > 0
                                        ? "cuda" : "cudasim"};
    if (uf__demo_call2(d, "sum_reduce", sum, &x, 1, &out, 1, &so, ms) == 0)
        uf__demo_check(d, fabs(scalar(out) - kahan) <= bound, "sum_reduce",
                       "@cuda.reduce through uf_call on %s: %.17g, %.0f ulps "
                       "from Kahan's; %.2f ms, first call %.2f ms", so.target,
                       scalar(out), ulps(scalar(out), kahan), ms[1], ms[0]);
    uf_array_release(out);
    uf_array_release(x);
    return 0;
}

/* Prints a NumPy step and its int64 result, and checks the result
 * against `want` computed in C. */
static void show_checked(demo *d, const char *code, const char *cfn,
                         const char *name, int rc, uf_array *got,
                         const int64_t *want, int64_t n)
{
    if (rc != 0) {
        uf__demo_refused(d, name);
        return;
    }
    int64_t bad = uf_array_size(got) != n;
    const int64_t *p = uf_array_data(got);
    for (int64_t i = 0; bad == 0 && i < n; i++)
        bad += p[i] != want[i];
    if (uf__demo_show_array(d, code, cfn, got, true) != 0)
        uf__demo_refused(d, name);
    uf__demo_check(d, bad == 0, name, "%lld int64 values, %s C's",
                   (long long)n, bad == 0 ? "equal to" : "different from");
}

/* Small results printed: reduce along an axis, accumulate, outer. */
static int demo_methods(demo *d, uf_module *m)
{
    uf_func *add = uf__demo_func(d, m, "add");
    uf_func *mul = uf__demo_func(d, m, "mul");
    int64_t want[20];
    uf_array *r = NULL;
    uf_array *r12 = uf_arange(0, 12, 1, UF_INT64, &d->err);
    uf_array *a = r12 ? uf_array_reshape(r12, 2, (int64_t[]){3, 4},
                                         UF_ORDER_C, false, &d->err)
                      : NULL;
    uf_array_release(r12);
    if (a == NULL)
        return -1;
    if (add != NULL) {
        for (int i = 0; i < 3; i++)
            want[i] = 16 * i + 6; /* 4i + (4i+1) + (4i+2) + (4i+3) */
        uf_call_options o = {.size = sizeof o,
                             .axes_mode = UF_AXES_LIST,
                             .naxes = 1,
                             .axes = (int[]){1}};
        int rc = uf_reduce(add, a, &r, &o, &d->err);
        show_checked(d, "np.add.reduce(np.arange(12).reshape(3, 4), axis=1)",
                     "add: uf_reduce", "add.reduce(axis=1)", rc, r, want, 3);
        uf_array_release(r);
        r = NULL;
    }
    uf_array_release(a);
    uf_array *x = uf_arange(1, 11, 1, UF_INT64, &d->err);
    uf_array *y = x ? uf_arange(1, 6, 1, UF_INT64, &d->err) : NULL;
    if (y == NULL) {
        uf_array_release(x);
        return -1;
    }
    if (add != NULL) {
        for (int i = 0; i < 10; i++)
            want[i] = (i + 1) * (i + 2) / 2;
        int rc = uf_accumulate(add, x, &r, NULL, &d->err);
        show_checked(d, "np.add.accumulate(np.arange(1, 11))",
                     "add: uf_accumulate", "add.accumulate", rc, r, want, 10);
        uf_array_release(r);
        r = NULL;
    }
    uf_array *x4 = uf_array_slice(x, ":4", &d->err);
    if (mul != NULL && x4 != NULL) {
        for (int i = 0; i < 20; i++)
            want[i] = (i / 5 + 1) * (i % 5 + 1);
        int rc = uf_outer(mul, x4, y, &r, NULL, &d->err);
        show_checked(d, "np.multiply.outer(np.arange(1, 5), np.arange(1, 6))",
                     "mul: uf_outer", "mul.outer", rc, r, want, 20);
        uf_array_release(r);
    }
    int rc = x4 != NULL ? 0 : -1;
    uf_array_release(x4);
    uf_array_release(y);
    uf_array_release(x);
    return rc;
}

int uf__demo_reduce(demo *d)
{
    uf__demo_say("A binary vectorize kernel gets NumPy's ufunc methods: "
                 "reduce,");
    uf__demo_say("accumulate and outer. identity=0 makes add's reduction "
                 "start from 0");
    uf__demo_say("(and empty ones legal); float sums are pairwise, as in "
                 "NumPy.");
    uf_module *m = uf__demo_module(d, "reductions.py", demo_reduce_src);
    if (m == NULL)
        return 0;
    int rc = demo_big_sum(d, m);
    if (rc == 0)
        rc = demo_methods(d, m);
    uf_module_free(m);
    return rc;
}
