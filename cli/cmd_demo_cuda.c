/* ufjit demo, the CUDA target: the seeds' CUDA ufunc examples (seed 002:
 * gaussian_pdf, polar_distance with a device function, a hypot on int16)
 * run with device arrays on a GPU when there is one, else on cudasim,
 * which runs the very kernels the GPU would, compiled for the host. Each
 * result is checked against the cpu target's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd_demo.h"

static const char demo_cuda_src[] =
    "import math\n"
    "import numpy as np\n"
    "from numba import vectorize, cuda\n"
    "\n"
    "SQRT_2PI = np.float32((2 * math.pi) ** 0.5)\n"
    "\n"
    "@vectorize(['float32(float32, float32, float32)'], target='cuda')\n"
    "def gaussian_pdf(x, mean, sigma):\n"
    "    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * "
    "SQRT_2PI)\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def polar_to_cartesian(rho, theta):\n"
    "    x = rho * math.cos(theta)\n"
    "    y = rho * math.sin(theta)\n"
    "    return x, y\n"
    "\n"
    "@vectorize(['float32(float32, float32, float32, float32)'], "
    "target='cuda')\n"
    "def polar_distance(rho1, theta1, rho2, theta2):\n"
    "    x1, y1 = polar_to_cartesian(rho1, theta1)\n"
    "    x2, y2 = polar_to_cartesian(rho2, theta2)\n"
    "    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5\n"
    "\n"
    "@vectorize(['int16(int16, int16)', 'float32(float32, float32)'], "
    "target='cuda')\n"
    "def gpu_hypot(x, y):\n"
    "    return math.hypot(x, y)\n";

/* Largest |x - y| / max(1, |y|) of two float32 arrays. */
static double max_diff32(const float *x, const float *y, int64_t n)
{
    double worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double diff = fabs((double)x[i] - y[i]) / fmax(1.0, fabs(y[i]));
        worst = diff > worst || isnan(diff) ? diff : worst;
    }
    return worst;
}

/* Kernel `name` on `target` with inputs in[] (device arrays and 0-d
 * host scalars), its device result copied back and compared with the cpu
 * target's on host copies hin[]. A refusal is reported, and the tour
 * goes on. */
static void run_and_check(demo *d, uf_module *m, const char *name,
                         const char *target, uf_array *const *in,
                         uf_array *const *hin, int nin)
{
    uf_func *f = uf__demo_func(d, m, name);
    if (f == NULL)
        return;
    uf_call_options on_dev = {.size = sizeof on_dev, .target = target};
    uf_call_options on_cpu = {.size = sizeof on_cpu, .target = "cpu"};
    uf_array *dout = NULL, *want = NULL, *got = NULL;
    double ms[2];
    if (uf__demo_call2(d, name, f, in, nin, &dout, 1, &on_dev, ms) != 0)
        return;
    if (uf_call(f, hin, nin, &want, 1, &on_cpu, &d->err) != 0 ||
        (got = uf_copy_to_host(dout, NULL, NULL, &d->err)) == NULL) {
        uf__demo_refused(d, name);
        goto done;
    }
    int64_t n = uf_array_size(got);
    bool on_device = uf_array_device(dout).type == UF_DEVICE_CUDA;
    double diff = max_diff32(uf_array_data(got), uf_array_data(want), n);
    /* float32 results: the device's math and the CPU's vector math may
     * differ in the last bits */
    uf__demo_check(d, on_device && diff <= 1e-6, name,
                   "%lld float32 on %s, result left on the device, equal to "
                   "the cpu target's (max rel. diff %.2g); %.2f ms, first "
                   "call (compiles) %.2f ms",
                   (long long)n, target, diff, ms[1], ms[0]);
done:
    uf_array_release(got);
    uf_array_release(want);
    uf_array_release(dout);
}

/* The device the demo runs on: the GPU when the driver finds one. */
static const char *pick_target(void)
{
    uf_error err;
    char version[32];
    int n = uf_cuda_driver(version, sizeof version, NULL, 0, &err);
    if (n > 0) {
        uf__demo_say("A CUDA driver (%s) and %d GPU(s): the `cuda` target "
                     "runs on the GPU.", version, n);
        return "cuda";
    }
    uf__demo_say("No GPU here (%s),", err.message);
    uf__demo_say("so the kernels run on `cudasim`: the same NVVM kernels, "
                 "compiled for the host");
    uf__demo_say("and run by ufjit's in-process CUDA driver (device memory, "
                 "streams, blocks).");
    return "cudasim";
}

int uf__demo_cuda(demo *d)
{
    uf__demo_say("The seeds' CUDA ufuncs (seed 002) with device arrays:");
    const char *target = pick_target();
    uf_module *m = uf__demo_module(d, "seeds_cuda.py", demo_cuda_src);
    if (m == NULL)
        return -1;
    enum { N = 1000000 };
    int rc = -1;
    float zero = 0.0f, one = 1.0f, half = 0.5f;
    uf_array *x = uf_linspace(-3, 3, N, true, UF_FLOAT32, &d->err);
    uf_array *mean = uf_full(UF_FLOAT32, 0, NULL, &zero, UF_FLOAT32,
                             UF_ORDER_C, &d->err);
    uf_array *sigma = uf_full(UF_FLOAT32, 0, NULL, &one, UF_FLOAT32,
                              UF_ORDER_C, &d->err);
    uf_array *th = uf_full(UF_FLOAT32, 0, NULL, &half, UF_FLOAT32,
                           UF_ORDER_C, &d->err);
    uf_array *dx = NULL;
    if (x && mean && sigma && th)
        dx = uf_to_device(x, target, NULL, &d->err);
    if (dx == NULL) {
        uf__demo_refused(d, "uf_to_device");
        rc = 0;
        goto done;
    }
    uf__demo_say("uf_to_device: x (%d float32) copied to the device once; "
                 "0-d inputs go by value", N);
    uf_array *g_in[] = {dx, mean, sigma}, *g_host[] = {x, mean, sigma};
    uf_array *p_in[] = {dx, dx, sigma, th}, *p_host[] = {x, x, sigma, th};
    uf_array *h_in[] = {dx, dx}, *h_host[] = {x, x};
    /* each reports its own refusal; the tour goes on */
    run_and_check(d, m, "gaussian_pdf", target, g_in, g_host, 3);
    run_and_check(d, m, "polar_distance", target, p_in, p_host, 4);
    run_and_check(d, m, "gpu_hypot", target, h_in, h_host, 2);
    rc = 0;
done:
    uf_array_release(dx);
    uf_array_release(th);
    uf_array_release(sigma);
    uf_array_release(mean);
    uf_array_release(x);
    uf_module_free(m);
    return rc;
}
