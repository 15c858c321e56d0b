/* cudasim's streams and events (targets/cudasim/): asynchronous copies
 * and launches on two streams ordered by an event, the legacy default
 * stream waiting for blocking streams (and not for non-blocking ones),
 * stream and event queries while work is held back by a kernel spinning
 * on a host flag, launch parameters copied at launch time, event timing
 * (monotone; refused for events without timing), asynchronous calls
 * checked when made, and handles checked. */
#include <sched.h>
#include <stdatomic.h>

#include "cudasim_test_util.h"

/* ---- kernels ---------------------------------------------------------- */

static void k_axpb(void **params) /* y[i] = a * x[i] + b, grid-stride */
{
    const uf__sim_thread *t = uf__sim_self();
    const double *x = DEV_PARAM(params, 0, const double *);
    double *y = DEV_PARAM(params, 1, double *);
    int64_t n = *(int64_t *)params[2];
    double a = *(double *)params[3], b = *(double *)params[4];
    int64_t stride = (int64_t)t->ntid[0] * t->nctaid[0];
    for (int64_t i = (int64_t)t->ctaid[0] * t->ntid[0] + t->tid[0]; i < n;
         i += stride)
        y[i] = a * x[i] + b;
}
static const uint32_t axpb_sizes[] = {8, 8, 8, 8, 8};
static const uf__sim_kernel axpb = {"axpb", k_axpb, 5, 0, axpb_sizes};

/* Spins until *flag (a host address) is set, then stores value at out. */
static void k_gate(void **params)
{
    atomic_int *flag = *(atomic_int **)params[0];
    int64_t *out = DEV_PARAM(params, 1, int64_t *);
    int64_t value = *(int64_t *)params[2];
    while (!atomic_load(flag))
        sched_yield();
    *out = value;
}
static const uint32_t gate_sizes[] = {8, 8, 8};
static const uf__sim_kernel gate = {"gate", k_gate, 3, 0, gate_sizes};

typedef struct kernels {
    uf__cu_module m_axpb, m_gate;
    uf__cu_func axpb, gate;
} kernels;

static kernels load(void)
{
    kernels k;
    k.axpb = load_kernel(&k.m_axpb, &axpb);
    k.gate = load_kernel(&k.m_gate, &gate);
    return k;
}

static void launch_axpb(const kernels *k, uf__cu_stream s, uf__cu_dptr x,
                        uf__cu_dptr y, int64_t n, double a, double b)
{
    void *params[] = {&x, &y, &n, &a, &b};
    CU_OK(drv->launch_kernel(k->axpb, 64, 1, 1, 128, 1, 1, 0, s, params, NULL));
}

