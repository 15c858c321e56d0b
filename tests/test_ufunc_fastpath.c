/* The small-call shortcuts of the ufunc call path against brute-force C:
 * the direct run of calls whose operands are all C-contiguous and of the
 * loop's types (ufunc_call.c: simple_call) must give what the general path
 * gives, and every call just outside it (casts, F order, reversed and
 * strided views, broadcasting, overlap, masks, empty and 0-d arrays, the
 * parallel target) must still go the general way with the same result;
 * the memoized loop resolution (ufunc.c) must pick the loop the loop list
 * gives, beyond its slots too, and compile a lazy loop once. */
#include <stdatomic.h>

#include "test_util.h"

#include "common/error_internal.h"
#include "ufunc/ufunc.h"

#define AT(p, i, s, T) (*(T *)((p) + (i) * (s)))

/* out = a + b; aux counts the loop's calls (atomically: on the parallel
 * target chunks call it from several threads at once). */
#define ADD_LOOP(name, T)                                                  \
    static int name(void *ctx, char *const *d, const int64_t *n,           \
                    const int64_t *s, void *aux)                           \
    {                                                                      \
        (void)ctx;                                                         \
        if (aux != NULL)                                                   \
            atomic_fetch_add((atomic_int *)aux, 1);                        \
        for (int64_t i = 0; i < n[0]; i++)                                 \
            AT(d[2], i, s[2], T) = AT(d[0], i, s[0], T) +                  \
                                   AT(d[1], i, s[1], T);                   \
        return 0;                                                          \
    }

ADD_LOOP(add_f4, float)
ADD_LOOP(add_f8, double)
ADD_LOOP(add_i8, int64_t)

static atomic_int loop_calls;

static void add_loop(uf__ufunc *u, uf_dtype t, uf__strided_loop fn)
{
    uf__ufunc_loop l;
    uf_error err;

    memset(&l, 0, sizeof l);
    l.types[0] = l.types[1] = l.types[2] = t;
    l.fn = fn;
    l.aux = &loop_calls;
    uf_assert_ok(uf__ufunc_add_loop(u, &l, &err) == 0, &err);
}

/* float32, float64 then int64 loops: int8 resolves to float32, int32 to
 * float64 (NumPy's safe casts), int64 to float64 (the first that fits). */
static uf__ufunc *make_add(void)
{
    uf_error err;
    uf__ufunc *u = uf__ufunc_new("add", 2, 1, NULL, NULL, &err);

    uf_assert_ok(u != NULL, &err);
    add_loop(u, UF_FLOAT32, add_f4);
    add_loop(u, UF_FLOAT64, add_f8);
    add_loop(u, UF_INT64, add_i8);
    return u;
}

static double get(const uf_array *a, const int64_t *idx)
{
    const char *p = uf_array_data(a);

    /* (a length-1 axis is broadcast) */
    for (int k = 0; k < uf_array_ndim(a); k++)
        if (uf_array_shape(a)[k] > 1)
            p += idx[k] * uf_array_strides(a)[k];
    switch (uf_array_dtype(a)) {
    case UF_FLOAT32: return *(const float *)p;
    case UF_FLOAT64: return *(const double *)p;
    case UF_INT8: return *(const int8_t *)p;
    case UF_INT32: return *(const int32_t *)p;
    case UF_INT64: return (double)*(const int64_t *)p;
    default: fail_msg("unexpected dtype %d", (int)uf_array_dtype(a));
    }
    return 0;
}

/* A C-ordered array filled with small exact values (i * 0.5 + seed, or
 * i + seed for integers), every type holding them exactly. */
