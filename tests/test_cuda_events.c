/* uf_event (numba.cuda.event): record, query, synchronize, a stream
 * waiting for another's event on the device, and elapsed times. On
 * cudasim by default (its streams are real queues run by worker threads,
 * so a missing wait shows as a wrong result); test_cuda_events_gpu runs
 * it on a GPU (tests/cmake/events.cmake). */
#include <math.h>

#include "test_util.h"

#include "cuda_test_target.h"

static const char *target;

static int setup(void **state)
{
    (void)state;
    target = cuda_test_target();
    return 0;
}

static uf_array *pinned_ramp(int64_t n, double start)
{
    uf_error err;
    uf_array *a = uf_pinned_array(UF_FLOAT64, 1, &n, UF_ORDER_C, target,
                                  &err);
    uf_assert_ok(a != NULL, &err);
    double *p = uf_array_data(a);
    for (int64_t i = 0; i < n; i++)
        p[i] = start + (double)i;
    return a;
}

/* A timing pair around a copy: both complete after the stream's sync,
 * the time between them is non-negative, and the reverse pair negative
 * or zero (CUDA gives end - start as recorded). */
static void test_record_query_elapsed(void **state)
{
    (void)state;
    uf_error err;
    uf_stream *s = uf_stream_create(target, &err);
    uf_assert_ok(s != NULL, &err);
    uf_event *start = uf_event_create(target, true, &err);
    uf_event *end = uf_event_create(target, true, &err);
    uf_assert_ok(start && end, &err);
    assert_int_equal(uf_event_query(start, &err), 1); /* never recorded */
    uf_array *h = pinned_ramp(1 << 20, 0);
    uf_assert_ok(uf_event_record(start, s, &err) == 0, &err);
    uf_array *d = uf_to_device(h, target, s, &err);
    uf_assert_ok(d != NULL, &err);
    uf_assert_ok(uf_event_record(end, s, &err) == 0, &err);
    uf_assert_ok(uf_event_synchronize(end, &err) == 0, &err);
    assert_int_equal(uf_event_query(end, &err), 1);
    assert_int_equal(uf_event_query(start, &err), 1);
    float ms = -1, back = 1;
    uf_assert_ok(uf_event_elapsed_ms(start, end, &ms, &err) == 0, &err);
    assert_true(ms >= 0 && ms < 60000);
    uf_assert_ok(uf_event_elapsed_ms(end, start, &back, &err) == 0, &err);
    assert_true(back <= 0 && fabsf(back + ms) < 1e-3f);
    uf_array_release(d);
    uf_array_release(h);
    uf_event_destroy(start);
    uf_event_destroy(end);
    uf_stream_destroy(s);
}

/* Stream b waits (on the device) for a's event: its copy back reads the
 * data a's copy wrote. Repeated, with a's copy big enough that b would
 * often overtake it without the wait. */
static void test_stream_waits_for_event(void **state)
{
    (void)state;
    uf_error err;
    const int64_t n = 1 << 21;
    uf_stream *a = uf_stream_create(target, &err);
    uf_stream *b = uf_stream_create(target, &err);
    uf_event *e = uf_event_create(target, false, &err);
    uf_assert_ok(a && b && e, &err);
    uf_array *d = uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, target,
                                  &err);
    uf_assert_ok(d != NULL, &err);
    for (int round = 0; round < 4; round++) {
        uf_array *h = pinned_ramp(n, round * 10.0);
        uf_array *out = uf_pinned_array(UF_FLOAT64, 1, &n, UF_ORDER_C,
                                        target, &err);
        uf_assert_ok(out != NULL, &err);
        uf_assert_ok(uf_copy_to_device(d, h, a, &err) == 0, &err);
        uf_assert_ok(uf_event_record(e, a, &err) == 0, &err);
        uf_assert_ok(uf_stream_wait_event(b, e, &err) == 0, &err);
        uf_array *r = uf_copy_to_host(d, out, b, &err);
        uf_assert_ok(r != NULL, &err);
        uf_assert_ok(uf_stream_synchronize(b, &err) == 0, &err);
        const double *p = uf_array_data(out);
        for (int64_t i = 0; i < n; i += 4099)
            assert_true(p[i] == round * 10.0 + (double)i);
        assert_true(p[n - 1] == round * 10.0 + (double)(n - 1));
        uf_assert_ok(uf_stream_synchronize(a, &err) == 0, &err);
        uf_array_release(r);
        uf_array_release(out);
        uf_array_release(h);
    }
    uf_array_release(d);
    uf_event_destroy(e);
    uf_stream_destroy(a);
    uf_stream_destroy(b);
}

/* The legacy default stream (NULL) records and waits too. */
static void test_legacy_stream(void **state)
{
    (void)state;
    uf_error err;
    uf_event *e = uf_event_create(target, false, &err);
    uf_assert_ok(e != NULL, &err);
    uf_assert_ok(uf_event_record(e, NULL, &err) == 0, &err);
    uf_assert_ok(uf_stream_wait_event(NULL, e, &err) == 0, &err);
    uf_assert_ok(uf_event_synchronize(e, &err) == 0, &err);
    assert_int_equal(uf_event_query(e, &err), 1);
    uf_event_destroy(e);
}

static void test_errors(void **state)
{
    (void)state;
    uf_error err;
    float ms;
    assert_int_equal(uf_event_record(NULL, NULL, &err), UF_ERR_INVALID);
    assert_int_equal(uf_event_query(NULL, &err), UF_ERR_INVALID);
    assert_int_equal(uf_event_synchronize(NULL, &err), UF_ERR_INVALID);
    assert_int_equal(uf_stream_wait_event(NULL, NULL, &err),
                     UF_ERR_INVALID);
    uf_event *t = uf_event_create(target, true, &err);
    uf_event *nt = uf_event_create(target, false, &err);
    uf_assert_ok(t && nt, &err);
    uf_assert_ok(uf_event_record(t, NULL, &err) == 0, &err);
    uf_assert_ok(uf_event_record(nt, NULL, &err) == 0, &err);
    uf_assert_ok(uf_event_synchronize(nt, &err) == 0, &err);
    assert_int_equal(uf_event_elapsed_ms(t, nt, &ms, &err), UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "without timing"));
    assert_int_equal(uf_event_elapsed_ms(t, t, NULL, &err), UF_ERR_INVALID);
    assert_int_equal(uf_event_elapsed_ms(NULL, t, &ms, &err),
                     UF_ERR_INVALID);
    assert_null(uf_event_create("cpu", true, &err));
    assert_int_not_equal(err.code, UF_ERR_OK);
    uf_event_destroy(t);
    uf_event_destroy(nt);
    uf_event_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_query_elapsed),
        cmocka_unit_test(test_stream_waits_for_event),
        cmocka_unit_test(test_legacy_stream),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
