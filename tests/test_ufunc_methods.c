/* The ufunc methods (reduce, accumulate, outer) against brute-force C
 * loops on int64 kernels, over many shapes, views and axes: the engine's
 * loop choices (runs along the inner axis, rows for outer axes, short
 * inner axes swapped, first-element boxes, negative strides) all have to
 * give what the definition gives. Also out= and argument errors of
 * accumulate and outer. The Numba/NumPy oracle is test_reduce.c. */
#include "test_util.h"

#define KERNELS UF_TEST_DATA_DIR "/../kernels/reduce_kernels.py"

typedef struct fixture {
    uf_context *ctx;
    uf_module *m;
} fixture;

static int setup(void **state)
{
    static fixture fx;
    uf_error err;
    fx.ctx = uf_context_new(&err);
    fx.m = fx.ctx ? uf_module_load(fx.ctx, KERNELS, &err) : NULL;
    if (fx.m == NULL)
        return -1;
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    uf_module_free(fx->m);
    uf_context_free(fx->ctx);
    return 0;
}

static uf_func *get(void **state, const char *name)
{
    fixture *fx = *state;
    uf_error err;
    uf_func *f = uf_module_get(fx->m, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

/* The kernels as C (int64 arithmetic wraps, as the compiled code). */
static int64_t k_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}
static int64_t k_digit(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * 10u + (uint64_t)b);
}
static int64_t k_min(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t k_sub(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}

typedef struct kernel {
    const char *name;
    int64_t (*f)(int64_t, int64_t);
    bool reorderable;
} kernel;

static const kernel kernels[] = {
    {"vadd", k_add, true}, {"pymin", k_min, true},
    {"first_digit", k_digit, false}, {"sub", k_sub, false},
};

static int64_t at(const uf_array *a, const int64_t *ix)
{
    uf_error err;
    return *(const int64_t *)uf_array_getptr(a, ix, &err);
}

/* Advances a row-major multi-index over shape; false when done. */
static bool step(int64_t *ix, const int64_t *shape, int nd,
                 const bool *skip)
{
    for (int i = nd - 1; i >= 0; i--) {
        if (skip && skip[i])
            continue;
        if (++ix[i] < shape[i])
            return true;
        ix[i] = 0;
    }
    return false;
}

/* reduce by definition: for each kept index, the reduced ones in
 * row-major order, from the first element. */
static int64_t brute_reduce(const kernel *k, const uf_array *x,
                            const bool *red, const int64_t *kept_ix)
{
    int nd = uf_array_ndim(x);
    const int64_t *shape = uf_array_shape(x);
    int64_t ix[UF_MAXDIMS];
    bool keep[UF_MAXDIMS];
    for (int i = 0; i < nd; i++) {
        ix[i] = red[i] ? 0 : kept_ix[i];
        keep[i] = !red[i];
    }
    int64_t acc = at(x, ix);
    while (step(ix, shape, nd, keep))
        acc = k->f(acc, at(x, ix));
    return acc;
}

typedef struct vcase {
    const char *file;
    int line;
    const char *view;
    int nd;
    int64_t shape[4];
} vcase;

/* The base arrays and views the brute-force comparisons run on. */
static const vcase views[] = {
    {LOC, "-", 1, {37}},
    {LOC, "::-3", 1, {200}},
    {LOC, "-", 2, {5, 7}},
    {LOC, "::-1, 1:", 2, {6, 9}},
    {LOC, ":, ::2", 2, {300, 4}},
    {LOC, ":, 0:3", 2, {3, 300}},
    {LOC, "-", 3, {2, 3, 4}},
    {LOC, "::-1, :, ::-2", 3, {4, 5, 6}},
    {LOC, "1:, ::3, :", 3, {3, 70, 2}},
    {LOC, "-", 4, {2, 3, 4, 5}},
    {LOC, "::-1, ::2, 1:, ::-1", 4, {3, 4, 3, 5}},
};

static uf_array *make_view(const vcase *v, bool transpose, uf_error *err)
{
    int64_t n = 1;
    for (int i = 0; i < v->nd; i++)
        n *= v->shape[i];
    uf_array *a = uf_arange(0, (double)n, 1, UF_INT64, err);
    int64_t *p = uf_array_data(a);
    for (int64_t i = 0; i < n; i++)
        p[i] = (i * 7919 + 13) % 23 - 9;
    uf_array *b = uf_array_reshape(a, v->nd, v->shape, UF_ORDER_C, false, err);
    uf_array_release(a);
    if (strcmp(v->view, "-") != 0) {
        a = uf_array_slice(b, v->view, err);
        uf_array_release(b);
        b = a;
    }
    if (transpose) {
        a = uf_array_transpose(b, NULL, err);
        uf_array_release(b);
        b = a;
    }
    return b;
}

static void test_reduce_brute(void **state)
{
    uf_error err;
    int checked = 0;
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        const kernel *kern = &kernels[k];
        uf_func *f = get(state, kern->name);
        for (size_t v = 0; v < sizeof views / sizeof views[0]; v++) {
            for (int tr = 0; tr < 2; tr++) {
                uf_array *x = make_view(&views[v], tr, &err);
                int nd = uf_array_ndim(x);
                for (int mask = 1; mask < (1 << nd); mask++) {
                    int axes[4], naxes = 0;
                    bool red[UF_MAXDIMS] = {false};
                    for (int i = 0; i < nd; i++)
                        if (mask >> i & 1) {
                            axes[naxes++] = i;
                            red[i] = true;
                        }
                    if (naxes > 1 && !kern->reorderable)
                        continue;
                    uf_call_options o = {.size = sizeof o,
                                         .axes_mode = UF_AXES_LIST,
                                         .naxes = naxes, .axes = axes,
                                         .keepdims = true};
                    uf_array *out = NULL;
                    if (uf_reduce(f, x, &out, &o, &err) != 0)
                        uf_fail_at(views[v].file, views[v].line,
                                   "%s axes mask %d: %s", kern->name, mask,
                                   err.message);
                    int64_t ix[UF_MAXDIMS] = {0}, oshape[UF_MAXDIMS];
                    for (int i = 0; i < nd; i++)
                        oshape[i] = red[i] ? 1 : uf_array_shape(x)[i];
                    do {
                        int64_t want = brute_reduce(kern, x, red, ix);
                        int64_t got = at(out, ix);
                        if (got != want)
                            uf_fail_at(views[v].file, views[v].line,
                                       "%s%s axes mask %d: %lld, want %lld",
                                       kern->name, tr ? " (transposed)" : "",
                                       mask, (long long)got,
                                       (long long)want);
                        checked++;
                    } while (step(ix, oshape, nd, NULL));
                    uf_array_release(out);
                }
                uf_array_release(x);
            }
        }
    }
    print_message("%d reduced values checked\n", checked);
}

