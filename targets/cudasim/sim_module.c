/* cudasim's modules: cuModuleLoadData takes a uf__sim_image (its magic
 * checked byte by byte, so PTX text or any other image is refused with
 * CUDA_ERROR_INVALID_IMAGE without reading past its end) and copies its
 * kernel table; functions are looked up by name. Handles are checked
 * against the live modules, so a stale one is an error, not a crash. */
#include <pthread.h>
#include <string.h>

#include "common/alloc.h"
#include "targets/cudasim/sim_entries.h"
#include "targets/cudasim/sim_internal.h"

struct uf__cu_func_s {
    uf__sim_kernel k; /* name and param_sizes owned */
};

struct uf__cu_module_s {
    uint32_t n;
    struct uf__cu_func_s *funcs;
    struct uf__cu_module_s *next;
};

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static struct uf__cu_module_s *modules;

static void module_free(struct uf__cu_module_s *m)
{
    for (uint32_t i = 0; i < m->n; i++) {
        uf__free((char *)m->funcs[i].k.name);
        uf__free((uint32_t *)m->funcs[i].k.param_sizes);
    }
    uf__free(m->funcs);
    uf__free(m);
}

/* Whether image starts with the magic, read no further than a mismatch
 * or a NUL (a short text image ends there). */
static bool has_magic(const void *image)
{
    uint32_t magic = UF__SIM_IMAGE_MAGIC;
    unsigned char want[4];
    memcpy(want, &magic, 4);
    const unsigned char *p = image;
    for (int i = 0; i < 4; i++)
        if (p[i] != want[i])
            return false;
    return true;
}

static bool kernel_ok(const uf__sim_kernel *k)
{
    return k->name != NULL && k->fn != NULL && k->nparams >= 0 &&
           k->shared_bytes <= UF__SIM_SHARED_LIMIT;
}

uf__cu_result uf__sim_module_load_data(uf__cu_module *out, const void *image)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (out == NULL || image == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (!has_magic(image))
        return UF__CU_ERROR_INVALID_IMAGE;
    const uf__sim_image *img = image;
    if (img->nkernels > 0 && img->kernels == NULL)
        return UF__CU_ERROR_INVALID_IMAGE;
    for (uint32_t i = 0; i < img->nkernels; i++)
        if (!kernel_ok(&img->kernels[i]))
            return UF__CU_ERROR_INVALID_IMAGE;
    struct uf__cu_module_s *m = uf__calloc(1, sizeof *m, NULL);
    if (m == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    m->funcs = uf__calloc(img->nkernels ? img->nkernels : 1,
                          sizeof *m->funcs, NULL);
    if (m->funcs == NULL)
        goto fail;
    for (uint32_t i = 0; i < img->nkernels; i++) {
        const uf__sim_kernel *k = &img->kernels[i];
        uf__sim_kernel *c = &m->funcs[i].k;
        *c = *k;
        c->name = NULL;
        c->param_sizes = NULL;
        m->n = i + 1;
        c->name = uf__strdup(k->name, NULL);
        if (c->name == NULL)
            goto fail;
        if (k->param_sizes && k->nparams > 0) {
            uint32_t *sizes = uf__malloc((size_t)k->nparams, sizeof *sizes,
                                         NULL);
            if (sizes == NULL)
                goto fail;
            memcpy(sizes, k->param_sizes, (size_t)k->nparams * sizeof *sizes);
            c->param_sizes = sizes;
        }
    }
    m->n = img->nkernels;
    pthread_mutex_lock(&mutex);
    m->next = modules;
    modules = m;
    pthread_mutex_unlock(&mutex);
    *out = m;
    return UF__CU_SUCCESS;
fail:
    module_free(m);
    return UF__CU_ERROR_OUT_OF_MEMORY;
}

uf__cu_result uf__sim_module_unload(uf__cu_module m)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    pthread_mutex_lock(&mutex);
    struct uf__cu_module_s **p = &modules;
    while (*p && *p != m)
        p = &(*p)->next;
    if (*p == NULL) {
        pthread_mutex_unlock(&mutex);
        return UF__CU_ERROR_INVALID_HANDLE;
    }
    *p = m->next;
    pthread_mutex_unlock(&mutex);
    uf__sim_streams_drain(); /* queued launches may still use its kernels */
    module_free(m);
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_module_get_function(uf__cu_func *f, uf__cu_module m,
                                          const char *name)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (f == NULL || name == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    rc = UF__CU_ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&mutex);
    for (struct uf__cu_module_s *t = modules; t; t = t->next) {
        if (t != m)
            continue;
        rc = UF__CU_ERROR_NOT_FOUND;
        for (uint32_t i = 0; i < m->n; i++)
            if (strcmp(m->funcs[i].k.name, name) == 0) {
                *f = &m->funcs[i];
                rc = UF__CU_SUCCESS;
                break;
            }
    }
    pthread_mutex_unlock(&mutex);
    return rc;
}

