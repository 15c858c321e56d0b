/* cudasim's block scheduler: the threads of one block as cooperatively
 * scheduled fibers on one pool worker, so that __syncthreads is exact.
 *
 * A fiber runs simulated threads one after the other, to completion,
 * taking the next unstarted thread each time. Only a thread that reaches
 * the barrier gives up its fiber: it waits there, and the worker starts
 * the next unstarted thread on another fiber. When every live thread of
 * the block waits (threads that returned do not count, as on sm_70 and
 * later), the barrier opens and the waiting threads resume in order. A
 * kernel that never calls the barrier so runs its whole block on one
 * fiber, without a single switch. Fibers (at most one per thread of the
 * largest block), the thread states and the shared memory are the
 * worker's, reused from block to block.
 *
 * Threads of a warp run one after the other between barriers, except at
 * warp collectives (uf__sim_warp: shuffles, votes, match, __syncwarp,
 * and activemask, which gathers every lane still running, as a converged
 * warp would): there a lane waits, as at the barrier, until every lane of
 * the mask that has not exited has arrived; the last one computes every
 * lane's result. One collective at a time per warp (divergent halves of a warp
 * running different collectives at once are not simulated). A block whose
 * live threads all wait for lanes that will never come fails the launch
 * (CUDA_ERROR_LAUNCH_FAILED) instead of hanging. */
#include <string.h>

#include "common/alloc.h"
#include "targets/cudasim/sim.h"
#include "targets/cudasim/sim_fiber.h"
#include "targets/cudasim/sim_internal.h"

#define UF__SIM_SHARED_POISON 0xa5

#define NWARPS (UF__SIM_MAX_THREADS / UF__SIM_WARP)

/* One warp's collective in progress. */
typedef struct sim_warp {
    uint32_t arrived; /* lanes waiting in it */
    uint32_t exited;  /* lanes whose thread returned */
    uint32_t op, mask;
    uint64_t val[UF__SIM_WARP], out[UF__SIM_WARP];
    uint32_t arg[UF__SIM_WARP];
    uf__sim_fiber *waiters, *waiters_tail;
} sim_warp;

struct uf__sim_runner {
    uf__sim_fiber main; /* the worker's own context */
    uf__sim_fiber *fibers[UF__SIM_MAX_THREADS];
    uint32_t nfibers;
    uf__sim_fiber *idle;              /* between threads */
    uf__sim_fiber *ready, *ready_tail; /* released by the barrier */
    uf__sim_fiber *barrier, *barrier_tail;
    uf__sim_fiber *current;

    const uf__sim_grid *grid;
    uint32_t ctaid[3];
    uint32_t nthreads, next_tid, live, waiting;
    /* the counting barrier: threads with a nonzero predicate among those
     * waiting, and at the last opening (read by each released thread
     * before any of them can reach the next opening) */
    uint32_t votes, last_votes, last_waiting;
    char *shared; /* UF__SIM_SHARED_LIMIT bytes */
    uf__sim_thread threads[UF__SIM_MAX_THREADS];
    sim_warp warps[NWARPS];
};

static _Thread_local uf__sim_runner *tls_runner;
static _Thread_local const uf__sim_thread *tls_self;

const uf__sim_thread *uf__sim_self(void)
{
    return tls_self;
}

uf__sim_runner *uf__sim_runner_new(void)
{
    uf__sim_runner *r = uf__calloc(1, sizeof *r, NULL);
    if (r == NULL)
        return NULL;
    r->shared = uf__malloc_aligned(UF__SIM_SHARED_LIMIT, NULL);
    if (r->shared == NULL) {
        uf__free(r);
        return NULL;
    }
    return r;
}

void uf__sim_runner_free(uf__sim_runner *r)
{
    if (r == NULL)
        return;
    for (uint32_t i = 0; i < r->nfibers; i++) {
        uf__sim_fiber_destroy(r->fibers[i]);
        uf__free(r->fibers[i]);
    }
    uf__free(r->shared);
    uf__free(r);
}

