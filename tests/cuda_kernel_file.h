/* What the tests of one kernel file of tests/kernels/cuda share: the
 * target they run on (cuda_test_target.h), a context holding that file,
 * loaded once for the test group, launches that must succeed, and zeroed
 * host arrays. A test file defines its group setup as
 *     static int setup(void **s) { (void)s; return kernel_file_load("x.py"); }
 * and uses `teardown` from here. */
#ifndef UF_TESTS_CUDA_KERNEL_FILE_H
#define UF_TESTS_CUDA_KERNEL_FILE_H

#include "test_util.h"
#include "cuda_test_target.h"

#define CUDA_KERNELS UF_TEST_DATA_DIR "/../kernels/cuda"

static const char *SIM; /* main sets it: cuda_test_target() */
static uf_context *ctx;
static uf_module *mod;

static inline int kernel_file_load(const char *file)
{
    uf_error err;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", CUDA_KERNELS, file);
    if ((ctx = uf_context_new(&err)) == NULL ||
        (mod = uf_module_load(ctx, path, &err)) == NULL) {
        fprintf(stderr, "%s\n", err.message);
        return -1;
    }
    return 0;
}

static inline int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

/* kernel `name` of mod; it must exist */
static inline uf_func *get(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

/* kernel `name` of mod over grid x block on SIM, with `shared` dynamic
 * shared bytes; it must succeed */
static inline void launch_ok(const char *name, uf_dim3 grid, uf_dim3 block,
                             uf_array **args, int n, size_t shared)
{
    uf_error err;
    uf_func *f = get(name);
    uf_launch_options o = {.size = sizeof o, .target = SIM,
                           .shared_bytes = shared};
    uf_assert_ok(uf_launch(f, grid, block, args, n, &o, &err) == 0, &err);
}

/* the same over a 1-D grid of 1-D blocks */
static inline void run(const char *name, unsigned grid, unsigned block,
                       uf_array **args, int n)
{
    launch_ok(name, (uf_dim3){grid, 1, 1}, (uf_dim3){block, 1, 1}, args, n,
              0);
}

static inline uf_array *zeroed(uf_dtype dt, int nd, const int64_t *shape)
{
    uf_error err;
    uf_array *a = uf_zeros(dt, nd, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

#endif
