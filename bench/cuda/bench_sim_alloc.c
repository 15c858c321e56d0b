/* cudasim's cuMemAlloc/cuMemFree pair, by size (the driver table called
 * directly: what the default memory manager's allocations cost before its
 * deferred free), warm: the same size allocated and freed again, the
 * median of 7 runs. Written for the change that made cudasim's device
 * memory shared (memfd) so that IPC handles open in other processes.
 * Usage: bench_sim_alloc [iterations] (default 100000). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "targets/cuda/cu_driver.h"

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

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    const uf__cu_driver *d = uf__cu_driver_sim();
    uf__cu_ctx ctx;
    if (d->init(0) || d->primary_ctx_retain(&ctx, 0) ||
        d->ctx_set_current(ctx)) {
        fprintf(stderr, "bench_sim_alloc: no cudasim context\n");
        return 1;
    }
    const size_t sizes[] = {4, 256, 65536, (size_t)1 << 20,
                            (size_t)64 << 20};
    printf("cudasim cuMemAlloc + cuMemFree, warm, median of %d runs:\n",
           RUNS);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        long m = sizes[k] >= ((size_t)64 << 20) ? (n / 100 + 1) : n;
        double t[RUNS];
        for (int r = 0; r < RUNS; r++) {
            double t0 = now();
            for (long i = 0; i < m; i++) {
                uf__cu_dptr p;
                if (d->mem_alloc(&p, sizes[k]) || d->mem_free(p)) {
                    fprintf(stderr, "bench_sim_alloc: failed\n");
                    return 1;
                }
            }
            t[r] = (now() - t0) / (double)m;
        }
        qsort(t, RUNS, sizeof *t, cmp);
        printf("  %10zu bytes  %8.1f ns\n", sizes[k], t[RUNS / 2]);
    }
    d->primary_ctx_release(0);
    return 0;
}