static void push(uf__sim_fiber **head, uf__sim_fiber **tail, uf__sim_fiber *f)
{
    f->next = NULL;
    if (*tail)
        (*tail)->next = f;
    else
        *head = f;
    *tail = f;
}

/* Every live thread waits: the barrier opens. */
static void open_barrier(uf__sim_runner *r)
{
    while (r->barrier) {
        uf__sim_fiber *f = r->barrier;
        r->barrier = f->next;
        push(&r->ready, &r->ready_tail, f);
    }
    r->barrier_tail = NULL;
    r->last_votes = r->votes;
    r->last_waiting = r->waiting;
    r->votes = 0;
    r->waiting = 0;
}

static void thread_init(uf__sim_runner *r, uint32_t tid)
{
    const uf__sim_grid *g = r->grid;
    uf__sim_thread *t = &r->threads[tid];
    uint32_t bx = g->block[0], by = g->block[1];
    t->tid[0] = tid % bx;
    t->tid[1] = tid / bx % by;
    t->tid[2] = tid / (bx * by);
    memcpy(t->ntid, g->block, sizeof t->ntid);
    memcpy(t->ctaid, r->ctaid, sizeof t->ctaid);
    memcpy(t->nctaid, g->grid, sizeof t->nctaid);
    t->laneid = tid % UF__SIM_WARP;
    t->warpsize = UF__SIM_WARP;
    t->shared = r->shared;
    t->block = r;
}

/* ---- warp collectives ---------------------------------------------- */

/* The lanes of warp w the block has. */
static uint32_t present(const uf__sim_runner *r, uint32_t w)
{
    uint32_t first = w * UF__SIM_WARP;
    if (first + UF__SIM_WARP <= r->nthreads)
        return 0xffffffffu;
    return (1u << (r->nthreads - first)) - 1;
}

static uint64_t lane_result(const sim_warp *W, uint32_t part, uint32_t l)
{
    uint32_t v32 = (uint32_t)W->val[l];
    int64_t b = (int32_t)W->arg[l], src = -1;
    switch (W->op) {
    case UF__SIM_SHFL_IDX: src = b & 31; break;
    case UF__SIM_SHFL_UP: src = (int64_t)l - b; break;
    case UF__SIM_SHFL_DOWN: src = (int64_t)l + b; break;
    case UF__SIM_SHFL_XOR: src = (int64_t)l ^ b; break;
    default: break;
    }
    if (W->op <= UF__SIM_SHFL_XOR) /* another lane's value, if it took part */
        return src >= 0 && src < 32 && (part >> src & 1u)
                   ? (uint32_t)W->val[src]
                   : v32;
    uint32_t yes = 0, same = 0;
    for (uint32_t k = 0; k < 32; k++)
        if (part >> k & 1u) {
            yes |= (uint32_t)(W->val[k] != 0) << k;
            same |= (uint32_t)(W->val[k] == W->val[l]) << k;
        }
    bool all = yes == part, any = yes != 0, eq = all || yes == 0;
    switch (W->op) {
    case UF__SIM_VOTE_ALL: return (uint64_t)all << 32 | all;
    case UF__SIM_VOTE_ANY: return (uint64_t)any << 32 | any;
    case UF__SIM_VOTE_EQ: return (uint64_t)eq << 32 | eq;
    case UF__SIM_BALLOT: return yes;
    case UF__SIM_MATCH_ANY: return same;
    case UF__SIM_MATCH_ALL: return same == part ? (uint64_t)1 << 32 | part : 0;
    case UF__SIM_ACTIVEMASK: return part;
    default: return 0; /* syncwarp */
    }
}

/* Every lane needed arrived: their results, and the waiters released. */
static void complete(uf__sim_runner *r, sim_warp *W)
{
    uint32_t part = W->arrived;
    for (uint32_t l = 0; l < 32; l++)
        if (part >> l & 1u)
            W->out[l] = lane_result(W, part, l);
    W->arrived = 0;
    while (W->waiters) {
        uf__sim_fiber *f = W->waiters;
        W->waiters = f->next;
        push(&r->ready, &r->ready_tail, f);
    }
    W->waiters_tail = NULL;
}

