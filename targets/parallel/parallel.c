/* The parallel runtime's dispatcher (contract in parallel.h): chooses the
 * threading layer and the default thread count once per process, cuts
 * [0, n) into grain-sized chunks, a few per thread, and hands the chunk
 * numbers to the layer. Each chunk gets its own uf_error; the first chunk
 * to fail publishes its error and status, and chunks not yet started are
 * skipped. A bad UFJIT_THREADING_LAYER or UFJIT_NUM_THREADS is reported by
 * every call through uf_error (it is not fixed by waiting). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error_internal.h"
#include "targets/parallel/parallel.h"
#include "targets/parallel/parallel_internal.h"

/* Chunks per thread: enough that a thread slowed down by the rest of the
 * machine does not hold up the call, few enough that each stays long. */
#define CHUNKS_PER_THREAD 4

typedef enum layer_id { LAYER_SERIAL, LAYER_OMP, LAYER_TBB } layer_id;

static const char *const layer_names[] = {"serial", "omp", "tbb"};

static bool layer_built(layer_id l)
{
    switch (l) {
    case LAYER_SERIAL:
        return true;
    case LAYER_OMP:
#ifdef UFJIT_HAVE_OMP
        return true;
#else
        return false;
#endif
    case LAYER_TBB:
#ifdef UFJIT_HAVE_TBB
        return true;
#else
        return false;
#endif
    }
    return false;
}

/* The default when UFJIT_THREADING_LAYER does not say: tbb, measured
 * better for ufunc calls here (bench/bench_parallel.c). On a machine
 * whose cores are shared, an OpenMP region cannot end before every thread
 * of its team has been scheduled and reached the barrier (fork-join of an
 * empty region 6-14 us, a 1e5-element call slower than serial), while TBB's
 * caller runs whatever chunks no worker has taken and returns (0.2 us);
 * on 1e7 elements the two are level. */
static layer_id best_layer(void)
{
    if (layer_built(LAYER_TBB))
        return LAYER_TBB;
    if (layer_built(LAYER_OMP))
        return LAYER_OMP;
    return LAYER_SERIAL;
}

static struct {
    pthread_once_t once;
    layer_id layer;
    int threads;
    int code; /* a configuration error, reported on every use */
    char message[512];
} config = {PTHREAD_ONCE_INIT, LAYER_SERIAL, 1, 0, ""};

static void config_error(int code, const char *fmt, const char *value)
{
    config.code = code;
    snprintf(config.message, sizeof config.message, fmt, value,
             uf__parallel_layers_available());
}

static void choose_layer(void)
{
    const char *v = getenv("UFJIT_THREADING_LAYER");

    config.layer = best_layer();
    if (v == NULL || v[0] == '\0' || strcmp(v, "default") == 0)
        return;
    for (int l = 0; l < 3; l++) {
        if (strcmp(v, layer_names[l]) != 0)
            continue;
        if (!layer_built((layer_id)l)) {
            config_error(UF_ERR_UNSUPPORTED,
                         "UFJIT_THREADING_LAYER='%s': that threading layer "
                         "is not built into this ufjit (built: %s serial)",
                         v);
            return;
        }
        config.layer = (layer_id)l;
        return;
    }
    config_error(UF_ERR_VALUE,
                 "UFJIT_THREADING_LAYER='%s' is not a threading layer "
                 "(choose omp, tbb, serial or default; built: %s serial)",
                 v);
}

/* The CPUs this process may run on (a cgroup quota is not counted: it
 * limits time, not places). */
