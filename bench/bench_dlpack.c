/* DLPack 1.1 (interop/): what sharing an array costs, each the median of
 * 7 runs, in ns per round:
 *   - host: uf_array_to_dlpack + uf_array_from_dlpack + uf_array_release
 *     (the deleter included) of a 1000-element float64 array: one
 *     allocation each way, no copy;
 *   - host export: uf_array_to_dlpack + the deleter alone;
 *   - device, stream None: the same round on cudasim, the array's work on
 *     the legacy stream (no event needed);
 *   - device, stream B: the consumer's stream given, the array's default
 *     stream another: an event recorded and waited for (cudasim's
 *     bookkeeping for it, as a GPU's driver calls would be).
 * Usage: bench_dlpack [iterations] (default 200000). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ufjit/ufjit.h>

#include "targets/cuda/cuda_memory.h"

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

static void die(const char *what, const uf_error *err)
{
    fprintf(stderr, "bench_dlpack: %s: %s\n", what, err->message);
    exit(1);
}

/* export, import, release: one round */
static void round_trip(uf_array *a, const uf_dlpack_request *rq)
{
    uf_error err;
    DLManagedTensorVersioned *t;
    if (uf_array_to_dlpack_ex(a, rq, &t, &err) != 0)
        die("export", &err);
    uf_array *b = uf_array_from_dlpack(t, &err);
    if (b == NULL)
        die("import", &err);
    uf_array_release(b);
}

static void export_only(uf_array *a, const uf_dlpack_request *rq)
{
    uf_error err;
    DLManagedTensorVersioned *t;
    if (uf_array_to_dlpack_ex(a, rq, &t, &err) != 0)
        die("export", &err);
    t->deleter(t);
}

static double measure(void (*f)(uf_array *, const uf_dlpack_request *),
                      uf_array *a, const uf_dlpack_request *rq, long n)
{
    double t[RUNS];
    for (int r = 0; r < RUNS; r++) {
        double t0 = now();
        for (long i = 0; i < n; i++)
            f(a, rq);
        t[r] = (now() - t0) / (double)n;
    }
    qsort(t, RUNS, sizeof *t, cmp);
    return t[RUNS / 2];
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    if (n < 1)
        n = 1;
    uf_error err;
    const int64_t len = 1000;
    uf_array *h = uf_zeros(UF_FLOAT64, 1, &len, UF_ORDER_C, &err);
    if (h == NULL)
        die("uf_zeros", &err);
    uf_dlpack_request none = {.copy = -1};
    printf("host round trip:    %7.1f ns\n",
           measure(round_trip, h, &none, n));
    printf("host export only:   %7.1f ns\n",
           measure(export_only, h, &none, n));

    uf_array *d = uf_to_device(h, "cudasim", NULL, &err);
    uf_stream *a = uf_stream_create("cudasim", &err);
    uf_stream *b = uf_stream_create("cudasim", &err);
    if (d == NULL || a == NULL || b == NULL)
        die("cudasim", &err);
    printf("device, stream None: %6.1f ns\n",
           measure(round_trip, d, &none, n / 10 + 1));
    if (uf_array_set_stream(d, a, &err) != 0)
        die("uf_array_set_stream", &err);
    uf_dlpack_request onb = {.has_stream = true, .copy = -1,
                             /* uf_stream_handle(b), once it exists */
                             .stream = (intptr_t)(uintptr_t)b->s};
    printf("device, stream B:    %6.1f ns\n",
           measure(round_trip, d, &onb, n / 10 + 1));
    uf_array_release(d);
    uf_stream_destroy(a);
    uf_stream_destroy(b);
    uf_array_release(h);
    return 0;
}
