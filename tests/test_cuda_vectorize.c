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
 * safely), so both targets are called in the same order. The call path
 * itself: test_cuda_vectorize_calls.c. */
#include <dirent.h>

#include "cuda_compare.h"

#define KDIR UF_TEST_DATA_DIR "/../kernels"
#define MAX_ELEMS 12000
#define MAXIN 8 /* inputs of the widest kernel tested */
#define MAXOUT 8

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


/* ---- the corpus: every vectorize kernel, cpu against cudasim ------------- */

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
    int kernels, signatures, both_failed, elements;
} tally;


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
    int r2 = uf_call(f, in, nin, got, nout, &sim, &e2);
    char label[256];
    snprintf(label, sizeof label, "%s: %s %s", file, uf_func_name(f), what);
    if (r1 != 0) {
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
           "elements compared %s (none refused by CUDA); %d refused by "
           "both\n",
           SIM, t.kernels, t.signatures, t.elements,
           cuda_test_on_gpu ? "within the GPU's bounds" : "bit for bit",
           t.both_failed);
    if (cuda_test_on_gpu)
        printf("GPU: largest float difference from the cpu target: %.3g "
               "ulp; %ld differing values of near-overflow or non-finite "
               "inputs not compared (fma contraction, ill-conditioned); "
               "%ld undefined or cancelling (an out-of-range conversion "
               "to int64, a result cancelling to zero)\n",
               gpu_max_ulps, gpu_extreme_skipped, gpu_undefined_skipped);
    assert_true(t.kernels >= 200);
    assert_int_equal(gpu_mismatches, 0);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_cpu_equals_cudasim),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
