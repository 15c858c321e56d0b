/* The disk cache for reductions (reduce/reduce_op.c): a @cuda.reduce
 * kernel, and uf_reduce / uf_accumulate of a vectorize kernel (whose own
 * loops are cached too), all calling one njit function; the checks are
 * test_disk_cache_kinds.h's. */
#include "test_disk_cache_kinds.h"

static int run_kind(uf_module *m, dk_vals *v, uf_error *err)
{
    uf_array *a[1] = {uf_arange(1, 6, 1, UF_INT64, err)};
    int rc = dk_call(m, "total", DK_CALL, a, 1, 1, v, err);
    if (rc == 0) {
        uf_array *b[1] = {uf_arange(1, 6, 1, UF_INT64, err)};
        rc = dk_call(m, "vcomb", DK_REDUCE, b, 1, 1, v, err);
    }
    if (rc == 0) {
        uf_array *c[1] = {uf_arange(1, 6, 1, UF_FLOAT64, err)};
        rc = dk_call(m, "vcomb", DK_ACCUMULATE, c, 1, 1, v, err);
    }
    return rc;
}

static void check_kind(const dk_vals *v, int which)
{
    static const double sums[7] = {15, 15, 1, 3, 6, 10, 15};
    static const double prods[7] = {120, 120, 1, 2, 6, 24, 120};
    assert_int_equal(v->n, 7);
    assert_memory_equal(v->v, which ? prods : sums, sizeof sums);
    assert_int_equal(v->nout, 3);
    assert_int_equal(v->dt[0], UF_INT64);
    assert_int_equal(v->dt[1], UF_INT64);
    assert_int_equal(v->dt[2], UF_FLOAT64);
}

/* identity=0 makes the reduction reorderable (the pairwise tree) */
static const char *const kind_options[] = {
    "fastmath=True", "identity=0", "target='parallel'", NULL};

static const dk_kind KIND = {
    .src = "from numba import cuda, vectorize, njit\n"
           "@njit\n"
           "def combine(x, y):\n"
           "    return $F\n"
           "@cuda.reduce\n"
           "def total(a, b):\n"
           "    return combine(a, b)\n"
           "@vectorize(['int64(int64, int64)', 'float64(float64, float64)']"
           "$C)\n"
           "def vcomb(a, b):\n"
           "    return combine(a, b)\n",
    .callee = {"x + y", "x * y"},
    .run = run_kind,
    .check = check_kind,
    /* total's loops; vcomb's two signatures (one module), its reduce over
     * int64, its accumulate over float64 */
    .ncompiles = 4,
    .nfiles = 5,
    .options = kind_options,
    .nfixed = 1, /* @cuda.reduce takes no keywords (as in Numba) */
};

static int run_small(uf_module *m, dk_vals *v, uf_error *err)
{
    uf_array *a[1] = {uf_arange(1, 6, 1, UF_INT64, err)};
    return dk_call(m, "total", DK_CALL, a, 1, 1, v, err);
}

/* nfixed 1: @cuda.reduce takes no keywords */
DK_SMALL_KIND("from numba import cuda\n"
              "@cuda.reduce\n"
              "def total(a, b):\n"
              "    return a + b\n",
              run_small, 15, 1);

int main(int argc, char **argv)
{
    return dk_main(argc, argv, "reduce");
}
