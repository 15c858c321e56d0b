/* The memory-bandwidth limit of the benchmark suite: STREAM's four kernels
 * (copy c=a, scale b=s*c, add c=a+b, triad a=b+s*c), and a read-only sum
 * (s += a[i], the limit of reductions), with OpenMP over arrays much
 * larger than the caches, as a server bench/run.py polls
 * between the rounds of the memory-bound cases (so the limit is measured
 * in the same run, under the same noise, as the cases it bounds).
 *
 *   setup N                 three arrays of N doubles, first touched by
 *                           the threads that use them
 *   run THREADS REPS [K..]  REPS timings of each kernel K (default all
 *                           six: STREAM's order, then sum, write) on THREADS
 *                           threads
 *   quit
 * Replies are one JSON line. Bytes per kernel count reads and writes as
 * STREAM does (no write-allocate traffic): 16 N for copy and scale, 24 N
 * for add and triad, 8 N for sum and write. triad and write store
 * non-temporally (triad_nt*, write_nt*: the traffic counted is then the
 * traffic made), the other three are STREAM's loops. sum, triad and
 * write use the widest vectors the CPU has; sum is timed four ways in
 * each rep (one stream, four streams, software prefetch, rows) and the
 * fastest kept, with "sum_ways" in the reply saying which won how often
 * (AVX-512, else AVX); BENCH_STREAM_ISA=avx or =plain takes a narrower
 * path, to see an AVX2 machine's limit on a wider one. */
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* Seconds on the monotonic clock: omp_get_wtime is coarse under LLVM's
 * libomp (clang builds), and a round under a microsecond read as 0. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double *a, *b, *c;
static long n;

#define NK 6
static const char *const names[NK] = {"copy", "scale", "add", "triad",
                                      "sum", "write"};
static const int words[NK] = {2, 2, 3, 3, 1, 1};
static volatile double sink; /* keeps the sum alive */

/* Eight AVX-512 accumulators (64 doubles in flight per step): the scalar
 * sum of a few independent chains ran at 80% of four, bound by its adds
 * rather than by memory; ufjit's own reduction carries eight. */
__attribute__((target("avx512f"))) static double sum_avx512(long lo, long hi)
{
    __m512d s[8];
    long i = lo;
    for (int k = 0; k < 8; k++)
        s[k] = _mm512_setzero_pd();
    for (; i + 64 <= hi; i += 64)
        for (int k = 0; k < 8; k++)
            s[k] = _mm512_add_pd(s[k], _mm512_loadu_pd(a + i + 8 * k));
    for (int k = 1; k < 8; k++)
        s[0] = _mm512_add_pd(s[0], s[k]);
    double r = _mm512_reduce_add_pd(s[0]);
    for (; i < hi; i++)
        r += a[i];
    return r;
}

/* STREAM's triad with non-temporal stores, as ufjit's loops over large
 * outputs store: normal stores read each line of `a` before writing it
 * (write-allocate), so STREAM's triad moves 32 N bytes for its counted
 * 24 N, and a loop that streams its stores beat that "limit". This one is
 * the limit. lo is a multiple of 8 and `a` 64-byte aligned. */
__attribute__((target("avx512f"))) static void triad_nt512(long lo, long hi,
                                                            double s)
{
    __m512d vs = _mm512_set1_pd(s);
    long i = lo;
    for (; i + 8 <= hi; i += 8)
        _mm512_stream_pd(a + i, _mm512_add_pd(_mm512_loadu_pd(b + i),
                                              _mm512_mul_pd(vs,
                                                  _mm512_loadu_pd(c + i))));
    for (; i < hi; i++)
        a[i] = b[i] + s * c[i];
    _mm_sfence();
}

__attribute__((target("avx"))) static void triad_nt256(long lo, long hi,
                                                        double s)
{
    __m256d vs = _mm256_set1_pd(s);
    long i = lo;
    for (; i + 4 <= hi; i += 4)
        _mm256_stream_pd(a + i, _mm256_add_pd(_mm256_loadu_pd(b + i),
                                              _mm256_mul_pd(vs,
                                                  _mm256_loadu_pd(c + i))));
    for (; i < hi; i++)
        a[i] = b[i] + s * c[i];
    _mm_sfence();
}

