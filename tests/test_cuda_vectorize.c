/* vectorize on the CUDA targets (ufunc/cuda_call.c) against the CPU
 * target: every vectorize kernel of tests/kernels/ (each .py file), every declared
 * signature (lazy kernels: a few input dtype combinations), called on
 * `cpu` and on `cudasim` with inputs that hunt for differences (NaN, inf,
 * -0.0, subnormals, the integers' extremes, zero divisors), results equal
 * bit for bit. cudasim runs the CUDA kernels the NVVM backend emits,
 * launched by the same code that drives a GPU, with libdevice's math
 * bound to libm; the CPU is told to use libm too
 * (UFJIT_ENABLE_LIBMVEC=0), so no ULP bound is needed: any difference is
 * a bug (but for the bits of a NaN, see same_element). Lazy kernels
 * dispatch as the CPU's do (first compiled signature taking the inputs
 * safely), so both targets are called in the same order. Then the call path itself: shapes (broadcast, views, negative
 * strides, transposed, 0-d, empty, too many axes), operands on either
 * side, out= on the device and on the host with a cast, streams, and the
 * refusals (read-only out, a device input of the wrong dtype, where=,
 * kernels the CUDA target cannot compile). */
#include <dirent.h>
#include <float.h>
#include <math.h>

#include "test_util.h"

#include "cuda_test_target.h"

static const char *SIM;
#define KDIR UF_TEST_DATA_DIR "/../kernels"
#define MAX_ELEMS 12000
#define MAXIN 8 /* inputs of the widest kernel tested */
#define MAXOUT 8

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

static int teardown(void **state)
{
    (void)state;
    uf_context_free(ctx);
    return 0;
}

/* ---- inputs ---------------------------------------------------------------- */

/* Kernels whose loop counts come from their inputs (control.py's
 * range(n), prune.py's `while ON: x += 1.0`) get small, finite values:
 * INT64_MAX iterations, or x = -inf, would never end on either target. */
static bool wants_small(const char *file)
{
    return strcmp(file, "control.py") == 0 || strcmp(file, "prune.py") == 0;
}

static const double float_vals[] = {
    0.0,     -0.0,     1.0,        -1.0,     0.5,   -2.5, 3.0,
    7.0,     NAN,      INFINITY,   -INFINITY, 1e10, -1e-5, 3.141592653589793,
    0.1,     710.0,    -745.5,     1e300,    -1e300, DBL_MIN, 4.9e-324,
    DBL_MAX, -DBL_MAX, 2.0,        -0.75};
static const float float32_vals[] = {
    0.0f,    -0.0f,    1.0f,      -1.0f,     0.5f,  -2.5f, 3.0f,
    7.0f,    NAN,      INFINITY,  -INFINITY, 1e10f, -1e-5f, 3.1415927f,
    0.1f,    89.0f,    -104.5f,   1e38f,     -1e38f, FLT_MIN, 1.4e-45f,
    FLT_MAX, -FLT_MAX, 2.0f,      -0.75f};
static const double small_floats[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0,
                                      3.5, -2.5, 10.0, 0.1, 1e-3, 25.0};
static const double complex_parts[] = {0.0, -0.0, 1.0, -1.0, 0.5,
                                       NAN, INFINITY, 1e300, 3.0};
static const int64_t small_ints[] = {0, 1, 2, 3, 5, 7, 10, 17, -1, -3, -10, 40};

/* The signed values of a dtype of `bits`: small ones, the extremes and
 * their neighbours (overflow), shift amounts around the width. */
static int signed_vals(int bits, int64_t *v)
{
    int64_t max = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
    int64_t min = -max - 1;
    const int64_t base[] = {0, 1, -1, 2, -2, 3, 7, -7, 100, -100, 31, 32};
    int n = 0;
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        v[n++] = base[i] > max || base[i] < min ? 0 : base[i];
    v[n++] = min;
    v[n++] = max;
    v[n++] = min + 1;
    v[n++] = max - 1;
    v[n++] = max / 2 + 1;
    return n;
}

static int unsigned_vals(int bits, uint64_t *v)
{
    uint64_t max = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    const uint64_t base[] = {0, 1, 2, 3, 7, 31, 32, 64, 100, 200};
    int n = 0;
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        v[n++] = base[i] > max ? 1 : base[i];
    v[n++] = max;
    v[n++] = max - 1;
    v[n++] = max / 2;
    v[n++] = max / 2 + 1;
    return n;
}

