/* cudasim's block pool: one worker thread per simulated multiprocessor,
 * each with its own block runner (sim_block.c), taking blocks one at a
 * time from a queue of grids, so grids launched from several streams at
 * once share the workers. Plain pthreads rather than the parallel layer
 * (targets/parallel): a runner's fibers belong to one OS thread for its
 * whole life and are freed with it when the context goes, which neither
 * OpenMP's nor TBB's pools let us see. Started at the first launch. */
#include <pthread.h>

#include "common/alloc.h"
#include "targets/cudasim/sim_internal.h"

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t finished = PTHREAD_COND_INITIALIZER;
static pthread_t *workers;
static uf__sim_runner **runners;
static int nworkers;
static uf__sim_grid *head, *tail; /* grids with blocks not yet taken */
static bool stopping;

static void *pool_worker(void *arg)
{
    uf__sim_runner *r = arg;
    pthread_mutex_lock(&mutex);
    for (;;) {
        while (head == NULL && !stopping)
            pthread_cond_wait(&work, &mutex);
        if (head == NULL)
            break;
        uf__sim_grid *g = head;
        uint64_t b = g->next++;
        if (g->next == g->nblocks) {
            head = g->queue_next;
            if (head == NULL)
                tail = NULL;
        }
        pthread_mutex_unlock(&mutex);
        uf__cu_result rc = uf__sim_runner_block(r, g, b);
        pthread_mutex_lock(&mutex);
        if (rc && !g->error)
            g->error = rc;
        if (++g->done == g->nblocks)
            pthread_cond_broadcast(&finished);
    }
    pthread_mutex_unlock(&mutex);
    return NULL;
}

/* Starts the workers (mutex held); false when not one could start. */
static bool start(void)
{
    int n = uf__sim_sm_count();
    workers = uf__calloc((size_t)n, sizeof *workers, NULL);
    runners = uf__calloc((size_t)n, sizeof *runners, NULL);
    if (workers == NULL || runners == NULL)
        goto fail;
    for (nworkers = 0; nworkers < n; nworkers++) {
        runners[nworkers] = uf__sim_runner_new();
        if (runners[nworkers] == NULL)
            break;
        if (pthread_create(&workers[nworkers], NULL, pool_worker,
                           runners[nworkers]) != 0) {
            uf__sim_runner_free(runners[nworkers]);
            break;
        }
    }
    if (nworkers > 0)
        return true;
fail:
    uf__free(workers);
    uf__free(runners);
    workers = NULL;
    runners = NULL;
    return false;
}

uf__cu_result uf__sim_run_grid(uf__sim_grid *g)
{
    pthread_mutex_lock(&mutex);
    if (nworkers == 0 && !start()) {
        pthread_mutex_unlock(&mutex);
        return UF__CU_ERROR_LAUNCH_OUT_OF_RESOURCES;
    }
    g->next = g->done = 0;
    g->error = UF__CU_SUCCESS;
    g->queue_next = NULL;
    if (tail)
        tail->queue_next = g;
    else
        head = g;
    tail = g;
    pthread_cond_broadcast(&work);
    while (g->done < g->nblocks)
        pthread_cond_wait(&finished, &mutex);
    pthread_mutex_unlock(&mutex);
    return g->error;
}

void uf__sim_pool_teardown(void)
{
    pthread_mutex_lock(&mutex);
    stopping = true;
    pthread_cond_broadcast(&work);
    pthread_mutex_unlock(&mutex);
    for (int i = 0; i < nworkers; i++) {
        pthread_join(workers[i], NULL);
        uf__sim_runner_free(runners[i]);
    }
    pthread_mutex_lock(&mutex);
    uf__free(workers);
    uf__free(runners);
    workers = NULL;
    runners = NULL;
    nworkers = 0;
    stopping = false;
    pthread_mutex_unlock(&mutex);
}
