/* The ufunc call path against brute-force C with hand-written loops: the
 * fast path (one loop call per strip, the arrays' own memory), buffered
 * casting across chunk boundaries, where= runs, overlap with chunked
 * buffers, unaligned memory, many inputs, 0-d and no inputs. */
#include "ufunc_call_test_util.h"

/* Without casting or where=, the loop runs on the arrays' memory, one call
 * per strip of the iterator. */
static void test_fast_path(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int64_t rows, cols;
        uf_order order;
        const char *ix; /* view of both inputs */
        int64_t calls, len;
        bool fortran_out;
    } rows[] = {
        {LOC, 200, 300, UF_ORDER_C, "...", 1, 60000, false},
        {LOC, 200, 300, UF_ORDER_F, "...", 1, 60000, true},
        {LOC, 200, 600, UF_ORDER_C, ":, :300", 200, 300, false},
        /* strided or reversed, but one line of memory for every operand */
        {LOC, 200, 600, UF_ORDER_C, ":, ::2", 1, 60000, false},
        {LOC, 200, 600, UF_ORDER_C, "::-1, ::-2", 1, 60000, false},
        {LOC, 200, 600, UF_ORDER_C, "::-1, :300", 200, 300, false},
        {LOC, 300, 200, UF_ORDER_F, ":150, :", 200, 150, true},
        {LOC, 1, 5000, UF_ORDER_C, "0, ::-1", 1, 5000, false},
    };

    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        spy sp;
        uf__ufunc *u = spied_add(&sp, UF_FLOAT64);
        int64_t shape[2] = {rows[r].rows, rows[r].cols};
        uf_array *ba = filled(UF_FLOAT64, 2, shape, rows[r].order, 1);
        uf_array *bb = filled(UF_FLOAT64, 2, shape, rows[r].order, 2);
        uf_array *in[2] = {slice(ba, rows[r].ix), slice(bb, rows[r].ix)};
        uf_array *out[1] = {NULL};
        uf_error err;

        if (call(u, in, out, NULL, &err) != 0)
            uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
        if (sp.calls != rows[r].calls || sp.max_n != rows[r].len ||
            sp.min_n != rows[r].len)
            uf_fail_at(rows[r].file, rows[r].line,
                       "%lld calls of %lld..%lld elements", (long long)sp.calls,
                       (long long)sp.min_n, (long long)sp.max_n);
        bool fo = (uf_array_flags(out[0]) & UF_ARRAY_F_CONTIGUOUS) &&
                  !(uf_array_flags(out[0]) & UF_ARRAY_C_CONTIGUOUS);
        if (fo != rows[r].fortran_out)
            uf_fail_at(rows[r].file, rows[r].line, "output order");
        /* the first strip starts inside the inputs' own memory */
        const char *lo = uf_array_data(ba);
        if (sp.first[0] < lo || sp.first[0] >= lo + uf_array_nbytes(ba))
            uf_fail_at(rows[r].file, rows[r].line, "input was copied");
        for (int64_t k = 0; k < uf_array_size(out[0]); k++)
            if (get_f8(out[0], k) != get_f8(in[0], k) + get_f8(in[1], k))
                uf_fail_at(rows[r].file, rows[r].line, "element %lld",
                           (long long)k);
        for (int i = 0; i < 2; i++)
            uf_array_release(in[i]);
        uf_array_release(out[0]);
        uf_array_release(ba);
        uf_array_release(bb);
        uf__ufunc_free(u);
    }
}

/* Buffered casting: int16 inputs into a float32 loop, written to an int32
 * output, with and without where=, over lengths around the 4096-element
 * buffer and with strides. Each loop call sees at most one buffer. */