static uf_array *filled(uf_dtype dt, int nd, const int64_t *shape, int seed)
{
    uf_error err;
    uf_array *a = uf_empty(dt, nd, shape, UF_ORDER_C, &err);
    int64_t n = 1;

    uf_assert_ok(a != NULL, &err);
    for (int k = 0; k < nd; k++)
        n *= shape[k];
    for (int64_t i = 0; i < n; i++) {
        char *p = (char *)uf_array_data(a) + i * (int64_t)uf_dtype_itemsize(dt);
        double v = (dt == UF_FLOAT32 || dt == UF_FLOAT64) ? i * 0.5 + seed
                                                          : (double)(i % 50 + seed);
        switch (dt) {
        case UF_FLOAT32: *(float *)p = (float)v; break;
        case UF_FLOAT64: *(double *)p = v; break;
        case UF_INT8: *(int8_t *)p = (int8_t)v; break;
        case UF_INT32: *(int32_t *)p = (int32_t)v; break;
        case UF_INT64: *(int64_t *)p = (int64_t)v; break;
        default: fail();
        }
    }
    return a;
}

/* Operand layouts: C, F (a transposed C array), R (last axis reversed),
 * S (every other element of the last axis), B (a row broadcast up). */
static uf_array *operand(char kind, uf_dtype dt, int nd, const int64_t *shape,
                         int seed)
{
    uf_error err;
    uf_array *base, *v = NULL;
    int64_t s2[UF_MAXDIMS];

    switch (kind) {
    case 'C':
        return filled(dt, nd, shape, seed);
    case 'F':
        for (int k = 0; k < nd; k++)
            s2[k] = shape[nd - 1 - k];
        base = filled(dt, nd, s2, seed);
        v = uf_array_transpose(base, NULL, &err);
        break;
    case 'R':
        base = filled(dt, nd, shape, seed);
        v = uf_array_slice(base, "..., ::-1", &err);
        break;
    case 'S':
        memcpy(s2, shape, (size_t)nd * sizeof *s2);
        s2[nd - 1] *= 2;
        base = filled(dt, nd, s2, seed);
        v = uf_array_slice(base, "..., ::2", &err);
        break;
    case 'B':
        memcpy(s2, shape, (size_t)nd * sizeof *s2);
        s2[0] = 1;
        base = filled(dt, nd, s2, seed);
        v = uf_array_slice(base, "...", &err);
        break;
    default:
        fail();
        return NULL;
    }
    uf_assert_ok(v != NULL, &err);
    uf_array_release(base);
    return v;
}

typedef struct fcase {
    const char *name;
    uf_dtype ta, tb;
    char ka, kb;
    /* 'N' allocated, 'C'/'F' given of dtype tout, 'A' the input a itself
     * (a same view: in place), 'P' a's buffer one element on (overlap). */
    char kout;
    uf_dtype tout;
    int nd;
    int64_t shape[3];
    const char *target;
    bool where;
    uf_dtype want; /* the output's dtype */
    char order;    /* of an allocated output: 'C', 'F' or '-' (any) */
} fcase;

