/* The disk cache for njit functions called through uf_call
 * (njit/njit_call.c): per argument types (arrays of two dtypes), and
 * a declared signature reached from two scalar dtypes (the entry converts
 * differently), calling another njit function; the checks are
 * test_disk_cache_kinds.h's. */
#include "test_disk_cache_kinds.h"

static uf_array *scalar(uf_dtype dt, double x, uf_error *err)
{
    return uf_full(dt, 0, NULL, &x, UF_FLOAT64, UF_ORDER_C, err);
}

static int run_kind(uf_module *m, dk_vals *v, uf_error *err)
{
    int rc = 0;
    for (int t = 0; t < 2 && rc == 0; t++) {
        uf_dtype dt = t ? UF_FLOAT32 : UF_FLOAT64;
        uf_array *in[2] = {uf_linspace(1, 3, 3, true, dt, err),
                           uf_linspace(1, 3, 3, true, dt, err)};
        rc = dk_call(m, "wdot", DK_CALL, in, 2, 2, v, err);
    }
    for (int t = 0; t < 2 && rc == 0; t++) {
        uf_array *in[2] = {scalar(t ? UF_INT32 : UF_FLOAT64, 2.5, err),
                           scalar(UF_INT64, 4, err)};
        rc = dk_call(m, "axpy", DK_CALL, in, 2, 1, v, err);
    }
    return rc;
}

static void check_kind(const dk_vals *v, int which)
{
    double s = which ? 3 : 2;
    /* int32 2.5 is 2 */
    const double want[6] = {14 * s, 3, 14 * s, 3, s * 10, s * 8};
    assert_int_equal(v->n, 6);
    assert_memory_equal(v->v, want, sizeof want);
    assert_int_equal(v->nout, 6);
    assert_int_equal(v->dt[0], UF_FLOAT64);
    assert_int_equal(v->dt[1], UF_INT64);
    assert_int_equal(v->dt[2], UF_FLOAT64); /* float32 * 2 is float64 */
    assert_int_equal(v->dt[4], UF_FLOAT64);
    assert_int_equal(v->dt[5], UF_FLOAT64);
}

static const char *const kind_options[] = {"fastmath=True",
                                           "boundscheck=True", NULL};

static const dk_kind KIND = {
    .src = "from numba import njit\n"
           "@njit\n"
           "def scale(x):\n"
           "    return $F\n"
           "@njit($O)\n"
           "def wdot(x, y):\n"
           "    acc = 0.0\n"
           "    for i in range(x.shape[0]):\n"
           "        acc += scale(x[i]) * y[i]\n"
           "    return acc, x.shape[0]\n"
           "@njit('float64(float64, int64)'$C)\n"
           "def axpy(a, n):\n"
           "    return scale(a) * n\n",
    .callee = {"2 * x", "3 * x"},
    .run = run_kind,
    .check = check_kind,
    /* wdot for float64 and float32 arrays, axpy from float64 and int32 */
    .ncompiles = 4,
    .nfiles = 4,
    .options = kind_options,
};

static int run_small(uf_module *m, dk_vals *v, uf_error *err)
{
    uf_array *in[1] = {scalar(UF_FLOAT64, 3.5, err)};
    return dk_call(m, "twice", DK_CALL, in, 1, 1, v, err);
}

DK_SMALL_KIND("from numba import njit\n"
              "@njit($O)\n"
              "def twice(x):\n"
              "    return 2 * x\n",
              run_small, 7, 0);

int main(int argc, char **argv)
{
    return dk_main(argc, argv, "njit");
}
