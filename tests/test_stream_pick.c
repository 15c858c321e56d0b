/* The per-loop choice between streamed and plain stores for large calls
 * (common/stream_pick.h): trials alternate streamed, plain, streamed,
 * plain; plain stores win only when at least 3% faster per element; the
 * choice is made once, from the best of each, even when threads race;
 * and a kernel's large calls give the same values whichever way they
 * store, while it times them (every call compared with the expected
 * values). Run once with UFJIT_STREAM_STORES unset and once with
 * "never" (tests/CMakeLists.txt): then nothing streams or is timed. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "common/loop.h"
#include "common/stream_pick.h"

static bool never(void)
{
    const char *e = getenv("UFJIT_STREAM_STORES");
    return e && strcmp(e, "never") == 0;
}

/* Runs the four trials with these per-element times (ps, for 1000
 * elements) for plain and streamed calls; the pick that follows. */
static bool decide(int64_t plain_ps, int64_t stream_ps)
{
    uf__stream_pick p;
    uf__stream_pick_init(&p);
    int trial;
    for (int k = 0; k < UF__STREAM_TRIALS; k++) {
        bool s = uf__stream_pick_begin(&p, &trial);
        assert_int_equal(trial, k);
        assert_int_equal(s, k % 2 == 0);
        /* the first of each pays e.g. a compile: twice as slow */
        int64_t ps = s ? stream_ps : plain_ps;
        uf__stream_pick_done(&p, trial, (k < 2 ? 2 : 1) * ps, 1000);
    }
    bool s = uf__stream_pick_begin(&p, &trial);
    assert_int_equal(trial, -1);
    /* decided: the same every time */
    for (int k = 0; k < 5; k++) {
        int again;
        assert_int_equal(uf__stream_pick_begin(&p, &again), s);
        assert_int_equal(again, -1);
    }
    return s;
}

static void test_rules(void **state)
{
    (void)state;
    int trial = 5;
    if (never()) {
        uf__stream_pick p;
        uf__stream_pick_init(&p);
        for (int k = 0; k < 6; k++) {
            assert_false(uf__stream_pick_begin(&p, &trial));
            assert_int_equal(trial, -1);
        }
        assert_false(uf__stream_pick_begin(NULL, &trial));
        return;
    }
    assert_true(uf__stream_pick_begin(NULL, &trial)); /* untimed loops */
    assert_int_equal(trial, -1);
    assert_false(decide(900, 1000));  /* plain 10% faster */
    assert_false(decide(969, 1000));  /* just over 3% */
    assert_true(decide(975, 1000));   /* 2.5%: streaming stays */
    assert_true(decide(1000, 1000));
    assert_true(decide(2000, 1000));
    /* calls of different sizes compare per element */
    uf__stream_pick p;
    uf__stream_pick_init(&p);
    int64_t n[4] = {1000, 4000, 1000, 4000}; /* streamed, plain, ... */
    int64_t ns[4] = {1000, 2000, 1000, 2000}; /* plain: half per element */
    for (int k = 0; k < 4; k++) {
        (void)uf__stream_pick_begin(&p, &trial);
        uf__stream_pick_done(&p, trial, ns[k], n[k]);
    }
    assert_false(uf__stream_pick_begin(&p, &trial));
    /* a trial never reported (its call failed) leaves the default */
    uf__stream_pick_init(&p);
    for (int k = 0; k < 3; k++) {
        (void)uf__stream_pick_begin(&p, &trial);
        uf__stream_pick_done(&p, trial, 1, 1000);
    }
    (void)uf__stream_pick_begin(&p, &trial);
    for (int k = 0; k < 3; k++) {
        assert_true(uf__stream_pick_begin(&p, &trial));
        assert_int_equal(trial, -1);
    }
}

typedef struct racer {
    uf__stream_pick *p;
    int trials; /* handed to this thread */
    int streamed, plain; /* calls after the choice */
} racer;

static void *race(void *arg)
{
    racer *r = arg;
    for (int k = 0; k < 2000; k++) {
        int trial;
        bool decided = atomic_load(&r->p->pick) >= 0;
        bool s = uf__stream_pick_begin(r->p, &trial);
        if (trial >= 0) {
            r->trials++;
            /* plain stores twice as fast */
            uf__stream_pick_done(r->p, trial, s ? 2000 : 1000, 1000);
        } else if (decided) {
            r->streamed += s;
            r->plain += !s;
        }
    }
    return NULL;
}

static void test_threads_race(void **state)
{
    (void)state;
    if (never())
        skip();
    uf__stream_pick p;
    uf__stream_pick_init(&p);
    racer r[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        r[i] = (racer){&p, 0, 0, 0};
        assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
    }
    int trials = 0, streamed = 0;
    for (int i = 0; i < 4; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        trials += r[i].trials;
        streamed += r[i].streamed;
    }
    assert_int_equal(trials, UF__STREAM_TRIALS);
    assert_int_equal(atomic_load(&p.pick), 0);
    assert_int_equal(streamed, 0); /* once decided, never streamed */
}

static const char src[] =
    "from numba import vectorize\n"
    "@vectorize(['float64(float64, float64)', "
    "'float32(float32, float32)'])\n"
    "def triad(a, b):\n"
    "    return a + 2.5 * b\n";

/* Eight large calls of one loop (the trials and after), on cpu and on 2
 * threads, each result checked: the same values either way. */
static void test_calls_while_timed(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "k.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "triad", &err);
    uf_assert_ok(f != NULL, &err);
    int64_t n = UF__STREAM_BYTES / 8 + 37; /* past the size, odd */
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_array *b = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_array *o = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a && b && o, &err);
    double *ad = uf_array_data(a), *bd = uf_array_data(b),
           *od = uf_array_data(o);
    for (int64_t i = 0; i < n; i++) {
        ad[i] = (double)(i % 1009);
        bd[i] = (double)(i % 13) * 0.5;
    }
    for (int t = 0; t < 2; t++)
        for (int call = 0; call < 8; call++) {
            memset(od, 0xff, (size_t)n * 8); /* NaNs */
            uf_array *in[2] = {a, b};
            uf_call_options opt = {.size = sizeof opt,
                                   .target = t ? "parallel" : "cpu",
                                   .num_threads = 2};
            uf_assert_ok(uf_call(f, in, 2, &o, 1, &opt, &err) == 0, &err);
            for (int64_t i = 0; i < n; i++)
                if (od[i] != ad[i] + 2.5 * bd[i])
                    fail_msg("%s call %d: [%lld] = %g, not %g",
                             t ? "parallel" : "cpu", call, (long long)i,
                             od[i], ad[i] + 2.5 * bd[i]);
        }
    uf_array_release(a);
    uf_array_release(b);
    uf_array_release(o);
    uf_module_free(m);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_threads_race),
        cmocka_unit_test(test_calls_while_timed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