static void test_accumulate_brute(void **state)
{
    uf_error err;
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        const kernel *kern = &kernels[k];
        uf_func *f = get(state, kern->name);
        for (size_t v = 0; v < sizeof views / sizeof views[0]; v++) {
            for (int tr = 0; tr < 2; tr++) {
                uf_array *x = make_view(&views[v], tr, &err);
                int nd = uf_array_ndim(x);
                const int64_t *shape = uf_array_shape(x);
                for (int ax = 0; ax < nd; ax++) {
                    uf_call_options o = {.size = sizeof o,
                                         .axes_mode = UF_AXES_LIST,
                                         .naxes = 1, .axes = &ax};
                    uf_array *out = NULL;
                    if (uf_accumulate(f, x, &out, &o, &err) != 0)
                        uf_fail_at(views[v].file, views[v].line, "%s: %s",
                                   kern->name, err.message);
                    int64_t ix[UF_MAXDIMS] = {0};
                    do {
                        int64_t jx[UF_MAXDIMS];
                        memcpy(jx, ix, sizeof jx);
                        jx[ax] = 0;
                        int64_t want = at(x, jx);
                        for (jx[ax] = 1; jx[ax] <= ix[ax]; jx[ax]++)
                            want = kern->f(want, at(x, jx));
                        if (at(out, ix) != want)
                            uf_fail_at(views[v].file, views[v].line,
                                       "%s%s axis %d: %lld, want %lld",
                                       kern->name, tr ? " (transposed)" : "",
                                       ax, (long long)at(out, ix),
                                       (long long)want);
                    } while (step(ix, shape, nd, NULL));
                    uf_array_release(out);
                }
                uf_array_release(x);
            }
        }
    }
}

