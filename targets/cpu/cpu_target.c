/* The `cpu` target's descriptor (cpu_target.h). */
#include <string.h>

#include "common/alloc.h"
#include "targets/cpu/cpu_target.h"

static int run_serial(int64_t n, int64_t grain, int nthreads,
                      uf__target_body body, void *ctx, uf_error *err)
{
    return n > 0 ? body(ctx, 0, n, err) : 0;
}

static int one_thread(int nthreads)
{
    return 1;
}

static int no_config_error(uf_error *err)
{
    return 0;
}

void *uf__host_alloc(size_t bytes, uf_error *err)
{
    return uf__malloc_aligned(bytes, err);
}

void uf__host_free(void *p)
{
    uf__free(p);
}

int uf__host_copy(void *dst, const void *src, size_t n, uf_error *err)
{
    memmove(dst, src, n);
    return 0;
}

const uf__target uf__target_cpu = {
    .name = "cpu",
    .summary = "serial loops on the calling thread",
    .caps = UF__TCAP_HOST_MEMORY | UF__TCAP_VECTORIZE |
            UF__TCAP_GUVECTORIZE | UF__TCAP_REDUCE | UF__TCAP_NJIT,
    .run = run_serial,
    .threads = one_thread,
    .max_threads = 1,
    .config_error = no_config_error,
    .alloc = uf__host_alloc,
    .free = uf__host_free,
    .copy = uf__host_copy,
};
