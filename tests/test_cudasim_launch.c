/* cudasim's modules and launches (targets/cudasim/): kernels written by
 * hand in C after the cudasim ABI (common/sim_abi.h: a host entry taking
 * cuLaunchKernel's params, reading uf__sim_self()). A grid-stride vector
 * add over 1e6 elements on 1-D, 2-D and 3-D grids and blocks, every
 * element checked (and written once); block-wide tree reductions in
 * shared memory with __syncthreads, exact against a host sum, with
 * threads that return before the barrier and between barriers; the
 * image's magic; the launch checks (CUDA's dimension and shared-memory
 * limits); attributes and the occupancy formula. */
#include "cudasim_test_util.h"

/* ---- kernels ---------------------------------------------------------- */

static uint64_t linear_thread(const uf__sim_thread *t)
{
    return t->tid[0] + (uint64_t)t->ntid[0] * (t->tid[1] + (uint64_t)t->ntid[1] * t->tid[2]);
}

static uint64_t linear_block(const uf__sim_thread *t)
{
    return t->ctaid[0] +
           (uint64_t)t->nctaid[0] * (t->ctaid[1] + (uint64_t)t->nctaid[1] * t->ctaid[2]);
}

/* c[i] += a[i] + b[i] over a grid-stride loop: c starts at zero, so an
 * element written twice shows. */
static void k_vadd(void **params)
{
    const uf__sim_thread *t = uf__sim_self();
    const float *a = DEV_PARAM(params, 0, const float *);
    const float *b = DEV_PARAM(params, 1, const float *);
    float *c = DEV_PARAM(params, 2, float *);
    int64_t n = *(int64_t *)params[3];
    uint64_t tpb = (uint64_t)t->ntid[0] * t->ntid[1] * t->ntid[2];
    uint64_t nblocks = (uint64_t)t->nctaid[0] * t->nctaid[1] * t->nctaid[2];
    for (uint64_t i = linear_block(t) * tpb + linear_thread(t); i < (uint64_t)n;
         i += tpb * nblocks)
        c[i] += a[i] + b[i];
}
static const uint32_t vadd_sizes[] = {8, 8, 8, 8};
static const uf__sim_kernel vadd = {"vadd", k_vadd, 4, 0, vadd_sizes};

#define RED_STATIC 64 /* static shared bytes before the dynamic array */

/* Sums x[0..n) per block into out[blockIdx.x]: grid-stride partial sums
 * into shared memory, then a tree. mode 0: every thread to the end;
 * mode 1: threads at or past `active` return at once (the tree is over
 * `active` threads); mode 2: threads leave as the tree no longer needs
 * them, between barriers. */
static void k_reduce(void **params)
{
    const uf__sim_thread *t = uf__sim_self();
    const int64_t *x = DEV_PARAM(params, 0, const int64_t *);
    int64_t *out = DEV_PARAM(params, 1, int64_t *);
    int64_t n = *(int64_t *)params[2];
    int mode = *(int *)params[3];
    uint32_t active = *(uint32_t *)params[4];
    uint32_t tid = t->tid[0];
    char *marker = t->shared; /* the static part */
    int64_t *sh = (int64_t *)((char *)t->shared + RED_STATIC);
    if (mode == 1 && tid >= active)
        return;
    if (tid == 0)
        marker[0] = 'U';
    int64_t s = 0;
    for (int64_t i = (int64_t)t->ctaid[0] * active + tid; i < n;
         i += (int64_t)active * t->nctaid[0])
        s += x[i];
    sh[tid] = s;
    uf__sim_syncthreads();
    for (uint32_t half = active / 2; half > 0; half /= 2) {
        if (mode == 2 && tid >= half)
            return;
        if (tid < half)
            sh[tid] += sh[tid + half];
        uf__sim_syncthreads();
    }
    if (tid == 0 && marker[0] == 'U')
        out[t->ctaid[0]] = sh[0];
}
static const uint32_t reduce_sizes[] = {8, 8, 8, 4, 4};
static const uf__sim_kernel reduce = {"reduce", k_reduce, 5, RED_STATIC,
                                      reduce_sizes};

/* Each thread writes its index, and after the barrier reads its right
 * neighbour's (wrapping): wrong unless the barrier holds every thread. */
static void k_neighbour(void **params)
{
    const uf__sim_thread *t = uf__sim_self();
    uint32_t *out = DEV_PARAM(params, 0, uint32_t *);
    uint32_t n = t->ntid[0] * t->ntid[1] * t->ntid[2];
    uint32_t me = (uint32_t)linear_thread(t);
    uint32_t *sh = t->shared;
    for (int round = 0; round < 3; round++) {
        sh[me] = me * 10 + (uint32_t)round;
        uf__sim_syncthreads();
        uint32_t v = sh[(me + 1) % n];
        uf__sim_syncthreads();
        out[linear_block(t) * n + me] = v;
    }
    if (t->laneid != me % 32 || t->warpsize != 32)
        out[linear_block(t) * n + me] = 0xdead;
}
static const uf__sim_kernel neighbour = {"neighbour", k_neighbour, 1, 0, NULL};

