/* ufjit's side of the GPU benchmarks (bench/cuda/run.py): the kernels of
 * bench/cuda/kernels.py called through the public C API on device arrays,
 * next to the device's own limits measured in the same process.
 *
 *   cuda_bench KERNELS.py [--target cuda|cudasim] [--n N] [--calls C]
 *              [--rounds R] CASE...
 *
 * CASE is NAME:DTYPE (float32 or float64): a vectorize kernel on N
 * elements, or matvec / matmul (guvectorize) on N/16 4x4 and N/64 8x8
 * matrices. The inputs are made on the host (element i of input k is
 * 0.5 + frac(i * 0.618... + k * 0.381...), as bench/cuda/gpu_peers.py
 * makes them) and copied to the device once (uf_to_device); the output
 * is a device array made once. Each round times C calls on one stream
 * and a final uf_stream_synchronize; the median round is printed, per
 * call. Besides the cases:
 *   - copy:DTYPE   cuMemcpyDtoD of N elements (the bandwidth a triad is
 *                  held to), bytes counted read + written;
 *   - launch:      a bare cuLaunchKernel of an empty kernel (1 block of 32
 *                  threads) with a final synchronize, per launch; PTX only
 *                  (skipped on cudasim);
 *   - small:DTYPE  triad on 10 elements: a small call's cost;
 *   - reduce:DTYPE uf_reduce of kernels.py's sum_reduce (@cuda.reduce)
 *                  over --reduce-n elements (default 10**8), the result
 *                  left on the device;
 *   - transpose    kernels.py's tile_transpose through uf_launch on a
 *                  --transpose-d square int32 matrix (default 8192), with
 *                  "copy_us" (cuMemcpyDtoD of its bytes) and "wrong" (the
 *                  elements the check found misplaced).
 * Prints one JSON line per case: {"case", "dtype", "n", "us" (per call),
 * "bytes" (moved per call), "sum" [sum, sum of |x|] of the output}, or
 * {"case", "error"} / {"case", "unsupported"}; the first line describes
 * the device, or is {"skip": reason} when the target cannot run here
 * (exit 0: no GPU is not a failure). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ufjit/cuda.h>
#include <ufjit/ufjit.h>

#include "targets/cuda/cuda_runtime.h"

#define MAX_ROUNDS 64

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

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        putchar(*s == '\n' ? ' ' : *s);
    }
    putchar('"');
}

static void say_error(const char *kase, const char *dtype, const char *key,
                      const char *msg)
{
    printf("{\"case\": ");
    json_str(kase);
    printf(", \"dtype\": \"%s\", \"%s\": ", dtype, key);
    json_str(msg);
    printf("}\n");
    fflush(stdout);
}

typedef struct bench {
    const char *target;
    int64_t n;
    int64_t reduce_n, transpose_d; /* the reduce and transpose sizes */
    int calls, rounds;
    uf_stream *stream;
    const uf__cuda_rt *rt;
} bench;

/* A host array of `shape` filled as gpu_peers.py fills input k. */
static uf_array *host_input(uf_dtype dt, int ndim, const int64_t *shape,
                            int k, uf_error *err)
{
    uf_array *a = uf_empty(dt, ndim, shape, UF_ORDER_C, err);
    if (!a)
        return NULL;
    int64_t n = uf_array_size(a);
    for (int64_t i = 0; i < n; i++) {
        double v = 0.5 + fmod((double)i * 0.6180339887498949 +
                                  (double)k * 0.3819660112501051,
                              1.0);
        if (dt == UF_FLOAT32)
            ((float *)uf_array_data(a))[i] = (float)v;
        else
            ((double *)uf_array_data(a))[i] = v;
    }
    return a;
}

/* The checksum gpu_peers.py computes: [sum, sum of |x|] in float64. */
static int checksum(uf_array *d, double sum[2], uf_error *err)
{
    uf_array *h = uf_copy_to_host(d, NULL, NULL, err);
    if (!h)
        return -1;
    sum[0] = sum[1] = 0;
    int64_t n = uf_array_size(h);
    for (int64_t i = 0; i < n; i++) {
        double v = uf_array_dtype(h) == UF_FLOAT32
                       ? (double)((float *)uf_array_data(h))[i]
                       : ((double *)uf_array_data(h))[i];
        sum[0] += v;
        sum[1] += fabs(v);
    }
    uf_array_release(h);
    return 0;
}

/* The operands of a case: shapes per kind. */
typedef struct operands {
    int nin;
    int ndim[4];
    int64_t shape[4][3];
    int out_ndim;
    int64_t out_shape[3];
} operands;