/* Value j of dtype dt's list into dst; returns the list's length. */
static int value(uf_dtype dt, bool small, int j, void *dst)
{
    int64_t iv[32];
    uint64_t uv[32];
    int n;
    switch (dt) {
    case UF_BOOL:
        if (dst)
            *(uint8_t *)dst = (uint8_t)(j & 1);
        return 2;
    case UF_INT8: case UF_INT16: case UF_INT32: case UF_INT64: {
        int bits = (int)uf_dtype_itemsize(dt) * 8;
        if (small) {
            n = (int)(sizeof small_ints / sizeof small_ints[0]);
            memcpy(iv, small_ints, sizeof small_ints);
        } else {
            n = signed_vals(bits, iv);
        }
        if (dst)
            memcpy(dst, &iv[j % n], uf_dtype_itemsize(dt)); /* little endian */
        return n;
    }
    case UF_UINT8: case UF_UINT16: case UF_UINT32: case UF_UINT64:
        n = small ? 8 : unsigned_vals((int)uf_dtype_itemsize(dt) * 8, uv);
        if (small)
            for (int i = 0; i < n; i++)
                uv[i] = (uint64_t)small_ints[i];
        if (dst)
            memcpy(dst, &uv[j % n], uf_dtype_itemsize(dt));
        return n;
    case UF_FLOAT32:
        n = small ? (int)(sizeof small_floats / sizeof small_floats[0])
                  : (int)(sizeof float32_vals / sizeof float32_vals[0]);
        if (dst)
            *(float *)dst = small ? (float)small_floats[j % n]
                                  : float32_vals[j % n];
        return n;
    case UF_FLOAT64:
        n = small ? (int)(sizeof small_floats / sizeof small_floats[0])
                  : (int)(sizeof float_vals / sizeof float_vals[0]);
        if (dst)
            *(double *)dst = small ? small_floats[j % n] : float_vals[j % n];
        return n;
    case UF_COMPLEX64: case UF_COMPLEX128: {
        int m = (int)(sizeof complex_parts / sizeof complex_parts[0]);
        n = m * m;
        if (dst) {
            double re = complex_parts[(j % n) % m],
                   im = complex_parts[(j % n) / m];
            if (dt == UF_COMPLEX64) {
                float p[2] = {(float)re, (float)im};
                memcpy(dst, p, sizeof p);
            } else {
                double p[2] = {re, im};
                memcpy(dst, p, sizeof p);
            }
        }
        return n;
    }
    default:
        return 1;
    }
}

/* nin 1-D inputs over every combination of the dtypes' values (when that
 * fits MAX_ELEMS; else a hashed sample of them). */
static int64_t make_inputs(int nin, const uf_dtype *dt, bool small,
                           uf_array **in)
{
    int64_t total = 1;
    int nv[MAXIN];
    for (int k = 0; k < nin; k++) {
        nv[k] = value(dt[k], small, 0, NULL);
        total = total * nv[k] > MAX_ELEMS ? MAX_ELEMS : total * nv[k];
    }
    bool cross = true;
    int64_t prod = 1;
    for (int k = 0; k < nin; k++)
        prod *= nv[k], cross &= prod <= MAX_ELEMS;
    uf_error err;
    for (int k = 0; k < nin; k++) {
        in[k] = uf_empty(dt[k], 1, &total, UF_ORDER_C, &err);
        uf_assert_ok(in[k] != NULL, &err);
        char *p = uf_array_data(in[k]);
        size_t isz = uf_dtype_itemsize(dt[k]);
        int64_t div = 1;
        for (int j = 0; j < k; j++)
            div *= nv[j];
        for (int64_t i = 0; i < total; i++) {
            uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15u + (uint64_t)k * 77;
            int j = cross ? (int)(i / div % nv[k]) : (int)(h >> 33) % nv[k];
            value(dt[k], small, j, p + i * (int64_t)isz);
        }
    }
    return total;
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

static bool close_on_gpu(double x, double y, size_t part)
{
    if (isinf(x) || isinf(y))
        return x == y;
    double eps = part == 4 ? FLT_EPSILON : DBL_EPSILON;
    double tiny = part == 4 ? FLT_MIN : DBL_MIN;
    double ulps = fabs(x - y) / (eps * fmax(fabs(x), tiny));
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
                         const unsigned char *b)
{
    size_t isz = uf_dtype_itemsize(dt);
    if (memcmp(a, b, isz) == 0)
        return true;
    char kind = uf_dtype_kind(dt);
    if (kind != 'f' && kind != 'c')
        return false;
    size_t part = kind == 'c' ? isz / 2 : isz;
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
        if (!cuda_test_on_gpu || isnan(x) || isnan(y) ||
            !close_on_gpu(x, y, part))
            return false;
    }
    return true;
}

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
    for (int64_t i = 0; i < uf_array_size(a); i++) {
        if (same_element(uf_array_dtype(a), pa + i * (int64_t)isz,
                         pb + i * (int64_t)isz))
            continue;
        char msg[1024];
        int len = snprintf(msg, sizeof msg, "%s: element %lld differs: cpu ",
                           what, (long long)i);
        for (size_t j = 0; j < isz; j++)
            len += snprintf(msg + len, sizeof msg - (size_t)len, "%02x",
                            pa[i * (int64_t)isz + (int64_t)(isz - 1 - j)]);
        len += snprintf(msg + len, sizeof msg - (size_t)len, ", cudasim ");
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
        fail_msg("%s", msg);
    }
    uf_array_release(a);
    uf_array_release(b);
}

/* ---- the corpus: every vectorize kernel, cpu against cudasim ------------- */

/* What the CUDA target refuses, each with (part of) its message. */
typedef struct refusal {
    const char *file, *kernel, *signature; /* signature NULL: all */
    const char *message;
} refusal;

/* cmath functions the CPU runs through host runtime helpers (libm's
 * complex functions) with no libdevice counterpart yet. */
static const refusal refused[] = {
    {"complex_ops.py", "c_sqrt", NULL,
     "kernel 'c_sqrt': cmath.sqrt is not supported by the CUDA target (it "
     "calls the host runtime helper uf__rt_csqrt)"},
    {"complex_ops.py", "c_exp", NULL,
     "kernel 'c_exp': cmath.exp is not supported by the CUDA target (it "
     "calls the host runtime helper uf__rt_cexp)"},
    {"complex_ops.py", "c_rect", NULL,
     "kernel 'c_rect': cmath.rect is not supported by the CUDA target (it "
     "calls the host runtime helper uf__rt_crect)"},
};
#define NREFUSED (int)(sizeof refused / sizeof refused[0])

