/* The ufunc object (ufunc/ufunc.c): loop list, Numba's first-match
 * dispatch, the compile hook, the "not supported" message, thread safety
 * of resolution, and out-of-memory paths. The call path is in
 * test_ufunc_call.c. */
#include <pthread.h>
#include <unistd.h>

#include "test_util.h"

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ufunc/ufunc.h"

/* Loops are never run here: only their identity matters. */
static int loop_a(void *ctx, char *const *d, const int64_t *n,
                  const int64_t *s, void *aux)
{
    (void)ctx, (void)d, (void)n, (void)s, (void)aux;
    return 0;
}

static int loop_b(void *ctx, char *const *d, const int64_t *n,
                  const int64_t *s, void *aux)
{
    (void)ctx, (void)d, (void)n, (void)s, (void)aux;
    return 1;
}

static uf__ufunc_loop make_loop(int nargs, const uf_dtype *types)
{
    uf__ufunc_loop l;

    memset(&l, 0, sizeof l);
    for (int i = 0; i < nargs; i++)
        l.types[i] = types[i];
    l.fn = loop_a;
    return l;
}

/* A binary ufunc with loops (t, t) -> t for each listed t, in order. */
static uf__ufunc *binary(const char *name, const uf_dtype *loops, int n,
                         uf__ufunc_compile_fn compile, void *cctx)
{
    uf_error err;
    uf__ufunc *u = uf__ufunc_new(name, 2, 1, compile, cctx, &err);

    uf_assert_ok(u != NULL, &err);
    for (int i = 0; i < n; i++) {
        uf__ufunc_loop l = make_loop(3, (uf_dtype[]){loops[i], loops[i],
                                                     loops[i]});
        uf_assert_ok(uf__ufunc_add_loop(u, &l, &err) == 0, &err);
    }
    return u;
}

/* ---- construction ------------------------------------------------------ */

static void test_new_and_properties(void **state)
{
    (void)state;
    uf_error err;
    long live = uf__alloc_live();
    uf__ufunc *u = uf__ufunc_new("rel_diff", 2, 1, NULL, NULL, &err);

    uf_assert_ok(u != NULL, &err);
    assert_string_equal(uf__ufunc_name(u), "rel_diff");
    assert_int_equal(uf__ufunc_nin(u), 2);
    assert_int_equal(uf__ufunc_nout(u), 1);
    assert_int_equal(uf__ufunc_nloops(u), 0);
    assert_null(uf__ufunc_get_loop(u, 0));
    assert_null(uf__ufunc_get_loop(u, -1));
    uf__ufunc_free(u);
    uf__ufunc_free(NULL);
    assert_int_equal(uf__alloc_live(), live);
}

static void test_new_invalid(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *name;
        int nin, nout;
    } rows[] = {
        {LOC, NULL, 1, 1},
        {LOC, "f", -1, 1},
        {LOC, "f", 1, 0},
        {LOC, "f", 1, -2},
        {LOC, "f", UF__LOOP_MAXARGS, 1},
        {LOC, "f", 1, UF__LOOP_MAXARGS},
        {LOC, "f", 40, 25},
    };
    long live = uf__alloc_live();

    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uf_error err;
        uf__ufunc *u = uf__ufunc_new(rows[i].name, rows[i].nin, rows[i].nout,
                                     NULL, NULL, &err);

        if (u != NULL || err.code != UF_ERR_INVALID)
            uf_fail_at(rows[i].file, rows[i].line, "expected UF_ERR_INVALID,"
                       " got %s", uf_err_name(err.code));
    }
    /* The limits themselves are fine: 63 inputs and 1 output, 0 inputs. */
    uf_error err;
    uf__ufunc *u = uf__ufunc_new("f", UF__LOOP_MAXARGS - 1, 1, NULL, NULL,
                                 &err);
    uf_assert_ok(u != NULL, &err);
    uf__ufunc_free(u);
    u = uf__ufunc_new("f", 0, 2, NULL, NULL, &err);
    uf_assert_ok(u != NULL, &err);
    uf__ufunc_free(u);
    assert_int_equal(uf__alloc_live(), live);
}