static void test_buffered_chunks(void **state)
{
    (void)state;
    static const int64_t sizes[] = {1, 7, 4095, 4096, 4097, 8192, 10000};
    static const int64_t steps[] = {1, 2, -3};
    long live = uf__alloc_live();

    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
    for (size_t st = 0; st < sizeof steps / sizeof steps[0]; st++)
    for (int variant = 0; variant < 4; variant++) {
        int64_t n = sizes[si], step = steps[st], base_n = n * (step < 0 ? -step : step);
        bool masked = variant & 1, given = variant & 2;
        spy sp;
        uf__ufunc *u = spied_add(&sp, UF_FLOAT32);
        uf_array *ba = filled(UF_INT16, 1, &base_n, UF_ORDER_C, 3);
        uf_array *b = filled(UF_FLOAT32, 1, &n, UF_ORDER_C, 4);
        uf_array *bo = NULL, *bm = NULL;
        char ix[32];
        uf_call_options opts = {.size = sizeof opts,
                                .casting = UF_CASTING_UNSAFE,
                                .casting_set = true};
        uf_error err;

        snprintf(ix, sizeof ix, "::%lld", (long long)step);
        uf_array *a = slice(ba, ix);
        uf_array *in[2] = {a, b}, *out[1] = {NULL};
        if (given) {
            bo = filled(UF_INT32, 1, &base_n, UF_ORDER_C, 5);
            out[0] = slice(bo, ix);
        }
        if (masked) {
            bm = new_array(UF_BOOL, 1, &n, UF_ORDER_C);
            /* runs of every length from 0 to 12 */
            for (int64_t k = 0; k < n; k++)
                ((bool *)uf_array_data(bm))[k] = (k / 13) % 2 == 0
                                                     ? k % 13 < (k / 26) % 13
                                                     : (k * 5) % 7 != 0;
            opts.where = bm;
        }
        uf_array *before = given ? uf_array_copy(out[0], UF_ORDER_C, &err)
                                 : NULL;
        if (call(u, in, out, &opts, &err) != 0)
            fail_msg("n %lld step %lld variant %d: %s", (long long)n,
                     (long long)step, variant, err.message);
        if (sp.max_n > 4096 || sp.misaligned)
            fail_msg("n %lld: a loop call of %lld elements (misaligned %d)",
                     (long long)n, (long long)sp.max_n, sp.misaligned);
        if (!masked && sp.calls != (n + 4095) / 4096)
            fail_msg("n %lld: %lld loop calls", (long long)n,
                     (long long)sp.calls);
        int64_t computed = 0;
        for (int64_t k = 0; k < n; k++) {
            bool on = !masked || ((bool *)uf_array_data(bm))[k];
            float sum = (float)get_f8(a, k) + (float)get_f8(b, k);
            double want = given ? (double)(int32_t)sum : (double)sum;

            computed += on;
            if (on ? get_f8(out[0], k) != want
                   : given && get_f8(out[0], k) != get_f8(before, k))
                fail_msg("n %lld step %lld variant %d: element %lld is %g, "
                         "want %g", (long long)n, (long long)step, variant,
                         (long long)k, get_f8(out[0], k),
                         on ? want : get_f8(before, k));
        }
        if (sp.total != computed)
            fail_msg("the loop computed %lld elements, %lld are unmasked",
                     (long long)sp.total, (long long)computed);
        if (!given && uf_array_dtype(out[0]) != UF_FLOAT32)
            fail_msg("allocated output is %s",
                     uf_dtype_name(uf_array_dtype(out[0])));
        uf_array_release(before);
        uf_array_release(out[0]);
        uf_array_release(a);
        uf_array_release(b);
        uf_array_release(ba);
        uf_array_release(bo);
        uf_array_release(bm);
        uf__ufunc_free(u);
    }
    assert_int_equal(uf__alloc_live(), live);
}

/* Masked-out elements are never computed: the checking loop would fail on
 * them. An all-False mask makes no loop call at all. */
static void test_where_skips_masked(void **state)
{
    (void)state;
    uf__ufunc *u = new_ufunc("checked", 1, 1);
    int64_t n = 9;
    uf_array *x = new_array(UF_FLOAT64, 1, &n, UF_ORDER_C);
    uf_array *m = new_array(UF_BOOL, 1, &n, UF_ORDER_C);
    uf_array *out = filled(UF_FLOAT64, 1, &n, UF_ORDER_C, 1);
    uf_array *in[1] = {x}, *outs[1] = {out};
    uf_call_options opts = {.size = sizeof opts};
    uf_error err;

    add_loop(u, UF_FLOAT64, checked_f8, NULL);
    for (int64_t k = 0; k < n; k++) {
        set_f8(x, k, k % 3 == 1 ? -1.0 : k % 3 == 2 ? NAN : (double)k);
        ((bool *)uf_array_data(m))[k] = k % 3 == 0;
    }
    opts.where = m;
    uf_assert_ok(call(u, in, outs, &opts, &err) == 0, &err);
    for (int64_t k = 0; k < n; k++)
        assert_true(get_f8(out, k) ==
                    (k % 3 == 0 ? (double)k
                                : (double)((k * 7 + 13) % 101 - 50)));
    /* same through the casting path (int32 output) */
    uf_array *out32 = filled(UF_INT32, 1, &n, UF_ORDER_C, 1);
    outs[0] = out32;
    opts.casting = UF_CASTING_UNSAFE;
    opts.casting_set = true;
    uf_assert_ok(call(u, in, outs, &opts, &err) == 0, &err);
    assert_true(get_f8(out32, 3) == 3.0 && get_f8(out32, 4) == -9);
    /* without the mask the loop fails */
    opts.where = NULL;
    assert_int_equal(call(u, in, outs, &opts, &err), UF_ERR_VALUE);
    uf_array_release(out32);
    uf_array_release(x);
    uf_array_release(m);
    uf_array_release(out);
    uf__ufunc_free(u);
}

