/* ufjit demo, CUDA kernels: seed 002's @cuda.jit examples (a hypot
 * kernel over a 1-D grid, the shared-memory tiled transpose over a 2-D
 * grid, the atomic histogram) launched with uf_launch on a GPU when there
 * is one, else on cudasim. Each result is checked against a plain C
 * computation. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd_demo.h"

static const char demo_kernels_src[] =
    "import math\n"
    "import numpy as np\n"
    "from numba import cuda, int32\n"
    "\n"
    "TILE = 32\n"
    "ROWS = 8\n"
    "PADDED = TILE + 1  # a module constant: known when compiling\n"
    "\n"
    "@cuda.jit\n"
    "def hypot_kernel(x, y, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = math.hypot(x[i], y[i])\n"
    "\n"
    "@cuda.jit\n"
    "def tile_transpose(a_in, a_out):\n"
    "    tile = cuda.shared.array(shape=(TILE, PADDED), dtype=int32)\n"
    "    x = cuda.blockIdx.x * TILE + cuda.threadIdx.x\n"
    "    y = cuda.blockIdx.y * TILE + cuda.threadIdx.y\n"
    "    for j in range(0, TILE, ROWS):\n"
    "        tile[cuda.threadIdx.y + j, cuda.threadIdx.x] = a_in[y + j, x]\n"
    "    cuda.syncthreads()\n"
    "    x = cuda.blockIdx.y * TILE + cuda.threadIdx.x\n"
    "    y = cuda.blockIdx.x * TILE + cuda.threadIdx.y\n"
    "    for j in range(0, TILE, ROWS):\n"
    "        a_out[y + j, x] = tile[cuda.threadIdx.x, cuda.threadIdx.y + j]\n"
    "\n"
    "@cuda.jit\n"
    "def histogram(x, xmin, xmax, out):\n"
    "    nbins = out.shape[0]\n"
    "    width = (xmax - xmin) / nbins\n"
    "    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):\n"
    "        b = np.int32((x[i] - xmin) / width)\n"
    "        if b >= 0 and b < nbins:\n"
    "            cuda.atomic.add(out, b, 1)\n";

static const char *pick_target(void)
{
    uf_error err;
    return uf_cuda_driver(NULL, 0, NULL, 0, &err) > 0 ? "cuda" : "cudasim";
}

/* One launch, timed; false (reported) when refused. */
static bool launch(demo *d, uf_module *m, const char *name, uf_dim3 grid,
                   uf_dim3 block, uf_array **args, int n, const char *target,
                   double *ms)
{
    uf_func *f = uf__demo_func(d, m, name);
    if (f == NULL)
        return false;
    uf_launch_options o = {.size = sizeof o, .target = target};
    double t0 = uf__demo_now_ms();
    if (uf_launch(f, grid, block, args, n, &o, &d->err) != 0) {
        uf__demo_refused(d, name);
        return false;
    }
    *ms = uf__demo_now_ms() - t0;
    return true;
}

static void demo_hypot(demo *d, uf_module *m, const char *target)
{
    enum { N = 100000 };
    int64_t n = N;
    uf_array *x = uf__demo_random(d, 1, &n, -10, 10, 7);
    uf_array *y = uf__demo_random(d, 1, &n, -10, 10, 8);
    uf_array *out = uf_zeros(UF_FLOAT64, 1, &n, UF_ORDER_C, &d->err);
    double ms;
    uf_array *args[3] = {x, y, out};
    if (x && y && out &&
        launch(d, m, "hypot_kernel", (uf_dim3){(N + 255) / 256, 1, 1},
               (uf_dim3){256, 1, 1}, args, 3, target, &ms)) {
        const double *a = uf_array_data(x), *b = uf_array_data(y),
                     *o = uf_array_data(out);
        bool ok = true;
        for (int i = 0; i < N; i++)
            ok &= o[i] == hypot(a[i], b[i]);
        uf__demo_check(d, ok, "hypot_kernel",
                       "%d float64 on %s, grid (%d,) x block (256,), host "
                       "arrays copied in and back; %.2f ms with the compile",
                       N, target, (N + 255) / 256, ms);
    }
    uf_array_release(out);
    uf_array_release(y);
    uf_array_release(x);
}