static void test_add_loop_invalid(void **state)
{
    (void)state;
    uf_error err;
    uf__ufunc *u = binary("f", NULL, 0, NULL, NULL);
    uf__ufunc_loop l = make_loop(3, (uf_dtype[]){UF_FLOAT64, UF_FLOAT64,
                                                 UF_FLOAT64});

    l.fn = NULL;
    assert_int_equal(uf__ufunc_add_loop(u, &l, &err), UF_ERR_INVALID);
    assert_string_equal(err.message,
                        "uf__ufunc_add_loop: ufunc 'f' loop has no function");
    l.fn = loop_a;
    l.types[2] = (uf_dtype)UF_NTYPES;
    assert_int_equal(uf__ufunc_add_loop(u, &l, &err), UF_ERR_INVALID);
    assert_string_equal(err.message, "uf__ufunc_add_loop: ufunc 'f' loop has "
                                     "an invalid type for operand 2");
    assert_int_equal(uf__ufunc_add_loop(u, NULL, &err), UF_ERR_INVALID);
    assert_int_equal(uf__ufunc_add_loop(NULL, &l, &err), UF_ERR_INVALID);
    assert_int_equal(uf__ufunc_nloops(u), 0);
    uf__ufunc_free(u);
}

/* ---- dispatch ---------------------------------------------------------- */

/* Numba picks the FIRST loop every input casts to safely, not the best. */
static void test_first_match_dispatch(void **state)
{
    (void)state;
    static const uf_dtype f4f8[] = {UF_FLOAT32, UF_FLOAT64};
    static const uf_dtype f8f4[] = {UF_FLOAT64, UF_FLOAT32};
    static const uf_dtype ints[] = {UF_INT8, UF_INT32, UF_INT64, UF_FLOAT64};
    static const struct {
        const char *file;
        int line;
        const uf_dtype *loops;
        int nloops;
        uf_dtype a, b;
        int want; /* loop index, -1 for UF_ERR_TYPE */
    } rows[] = {
        {LOC, f4f8, 2, UF_FLOAT32, UF_FLOAT32, 0},
        {LOC, f4f8, 2, UF_FLOAT64, UF_FLOAT64, 1},
        {LOC, f4f8, 2, UF_FLOAT32, UF_FLOAT64, 1},
        {LOC, f4f8, 2, UF_INT16, UF_INT16, 0},   /* int16 fits float32 */
        {LOC, f4f8, 2, UF_INT32, UF_INT32, 1},   /* int32 does not */
        {LOC, f4f8, 2, UF_INT16, UF_INT32, 1},
        {LOC, f4f8, 2, UF_UINT8, UF_BOOL, 0},
        {LOC, f4f8, 2, UF_UINT16, UF_INT8, 0},
        {LOC, f4f8, 2, UF_INT64, UF_UINT64, 1},
        {LOC, f4f8, 2, UF_UINT32, UF_FLOAT32, 1},
        {LOC, f4f8, 2, UF_COMPLEX64, UF_FLOAT32, -1},
        {LOC, f4f8, 2, UF_INT64, UF_COMPLEX128, -1},
        {LOC, f8f4, 2, UF_FLOAT32, UF_FLOAT32, 0}, /* first match wins */
        {LOC, f8f4, 2, UF_INT8, UF_BOOL, 0},
        {LOC, f8f4, 1, UF_COMPLEX64, UF_FLOAT32, -1},
        {LOC, ints, 4, UF_BOOL, UF_BOOL, 0},
        {LOC, ints, 4, UF_UINT8, UF_INT8, 1},
        {LOC, ints, 4, UF_INT16, UF_UINT16, 1},
        {LOC, ints, 4, UF_UINT32, UF_INT8, 2},
        {LOC, ints, 4, UF_UINT64, UF_INT8, 3},
        {LOC, ints, 4, UF_INT8, UF_FLOAT32, 3},
        {LOC, ints, 4, UF_INT8, UF_COMPLEX64, -1},
        {LOC, ints, 0, UF_INT8, UF_INT8, -1},
    };

    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uf__ufunc *u = binary("f", rows[i].loops, rows[i].nloops, NULL,
                              NULL);
        const uf__ufunc_loop *loop = NULL;
        uf_error err;
        int rc = uf__ufunc_resolve(u, (uf_dtype[]){rows[i].a, rows[i].b},
                                   &loop, &err);

        if (rows[i].want < 0) {
            if (rc != UF_ERR_TYPE)
                uf_fail_at(rows[i].file, rows[i].line,
                           "expected UF_ERR_TYPE, got %s",
                           uf_err_name(rc));
        } else if (rc != 0) {
            uf_fail_at(rows[i].file, rows[i].line, "failed: %s",
                       err.message);
        } else if (loop != uf__ufunc_get_loop(u, rows[i].want)) {
            uf_fail_at(rows[i].file, rows[i].line,
                       "chose loop %s, expected loop %d",
                       uf_dtype_name(loop->types[0]), rows[i].want);
        }
        uf__ufunc_free(u);
    }
}