static bool all_arrived(const uf__sim_runner *r, const sim_warp *W,
                        uint32_t w)
{
    uint32_t need = W->mask & present(r, w) & ~W->exited;
    return (W->arrived & need) == need;
}

/* An exited lane no longer holds the others of its warp back. */
static void lane_exited(uf__sim_runner *r, uint32_t tid)
{
    uint32_t w = tid / UF__SIM_WARP;
    sim_warp *W = &r->warps[w];
    W->exited |= 1u << (tid % UF__SIM_WARP);
    if (W->arrived && all_arrived(r, W, w))
        complete(r, W);
}

uint64_t uf__sim_warp(uint32_t op, uint32_t mask, uint64_t value,
                      uint32_t arg)
{
    uf__sim_runner *r = tls_runner;
    if (r == NULL || r->current == NULL || tls_self == NULL)
        return 0; /* not in a kernel */
    uf__sim_fiber *f = r->current;
    uint32_t w = f->tid / UF__SIM_WARP, lane = f->tid % UF__SIM_WARP;
    sim_warp *W = &r->warps[w];
    if (op == UF__SIM_ACTIVEMASK) /* every lane still running meets */
        mask = 0xffffffffu;
    W->op = op;
    W->mask = mask | 1u << lane;
    W->val[lane] = value;
    W->arg[lane] = arg;
    W->arrived |= 1u << lane;
    if (all_arrived(r, W, w)) {
        complete(r, W);
        return W->out[lane];
    }
    push(&W->waiters, &W->waiters_tail, f);
    uf__sim_fiber_switch(f, &r->main, &r->main);
    tls_self = &r->threads[f->tid];
    return W->out[lane];
}

/* A fiber's life: run unstarted threads to completion, then go idle until
 * the worker needs it again. */
static void fiber_main(void)
{
    uf__sim_runner *r = tls_runner;
    uf__sim_fiber *f = r->current;
    uf__sim_fiber_started(&r->main);
    for (;;) {
        while (r->next_tid < r->nthreads) {
            uint32_t tid = r->next_tid++;
            f->tid = tid;
            thread_init(r, tid);
            tls_self = &r->threads[tid];
            r->grid->fn(r->grid->params);
            tls_self = NULL;
            r->live--;
            lane_exited(r, tid);
            if (r->waiting > 0 && r->waiting == r->live)
                open_barrier(r);
        }
        f->next = r->idle;
        r->idle = f;
        uf__sim_fiber_switch(f, &r->main, &r->main);
    }
}

/* Waits at the barrier, voting `vote`. false outside a kernel. */
static bool barrier_wait(bool vote)
{
    uf__sim_runner *r = tls_runner;
    if (r == NULL || r->current == NULL || tls_self == NULL)
        return false; /* not in a kernel */
    uf__sim_fiber *f = r->current;
    r->votes += vote;
    push(&r->barrier, &r->barrier_tail, f);
    r->waiting++;
    if (r->waiting == r->live)
        open_barrier(r);
    uf__sim_fiber_switch(f, &r->main, &r->main);
    tls_self = &r->threads[f->tid];
    return true;
}

void uf__sim_syncthreads(void)
{
    barrier_wait(false);
}

int32_t uf__sim_syncthreads_reduce(int32_t op, int32_t pred)
{
    uint32_t votes = pred != 0, met = 1;
    if (barrier_wait(pred != 0)) {
        votes = tls_runner->last_votes;
        met = tls_runner->last_waiting;
    }
    switch (op) {
    case 0: /* count */
        return (int32_t)votes;
    case 1: /* and */
        return votes == met;
    default: /* or */
        return votes > 0;
    }
}