static const fcase cases[] = {
    /* the shortcut */
    {"f8 1-d", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'N', 0, 1, {10}, NULL, false, UF_FLOAT64, 'C'},
    {"f8 1-d out", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'C', UF_FLOAT64, 1, {10}, NULL, false, UF_FLOAT64, '-'},
    {"f8 0-d", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'N', 0, 0, {0}, NULL, false, UF_FLOAT64, 'C'},
    {"f8 2-d", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'N', 0, 2, {3, 4}, NULL, false, UF_FLOAT64, 'C'},
    {"f8 3-d len-1 axes", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'N', 0, 3, {3, 1, 1}, NULL, false, UF_FLOAT64, 'C'},
    {"f4 2-d out", UF_FLOAT32, UF_FLOAT32, 'C', 'C', 'C', UF_FLOAT32, 2, {2, 5}, NULL, false, UF_FLOAT32, '-'},
    {"f4 in place", UF_FLOAT32, UF_FLOAT32, 'C', 'C', 'A', 0, 1, {7}, NULL, false, UF_FLOAT32, '-'},
    {"i8 -> f8 loop", UF_INT64, UF_INT64, 'C', 'C', 'N', 0, 1, {7}, NULL, false, UF_FLOAT64, 'C'},
    {"f8 parallel", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'N', 0, 1, {10}, "parallel", false, UF_FLOAT64, 'C'},
    {"f8 parallel out", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'C', UF_FLOAT64, 2, {3, 3}, "parallel", false, UF_FLOAT64, '-'},
    {"f8 parallel 0-d", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'N', 0, 0, {0}, "parallel", false, UF_FLOAT64, 'C'},
    {"f8 large", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'N', 0, 1, {70000}, NULL, false, UF_FLOAT64, 'C'},
    {"f8 large parallel", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'N', 0, 1, {70000}, "parallel", false, UF_FLOAT64, 'C'},
    /* just outside it */
    {"i8 in, f4 loop", UF_INT8, UF_INT8, 'C', 'C', 'N', 0, 1, {10}, NULL, false, UF_FLOAT32, 'C'},
    {"i4 + f8", UF_INT32, UF_FLOAT64, 'C', 'C', 'N', 0, 2, {3, 4}, NULL, false, UF_FLOAT64, 'C'},
    {"out cast f8->f4", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'C', UF_FLOAT32, 1, {10}, NULL, false, UF_FLOAT32, '-'},
    {"out cast f4->f8", UF_FLOAT32, UF_FLOAT32, 'C', 'C', 'C', UF_FLOAT64, 0, {0}, NULL, false, UF_FLOAT64, '-'},
    {"F inputs", UF_FLOAT64, UF_FLOAT64, 'F', 'F', 'N', 0, 2, {3, 4}, NULL, false, UF_FLOAT64, 'F'},
    {"F output", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'F', UF_FLOAT64, 2, {3, 4}, NULL, false, UF_FLOAT64, '-'},
    {"C and F", UF_FLOAT64, UF_FLOAT64, 'C', 'F', 'N', 0, 2, {3, 4}, NULL, false, UF_FLOAT64, 'C'},
    {"reversed", UF_FLOAT64, UF_FLOAT64, 'R', 'C', 'N', 0, 1, {10}, NULL, false, UF_FLOAT64, 'C'},
    {"strided", UF_FLOAT64, UF_FLOAT64, 'C', 'S', 'C', UF_FLOAT64, 2, {3, 4}, NULL, false, UF_FLOAT64, '-'},
    {"broadcast row", UF_FLOAT64, UF_FLOAT64, 'B', 'C', 'N', 0, 2, {3, 4}, NULL, false, UF_FLOAT64, 'C'},
    {"partial overlap", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'P', UF_FLOAT64, 1, {10}, NULL, false, UF_FLOAT64, '-'},
    {"where mask", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'C', UF_FLOAT64, 1, {10}, NULL, true, UF_FLOAT64, '-'},
    {"empty", UF_FLOAT64, UF_FLOAT64, 'C', 'C', 'N', 0, 2, {0, 4}, NULL, false, UF_FLOAT64, '-'},
    {"reversed parallel", UF_FLOAT64, UF_FLOAT64, 'R', 'R', 'N', 0, 1, {10}, "parallel", false, UF_FLOAT64, 'C'},
};

