/* cudasim's streams: each created stream is an ordered queue of
 * operations (copies, memsets, launches, event records and waits) that
 * one worker thread runs in order. The NULL stream is the legacy default
 * stream: its operations run on the caller's thread once all earlier work
 * of every blocking stream has finished, and later work of the blocking
 * streams waits for them (streams created UF__CU_STREAM_NON_BLOCKING take
 * no part). Synchronous copies and memsets are operations on it.
 *
 * Ordering against the legacy stream uses one ticket counter: every
 * operation takes a ticket when enqueued; a legacy operation with ticket
 * T waits for every blocking stream's oldest unfinished ticket to pass T,
 * and a blocking stream does not start an operation with a ticket above
 * a running legacy one's.
 *
 * An error an operation meets when it runs (a pointer freed since the
 * call) sticks to its stream and is returned, once, by the next
 * cuStreamSynchronize/cuStreamQuery of that stream or cuCtxSynchronize.
 * One lock and one condition serve all streams and events: they are few
 * and the waits short. */
#include <pthread.h>
#include <stdlib.h>

#include "common/alloc.h"
#include "targets/cudasim/sim_entries.h"
#include "targets/cudasim/sim_internal.h"

struct uf__cu_stream_s {
    unsigned flags;
    pthread_t worker;
    uf__sim_op *head, *tail; /* head: running or next to run */
    uf__cu_result error;     /* sticky, until a synchronize reports it */
    bool stop;
    struct uf__cu_stream_s *next;
};

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t legacy_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct uf__cu_stream_s *streams;
static uint64_t tickets;
static uint64_t legacy_ticket; /* the legacy operation running, 0: none */

void uf__sim_lock(void)
{
    pthread_mutex_lock(&mutex);
}
void uf__sim_unlock(void)
{
    pthread_mutex_unlock(&mutex);
}
void uf__sim_wait(void)
{
    pthread_cond_wait(&changed, &mutex);
}
void uf__sim_broadcast(void)
{
    pthread_cond_broadcast(&changed);
}

bool uf__sim_stream_valid(uf__cu_stream s)
{
    for (struct uf__cu_stream_s *t = streams; t; t = t->next)
        if (t == s)
            return true;
    return false;
}

static bool blocking(const struct uf__cu_stream_s *s)
{
    return !(s->flags & UF__CU_STREAM_NON_BLOCKING);
}

/* Whether a blocking stream still has work enqueued before ticket t
 * (lock held). */
static bool blocking_busy_before(uint64_t t)
{
    for (struct uf__cu_stream_s *s = streams; s; s = s->next)
        if (blocking(s) && s->head && s->head->ticket < t)
            return true;
    return false;
}

static bool any_busy(void)
{
    for (struct uf__cu_stream_s *s = streams; s; s = s->next)
        if (s->head)
            return true;
    return false;
}

static void *stream_worker(void *arg)
{
    struct uf__cu_stream_s *s = arg;
    pthread_mutex_lock(&mutex);
    for (;;) {
        while (s->head == NULL && !s->stop)
            pthread_cond_wait(&changed, &mutex);
        if (s->head == NULL)
            break;
        uf__sim_op *op = s->head;
        while (blocking(s) && legacy_ticket && legacy_ticket < op->ticket)
            pthread_cond_wait(&changed, &mutex);
        pthread_mutex_unlock(&mutex);
        uf__cu_result rc = op->run(op);
        pthread_mutex_lock(&mutex);
        if (rc && !s->error)
            s->error = rc;
        if (op->complete)
            op->complete(op);
        s->head = op->next;
        if (s->head == NULL)
            s->tail = NULL;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&mutex);
        op->release(op);
        pthread_mutex_lock(&mutex);
    }
    pthread_mutex_unlock(&mutex);
    return NULL;
}

/* Runs op on the legacy stream, on this thread. */
static uf__cu_result run_legacy(uf__sim_op *op)
{
    pthread_mutex_lock(&legacy_mutex);
    pthread_mutex_lock(&mutex);
    uint64_t t = ++tickets;
    legacy_ticket = t;
    while (blocking_busy_before(t))
        pthread_cond_wait(&changed, &mutex);
    pthread_mutex_unlock(&mutex);
    uf__cu_result rc = op->run(op);
    pthread_mutex_lock(&mutex);
    if (op->complete)
        op->complete(op);
    legacy_ticket = 0;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&mutex);
    pthread_mutex_unlock(&legacy_mutex);
    op->release(op);
    return rc;
}

