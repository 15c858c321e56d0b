/* Reductions on the CUDA targets (reduce/reduce_cuda.c,
 * compiler/nvvm/nvvm_reduce.c) on cudasim, or the GPU under
 * UFJIT_TEST_CUDA_TARGET=cuda: @cuda.reduce kernels (tests/kernels/cuda/
 * reduce.py) and uf_reduce of vectorize ufuncs over the lengths around
 * the tree's edges (a warp, a chunk of 1024, 10^6 + 7), every operator,
 * int32/int64/float32/float64: integers against exact values, floats
 * against the cpu target bit for bit (the CUDA reduction keeps the cpu's
 * pairwise order). Identity and init= handling, axis reductions of host
 * and device arrays, where results land, and the errors. */
#include <math.h>
#include <stdint.h>

#include "cuda_kernel_file.h"

static const int64_t LENGTHS[] = {0, 1, 31, 32, 33, 1023, 1024, 1025,
                                  1000007};
#define NLEN (int)(sizeof LENGTHS / sizeof LENGTHS[0])

static int setup(void **state)
{
    (void)state;
    return kernel_file_load("reduce.py");
}

/* Deterministic values: small signed ints, or floats of many magnitudes
 * (so that the order of a float sum shows in its bits). */
static uf_array *make(uf_dtype dt, int nd, const int64_t *shape, int salt)
{
    uf_error err;
    uf_array *a = uf_empty(dt, nd, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    int64_t n = uf_array_size(a);
    uint64_t s = 0x9e3779b97f4a7c15ull * (uint64_t)(salt + 1);
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int64_t v = (int64_t)(s >> 33) % 2001 - 1000;
        double x = (double)v / 7.0 * pow(10.0, (double)((s >> 20) % 7) - 3);
        switch (dt) {
        case UF_INT32: ((int32_t *)uf_array_data(a))[i] = (int32_t)v; break;
        case UF_INT64: ((int64_t *)uf_array_data(a))[i] = v; break;
        case UF_FLOAT32: ((float *)uf_array_data(a))[i] = (float)x; break;
        case UF_FLOAT64: ((double *)uf_array_data(a))[i] = x; break;
        default: fail();
        }
    }
    return a;
}

/* f over `in` on `target` (uf_call for reduce kernels, uf_reduce for
 * vectorize), with init (may be NULL) and axes; 0 or the error code. */
static int reduce_on(const char *target, const char *name, uf_array *in,
                     uf_array *init, int naxes, const int *axes,
                     uf_array **out, uf_error *err)
{
    uf_func *f = get(name);
    uf_call_options o = {.size = sizeof o, .target = target,
                         .initial = init};
    if (naxes >= 0) {
        o.axes_mode = UF_AXES_LIST;
        o.naxes = naxes;
        o.axes = axes;
    }
    *out = NULL;
    if (uf_func_get_kind(f) == UF_FUNC_UFUNC) {
        if (naxes < 0)
            o.axes_mode = UF_AXES_ALL;
        return uf_reduce(f, in, out, &o, err);
    }
    return uf_call(f, &in, 1, out, 1, &o, err);
}