static void check_case(uf__ufunc *u, const fcase *t)
{
    uf_error err;
    uf_array *a = operand(t->ka, t->ta, t->nd, t->shape, 1);
    uf_array *b = operand(t->kb, t->tb, t->nd, t->shape, 3);
    uf_array *out = NULL, *keep = NULL, *where = NULL, *base = NULL;
    uf_array *in[2] = {a, b}, *a_copy = uf_array_copy(a, UF_ORDER_C, &err);
    uf_call_options opts;
    int64_t n = 1, idx[3] = {0, 0, 0};
    int nd = t->nd;

    memset(&opts, 0, sizeof opts);
    opts.size = sizeof opts;
    opts.target = t->target;
    for (int k = 0; k < nd; k++)
        n *= t->shape[k];
    switch (t->kout) {
    case 'C': out = uf_zeros(t->tout, nd, t->shape, UF_ORDER_C, &err); break;
    case 'F': out = uf_zeros(t->tout, nd, t->shape, UF_ORDER_F, &err); break;
    case 'A': out = uf_array_retain(a); break;
    case 'P': {
        int64_t n1 = n + 1;
        base = filled(t->ta, 1, &n1, 1);
        uf_array_release(a);
        uf_array_release(a_copy);
        a = uf_array_slice(base, ":-1", &err);
        a_copy = uf_array_copy(a, UF_ORDER_C, &err);
        in[0] = a;
        out = uf_array_slice(base, "1:", &err);
        break;
    }
    default: break;
    }
    if (t->where) {
        bool m[10] = {1, 0, 1, 1, 0, 0, 1, 0, 1, 1};
        where = uf_array_wrap(UF_BOOL, 1, &n, NULL, m, false, NULL, NULL,
                              &err);
        uf_assert_ok(where != NULL, &err);
        opts.where = where;
        where = uf_array_copy(where, UF_ORDER_C, &err);
        uf_array_release((uf_array *)opts.where);
        opts.where = where;
    }
    keep = out;
    if (out != NULL)
        uf_array_retain(out);
    if (uf__ufunc_call_target(u, NULL, in, 2, &out, 1, &opts, &err) != 0)
        fail_msg("%s: %s", t->name, err.message);
    if (keep != NULL)
        assert_ptr_equal(out, keep);
    assert_int_equal(uf_array_dtype(out), t->want);
    assert_int_equal(uf_array_ndim(out), nd);
    for (int k = 0; k < nd; k++)
        assert_int_equal(uf_array_shape(out)[k], t->shape[k]);
    if (t->order == 'C' && n > 0)
        assert_true(uf_array_flags(out) & UF_ARRAY_C_CONTIGUOUS);
    if (t->order == 'F' && n > 0)
        assert_true(uf_array_flags(out) & UF_ARRAY_F_CONTIGUOUS);
    for (int64_t i = 0; i < n; i++) {
        int64_t r = i;
        for (int k = nd - 1; k >= 0; k--) {
            idx[k] = r % t->shape[k];
            r /= t->shape[k];
        }
        double want = get(a_copy, idx) + get(b, idx);
        if (t->where && !((const bool *)uf_array_data(where))[i])
            want = 0; /* untouched zeros */
        if (get(out, idx) != want)
            fail_msg("%s: element %lld is %g, expected %g", t->name,
                     (long long)i, get(out, idx), want);
    }
    uf_array_release(keep);
    uf_array_release(out);
    uf_array_release(where);
    uf_array_release(a);
    uf_array_release(a_copy);
    uf_array_release(b);
    uf_array_release(base);
}