/* where= as a 0-d False mask: nothing is computed, given outputs keep
 * their values, allocated ones have the right shape. */
static void test_where_all_false(void **state)
{
    (void)state;
    spy sp;
    uf__ufunc *u = spied_add(&sp, UF_FLOAT64);
    int64_t shape[2] = {3, 5};
    uf_array *a = filled(UF_FLOAT64, 2, shape, UF_ORDER_C, 1);
    uf_array *m = new_array(UF_BOOL, 0, NULL, UF_ORDER_C);
    uf_array *in[2] = {a, a}, *out[1] = {NULL};
    uf_call_options opts = {.size = sizeof opts, .where = m};
    uf_error err;

    *(bool *)uf_array_data(m) = false;
    uf_assert_ok(call(u, in, out, &opts, &err) == 0, &err);
    assert_int_equal(sp.calls, 0);
    assert_int_equal(uf_array_ndim(out[0]), 2);
    assert_int_equal(uf_array_shape(out[0])[1], 5);
    uf_array_release(out[0]);
    *(bool *)uf_array_data(m) = true;
    out[0] = NULL;
    uf_assert_ok(call(u, in, out, &opts, &err) == 0, &err);
    assert_int_equal(sp.total, 15);
    assert_true(get_f8(out[0], 14) == 2 * get_f8(a, 14));
    uf_array_release(out[0]);
    uf_array_release(a);
    uf_array_release(m);
    uf__ufunc_free(u);
}

/* Empty iteration: no loop call, outputs of the broadcast shape. */
static void test_empty(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int nda, ndb;
        int64_t sa[3], sb[3];
        int ndo;
        int64_t so[3];
    } rows[] = {
        {LOC, 1, 1, {0}, {0}, 1, {0}},
        {LOC, 2, 1, {0, 3}, {3}, 2, {0, 3}},
        {LOC, 2, 2, {0, 1}, {1, 4}, 2, {0, 4}},
        {LOC, 3, 0, {2, 0, 5}, {0}, 3, {2, 0, 5}},
        {LOC, 1, 3, {1}, {4, 1, 0}, 3, {4, 1, 0}},
    };

    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        spy sp;
        uf__ufunc *u = spied_add(&sp, UF_FLOAT64);
        uf_array *in[2] = {new_array(UF_INT32, rows[r].nda, rows[r].sa,
                                     UF_ORDER_C),
                           new_array(UF_FLOAT64, rows[r].ndb, rows[r].sb,
                                     UF_ORDER_F)};
        uf_array *out[1] = {NULL};
        uf_error err;

        if (call(u, in, out, NULL, &err) != 0)
            uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
        if (sp.calls != 0 || uf_array_dtype(out[0]) != UF_FLOAT64 ||
            uf_array_ndim(out[0]) != rows[r].ndo ||
            memcmp(uf_array_shape(out[0]), rows[r].so,
                   (size_t)rows[r].ndo * sizeof(int64_t)) != 0)
            uf_fail_at(rows[r].file, rows[r].line, "wrong empty result");
        uf_array_release(out[0]);
        uf_array_release(in[0]);
        uf_array_release(in[1]);
        uf__ufunc_free(u);
    }
}

/* Overlap with chunked buffers: out is a view shifted by one element of
 * an input, long enough for several buffers, with casting; and the plain
 * in-place case, which must not copy (the loop sees the array itself). */