static void shapes(const char *name, int nin, int64_t n, operands *o)
{
    memset(o, 0, sizeof *o);
    o->nin = nin;
    if (strcmp(name, "matvec") == 0 || strcmp(name, "matmul") == 0) {
        int64_t d = name[3] == 'v' ? 4 : 8, b = n / (d * d);
        if (b < 1)
            b = 1;
        o->ndim[0] = 3, o->shape[0][0] = b, o->shape[0][1] = d,
        o->shape[0][2] = d;
        o->ndim[1] = name[3] == 'v' ? 2 : 3;
        memcpy(o->shape[1], o->shape[0], sizeof o->shape[0]);
        o->out_ndim = o->ndim[1];
        memcpy(o->out_shape, o->shape[1], sizeof o->out_shape);
        return;
    }
    for (int k = 0; k < nin; k++)
        o->ndim[k] = 1, o->shape[k][0] = n;
    o->out_ndim = 1;
    o->out_shape[0] = n;
}

/* Times `f` on device copies of its inputs; prints the case's line. */
static void run_kernel(bench *b, uf_module *m, const char *kase,
                       const char *name, uf_dtype dt, int64_t n)
{
    const char *dname = uf_dtype_name(dt);
    uf_error err;
    uf_error_clear(&err);
    uf_array *ins[4] = {NULL}, *out = NULL;
    double t[MAX_ROUNDS], sum[2];
    uf_func *f = uf_module_get(m, name, &err);
    if (!f) {
        say_error(kase, dname, "error", err.message);
        return;
    }
    operands o;
    shapes(name, uf_func_nin(f), n, &o);
    int64_t bytes = 0, isz = dt == UF_FLOAT32 ? 4 : 8;
    for (int k = 0; k < o.nin; k++) {
        uf_array *h = host_input(dt, o.ndim[k], o.shape[k], k, &err);
        ins[k] = h ? uf_to_device(h, b->target, NULL, &err) : NULL;
        uf_array_release(h);
        if (!ins[k])
            goto fail;
        bytes += uf_array_size(ins[k]) * isz;
    }
    out = uf_device_array(dt, o.out_ndim, o.out_shape, UF_ORDER_C, b->target,
                          &err);
    if (!out)
        goto fail;
    bytes += uf_array_size(out) * isz;
    uf_call_options opts = {.size = sizeof opts, .target = b->target,
                            .stream = b->stream};
    /* the first call compiles and loads the kernel */
    if (uf_call(f, ins, o.nin, &out, 1, &opts, &err) != 0 ||
        uf_stream_synchronize(b->stream, &err) != 0)
        goto fail;
    for (int r = 0; r < b->rounds; r++) {
        double t0 = now();
        for (int c = 0; c < b->calls; c++)
            if (uf_call(f, ins, o.nin, &out, 1, &opts, &err) != 0)
                goto fail;
        if (uf_stream_synchronize(b->stream, &err) != 0)
            goto fail;
        t[r] = (now() - t0) / b->calls;
    }
    if (checksum(out, sum, &err) != 0)
        goto fail;
    printf("{\"case\": \"%s\", \"dtype\": \"%s\", \"n\": %lld, "
           "\"us\": %.4f, \"bytes\": %lld, \"sum\": [%.17g, %.17g]}\n",
           kase, dname, (long long)uf_array_size(out),
           1e6 * median(t, b->rounds), (long long)bytes, sum[0], sum[1]);
    fflush(stdout);
    goto done;
fail:
    say_error(kase, dname,
              err.code == UF_ERR_UNSUPPORTED ? "unsupported" : "error",
              err.message);
done:
    for (int k = 0; k < 4; k++)
        uf_array_release(ins[k]);
    uf_array_release(out);
}

/* Rounds of b->calls cuMemcpyDtoDAsync of nb bytes, a synchronize each:
 * per-copy seconds into t[0..rounds). 0 or err's code. */
static int copy_rounds(bench *b, uf__cu_dptr dst, uf__cu_dptr src, size_t nb,
                       double *t, uf_error *err)
{
    const uf__cu_driver *drv = b->rt->drv;
    if (uf__cuda_rt_enter(b->rt, err) != 0)
        return err->code;
    for (int r = 0; r < b->rounds; r++) {
        double t0 = now();
        for (int c = 0; c < b->calls; c++)
            if (uf__cuda_check(b->rt,
                               drv->memcpy_dtod_async(dst, src, nb, NULL),
                               "cuMemcpyDtoDAsync", err) != 0)
                return err->code;
        if (uf__cuda_check(b->rt, drv->ctx_synchronize(), "cuCtxSynchronize",
                           err) != 0)
            return err->code;
        t[r] = (now() - t0) / b->calls;
    }
    return 0;
}