/* ---- tests ------------------------------------------------------------ */

static void test_vector_add_shapes(void **state)
{
    (void)state;
    const int64_t n = 1000000;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    float *c = malloc(n * sizeof *c);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    for (int64_t i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = (float)(2 * (i % 1000)) + 0.5f;
    }
    uf__cu_dptr da, db, dc;
    CU_OK(drv->mem_alloc(&da, n * sizeof *a));
    CU_OK(drv->mem_alloc(&db, n * sizeof *b));
    CU_OK(drv->mem_alloc(&dc, n * sizeof *c));
    CU_OK(drv->memcpy_htod(da, a, n * sizeof *a));
    CU_OK(drv->memcpy_htod(db, b, n * sizeof *b));
    uf__cu_module m;
    uf__cu_func f = load_kernel(&m, &vadd);
    static const unsigned shapes[][6] = {
        {64, 1, 1, 256, 1, 1},  {4000, 1, 1, 256, 1, 1}, {8, 4, 2, 8, 4, 4},
        {3, 5, 7, 16, 8, 2},    {1, 1, 1, 1024, 1, 1},  {2, 3, 1, 1, 1, 64},
        {977, 1, 1, 33, 1, 1},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const unsigned *sh = shapes[s];
        int64_t nn = n;
        void *params[] = {&da, &db, &dc, &nn};
        CU_OK(drv->memset_d8(dc, 0, n * sizeof *c));
        CU_OK(drv->launch_kernel(f, sh[0], sh[1], sh[2], sh[3], sh[4], sh[5],
                                 0, NULL, params, NULL));
        CU_OK(drv->memcpy_dtoh(c, dc, n * sizeof *c));
        for (int64_t i = 0; i < n; i++)
            if (c[i] != a[i] + b[i])
                uf_fail_at(__FILE__, __LINE__,
                           "shape %zu: c[%lld] = %g, expected %g", s,
                           (long long)i, c[i], a[i] + b[i]);
    }
    CU_OK(drv->module_unload(m));
    CU_OK(drv->mem_free(da));
    CU_OK(drv->mem_free(db));
    CU_OK(drv->mem_free(dc));
    free(a);
    free(b);
    free(c);
}

static void run_reduce(uf__cu_func f, int64_t n, unsigned grid, unsigned block,
                       uint32_t active, int mode)
{
    int64_t *x = malloc(n * sizeof *x), *out = calloc(grid, sizeof *out);
    assert_non_null(x);
    assert_non_null(out);
    int64_t want = 0;
    for (int64_t i = 0; i < n; i++) {
        x[i] = (i * 7919) % 100003 - 50000;
        want += x[i];
    }
    uf__cu_dptr dx, dout;
    CU_OK(drv->mem_alloc(&dx, n * sizeof *x));
    CU_OK(drv->mem_alloc(&dout, grid * sizeof *out));
    CU_OK(drv->memcpy_htod(dx, x, n * sizeof *x));
    void *params[] = {&dx, &dout, &n, &mode, &active};
    CU_OK(drv->launch_kernel(f, grid, 1, 1, block, 1, 1,
                             block * (unsigned)sizeof(int64_t), NULL, params,
                             NULL));
    CU_OK(drv->memcpy_dtoh(out, dout, grid * sizeof *out));
    int64_t got = 0;
    for (unsigned g = 0; g < grid; g++)
        got += out[g];
    if (got != want)
        uf_fail_at(__FILE__, __LINE__,
                   "mode %d grid %u block %u active %u: %lld, expected %lld",
                   mode, grid, block, active, (long long)got, (long long)want);
    CU_OK(drv->mem_free(dx));
    CU_OK(drv->mem_free(dout));
    free(x);
    free(out);
}

static void test_reduction_syncthreads(void **state)
{
    (void)state;
    uf__cu_module m;
    uf__cu_func f = load_kernel(&m, &reduce);
    run_reduce(f, 100000, 40, 256, 256, 0);
    run_reduce(f, 100000, 7, 1024, 1024, 0);
    run_reduce(f, 12345, 1, 32, 32, 0);
    run_reduce(f, 1, 3, 64, 64, 0);
    /* threads that return before the first barrier */
    run_reduce(f, 100000, 16, 256, 64, 1);
    run_reduce(f, 5000, 5, 1024, 1, 1);
    /* threads that return between barriers */
    run_reduce(f, 100000, 16, 512, 512, 2);
    run_reduce(f, 777, 2, 2, 2, 2);
    CU_OK(drv->module_unload(m));
}

