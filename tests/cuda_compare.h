/* What the tests of vectorize on the CUDA targets share
 * (test_cuda_vectorize.c: the kernel corpus, test_cuda_vectorize_calls.c:
 * the call path): the target and context they run on, and the comparison
 * of results with the cpu target's, bit for bit on cudasim, within the
 * device's math bounds on a GPU. */
#ifndef UF_TESTS_CUDA_COMPARE_H
#define UF_TESTS_CUDA_COMPARE_H

#include <float.h>
#include <math.h>

#include "test_util.h"

#include "cuda_test_target.h"

/* the target under test (cuda_test_target) and the tests' context */
static const char *SIM;
static uf_context *ctx;

static int setup(void **state)
{
    (void)state;
    /* before the context: the CPU's math through libm, as cudasim's */
    setenv("UFJIT_ENABLE_LIBMVEC", "0", 1);
    uf_error err;
    ctx = uf_context_new(&err);
    return ctx != NULL ? 0 : -1;
}

static long gpu_mismatches;

/* Fails the group where GPU differences were counted (assert_same_bits) */
static int teardown(void **state)
{
    (void)state;
    uf_context_free(ctx);
    if (gpu_mismatches > 0) {
        print_error("%ld values differ from the cpu target beyond the GPU's "
                    "bounds (MISMATCH lines above)\n", gpu_mismatches);
        return -1;
    }
    return 0;
}

static void release_all(uf_array **a, int n)
{
    for (int i = 0; i < n; i++) {
        uf_array_release(a[i]);
        a[i] = NULL;
    }
}

/* On a GPU, float results are compared within a bound: libdevice's
 * functions are within 4 ulp of the correctly rounded result (CUDA's
 * programming guide, appendix "Mathematical functions") where glibc's
 * libm is within 1-2, and libnvvm contracts a * b + c into one fma
 * (-fma=1, as numba-cuda), which keeps bits the CPU rounds away: a
 * result that cancels to near zero may differ by a few ulp of the
 * operands rather than of itself, hence the absolute floor. The largest
 * difference seen is printed for bench/GPU_RESULTS.md. */
#define GPU_MAX_ULPS 16
static double gpu_max_ulps;
/* differing parts of elements whose inputs are near overflow or not
 * finite, not compared on a GPU (same_element) */
static long gpu_extreme_skipped;

/* Element i of the inputs: some part not finite or beyond the square
 * root of its type's largest value (a product of two of them overflows
 * on the CPU, not inside an fma); for an integer result, beyond 2**31
 * (a float converted to int32 or int64 out of range is undefined: x86
 * gives the type's minimum, a GPU saturates). */
static bool extreme_inputs(uf_array *const *in, int nin, int64_t i,
                           bool int_result)
{
    for (int k = 0; k < nin && in; k++) {
        uf_dtype dt = uf_array_dtype(in[k]);
        char kind = uf_dtype_kind(dt);
        if ((kind != 'f' && kind != 'c') || uf_array_ndim(in[k]) != 1)
            continue;
        size_t isz = uf_dtype_itemsize(dt);
        size_t part = kind == 'c' ? isz / 2 : isz;
        const unsigned char *p = (const unsigned char *)uf_array_data(in[k]) +
                                 i * uf_array_strides(in[k])[0];
        for (size_t off = 0; off < isz; off += part) {
            double v;
            if (part == 4) {
                float f;
                memcpy(&f, p + off, 4);
                v = f;
            } else {
                memcpy(&v, p + off, 8);
            }
            double big = int_result ? 0x1p31 : part == 4 ? 0x1p63 : 0x1p511;
            if (!isfinite(v) || fabs(v) > big)
                return true;
        }
    }
    return false;
}

/* The largest finite magnitude among element i's float inputs (0 when
 * there are none): the scale of a result that cancels to zero. */
static double input_magnitude(uf_array *const *in, int nin, int64_t i)
{
    double m = 0;
    for (int k = 0; k < nin && in; k++) {
        uf_dtype dt = uf_array_dtype(in[k]);
        if (uf_dtype_kind(dt) != 'f' || uf_array_ndim(in[k]) != 1)
            continue;
        const unsigned char *p = (const unsigned char *)uf_array_data(in[k]) +
                                 i * uf_array_strides(in[k])[0];
        double v;
        if (dt == UF_FLOAT32) {
            float f;
            memcpy(&f, p, 4);
            v = f;
        } else {
            memcpy(&v, p, 8);
        }
        if (isfinite(v))
            m = fmax(m, fabs(v));
    }
    return m;
}