static void demo_transpose(demo *d, uf_module *m, const char *target)
{
    const int64_t shape[2] = {256, 512}, tshape[2] = {512, 256};
    uf_array *a = uf_empty(UF_INT32, 2, shape, UF_ORDER_C, &d->err);
    uf_array *da = NULL, *dt = NULL, *back = NULL;
    double ms;
    if (a) {
        int32_t *p = uf_array_data(a);
        for (int i = 0; i < 256 * 512; i++)
            p[i] = i;
        da = uf_to_device(a, target, NULL, &d->err);
    }
    if (da)
        dt = uf_device_array(UF_INT32, 2, tshape, UF_ORDER_C, target,
                             &d->err);
    uf_array *args[2] = {da, dt};
    if (!da || !dt) {
        uf__demo_refused(d, "tile_transpose");
    } else if (launch(d, m, "tile_transpose", (uf_dim3){512 / 32, 256 / 32, 1},
                      (uf_dim3){32, 8, 1}, args, 2, target, &ms)) {
        if ((back = uf_copy_to_host(dt, NULL, NULL, &d->err)) == NULL) {
            uf__demo_refused(d, "tile_transpose");
        } else {
            const int32_t *p = uf_array_data(a), *q = uf_array_data(back);
            bool ok = true;
            for (int i = 0; i < 256; i++)
                for (int j = 0; j < 512; j++)
                    ok &= q[j * 256 + i] == p[i * 512 + j];
            uf__demo_check(d, ok, "tile_transpose",
                           "256 x 512 int32 on %s through 32 x 33 "
                           "shared-memory tiles, grid (16, 8) x block "
                           "(32, 8), device arrays; %.2f ms with the "
                           "compile", target, ms);
        }
    }
    uf_array_release(back);
    uf_array_release(dt);
    uf_array_release(da);
    uf_array_release(a);
}

static void demo_histogram(demo *d, uf_module *m, const char *target)
{
    enum { N = 200000, BINS = 16 };
    int64_t n = N, nb = BINS;
    uf_array *x = uf__demo_random(d, 1, &n, 0, 1, 9);
    uf_array *h = uf_zeros(UF_INT32, 1, &nb, UF_ORDER_C, &d->err);
    double zero = 0.0, one = 1.0, ms;
    uf_array *lo = uf_full(UF_FLOAT64, 0, NULL, &zero, UF_FLOAT64,
                           UF_ORDER_C, &d->err);
    uf_array *hi = uf_full(UF_FLOAT64, 0, NULL, &one, UF_FLOAT64,
                           UF_ORDER_C, &d->err);
    uf_array *args[4] = {x, lo, hi, h};
    if (x && h && lo && hi &&
        launch(d, m, "histogram", (uf_dim3){64, 1, 1}, (uf_dim3){128, 1, 1},
               args, 4, target, &ms)) {
        const double *v = uf_array_data(x);
        const int32_t *got = uf_array_data(h);
        int32_t want[BINS] = {0};
        for (int i = 0; i < N; i++) {
            int b = (int)(v[i] / (1.0 / BINS));
            if (b >= 0 && b < BINS)
                want[b]++;
        }
        bool ok = memcmp(got, want, sizeof want) == 0;
        uf__demo_check(d, ok, "histogram",
                       "%d float64 into %d bins on %s, 8192 threads "
                       "grid-striding, cuda.atomic.add; %.2f ms with the "
                       "compile", N, BINS, target, ms);
    }
    uf_array_release(hi);
    uf_array_release(lo);
    uf_array_release(h);
    uf_array_release(x);
}

int uf__demo_kernels(demo *d)
{
    const char *target = pick_target();
    uf__demo_say("Seed 002's @cuda.jit kernels, launched with uf_launch on "
                 "`%s`", target);
    uf__demo_say("(numba-cuda: kernel[grid, block](args); `ufjit launch` "
                 "from the command line):");
    uf_module *m = uf__demo_module(d, "seeds_kernels.py", demo_kernels_src);
    if (m == NULL)
        return -1;
    demo_hypot(d, m, target);
    demo_transpose(d, m, target);
    demo_histogram(d, m, target);
    uf_module_free(m);
    return 0;
}
