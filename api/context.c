/* uf_context: the compiler's state wired to the host runtime and the
 * CUDA simulator's, whose helpers the compiler's generated code calls by
 * name (host loops, and CUDA kernels compiled for cudasim). */
#include <pthread.h>
#include <string.h>

#include "common/alloc.h"
#include "compiler/context.h"
#include "njit/njit_prange.h"
#include "targets/cpu/cpu.h"
#include "targets/cudasim/sim.h"

/* The two runtimes' tables as one, made once: every context's JIT
 * defines both. */
static uf__runtime_symbol runtime[128];
static int nruntime;
static pthread_once_t runtime_once = PTHREAD_ONCE_INIT;

static void join_runtimes(void)
{
    int ncpu, nsim, nnj;
    const uf__runtime_symbol *cpu = uf__cpu_runtime_symbols(&ncpu);
    const uf__runtime_symbol *sim = uf__sim_runtime_symbols(&nsim);
    /* prange loops' runtime (njit_prange.h) */
    const uf__runtime_symbol *nj = uf__njit_runtime_symbols(&nnj);
    if (ncpu + nsim + nnj > (int)(sizeof runtime / sizeof runtime[0]))
        nsim = 0; /* never: a few dozen entries; cudasim's kernels would
                     then fail to link, which its tests would show */
    memcpy(runtime, cpu, (size_t)ncpu * sizeof *cpu);
    memcpy(runtime + ncpu, sim, (size_t)nsim * sizeof *sim);
    memcpy(runtime + ncpu + nsim, nj, (size_t)nnj * sizeof *nj);
    nruntime = ncpu + nsim + nnj;
}

uf_context *uf_context_new(uf_error *err)
{
    uf_context *ctx = uf__calloc(1, sizeof *ctx, err);
    if (ctx == NULL)
        return NULL;
    pthread_once(&runtime_once, join_runtimes);
    if (uf__context_init(ctx, runtime, nruntime, err) != 0) {
        uf__free(ctx);
        return NULL;
    }
    return ctx;
}

void uf_context_free(uf_context *ctx)
{
    if (ctx == NULL)
        return;
    uf__context_fini(ctx);
    uf__free(ctx);
}