static const refusal *refusal_of(const char *file, const char *kernel,
                                 const char *sig)
{
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (strcmp(refused[i].file, file) == 0 &&
            strcmp(refused[i].kernel, kernel) == 0 &&
            (refused[i].signature == NULL ||
             strcmp(refused[i].signature, sig) == 0))
            return &refused[i];
    return NULL;
}

/* The input dtypes of a signature "ret(a, b, ...)" into dt; their count. */
static int sig_inputs(const char *sig, uf_dtype *dt)
{
    const char *p = strrchr(sig, '('); /* the arguments: the last group */
    assert_non_null(p);
    int n = 0;
    for (p++; *p && *p != ')';) {
        while (*p == ' ' || *p == ',')
            p++;
        char name[32];
        size_t len = strcspn(p, ", )");
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        p += len;
        if (len == 0)
            continue;
        uf_error err;
        const char *nm = strcmp(name, "boolean") == 0 ? "bool" : name;
        if (uf_dtype_from_name(nm, &dt[n], &err) != 0)
            fail_msg("signature '%s': dtype '%s': %s", sig, name,
                     err.message);
        n++;
    }
    return n;
}

typedef struct tally {
    int kernels, signatures, refused, both_failed, elements;
} tally;

static void release_all(uf_array **a, int n)
{
    for (int i = 0; i < n; i++) {
        uf_array_release(a[i]);
        a[i] = NULL;
    }
}

/* f on cpu and on cudasim with inputs of dtypes dt: the same results, bit
 * for bit, or the same error. */
static void compare_on(const char *file, uf_func *f, const char *what,
                       const uf_dtype *dt, tally *t)
{
    int nin = uf_func_nin(f);
    uf_array *in[MAXIN] = {NULL}, *want[MAXOUT] = {NULL},
             *got[MAXOUT] = {NULL};
    int64_t n = make_inputs(nin, dt, wants_small(file), in);
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    uf_call_options sim = {.size = sizeof sim, .target = SIM};
    uf_error e1, e2;
    int nout = uf_func_nout(f) > 0 ? uf_func_nout(f) : 1;
    int r1 = uf_call(f, in, nin, want, nout, &cpu, &e1);
    if (uf_func_nout(f) > nout) { /* a lazy kernel's tuple, now known */
        release_all(want, nout);
        nout = uf_func_nout(f);
        r1 = uf_call(f, in, nin, want, nout, &cpu, &e1);
    }
    const refusal *rf = refusal_of(file, uf_func_name(f), what);
    int r2 = uf_call(f, in, nin, got, nout, &sim, &e2);
    char label[256];
    snprintf(label, sizeof label, "%s: %s %s", file, uf_func_name(f), what);
    if (rf != NULL) {
        if (r2 != UF_ERR_UNSUPPORTED || !strstr(e2.message, rf->message))
            fail_msg("%s: expected refused (%s), got %d: %s", label,
                     rf->message, r2, r2 ? e2.message : "ran");
        t->refused++;
    } else if (r1 != 0) {
        /* the CPU refuses these dtypes (a lazy kernel's typing error):
         * so must cudasim, for the same reason */
        if (r2 != r1)
            fail_msg("%s: cpu failed (%s: %s), cudasim gave %d: %s", label,
                     uf_err_name(r1), e1.message, r2,
                     r2 ? e2.message : "ran");
        t->both_failed++;
    } else {
        if (r2 != 0)
            fail_msg("%s: cudasim failed: %s (%s)", label, e2.message,
                     uf_err_name(r2));
        for (int k = 0; k < nout; k++) {
            char w[300];
            snprintf(w, sizeof w, "%s output %d", label, k);
            assert_int_equal(uf_array_device(got[k]).type, UF_DEVICE_HOST);
            assert_same_bits(w, in, nin, want[k], got[k]);
        }
        t->elements += (int)n;
    }
    release_all(want, MAXOUT);
    release_all(got, MAXOUT);
    release_all(in, nin);
}

/* The dtype combinations a lazy kernel is called with. */
/* The dtype combinations a lazy kernel is called with (input 0, the
 * others), narrowest first: each compiles a signature of its own rather
 * than running an earlier one that takes it safely. */
static const uf_dtype lazy_combos[][2] = {
    {UF_BOOL, UF_BOOL},      {UF_INT64, UF_INT64},    {UF_FLOAT32, UF_FLOAT32},
    {UF_INT32, UF_FLOAT64},  {UF_FLOAT64, UF_FLOAT64},
};

