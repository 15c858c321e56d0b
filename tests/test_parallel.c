/* The parallel runtime (targets/parallel/): uf__parallel_for's chunking,
 * serial cutoff, thread counts and error propagation, on whichever layer
 * UFJIT_THREADING_LAYER selects. tests/cmake/parallel.cmake runs this
 * binary once per layer (omp, tbb, serial, unset = the default), with a
 * bad layer name and with UFJIT_NUM_THREADS good and bad; each test reads
 * the environment to know what to expect. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "test_util.h"

#include "common/error_internal.h"
#include "targets/parallel/parallel.h"

/* ---- what the environment asks for ------------------------------------ */

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && v[0] != '\0' ? v : NULL;
}

static bool layer_in(const char *name, const char *list)
{
    size_t n = strlen(name);

    for (const char *p = strstr(list, name); p != NULL;
         p = strstr(p + 1, name))
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

/* The configuration error every call must report, or NULL. */
static const char *expected_config_error(int *code)
{
    static char msg[512];
    const char *layer = env("UFJIT_THREADING_LAYER");
    const char *threads = env("UFJIT_NUM_THREADS");

    if (threads != NULL) {
        char *end;
        long n = strtol(threads, &end, 10);
        if (*end != '\0' || n < 1 || n > 1024) {
            *code = UF_ERR_VALUE;
            snprintf(msg, sizeof msg,
                     "UFJIT_NUM_THREADS='%s' must be a whole number from 1 "
                     "to 1024", threads);
            return msg;
        }
    }
    if (layer == NULL || strcmp(layer, "default") == 0 ||
        strcmp(layer, "serial") == 0 ||
        layer_in(layer, uf__parallel_layers_available()))
        return NULL;
    if (strcmp(layer, "omp") == 0 || strcmp(layer, "tbb") == 0) {
        *code = UF_ERR_UNSUPPORTED;
        snprintf(msg, sizeof msg,
                 "UFJIT_THREADING_LAYER='%s': that threading layer is not "
                 "built into this ufjit (built: %s serial)", layer,
                 uf__parallel_layers_available());
        return msg;
    }
    *code = UF_ERR_VALUE;
    snprintf(msg, sizeof msg,
             "UFJIT_THREADING_LAYER='%s' is not a threading layer (choose "
             "omp, tbb, serial or default; built: %s serial)",
             layer, uf__parallel_layers_available());
    return msg;
}

static bool configured_ok(void)
{
    int code;
    return expected_config_error(&code) == NULL;
}

/* ---- a body that records what it was given ----------------------------- */

#define MAXN 200003

typedef struct record {
    atomic_uchar hits[MAXN];
    atomic_int calls;
    atomic_llong min_len;
    pthread_t caller;
    atomic_bool other_thread;
} record;

static record rec;

static void record_reset(void)
{
    for (int i = 0; i < MAXN; i++)
        atomic_store(&rec.hits[i], 0);
    atomic_store(&rec.calls, 0);
    atomic_store(&rec.min_len, INT64_MAX);
    atomic_store(&rec.other_thread, false);
    rec.caller = pthread_self();
}

static int record_body(void *ctx, int64_t begin, int64_t end, uf_error *err)
{
    (void)ctx, (void)err;
    long long len = end - begin, seen = atomic_load(&rec.min_len);

    atomic_fetch_add(&rec.calls, 1);
    while (len < seen &&
           !atomic_compare_exchange_weak(&rec.min_len, &seen, len))
        ;
    if (!pthread_equal(pthread_self(), rec.caller))
        atomic_store(&rec.other_thread, true);
    for (int64_t i = begin; i < end; i++)
        atomic_fetch_add(&rec.hits[i], 1);
    return 0;
}

/* Every index in [0, n) exactly once, nothing past n; chunks at least
 * `grain` long unless there is one; one call on the caller's thread when
 * the work is serial. */
static void check_cover(const char *file, int line, int64_t n,
                        int64_t grain, int nthreads)
{
    int64_t g = grain < 1 ? 1 : grain;
    int t = nthreads == 0 ? uf__parallel_default_threads() : nthreads;
    int calls;
    uf_error err;

    record_reset();
    int rc = uf__parallel_for(n, grain, nthreads, record_body, NULL, &err);
    if (rc != 0)
        uf_fail_at(file, line, "n=%lld grain=%lld threads=%d: %s",
                   (long long)n, (long long)grain, nthreads, err.message);
    for (int64_t i = 0; i < MAXN; i++) {
        int want = i < n ? 1 : 0, got = atomic_load(&rec.hits[i]);
        if (got != want)
            uf_fail_at(file, line,
                       "n=%lld grain=%lld threads=%d: index %lld run %d "
                       "times", (long long)n, (long long)grain, nthreads,
                       (long long)i, got);
    }
    calls = atomic_load(&rec.calls);
    if (n == 0) {
        if (calls != 0)
            uf_fail_at(file, line, "n=0: the body ran %d times", calls);
        return;
    }
    if (n <= g || t == 1 || strcmp(uf__parallel_layer(), "serial") == 0) {
        if (calls != 1 || atomic_load(&rec.other_thread))
            uf_fail_at(file, line,
                       "n=%lld grain=%lld threads=%d: serial work ran as %d "
                       "calls%s", (long long)n, (long long)grain, nthreads,
                       calls, atomic_load(&rec.other_thread)
                                  ? " on another thread" : "");
        return;
    }
    if (calls > 1 && atomic_load(&rec.min_len) < g)
        uf_fail_at(file, line, "n=%lld grain=%lld threads=%d: a chunk of "
                   "%lld", (long long)n, (long long)grain, nthreads,
                   (long long)atomic_load(&rec.min_len));
    /* never per element: at most 4 chunks per thread */
    if (calls > 4 * t)
        uf_fail_at(file, line, "n=%lld grain=%lld threads=%d: %d chunks",
                   (long long)n, (long long)grain, nthreads, calls);
}

static void test_chunks_cover_once(void **state)
{
    static const int64_t ns[] = {0, 1, 2, 3, 7, 8, 100, 1000, 4097, 65536,
                                 200003};
    static const int64_t grains[] = {-5, 0, 1, 3, 64, 1000, 4096, 1 << 20};
    static const int threads[] = {0, 1, 2, 7};
    (void)state;

    if (!configured_ok())
        skip();
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t b = 0; b < sizeof grains / sizeof grains[0]; b++)
            for (size_t c = 0; c < sizeof threads / sizeof threads[0]; c++)
                check_cover(LOC, ns[a], grains[b], threads[c]);
}