static void launch_gate(const kernels *k, uf__cu_stream s, atomic_int *flag,
                        uf__cu_dptr out, int64_t value)
{
    void *params[] = {&flag, &out, &value};
    CU_OK(drv->launch_kernel(k->gate, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
}

/* ---- tests ------------------------------------------------------------ */

static void test_two_streams_event(void **state)
{
    (void)state;
    kernels k = load();
    const int64_t n = 200000;
    double *x = malloc(n * sizeof *x), *z = malloc(n * sizeof *z);
    for (int64_t i = 0; i < n; i++)
        x[i] = (double)i;
    uf__cu_dptr dx, dy, dz;
    CU_OK(drv->mem_alloc(&dx, n * sizeof *x));
    CU_OK(drv->mem_alloc(&dy, n * sizeof *x));
    CU_OK(drv->mem_alloc(&dz, n * sizeof *x));
    uf__cu_stream s1, s2;
    uf__cu_event ev;
    CU_OK(drv->stream_create(&s1, 0));
    CU_OK(drv->stream_create(&s2, UF__CU_STREAM_NON_BLOCKING));
    CU_OK(drv->event_create(&ev, 0));
    for (int rep = 0; rep < 5; rep++) {
        /* s1: x in, y = 2x + rep; s2 (after the event): z = 3y - 1, out */
        memset(z, 0, n * sizeof *z);
        CU_OK(drv->memcpy_htod_async(dx, x, n * sizeof *x, s1));
        launch_axpb(&k, s1, dx, dy, n, 2.0, rep);
        CU_OK(drv->event_record(ev, s1));
        CU_OK(drv->stream_wait_event(s2, ev, 0));
        launch_axpb(&k, s2, dy, dz, n, 3.0, -1.0);
        CU_OK(drv->memcpy_dtoh_async(z, dz, n * sizeof *z, s2));
        CU_OK(drv->stream_synchronize(s2));
        for (int64_t i = 0; i < n; i++)
            if (z[i] != 3.0 * (2.0 * x[i] + rep) - 1.0)
                uf_fail_at(__FILE__, __LINE__, "rep %d: z[%lld] = %g", rep,
                           (long long)i, z[i]);
    }
    CU_OK(drv->stream_synchronize(s1));
    CU_OK(drv->event_query(ev));
    CU_OK(drv->event_destroy(ev));
    CU_OK(drv->stream_destroy(s1));
    CU_OK(drv->stream_destroy(s2));
    CU_OK(drv->mem_free(dx));
    CU_OK(drv->mem_free(dy));
    CU_OK(drv->mem_free(dz));
    free(x);
    free(z);
}

/* Work held back by a spinning kernel: queries say NOT_READY, a wait on
 * its event holds another stream, the legacy stream waits for a blocking
 * stream but not for a non-blocking one; parameter values are copied at
 * launch time. */
static void test_queries_and_legacy(void **state)
{
    (void)state;
    kernels k = load();
    static atomic_int flag;
    atomic_store(&flag, 0);
    uf__cu_dptr d;
    CU_OK(drv->mem_alloc(&d, 4 * sizeof(int64_t)));
    CU_OK(drv->memset_d8(d, 0, 4 * sizeof(int64_t)));
    uf__cu_stream blocking, nonblocking, other;
    CU_OK(drv->stream_create(&blocking, 0));
    CU_OK(drv->stream_create(&nonblocking, UF__CU_STREAM_NON_BLOCKING));
    CU_OK(drv->stream_create(&other, UF__CU_STREAM_NON_BLOCKING));
    uf__cu_event ev;
    CU_OK(drv->event_create(&ev, UF__CU_EVENT_DISABLE_TIMING));

    /* held in the non-blocking stream: the legacy stream goes on */
    launch_gate(&k, nonblocking, &flag, d, 11);
    CU_OK(drv->event_record(ev, nonblocking));
    CU_OK(drv->stream_wait_event(other, ev, 0));
    int64_t v = 5;
    atomic_int *fp = &flag;
    void *params[] = {&fp, &d, &v};
    /* `other` waits for the event: its launch runs after the gate opens,
     * with the value given now */
    CU_OK(drv->launch_kernel(k.gate, 1, 1, 1, 1, 1, 1, 0, other, params, NULL));
    v = 99;
    CU_EXPECT(UF__CU_ERROR_NOT_READY, drv->stream_query(nonblocking));
    CU_EXPECT(UF__CU_ERROR_NOT_READY, drv->event_query(ev));
    CU_EXPECT(UF__CU_ERROR_NOT_READY, drv->stream_query(other));
    int64_t host[4] = {-1, -1, -1, -1};
    CU_OK(drv->memcpy_dtoh(host, d, sizeof host)); /* legacy: not held */
    assert_int_equal(host[0], 0);
    float ms;
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE, drv->event_elapsed_time(&ms, ev, ev));
    atomic_store(&flag, 1);
    CU_OK(drv->event_synchronize(ev));
    CU_OK(drv->stream_synchronize(other));
    CU_OK(drv->memcpy_dtoh(host, d, sizeof host));
    assert_int_equal(host[0], 5);
    CU_OK(drv->stream_query(nonblocking));

    /* held in a blocking stream: the legacy stream waits for it */
    atomic_store(&flag, 0);
    launch_gate(&k, blocking, &flag, d + 8, 22);
    CU_EXPECT(UF__CU_ERROR_NOT_READY, drv->stream_query(blocking));
    CU_EXPECT(UF__CU_ERROR_NOT_READY, drv->stream_query(NULL));
    atomic_store(&flag, 1);
    CU_OK(drv->memcpy_dtoh(host, d, sizeof host)); /* waits for the gate */
    assert_int_equal(host[1], 22);
    CU_OK(drv->stream_query(blocking));
    CU_OK(drv->stream_synchronize(NULL));

    CU_OK(drv->event_destroy(ev));
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE, drv->event_query(ev));
    CU_OK(drv->stream_destroy(blocking));
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE, drv->stream_query(blocking));
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE, drv->stream_destroy(blocking));
    CU_OK(drv->stream_destroy(nonblocking));
    /* `other` and d are left: the context's release frees them */
}