static void corpus_file(const char *file, tally *t)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", KDIR, file);
    uf_error err;
    uf_module *m = uf_module_load(ctx, path, &err);
    if (m == NULL)
        fail_msg("%s: %s", file, err.message);
    for (int i = 0; i < uf_module_nfuncs(m); i++) {
        uf_func *f = uf_module_get(m, uf_module_func_name(m, i), &err);
        uf_assert_ok(f != NULL, &err);
        if (uf_func_get_kind(f) != UF_FUNC_UFUNC)
            continue;
        t->kernels++;
        uf_dtype dt[MAXIN];
        if (uf_func_nsignatures(f) > 0) {
            for (int s = 0; s < uf_func_nsignatures(f); s++) {
                const char *sig = uf_func_signature(f, s);
                assert_int_equal(sig_inputs(sig, dt), uf_func_nin(f));
                compare_on(file, f, sig, dt, t);
                t->signatures++;
            }
            continue;
        }
        for (size_t c = 0; c < sizeof lazy_combos / sizeof lazy_combos[0];
             c++) {
            char what[128] = "lazy(";
            for (int k = 0; k < uf_func_nin(f); k++) {
                dt[k] = lazy_combos[c][k ? 1 : 0];
                snprintf(what + strlen(what), sizeof what - strlen(what),
                         "%s%s", k ? ", " : "", uf_dtype_name(dt[k]));
            }
            strcat(what, ")");
            compare_on(file, f, what, dt, t);
            t->signatures++;
        }
    }
    uf_module_free(m);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_corpus_cpu_equals_cudasim(void **state)
{
    (void)state;
    DIR *d = opendir(KDIR);
    assert_non_null(d);
    char *files[128];
    int nf = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && nf < 128;) {
        size_t len = strlen(e->d_name);
        /* err_*.py are the front end's error cases: they do not load */
        if (len > 3 && strcmp(e->d_name + len - 3, ".py") == 0 &&
            strncmp(e->d_name, "err_", 4) != 0)
            files[nf++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(files, (size_t)nf, sizeof files[0], by_name);
    tally t = {0};
    for (int i = 0; i < nf; i++) {
        corpus_file(files[i], &t);
        free(files[i]);
    }
    printf("corpus on %s: %d vectorize kernels, %d signatures, %d "
           "elements compared %s; %d refused by CUDA as listed, %d refused "
           "by both\n",
           SIM, t.kernels, t.signatures, t.elements,
           cuda_test_on_gpu ? "within the GPU's bounds" : "bit for bit",
           t.refused, t.both_failed);
    if (cuda_test_on_gpu)
        printf("GPU: largest float difference from the cpu target: %.3g "
               "ulp\n", gpu_max_ulps);
    assert_true(t.kernels >= 200);
    assert_int_equal(t.refused, NREFUSED); /* every refusal still happens */
}

/* ---- the call path: shapes, operands, outputs, streams ------------------- */

static const char call_src[] =
    "from numba import vectorize\n"
    "\n"
    "@vectorize(['float64(float64, float64)', 'float32(float32, float32)'])\n"
    "def rel(x, y):\n"
    "    return abs(x - y) / (abs(x) + abs(y) + 1.0)\n"
    "\n"
    "@vectorize(['float64(float64, int64)'], boundscheck=True)\n"
    "def pick(x, k):\n"
    "    t = (x, 2.0 * x, 3.0 * x)\n"
    "    return t[k]\n"
    "\n"
    "@vectorize\n"
    "def twice(x):\n"
    "    return x + x\n";

typedef struct fx {
    uf_module *m;
    uf_func *rel, *pick, *twice;
} fx;

static int call_setup(void **state)
{
    uf_error err;
    fx *x = calloc(1, sizeof *x);
    if (x == NULL || (x->m = uf_module_from_string(ctx, "calls.py", call_src,
                                                   &err)) == NULL) {
        fprintf(stderr, "%s\n", err.message);
        free(x);
        return -1;
    }
    x->rel = uf_module_get(x->m, "rel", &err);
    x->pick = uf_module_get(x->m, "pick", &err);
    x->twice = uf_module_get(x->m, "twice", &err);
    *state = x;
    return x->rel && x->pick && x->twice ? 0 : -1;
}

static int call_teardown(void **state)
{
    fx *x = *state;
    uf_module_free(x->m);
    free(x);
    return 0;
}

/* A float64 host array of `shape` holding distinct values (some
 * negative, one -0.0) so that any misplaced element shows. */
static uf_array *iota(int ndim, const int64_t *shape, double scale)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, ndim, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *p = uf_array_data(a);
    for (int64_t i = 0; i < uf_array_size(a); i++)
        p[i] = i == 1 ? -0.0 : ((double)i - 7.25) * scale;
    return a;
}

static uf_array *view(uf_array *a, const char *expr)
{
    uf_error err;
    if (expr == NULL)
        return uf_array_retain(a);
    uf_array *v = strcmp(expr, "T") == 0 ? uf_array_transpose(a, NULL, &err)
                                         : uf_array_slice(a, expr, &err);
    uf_assert_ok(v != NULL, &err);
    return v;
}

static uf_array *to_dev(const uf_array *h)
{
    uf_error err;
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    return d;
}

static uf_array *to_host(const uf_array *d)
{
    uf_error err;
    uf_array *h = uf_copy_to_host(d, NULL, NULL, &err);
    uf_assert_ok(h != NULL, &err);
    return h;
}

typedef struct shape_case {
    const char *file;
    int line;
    int nd_a;
    int64_t a[UF_MAXDIMS];
    const char *va; /* a view of a (NULL: a itself; "T": transposed) */
    int nd_b;
    int64_t b[UF_MAXDIMS];
    const char *vb;
} shape_case;

