/* Large broadcast outputs are written with non-temporal stores
 * (targets/cpu/loop_rt.c, buffered: uf__loop_ctx.stream when an output
 * has UF__STREAM_BYTES or more): the results are the same bytes as the
 * ordinary stores give, on cpu and parallel (1, 2, 7 threads), for float64
 * and float32, into fresh outputs and into views whose rows start off a
 * 16-byte boundary (the stores' head and tail), with the input as output
 * (in place) and just below the size that turns it on. */
#include <stdlib.h>

#include "test_util.h"

#include "common/loop.h"

static const char src[] =
    "from numba import vectorize\n"
    "@vectorize(['float32(float32, float32)', "
    "'float64(float64, float64)'])\n"
    "def add3(a, b):\n"
    "    return a + 3.0 * b\n";

typedef struct shape2 {
    int64_t rows, cols;
} shape2;

/* a[i] (rows x 1) and b[j] (1 x cols): values whose sums are exact and
 * differ everywhere. */
static uf_array *column(uf_dtype dt, int64_t n, double scale, uf_error *err)
{
    int64_t shape[2] = {n, 1};
    uf_array *a = uf_empty(dt, 2, shape, UF_ORDER_C, err);
    uf_assert_ok(a != NULL, err);
    for (int64_t i = 0; i < n; i++) {
        double v = (double)i * scale;
        if (dt == UF_FLOAT64)
            ((double *)uf_array_data(a))[i] = v;
        else
            ((float *)uf_array_data(a))[i] = (float)v;
    }
    return a;
}

static double at(const uf_array *o, int64_t i, int64_t j)
{
    const char *p = (const char *)uf_array_data(o) +
                    i * uf_array_strides(o)[0] + j * uf_array_strides(o)[1];
    return uf_array_dtype(o) == UF_FLOAT64 ? *(const double *)p
                                           : (double)*(const float *)p;
}

static void check(const char *file, int line, const uf_array *o,
                  const shape2 *s, bool f32)
{
    for (int64_t i = 0; i < s->rows; i++)
        for (int64_t j = 0; j < s->cols; j++) {
            double a = (double)i, b = (double)j * 0.5;
            double want = f32 ? (double)(float)((double)(float)a +
                                               3.0 * (double)(float)b)
                              : a + 3.0 * b;
            if (at(o, i, j) != want)
                uf_fail_at(file, line, "[%lld, %lld] = %.17g, not %.17g",
                           (long long)i, (long long)j, at(o, i, j), want);
        }
}

/* add3(a (rows, 1), b (1, cols)) into out (fresh when *out is NULL). */
static void run(const char *file, int line, uf_func *f, uf_dtype dt,
                const shape2 *s, const char *target, int threads,
                uf_array *given)
{
    uf_error err;
    uf_array *in[2] = {column(dt, s->rows, 1.0, &err), NULL};
    uf_array *bcol = column(dt, s->cols, 0.5, &err);
    in[1] = uf_array_transpose(bcol, NULL, &err);
    uf_assert_ok(in[1] != NULL, &err);
    uf_array *out = given;
    uf_call_options o = {.size = sizeof o, .target = target,
                         .num_threads = threads};
    int rc = uf_call(f, in, 2, &out, 1, &o, &err);
    if (rc != 0)
        uf_fail_at(file, line, "%s", err.message);
    check(file, line, out, s, dt == UF_FLOAT32);
    if (given == NULL)
        uf_array_release(out);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
    uf_array_release(bcol);
}

static void test_broadcast_outputs(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "k.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "add3", &err);
    uf_assert_ok(f != NULL, &err);
    /* 16 MiB and 8 MiB of float64, 8 MiB of float32, and 8 MiB - 8 bytes
     * (ordinary stores) */
    static const shape2 big = {1024, 2048}, edge = {1024, 1024},
                        below = {1023, 1025};
    static const char *targets[] = {"cpu", "parallel", "parallel",
                                    "parallel"};
    static const int threads[] = {0, 1, 2, 7};
    for (int t = 0; t < 4; t++) {
        run(LOC, f, UF_FLOAT64, &big, targets[t], threads[t], NULL);
        run(LOC, f, UF_FLOAT64, &edge, targets[t], threads[t], NULL);
        run(LOC, f, UF_FLOAT32, &big, targets[t], threads[t], NULL);
        run(LOC, f, UF_FLOAT64, &below, targets[t], threads[t], NULL);
    }
    assert_true(big.rows * big.cols * 8 >= UF__STREAM_BYTES);
    assert_true(edge.rows * edge.cols * 8 == UF__STREAM_BYTES);
    assert_true(below.rows * below.cols * 8 < UF__STREAM_BYTES);

    /* rows of a view starting 8 bytes past a 16-byte boundary, and odd
     * row lengths: every row has a head and a tail stored normally */
    static const shape2 odd = {1023, 2047};
    int64_t wide[2] = {1023, 2049};
    for (int t = 0; t < 4; t++) {
        uf_array *whole = uf_empty(UF_FLOAT64, 2, wide, UF_ORDER_C, &err);
        uf_assert_ok(whole != NULL, &err);
        double *wd = uf_array_data(whole);
        for (int64_t k = 0; k < wide[0] * wide[1]; k++)
            wd[k] = -1.0;
        uf_array *view = uf_array_slice(whole, ":, 1:2048", &err);
        uf_assert_ok(view != NULL, &err);
        run(LOC, f, UF_FLOAT64, &odd, targets[t], threads[t], view);
        /* the columns around the view are untouched */
        for (int64_t i = 0; i < wide[0]; i++)
            if (wd[i * wide[1]] != -1.0 || wd[i * wide[1] + 2048] != -1.0)
                fail_msg("row %lld: a column outside the view changed",
                         (long long)i);
        uf_array_release(view);
        uf_array_release(whole);
    }
    uf_module_free(m);
    uf_context_free(ctx);
}

/* In place: the output is the unit-stride input itself, read before the
 * chunk's results are streamed over it. */
static void test_in_place(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "k.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "add3", &err);
    uf_assert_ok(f != NULL, &err);
    int64_t shape[2] = {1024, 2048};
    for (int t = 0; t < 2; t++) {
        uf_array *col = column(UF_FLOAT64, 1024, 1.0, &err);
        uf_array *b = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
        uf_assert_ok(b != NULL, &err);
        double *bd = uf_array_data(b);
        for (int64_t k = 0; k < shape[0] * shape[1]; k++)
            bd[k] = (double)(k % 4093) * 0.25;
        uf_array *in[2] = {col, b}, *out = b;
        uf_call_options o = {.size = sizeof o,
                             .target = t ? "parallel" : "cpu",
                             .num_threads = 2};
        uf_assert_ok(uf_call(f, in, 2, &out, 1, &o, &err) == 0, &err);
        for (int64_t k = 0; k < shape[0] * shape[1]; k++) {
            double want = (double)(k / shape[1]) +
                          3.0 * ((double)(k % 4093) * 0.25);
            if (bd[k] != want)
                fail_msg("[%lld] = %.17g, not %.17g", (long long)k, bd[k],
                         want);
        }
        uf_array_release(col);
        uf_array_release(b);
    }
    uf_module_free(m);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_broadcast_outputs),
        cmocka_unit_test(test_in_place),
    };
    /* every large call streams, untimed (common/stream_pick.h) */
    setenv("UFJIT_STREAM_STORES", "always", 1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