static void test_event_timing(void **state)
{
    (void)state;
    kernels k = load();
    const int64_t n = 300000;
    uf__cu_dptr dx, dy;
    CU_OK(drv->mem_alloc(&dx, n * 8));
    CU_OK(drv->mem_alloc(&dy, n * 8));
    CU_OK(drv->memset_d8(dx, 0, n * 8));
    uf__cu_stream s;
    CU_OK(drv->stream_create(&s, 0));
    uf__cu_event e[4];
    for (int i = 0; i < 4; i++)
        CU_OK(drv->event_create(&e[i], 0));
    float ms;
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE, drv->event_elapsed_time(&ms, e[0], e[1]));
    CU_OK(drv->event_record(e[0], s));
    launch_axpb(&k, s, dx, dy, n, 1.0, 1.0);
    CU_OK(drv->event_record(e[1], s));
    launch_axpb(&k, s, dy, dx, n, 1.0, 1.0);
    CU_OK(drv->event_record(e[2], s));
    CU_OK(drv->event_record(e[3], NULL)); /* legacy: after all of s */
    CU_OK(drv->event_synchronize(e[3]));
    float t01, t02, t03, t12;
    CU_OK(drv->event_elapsed_time(&t01, e[0], e[1]));
    CU_OK(drv->event_elapsed_time(&t02, e[0], e[2]));
    CU_OK(drv->event_elapsed_time(&t03, e[0], e[3]));
    CU_OK(drv->event_elapsed_time(&t12, e[1], e[2]));
    assert_true(t01 >= 0.0f);
    assert_true(t02 >= t01);
    assert_true(t03 >= t02);
    assert_true(t12 >= 0.0f && t12 <= t02 + 1e-3f);
    CU_OK(drv->event_elapsed_time(&ms, e[2], e[0]));
    assert_true(ms <= 0.0f);
    for (int i = 0; i < 4; i++)
        CU_OK(drv->event_destroy(e[i]));
    CU_OK(drv->stream_destroy(s));
    CU_OK(drv->mem_free(dx));
    CU_OK(drv->mem_free(dy));
}

/* Asynchronous calls are checked when made (memory, flags, handles);
 * a free waits for the work queued before it, as cuMemFree synchronizes,
 * so queued work never meets memory freed under it. */
static void test_async_checks(void **state)
{
    (void)state;
    kernels k = load();
    static atomic_int flag;
    atomic_store(&flag, 0);
    uf__cu_dptr d, gate_out;
    CU_OK(drv->mem_alloc(&d, 64));
    CU_OK(drv->mem_alloc(&gate_out, 8));
    uf__cu_stream s;
    CU_OK(drv->stream_create(&s, UF__CU_STREAM_NON_BLOCKING));
    launch_gate(&k, s, &flag, gate_out, 1);
    static char buf[64];
    memset(buf, 3, sizeof buf);
    CU_OK(drv->memcpy_htod_async(d, buf, 64, s));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memcpy_htod_async(d, buf, 65, s));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE,
              drv->memcpy_dtoh_async(buf, (uf__cu_dptr)(uintptr_t)buf, 8, s));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memset_d8_async(d + 60, 0, 8, s));
    atomic_store(&flag, 1);
    CU_OK(drv->mem_free(d)); /* after the queued copy into it ran */
    CU_OK(drv->stream_synchronize(s));
    CU_OK(drv->ctx_synchronize());
    int64_t g = 0;
    CU_OK(drv->memcpy_dtoh(&g, gate_out, 8));
    assert_int_equal(g, 1);
    CU_OK(drv->stream_destroy(s));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->stream_create(&s, 0x10));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->stream_wait_event(NULL, NULL, 1));
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE, drv->stream_wait_event(NULL, NULL, 0));
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE, drv->event_record(NULL, NULL));
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE,
              drv->memcpy_htod_async(gate_out, buf, 8, s));
    uf__cu_event ev;
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->event_create(&ev, 0x40));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        SIM_TEST(test_two_streams_event), SIM_TEST(test_queries_and_legacy),
        SIM_TEST(test_event_timing),      SIM_TEST(test_async_checks),
    };
    return cmocka_run_group_tests_name("cudasim_stream", tests, NULL, NULL);
}