/* The vector width sum and triad use: the CPU's widest, or narrower as
 * BENCH_STREAM_ISA asks (see the top). */
static int width(void)
{
    const char *isa = getenv("BENCH_STREAM_ISA");
    if (isa && strcmp(isa, "plain") == 0)
        return 1;
    if (__builtin_cpu_supports("avx512f") && !isa)
        return 512;
    return __builtin_cpu_supports("avx") ? 256 : 1;
}

static void triad(int threads, double s)
{
    const int w = width();
    const int w512 = w == 512, w256 = w == 256;
#pragma omp parallel num_threads(threads)
    {
        long t = omp_get_thread_num(), nt = omp_get_num_threads();
        long per = (n / nt + 63) / 64 * 64;
        long lo = t * per < n ? t * per : n;
        long hi = lo + per < n ? lo + per : n;
        if (w512)
            triad_nt512(lo, hi, s);
        else if (w256)
            triad_nt256(lo, hi, s);
        else
            for (long i = lo; i < hi; i++)
                a[i] = b[i] + s * c[i];
    }
}

/* The same with four AVX accumulators, for CPUs without AVX-512: the
 * scalar loop was slower than ufjit's own parallel sum on an AVX2 EPYC,
 * so it was no limit there (issue 19). */
__attribute__((target("avx"))) static double sum_avx(long lo, long hi)
{
    __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
    long i = lo;
    for (; i + 16 <= hi; i += 16) {
        s0 = _mm256_add_pd(s0, _mm256_loadu_pd(a + i));
        s1 = _mm256_add_pd(s1, _mm256_loadu_pd(a + i + 4));
        s2 = _mm256_add_pd(s2, _mm256_loadu_pd(a + i + 8));
        s3 = _mm256_add_pd(s3, _mm256_loadu_pd(a + i + 12));
    }
    __m256d t = _mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3));
    double lanes[4];
    _mm256_storeu_pd(lanes, t);
    double r = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    for (; i < hi; i++)
        r += a[i];
    return r;
}

static double sum_plain(long lo, long hi)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    long i = lo;
    for (; i + 4 <= hi; i += 4) {
        s0 += a[i];
        s1 += a[i + 1];
        s2 += a[i + 2];
        s3 += a[i + 3];
    }
    for (; i < hi; i++)
        s0 += a[i];
    return (s0 + s1) + (s2 + s3);
}

/* How a piece [lo, hi) is read. One stream is STREAM's way; a core with
 * few hardware prefetch streams in flight per access pattern can read
 * faster with several streams at once (the piece cut in STREAMS parts
 * walked side by side) or with software prefetches ahead of the loads.
 * ufjit's parallel sum ran at 111% of the one-stream loop on the Intel
 * Xeon VM (bench/RESULTS.md, session 27), so the limit is the fastest of
 * these ways in each rep: nothing we ship should read faster. The last
 * way reads as an axis-0 reduction does (each row of ROW doubles added
 * into a row of accumulators that stays in L1): ufjit's sum over axis 0
 * of 1e4 x 1e4 ran at 110% of the three others (session 29). */
enum { WAY_ONE, WAY_STREAMS, WAY_PREFETCH, WAY_ROWS, NWAYS };
enum { STREAMS = 4, PREFETCH_BYTES = 2048, ROW = 1024 };
static const char *const way_names[NWAYS] = {
    "one stream", "4 streams", "prefetch 2 KiB", "rows into 8 KiB"};

/* One part of STREAMS walked by one vector (W doubles) per step each,
 * each part in its own accumulator; len a multiple of W. */