/* The same reduction on the CUDA target and on cpu: equal bits. */
static uf_array *same_as_cpu(const char *name, uf_array *in, uf_array *init,
                             int naxes, const int *axes)
{
    uf_error err;
    uf_array *got, *want;
    uf_assert_ok(reduce_on(SIM, name, in, init, naxes, axes, &got, &err) == 0,
                 &err);
    uf_array *hin = in;
    if (uf_array_device(in).type == UF_DEVICE_CUDA)
        uf_assert_ok((hin = uf_copy_to_host(in, NULL, NULL, &err)) != NULL,
                     &err);
    uf_assert_ok(reduce_on("cpu", name, hin, init, naxes, axes, &want,
                           &err) == 0,
                 &err);
    if (hin != in)
        uf_array_release(hin);
    uf_array *h = got;
    if (uf_array_device(got).type == UF_DEVICE_CUDA) {
        h = uf_copy_to_host(got, NULL, NULL, &err);
        uf_assert_ok(h != NULL, &err);
    }
    assert_int_equal(uf_array_ndim(h), uf_array_ndim(want));
    assert_int_equal(uf_array_dtype(h), uf_array_dtype(want));
    assert_memory_equal(uf_array_shape(h), uf_array_shape(want),
                        sizeof(int64_t) * (size_t)uf_array_ndim(h));
    uf_array *hc = uf_array_copy(h, UF_ORDER_C, &err);
    uf_array *wc = uf_array_copy(want, UF_ORDER_C, &err);
    if (memcmp(uf_array_data(hc), uf_array_data(wc),
               (size_t)uf_array_nbytes(wc)) != 0) {
        if (uf_array_dtype(wc) == UF_FLOAT64)
            for (int64_t i = 0; i < uf_array_size(wc); i++) {
                double g = ((double *)uf_array_data(hc))[i],
                       w = ((double *)uf_array_data(wc))[i];
                if (memcmp(&g, &w, 8) != 0) {
                    print_error("first difference at %lld: %.17g, cpu %.17g\n",
                                (long long)i, g, w);
                    break;
                }
            }
        fail_msg("%s (ndim %d, naxes %d, axis %d): the %s result differs "
                 "from cpu's", name, uf_array_ndim(in), naxes,
                 naxes > 0 ? axes[0] : -9, SIM);
    }
    uf_array_release(hc);
    uf_array_release(wc);
    if (h != got)
        uf_array_release(h);
    uf_array_release(want);
    return got;
}

/* ---- exact integer results ------------------------------------------- */

typedef enum { ADD, MUL, MIN, MAX, AND, OR, XOR } opk;

static int64_t expect(opk k, const int64_t *x, int64_t n, bool i32)
{
    uint64_t a = (uint64_t)x[0];
    for (int64_t i = 1; i < n; i++) {
        uint64_t b = (uint64_t)x[i];
        switch (k) {
        case ADD: a += b; break;
        case MUL: a *= b; break;
        case MIN: a = (int64_t)b < (int64_t)a ? b : a; break;
        case MAX: a = (int64_t)b > (int64_t)a ? b : a; break;
        case AND: a &= b; break;
        case OR: a |= b; break;
        case XOR: a ^= b; break;
        }
        if (i32)
            a = (uint64_t)(int64_t)(int32_t)(uint32_t)a;
    }
    return (int64_t)a;
}

static int64_t scalar_int(uf_array *r)
{
    uf_error err;
    uf_array *h = r;
    if (uf_array_device(r).type == UF_DEVICE_CUDA)
        uf_assert_ok((h = uf_copy_to_host(r, NULL, NULL, &err)) != NULL,
                     &err);
    assert_int_equal(uf_array_ndim(h), 0);
    int64_t v = uf_array_dtype(h) == UF_INT32
                    ? *(int32_t *)uf_array_data(h)
                    : *(int64_t *)uf_array_data(h);
    if (h != r)
        uf_array_release(h);
    return v;
}

static void int_case(const char *name, opk k, uf_dtype dt, int64_t n)
{
    uf_error err;
    uf_array *a = make(dt, 1, &n, (int)k);
    int64_t *x = malloc((size_t)(n ? n : 1) * sizeof *x);
    for (int64_t i = 0; i < n; i++) {
        if (k == MUL) { /* products that are not all zero */
            int64_t v = i % 97 == 3 ? -3 : i % 89 == 5 ? 5 : 1;
            if (dt == UF_INT32)
                ((int32_t *)uf_array_data(a))[i] = (int32_t)v;
            else
                ((int64_t *)uf_array_data(a))[i] = v;
        }
        x[i] = dt == UF_INT32 ? ((int32_t *)uf_array_data(a))[i]
                              : ((int64_t *)uf_array_data(a))[i];
    }
    uf_array *r;
    if (n == 0) { /* reduce kernels have no identity */
        assert_int_not_equal(reduce_on(SIM, name, a, NULL, -1, NULL, &r,
                                       &err), 0);
        assert_non_null(strstr(err.message, "zero-size array to reduction "
                                            "operation"));
    } else {
        uf_assert_ok(reduce_on(SIM, name, a, NULL, -1, NULL, &r, &err) == 0,
                     &err);
        if (scalar_int(r) != expect(k, x, n, dt == UF_INT32))
            fail_msg("%s %s n=%lld: %lld, expected %lld", name,
                     uf_dtype_name(dt), (long long)n,
                     (long long)scalar_int(r),
                     (long long)expect(k, x, n, dt == UF_INT32));
        uf_array_release(r);
    }
    free(x);
    uf_array_release(a);
}