static void test_barrier_exact(void **state)
{
    (void)state;
    uf__cu_module m;
    uf__cu_func f = load_kernel(&m, &neighbour);
    static const unsigned shapes[][4] = {
        {5, 1024, 1, 1}, {3, 16, 8, 2}, {2, 1, 1, 64}, {4, 7, 3, 1}};
    for (size_t s = 0; s < 4; s++) {
        unsigned g = shapes[s][0], bx = shapes[s][1], by = shapes[s][2],
                 bz = shapes[s][3], nt = bx * by * bz;
        uint32_t *out = malloc(g * nt * sizeof *out);
        uf__cu_dptr d;
        CU_OK(drv->mem_alloc(&d, g * nt * sizeof *out));
        void *params[] = {&d};
        CU_OK(drv->launch_kernel(f, g, 1, 1, bx, by, bz, nt * 4, NULL, params,
                                 NULL));
        CU_OK(drv->memcpy_dtoh(out, d, g * nt * sizeof *out));
        for (unsigned i = 0; i < g * nt; i++)
            if (out[i] != ((i % nt + 1) % nt) * 10 + 2)
                uf_fail_at(__FILE__, __LINE__, "shape %zu: out[%u] = %u", s, i,
                           out[i]);
        CU_OK(drv->mem_free(d));
        free(out);
    }
    CU_OK(drv->module_unload(m));
}

static void test_image_checked(void **state)
{
    (void)state;
    uf__cu_module m;
    const char *ptx = "//\n// Generated by NVIDIA NVVM Compiler\n.version 8.0\n";
    CU_EXPECT(UF__CU_ERROR_INVALID_IMAGE, drv->module_load_data(&m, ptx));
    CU_EXPECT(UF__CU_ERROR_INVALID_IMAGE, drv->module_load_data(&m, "UF"));
    CU_EXPECT(UF__CU_ERROR_INVALID_IMAGE, drv->module_load_data(&m, ""));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->module_load_data(&m, NULL));
    uf__sim_kernel bad = {"bad", NULL, 0, 0, NULL};
    uf__sim_image img = {UF__SIM_IMAGE_MAGIC, 1, &bad};
    CU_EXPECT(UF__CU_ERROR_INVALID_IMAGE, drv->module_load_data(&m, &img));
    uf__sim_kernel big = {"big", k_vadd, 4, 50000, NULL};
    img.kernels = &big;
    CU_EXPECT(UF__CU_ERROR_INVALID_IMAGE, drv->module_load_data(&m, &img));

    /* a good image: copied, so it may go after loading */
    uf__sim_kernel two[2] = {vadd, reduce};
    char name[8] = "vadd";
    two[0].name = name;
    img = (uf__sim_image){UF__SIM_IMAGE_MAGIC, 2, two};
    CU_OK(drv->module_load_data(&m, &img));
    memset(two, 0, sizeof two);
    strcpy(name, "xxxx");
    uf__cu_func f;
    CU_OK(drv->module_get_function(&f, m, "vadd"));
    CU_EXPECT(UF__CU_ERROR_NOT_FOUND, drv->module_get_function(&f, m, "nope"));
    CU_OK(drv->module_get_function(&f, m, "reduce"));
    int v;
    CU_OK(drv->func_get_attribute(&v, UF__CU_FUNC_ATTR_SHARED_SIZE_BYTES, f));
    assert_int_equal(v, RED_STATIC);
    CU_OK(drv->func_get_attribute(&v, UF__CU_FUNC_ATTR_NUM_REGS, f));
    assert_int_equal(v, 0);
    CU_OK(drv->func_get_attribute(&v, UF__CU_FUNC_ATTR_MAX_THREADS_PER_BLOCK, f));
    assert_int_equal(v, 1024);
    int sm, grid, block;
    CU_OK(drv->device_attribute(&sm, UF__CU_DEV_ATTR_MULTIPROCESSOR_COUNT, 0));
    CU_OK(drv->occupancy_max_block(&grid, &block, f, 0, 0));
    assert_int_equal(block, 1024);
    assert_int_equal(grid, 2 * sm);
    CU_OK(drv->occupancy_max_block(&grid, &block, f, 0, 200));
    assert_int_equal(block, 192);
    assert_int_equal(grid, 10 * sm); /* 2048 / 192 */
    CU_OK(drv->occupancy_max_block(&grid, &block, f, 16384 - RED_STATIC, 128));
    assert_int_equal(grid, 10 * sm); /* 164 KiB / 16 KiB */
    CU_OK(drv->occupancy_max_block(&grid, &block, f, 0, 5));
    assert_int_equal(block, 5);
    CU_OK(drv->module_unload(m));
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE, drv->module_unload(m));
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE,
              drv->func_get_attribute(&v, UF__CU_FUNC_ATTR_NUM_REGS, f));
    /* left loaded: the context's release unloads it */
    f = load_kernel(&m, &vadd);
}

