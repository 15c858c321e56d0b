/* The target registry (targets/target.h) and what ufjit/system.h shows
 * of it: lookup by name, capabilities, the messages that list targets, the
 * descriptors' hooks, and a kernel run through each target of the
 * registry giving the cpu's bits. */
#include <string.h>

#include "test_util.h"

#include "common/error_internal.h"
#include "targets/target.h"

static void lookup(void **state)
{
    (void)state;
    const uf__target *cpu = uf__target_find("cpu");
    const uf__target *par = uf__target_find("parallel");
    assert_non_null(cpu);
    assert_non_null(par);
    assert_ptr_equal(uf__target_find(NULL), cpu); /* the default */
    assert_string_equal(UF__TARGET_DEFAULT, "cpu");
    const uf__target *cuda = uf__target_find("cuda");
    assert_non_null(cuda);
    assert_true(cuda->caps & UF__TCAP_DEVICE);
    assert_false(cuda->caps & UF__TCAP_HOST_MEMORY);
    assert_non_null(uf__target_find("cudasim"));
    assert_null(uf__target_find(""));
    assert_null(uf__target_find("cpux"));
    assert_null(uf__target_find("cp"));
    assert_true(par->caps & UF__TCAP_THREADS);
    assert_false(cpu->caps & UF__TCAP_THREADS);
    assert_true(cpu->caps & UF__TCAP_NJIT);
    assert_false(par->caps & UF__TCAP_NJIT);
    for (int i = 0; i < uf__target_count(); i++) {
        const uf__target *t = uf__target_at(i);
        assert_ptr_equal(uf__target_find(t->name), t);
        /* host targets run loops; device targets have their own path */
        bool device = (t->caps & UF__TCAP_DEVICE) != 0;
        assert_true(device != ((t->caps & UF__TCAP_HOST_MEMORY) != 0));
        if (device)
            continue;
        assert_non_null(t->run);
        assert_non_null(t->threads);
        assert_non_null(t->config_error);
    }
    assert_null(uf__target_at(-1));
    assert_null(uf__target_at(uf__target_count()));
}

static void messages(void **state)
{
    (void)state;
    uf_error err;
    char list[128];
    assert_null(uf__target_get("gpu", UF__TCAP_VECTORIZE, &err));
    assert_int_equal(err.code, UF_ERR_UNSUPPORTED);
    assert_string_equal(err.message, "unknown target 'gpu' (the targets are "
                                     "cpu, parallel, cuda, cudasim)");
    assert_null(uf__target_get("cuda", UF__TCAP_NJIT, &err));
    assert_string_equal(err.message, "target 'cuda' is not available yet "
                                     "(only 'cpu')");
    assert_null(uf__target_get("parallel", UF__TCAP_NJIT, &err));
    assert_string_equal(err.message, "target 'parallel' is not available "
                                     "yet (only 'cpu')");
    assert_string_equal(uf__target_list(UF__TCAP_REDUCE, list, sizeof list),
                        "'cpu', 'parallel', 'cuda' and 'cudasim'");
    assert_string_equal(uf__target_list(UF__TCAP_THREADS, list, sizeof list),
                        "'parallel'");
    assert_string_equal(uf__target_list(UF__TCAP_HOST_MEMORY, list,
                                        sizeof list),
                        "'cpu' and 'parallel'");
    /* a list that does not fit is cut, never overrun */
    assert_string_equal(uf__target_list(UF__TCAP_HOST_MEMORY, list, 8),
                        "'cpu' a");
    assert_ptr_equal(uf__target_get(NULL, UF__TCAP_VECTORIZE, &err),
                     uf__target_find("cpu"));
}

/* body over [begin, end): adds the indices to *ctx */
static int sum_body(void *ctx, int64_t begin, int64_t end, uf_error *err)
{
    (void)err;
    int64_t s = 0;
    for (int64_t i = begin; i < end; i++)
        s += i;
    __atomic_fetch_add((int64_t *)ctx, s, __ATOMIC_RELAXED);
    return 0;
}

static int fail_body(void *ctx, int64_t begin, int64_t end, uf_error *err)
{
    (void)ctx;
    (void)end;
    if (begin == 0)
        return uf__error_set(err, UF_ERR_VALUE, "chunk at 0 failed");
    return 0;
}

