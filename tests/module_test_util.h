/* The fixture of the tests that run one kernel module's functions from C
 * (the container tests: dicts, sets, lists, strings): one context and one
 * module made from source text by the group setup, scalar arguments and
 * results, and the two memory checks each of them makes: no leak across
 * many calls, and out of memory at every allocation of a call. */
#ifndef UF_TESTS_MODULE_TEST_UTIL_H
#define UF_TESTS_MODULE_TEST_UTIL_H

#include "nrt_test_util.h"

enum { UF_T_MAXOUT = 8 }; /* results of one call the checks keep */

static uf_context *uf_t_ctx;
static uf_module *uf_t_mod;

/* The group setup's body: the module `file` (the name errors carry)
 * from `src`, its compile error printed when it has one. */
static inline int uf_t_module_setup(const char *file, const char *src)
{
    uf_error err;
    uf_t_ctx = uf_context_new(&err);
    if (!uf_t_ctx)
        return -1;
    uf_t_mod = uf_module_from_string(uf_t_ctx, file, src, &err);
    if (!uf_t_mod)
        fprintf(stderr, "%s\n", err.message);
    return uf_t_mod ? 0 : -1;
}

static inline int uf_t_module_teardown(void **state)
{
    (void)state;
    uf_module_free(uf_t_mod);
    uf_context_free(uf_t_ctx);
    uf_t_mod = NULL;
    uf_t_ctx = NULL;
    return 0;
}

/* Calls the module's function `name` (which must exist) with n inputs. */
static inline int uf_t_call(const char *name, uf_array **x, int n,
                            uf_array **out, int nout, uf_error *err)
{
    uf_func *f = uf_module_get(uf_t_mod, name, err);
    uf_assert_ok(f != NULL, err);
    return uf_call(f, x, n, out, nout, NULL, err);
}

static inline uf_array *uf_t_i64(int64_t v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(int64_t *)uf_array_data(a) = v;
    return a;
}

static inline int64_t uf_t_i64_of(const uf_array *a)
{
    return *(const int64_t *)uf_array_data(a);
}

static inline double uf_t_f64_of(const uf_array *a)
{
    return *(const double *)uf_array_data(a);
}

/* Releases n results and clears their slots. */
static inline void uf_t_release(uf_array **a, int n)
{
    for (int k = 0; k < n; k++) {
        uf_array_release(a[k]);
        a[k] = NULL;
    }
}

/* One call of `name` on the single input x, its nout (<= UF_T_MAXOUT) results
 * released: the unit the memory checks repeat. */
typedef struct uf_t_calling {
    const char *name;
    uf_array *x;
    int nout;
} uf_t_calling;

static inline int uf_t_call_released(void *ud, uf_error *err)
{
    const uf_t_calling *c = ud;
    uf_array *x = c->x, *out[UF_T_MAXOUT] = {0};
    int rc = uf_t_call(c->name, &x, 1, out, c->nout, err);
    uf_t_release(out, c->nout);
    return rc;
}

/* Out of memory at each allocation of name(x) gives UF_ERR_NOMEM and
 * leaves nothing behind (nrt_test_util.h); compiled by a first call. */
static inline void uf_t_check_oom(const char *name, uf_array *x, int nout)
{
    uf_error err;
    uf_t_calling c = {name, x, nout};
    assert_true(nout <= UF_T_MAXOUT);
    uf_assert_ok(uf_t_call_released(&c, &err) == 0, &err);
    uf_check_oom_each_alloc(name, uf_t_call_released, &c);
}

/* `reps` calls of name(x) leave the NRT's and the allocator's live
 * counts where they were, each call's results the first call's bytes. */
static inline void uf_t_check_no_leak(const char *name, uf_array *x,
                                      int nout, int reps)
{
    uf_error err;
    uf_array *out[UF_T_MAXOUT] = {0};
    void *first[UF_T_MAXOUT] = {0};
    size_t size[UF_T_MAXOUT] = {0};
    assert_true(nout <= UF_T_MAXOUT);
    uf_assert_ok(uf_t_call(name, &x, 1, out, nout, &err) == 0, &err);
    for (int k = 0; k < nout; k++) {
        size[k] = (size_t)uf_array_nbytes(out[k]);
        first[k] = malloc(size[k] ? size[k] : 1);
        assert_non_null(first[k]);
        memcpy(first[k], uf_array_data(out[k]), size[k]);
    }
    uf_t_release(out, nout);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < reps; i++) {
        uf_assert_ok(uf_t_call(name, &x, 1, out, nout, &err) == 0, &err);
        for (int k = 0; k < nout; k++) {
            assert_int_equal((size_t)uf_array_nbytes(out[k]), size[k]);
            if (size[k] > 0)
                assert_memory_equal(uf_array_data(out[k]), first[k],
                                    size[k]);
        }
        uf_t_release(out, nout);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    for (int k = 0; k < nout; k++)
        free(first[k]);
}

#endif