/* uf_reduce of `name` (a @cuda.reduce sum) over n elements of dt on the
 * device into a 0-d device array made once (or, where a device out= is
 * refused, a result each call allocates), per call. */
static void run_reduce(bench *b, uf_module *m, const char *name, uf_dtype dt,
                       int64_t n)
{
    const char *dname = uf_dtype_name(dt);
    uf_error err;
    uf_error_clear(&err);
    double t[MAX_ROUNDS];
    uf_array *in = NULL, *out = NULL, *res = NULL;
    uf_func *f = uf_module_get(m, name, &err);
    uf_array *h = f ? host_input(dt, 1, &n, 0, &err) : NULL;
    if (!h)
        goto fail;
    in = uf_to_device(h, b->target, NULL, &err);
    uf_array_release(h);
    if (!in || !(out = uf_device_array(dt, 0, NULL, UF_ORDER_C, b->target,
                                       &err)))
        goto fail;
    uf_call_options opts = {.size = sizeof opts, .target = b->target,
                            .stream = b->stream};
    /* where a device out= is refused, each call allocates its result */
    bool given = true;
    if (uf_reduce(f, in, &out, &opts, &err) != 0) {
        if (err.code != UF_ERR_UNSUPPORTED)
            goto fail;
        given = false;
        uf_error_clear(&err);
        uf_array_release(out);
        out = NULL;
        if (uf_reduce(f, in, &out, &opts, &err) != 0)
            goto fail;
    }
    if (uf_stream_synchronize(b->stream, &err) != 0)
        goto fail;
    for (int r = 0; r < b->rounds; r++) {
        double t0 = now();
        for (int c = 0; c < b->calls; c++) {
            if (!given) {
                uf_array_release(out);
                out = NULL;
            }
            if (uf_reduce(f, in, &out, &opts, &err) != 0)
                goto fail;
        }
        if (uf_stream_synchronize(b->stream, &err) != 0)
            goto fail;
        t[r] = (now() - t0) / b->calls;
    }
    if (!(res = uf_copy_to_host(out, NULL, NULL, &err)))
        goto fail;
    double v = dt == UF_FLOAT32 ? (double)*(float *)uf_array_data(res)
                                : *(double *)uf_array_data(res);
    printf("{\"case\": \"reduce\", \"dtype\": \"%s\", \"n\": %lld, "
           "\"us\": %.4f, \"bytes\": %lld, \"sum\": [%.17g, %.17g], "
           "\"out\": \"%s\"}\n",
           dname, (long long)n, 1e6 * median(t, b->rounds),
           (long long)uf_array_nbytes(in), v, fabs(v),
           given ? "a device array given" : "allocated by each call");
    fflush(stdout);
    goto done;
fail:
    say_error("reduce", dname,
              err.code == UF_ERR_UNSUPPORTED ? "unsupported" : "error",
              err.message);
done:
    uf_array_release(in);
    uf_array_release(out);
    uf_array_release(res);
}

/* The seed's shared-memory transpose (kernels.py tile_transpose: 32x32
 * tiles, blocks of 32x8) of a d x d int32 matrix through uf_launch, per
 * launch, beside cuMemcpyDtoD of the same bytes timed the same way; the
 * result is checked element by element. */