/* A fiber to start the next thread on, NULL when none can be made. */
static uf__sim_fiber *fiber_for_new_thread(uf__sim_runner *r)
{
    if (r->idle) {
        uf__sim_fiber *f = r->idle;
        r->idle = f->next;
        return f;
    }
    if (r->nfibers == UF__SIM_MAX_THREADS)
        return NULL;
    uf__sim_fiber *f = uf__malloc(1, sizeof *f, NULL);
    if (f == NULL)
        return NULL;
    if (uf__sim_fiber_init(f, fiber_main) != 0) {
        uf__free(f);
        return NULL;
    }
    r->fibers[r->nfibers++] = f;
    return f;
}

/* The block cannot go on: its suspended fibers are dropped (their stacks
 * hold frames that will never run). */
static void abandon_block(uf__sim_runner *r)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < r->nfibers; i++) {
        uf__sim_fiber *f = r->fibers[i];
        bool is_idle = false;
        for (uf__sim_fiber *t = r->idle; t; t = t->next)
            is_idle |= t == f;
        if (is_idle) {
            r->fibers[kept++] = f;
        } else {
            uf__sim_fiber_destroy(f);
            uf__free(f);
        }
    }
    r->nfibers = kept;
    r->ready = r->ready_tail = r->barrier = r->barrier_tail = NULL;
    r->waiting = 0;
}

uf__cu_result uf__sim_runner_block(uf__sim_runner *r, const uf__sim_grid *g,
                                   uint64_t linear)
{
    uint64_t gx = g->grid[0], gy = g->grid[1];
    r->ctaid[0] = (uint32_t)(linear % gx);
    r->ctaid[1] = (uint32_t)(linear / gx % gy);
    r->ctaid[2] = (uint32_t)(linear / (gx * gy));
    r->grid = g;
    r->nthreads = g->block[0] * g->block[1] * g->block[2];
    r->next_tid = 0;
    r->live = r->nthreads;
    r->waiting = 0;
    r->votes = 0;
    for (uint32_t w = 0; w * UF__SIM_WARP < r->nthreads; w++)
        r->warps[w] = (sim_warp){0};
    /* in every build: a kernel reading a slot no thread wrote yet (a
     * forgotten barrier) reads the poison, never a previous block's
     * values that might happen to be right (tests/test_cuda_shared.c) */
    memset(r->shared, UF__SIM_SHARED_POISON, g->shared_bytes);
    tls_runner = r;
    uf__cu_result rc = UF__CU_SUCCESS;
    for (;;) {
        uf__sim_fiber *f;
        if (r->ready) {
            f = r->ready;
            r->ready = f->next;
            if (r->ready == NULL)
                r->ready_tail = NULL;
        } else if (r->next_tid < r->nthreads) {
            f = fiber_for_new_thread(r);
            if (f == NULL) {
                abandon_block(r);
                rc = UF__CU_ERROR_LAUNCH_OUT_OF_RESOURCES;
                break;
            }
        } else {
            if (r->live > 0) { /* every live thread waits for lanes that
                                  exited or wait elsewhere */
                abandon_block(r);
                rc = UF__CU_ERROR_LAUNCH_FAILED;
            }
            break;
        }
        r->current = f;
        uf__sim_fiber_switch(&r->main, f, &r->main);
        r->current = NULL;
    }
    tls_runner = NULL;
    tls_self = NULL;
    return rc;
}

static const uf__runtime_symbol runtime_symbols[] = {
    {UF__SIM_SELF, (void *)uf__sim_self},
    {UF__SIM_SYNCTHREADS, (void *)uf__sim_syncthreads},
    {UF__SIM_SYNCTHREADS_REDUCE, (void *)uf__sim_syncthreads_reduce},
    {UF__SIM_WARP_FN, (void *)uf__sim_warp},
};

const uf__runtime_symbol *uf__sim_runtime_symbols(int *n)
{
    *n = (int)(sizeof runtime_symbols / sizeof runtime_symbols[0]);
    return runtime_symbols;
}