static void test_no_loop_messages(void **state)
{
    (void)state;
    static const char prefix[] =
        "ufunc 'f' not supported for the input types, and the inputs could "
        "not be safely coerced to any supported types according to the "
        "casting rule ''safe''; ";
    static const uf_dtype f4f8[] = {UF_FLOAT32, UF_FLOAT64};
    uf__ufunc *u = binary("f", f4f8, 2, NULL, NULL);
    const uf__ufunc_loop *loop = NULL;
    uf_error err;
    char want[1024];

    assert_int_equal(uf__ufunc_resolve(u, (uf_dtype[]){UF_INT64,
                                                       UF_COMPLEX128},
                                       &loop, &err), UF_ERR_TYPE);
    snprintf(want, sizeof want, "%sinputs (int64, complex128); loops: "
             "(float32, float32) -> float32, (float64, float64) -> float64",
             prefix);
    assert_string_equal(err.message, want);
    assert_null(loop);
    uf__ufunc_free(u);

    /* no loops at all; one input */
    u = uf__ufunc_new("f", 1, 1, NULL, NULL, &err);
    assert_int_equal(uf__ufunc_resolve(u, (uf_dtype[]){UF_FLOAT64}, &loop,
                                       &err), UF_ERR_TYPE);
    snprintf(want, sizeof want, "%sinputs (float64); loops: none", prefix);
    assert_string_equal(err.message, want);
    uf__ufunc_free(u);

    /* several outputs are listed as a tuple */
    u = uf__ufunc_new("f", 2, 2, NULL, NULL, &err);
    uf__ufunc_loop l = make_loop(4, (uf_dtype[]){UF_INT64, UF_INT64,
                                                 UF_INT64, UF_FLOAT64});
    uf_assert_ok(uf__ufunc_add_loop(u, &l, &err) == 0, &err);
    assert_int_equal(uf__ufunc_resolve(u, (uf_dtype[]){UF_FLOAT32, UF_BOOL},
                                       &loop, &err), UF_ERR_TYPE);
    snprintf(want, sizeof want, "%sinputs (float32, bool); loops: "
             "(int64, int64) -> (int64, float64)", prefix);
    assert_string_equal(err.message, want);

    /* hundreds of loops: the message is cut at the buffer, not overrun */
    for (int i = 0; i < 300; i++)
        uf_assert_ok(uf__ufunc_add_loop(u, &l, &err) == 0, &err);
    assert_int_equal(uf__ufunc_resolve(u, (uf_dtype[]){UF_FLOAT32, UF_BOOL},
                                       &loop, &err), UF_ERR_TYPE);
    assert_true(strncmp(err.message, prefix, sizeof prefix - 1) == 0);
    assert_true(strlen(err.message) == sizeof err.message - 1);
    uf__ufunc_free(u);
}