#define SUM_STREAMS(NAME, TARGET, VEC, W, ZERO, LOAD, ADD, LANES)        \
    __attribute__((target(TARGET))) static double NAME(long lo, long hi) \
    {                                                                    \
        long len = (hi - lo) / STREAMS / (W) * (W);                      \
        const double *p = a + lo;                                        \
        VEC s0 = ZERO, s1 = ZERO, s2 = ZERO, s3 = ZERO;                  \
        for (long i = 0; i < len; i += (W)) {                            \
            s0 = ADD(s0, LOAD(p + i));                                   \
            s1 = ADD(s1, LOAD(p + len + i));                             \
            s2 = ADD(s2, LOAD(p + 2 * len + i));                         \
            s3 = ADD(s3, LOAD(p + 3 * len + i));                         \
        }                                                                \
        double lanes[W], r = 0.0;                                        \
        LANES(lanes, ADD(ADD(s0, s1), ADD(s2, s3)));                     \
        for (int k = 0; k < (W); k++)                                    \
            r += lanes[k];                                               \
        for (long i = lo + STREAMS * len; i < hi; i++)                   \
            r += a[i];                                                   \
        return r;                                                        \
    }
SUM_STREAMS(streams_avx512, "avx512f", __m512d, 8, _mm512_setzero_pd(),
            _mm512_loadu_pd, _mm512_add_pd, _mm512_storeu_pd)
SUM_STREAMS(streams_avx, "avx", __m256d, 4, _mm256_setzero_pd(),
            _mm256_loadu_pd, _mm256_add_pd, _mm256_storeu_pd)

/* One stream, each cache line prefetched PREFETCH_BYTES ahead. */
#define SUM_PREFETCH(NAME, TARGET, VEC, W, ZERO, LOAD, ADD, LANES)       \
    __attribute__((target(TARGET))) static double NAME(long lo, long hi) \
    {                                                                    \
        VEC s0 = ZERO, s1 = ZERO;                                        \
        long i = lo;                                                     \
        for (; i + 2 * (W) <= hi; i += 2 * (W)) {                        \
            for (int q = 0; q < 2 * (W); q += 8) /* each line */         \
                _mm_prefetch((const char *)(a + i + q) + PREFETCH_BYTES, \
                             _MM_HINT_T0);                               \
            s0 = ADD(s0, LOAD(a + i));                                   \
            s1 = ADD(s1, LOAD(a + i + (W)));                             \
        }                                                                \
        double lanes[W], r = 0.0;                                        \
        LANES(lanes, ADD(s0, s1));                                       \
        for (int k = 0; k < (W); k++)                                    \
            r += lanes[k];                                               \
        for (; i < hi; i++)                                              \
            r += a[i];                                                   \
        return r;                                                        \
    }
SUM_PREFETCH(prefetch_avx512, "avx512f", __m512d, 8, _mm512_setzero_pd(),
             _mm512_loadu_pd, _mm512_add_pd, _mm512_storeu_pd)
SUM_PREFETCH(prefetch_avx, "avx", __m256d, 4, _mm256_setzero_pd(),
             _mm256_loadu_pd, _mm256_add_pd, _mm256_storeu_pd)

/* The piece as rows of ROW doubles, added into ROW accumulators. */
#define SUM_ROWS(NAME, TARGET, VEC, W, ZERO, LOAD, ADD, STORE)            \
    __attribute__((target(TARGET))) static double NAME(long lo, long hi) \
    {                                                                    \
        _Alignas(64) double acc[ROW];                                    \
        for (int j = 0; j < ROW; j += (W))                               \
            STORE(acc + j, ZERO);                                        \
        long i = lo;                                                     \
        for (; i + ROW <= hi; i += ROW)                                  \
            for (int j = 0; j < ROW; j += (W))                           \
                STORE(acc + j, ADD(LOAD(acc + j), LOAD(a + i + j)));     \
        double r = 0.0;                                                  \
        for (int j = 0; j < ROW; j++)                                    \
            r += acc[j];                                                 \
        for (; i < hi; i++)                                              \
            r += a[i];                                                   \
        return r;                                                        \
    }
SUM_ROWS(rows_avx512, "avx512f", __m512d, 8, _mm512_setzero_pd(),
         _mm512_loadu_pd, _mm512_add_pd, _mm512_storeu_pd)
SUM_ROWS(rows_avx, "avx", __m256d, 4, _mm256_setzero_pd(), _mm256_loadu_pd,
         _mm256_add_pd, _mm256_storeu_pd)