static void test_overlap(void **state)
{
    (void)state;
    int64_t n = 10001, m = n - 1;
    uf__ufunc *u = new_ufunc("add", 2, 1);
    uf_array *base = filled(UF_INT32, 1, &n, UF_ORDER_C, 2);
    uf_array *ref = uf_array_copy(base, UF_ORDER_C, NULL);
    uf_array *one = filled(UF_FLOAT64, 0, NULL, UF_ORDER_C, 0);
    uf_call_options opts = {.size = sizeof opts,
                            .casting = UF_CASTING_UNSAFE,
                            .casting_set = true};
    uf_error err;
    spy sp;

    add_loop(u, UF_FLOAT64, add_f8, NULL);
    for (int dir = 0; dir < 2; dir++) {
        uf_array *src = slice(base, dir ? "1:" : ":-1");
        uf_array *dst = slice(base, dir ? ":-1" : "1:");
        uf_array *in[2] = {src, one}, *out[1] = {dst};

        uf_assert_ok(call(u, in, out, &opts, &err) == 0, &err);
        for (int64_t k = 0; k < m; k++) {
            double was = get_f8(ref, dir ? k + 1 : k);

            if (get_f8(dst, k) != was + get_f8(one, 0))
                fail_msg("dir %d element %lld: %g, want %g", dir,
                         (long long)k, get_f8(dst, k), was + get_f8(one, 0));
        }
        uf_array_release(src);
        uf_array_release(dst);
        uf_array_release(ref);
        ref = uf_array_copy(base, UF_ORDER_C, NULL);
    }
    uf__ufunc_free(u);

    /* in place: the loop runs on the array's own memory, no copy */
    u = spied_add(&sp, UF_FLOAT64);
    uf_array *a = filled(UF_FLOAT64, 1, &n, UF_ORDER_C, 1);
    uf_array *in[2] = {a, a}, *out[1] = {a};
    long live = uf__alloc_live();
    uf_assert_ok(call(u, in, out, NULL, &err) == 0, &err);
    assert_ptr_equal(sp.first[0], uf_array_data(a));
    assert_ptr_equal(sp.first[2], uf_array_data(a));
    assert_int_equal(uf__alloc_live(), live);
    assert_true(get_f8(a, 5) == 2.0 * ((5 * 7 + 13) % 101 - 50));
    uf_array_release(a);
    uf_array_release(ref);
    uf_array_release(one);
    uf_array_release(base);
    uf__ufunc_free(u);
}

/* A mask sharing memory with the output is read as it was before the
 * call, across several buffers. */
static void test_where_overlaps_output(void **state)
{
    (void)state;
    int64_t n = 10001, m = n - 1;
    uf__ufunc *u = new_ufunc("add", 2, 1);
    uf_array *base = new_array(UF_BOOL, 1, &n, UF_ORDER_C);
    uf_array *v = new_array(UF_FLOAT64, 1, &m, UF_ORDER_C);
    uf_array *zero = filled(UF_FLOAT64, 0, NULL, UF_ORDER_C, 0);
    bool *b = uf_array_data(base), *was = calloc((size_t)n, 1);
    uf_call_options opts = {.size = sizeof opts,
                            .casting = UF_CASTING_UNSAFE,
                            .casting_set = true};
    uf_error err;

    add_loop(u, UF_FLOAT64, add_f8, NULL);
    set_f8(zero, 0, 0.0);
    for (int64_t k = 0; k < n; k++)
        was[k] = b[k] = k % 3 != 0;
    for (int64_t k = 0; k < m; k++)
        set_f8(v, k, (double)(k % 2));
    uf_array *out[1] = {slice(base, "1:")}, *in[2] = {v, zero};
    opts.where = slice(base, ":-1");
    uf_assert_ok(call(u, in, out, &opts, &err) == 0, &err);
    for (int64_t k = 0; k < m; k++) {
        bool want = was[k] ? k % 2 != 0 : was[k + 1];

        if (b[k + 1] != want)
            fail_msg("element %lld: %d, want %d", (long long)k, b[k + 1],
                     want);
    }
    free(was);
    uf_array_release(opts.where);
    uf_array_release(out[0]);
    uf_array_release(base);
    uf_array_release(v);
    uf_array_release(zero);
    uf__ufunc_free(u);
}

/* Unaligned memory is buffered: the loop only sees aligned pointers. */
static void test_unaligned(void **state)
{
    (void)state;
    enum { N = 5000 };
    static char raw[N * 8 + 16];
    int64_t n = N;
    spy sp;
    uf__ufunc *u = spied_add(&sp, UF_FLOAT64);
    uf_error err;
    uf_array *a = uf_array_wrap(UF_FLOAT64, 1, &n, NULL, raw + 1, true, NULL,
                                NULL, &err);

    uf_assert_ok(a != NULL, &err);
    assert_false(uf_array_flags(a) & UF_ARRAY_ALIGNED);
    for (int64_t k = 0; k < n; k++)
        set_f8(a, k, (double)k / 8);
    uf_array *in[2] = {a, a}, *out[1] = {a};
    uf_assert_ok(call(u, in, out, NULL, &err) == 0, &err);
    assert_false(sp.misaligned);
    for (int64_t k = 0; k < n; k++)
        if (get_f8(a, k) != (double)k / 4)
            fail_msg("element %lld", (long long)k);
    uf_array_release(a);
    uf__ufunc_free(u);
}