const uf__sim_kernel *uf__sim_func_kernel(uf__cu_func f)
{
    const uf__sim_kernel *k = NULL;
    pthread_mutex_lock(&mutex);
    for (struct uf__cu_module_s *m = modules; m && !k; m = m->next)
        for (uint32_t i = 0; i < m->n; i++)
            if (f == &m->funcs[i]) {
                k = &f->k;
                break;
            }
    pthread_mutex_unlock(&mutex);
    return k;
}

uf__cu_result uf__sim_func_get_attribute(int *v, int attr, uf__cu_func f)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (v == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    const uf__sim_kernel *k = uf__sim_func_kernel(f);
    if (k == NULL)
        return UF__CU_ERROR_INVALID_HANDLE;
    switch (attr) {
    case UF__CU_FUNC_ATTR_MAX_THREADS_PER_BLOCK:
        *v = UF__SIM_MAX_THREADS;
        return UF__CU_SUCCESS;
    case UF__CU_FUNC_ATTR_SHARED_SIZE_BYTES:
        *v = (int)k->shared_bytes;
        return UF__CU_SUCCESS;
    case UF__CU_FUNC_ATTR_LOCAL_SIZE_BYTES:
    case UF__CU_FUNC_ATTR_NUM_REGS:
        *v = 0; /* host code: no registers or local memory to count */
        return UF__CU_SUCCESS;
    default:
        return UF__CU_ERROR_INVALID_VALUE;
    }
}

/* cuOccupancyMaxPotentialBlockSize as on an sm_80 whose kernels use no
 * registers: the block is the largest multiple of the warp size within
 * 1024 threads and block_limit (block_limit itself when below a warp),
 * and the grid that fills the device is the multiprocessor count times
 * the blocks one multiprocessor holds: min(2048 / block, 32, 164 KiB /
 * the block's shared memory). */
uf__cu_result uf__sim_occupancy_max_block(int *min_grid, int *block,
                                          uf__cu_func f, size_t shared_bytes,
                                          int block_limit)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (min_grid == NULL || block == NULL || block_limit < 0)
        return UF__CU_ERROR_INVALID_VALUE;
    const uf__sim_kernel *k = uf__sim_func_kernel(f);
    if (k == NULL)
        return UF__CU_ERROR_INVALID_HANDLE;
    int limit = UF__SIM_MAX_THREADS;
    if (block_limit > 0 && block_limit < limit)
        limit = block_limit;
    int b = limit >= UF__SIM_WARP ? limit / UF__SIM_WARP * UF__SIM_WARP
                                  : limit;
    size_t shared = k->shared_bytes + shared_bytes;
    if (shared_bytes > UF__SIM_SHARED_LIMIT || shared > UF__SIM_SHARED_LIMIT) {
        *min_grid = *block = 0; /* no block size can launch */
        return UF__CU_SUCCESS;
    }
    int per_sm = UF__SIM_THREADS_PER_SM / b;
    if (per_sm > UF__SIM_BLOCKS_PER_SM)
        per_sm = UF__SIM_BLOCKS_PER_SM;
    if (shared > 0 && (size_t)per_sm > UF__SIM_SHARED_PER_SM / shared)
        per_sm = (int)(UF__SIM_SHARED_PER_SM / shared);
    *block = b;
    *min_grid = per_sm * uf__sim_sm_count();
    return UF__CU_SUCCESS;
}

void uf__sim_modules_teardown(void)
{
    pthread_mutex_lock(&mutex);
    while (modules) {
        struct uf__cu_module_s *m = modules;
        modules = m->next;
        module_free(m);
    }
    pthread_mutex_unlock(&mutex);
}