static double sum_piece(int way, int w, long lo, long hi)
{
    if (w == 1)
        return sum_plain(lo, hi);
    switch (way) {
    case WAY_STREAMS:
        return w == 512 ? streams_avx512(lo, hi) : streams_avx(lo, hi);
    case WAY_PREFETCH:
        return w == 512 ? prefetch_avx512(lo, hi) : prefetch_avx(lo, hi);
    case WAY_ROWS:
        return w == 512 ? rows_avx512(lo, hi) : rows_avx(lo, hi);
    default:
        return w == 512 ? sum_avx512(lo, hi) : sum_avx(lo, hi);
    }
}

/* The read-only kernel read one way: pieces of a taken dynamically, 16
 * per thread. A static half per thread was no limit on the shared AMD
 * EPYC VM: ufjit's parallel sum (TBB, chunks handed out as threads free
 * up) ran at 110% of it, a vCPU slowed by the host holding up its whole
 * half (issue 19). */
static double sum_way(int way, int threads)
{
    const int w = width();
    long per = (n / ((long)threads * 16) + 31) / 32 * 32;
    long pieces = per > 0 ? (n + per - 1) / per : 0;
    double total = 0.0;
    if (per == 0)
        return sum_plain(0, n);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) \
    reduction(+ : total)
    for (long p = 0; p < pieces; p++) {
        long lo = p * per, hi = lo + per < n ? lo + per : n;
        total += sum_piece(way, w, lo, hi);
    }
    return total;
}

/* Reads per way and rep for `run`'s reply: which way won how often. */
static int way_wins[NWAYS];

/* The read-only limit of one rep: every way timed, the fastest kept. */
static double sum_best(int threads)
{
    double best = 0.0;
    int win = 0;
    for (int way = 0; way < NWAYS; way++) {
        double t0 = now();
        sink = sum_way(way, threads);
        double t = now() - t0;
        if (way == 0 || t < best) {
            best = t;
            win = way;
        }
    }
    way_wins[win]++;
    return best;
}

/* The write-only kernel: b[i] = s with non-temporal stores, the limit of
 * a call that writes a large output from small inputs (broadcasting a
 * row and a column). On the AMD EPYC VM it runs at the same 41-43 GB/s
 * on 1 and 2 threads, well under triad's write share: a write-only case
 * cannot reach STREAM triad's time (issue 19). Pieces handed out as the
 * read-only sum's are; lo is a multiple of 32, `b` 64-byte aligned. */
__attribute__((target("avx512f"))) static void write_nt512(long lo, long hi,
                                                            double s)
{
    __m512d v = _mm512_set1_pd(s);
    long i = lo;
    for (; i + 8 <= hi; i += 8)
        _mm512_stream_pd(b + i, v);
    for (; i < hi; i++)
        b[i] = s;
}

__attribute__((target("avx"))) static void write_nt256(long lo, long hi,
                                                        double s)
{
    __m256d v = _mm256_set1_pd(s);
    long i = lo;
    for (; i + 4 <= hi; i += 4)
        _mm256_stream_pd(b + i, v);
    for (; i < hi; i++)
        b[i] = s;
}

static void write_only(int threads, double s)
{
    const int w = width();
    long per = (n / ((long)threads * 16) + 31) / 32 * 32;
    if (per == 0)
        per = 32;
    long pieces = (n + per - 1) / per;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (long p = 0; p < pieces; p++) {
        long lo = p * per, hi = lo + per < n ? lo + per : n;
        if (w == 512)
            write_nt512(lo, hi, s);
        else if (w == 256)
            write_nt256(lo, hi, s);
        else
            for (long i = lo; i < hi; i++)
                b[i] = s;
    }
    _mm_sfence();
}

static void kernel(int k, int threads)
{
    const double s = 3.0;
    switch (k) {
    case 0:
#pragma omp parallel for num_threads(threads) schedule(static)
        for (long i = 0; i < n; i++)
            c[i] = a[i];
        break;
    case 1:
#pragma omp parallel for num_threads(threads) schedule(static)
        for (long i = 0; i < n; i++)
            b[i] = s * c[i];
        break;
    case 2:
#pragma omp parallel for num_threads(threads) schedule(static)
        for (long i = 0; i < n; i++)
            c[i] = a[i] + b[i];
        break;
    case 4: /* timed by sum_best itself (run) */
        break;
    case 5:
        write_only(threads, s);
        break;
    default:
        triad(threads, s);
        break;
    }
}

