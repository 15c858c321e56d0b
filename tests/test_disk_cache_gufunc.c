/* The disk cache for guvectorize kernels (gufunc/guvectorize.c): declared
 * signatures and a kernel without any (compiled per operand dtypes, its
 * output dtype inferred), calling an njit function; the checks are
 * test_disk_cache_kinds.h's. */
#include "test_disk_cache_kinds.h"

/* x = [[1,2,3],[4,5,6]] of dtype dt. */
static uf_array *matrix(uf_dtype dt, uf_error *err)
{
    uf_array *a = uf_linspace(1, 6, 6, true, dt, err);
    if (!a)
        return NULL;
    int64_t shape[2] = {2, 3};
    uf_array *m = uf_array_reshape(a, 2, shape, UF_ORDER_C, false, err);
    uf_array_release(a);
    return m;
}

static int run_kind(uf_module *m, dk_vals *v, uf_error *err)
{
    int rc = 0;
    for (int t = 0; t < 2 && rc == 0; t++) {
        uf_dtype dt = t ? UF_FLOAT32 : UF_FLOAT64;
        uf_array *in[2] = {matrix(dt, err),
                           uf_linspace(1, 3, 3, true, dt, err)};
        rc = dk_call(m, "wdot", DK_CALL, in, 2, 1, v, err);
    }
    if (rc == 0) {
        uf_array *in[1] = {uf_arange(0, 4, 1, UF_INT32, err)};
        rc = dk_call(m, "shifted", DK_CALL, in, 1, 1, v, err);
    }
    return rc;
}

static void check_kind(const dk_vals *v, int which)
{
    double s = which ? 3 : 2;
    const double want[8] = {14 * s, 32 * s, 14 * s, 32 * s,
                            1,      s + 1,  2 * s + 1, 3 * s + 1};
    assert_int_equal(v->n, 8);
    assert_memory_equal(v->v, want, sizeof want);
    assert_int_equal(v->nout, 3);
    assert_int_equal(v->dt[0], UF_FLOAT64);
    assert_int_equal(v->dt[1], UF_FLOAT32);
    assert_int_equal(v->dt[2], UF_INT64); /* int32 * 2 + 1: int64 */
}

static const char *const kind_options[] = {
    "fastmath=True", "boundscheck=True", "target='parallel'", NULL};

static const dk_kind KIND = {
    .src = "from numba import guvectorize, njit\n"
           "@njit\n"
           "def scale(x):\n"
           "    return $F\n"
           "@guvectorize(['void(float64[:], float64[:], float64[:])',\n"
           "              'void(float32[:], float32[:], float32[:])'],\n"
           "             '(n),(n)->()'$C)\n"
           "def wdot(x, y, out):\n"
           "    acc = 0.0\n"
           "    for i in range(x.shape[0]):\n"
           "        acc += scale(x[i]) * y[i]\n"
           "    out[0] = acc\n"
           "@guvectorize('(n)->(n)'$C)\n"
           "def shifted(x, out):\n"
           "    for i in range(x.shape[0]):\n"
           "        out[i] = scale(x[i]) + 1\n",
    .callee = {"2 * x", "3 * x"},
    .run = run_kind,
    .check = check_kind,
    .ncompiles = 3, /* wdot's two signatures, shifted for int32 */
    .nfiles = 3,
    .options = kind_options,
};

static int run_small(uf_module *m, dk_vals *v, uf_error *err)
{
    uf_array *in[1] = {uf_linspace(1, 4, 4, true, UF_FLOAT64, err)};
    return dk_call(m, "total", DK_CALL, in, 1, 1, v, err);
}

DK_SMALL_KIND("from numba import guvectorize\n"
              "@guvectorize(['void(float64[:], float64[:])'], '(n)->()'$C)\n"
              "def total(x, out):\n"
              "    acc = 0.0\n"
              "    for i in range(x.shape[0]):\n"
              "        acc += x[i]\n"
              "    out[0] = acc\n",
              run_small, 10, 0);

int main(int argc, char **argv)
{
    return dk_main(argc, argv, "guvectorize");
}