/* 63 inputs of different shapes and one output: UF__LOOP_MAXARGS. */
static void test_many_inputs(void **state)
{
    (void)state;
    enum { NIN = UF__LOOP_MAXARGS - 1 };
    static int nin = NIN;
    uf__ufunc *u = uf__ufunc_new("sum", NIN, 1, NULL, NULL, NULL);
    uf_array *in[NIN], *out[1] = {NULL};
    uf_error err;

    add_loop(u, UF_FLOAT64, sum_f8, &nin);
    for (int i = 0; i < NIN; i++) {
        int64_t shape[3] = {i % 2 ? 2 : 1, i % 3 ? 3 : 1, i % 5 ? 4 : 1};
        in[i] = filled(i % 4 ? UF_FLOAT64 : UF_INT16, 3 - i % 3,
                       shape + i % 3, UF_ORDER_C, i);
    }
    uf_assert_ok(call(u, in, out, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_ndim(out[0]), 3);
    for (int64_t k = 0; k < 24; k++) {
        int64_t idx[3] = {k / 12, (k / 4) % 3, k % 4};
        double want = 0;

        for (int i = 0; i < NIN; i++) {
            int nd = uf_array_ndim(in[i]);
            const int64_t *sh = uf_array_shape(in[i]);
            int64_t flat = 0;

            for (int d = 0; d < nd; d++)
                flat = flat * sh[d] + (sh[d] == 1 ? 0 : idx[3 - nd + d]);
            want += get_f8(in[i], flat);
        }
        if (get_f8(out[0], k) != want)
            fail_msg("element %lld: %g, want %g", (long long)k,
                     get_f8(out[0], k), want);
    }
    for (int i = 0; i < NIN; i++)
        uf_array_release(in[i]);
    uf_array_release(out[0]);
    uf__ufunc_free(u);
}

/* The loop's aux pointer reaches it; 0-d in, 0-d out. */
static void test_aux_and_0d(void **state)
{
    (void)state;
    static double factor = 2.5;
    uf__ufunc *u = new_ufunc("scale", 1, 1);
    uf_array *x = filled(UF_FLOAT64, 0, NULL, UF_ORDER_C, 1);
    uf_array *in[1] = {x}, *out[1] = {NULL};
    uf_error err;

    add_loop(u, UF_FLOAT64, scale_f8, &factor);
    uf_assert_ok(call(u, in, out, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_ndim(out[0]), 0);
    assert_true(get_f8(out[0], 0) == 2.5 * get_f8(x, 0));
    uf_array_release(out[0]);
    uf_array_release(x);
    uf__ufunc_free(u);
}

static int fill_42(void *ctx, char *const *d, const int64_t *n,
                   const int64_t *s, void *aux)
{
    (void)ctx, (void)aux;
    for (int64_t i = 0; i < n[0]; i++)
        AT(d[0], i, s[0], double) = 42;
    return 0;
}

/* No inputs: the shape comes from the given output, else 0-d. */
static void test_no_inputs(void **state)
{
    (void)state;
    uf__ufunc *u = new_ufunc("answer", 0, 1);
    int64_t shape[2] = {2, 3};
    uf_array *given = filled(UF_INT8, 2, shape, UF_ORDER_F, 1);
    uf_array *out[1] = {NULL};
    uf_error err;

    add_loop(u, UF_FLOAT64, fill_42, NULL);
    uf_assert_ok(uf__ufunc_call(u, NULL, 0, out, 1, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_ndim(out[0]), 0);
    assert_true(get_f8(out[0], 0) == 42);
    uf_array_release(out[0]);
    out[0] = given;
    uf_call_options opts = {.size = sizeof opts, .casting_set = true,
                            .casting = UF_CASTING_UNSAFE};
    uf_assert_ok(uf__ufunc_call(u, NULL, 0, out, 1, &opts, &err) == 0, &err);
    for (int64_t k = 0; k < 6; k++)
        assert_true(get_f8(given, k) == 42);
    uf_array_release(given);
    uf__ufunc_free(u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_path),
        cmocka_unit_test(test_buffered_chunks),
        cmocka_unit_test(test_where_skips_masked),
        cmocka_unit_test(test_where_all_false),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_where_overlaps_output),
        cmocka_unit_test(test_unaligned),
        cmocka_unit_test(test_many_inputs),
        cmocka_unit_test(test_aux_and_0d),
        cmocka_unit_test(test_no_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