static void test_int_operators(void **state)
{
    (void)state;
    static const struct { const char *name; opk k; } ops[] = {
        {"sum_reduce", ADD}, {"prod_reduce", MUL}, {"min_reduce", MIN},
        {"max_reduce", MAX}, {"and_reduce", AND}, {"or_reduce", OR},
        {"xor_reduce", XOR}};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        for (int l = 0; l < NLEN; l++) {
            /* the longest once per dtype for the sum, else short runs */
            if (LENGTHS[l] > 100000 && ops[o].k != ADD && ops[o].k != MAX)
                continue;
            int_case(ops[o].name, ops[o].k, UF_INT32, LENGTHS[l]);
            int_case(ops[o].name, ops[o].k, UF_INT64, LENGTHS[l]);
        }
}

/* ---- floats: the cpu's bits ------------------------------------------ */

static void test_float_same_bits(void **state)
{
    (void)state;
    const char *names[] = {"sum_reduce", "min_reduce", "max_reduce",
                           "lopsided", "vadd"};
    const uf_dtype dts[] = {UF_FLOAT32, UF_FLOAT64};
    for (size_t q = 0; q < sizeof names / sizeof names[0]; q++)
        for (int d = 0; d < 2; d++)
            for (int l = 1; l < NLEN; l++) {
                if (LENGTHS[l] > 100000 && q != 0)
                    continue;
                uf_array *a = make(dts[d], 1, &LENGTHS[l], (int)q);
                uf_array_release(same_as_cpu(names[q], a, NULL, -1, NULL));
                uf_array_release(a);
            }
    /* the user kernel on integers too: the same tree, the same value */
    for (int l = 1; l < NLEN - 1; l++) {
        uf_array *a = make(UF_INT64, 1, &LENGTHS[l], 3);
        uf_array_release(same_as_cpu("lopsided", a, NULL, -1, NULL));
        uf_array_release(a);
    }
}

/* ---- identity and init= ---------------------------------------------- */