/* ---- several threads really run ------------------------------------------ */

static atomic_int started;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Every chunk waits (up to 10 s) until two chunks have started: only
 * possible when two threads run at once. */
static int meet_body(void *ctx, int64_t begin, int64_t end, uf_error *err)
{
    (void)ctx, (void)begin, (void)end;
    double t0 = now();

    atomic_fetch_add(&started, 1);
    while (atomic_load(&started) < 2) {
        if (now() - t0 > 10.0)
            return uf__error_set(err, UF_ERR_INTERNAL, "alone"), 1;
        sched_yield();
    }
    return 0;
}

static void test_threads_run_concurrently(void **state)
{
    static const int threads[] = {2, 7};
    (void)state;
    uf_error err;

    if (!configured_ok() || strcmp(uf__parallel_layer(), "serial") == 0)
        skip();
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        atomic_store(&started, 0);
        int rc = uf__parallel_for(1000, 10, threads[i], meet_body, NULL,
                                  &err);
        if (rc != 0)
            uf_fail_at(__FILE__, __LINE__, "%d threads: %s", threads[i], err.message);
    }
}

static void test_layer_and_threads(void **state)
{
    (void)state;
    const char *layer = env("UFJIT_THREADING_LAYER");
    const char *threads = env("UFJIT_NUM_THREADS");
    const char *built = uf__parallel_layers_available();
    cpu_set_t set;
    uf_error err;

    /* this build has both (cmake/parallel.cmake on Debian 12) */
    assert_string_equal(built, "omp tbb");
    if (!configured_ok())
        skip();
    assert_int_equal(uf__parallel_config_error(&err), 0);
    if (layer == NULL || strcmp(layer, "default") == 0)
        layer = "tbb"; /* the measured best for ufuncs */
    assert_string_equal(uf__parallel_layer(), layer);
    assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
    assert_int_equal(uf__parallel_default_threads(),
                     threads != NULL ? atoi(threads) : CPU_COUNT(&set));
}

/* ---- errors ------------------------------------------------------------- */

typedef struct fail_ctx {
    int64_t bad[2]; /* chunks containing these indices fail */
    bool quiet;     /* fail without a message */
} fail_ctx;

static int fail_body(void *vctx, int64_t begin, int64_t end, uf_error *err)
{
    fail_ctx *f = vctx;

    for (int k = 0; k < 2; k++) {
        if (f->bad[k] < begin || f->bad[k] >= end)
            continue;
        if (f->quiet)
            return 3;
        uf__error_set(err, UF_ERR_VALUE, "bad element %lld",
                      (long long)f->bad[k]);
        return 10 + k;
    }
    return 0;
}