static void test_launch_checks(void **state)
{
    (void)state;
    uf__cu_module m;
    uf__cu_func f = load_kernel(&m, &reduce);
    uf__cu_dptr d;
    CU_OK(drv->mem_alloc(&d, 1024));
    int64_t n = 0;
    int mode = 0;
    uint32_t active = 1;
    void *params[] = {&d, &d, &n, &mode, &active};
    static const unsigned bad[][6] = {
        {1, 1, 1, 1025, 1, 1}, {1, 1, 1, 32, 33, 1}, {1, 1, 1, 1, 1, 65},
        {1, 1, 1, 1, 1025, 1}, {0, 1, 1, 1, 1, 1},   {1, 1, 1, 0, 1, 1},
        {1, 65536, 1, 1, 1, 1}, {1, 1, 65536, 1, 1, 1},
        {2147483648u, 1, 1, 1, 1, 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CU_EXPECT(UF__CU_ERROR_INVALID_VALUE,
                  drv->launch_kernel(f, bad[i][0], bad[i][1], bad[i][2],
                                     bad[i][3], bad[i][4], bad[i][5], 0, NULL,
                                     params, NULL));
    /* shared memory: static 64 + dynamic, 48 KiB in all */
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE,
              drv->launch_kernel(f, 1, 1, 1, 1, 1, 1, 49152 - RED_STATIC + 1,
                                 NULL, params, NULL));
    CU_OK(drv->launch_kernel(f, 1, 1, 1, 1, 1, 1, 49152 - RED_STATIC, NULL,
                             params, NULL));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE,
              drv->launch_kernel(f, 1, 1, 1, 1, 1, 1, 8, NULL, NULL, NULL));
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE,
              drv->launch_kernel(NULL, 1, 1, 1, 1, 1, 1, 8, NULL, params, NULL));
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE,
              drv->launch_kernel((uf__cu_func)(uintptr_t)&n, 1, 1, 1, 1, 1, 1,
                                 8, NULL, params, NULL));
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE,
              drv->launch_kernel(f, 1, 1, 1, 1, 1, 1, 8,
                                 (uf__cu_stream)(uintptr_t)&n, params, NULL));
    /* the largest legal shapes run */
    CU_OK(drv->launch_kernel(f, 1, 1, 1, 1024, 1, 1, 8192, NULL, params, NULL));
    CU_OK(drv->launch_kernel(f, 1, 1, 1, 16, 1, 64, 8192, NULL, params, NULL));
    CU_OK(drv->mem_free(d));
    CU_OK(drv->module_unload(m));
}

static void test_self_outside_kernel(void **state)
{
    (void)state;
    assert_null(uf__sim_self());
    uf__sim_syncthreads(); /* returns at once */
    /* the counting barrier alone: this thread's vote */
    assert_int_equal(uf__sim_syncthreads_reduce(0, 5), 1);
    assert_int_equal(uf__sim_syncthreads_reduce(1, 0), 0);
    assert_int_equal(uf__sim_syncthreads_reduce(2, -1), 1);
    int n = 0;
    const uf__runtime_symbol *rt = uf__sim_runtime_symbols(&n);
    assert_int_equal(uf__sim_warp(UF__SIM_BALLOT, ~0u, 1, 0), 0);
    assert_int_equal(n, 4);
    assert_string_equal(rt[0].name, UF__SIM_SELF);
    assert_ptr_equal(rt[0].addr, (void *)uf__sim_self);
    assert_string_equal(rt[1].name, UF__SIM_SYNCTHREADS);
    assert_ptr_equal(rt[1].addr, (void *)uf__sim_syncthreads);
    assert_string_equal(rt[2].name, UF__SIM_SYNCTHREADS_REDUCE);
    assert_ptr_equal(rt[2].addr, (void *)uf__sim_syncthreads_reduce);
    assert_string_equal(rt[3].name, UF__SIM_WARP_FN);
    assert_ptr_equal(rt[3].addr, (void *)uf__sim_warp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        SIM_TEST(test_vector_add_shapes), SIM_TEST(test_reduction_syncthreads),
        SIM_TEST(test_barrier_exact),     SIM_TEST(test_image_checked),
        SIM_TEST(test_launch_checks),     SIM_TEST(test_self_outside_kernel),
    };
    return cmocka_run_group_tests_name("cudasim_launch", tests, NULL, NULL);
}
