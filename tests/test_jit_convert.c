/* Conversions between dtypes and comparisons in the lowering, on
 * hand-built kernels (see jit_test_util.h): float to int truncation,
 * wrapping narrow integers, bool, unsigned, float32 rounding; comparisons
 * with NaN unordered. */
#include "jit_test_util.h"

/* ---- conversions ------------------------------------------------------------ */

static void test_casts(void **state)
{
    (void)state;
    /* value in (as double or int64 bits), expected out as int64 or double */
    static const struct {
        const char *file;
        int line;
        uf_dtype from, to;
        double fin;
        int64_t iin;
        double fwant;
        int64_t iwant;
    } rows[] = {
        {LOC, UF_FLOAT64, UF_INT64, 3.7, 0, 0, 3},
        {LOC, UF_FLOAT64, UF_INT64, -3.7, 0, 0, -3},
        {LOC, UF_FLOAT64, UF_INT32, -2147483648.9, 0, 0, -2147483648LL},
        {LOC, UF_FLOAT64, UF_UINT8, 255.9, 0, 0, 255},
        {LOC, UF_FLOAT64, UF_BOOL, NAN, 0, 0, 1},
        {LOC, UF_FLOAT64, UF_BOOL, -0.0, 0, 0, 0},
        {LOC, UF_FLOAT64, UF_FLOAT32, 0.1, 0, (double)0.1f, 0},
        {LOC, UF_FLOAT32, UF_FLOAT64, 0.1, 0, (double)0.1f, 0},
        {LOC, UF_INT64, UF_INT8, 0, 300, 0, 44},
        {LOC, UF_INT64, UF_INT16, 0, -32769, 0, 32767},
        {LOC, UF_INT8, UF_INT64, 0, -5, 0, -5},
        {LOC, UF_UINT8, UF_INT64, 0, 200, 0, 200},
        {LOC, UF_INT8, UF_UINT16, 0, -1, 0, 65535},
        {LOC, UF_INT64, UF_FLOAT64, 0, 9007199254740993LL, 9007199254740992.0,
         0},
        {LOC, UF_UINT64, UF_FLOAT64, 0, -1, 18446744073709551616.0, 0},
        {LOC, UF_INT64, UF_BOOL, 0, 256, 0, 1},
        {LOC, UF_INT64, UF_BOOL, 0, 0, 0, 0},
        {LOC, UF_BOOL, UF_FLOAT64, 0, 1, 1.0, 0},
        {LOC, UF_BOOL, UF_INT32, 0, 1, 0, 1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uf_dtype from = rows[i].from, to = rows[i].to;
        bool fout = uf_dtype_kind(to) == 'f';
        cast_ud u = {from, to};
        kspec s = {1, {from}, to, fout ? UF_FLOAT64 : UF_INT64, false,
                   body_cast, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        unsigned char in[8] = {0};
        if (from == UF_FLOAT64) {
            memcpy(in, &rows[i].fin, 8);
        } else if (from == UF_FLOAT32) {
            float f = (float)rows[i].fin;
            memcpy(in, &f, 4);
        } else {
            memcpy(in, &rows[i].iin, 8); /* little-endian: low bytes */
        }
        union {
            int64_t i;
            double f;
        } out;
        void *p[2] = {in, &out};
        int64_t st[2] = {(int64_t)uf_dtype_itemsize(from), 8};
        assert_int_equal(run(fn, 2, p, st, 1), 0);
        if (fout ? !same_double(out.f, rows[i].fwant) : out.i != rows[i].iwant)
            uf_fail_at(rows[i].file, rows[i].line, "got %lld / %.17g",
                       (long long)out.i, out.f);
    }
}

/* Comparisons: NaN is unordered, != is true for it. */
static void test_compare(void **state)
{
    (void)state;
    static const uf__cmpop ops[] = {UF__CMP_EQ, UF__CMP_NE, UF__CMP_LT,
                                    UF__CMP_LE, UF__CMP_GT, UF__CMP_GE};
    static const double vals[] = {-1.0, 0.0, -0.0, 2.5, INFINITY, NAN};
    enum { NV = sizeof vals / sizeof vals[0] };
    double a[NV * NV], b[NV * NV];
    unsigned char out[NV * NV];
    for (int i = 0; i < NV; i++)
        for (int j = 0; j < NV; j++) {
            a[i * NV + j] = vals[i];
            b[i * NV + j] = vals[j];
        }
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        cmp_ud u = {ops[o], UF_FLOAT64};
        kspec s = {2, {UF_FLOAT64, UF_FLOAT64}, UF_BOOL, UF_BOOL, false,
                   body_cmp, &u};
        uf__strided_loop fn = compile_or_fail(&s);
        assert_int_equal(run2_both(fn, a, b, out, NV * NV, 8, 8, 1), 0);
        for (int k = 0; k < NV * NV; k++) {
            double x = a[k], y = b[k];
            bool want = ops[o] == UF__CMP_EQ   ? x == y
                        : ops[o] == UF__CMP_NE ? x != y
                        : ops[o] == UF__CMP_LT ? x < y
                        : ops[o] == UF__CMP_LE ? x <= y
                        : ops[o] == UF__CMP_GT ? x > y
                                               : x >= y;
            if (out[k] != (unsigned char)want)
                fail_msg("cmp %d on %g, %g gave %d", (int)ops[o], x, y,
                         out[k]);
        }
    }
    /* unsigned compare of uint64 values with the top bit set */
    cmp_ud u = {UF__CMP_LT, UF_UINT64};
    kspec s = {2, {UF_UINT64, UF_UINT64}, UF_BOOL, UF_BOOL, false, body_cmp, &u};
    uf__strided_loop fn = compile_or_fail(&s);
    uint64_t x = 1, y = UINT64_MAX;
    unsigned char r;
    assert_int_equal(run2_both(fn, &x, &y, &r, 1, 8, 8, 1), 0);
    assert_int_equal(r, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_casts),
        cmocka_unit_test(test_compare),
    };
    return cmocka_run_group_tests(tests, jit_setup, jit_teardown);
}
