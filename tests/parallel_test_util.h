/* Helpers shared by the tests of the `parallel` target against `cpu`
 * (test_ufunc_parallel.c, test_gufunc_parallel.c, test_reduce_parallel.c):
 * whether the threading layer is unusable, a seeded random generator and
 * reals with the awkward values sprinkled in, operands (spec) made with
 * the test's own filler then sliced and transposed, kernel files of
 * tests/kernels/ loaded once, and what a recording C loop notes about the
 * threads running it. Functions are static inline: each test uses a
 * subset. */
#ifndef UF_TESTS_PARALLEL_TEST_UTIL_H
#define UF_TESTS_PARALLEL_TEST_UTIL_H

#include <math.h>

#include "test_util.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "targets/parallel/parallel.h"

/* Made in each test program's setup, freed in its teardown. */
static uf_context *ctx;

/* UFJIT_THREADING_LAYER (or UFJIT_NUM_THREADS) is bad: parallel calls
 * fail with the configuration error. */
static inline bool layer_is_bad(void)
{
    uf_error err;
    return uf__parallel_config_error(&err) != 0;
}

/* ---- operands ----------------------------------------------------------- */

static uint64_t rng_state;

/* Each operand its own reproducible stream. */
static inline void seed_random(uint64_t seed)
{
    rng_state = seed * 0x9E3779B97F4A7C15ull + 1;
}

static inline uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Uniform in [0, 1). */
static inline double unit_random(void)
{
    return (double)(next_random() >> 11) / 9007199254740992.0;
}

/* A real for element i: uniform in [-100, 100), or in [1e-3, 50) when
 * `positive`; where i % period == 7 (period 0: never) one of NaN,
 * infinities, zeros, a subnormal, huge and tiny. */
static inline double real_value(int64_t i, int64_t period, bool positive)
{
    static const double odd[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0,
                                 4.9e-324, 1e300, 1e-300};
    double u = unit_random();

    if (period > 0 && i % period == 7)
        return odd[next_random() % 8];
    return positive ? 1e-3 + 50.0 * u : -100.0 + 200.0 * u;
}

/* base sliced by `slice` (NULL: not), then with its axes reversed if
 * `transpose`; base's reference moves to the view returned. */
static inline uf_array *view_of(uf_array *base, const char *slice,
                                bool transpose)
{
    uf_error err;
    uf_array *view = base;

    if (slice != NULL) {
        view = uf_array_slice(base, slice, &err);
        uf_assert_ok(view != NULL, &err);
        uf_array_release(base);
    }
    if (transpose) {
        uf_array *t = uf_array_transpose(view, NULL, &err);
        uf_assert_ok(t != NULL, &err);
        uf_array_release(view);
        view = t;
    }
    return view;
}

/* An operand: a fresh C-order array whose elements the test fills by its
 * rule `fill` (one of the test's enum fill), then view_of's slice and
 * transpose. */
typedef struct spec {
    uf_dtype dtype; /* UF_NTYPES: none (an output the call allocates) */
    int ndim;
    int64_t shape[5];
    const char *slice; /* applied to the base array, or NULL */
    bool transpose;    /* then reversed axes */
    int fill;
} spec;

/* The test's filler: element i (in C order) of s, stored at p, drawn
 * from the stream make_spec seeded. */
typedef void (*fill_fn)(const spec *s, int64_t i, char *p);

/* s made with its own stream `seed`. */
static inline uf_array *make_spec(const spec *s, uint64_t seed, fill_fn fill)
{
    uf_error err;
    uf_array *base = uf_empty(s->dtype, s->ndim, s->shape, UF_ORDER_C, &err);

    uf_assert_ok(base != NULL, &err);
    seed_random(seed);
    char *p = uf_array_data(base);
    size_t item = uf_array_itemsize(base);
    for (int64_t i = 0; i < uf_array_size(base); i++, p += item)
        fill(s, i, p);
    return view_of(base, s->slice, s->transpose);
}

static inline void release_all(uf_array **a, int n)
{
    for (int i = 0; i < n; i++)
        uf_array_release(a[i]);
}

/* ---- kernels ------------------------------------------------------------ */

/* Each kernel file is loaded once (its kernels compile once) and freed
 * before the context (free_modules). A setup may add a module made from
 * a string under a file name of its own. */
static struct {
    const char *file;
    uf_module *m;
} modules[16];

static inline uf_func *get(const char *file, const char *name)
{
    char path[512];
    uf_error err;
    size_t i = 0;

    while (modules[i].file != NULL && strcmp(modules[i].file, file) != 0)
        i++;
    assert_true(i < sizeof modules / sizeof modules[0] - 1);
    if (modules[i].file == NULL) {
        snprintf(path, sizeof path, UF_TEST_DATA_DIR "/../kernels/%s", file);
        modules[i].m = uf_module_load(ctx, path, &err);
        uf_assert_ok(modules[i].m != NULL, &err);
        modules[i].file = file;
    }
    uf_func *f = uf_module_get(modules[i].m, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

static inline void free_modules(void)
{
    for (size_t i = 0; i < sizeof modules / sizeof modules[0]; i++) {
        uf_module_free(modules[i].m);
        modules[i].m = NULL;
        modules[i].file = NULL;
    }
}

/* ---- how the work is cut, seen from a C loop ---------------------------- */

/* What a recording loop notes about the threads that run it. */
typedef struct thread_seen {
    atomic_int threads_in;
    atomic_bool other_thread;
    pthread_t caller;
    bool wait_for_two; /* each call waits until two threads have entered */
} thread_seen;

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Before a call: the caller is this thread; wait for two or not. */
static inline void thread_seen_reset(thread_seen *t, bool wait)
{
    atomic_store(&t->threads_in, 0);
    atomic_store(&t->other_thread, false);
    t->caller = pthread_self();
    t->wait_for_two = wait;
}

/* In the loop: notes a thread other than the caller's and, if asked,
 * waits (10 s at most) until two threads have entered, so that work
 * shared between two threads shows as running on both at once. */
static inline void thread_seen_enter(thread_seen *t)
{
    if (!pthread_equal(pthread_self(), t->caller))
        atomic_store(&t->other_thread, true);
    if (t->wait_for_two) {
        double t0 = now();
        atomic_fetch_add(&t->threads_in, 1);
        while (atomic_load(&t->threads_in) < 2 && now() - t0 < 10.0)
            sched_yield();
    }
}

#endif