static void run_transpose(bench *b, uf_module *m, int64_t d)
{
    uf_error err;
    uf_error_clear(&err);
    double t[MAX_ROUNDS], tc[MAX_ROUNDS];
    int64_t shape[2] = {d, d};
    uf_array *in = NULL, *out = NULL, *res = NULL;
    uf_func *f = uf_module_get(m, "tile_transpose", &err);
    uf_array *h = f ? uf_empty(UF_INT32, 2, shape, UF_ORDER_C, &err) : NULL;
    if (!h)
        goto fail;
    int32_t *hv = uf_array_data(h);
    for (int64_t i = 0; i < d * d; i++)
        hv[i] = (int32_t)i;
    in = uf_to_device(h, b->target, NULL, &err);
    if (!in || !(out = uf_device_array(UF_INT32, 2, shape, UF_ORDER_C,
                                       b->target, &err)))
        goto fail;
    uf_array *args[2] = {in, out};
    uf_dim3 grid = {(unsigned)(d / 32), (unsigned)(d / 32), 1},
            block = {32, 8, 1};
    uf_launch_options lo = {.size = sizeof lo, .target = b->target,
                            .stream = b->stream};
    if (uf_launch(f, grid, block, args, 2, &lo, &err) != 0 ||
        uf_stream_synchronize(b->stream, &err) != 0)
        goto fail;
    for (int r = 0; r < b->rounds; r++) {
        double t0 = now();
        for (int c = 0; c < b->calls; c++)
            if (uf_launch(f, grid, block, args, 2, &lo, &err) != 0)
                goto fail;
        if (uf_stream_synchronize(b->stream, &err) != 0)
            goto fail;
        t[r] = (now() - t0) / b->calls;
    }
    if (!(res = uf_copy_to_host(out, NULL, NULL, &err)))
        goto fail;
    const int32_t *rv = uf_array_data(res);
    int64_t bad = 0;
    for (int64_t i = 0; i < d; i++)
        for (int64_t j = 0; j < d; j++)
            bad += rv[i * d + j] != hv[j * d + i];
    /* the copy: out <- in, as many bytes as the transpose reads */
    size_t nb = (size_t)uf_array_nbytes(in);
    if (copy_rounds(b, (uf__cu_dptr)(uintptr_t)uf_array_data(out),
                    (uf__cu_dptr)(uintptr_t)uf_array_data(in), nb, tc,
                    &err) != 0)
        goto fail;
    printf("{\"case\": \"transpose\", \"dtype\": \"int32\", \"n\": %lld, "
           "\"us\": %.4f, \"bytes\": %lld, \"copy_us\": %.4f, "
           "\"wrong\": %lld}\n",
           (long long)(d * d), 1e6 * median(t, b->rounds),
           (long long)(2 * nb), 1e6 * median(tc, b->rounds), (long long)bad);
    fflush(stdout);
    goto done;
fail:
    say_error("transpose", "int32",
              err.code == UF_ERR_UNSUPPORTED ? "unsupported" : "error",
              err.message);
done:
    uf_array_release(h);
    uf_array_release(in);
    uf_array_release(out);
    uf_array_release(res);
}

/* cuMemcpyDtoD of n elements of dt, per copy. */
static void run_copy(bench *b, uf_dtype dt)
{
    const char *dname = uf_dtype_name(dt);
    uf_error err;
    uf_error_clear(&err);
    double t[MAX_ROUNDS];
    uf_array *src = uf_device_array(dt, 1, &b->n, UF_ORDER_C, b->target, &err);
    uf_array *dst = src ? uf_device_array(dt, 1, &b->n, UF_ORDER_C,
                                          b->target, &err)
                        : NULL;
    const uf__cu_driver *drv = b->rt->drv;
    size_t nb = (size_t)uf_array_nbytes(src ? src : dst);
    if (!dst)
        goto fail;
    uf__cu_dptr s = (uf__cu_dptr)(uintptr_t)uf_array_data(src),
                d = (uf__cu_dptr)(uintptr_t)uf_array_data(dst);
    if (uf__cuda_rt_enter(b->rt, &err) != 0 ||
        uf__cuda_check(b->rt, drv->memcpy_dtod(d, s, nb), "cuMemcpyDtoD",
                       &err) != 0)
        goto fail;
    if (copy_rounds(b, d, s, nb, t, &err) != 0)
        goto fail;
    printf("{\"case\": \"copy\", \"dtype\": \"%s\", \"n\": %lld, "
           "\"us\": %.4f, \"bytes\": %lld}\n",
           dname, (long long)b->n, 1e6 * median(t, b->rounds),
           (long long)(2 * nb));
    fflush(stdout);
    goto done;
fail:
    say_error("copy", dname, "error", err.message);
done:
    uf_array_release(src);
    uf_array_release(dst);
}

/* A bare launch of an empty kernel, per launch (calls launches and a
 * synchronize per round). */
