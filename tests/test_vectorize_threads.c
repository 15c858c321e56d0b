/* Several threads making the first calls of one vectorize kernel at once
 * (ufunc/vectorize_func.c publishes the built ufunc for lock-free calls):
 * a kernel with declared signatures is compiled once, a lazy one at most
 * once per input type, and every thread gets right results, on cpu and
 * parallel. */
#include <pthread.h>
#include <string.h>

#include "test_util.h"

#include "compiler/context.h"
#include "compiler/module.h"

static const char *const src =
    "from numba import vectorize\n"
    "@vectorize(['float64(float64, float64)', 'int64(int64, int64)'])\n"
    "def declared(a, b):\n    return a * 2 + b\n"
    "@vectorize\n"
    "def lazy(a, b):\n    return a * 3 - b\n";

#define NTHREADS 6
#define CALLS 200

static pthread_barrier_t start;

typedef struct job {
    uf_func *f;
    uf_dtype dt;
    int mult;
    const char *target;
    int failed;
} job;

static void *worker(void *p)
{
    job *j = p;
    uf_error err;
    int64_t n = 37;
    uf_array *a = uf_arange(0, (double)n, 1, j->dt, &err);
    uf_array *b = uf_arange(5, 5 + (double)n, 1, j->dt, &err);
    uf_call_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.target = j->target;
    o.num_threads = 2;
    pthread_barrier_wait(&start);
    for (int c = 0; c < CALLS && a && b && !j->failed; c++) {
        uf_array *in[2] = {a, b}, *out = NULL;
        if (uf_call(j->f, in, 2, &out, 1, &o, &err) != 0) {
            j->failed = 1;
            break;
        }
        /* int64 inputs take the float64 loop when it is there first (the
         * declared kernel's first signature; a lazy kernel's loop another
         * thread compiled: Numba's DUFunc casts to existing loops too) */
        uf_dtype odt = uf_array_dtype(out);
        if (odt != j->dt && odt != UF_FLOAT64)
            j->failed = 2;
        for (int64_t i = 0; i < n && !j->failed; i++) {
            double want = (double)(j->mult * i) + (double)(5 + i) *
                          (j->mult == 2 ? 1 : -1);
            double got = odt == UF_FLOAT64
                             ? ((double *)uf_array_data(out))[i]
                             : (double)((int64_t *)uf_array_data(out))[i];
            if (got != want)
                j->failed = 2;
        }
        uf_array_release(out);
    }
    uf_array_release(a);
    uf_array_release(b);
    return NULL;
}

/* NTHREADS threads call `name` at once, thread t with dtype dts[t % 2];
 * returns the compiles it took. */
static uint64_t race(const char *name, int mult, const char *target)
{
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "threads.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, name, &err);
    uf_assert_ok(f != NULL, &err);
    static const uf_dtype dts[2] = {UF_FLOAT64, UF_INT64};
    job jobs[NTHREADS];
    pthread_t t[NTHREADS];
    assert_int_equal(pthread_barrier_init(&start, NULL, NTHREADS), 0);
    for (int i = 0; i < NTHREADS; i++) {
        jobs[i] = (job){f, dts[i % 2], mult, target, 0};
        assert_int_equal(pthread_create(&t[i], NULL, worker, &jobs[i]), 0);
    }
    for (int i = 0; i < NTHREADS; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < NTHREADS; i++)
        if (jobs[i].failed)
            fail_msg("%s on %s, thread %d: %s", name, target, i,
                     jobs[i].failed == 1 ? "call failed" : "wrong result");
    uint64_t n = ctx->jit ? uf__jit_ncompiles(ctx->jit) : 0;
    uf_module_free(m);
    uf_context_free(ctx);
    return n;
}

static void test_declared_once(void **state)
{
    (void)state;
    /* both signatures in one module, compiled by whichever thread came
     * first; int64 inputs resolve to the first, float64 (safe cast) */
    assert_int_equal(race("declared", 2, "cpu"), 1);
    assert_int_equal(race("declared", 2, "parallel"), 1);
}

/* One compile per type, and float64 only: int64 calls after it take its
 * loop. */
static void test_lazy_once_per_type(void **state)
{
    (void)state;
    static const char *const targets[] = {"cpu", "parallel"};
    for (int t = 0; t < 2; t++) {
        uint64_t n = race("lazy", 3, targets[t]);
        if (n < 1 || n > 2)
            fail_msg("lazy on %s: %llu compiles", targets[t],
                     (unsigned long long)n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_declared_once),
        cmocka_unit_test(test_lazy_once_per_type),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