static const shape_case shape_cases[] = {
    {LOC, 1, {1000}, NULL, 1, {1000}, NULL},           /* contiguous */
    {LOC, 2, {3, 1}, NULL, 1, {4}, NULL},              /* broadcast */
    {LOC, 1, {30}, "::3", 1, {10}, NULL},              /* strided */
    {LOC, 1, {21}, "::-2", 1, {33}, "5:16"},           /* negative stride */
    {LOC, 2, {5, 7}, "T", 2, {7, 5}, NULL},            /* transposed */
    {LOC, 2, {6, 8}, "::-1, 1::3", 2, {3, 6}, "T"},    /* mixed views */
    {LOC, 3, {4, 5, 6}, "..., ::2", 1, {3}, NULL},     /* N-d view */
    {LOC, 0, {0}, NULL, 0, {0}, NULL},                 /* 0-d: scalars */
    {LOC, 0, {0}, NULL, 2, {3, 2}, NULL},              /* scalar + array */
    {LOC, 1, {0}, NULL, 1, {0}, NULL},                 /* empty */
    {LOC, 2, {3, 0}, NULL, 1, {1}, NULL},              /* empty, broadcast */
    {LOC, 2, {1, 1}, NULL, 3, {1, 1, 1}, NULL},        /* all length 1 */
};

/* The inputs a case makes: host views, or (dev) the same views of device
 * copies of the bases, as a caller slicing device arrays has them. */
static void case_inputs(const shape_case *c, int dev_mask, uf_array **in)
{
    uf_array *base[2] = {iota(c->nd_a, c->a, 0.5), iota(c->nd_b, c->b, -1.5)};
    const char *v[2] = {c->va, c->vb};
    for (int k = 0; k < 2; k++) {
        if (dev_mask & (1 << k)) {
            uf_array *d = to_dev(base[k]);
            in[k] = view(d, v[k]);
            uf_array_release(d);
        } else {
            in[k] = view(base[k], v[k]);
        }
        uf_array_release(base[k]);
    }
}

static void test_shapes_and_operands(void **state)
{
    fx *x = *state;
    uf_error err;
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    uf_call_options sim = {.size = sizeof sim, .target = SIM};
    for (size_t i = 0; i < sizeof shape_cases / sizeof shape_cases[0]; i++) {
        const shape_case *c = &shape_cases[i];
        uf_array *hin[2], *want = NULL;
        case_inputs(c, 0, hin);
        if (uf_call(x->rel, hin, 2, &want, 1, &cpu, &err) != 0)
            uf_fail_at(c->file, c->line, "cpu: %s", err.message);
        /* host, device, and mixed operands */
        for (int mask = 0; mask < 4; mask++) {
            uf_array *in[2], *got = NULL;
            case_inputs(c, mask, in);
            if (uf_call(x->rel, in, 2, &got, 1, &sim, &err) != 0)
                uf_fail_at(c->file, c->line, "operands %d: %s", mask,
                           err.message);
            /* numba-cuda's rule: on the device when an input is */
            bool dev = uf_array_device(got).type == UF_DEVICE_CUDA;
            if (dev != (mask != 0))
                uf_fail_at(c->file, c->line, "operands %d: result on the %s",
                           mask, dev ? "device" : "host");
            uf_array *h = dev ? to_host(got) : uf_array_retain(got);
            char what[64];
            snprintf(what, sizeof what, "%s:%d operands %d", c->file,
                     c->line, mask);
            assert_same_bits(what, NULL, 0, want, h);
            uf_array_release(h);
            uf_array_release(got);
            release_all(in, 2);
        }
        uf_array_release(want);
        release_all(hin, 2);
    }
}

/* Nine axes that no merge can join (alternating broadcasts): the CUDA
 * kernels take at most UF__NVVM_MAXDIM = 8, so the call is refused and
 * says why; the CPU runs it. A device view of 9 such axes too. */
static void test_nine_axes(void **state)
{
    fx *x = *state;
    uf_error err;
    int64_t sa[9], sb[9];
    for (int k = 0; k < 9; k++) {
        sa[k] = k % 2 ? 1 : 2;
        sb[k] = k % 2 ? 2 : 1;
    }
    uf_array *in[2] = {iota(9, sa, 1.0), iota(9, sb, 2.0)}, *out = NULL;
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    uf_call_options sim = {.size = sizeof sim, .target = SIM};
    uf_assert_ok(uf_call(x->rel, in, 2, &out, 1, &cpu, &err) == 0, &err);
    uf_array_release(out);
    out = NULL;
    assert_int_equal(uf_call(x->rel, in, 2, &out, 1, &sim, &err),
                     UF_ERR_UNSUPPORTED);
    assert_null(out);
    assert_non_null(strstr(err.message, "9 axes that cannot be merged"));
    assert_non_null(strstr(err.message, "at most 8"));

    /* a device view: every axis strided by 2 of 3 */
    int64_t s3[9];
    for (int k = 0; k < 9; k++)
        s3[k] = 3;
    uf_array *h = iota(9, s3, 1.0), *d = to_dev(h);
    uf_array *dv = view(d, "::2, ::2, ::2, ::2, ::2, ::2, ::2, ::2, ::2");
    uf_array *din[2] = {dv, dv};
    assert_int_equal(uf_call(x->rel, din, 2, &out, 1, &sim, &err),
                     UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "cannot be merged"));
    /* eight of them run */
    uf_array *dv8 = view(dv, "0");
    uf_array *hv8 = view(h, "0:1:2, ::2, ::2, ::2, ::2, ::2, ::2, ::2, ::2");
    uf_array *hv8b = view(hv8, "0");
    uf_array *in8[2] = {dv8, dv8}, *hin8[2] = {hv8b, hv8b}, *want = NULL;
    uf_assert_ok(uf_call(x->rel, in8, 2, &out, 1, &sim, &err) == 0, &err);
    uf_assert_ok(uf_call(x->rel, hin8, 2, &want, 1, &cpu, &err) == 0, &err);
    uf_array *back = to_host(out);
    assert_same_bits("8 axes", NULL, 0, want, back);
    uf_array_release(back);
    uf_array_release(want);
    uf_array_release(out);
    uf_array_release(hv8b);
    uf_array_release(hv8);
    uf_array_release(dv8);
    uf_array_release(dv);
    uf_array_release(d);
    uf_array_release(h);
    release_all(in, 2);
}