/* differences not compared on a GPU as their inputs leave them undefined
 * or ill-conditioned: an int64 result the CPU gives as INT64_MIN and the
 * GPU saturated (a float beyond int64 converted, as inside int ** int
 * with a huge exponent, Numba's CPU result included), a float result that
 * cancels to zero on the CPU and to a rounding error of the inputs' size
 * on the GPU (fma contraction of r*r + r*r - 2*r*r*cos(0)) */
static long gpu_undefined_skipped;

/* x and y within the bound, in ulps of `scale`: |x| for a float, the
 * larger part's magnitude for a part of a complex (complex functions are
 * accurate relative to the whole value: (-1+3j) ** (3-1j) has a real
 * part 20 ulp off the true one on the CPU and 24 on an H200, both 8 ulp
 * of its magnitude). */
static bool close_on_gpu(double x, double y, size_t part, double scale,
                         bool single)
{
    if (isinf(x) || isinf(y))
        return x == y;
    double eps = part == 4 || single ? FLT_EPSILON : DBL_EPSILON;
    double tiny = part == 4 ? FLT_MIN : DBL_MIN;
    double ulps = fabs(x - y) / (eps * fmax(scale, tiny));
    if (ulps > gpu_max_ulps)
        gpu_max_ulps = ulps;
    return ulps <= GPU_MAX_ULPS || fabs(x - y) <= 64 * eps;
}

/* Two elements of dtype dt equal bit for bit, but for NaNs: any NaN
 * equals any other. Their sign and payload are the hardware's (an x86
 * invalid operation gives the negative "default NaN" 0xffc00000, a GPU
 * the positive 0x7fffffff; LLVM folds constants to 0x7fc00000), which
 * neither NumPy nor Numba define. */
static bool same_element(uf_dtype dt, const unsigned char *a,
                         const unsigned char *b, bool extreme, bool single,
                         double in_mag)
{
    size_t isz = uf_dtype_itemsize(dt);
    if (memcmp(a, b, isz) == 0)
        return true;
    char kind = uf_dtype_kind(dt);
    if (kind != 'f' && kind != 'c') {
        if (cuda_test_on_gpu && extreme) {
            gpu_extreme_skipped++;
            return true;
        }
        if (cuda_test_on_gpu && (dt == UF_INT64 || dt == UF_UINT64)) {
            int64_t x, y;
            memcpy(&x, a, 8);
            memcpy(&y, b, 8);
            if (x == INT64_MIN && y == INT64_MAX) {
                gpu_undefined_skipped++;
                return true;
            }
        }
        return false;
    }
    size_t part = kind == 'c' ? isz / 2 : isz;
    double scale = 0;
    for (size_t off = 0; off < isz; off += part) {
        double v;
        if (part == 4) {
            float f;
            memcpy(&f, a + off, 4);
            v = f;
        } else {
            memcpy(&v, a + off, 8);
        }
        if (isfinite(v))
            scale = fmax(scale, fabs(v));
    }
    for (size_t off = 0; off < isz; off += part) {
        if (memcmp(a + off, b + off, part) == 0)
            continue;
        double x, y;
        if (part == 4) {
            float fx, fy;
            memcpy(&fx, a + off, 4);
            memcpy(&fy, b + off, 4);
            x = fx, y = fy;
        } else {
            memcpy(&x, a + off, 8);
            memcpy(&y, b + off, 8);
        }
        if (isnan(x) && isnan(y))
            continue;
        /* Inputs near overflow or not finite, on a GPU: not compared.
         * An fma's product does not overflow where the CPU's does (1e301 *
         * 1e301 - inf is -inf in one fma, nan as two operations, and the
         * difference carries on to a NaN against an inf), and such inputs
         * are ill-conditioned: (1e301j) ** (1+3j) is exp(688.4) at an
         * angle of 2081 radians, where one ulp of the angle or of the
         * exponent is ~2000 ulp of the result, on the CPU as on the GPU. */
        if (cuda_test_on_gpu && extreme) {
            gpu_extreme_skipped++;
            continue;
        }
        if (!cuda_test_on_gpu || isnan(x) || isnan(y))
            return false;
        if (close_on_gpu(x, y, part, kind == 'c' ? scale : fabs(x), single))
            continue;
        if (kind == 'f' && x == 0 && isfinite(y) &&
            fabs(y) <= sqrt(part == 4 || single ? FLT_EPSILON : DBL_EPSILON) *
                           in_mag) {
            gpu_undefined_skipped++;
            continue;
        }
        return false;
    }
    return true;
}