static void run_launch(bench *b)
{
    static const char ptx[] = ".version 7.0\n.target sm_50\n"
                              ".address_size 64\n"
                              ".visible .entry uf_empty()\n{\n\tret;\n}\n";
    const uf__cu_driver *drv = b->rt->drv;
    uf_error err;
    uf_error_clear(&err);
    double t[MAX_ROUNDS];
    uf__cu_module mod = NULL;
    uf__cu_func fn = NULL;
    if (drv->image_kind != UF__CU_IMAGE_PTX) {
        say_error("launch", "", "unsupported",
                  "a bare PTX launch needs a GPU (cudasim loads no PTX)");
        return;
    }
    if (uf__cuda_rt_enter(b->rt, &err) != 0 ||
        uf__cuda_check(b->rt, drv->module_load_data(&mod, ptx),
                       "cuModuleLoadData", &err) != 0 ||
        uf__cuda_check(b->rt, drv->module_get_function(&fn, mod, "uf_empty"),
                       "cuModuleGetFunction", &err) != 0)
        goto fail;
    for (int r = -1; r < b->rounds; r++) { /* round -1: warm-up */
        double t0 = now();
        for (int c = 0; c < b->calls; c++)
            if (uf__cuda_check(b->rt,
                               drv->launch_kernel(fn, 1, 1, 1, 32, 1, 1, 0,
                                                  NULL, NULL, NULL),
                               "cuLaunchKernel", &err) != 0)
                goto fail;
        if (uf__cuda_check(b->rt, drv->ctx_synchronize(), "cuCtxSynchronize",
                           &err) != 0)
            goto fail;
        if (r >= 0)
            t[r] = (now() - t0) / b->calls;
    }
    printf("{\"case\": \"launch\", \"dtype\": \"\", \"n\": 0, "
           "\"us\": %.4f, \"bytes\": 0}\n",
           1e6 * median(t, b->rounds));
    fflush(stdout);
    goto done;
fail:
    say_error("launch", "", "error", err.message);
done:
    if (mod)
        (void)drv->module_unload(mod);
}

int main(int argc, char **argv)
{
    bench b = {.target = "cuda", .n = 1 << 24, .reduce_n = 100000000,
               .transpose_d = 8192, .calls = 20, .rounds = 5};
    const char *file = argc > 1 ? argv[1] : NULL;
    int i = 2;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (strcmp(argv[i], "--target") == 0)
            b.target = argv[i + 1];
        else if (strcmp(argv[i], "--n") == 0)
            b.n = atoll(argv[i + 1]);
        else if (strcmp(argv[i], "--calls") == 0)
            b.calls = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--rounds") == 0)
            b.rounds = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--reduce-n") == 0)
            b.reduce_n = atoll(argv[i + 1]);
        else if (strcmp(argv[i], "--transpose-d") == 0)
            b.transpose_d = atoll(argv[i + 1]);
    }
    if (!file || b.n < 1 || b.reduce_n < 1 || b.transpose_d < 32 ||
        b.transpose_d % 32 != 0 || b.calls < 1 || b.rounds < 1 ||
        b.rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: cuda_bench KERNELS.py [--target T] [--n N] "
                        "[--calls C] [--rounds 1..64] [--reduce-n N] "
                        "[--transpose-d D (a multiple of 32)] CASE...\n");
        return 2;
    }
    uf_error err;
    uf_error_clear(&err);
    if (!(b.rt = uf__cuda_rt_get(b.target, &err))) {
        printf("{\"skip\": ");
        json_str(err.message);
        printf("}\n");
        return 0;
    }
    printf("{\"device\": ");
    json_str(b.rt->name);
    printf(", \"cc\": \"%d.%d\", \"sms\": %d, \"target\": \"%s\", "
           "\"driver\": \"%s\"}\n",
           b.rt->cc_major, b.rt->cc_minor, b.rt->sm_count, b.target,
           b.rt->drv->name);
    fflush(stdout);
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = ctx ? uf_module_load(ctx, file, &err) : NULL;
    if (!m || !(b.stream = uf_stream_create(b.target, &err))) {
        fprintf(stderr, "cuda_bench: %s\n", err.message);
        uf_module_free(m);
        uf_context_free(ctx);
        return 1;
    }
    for (; i < argc; i++) {
        char name[64];
        const char *colon = strchr(argv[i], ':');
        const char *dn = colon ? colon + 1 : "";
        uf_dtype dt = strcmp(dn, "float32") == 0 ? UF_FLOAT32 : UF_FLOAT64;
        snprintf(name, sizeof name, "%.*s",
                 (int)(colon ? colon - argv[i] : (long)strlen(argv[i])),
                 argv[i]);
        if (strcmp(name, "copy") == 0)
            run_copy(&b, dt);
        else if (strcmp(name, "launch") == 0)
            run_launch(&b);
        else if (strcmp(name, "small") == 0)
            run_kernel(&b, m, "small", "triad", dt, 10);
        else if (strcmp(name, "reduce") == 0)
            run_reduce(&b, m, "sum_reduce", dt, b.reduce_n);
        else if (strcmp(name, "transpose") == 0)
            run_transpose(&b, m, b.transpose_d);
        else
            run_kernel(&b, m, name, name, dt, b.n);
    }
    uf_stream_destroy(b.stream);
    uf_module_free(m);
    uf_context_free(ctx);
    return 0;
}
