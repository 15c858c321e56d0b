/* Importing a CUDA Array Interface description (ufjit/interop.h) on
 * cudasim: uf_array_from_cai and uf_array_release of a 1 MiB device
 * array, the goal being about 1 us (issue 16: no copy, no host
 * synchronise). Two cases, each the median of 7 runs: without a "stream"
 * (checks, the wrapper and the keep-alive), and with one (plus the event
 * handshake: an event created, recorded on the producer, waited for by
 * the consumer, all queued). A release synchronises the context before
 * the keep-alive: without a stream nothing is queued; with one, the
 * first release waits for the queued handshakes, the others find none.
 * Usage: bench_cai_import [iterations] (default 100000). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ufjit/ufjit.h>

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

static void keepalive(void *ctx, void *data)
{
    (void)data;
    ++*(long *)ctx;
}

/* median ns per import, and per release, over RUNS runs of n of each
 * (the n imports first, then their n releases) */
static void measure(const uf_cai *c, uf_stream *consumer, long n,
                    long *released, double *import_ns, double *release_ns)
{
    double ti[RUNS], tr[RUNS];
    uf_error err;
    uf_array **a = malloc((size_t)n * sizeof *a);
    if (a == NULL)
        exit(1);
    for (int r = 0; r < RUNS; r++) {
        double t0 = now();
        for (long i = 0; i < n; i++)
            if (!(a[i] = uf_array_from_cai(c, "cudasim", consumer, keepalive,
                                           released, &err))) {
                fprintf(stderr, "bench_cai_import: %s\n", err.message);
                exit(1);
            }
        double t1 = now();
        for (long i = 0; i < n; i++)
            uf_array_release(a[i]);
        ti[r] = (t1 - t0) / (double)n;
        tr[r] = (now() - t1) / (double)n;
    }
    free(a);
    qsort(ti, RUNS, sizeof *ti, cmp);
    qsort(tr, RUNS, sizeof *tr, cmp);
    *import_ns = ti[RUNS / 2];
    *release_ns = tr[RUNS / 2];
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    if (n < 1)
        n = 1;
    uf_error err;
    const int64_t shape = (1 << 20) / 8;
    uf_array *d = uf_device_array(UF_FLOAT64, 1, &shape, UF_ORDER_C,
                                  "cudasim", &err);
    uf_stream *producer = d ? uf_stream_create("cudasim", &err) : NULL;
    uf_stream *consumer = producer ? uf_stream_create("cudasim", &err)
                                   : NULL;
    uf_cai c;
    if (consumer == NULL || uf_array_to_cai(d, &c, &err) != 0) {
        fprintf(stderr, "bench_cai_import: %s\n", err.message);
        return 1;
    }
    long released = 0;
    double plain[2], streamed[2];
    measure(&c, NULL, n, &released, &plain[0], &plain[1]);
    c.has_stream = true;
    c.stream = uf_stream_handle(producer);
    measure(&c, consumer, n, &released, &streamed[0], &streamed[1]);
    if (released != 2L * RUNS * n) {
        fprintf(stderr, "bench_cai_import: %ld keep-alive calls, expected "
                "%ld\n", released, 2L * RUNS * n);
        return 1;
    }
    printf("uf_array_from_cai, then uf_array_release, of 1 MiB on cudasim "
           "(median of %d x %ld):\n", RUNS, n);
    printf("  no stream:     import %8.3f us, release %8.3f us\n",
           plain[0] / 1e3, plain[1] / 1e3);
    printf("  with a stream: import %8.3f us, release %8.3f us (the first "
           "release waits for the queued waits)\n",
           streamed[0] / 1e3, streamed[1] / 1e3);
    uf_stream_destroy(consumer);
    uf_stream_destroy(producer);
    uf_array_release(d);
    return 0;
}