/* Some input is float32 or complex64: the kernel may compute in single
 * precision whatever its result's type (softplus(float32) returns float64
 * from float32 exp), so a GPU result is held to float32's bound. */
static bool single_inputs(uf_array *const *in, int nin)
{
    for (int k = 0; k < nin && in; k++)
        if (uf_array_dtype(in[k]) == UF_FLOAT32 ||
            uf_array_dtype(in[k]) == UF_COMPLEX64)
            return true;
    return false;
}

/* On a GPU, differences are counted, the first of each kernel output
 * printed (so that one run shows every kernel off its bound), and the
 * test fails at its end; elsewhere the first one fails. */
#define GPU_MISMATCHES_SHOWN 200
static char gpu_last_what[512];
static long gpu_shown;

/* want and got hold the same bytes element by element; on a difference,
 * names the element and the inputs that gave it. */
static void assert_same_bits(const char *what, uf_array *const *in, int nin,
                             const uf_array *want, const uf_array *got)
{
    uf_error err;
    if (uf_array_dtype(want) != uf_array_dtype(got) ||
        uf_array_ndim(want) != uf_array_ndim(got) ||
        uf_array_size(want) != uf_array_size(got))
        fail_msg("%s: dtype or shape differs (%s, %s)", what,
                 uf_dtype_name(uf_array_dtype(want)),
                 uf_dtype_name(uf_array_dtype(got)));
    uf_array *a = uf_array_copy(want, UF_ORDER_C, &err);
    uf_array *b = uf_array_copy(got, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL && b != NULL, &err);
    size_t isz = uf_array_itemsize(a);
    const unsigned char *pa = uf_array_data(a), *pb = uf_array_data(b);
    bool single = cuda_test_on_gpu && single_inputs(in, nin);
    char kind = uf_dtype_kind(uf_array_dtype(a));
    for (int64_t i = 0; i < uf_array_size(a); i++) {
        if (same_element(uf_array_dtype(a), pa + i * (int64_t)isz,
                         pb + i * (int64_t)isz,
                         cuda_test_on_gpu &&
                             extreme_inputs(in, nin, i,
                                            kind != 'f' && kind != 'c'),
                         single,
                         cuda_test_on_gpu ? input_magnitude(in, nin, i) : 0))
            continue;
        char msg[1024];
        int len = snprintf(msg, sizeof msg, "%s: element %lld differs: cpu ",
                           what, (long long)i);
        for (size_t j = 0; j < isz; j++)
            len += snprintf(msg + len, sizeof msg - (size_t)len, "%02x",
                            pa[i * (int64_t)isz + (int64_t)(isz - 1 - j)]);
        len += snprintf(msg + len, sizeof msg - (size_t)len, ", %s ",
                        cuda_test_on_gpu ? "gpu" : "cudasim");
        for (size_t j = 0; j < isz; j++)
            len += snprintf(msg + len, sizeof msg - (size_t)len, "%02x",
                            pb[i * (int64_t)isz + (int64_t)(isz - 1 - j)]);
        for (int k = 0; k < nin && in && uf_array_ndim(in[k]) == 1; k++) {
            const unsigned char *p = uf_array_data(in[k]);
            size_t s = uf_array_itemsize(in[k]);
            len += snprintf(msg + len, sizeof msg - (size_t)len,
                            "; input %d ", k);
            for (size_t j = 0; j < s && len < (int)sizeof msg; j++)
                len += snprintf(msg + len, sizeof msg - (size_t)len, "%02x",
                                p[i * (int64_t)s + (int64_t)(s - 1 - j)]);
        }
        if (!cuda_test_on_gpu)
            fail_msg("%s", msg);
        /* the first difference of each kernel output, up to a bound */
        if (strcmp(what, gpu_last_what) != 0 &&
            gpu_shown++ < GPU_MISMATCHES_SHOWN) {
            snprintf(gpu_last_what, sizeof gpu_last_what, "%s", what);
            print_message("MISMATCH %s\n", msg);
        }
        gpu_mismatches++;
    }
    uf_array_release(a);
    uf_array_release(b);
}

#endif
