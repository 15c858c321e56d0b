/* The pooling memory manager (examples/emm/pool.c) on cudasim: a
 * malloc/free pair of 1 MiB on a warm pool, the goal being at most 1 us
 * of bookkeeping (issue 16). Three levels, each the median of 7 runs:
 *   - pool: the plug-in's memalloc/memfree called directly (its free
 *     records an event on the stream: cudasim's bookkeeping for that is
 *     included, as a GPU's would be);
 *   - ufjit: the same through ufjit's checked manager calls (live-address
 *     registry, stream liveness), what every device allocation pays;
 *   - array: uf_device_array + uf_array_release of 1 MiB, the whole path;
 * and, for comparison, the default manager's array pair (cuMemAlloc per
 * allocation, frees queued and flushed by tens).
 * Usage: bench_emm_pool [iterations] [target] (default 200000, cudasim;
 * "cuda" times a GPU's: the pool's event per free is the driver's). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ufjit/ufjit.h>

#include "examples/emm/emm_pool.h"
#include "targets/cuda/cuda_mm.h"

#define MIB ((size_t)1 << 20)
#define RUNS 7

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef int (*pair_fn)(void *arg, uf_error *err);

/* median ns per pair over RUNS runs of n pairs */
static double measure(pair_fn f, void *arg, long n)
{
    double t[RUNS];
    uf_error err;
    for (int r = 0; r < RUNS; r++) {
        double t0 = now();
        for (long i = 0; i < n; i++)
            if (f(arg, &err) != 0) {
                fprintf(stderr, "bench_emm_pool: %s\n", err.message);
                exit(1);
            }
        t[r] = (now() - t0) / (double)n;
    }
    qsort(t, RUNS, sizeof *t, cmp);
    return t[RUNS / 2];
}

static uf_cuda_memory_manager pool;

static int pool_pair(void *arg, uf_error *err)
{
    uint64_t p;
    if (pool.memalloc(pool.user, MIB, NULL, &p, err) != 0)
        return err->code;
    return pool.memfree(pool.user, p, MIB, NULL, err);
}

static int ufjit_pair(void *arg, uf_error *err)
{
    const uf__cuda_rt *rt = arg;
    uf__cu_dptr p;
    if (uf__cuda_mm_alloc(rt, MIB, NULL, &p, err) != 0)
        return err->code;
    uf__cuda_mm_free(rt, p, MIB, NULL);
    return 0;
}

static const char *target = "cudasim";

static int array_pair(void *arg, uf_error *err)
{
    int64_t n = (int64_t)MIB;
    uf_array *a = uf_device_array(UF_UINT8, 1, &n, UF_ORDER_C, target, err);
    if (a == NULL)
        return err->code;
    uf_array_release(a);
    return 0;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    if (argc > 2)
        target = argv[2];
    uf_error err;
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, &err);
    if (rt == NULL || uf_emm_pool_factory(UF_CUDA_MM_INTERFACE_VERSION,
                                          &pool, &err) != 0 ||
        uf_cuda_set_memory_manager(target, &pool, &err) != 0) {
        fprintf(stderr, "bench_emm_pool: %s\n", err.message);
        return 1;
    }
    /* warm: one block in the 1 MiB class */
    if (pool_pair(NULL, &err) != 0)
        return 1;
    double direct = measure(pool_pair, NULL, n);
    double layer = measure(ufjit_pair, (void *)rt, n);
    double arr = measure(array_pair, NULL, n);
    uf_emm_pool_stats ps;
    uf_emm_pool_get_stats(pool.user, &ps);

    if (uf_cuda_memory_reset(target, &err) != 0 ||
        uf_cuda_set_memory_manager(target, NULL, &err) != 0) {
        fprintf(stderr, "bench_emm_pool: %s\n", err.message);
        return 1;
    }
    double deflt = measure(array_pair, NULL, n / 10 > 0 ? n / 10 : 1);
    printf("1 MiB malloc/free pair on %s (%s), median of %d runs of %ld:\n",
           target, rt->name, RUNS, n);
    printf("  pool plug-in, direct          %8.1f ns\n", direct);
    printf("  pool through ufjit's manager  %8.1f ns\n", layer);
    printf("  pool, device array + release  %8.1f ns\n", arr);
    printf("  default manager, array pair   %8.1f ns\n", deflt);
    printf("  pool: %zu driver allocations, %zu hits\n", ps.driver_allocs,
           ps.hits);
    printf("goal <= 1000 ns through ufjit's manager: %s\n",
           layer <= 1000.0 ? "met" : "NOT met");
    return 0;
}