static int setup(long count)
{
    free(a);
    free(b);
    free(c);
    a = b = c = NULL;
    n = count;
    /* on huge pages as NumPy's and ufjit's large arrays are
     * (common/hugepage.h): a limit must not pay TLB misses they do not */
    size_t bytes = ((size_t)n * sizeof *a + 63) / 64 * 64;
    const char *huge = getenv("UFJIT_MADVISE_HUGEPAGE");
    double **arr[3] = {&a, &b, &c};
    for (int k = 0; k < 3; k++) {
        void *p = NULL;
        if (posix_memalign(&p, (size_t)2 << 20, bytes ? bytes : 64) != 0)
            return -1;
        if (!(huge && strcmp(huge, "0") == 0))
            madvise(p, bytes ? bytes : 64, MADV_HUGEPAGE);
        *arr[k] = p;
    }
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        a[i] = 1.0;
        b[i] = 2.0;
        c[i] = 0.0;
    }
    return 0;
}

static void run(int threads, int reps, char **which, int nwhich)
{
    int sel[NK] = {0};
    memset(way_wins, 0, sizeof way_wins);
    for (int w = 0; w < nwhich; w++)
        for (int k = 0; k < NK; k++)
            if (strcmp(which[w], names[k]) == 0)
                sel[k] = 1;
    for (int k = 0; k < NK && nwhich == 0; k++)
        sel[k] = 1;
    double *t = malloc(NK * (size_t)reps * sizeof *t);
    if (t == NULL) {
        puts("{\"ok\": false, \"error\": \"out of memory\"}");
        return;
    }
    /* STREAM's order, each rep runs every selected kernel once */
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < NK; k++)
            if (sel[k] && k == 4) {
                t[k * reps + r] = sum_best(threads);
            } else if (sel[k]) {
                double t0 = now();
                kernel(k, threads);
                t[k * reps + r] = now() - t0;
            }
    printf("{\"ok\": true, \"threads\": %d, \"n\": %ld", threads, n);
    if (sel[4]) { /* which read loop set the sum's limit, how often */
        fputs(", \"sum_ways\": {", stdout);
        for (int w = 0; w < NWAYS; w++)
            printf("%s\"%s\": %d", w ? ", " : "", way_names[w], way_wins[w]);
        fputs("}", stdout);
    }
    for (int k = 0; k < NK; k++) {
        if (!sel[k])
            continue;
        printf(", \"%s\": {\"bytes\": %ld, \"times\": [", names[k],
               (long)words[k] * n * (long)sizeof(double));
        for (int r = 0; r < reps; r++)
            printf("%s%.9g", r ? ", " : "", t[k * reps + r]);
        fputs("]}", stdout);
    }
    puts("}");
    free(t);
}

int main(void)
{
    char line[1024];
    while (fgets(line, sizeof line, stdin) != NULL) {
        char *tok[16];
        int ntok = 0;
        char *save = NULL;
        for (char *s = strtok_r(line, " \t\r\n", &save); s && ntok < 16;
             s = strtok_r(NULL, " \t\r\n", &save))
            tok[ntok++] = s;
        if (ntok == 0)
            continue;
        if (strcmp(tok[0], "quit") == 0)
            break;
        if (strcmp(tok[0], "setup") == 0 && ntok == 2 && atol(tok[1]) > 0) {
            if (setup(atol(tok[1])) < 0)
                puts("{\"ok\": false, \"error\": \"out of memory\"}");
            else
                printf("{\"ok\": true, \"n\": %ld, \"max_threads\": %d}\n",
                       n, omp_get_max_threads());
        } else if (strcmp(tok[0], "run") == 0 && ntok >= 3 && n > 0 &&
                   atoi(tok[1]) > 0 && atoi(tok[2]) > 0) {
            run(atoi(tok[1]), atoi(tok[2]), tok + 3, ntok - 3);
        } else {
            puts("{\"ok\": false, \"error\": \"usage: setup N | run THREADS "
                 "REPS [copy|scale|add|triad|sum]... | quit\"}");
        }
        fflush(stdout);
    }
    free(a);
    free(b);
    free(c);
    return 0;
}