/* out= on the device; out= on the host with a same_kind cast (float32
 * out of a float64 kernel); a read-only out= refused. */
static void test_outputs(void **state)
{
    fx *x = *state;
    uf_error err;
    const int64_t shape[2] = {4, 6};
    uf_array *in[2] = {iota(2, shape, 0.25), iota(2, shape, -0.5)};
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    uf_call_options sim = {.size = sizeof sim, .target = SIM};
    uf_array *want = NULL;
    uf_assert_ok(uf_call(x->rel, in, 2, &want, 1, &cpu, &err) == 0, &err);

    /* a device out= (a view of a bigger array: written in place) */
    const int64_t big[2] = {4, 12};
    uf_array *dbig = uf_device_array(UF_FLOAT64, 2, big, UF_ORDER_C, SIM,
                                     &err);
    uf_assert_ok(dbig != NULL, &err);
    uf_array *dout = view(dbig, ":, ::2");
    uf_array *o = dout;
    uf_assert_ok(uf_call(x->rel, in, 2, &o, 1, &sim, &err) == 0, &err);
    assert_ptr_equal(o, dout);
    uf_array *h = to_host(dout);
    assert_same_bits("device out=", NULL, 0, want, h);
    uf_array_release(h);

    /* a host float32 out= of the float64 kernel: cast as same_kind */
    uf_array *want32 = NULL, *out32 =
        uf_empty(UF_FLOAT32, 2, shape, UF_ORDER_F, &err);
    uf_array *cpu32 = uf_empty(UF_FLOAT32, 2, shape, UF_ORDER_F, &err);
    want32 = cpu32;
    uf_assert_ok(uf_call(x->rel, in, 2, &want32, 1, &cpu, &err) == 0, &err);
    o = out32;
    uf_assert_ok(uf_call(x->rel, in, 2, &o, 1, &sim, &err) == 0, &err);
    assert_ptr_equal(o, out32);
    assert_same_bits("host float32 out=", NULL, 0, cpu32, out32);
    /* and an int64 out= is refused as NumPy refuses it */
    uf_array *oi = uf_empty(UF_INT64, 2, shape, UF_ORDER_C, &err);
    o = oi;
    assert_int_equal(uf_call(x->rel, in, 2, &o, 1, &sim, &err), UF_ERR_CAST);
    assert_non_null(strstr(err.message, "'same_kind'"));

    /* read-only, on either side */
    uf_array *ro = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(uf_array_set_writeable(ro, false, &err) == 0, &err);
    o = ro;
    assert_int_equal(uf_call(x->rel, in, 2, &o, 1, &sim, &err),
                     UF_ERR_READONLY);
    assert_non_null(strstr(err.message, "read-only"));
    /* shapes, worded as the CPU words them: out= takes part in the
     * broadcast (inputs of one row fill a (4, 6) out=), but is never
     * broadcast itself */
    uf_array *wrong = uf_device_array(UF_FLOAT64, 1, big, UF_ORDER_C, SIM,
                                      &err);
    o = wrong;
    assert_int_equal(uf_call(x->rel, in, 2, &o, 1, &sim, &err),
                     UF_ERR_SHAPE);
    assert_string_equal(err.message, "operands could not be broadcast "
                                     "together with shapes (4,6) (4,6) (4,)");
    uf_array *rows[2] = {view(in[0], "1"), view(in[1], "1")};
    uf_array *want_rows = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    o = want_rows;
    uf_assert_ok(uf_call(x->rel, rows, 2, &o, 1, &cpu, &err) == 0, &err);
    o = dout;
    uf_assert_ok(uf_call(x->rel, rows, 2, &o, 1, &sim, &err) == 0, &err);
    h = to_host(dout);
    assert_same_bits("rows into a (4, 6) out=", NULL, 0, want_rows, h);
    uf_array_release(h);
    uf_array *one_row = view(dout, "1:2");
    o = one_row;
    assert_int_equal(uf_call(x->rel, in, 2, &o, 1, &sim, &err),
                     UF_ERR_SHAPE);
    assert_string_equal(err.message, "non-broadcastable output operand with "
                                     "shape (1,6) doesn't match the "
                                     "broadcast shape (4,6)");
    uf_array_release(one_row);
    uf_array_release(want_rows);
    release_all(rows, 2);
    /* a device out= of another dtype: not cast on the device */
    uf_array *d32 = uf_device_array(UF_FLOAT32, 2, shape, UF_ORDER_C, SIM,
                                    &err);
    o = d32;
    assert_int_equal(uf_call(x->rel, in, 2, &o, 1, &sim, &err), UF_ERR_CAST);
    assert_non_null(strstr(err.message, "device array of dtype float32"));

    uf_array_release(d32);
    uf_array_release(wrong);
    uf_array_release(ro);
    uf_array_release(oi);
    uf_array_release(out32);
    uf_array_release(cpu32);
    uf_array_release(dout);
    uf_array_release(dbig);
    uf_array_release(want);
    release_all(in, 2);
}