static void test_accumulate_out(void **state)
{
    uf_error err;
    uf_func *f = get(state, "first_digit");
    uf_array *a = uf_arange(1, 7, 1, UF_INT64, &err);
    uf_array *m = uf_array_reshape(a, 2, (int64_t[]){2, 3}, UF_ORDER_C,
                                   false, &err);
    /* in place: the input is the output */
    uf_array *out = m;
    uf_call_options o = {.size = sizeof o, .axes_mode = UF_AXES_LIST,
                         .naxes = 1, .axes = (int[]){-1}};
    uf_assert_ok(uf_accumulate(f, m, &out, &o, &err) == 0, &err);
    const int64_t *p = uf_array_data(a);
    assert_true(p[0] == 1 && p[1] == 12 && p[2] == 123 && p[3] == 4 &&
                p[4] == 45 && p[5] == 456);
    /* a float output (same_kind from int64 is fine), a bad shape */
    uf_array *fo = uf_zeros(UF_FLOAT64, 2, (int64_t[]){2, 3}, UF_ORDER_F,
                            &err);
    out = fo;
    o.axes = (int[]){0};
    uf_assert_ok(uf_accumulate(f, m, &out, &o, &err) == 0, &err);
    double v;
    v = *(double *)uf_array_getptr(fo, (int64_t[]){1, 2}, &err);
    assert_true(v == 123 * 10 + 456); /* m is accumulated already */
    uf_array *bad = uf_zeros(UF_INT64, 1, (int64_t[]){6}, UF_ORDER_C, &err);
    assert_int_equal(uf_accumulate(f, m, &bad, &o, &err), UF_ERR_SHAPE);
    assert_string_equal(err.message, "accumulate of 'first_digit': the "
                        "output must have the input's shape (2, 3) (out= "
                        "has shape (6,))");
    /* initial is not an accumulate argument; axes */
    int64_t one = 1;
    o.initial = uf_full(UF_INT64, 0, NULL, &one, UF_INT64, UF_ORDER_C, &err);
    out = NULL;
    assert_int_equal(uf_accumulate(f, m, &out, &o, &err), UF_ERR_INVALID);
    uf_array_release(o.initial);
    o = (uf_call_options){.size = sizeof o, .axes_mode = UF_AXES_LIST};
    assert_int_equal(uf_accumulate(f, m, &out, &o, &err), UF_ERR_VALUE);
    assert_string_equal(err.message, "accumulate does not allow multiple "
                        "axes");
    o = (uf_call_options){.size = sizeof o, .axes_mode = UF_AXES_LIST,
                          .naxes = 1, .axes = (int[]){-3}};
    assert_int_equal(uf_accumulate(f, m, &out, &o, &err), UF_ERR_INDEX);
    assert_string_equal(err.message, "axis -3 is out of bounds for array "
                        "of dimension 2");
    uf_array_release(bad);
    uf_array_release(fo);
    uf_array_release(m);
    uf_array_release(a);
}

static void test_outer(void **state)
{
    uf_error err;
    uf_array *a = uf_arange(1, 4, 1, UF_INT64, &err);
    uf_array *b = uf_arange(0, 4, 1, UF_INT64, &err);
    uf_array *out = NULL;
    /* a lazy kernel compiles on first use */
    uf_assert_ok(uf_outer(get(state, "lazy_add"), a, b, &out, NULL, &err) ==
                     0, &err);
    assert_int_equal(uf_array_ndim(out), 2);
    assert_int_equal(*(int64_t *)uf_array_getptr(out, (int64_t[]){2, 3}, &err),
                     6);
    /* into a given output; the wrong shape */
    uf_array *o2 = uf_zeros(UF_INT64, 2, (int64_t[]){3, 4}, UF_ORDER_F, &err);
    uf_array *given = o2;
    uf_assert_ok(uf_outer(get(state, "first_digit"), a, b, &o2, NULL, &err) ==
                     0, &err);
    assert_ptr_equal(o2, given);
    assert_int_equal(*(int64_t *)uf_array_getptr(o2, (int64_t[]){1, 3}, &err),
                     23);
    uf_array *bad = uf_zeros(UF_INT64, 2, (int64_t[]){4, 3}, UF_ORDER_C, &err);
    assert_int_equal(uf_outer(get(state, "first_digit"), a, b, &bad, NULL,
                              &err), UF_ERR_SHAPE);
    /* kinds that have no outer */
    assert_int_equal(uf_outer(get(state, "sum_reduce"), a, b, &out, NULL,
                              &err), UF_ERR_INVALID);
    assert_string_equal(err.message, "'sum_reduce' is not a vectorize "
                        "kernel: it has no outer method");
    assert_int_equal(uf_outer(get(state, "unary"), a, b, &out, NULL, &err),
                     UF_ERR_VALUE);
    assert_int_equal(uf_outer(NULL, a, b, &out, NULL, &err), UF_ERR_INVALID);
    uf_array_release(bad);
    uf_array_release(o2);
    uf_array_release(out);
    uf_array_release(b);
    uf_array_release(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_brute),
        cmocka_unit_test(test_accumulate_brute),
        cmocka_unit_test(test_accumulate_out),
        cmocka_unit_test(test_outer),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
