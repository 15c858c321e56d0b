/* ufjit demo, section 9: guvectorize kernels (the seeds' g and max_min,
 * and a batched matrix-vector product) on generated data, each result
 * checked against a C loop. */
#include <math.h>
#include <stdio.h>

#include "cli/cli_util.h"
#include "cli/cmd_demo.h"

static const char demo_gufunc_src[] =
    "from numba import guvectorize, float64, int64\n"
    "\n"
    "@guvectorize(['void(float64[:,:], float64[:], float64[:])'],\n"
    "             '(m,n),(n)->(m)')\n"
    "def matvec(M, v, y):\n"
    "    for i in range(M.shape[0]):\n"
    "        acc = 0.0\n"
    "        for j in range(M.shape[1]):\n"
    "            acc += M[i, j] * v[j]\n"
    "        y[i] = acc\n"
    "\n"
    "# seed 003: the '()' operand arrives as a one-element array\n"
    "@guvectorize([(int64[:], int64[:], int64[:])], '(n),()->(n)')\n"
    "def g(x, y, res):\n"
    "    for i in range(x.shape[0]):\n"
    "        res[i] = x[i] + y[0]\n"
    "\n"
    "# seed 003: two outputs\n"
    "@guvectorize([(float64[:], float64[:], float64[:])], '(n)->(),()')\n"
    "def max_min(arr, largest, smallest):\n"
    "    largest[0] = arr[0]\n"
    "    smallest[0] = arr[0]\n"
    "    for i in range(1, arr.shape[0]):\n"
    "        if arr[i] > largest[0]:\n"
    "            largest[0] = arr[i]\n"
    "        if arr[i] < smallest[0]:\n"
    "            smallest[0] = arr[i]\n";

/* y[k] = M[k] @ v[k] for 100000 4x4 matrices. */
static int demo_matvec(demo *d, uf_module *m)
{
    enum { K = 100000, N = 4 };
    uf_func *f = uf__demo_func(d, m, "matvec");
    uf_array *M = uf__demo_random(d, 3, (int64_t[]){K, N, N}, -1, 1, 1);
    uf_array *v =
        M ? uf__demo_random(d, 2, (int64_t[]){K, N}, -1, 1, 2) : NULL;
    uf_array *want =
        v ? uf_empty(UF_FLOAT64, 2, (int64_t[]){K, N}, UF_ORDER_C, &d->err)
          : NULL;
    uf_array *in[2] = {M, v}, *y = NULL;
    int rc = want != NULL ? 0 : -1;
    double ms[2];
    if (want != NULL &&
        uf__demo_call2(d, "matvec", f, in, 2, &y, 1, NULL, ms) == 0) {
        const double *pm = uf_array_data(M), *pv = uf_array_data(v);
        double *pw = uf_array_data(want);
        for (int k = 0; k < K; k++)
            for (int i = 0; i < N; i++) {
                double acc = 0.0;
                for (int j = 0; j < N; j++)
                    acc += pm[(k * N + i) * N + j] * pv[k * N + j];
                pw[k * N + i] = acc;
            }
        char shape[64];
        double diff = uf_array_size(y) == K * N
                          ? uf__demo_max_diff(uf_array_data(y), pw, K * N)
                          : NAN;
        uf__demo_check(d, diff <= 1e-15, "matvec",
                       "y = M @ v for 100000 (4, 4) matrices -> %s, as a C "
                       "loop (max rel. diff %.2g); %.2f ms, first call %.2f "
                       "ms",
                       uf__cli_tuple(uf_array_ndim(y), uf_array_shape(y),
                                     shape, sizeof shape),
                       diff, ms[1], ms[0]);
    }
    uf_array_release(y);
    uf_array_release(want);
    uf_array_release(v);
    uf_array_release(M);
    return rc;
}