/* A stream: device operands queued on it, complete after
 * uf_stream_synchronize; host operands and a host out= on a stream too
 * (the call waits for them itself). */
static void test_stream(void **state)
{
    fx *x = *state;
    uf_error err;
    uf_stream *s = uf_stream_create(SIM, &err);
    uf_assert_ok(s != NULL, &err);
    const int64_t n[1] = {100003};
    uf_array *in[2] = {iota(1, n, 0.001), iota(1, n, -0.003)};
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    uf_call_options sim = {.size = sizeof sim, .target = SIM, .stream = s};
    uf_array *want = NULL;
    uf_assert_ok(uf_call(x->rel, in, 2, &want, 1, &cpu, &err) == 0, &err);

    uf_array *din[2], *got = NULL;
    for (int k = 0; k < 2; k++) {
        din[k] = uf_to_device(in[k], SIM, s, &err);
        uf_assert_ok(din[k] != NULL, &err);
    }
    uf_assert_ok(uf_call(x->rel, din, 2, &got, 1, &sim, &err) == 0, &err);
    assert_int_equal(uf_array_device(got).type, UF_DEVICE_CUDA);
    uf_array *h = uf_copy_to_host(got, NULL, s, &err);
    uf_assert_ok(h != NULL, &err);
    uf_assert_ok(uf_stream_synchronize(s, &err) == 0, &err);
    assert_same_bits("stream, device operands", NULL, 0, want, h);
    uf_array_release(h);
    uf_array_release(got);
    got = NULL;

    /* host operands on the stream: back on the host, complete */
    uf_assert_ok(uf_call(x->rel, in, 2, &got, 1, &sim, &err) == 0, &err);
    assert_same_bits("stream, host operands", NULL, 0, want, got);
    uf_array_release(got);

    /* device operands, host out=: complete when the call returns */
    uf_array *hout = uf_empty(UF_FLOAT64, 1, n, UF_ORDER_C, &err);
    memset(uf_array_data(hout), 0xff, (size_t)uf_array_nbytes(hout));
    got = hout;
    uf_assert_ok(uf_call(x->rel, din, 2, &got, 1, &sim, &err) == 0, &err);
    assert_same_bits("stream, host out=", NULL, 0, want, hout);
    uf_array_release(hout);

    release_all(din, 2);
    uf_array_release(want);
    release_all(in, 2);
    uf_stream_destroy(s);
}

/* What the CUDA call path refuses, each with its message. */
static void test_refusals(void **state)
{
    fx *x = *state;
    uf_error err;
    uf_call_options sim = {.size = sizeof sim, .target = SIM};
    const int64_t n[1] = {5};
    uf_array *xs = iota(1, n, 1.0), *got = NULL;
    /* a device input of a dtype the signature does not take: int32
     * would be cast to int64 on the host, never on the device */
    uf_error e2;
    uf_array *k32 = uf_zeros(UF_INT32, 1, n, UF_ORDER_C, &e2);
    uf_array *dk = to_dev(k32);
    uf_array *in[2] = {xs, dk};
    assert_int_equal(uf_call(x->pick, in, 2, &got, 1, &sim, &err),
                     UF_ERR_CAST);
    assert_string_equal(err.message,
                        "input 2 is a device array of dtype int32, but the "
                        "kernel's signature takes int64: device inputs are "
                        "not cast (cast it on the device first)");
    assert_null(got);
    /* the same on the host is cast */
    in[1] = k32;
    uf_assert_ok(uf_call(x->pick, in, 2, &got, 1, &sim, &err) == 0, &err);
    assert_true(memcmp(uf_array_data(got), uf_array_data(xs), 40) == 0);
    uf_array_release(got);
    got = NULL;

    /* where= */
    uf_array *mask = uf_ones(UF_BOOL, 1, n, UF_ORDER_C, &err);
    uf_call_options w = sim;
    w.where = mask;
    uf_array *rin[2] = {xs, xs};
    assert_int_equal(uf_call(x->rel, rin, 2, &got, 1, &w, &err),
                     UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "where= is not supported on the "
                                        "CUDA targets"));
    /* no signature takes complex */
    uf_array *c = uf_zeros(UF_COMPLEX128, 1, n, UF_ORDER_C, &err);
    uf_array *cin[2] = {c, c};
    assert_int_equal(uf_call(x->rel, cin, 2, &got, 1, &sim, &err),
                     UF_ERR_TYPE);
    assert_non_null(strstr(err.message, "not supported for the input types "
                                        "(complex128, complex128)"));
    /* the wrong number of operands */
    assert_int_equal(uf_call(x->rel, rin, 1, &got, 1, &sim, &err),
                     UF_ERR_INVALID);
    uf_array *two[2] = {NULL, NULL};
    assert_int_equal(uf_call(x->rel, rin, 2, two, 2, &sim, &err),
                     UF_ERR_INVALID);
    assert_null(two[0]);
    assert_null(got);
    uf_array_release(c);
    uf_array_release(mask);
    uf_array_release(dk);
    uf_array_release(k32);
    uf_array_release(xs);
}

/* boundscheck=True: t[k] out of range is the CPU's IndexError, word for
 * word, reported through the kernel's status word. */