static void test_first_error_wins(void **state)
{
    static const int threads[] = {1, 2, 7};
    (void)state;
    uf_error err;
    char m0[64], m1[64];

    if (!configured_ok())
        skip();
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        int t = threads[i];
        fail_ctx one = {{5000, -1}, false};
        int rc = uf__parallel_for(100000, 100, t, fail_body, &one, &err);
        assert_int_equal(rc, 10);
        assert_int_equal(err.code, UF_ERR_VALUE);
        assert_string_equal(err.message, "bad element 5000");

        /* two failing chunks: one of them, whole, never a mix */
        fail_ctx two = {{10, 99990}, false};
        rc = uf__parallel_for(100000, 100, t, fail_body, &two, &err);
        snprintf(m0, sizeof m0, "bad element 10");
        snprintf(m1, sizeof m1, "bad element 99990");
        if (!((rc == 10 && strcmp(err.message, m0) == 0) ||
              (rc == 11 && strcmp(err.message, m1) == 0)))
            uf_fail_at(__FILE__, __LINE__, "%d threads: status %d with '%s'", t, rc,
                       err.message);
        /* serially the first chunk fails first */
        if (t == 1)
            assert_int_equal(rc, 10);

        /* a body that says nothing still gives a message */
        fail_ctx quiet = {{0, -1}, true};
        rc = uf__parallel_for(100000, 100, t, fail_body, &quiet, &err);
        assert_int_equal(rc, 3);
        assert_int_equal(err.code, UF_ERR_INTERNAL);
        assert_non_null(strstr(err.message, "failed with status 3"));
        assert_true(strncmp(err.message, "a parallel chunk [0, ", 21) == 0);

        /* and the runtime works normally afterwards */
        check_cover(LOC, 100000, 100, t);
    }
}

static void test_bad_arguments(void **state)
{
    (void)state;
    uf_error err;

    if (!configured_ok())
        skip();
    assert_int_equal(uf__parallel_for(10, 1, -1, record_body, NULL, &err),
                     UF_ERR_VALUE);
    assert_string_equal(err.message, "the number of threads must be from 1 "
                                     "to 1024 (0 for the default), not -1");
    assert_int_equal(uf__parallel_for(10, 1, 1025, record_body, NULL, &err),
                     UF_ERR_VALUE);
    assert_int_equal(uf__parallel_for(10, 1, 2, NULL, NULL, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf__parallel_for(-1, 1, 2, record_body, NULL, &err),
                     UF_ERR_INVALID);
    /* err may be NULL */
    fail_ctx one = {{5, -1}, false};
    assert_int_equal(uf__parallel_for(100, 1, 2, fail_body, &one, NULL), 10);
}

/* Under a bad UFJIT_THREADING_LAYER / UFJIT_NUM_THREADS: every call fails
 * with the same message and never runs the body; nothing crashes. */
static void test_config_error_reported(void **state)
{
    (void)state;
    int code = 0;
    const char *want = expected_config_error(&code);
    uf_error err;

    if (want == NULL)
        skip();
    for (int k = 0; k < 2; k++) {
        record_reset();
        assert_int_equal(uf__parallel_for(k ? 10 : 100000, 1, 2, record_body,
                                          NULL, &err), code);
        assert_string_equal(err.message, want);
        assert_int_equal(atomic_load(&rec.calls), 0);
    }
    assert_int_equal(uf__parallel_config_error(&err), code);
    assert_string_equal(err.message, want);
}

/* ---- nesting and concurrent callers ----------------------------------- */

typedef struct nest_ctx {
    atomic_uchar hits[4][1000];
    atomic_int failures;
} nest_ctx;

static nest_ctx nest;

static int inner_body(void *vctx, int64_t begin, int64_t end, uf_error *err)
{
    (void)err;
    atomic_uchar *row = vctx;
    for (int64_t i = begin; i < end; i++)
        atomic_fetch_add(&row[i], 1);
    return 0;
}

static int outer_body(void *vctx, int64_t begin, int64_t end, uf_error *err)
{
    (void)vctx;
    for (int64_t r = begin; r < end; r++)
        if (uf__parallel_for(1000, 10, 2, inner_body, nest.hits[r], err) != 0)
            return 1;
    return 0;
}

static void test_nested(void **state)
{
    (void)state;
    uf_error err;

    if (!configured_ok())
        skip();
    memset(&nest, 0, sizeof nest);
    uf_assert_ok(uf__parallel_for(4, 1, 2, outer_body, NULL, &err) == 0,
                 &err);
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < 1000; i++)
            assert_int_equal(atomic_load(&nest.hits[r][i]), 1);
}

static void *caller_thread(void *arg)
{
    atomic_uchar *row = arg;
    uf_error err;

    for (int rep = 0; rep < 50; rep++)
        if (uf__parallel_for(1000, 10, 2, inner_body, row, &err) != 0)
            atomic_fetch_add(&nest.failures, 1);
    return NULL;
}

static void test_concurrent_callers(void **state)
{
    (void)state;
    pthread_t t[4];

    if (!configured_ok())
        skip();
    memset(&nest, 0, sizeof nest);
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&t[i], NULL, caller_thread,
                                        nest.hits[i]), 0);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(atomic_load(&nest.failures), 0);
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < 1000; i++)
            assert_int_equal(atomic_load(&nest.hits[r][i]), 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layer_and_threads),
        cmocka_unit_test(test_chunks_cover_once),
        cmocka_unit_test(test_threads_run_concurrently),
        cmocka_unit_test(test_first_error_wins),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_config_error_reported),
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_concurrent_callers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