static uf_array *scalar(uf_dtype dt, double v)
{
    uf_error err;
    uf_array *a = uf_full(dt, 0, NULL, &v, UF_FLOAT64, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

static void test_identity_and_init(void **state)
{
    (void)state;
    uf_error err;
    uf_array *r;
    int64_t zero = 0, five = 5;
    uf_array *e = make(UF_INT64, 1, &zero, 0);
    /* init= on an empty input is the result, on others the first operand */
    uf_array *init = scalar(UF_INT64, 100);
    uf_assert_ok(reduce_on(SIM, "sum_reduce", e, init, -1, NULL, &r, &err) ==
                     0, &err);
    assert_int_equal(scalar_int(r), 100);
    uf_array_release(r);
    uf_array *a = make(UF_INT64, 1, &five, 1);
    const int64_t *x = uf_array_data(a);
    uf_assert_ok(reduce_on(SIM, "lopsided", a, init, -1, NULL, &r, &err) ==
                     0, &err);
    /* f(init, tree(x)), tree of 5 = left to right from x[0] */
    int64_t t = x[0];
    for (int i = 1; i < 5; i++)
        t = t + 2 * x[i];
    assert_int_equal(scalar_int(r), 100 + 2 * t);
    uf_array_release(r);
    /* vectorize identities: 0 and 1 on empty input (numba-cuda's cuda.reduce
     * would give 0 for the product); none: the cpu's error */
    uf_assert_ok(reduce_on(SIM, "vadd", e, NULL, -1, NULL, &r, &err) == 0,
                 &err);
    assert_int_equal(scalar_int(r), 0);
    uf_array_release(r);
    uf_assert_ok(reduce_on(SIM, "vmul", e, NULL, -1, NULL, &r, &err) == 0,
                 &err);
    assert_int_equal(scalar_int(r), 1);
    uf_array_release(r);
    assert_int_not_equal(reduce_on(SIM, "vsub", e, NULL, -1, NULL, &r, &err),
                         0);
    assert_non_null(strstr(err.message, "which has no identity"));
    /* a product without init is the product, not 0 */
    uf_assert_ok(reduce_on(SIM, "vmul", a, NULL, -1, NULL, &r, &err) == 0,
                 &err);
    assert_int_equal(scalar_int(r), x[0] * x[1] * x[2] * x[3] * x[4]);
    uf_array_release(r);
    /* vsub has no identity and is not reorderable: in order */
    uf_assert_ok(reduce_on(SIM, "vsub", a, NULL, -1, NULL, &r, &err) == 0,
                 &err);
    assert_int_equal(scalar_int(r), x[0] - x[1] - x[2] - x[3] - x[4]);
    uf_array_release(r);
    int64_t big = 3000;
    uf_array *f = make(UF_FLOAT64, 1, &big, 2);
    uf_array *fi = scalar(UF_FLOAT64, 0.5);
    uf_array_release(same_as_cpu("vsub", f, NULL, -1, NULL));
    uf_array_release(same_as_cpu("vsub", f, fi, -1, NULL));
    uf_array_release(same_as_cpu("sum_reduce", f, fi, -1, NULL));
    uf_array_release(same_as_cpu("vmul", f, NULL, -1, NULL));
    uf_array_release(fi);
    uf_array_release(f);
    uf_array_release(init);
    uf_array_release(a);
    uf_array_release(e);
}

/* ---- axes, views, device arrays -------------------------------------- */

static void test_axes(void **state)
{
    (void)state;
    uf_error err;
    const int64_t s2[2] = {37, 1025}, s3[3] = {5, 6, 700};
    uf_array *a = make(UF_FLOAT64, 2, s2, 4), *b = make(UF_FLOAT64, 3, s3, 5);
    uf_array *ai = make(UF_INT64, 2, s2, 6);
    const int ax0[1] = {0}, ax1[1] = {1}, ax2[1] = {2}, ax02[2] = {0, 2},
              axm[1] = {-1};
    for (int i = 0; i < 2; i++) {
        const char *nm = i ? "vsub" : "vadd";
        uf_array_release(same_as_cpu(nm, a, NULL, 1, ax0));
        uf_array_release(same_as_cpu(nm, a, NULL, 1, ax1));
        uf_array_release(same_as_cpu(nm, ai, NULL, 1, ax0));
        uf_array_release(same_as_cpu(nm, b, NULL, 1, ax1));
        uf_array_release(same_as_cpu(nm, b, NULL, 1, axm));
    }
    uf_array_release(same_as_cpu("vadd", b, NULL, 2, ax02));
    uf_array_release(same_as_cpu("sum_reduce", b, NULL, 2, ax02));
    uf_array_release(same_as_cpu("sum_reduce", b, NULL, 1, ax2));
    uf_array_release(same_as_cpu("lopsided", b, NULL, -1, NULL));
    /* views: every other column, a transposed array, reversed rows */
    uf_array *v = uf_array_slice(a, "::-1, ::2", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *t = uf_array_transpose(b, NULL, &err);
    uf_assert_ok(t != NULL, &err);
    uf_array_release(same_as_cpu("vadd", v, NULL, 1, ax1));
    uf_array_release(same_as_cpu("vadd", v, NULL, 1, ax0));
    uf_array_release(same_as_cpu("sum_reduce", v, NULL, -1, NULL));
    uf_array_release(same_as_cpu("vadd", t, NULL, 1, ax0));
    uf_array_release(same_as_cpu("min_reduce", t, NULL, -1, NULL));
    /* keepdims */
    uf_func *f = get("vadd");
    uf_call_options o = {.size = sizeof o, .target = SIM, .keepdims = true,
                         .axes_mode = UF_AXES_LIST, .naxes = 1, .axes = ax1};
    uf_array *r = NULL;
    uf_assert_ok(uf_reduce(f, ai, &r, &o, &err) == 0, &err);
    assert_int_equal(uf_array_ndim(r), 2);
    assert_int_equal(uf_array_shape(r)[0], 37);
    assert_int_equal(uf_array_shape(r)[1], 1);
    const int64_t *x = uf_array_data(ai);
    for (int i = 0; i < 37; i++) {
        int64_t s = 0;
        for (int j = 0; j < 1025; j++)
            s += x[i * 1025 + j];
        assert_int_equal(((int64_t *)uf_array_data(r))[i], s);
    }
    uf_array_release(r);
    uf_array_release(t);
    uf_array_release(v);
    uf_array_release(ai);
    uf_array_release(a);
    uf_array_release(b);
}

static void test_device_arrays(void **state)
{
    (void)state;
    uf_error err;
    const int64_t s2[2] = {300, 77};
    int64_t n = 1025;
    uf_array *h = make(UF_FLOAT64, 1, &n, 7), *h2 = make(UF_INT32, 2, s2, 8);
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    uf_array *d2 = uf_to_device(h2, SIM, NULL, &err);
    uf_assert_ok(d2 != NULL, &err);
    /* a device input: the result stays there, a 0-d device array */
    uf_array *r = same_as_cpu("sum_reduce", d, NULL, -1, NULL);
    assert_int_equal(uf_array_device(r).type, UF_DEVICE_CUDA);
    assert_int_equal(uf_array_ndim(r), 0);
    uf_array_release(r);
    /* a host input: a 0-d host array, as the cpu target returns */
    uf_assert_ok(reduce_on(SIM, "sum_reduce", h, NULL, -1, NULL, &r, &err) ==
                     0, &err);
    assert_int_equal(uf_array_device(r).type, UF_DEVICE_HOST);
    assert_int_equal(uf_array_ndim(r), 0);
    uf_array_release(r);
    const int ax0[1] = {0}, ax1[1] = {1};
    r = same_as_cpu("vadd", d2, NULL, 1, ax0);
    assert_int_equal(uf_array_device(r).type, UF_DEVICE_CUDA);
    uf_array_release(r);
    uf_array_release(same_as_cpu("max_reduce", d2, NULL, 1, ax1));
    /* out= on the host */
    uf_array *out = uf_empty(UF_INT32, 1, &s2[1], UF_ORDER_C, &err);
    uf_call_options o = {.size = sizeof o, .target = SIM,
                         .axes_mode = UF_AXES_LIST, .naxes = 1, .axes = ax0};
    uf_array *res = out;
    uf_assert_ok(uf_reduce(get("vadd"), d2, &res, &o, &err) == 0, &err);
    const int32_t *x = uf_array_data(h2);
    for (int j = 0; j < 77; j++) {
        int32_t s = 0;
        for (int i = 0; i < 300; i++)
            s += x[i * 77 + j];
        assert_int_equal(((int32_t *)uf_array_data(out))[j], s);
    }
    uf_array_release(out);
    uf_array_release(d);
    uf_array_release(d2);
    uf_array_release(h);
    uf_array_release(h2);
}

static void test_errors(void **state)
{
    (void)state;
    uf_error err;
    int64_t n = 10;
    uf_array *a = make(UF_FLOAT64, 1, &n, 9), *r = NULL;
    /* a device array of another type than the reduction's (vmul has no
     * int32 loop: int64) is not cast on the device */
    uf_array *d = uf_to_device(a, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    r = NULL;
    uf_array *ai = make(UF_INT32, 1, &n, 9);
    uf_array *di = uf_to_device(ai, SIM, NULL, &err);
    uf_assert_ok(di != NULL, &err);
    assert_int_not_equal(reduce_on(SIM, "vmul", di, NULL, -1, NULL, &r, &err),
                         0);
    printf("device int32 into an int64 reduction: %s\n", err.message);
    assert_null(r);
    /* the host one is cast, as on cpu */
    uf_array_release(same_as_cpu("vmul", ai, NULL, -1, NULL));
    /* init= of the wrong shape, as on cpu */
    const int64_t two = 2;
    uf_array *bad = uf_zeros(UF_FLOAT64, 1, &two, UF_ORDER_C, &err);
    assert_int_not_equal(reduce_on(SIM, "sum_reduce", d, bad, -1, NULL, &r,
                                   &err), 0);
    assert_non_null(strstr(err.message, "must be a scalar"));
    uf_array_release(bad);
    uf_array_release(di);
    uf_array_release(ai);
    uf_array_release(d);
    uf_array_release(a);
}

/* @cuda.reduce kernels run on the cuda target unless a call names
 * another, as numba-cuda's cuda.reduce always runs on the GPU: cudasim
 * under UFJIT_ENABLE_CUDASIM=1, else "no CUDA driver" without one */
static void test_default_target(void **state)
{
    (void)state;
    uf_error err;
    int64_t n = 1000;
    uf_array *a = make(UF_FLOAT64, 1, &n, 11), *want = NULL, *r = NULL;
    uf_func *f = get("sum_reduce");
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    uf_assert_ok(uf_call(f, &a, 1, &want, 1, &cpu, &err) == 0, &err);
    /* restored after (a GPU kit run under cudasim goes on needing it) */
    const char *was = getenv("UFJIT_ENABLE_CUDASIM");
    char saved[16];
    snprintf(saved, sizeof saved, "%s", was ? was : "");
    if (!cuda_test_on_gpu) {
        unsetenv("UFJIT_ENABLE_CUDASIM");
        if (uf_cuda_driver(NULL, 0, NULL, 0, &err) < 1) {
            assert_int_not_equal(uf_call(f, &a, 1, &r, 1, NULL, &err), 0);
            printf("the default target without a driver: %s\n",
                   err.message);
            assert_non_null(strstr(err.message, "no CUDA driver"));
            assert_null(r);
        }
        setenv("UFJIT_ENABLE_CUDASIM", "1", 1);
    }
    /* a device input (the cpu target refuses one): the result stays on
     * the device, the cpu's bits */
    uf_array *d = uf_to_device(a, "cuda", NULL, &err);
    uf_assert_ok(d != NULL, &err);
    uf_assert_ok(uf_call(f, &d, 1, &r, 1, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_device(r).type, UF_DEVICE_CUDA);
    uf_array *h = uf_copy_to_host(r, NULL, NULL, &err);
    uf_assert_ok(h != NULL, &err);
    assert_memory_equal(uf_array_data(h), uf_array_data(want), 8);
    if (was)
        setenv("UFJIT_ENABLE_CUDASIM", saved, 1);
    else
        unsetenv("UFJIT_ENABLE_CUDASIM");
    /* the cpu target named: a device input is refused there */
    uf_array *r2 = NULL;
    assert_int_equal(uf_call(f, &d, 1, &r2, 1, &cpu, &err),
                     UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "not in host memory"));
    uf_array_release(h);
    uf_array_release(r);
    uf_array_release(d);
    uf_array_release(want);
    uf_array_release(a);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_operators),
        cmocka_unit_test(test_float_same_bits),
        cmocka_unit_test(test_identity_and_init),
        cmocka_unit_test(test_axes),
        cmocka_unit_test(test_device_arrays),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_default_target),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