static void test_index_error(void **state)
{
    fx *x = *state;
    const int64_t n[1] = {6};
    uf_array *xs = iota(1, n, 1.0);
    uf_error err;
    uf_array *k = uf_empty(UF_INT64, 1, n, UF_ORDER_C, &err);
    int64_t idx[6] = {0, 1, 2, 7, 1, -2};
    memcpy(uf_array_data(k), idx, sizeof idx);
    uf_array *in[2] = {xs, k}, *got = NULL;
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    uf_call_options sim = {.size = sizeof sim, .target = SIM};
    uf_error e1, e2;
    int r1 = uf_call(x->pick, in, 2, &got, 1, &cpu, &e1);
    assert_int_not_equal(r1, 0);
    assert_null(got);
    int r2 = uf_call(x->pick, in, 2, &got, 1, &sim, &e2);
    assert_int_equal(r2, r1);
    assert_null(got);
    assert_string_equal(e2.message, e1.message);
    assert_non_null(strstr(e1.message, "IndexError"));
    /* in range (negative indices wrap): the values */
    idx[3] = -1;
    memcpy(uf_array_data(k), idx, sizeof idx);
    uf_array *d = to_dev(k), *dx = to_dev(xs), *din[2] = {dx, d}, *want = NULL;
    uf_assert_ok(uf_call(x->pick, in, 2, &want, 1, &cpu, &err) == 0, &err);
    uf_assert_ok(uf_call(x->pick, din, 2, &got, 1, &sim, &err) == 0, &err);
    uf_array *h = to_host(got);
    assert_same_bits("pick", NULL, 0, want, h);
    uf_array_release(h);
    uf_array_release(got);
    uf_array_release(want);
    uf_array_release(dx);
    uf_array_release(d);
    uf_array_release(k);
    uf_array_release(xs);
}

/* A lazy kernel on cudasim dispatches as on the CPU: int64 compiled
 * first, an int32 host input runs it (int64 result), float64 compiles
 * float64, uint8 then runs int64 (the first that takes it safely). A
 * device input is never cast: it runs a signature of its own dtype
 * (int32: int32 + int32 is int64 in Numba's typing),
 * compiled for it. Declared signatures: the first taking the device
 * input as it is (rel's float32 for a float32 device array). */
static void test_lazy_dispatch(void **state)
{
    fx *x = *state;
    uf_error err;
    static const struct {
        uf_dtype in, out;
        bool dev;
    } calls[] = {{UF_INT64, UF_INT64, false},   {UF_INT32, UF_INT64, false},
                 {UF_FLOAT64, UF_FLOAT64, false}, {UF_UINT8, UF_INT64, false},
                 {UF_FLOAT32, UF_FLOAT64, false}, {UF_INT32, UF_INT64, true},
                 {UF_FLOAT32, UF_FLOAT32, true},  {UF_INT64, UF_INT64, true}};
    const int64_t n[1] = {3};
    uf_call_options sim = {.size = sizeof sim, .target = SIM};
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        uf_array *a = uf_ones(calls[i].in, 1, n, UF_ORDER_C, &err);
        uf_array *in = calls[i].dev ? to_dev(a) : uf_array_retain(a);
        uf_array *got = NULL;
        uf_assert_ok(uf_call(x->twice, &in, 1, &got, 1, &sim, &err) == 0,
                     &err);
        if (uf_array_dtype(got) != calls[i].out)
            fail_msg("call %zu: %s gave %s, expected %s", i,
                     uf_dtype_name(calls[i].in),
                     uf_dtype_name(uf_array_dtype(got)),
                     uf_dtype_name(calls[i].out));
        uf_array_release(got);
        uf_array_release(in);
        uf_array_release(a);
    }
    uf_array *f32 = uf_ones(UF_FLOAT32, 1, n, UF_ORDER_C, &err);
    uf_array *d = to_dev(f32), *in[2] = {d, d}, *got = NULL;
    uf_assert_ok(uf_call(x->rel, in, 2, &got, 1, &sim, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(got), UF_FLOAT32);
    uf_array_release(got);
    uf_array_release(d);
    uf_array_release(f32);
}

/* UFJIT_ENABLE_CUDASIM=1: target `cuda` runs on the simulator. */
static void test_cuda_on_sim(void **state)
{
    fx *x = *state;
    uf_error err;
    setenv("UFJIT_ENABLE_CUDASIM", "1", 1);
    const int64_t n[1] = {17};
    uf_array *in[2] = {iota(1, n, 1.0), iota(1, n, 3.0)}, *want = NULL,
             *got = NULL;
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    uf_call_options cuda = {.size = sizeof cuda, .target = "cuda"};
    uf_assert_ok(uf_call(x->rel, in, 2, &want, 1, &cpu, &err) == 0, &err);
    uf_assert_ok(uf_call(x->rel, in, 2, &got, 1, &cuda, &err) == 0, &err);
    unsetenv("UFJIT_ENABLE_CUDASIM");
    assert_same_bits("cuda on cudasim", NULL, 0, want, got);
    uf_array_release(got);
    uf_array_release(want);
    release_all(in, 2);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_cpu_equals_cudasim),
#define CALL_TEST(f) cmocka_unit_test_setup_teardown(f, call_setup, call_teardown)
        CALL_TEST(test_shapes_and_operands),
        CALL_TEST(test_nine_axes),
        CALL_TEST(test_outputs),
        CALL_TEST(test_stream),
        CALL_TEST(test_refusals),
        CALL_TEST(test_index_error),
        CALL_TEST(test_lazy_dispatch),
        CALL_TEST(test_cuda_on_sim),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