static void test_cases(void **state)
{
    uf__ufunc *u = make_add();

    (void)state;
    /* twice: the second time every resolution is memoized */
    for (int rep = 0; rep < 2; rep++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            check_case(u, &cases[i]);
    uf__ufunc_free(u);
}

/* A flat call (the shortcut or not) runs the loop once over everything. */
static void test_one_loop_call(void **state)
{
    uf__ufunc *u = make_add();
    int64_t n = 1000;
    uf_array *a = filled(UF_FLOAT64, 1, &n, 0), *out = NULL;
    uf_array *in[2] = {a, a};
    uf_error err;

    (void)state;
    atomic_store(&loop_calls, 0);
    uf_assert_ok(uf__ufunc_call(u, in, 2, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(atomic_load(&loop_calls), 1);
    assert_true(get(out, (int64_t[]){999}) == 999.0);
    uf_array_release(out);
    uf_array_release(a);
    uf__ufunc_free(u);
}

/* out[i] = in[i] + 1 (float64, one or two outputs), noting the loop
 * context's `independent` (the caller's promise that the loop need not
 * check its operands for overlap). */
static int last_independent;

static int inc_loop(void *ctx, char *const *d, const int64_t *n,
                    const int64_t *s, void *aux)
{
    int nout = *(int *)aux;
    last_independent = ((const uf__loop_ctx *)ctx)->independent;
    for (int64_t i = 0; i < n[0]; i++)
        for (int o = 0; o < nout; o++)
            AT(d[1 + o], i, s[1 + o], double) =
                AT(d[0], i, s[0], double) + 1.0;
    return 0;
}

static uf__ufunc *make_inc(int *nout)
{
    uf_error err;
    uf__ufunc *u = uf__ufunc_new("inc", 1, *nout, NULL, NULL, &err);
    uf__ufunc_loop l;

    uf_assert_ok(u != NULL, &err);
    memset(&l, 0, sizeof l);
    l.types[0] = l.types[1] = l.types[2] = UF_FLOAT64;
    l.fn = inc_loop;
    l.aux = nout;
    uf_assert_ok(uf__ufunc_add_loop(u, &l, &err) == 0, &err);
    return u;
}

/* The promise is made only by the direct run of a one-output call, whose
 * overlap check covers it: an input and its output either the same view
 * or apart. A partly overlapping output (x[1:] = x[:-1] + 1) goes the
 * general way (a copy of the input first, as NumPy), without it. */
static void test_independent_promise(void **state)
{
    (void)state;
    uf_error err;
    int one = 1, two = 2;
    uf__ufunc *u = make_inc(&one), *u2 = make_inc(&two);
    int64_t n = 10;
    uf_array *x = filled(UF_FLOAT64, 1, &n, 0), *out = NULL;

    last_independent = -1;
    uf_assert_ok(uf__ufunc_call(u, &x, 1, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(last_independent, 1);
    uf_array_release(out);
    out = uf_array_retain(x); /* in place: the same view */
    last_independent = -1;
    uf_assert_ok(uf__ufunc_call(u, &x, 1, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(last_independent, 1);
    assert_true(get(x, (int64_t[]){3}) == 2.5);
    uf_array_release(out);

    uf_array *in = uf_array_slice(x, ":-1", &err);
    uf_array *shifted = uf_array_slice(x, "1:", &err);
    uf_assert_ok(in != NULL && shifted != NULL, &err);
    last_independent = -1;
    uf_assert_ok(uf__ufunc_call(u, &in, 1, &shifted, 1, NULL, &err) == 0,
                 &err);
    assert_int_equal(last_independent, 0);
    for (int64_t i = 1; i < n; i++) /* old x[i - 1] + 1 = (i - 1) * 0.5 + 2 */
        assert_true(get(x, (int64_t[]){i}) == (double)(i - 1) * 0.5 + 2.0);
    uf_array_release(in);
    uf_array_release(shifted);

    /* two outputs: each checked against the inputs only, so no promise */
    uf_array *outs[2] = {NULL, NULL};
    last_independent = -1;
    uf_assert_ok(uf__ufunc_call(u2, &x, 1, outs, 2, NULL, &err) == 0, &err);
    assert_int_equal(last_independent, 0);
    uf_array_release(outs[0]);
    uf_array_release(outs[1]);
    uf_array_release(x);
    uf__ufunc_free(u);
    uf__ufunc_free(u2);
}

/* The checks before the shortcut keep their errors on calls it would
 * otherwise take. */
static void test_errors(void **state)
{
    uf__ufunc *u = make_add();
    int64_t n = 10, m = 9;
    uf_array *a = filled(UF_FLOAT64, 1, &n, 0), *in[2] = {a, a};
    uf_array *ro = filled(UF_FLOAT64, 1, &n, 0), *short_out =
        filled(UF_FLOAT64, 1, &m, 0), *out;
    uf_call_options opts;
    uf_error err;

    (void)state;
    memset(&opts, 0, sizeof opts);
    opts.size = sizeof opts;
    uf_assert_ok(uf_array_set_writeable(ro, false, &err) == 0, &err);
    out = ro;
    assert_int_equal(uf__ufunc_call(u, in, 2, &out, 1, NULL, &err),
                     UF_ERR_READONLY);
    assert_string_equal(err.message, "output array is read-only");
    out = short_out;
    assert_int_equal(uf__ufunc_call(u, in, 2, &out, 1, NULL, &err),
                     UF_ERR_SHAPE);
    assert_string_equal(err.message,
                        "operands could not be broadcast together with "
                        "shapes (10,) (10,) (9,)");
    opts.num_threads = -1;
    out = NULL;
    assert_int_equal(uf__ufunc_call(u, in, 2, &out, 1, &opts, &err),
                     UF_ERR_VALUE);
    assert_string_equal(err.message, "num_threads must be positive, or 0 "
                                     "for the default (got -1)");
    opts.num_threads = 0;
    opts.target = "gpu";
    assert_int_equal(uf__ufunc_call(u, in, 2, &out, 1, &opts, &err),
                     UF_ERR_UNSUPPORTED);
    assert_string_equal(err.message, "unknown target 'gpu' (the targets are "
                                     "cpu, parallel, cuda, cudasim)");
    opts.target = NULL;
    opts.casting_set = true;
    opts.casting = UF_CASTING_NO;
    out = filled(UF_FLOAT32, 1, &n, 0);
    assert_int_equal(uf__ufunc_call(u, in, 2, &out, 1, &opts, &err),
                     UF_ERR_CAST);
    assert_string_equal(err.message,
                        "Cannot cast ufunc 'add' output from "
                        "dtype('float64') to dtype('float32') with casting "
                        "rule 'no'");
    uf_array_release(out);
    out = NULL;
    uf_assert_ok(uf__ufunc_call(u, in, 2, &out, 1, &opts, &err) == 0, &err);
    uf_array_release(out);
    uf_array_release(a);
    uf_array_release(ro);
    uf_array_release(short_out);
    uf__ufunc_free(u);
}

/* More type combinations than memo slots, interleaved, each resolving to
 * the first loop every input casts to safely; an unsupported one fails
 * every time. */
static void test_resolution_memo(void **state)
{
    static const struct {
        uf_dtype a, b, loop;
    } combos[] = {
        {UF_FLOAT64, UF_FLOAT64, UF_FLOAT64}, {UF_FLOAT32, UF_FLOAT32, UF_FLOAT32},
        {UF_INT8, UF_INT8, UF_FLOAT32},       {UF_INT16, UF_INT16, UF_FLOAT32},
        {UF_UINT8, UF_UINT8, UF_FLOAT32},     {UF_UINT16, UF_UINT16, UF_FLOAT32},
        {UF_BOOL, UF_BOOL, UF_FLOAT32},       {UF_INT32, UF_INT32, UF_FLOAT64},
        {UF_INT64, UF_INT64, UF_FLOAT64},     {UF_UINT32, UF_UINT32, UF_FLOAT64},
        {UF_INT8, UF_FLOAT64, UF_FLOAT64},    {UF_FLOAT32, UF_INT32, UF_FLOAT64},
        {UF_BOOL, UF_INT8, UF_FLOAT32},       {UF_UINT64, UF_UINT64, 0},
        {UF_COMPLEX128, UF_FLOAT64, 0},
    };
    uf__ufunc *u = make_add();
    uf_error err;

    (void)state;
    for (int rep = 0; rep < 3; rep++)
        for (size_t i = 0; i < sizeof combos / sizeof combos[0]; i++) {
            size_t j = rep == 1 ? sizeof combos / sizeof combos[0] - 1 - i : i;
            uf_dtype in[2] = {combos[j].a, combos[j].b};
            const uf__ufunc_loop *l = NULL;
            int rc = uf__ufunc_resolve(u, in, &l, &err);

            if (combos[j].loop == 0 && combos[j].a == UF_COMPLEX128) {
                assert_int_equal(rc, UF_ERR_TYPE);
                assert_non_null(strstr(err.message, "not supported for the "
                                                    "input types"));
                continue;
            }
            if (combos[j].loop == 0) { /* uint64: no safe cast but to f8? */
                bool ok = uf_can_cast(UF_UINT64, UF_FLOAT64, UF_CASTING_SAFE);
                assert_int_equal(rc, ok ? 0 : UF_ERR_TYPE);
                if (ok)
                    assert_int_equal(l->types[0], UF_FLOAT64);
                continue;
            }
            uf_assert_ok(rc == 0, &err);
            assert_int_equal(l->types[0], combos[j].loop);
            assert_ptr_equal(l, uf__ufunc_get_loop(
                                    u, combos[j].loop == UF_FLOAT32 ? 0 : 1));
        }
    /* the lock-free lookup finds the first 8 combinations resolved only */
    {
        uf_dtype f8[2] = {UF_FLOAT64, UF_FLOAT64}, i1[2] = {UF_INT8, UF_INT8};
        uf_dtype u8[2] = {UF_UINT64, UF_UINT64}, bad[2] = {UF_FLOAT64,
                                                          (uf_dtype)(256 + UF_FLOAT64)};
        assert_ptr_equal(uf__ufunc_resolved(u, f8), uf__ufunc_get_loop(u, 1));
        assert_ptr_equal(uf__ufunc_resolved(u, i1), uf__ufunc_get_loop(u, 0));
        assert_null(uf__ufunc_resolved(u, u8)); /* 14th, past the slots */
        assert_null(uf__ufunc_resolved(u, bad));
        assert_null(uf__ufunc_resolved(NULL, f8));
    }
    /* a loop appended later never changes an earlier resolution */
    add_loop(u, UF_INT8, add_i8);
    {
        uf_dtype in[2] = {UF_INT8, UF_INT8};
        const uf__ufunc_loop *l = NULL;
        uf_assert_ok(uf__ufunc_resolve(u, in, &l, &err) == 0, &err);
        assert_ptr_equal(l, uf__ufunc_get_loop(u, 0));
    }
    uf__ufunc_free(u);
}

/* The lazy ufunc: one compile per new type combination, then memoized. */
static int compiles;

static int compile_hook(void *ctx, const uf_dtype *in, uf__ufunc_loop *out,
                        uf_error *err)
{
    (void)ctx, (void)err;
    compiles++;
    bool f4 = in[0] == UF_FLOAT32 || in[0] == UF_INT8;

    out->types[0] = out->types[1] = out->types[2] =
        f4 ? UF_FLOAT32 : UF_FLOAT64;
    out->fn = f4 ? add_f4 : add_f8;
    return 0;
}

static void test_lazy_memo(void **state)
{
    uf_error err;
    uf__ufunc *u = uf__ufunc_new("lazy", 2, 1, compile_hook, NULL, &err);
    static const struct {
        uf_dtype in, loop;
    } seq[] = {{UF_FLOAT32, UF_FLOAT32}, {UF_FLOAT64, UF_FLOAT64},
               {UF_FLOAT32, UF_FLOAT32}, {UF_FLOAT64, UF_FLOAT64},
               {UF_INT32, UF_FLOAT64},   {UF_INT8, UF_FLOAT32}};

    (void)state;
    uf_assert_ok(u != NULL, &err);
    {
        uf_dtype in[2] = {UF_FLOAT64, UF_FLOAT64};
        assert_null(uf__ufunc_resolved(u, in)); /* never compiles */
    }
    compiles = 0;
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        uf_dtype in[2] = {seq[i].in, seq[i].in};
        const uf__ufunc_loop *l = NULL;
        uf_assert_ok(uf__ufunc_resolve(u, in, &l, &err) == 0, &err);
        assert_int_equal(l->types[0], seq[i].loop);
    }
    /* float32 then float64 (float32 fits the float32 loop, float64 does
     * not); int32 and int8 resolve to loops already there */
    assert_int_equal(compiles, 2);
    assert_int_equal(uf__ufunc_nloops(u), 2);
    uf__ufunc_free(u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_one_loop_call),
        cmocka_unit_test(test_independent_promise),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_resolution_memo),
        cmocka_unit_test(test_lazy_memo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