uf__cu_result uf__sim_submit(uf__cu_stream s, uf__sim_op *op)
{
    op->next = NULL;
    if (s == NULL)
        return run_legacy(op);
    pthread_mutex_lock(&mutex);
    if (!uf__sim_stream_valid(s) || s->stop) {
        pthread_mutex_unlock(&mutex);
        op->release(op);
        return UF__CU_ERROR_INVALID_HANDLE;
    }
    op->ticket = ++tickets;
    if (s->tail)
        s->tail->next = op;
    else
        s->head = op;
    s->tail = op;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&mutex);
    return UF__CU_SUCCESS;
}

void uf__sim_streams_drain(void)
{
    pthread_mutex_lock(&mutex);
    while (any_busy())
        pthread_cond_wait(&changed, &mutex);
    pthread_mutex_unlock(&mutex);
}

uf__cu_result uf__sim_stream_create(uf__cu_stream *out, unsigned flags)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (out == NULL || (flags & ~(unsigned)UF__CU_STREAM_NON_BLOCKING))
        return UF__CU_ERROR_INVALID_VALUE;
    struct uf__cu_stream_s *s = uf__calloc(1, sizeof *s, NULL);
    if (s == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    s->flags = flags;
    if (pthread_create(&s->worker, NULL, stream_worker, s) != 0) {
        uf__free(s);
        return UF__CU_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&mutex);
    s->next = streams;
    streams = s;
    pthread_mutex_unlock(&mutex);
    *out = s;
    return UF__CU_SUCCESS;
}

/* Unlinks s once its queue is empty and stops its worker (lock held; the
 * caller joins and frees). */
static void stop_stream(struct uf__cu_stream_s *s)
{
    while (s->head)
        pthread_cond_wait(&changed, &mutex);
    for (struct uf__cu_stream_s **p = &streams; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    s->stop = true;
    pthread_cond_broadcast(&changed);
}

/* Unlike the driver's, returns once the queued work has finished. */
uf__cu_result uf__sim_stream_destroy(uf__cu_stream s)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    pthread_mutex_lock(&mutex);
    if (!uf__sim_stream_valid(s) || s->stop) {
        pthread_mutex_unlock(&mutex);
        return UF__CU_ERROR_INVALID_HANDLE;
    }
    stop_stream(s);
    pthread_mutex_unlock(&mutex);
    pthread_join(s->worker, NULL);
    uf__free(s);
    return UF__CU_SUCCESS;
}

void uf__sim_streams_teardown(void)
{
    pthread_mutex_lock(&mutex);
    while (streams) {
        struct uf__cu_stream_s *s = streams;
        stop_stream(s);
        pthread_mutex_unlock(&mutex);
        pthread_join(s->worker, NULL);
        uf__free(s);
        pthread_mutex_lock(&mutex);
    }
    pthread_mutex_unlock(&mutex);
}

static uf__cu_result run_nothing(uf__sim_op *op)
{
    (void)op;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_stream_synchronize(uf__cu_stream s)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (s == NULL) { /* an empty legacy operation: waits for the others */
        uf__sim_op *op = uf__calloc(1, sizeof *op, NULL);
        if (op == NULL)
            return UF__CU_ERROR_OUT_OF_MEMORY;
        op->run = run_nothing;
        op->release = (void (*)(uf__sim_op *))uf__free;
        return uf__sim_submit(NULL, op);
    }
    pthread_mutex_lock(&mutex);
    if (!uf__sim_stream_valid(s)) {
        pthread_mutex_unlock(&mutex);
        return UF__CU_ERROR_INVALID_HANDLE;
    }
    while (s->head)
        pthread_cond_wait(&changed, &mutex);
    rc = s->error;
    s->error = UF__CU_SUCCESS;
    pthread_mutex_unlock(&mutex);
    return rc;
}

uf__cu_result uf__sim_stream_query(uf__cu_stream s)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    pthread_mutex_lock(&mutex);
    if (s == NULL) {
        rc = blocking_busy_before(UINT64_MAX) ? UF__CU_ERROR_NOT_READY
                                              : UF__CU_SUCCESS;
    } else if (!uf__sim_stream_valid(s)) {
        rc = UF__CU_ERROR_INVALID_HANDLE;
    } else if (s->head) {
        rc = UF__CU_ERROR_NOT_READY;
    } else {
        rc = s->error;
        s->error = UF__CU_SUCCESS;
    }
    pthread_mutex_unlock(&mutex);
    return rc;
}

uf__cu_result uf__sim_ctx_synchronize(void)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    pthread_mutex_lock(&mutex);
    while (any_busy())
        pthread_cond_wait(&changed, &mutex);
    for (struct uf__cu_stream_s *s = streams; s; s = s->next) {
        if (s->error && !rc)
            rc = s->error;
        s->error = UF__CU_SUCCESS;
    }
    pthread_mutex_unlock(&mutex);
    return rc;
}