static void run_hooks(void **state)
{
    (void)state;
    for (int i = 0; i < uf__target_count(); i++) {
        const uf__target *t = uf__target_at(i);
        if (t->caps & UF__TCAP_DEVICE)
            continue; /* no host loops (test_cuda_vectorize) */
        uf_error err;
        int64_t sum = 0;
        assert_int_equal(t->run(100000, 1000, 2, sum_body, &sum, &err), 0);
        assert_int_equal(sum, (int64_t)100000 * 99999 / 2);
        sum = 0;
        assert_int_equal(t->run(0, 1, 0, sum_body, &sum, &err), 0);
        assert_int_equal(sum, 0);
        assert_int_not_equal(t->run(100000, 1000, 2, fail_body, NULL, &err),
                             0);
        assert_non_null(strstr(err.message, "chunk at 0 failed"));
        assert_true(t->threads(0) >= 1);
        assert_int_equal(t->config_error(&err), 0);
        void *p = t->alloc(64, &err);
        void *q = t->alloc(64, &err);
        assert_non_null(p);
        assert_non_null(q);
        memset(p, 7, 64);
        assert_int_equal(t->copy(q, p, 64, &err), 0);
        assert_memory_equal(p, q, 64);
        t->free(p);
        t->free(q);
    }
    assert_int_equal(uf__target_find("cpu")->threads(8), 1);
}

static void public_view(void **state)
{
    (void)state;
    assert_int_equal(uf_target_count(), uf__target_count());
    assert_string_equal(uf_target_name(0), "cpu");
    assert_string_equal(uf_target_name(1), "parallel");
    assert_non_null(uf_target_summary(1));
    assert_null(uf_target_name(-1));
    assert_true(uf_target_defined("cpu"));
    assert_true(uf_target_defined("parallel"));
    assert_true(uf_target_defined("cuda"));
    assert_true(uf_target_defined("cudasim"));
    assert_false(uf_target_defined("gpu"));
    assert_false(uf_target_defined(""));
    assert_false(uf_target_defined(NULL));
    char names[64];
    assert_string_equal(uf_target_names(names, sizeof names),
                        "cpu, parallel, cuda, cudasim");
    assert_string_equal(uf_target_names(names, 9), "cpu, par");
    assert_null(uf_target_summary(uf_target_count()));
    assert_int_equal(strncmp(uf_llvm_version(), "14.", 3), 0);
    assert_true(uf_threading_default_threads() >= 1);
    uf_error err;
    const char *layer = uf_threading_layer(&err);
    assert_non_null(layer);
    assert_true(strcmp(layer, "omp") == 0 || strcmp(layer, "tbb") == 0 ||
                strcmp(layer, "serial") == 0);

    assert_int_equal(uf_jit_host(NULL, NULL, NULL, NULL, &err),
                     UF_ERR_INVALID);
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    const char *cpu = NULL, *features = NULL;
    bool mvec;
    uf_assert_ok(uf_jit_host(ctx, &cpu, &features, &mvec, &err) == 0, &err);
    assert_true(cpu != NULL && cpu[0] != '\0');
    assert_non_null(strchr(features, '+'));
    uf_context_free(ctx);
}

/* One kernel on every target of the registry that runs vectorize
 * kernels: the same bits as cpu (float sums of a polynomial). */
static void every_target(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(
        ctx, "t.py",
        "from numba import vectorize\n"
        "@vectorize(['float64(float64)'])\n"
        "def p(x):\n"
        "    return 0.5 * x * x - 3.0 * x + 0.25\n", &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "p", &err);
    uf_assert_ok(f != NULL, &err);
    enum { N = 200003 };
    uf_array *x = uf_arange(0.0, N, 1.0, UF_FLOAT64, &err);
    uf_assert_ok(x != NULL, &err);
    uf_array *want = NULL;
    for (int i = 0; i < uf_target_count(); i++) {
        uf_call_options o = {.size = sizeof o, .target = uf_target_name(i),
                             .num_threads = 2};
        uf_array *out = NULL;
        int rc = uf_call(f, &x, 1, &out, 1, &o, &err);
        if (rc == UF_ERR_NO_DEVICE && strcmp(o.target, "cuda") == 0) {
            printf("SKIP target cuda: %s\n", err.message);
            continue;
        }
        uf_assert_ok(rc == 0, &err);
        if (want == NULL) {
            want = out;
            const double *w = uf_array_data(want);
            assert_true(w[3] == 0.5 * 3 * 3 - 3.0 * 3 + 0.25);
            continue;
        }
        assert_memory_equal(uf_array_data(out), uf_array_data(want),
                            N * sizeof(double));
        uf_array_release(out);
    }
    uf_call_options bad = {.size = sizeof bad, .target = "gpu"};
    uf_array *out = NULL;
    assert_int_equal(uf_call(f, &x, 1, &out, 1, &bad, &err),
                     UF_ERR_UNSUPPORTED);
    assert_string_equal(err.message, "unknown target 'gpu' (the targets are "
                                     "cpu, parallel, cuda, cudasim)");
    assert_null(out);
    uf_array_release(want);
    uf_array_release(x);
    uf_module_free(m);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lookup),      cmocka_unit_test(messages),
        cmocka_unit_test(run_hooks),   cmocka_unit_test(public_view),
        cmocka_unit_test(every_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