static void test_resolve_invalid(void **state)
{
    (void)state;
    static const uf_dtype f8[] = {UF_FLOAT64};
    uf__ufunc *u = binary("f", f8, 1, NULL, NULL);
    const uf__ufunc_loop *loop;
    uf_error err;

    assert_int_equal(uf__ufunc_resolve(u, (uf_dtype[]){UF_FLOAT64,
                                                       (uf_dtype)-1},
                                       &loop, &err), UF_ERR_INVALID);
    assert_int_equal(uf__ufunc_resolve(u, NULL, &loop, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf__ufunc_resolve(u, f8, NULL, &err), UF_ERR_INVALID);
    assert_int_equal(uf__ufunc_resolve(NULL, f8, &loop, &err),
                     UF_ERR_INVALID);
    uf__ufunc_free(u);
}

/* ---- compile hook ------------------------------------------------------ */

typedef struct hook_state {
    int calls;
    uf_dtype last[2];
    int mode; /* 0 exact, 1 fail, 2 no fn, 3 wrong types, 4 positive */
    int sleep_us;
} hook_state;

/* Makes (a, b) -> promote(a, b), as a lazy vectorize would. */
static int hook(void *cctx, const uf_dtype *in, uf__ufunc_loop *out,
                uf_error *err)
{
    hook_state *h = cctx;

    h->calls++;
    if (h->sleep_us)
        usleep((useconds_t)h->sleep_us);
    h->last[0] = in[0];
    h->last[1] = in[1];
    switch (h->mode) {
    case 1:
        return uf__error_set(err, UF_ERR_TYPING, "cannot type f(%s, %s)",
                             uf_dtype_name(in[0]), uf_dtype_name(in[1]));
    case 4:
        return 3;
    default:
        break;
    }
    out->types[0] = in[0];
    out->types[1] = in[1];
    out->types[2] = uf_promote_types(in[0], in[1]);
    out->fn = h->mode == 2 ? NULL : loop_b;
    if (h->mode == 3)
        out->types[0] = UF_BOOL;
    return 0;
}

static void test_compile_hook(void **state)
{
    (void)state;
    static const uf_dtype f8[] = {UF_FLOAT64};
    hook_state h = {0};
    uf__ufunc *u = binary("lazy", f8, 1, hook, &h);
    const uf__ufunc_loop *loop, *first;
    uf_error err;

    /* a declared loop that fits: no compilation */
    uf_assert_ok(uf__ufunc_resolve(u, (uf_dtype[]){UF_INT32, UF_FLOAT32},
                                   &loop, &err) == 0, &err);
    assert_int_equal(h.calls, 0);
    assert_ptr_equal(loop, uf__ufunc_get_loop(u, 0));

    /* complex inputs: compiled once for the exact types, then reused */
    uf_assert_ok(uf__ufunc_resolve(u, (uf_dtype[]){UF_COMPLEX64, UF_INT8},
                                   &first, &err) == 0, &err);
    assert_int_equal(h.calls, 1);
    assert_int_equal(h.last[0], UF_COMPLEX64);
    assert_int_equal(h.last[1], UF_INT8);
    assert_int_equal(uf__ufunc_nloops(u), 2);
    assert_ptr_equal(first, uf__ufunc_get_loop(u, 1));
    assert_ptr_equal(first->fn, loop_b);
    assert_int_equal(first->types[2], UF_COMPLEX64);
    uf_assert_ok(uf__ufunc_resolve(u, (uf_dtype[]){UF_COMPLEX64, UF_INT8},
                                   &loop, &err) == 0, &err);
    assert_int_equal(h.calls, 1);
    assert_ptr_equal(loop, first);
    /* (complex64, bool) casts safely to the compiled (complex64, int8) */
    uf_assert_ok(uf__ufunc_resolve(u, (uf_dtype[]){UF_COMPLEX64, UF_BOOL},
                                   &loop, &err) == 0, &err);
    assert_int_equal(h.calls, 1);
    assert_ptr_equal(loop, first);
    /* a new combination compiles again */
    uf_assert_ok(uf__ufunc_resolve(u, (uf_dtype[]){UF_COMPLEX128, UF_INT8},
                                   &loop, &err) == 0, &err);
    assert_int_equal(h.calls, 2);
    assert_int_equal(uf__ufunc_nloops(u), 3);

    /* the hook's failure is the caller's, and nothing is kept */
    h.mode = 1;
    assert_int_equal(uf__ufunc_resolve(u, (uf_dtype[]){UF_INT64,
                                                       UF_COMPLEX128},
                                       &loop, &err), UF_ERR_TYPING);
    assert_string_equal(err.message, "cannot type f(int64, complex128)");
    assert_int_equal(uf__ufunc_nloops(u), 3);
    /* bad loops from the hook are refused, not run */
    static const struct {
        const char *file;
        int line;
        int mode;
        const char *msg;
    } bad[] = {
        {LOC, 2, "compile hook: ufunc 'lazy' loop has no function"},
        {LOC, 3, "compile hook: ufunc 'lazy' got a loop whose input types "
                 "the inputs cannot be safely cast to"},
        {LOC, 4, "compiling ufunc 'lazy' failed (status 3)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        h.mode = bad[i].mode;
        if (uf__ufunc_resolve(u, (uf_dtype[]){UF_INT64, UF_COMPLEX128},
                              &loop, &err) != UF_ERR_INTERNAL ||
            strcmp(err.message, bad[i].msg) != 0)
            uf_fail_at(bad[i].file, bad[i].line, "got %s: %s",
                       uf_err_name(err.code), err.message);
    }
    assert_int_equal(uf__ufunc_nloops(u), 3);
    uf__ufunc_free(u);
}

/* Loop pointers stay valid while the list grows (the list is an array of
 * separately allocated loops). */
static void test_loop_pointers_stable(void **state)
{
    (void)state;
    static const uf_dtype f8[] = {UF_FLOAT64};
    hook_state h = {0};
    uf__ufunc *u = binary("f", f8, 1, hook, &h);
    const uf__ufunc_loop *first, *loop;
    uf_error err;

    uf_assert_ok(uf__ufunc_resolve(u, (uf_dtype[]){UF_FLOAT64, UF_FLOAT64},
                                   &first, &err) == 0, &err);
    for (int i = 0; i < 200; i++) {
        uf__ufunc_loop l = make_loop(3, (uf_dtype[]){UF_INT8, UF_INT8,
                                                     UF_INT8});
        uf_assert_ok(uf__ufunc_add_loop(u, &l, &err) == 0, &err);
    }
    uf_assert_ok(uf__ufunc_resolve(u, (uf_dtype[]){UF_FLOAT64, UF_FLOAT64},
                                   &loop, &err) == 0, &err);
    assert_ptr_equal(loop, first);
    assert_int_equal(first->types[0], UF_FLOAT64);
    assert_ptr_equal(first->fn, loop_a);
    assert_int_equal(h.calls, 0);
    uf__ufunc_free(u);
}

/* ---- threads ----------------------------------------------------------- */

typedef struct thread_arg {
    uf__ufunc *u;
    const uf__ufunc_loop *loop;
    int rc;
} thread_arg;

static void *resolve_thread(void *p)
{
    thread_arg *a = p;
    uf_error err;

    a->rc = uf__ufunc_resolve(a->u, (uf_dtype[]){UF_COMPLEX64, UF_INT16},
                              &a->loop, &err);
    return NULL;
}

/* Threads meeting the same new types at once compile them once. */
static void test_concurrent_resolve(void **state)
{
    (void)state;
    hook_state h = {.sleep_us = 20000};
    uf__ufunc *u = binary("f", NULL, 0, hook, &h);
    pthread_t t[6];
    thread_arg a[6];

    for (int i = 0; i < 6; i++) {
        a[i] = (thread_arg){u, NULL, -1};
        assert_int_equal(pthread_create(&t[i], NULL, resolve_thread, &a[i]),
                         0);
    }
    for (int i = 0; i < 6; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(h.calls, 1);
    assert_int_equal(uf__ufunc_nloops(u), 1);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(a[i].rc, 0);
        assert_ptr_equal(a[i].loop, uf__ufunc_get_loop(u, 0));
    }
    uf__ufunc_free(u);
}

/* ---- out of memory ----------------------------------------------------- */

/* Builds a ufunc, adds loops, compiles one: each allocation fails in turn;
 * every failure is UF_ERR_NOMEM and leaves nothing allocated. */
static int oom_scenario(hook_state *h, uf_error *err)
{
    uf__ufunc *u = uf__ufunc_new("f", 2, 1, hook, h, err);
    const uf__ufunc_loop *loop;
    int rc = 0;

    if (u == NULL)
        return err->code;
    for (int i = 0; i < 6 && rc == 0; i++) {
        uf__ufunc_loop l = make_loop(3, (uf_dtype[]){UF_INT8, UF_INT8,
                                                     UF_INT8});
        rc = uf__ufunc_add_loop(u, &l, err);
    }
    if (rc == 0)
        rc = uf__ufunc_resolve(u, (uf_dtype[]){UF_FLOAT64, UF_INT8}, &loop,
                               err);
    if (rc == 0 && uf__ufunc_nloops(u) != 7)
        rc = uf__error_set(err, UF_ERR_INTERNAL, "lost a loop");
    uf__ufunc_free(u);
    return rc;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    long live = uf__alloc_live();
    int n;

    for (n = 1; n < 100; n++) {
        hook_state h = {0};
        uf_error err;
        int rc;

        uf__alloc_fail_at(n);
        rc = oom_scenario(&h, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        assert_int_equal(uf__alloc_live(), live);
        if (!failed) {
            uf_assert_ok(rc == 0, &err);
            break;
        }
        if (rc != UF_ERR_NOMEM)
            fail_msg("allocation %d failed but got %s: %s", n,
                     uf_err_name(rc), err.message);
    }
    assert_true(n > 4 && n < 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_and_properties),
        cmocka_unit_test(test_new_invalid),
        cmocka_unit_test(test_add_loop_invalid),
        cmocka_unit_test(test_first_match_dispatch),
        cmocka_unit_test(test_no_loop_messages),
        cmocka_unit_test(test_resolve_invalid),
        cmocka_unit_test(test_compile_hook),
        cmocka_unit_test(test_loop_pointers_stable),
        cmocka_unit_test(test_concurrent_resolve),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