/* res[k, i] = x[k, i] + y[k]: the "()" operand broadcast over rows. */
static int demo_g(demo *d, uf_module *m)
{
    enum { K = 1000, N = 100 };
    uf_func *f = uf__demo_func(d, m, "g");
    uf_array *x =
        uf_empty(UF_INT64, 2, (int64_t[]){K, N}, UF_ORDER_C, &d->err);
    uf_array *y =
        x ? uf_empty(UF_INT64, 1, (int64_t[]){K}, UF_ORDER_C, &d->err) : NULL;
    if (y == NULL) {
        uf_array_release(x);
        return -1;
    }
    int64_t *px = uf_array_data(x), *py = uf_array_data(y);
    for (int64_t i = 0; i < K * N; i++)
        px[i] = (i * 37) % 1001 - 500;
    for (int64_t k = 0; k < K; k++)
        py[k] = k * 1000;
    uf_array *in[2] = {x, y}, *res = NULL;
    double ms[2];
    if (uf__demo_call2(d, "g", f, in, 2, &res, 1, NULL, ms) == 0) {
        const int64_t *pr = uf_array_data(res);
        bool sized = uf_array_size(res) == K * N;
        int64_t bad = sized ? 0 : K * N;
        for (int64_t i = 0; sized && i < K * N; i++)
            bad += pr[i] != px[i] + py[i / N];
        uf__demo_check(d, bad == 0, "g",
                       "x (1000, 100) int64 + y (1000,), one per row -> "
                       "(1000, 100), as C (%lld differ); %.2f ms, first call "
                       "%.2f ms",
                       (long long)bad, ms[1], ms[0]);
    }
    uf_array_release(res);
    uf_array_release(y);
    uf_array_release(x);
    return 0;
}

/* Two outputs: the largest and the smallest element of each row. */
static int demo_max_min(demo *d, uf_module *m)
{
    enum { K = 100000, N = 16 };
    uf_func *f = uf__demo_func(d, m, "max_min");
    uf_array *a = uf__demo_random(d, 2, (int64_t[]){K, N}, -1e3, 1e3, 3);
    if (a == NULL)
        return -1;
    uf_array *out[2] = {NULL, NULL};
    double ms[2];
    if (uf__demo_call2(d, "max_min", f, &a, 1, out, 2, NULL, ms) == 0) {
        const double *pa = uf_array_data(a), *hi = uf_array_data(out[0]);
        const double *lo = uf_array_data(out[1]);
        bool sized = uf_array_size(out[0]) == K && uf_array_size(out[1]) == K;
        int64_t bad = sized ? 0 : K;
        for (int64_t k = 0; sized && k < K; k++) {
            double big = pa[k * N], small = pa[k * N];
            for (int i = 1; i < N; i++) {
                big = pa[k * N + i] > big ? pa[k * N + i] : big;
                small = pa[k * N + i] < small ? pa[k * N + i] : small;
            }
            bad += hi[k] != big || lo[k] != small;
        }
        uf__demo_check(d, bad == 0, "max_min",
                       "rows of (100000, 16) -> largest (100000,), "
                       "smallest (100000,), as C (%lld differ); %.2f ms, "
                       "first call %.2f ms",
                       (long long)bad, ms[1], ms[0]);
    }
    uf_array_release(out[0]);
    uf_array_release(out[1]);
    uf_array_release(a);
    return 0;
}

int uf__demo_guvectorize(demo *d)
{
    uf__demo_say(
        "A @guvectorize kernel works on whole sub-arrays: its layout "
        "names the");
    uf__demo_say("core dimensions of each operand, and the other (loop) "
                 "dimensions");
    uf__demo_say("broadcast as in a ufunc. Outputs are allocated from the "
                 "layout.");
    uf_module *m = uf__demo_module(d, "gufuncs.py", demo_gufunc_src);
    if (m == NULL)
        return 0;
    int rc = demo_matvec(d, m);
    if (rc == 0)
        rc = demo_g(d, m);
    if (rc == 0)
        rc = demo_max_min(d, m);
    uf_module_free(m);
    return rc;
}
