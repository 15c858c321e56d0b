/* Shared by the cudasim tests: the driver table, a setup that inits it
 * and makes the primary context current (a teardown that releases it,
 * freeing everything the test left, so the leak checker sees the
 * simulator's own teardown), and a call check that names the error. */
#ifndef UF_TESTS_CUDASIM_TEST_UTIL_H
#define UF_TESTS_CUDASIM_TEST_UTIL_H

#include "test_util.h"

#include "targets/cuda/cu_driver.h"
#include "targets/cudasim/sim.h"

static const uf__cu_driver *drv;

/* Asserts a driver call returned `want`, naming both on failure. */
#define CU_EXPECT(want, call)                                               \
    do {                                                                    \
        uf__cu_result got_ = (call);                                        \
        if (got_ != (want)) {                                               \
            const char *g_ = "?", *w_ = "?";                                \
            drv->get_error_name(got_, &g_);                                 \
            drv->get_error_name((want), &w_);                               \
            print_error("%s:%d: %s gave %s (%d), expected %s\n", __FILE__,  \
                        __LINE__, #call, g_, got_, w_);                     \
            fail();                                                         \
        }                                                                   \
    } while (0)
#define CU_OK(call) CU_EXPECT(UF__CU_SUCCESS, call)

static inline int sim_setup(void **state)
{
    (void)state;
    drv = uf__cu_driver_sim();
    uf__cu_ctx ctx;
    if (drv->init(0) != UF__CU_SUCCESS ||
        drv->primary_ctx_retain(&ctx, 0) != UF__CU_SUCCESS ||
        drv->ctx_set_current(ctx) != UF__CU_SUCCESS)
        return -1;
    return 0;
}

static inline int sim_teardown(void **state)
{
    (void)state;
    return drv->primary_ctx_release(0) == UF__CU_SUCCESS ? 0 : -1;
}

#define SIM_TEST(f) cmocka_unit_test_setup_teardown(f, sim_setup, sim_teardown)

/* A one-kernel module from a hand-written host entry. */
static inline uf__cu_func load_kernel(uf__cu_module *m, const uf__sim_kernel *k)
{
    uf__sim_image img = {UF__SIM_IMAGE_MAGIC, 1, k};
    uf__cu_func f = NULL;
    CU_OK(drv->module_load_data(m, &img));
    CU_OK(drv->module_get_function(&f, *m, k->name));
    return f;
}

/* A device pointer parameter as a kernel reads it. */
#define DEV_PARAM(params, i, type) ((type)(uintptr_t) * (uf__cu_dptr *)(params)[i])

#endif