static int usable_cpus(void)
{
    for (int ncpu = 1024; ncpu <= 65536; ncpu *= 4) {
        cpu_set_t *set = CPU_ALLOC((size_t)ncpu);
        size_t size = CPU_ALLOC_SIZE((size_t)ncpu);
        int n = -1;

        if (set == NULL)
            break;
        if (sched_getaffinity(0, size, set) == 0)
            n = CPU_COUNT_S(size, set);
        CPU_FREE(set);
        if (n > 0)
            return n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void choose_threads(void)
{
    const char *v = getenv("UFJIT_NUM_THREADS");
    char *end;
    long n;

    config.threads = usable_cpus();
    if (config.threads > UF__PARALLEL_MAX_THREADS)
        config.threads = UF__PARALLEL_MAX_THREADS;
    if (v == NULL || v[0] == '\0')
        return;
    n = strtol(v, &end, 10);
    if (*end != '\0' || n < 1 || n > UF__PARALLEL_MAX_THREADS) {
        config.code = UF_ERR_VALUE;
        snprintf(config.message, sizeof config.message,
                 "UFJIT_NUM_THREADS='%s' must be a whole number from 1 to "
                 "%d", v, UF__PARALLEL_MAX_THREADS);
        return;
    }
    config.threads = (int)n;
}

static void configure(void)
{
    choose_threads();
    if (config.code == 0)
        choose_layer();
}

/* Set once configure() has run: later calls skip pthread_once. */
static atomic_bool configured;

static void configure_once(void)
{
    configure();
    atomic_store_explicit(&configured, true, memory_order_release);
}

static void ensure_config(void)
{
    if (!atomic_load_explicit(&configured, memory_order_acquire))
        pthread_once(&config.once, configure_once);
}

const char *uf__parallel_layer(void)
{
    ensure_config();
    return layer_names[config.layer];
}

bool uf__parallel_is_serial(void)
{
    ensure_config();
    return config.layer == LAYER_SERIAL;
}

int uf__parallel_default_threads(void)
{
    ensure_config();
    return config.threads;
}

const char *uf__parallel_layers_available(void)
{
#if defined(UFJIT_HAVE_OMP) && defined(UFJIT_HAVE_TBB)
    return "omp tbb";
#elif defined(UFJIT_HAVE_OMP)
    return "omp";
#elif defined(UFJIT_HAVE_TBB)
    return "tbb";
#else
    return "";
#endif
}

int uf__parallel_config_error(uf_error *err)
{
    ensure_config();
    if (config.code != 0)
        return uf__error_set(err, config.code, "%s", config.message);
    return 0;
}

typedef struct job {
    uf__parallel_body body;
    void *ctx;
    int64_t chunk_len, longer; /* chunks < longer have chunk_len + 1 */
    atomic_bool failed;
    int status;
    uf_error *err;
} job;

static int64_t chunk_begin(const job *j, int64_t i)
{
    return i * j->chunk_len + (i < j->longer ? i : j->longer);
}

/* A failing body that said nothing still gets a message. */
static void describe(uf_error *e, int status, int64_t begin, int64_t end)
{
    if (e->code == UF_ERR_OK)
        uf__error_set(e, UF_ERR_INTERNAL,
                      "a parallel chunk [%lld, %lld) failed with status %d",
                      (long long)begin, (long long)end, status);
}

static void run_chunk(void *vjob, int64_t i)
{
    job *j = vjob;
    int64_t begin, end;
    uf_error local;
    bool no = false;
    int status;

    if (atomic_load_explicit(&j->failed, memory_order_relaxed))
        return;
    begin = chunk_begin(j, i);
    end = chunk_begin(j, i + 1);
    uf_error_clear(&local);
    status = j->body(j->ctx, begin, end, &local);
    if (status == 0)
        return;
    describe(&local, status, begin, end);
    /* The join of the layer orders these writes before the caller reads
     * them. */
    if (atomic_compare_exchange_strong(&j->failed, &no, true)) {
        *j->err = local;
        j->status = status;
    }
}

static int run_layer(int64_t nchunks, int nthreads, job *j, char *why,
                     size_t size)
{
    switch (config.layer) {
#ifdef UFJIT_HAVE_OMP
    case LAYER_OMP:
        return uf__parallel_omp_run(nchunks, nthreads, run_chunk, j, why,
                                    size);
#endif
#ifdef UFJIT_HAVE_TBB
    case LAYER_TBB:
        return uf__parallel_tbb_run(nchunks, nthreads, run_chunk, j, why,
                                    size);
#endif
    default:
        break;
    }
    for (int64_t i = 0; i < nchunks; i++)
        run_chunk(j, i);
    return 0;
}

int uf__parallel_for(int64_t n, int64_t grain, int nthreads,
                     uf__parallel_body body, void *ctx, uf_error *err)
{
    uf_error local;
    int64_t nchunks;
    char why[256] = "";
    int rc;
    job j;

    if (err == NULL)
        err = &local;
    ensure_config();
    if (config.code != 0)
        return uf__error_set(err, config.code, "%s", config.message);
    if (body == NULL || n < 0)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__parallel_for: invalid arguments");
    if (nthreads < 0 || nthreads > UF__PARALLEL_MAX_THREADS)
        return uf__error_set(err, UF_ERR_VALUE,
                             "the number of threads must be from 1 to %d "
                             "(0 for the default), not %d",
                             UF__PARALLEL_MAX_THREADS, nthreads);
    if (n == 0)
        return 0;
    if (grain < 1)
        grain = 1;
    if (nthreads == 0)
        nthreads = config.threads;

    nchunks = n / grain;
    if (nchunks > (int64_t)nthreads * CHUNKS_PER_THREAD)
        nchunks = (int64_t)nthreads * CHUNKS_PER_THREAD;
    if (nchunks <= 1 || nthreads == 1 || config.layer == LAYER_SERIAL) {
        int status;

        uf_error_clear(err);
        status = body(ctx, 0, n, err);
        if (status != 0)
            describe(err, status, 0, n);
        return status;
    }

    j.body = body;
    j.ctx = ctx;
    j.chunk_len = n / nchunks;
    j.longer = n % nchunks;
    atomic_init(&j.failed, false);
    j.status = 0;
    j.err = err;
    uf_error_clear(err);
    rc = run_layer(nchunks, nthreads, &j, why, sizeof why);
    if (atomic_load(&j.failed))
        return j.status;
    if (rc != 0)
        return uf__error_set(err, rc, "%s", why);
    return 0;
}
