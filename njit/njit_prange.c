/* Running a prange loop's blocks (njit_prange.h). The blocks are cut by
 * the generated code from the trip count alone; this file only hands them
 * to threads. A failing block's status becomes its error on the worker
 * that ran it (an IndexError's message is recorded per thread), the first
 * to fail wins (uf__parallel_for), and the caller's thread gets the record
 * back (uf__jit_status_carry) so that the njit call reports it as a serial
 * loop would. */
#include "njit/njit_prange.h"

#include "common/error_internal.h"
#include "compiler/host/jit.h"
#include "targets/parallel/parallel.h"

typedef struct prange_job {
    uf__prange_body body;
    void *ctx;
    int64_t n, block;
} prange_job;

/* Blocks [b0, b1), in order. */
static int run_blocks(void *vjob, int64_t b0, int64_t b1, uf_error *err)
{
    const prange_job *j = vjob;
    for (int64_t b = b0; b < b1; b++) {
        int64_t begin = b * j->block;
        int64_t end = j->n - begin < j->block ? j->n : begin + j->block;
        int32_t st = j->body(j->ctx, begin, end, b);
        if (st != 0)
            return uf__jit_status_error(st, err), st;
    }
    return 0;
}

/* Per calling thread: a prange inside a prange body runs serially, and
 * concurrent njit calls each keep their own setting. */
static _Thread_local int call_threads;

int uf__prange_threads(int n)
{
    int prev = call_threads;
    call_threads = n;
    return prev;
}

int32_t uf__rt_prange(int64_t n, int64_t nblocks, int64_t block,
                      uf__prange_body body, void *ctx)
{
    prange_job j = {body, ctx, n, block};
    uf_error err;
    int st;
    uf_error_clear(&err);
    if (n < UF__PRANGE_SERIAL_TRIPS || nblocks < 2) {
        /* the worker is this thread: its records are already here */
        return run_blocks(&j, 0, nblocks, &err);
    }
    st = uf__parallel_for(nblocks, 1, call_threads, run_blocks, &j, &err);
    return st == 0 ? 0 : uf__jit_status_carry(st, &err);
}

static const uf__runtime_symbol symbols[] = {
    {UF__RT_PRANGE, (void *)(uintptr_t)uf__rt_prange},
    {UF__RT_PRANGE_PARTIALS, (void *)(uintptr_t)uf__rt_prange_partials},
    {UF__RT_PRANGE_PARTIALS_FREE,
     (void *)(uintptr_t)uf__rt_prange_partials_free},
    {UF__RT_PRANGE_STORE, (void *)(uintptr_t)uf__rt_prange_store},
    {UF__RT_PRANGE_COMBINE, (void *)(uintptr_t)uf__rt_prange_combine},
};

const uf__runtime_symbol *uf__njit_runtime_symbols(int *n)
{
    *n = (int)(sizeof symbols / sizeof symbols[0]);
    return symbols;
}
