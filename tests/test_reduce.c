/* Reductions through the C API (reduce/, compiler/host/jit_reduce.c).
 *
 * 1. The Numba/NumPy oracle tests/data/reduce_cases.txt, written by
 *    tests/e2e/run_reduce_oracle.py (format there), or the file named by
 *    argv[1] (CTest also runs this on a freshly generated one): every axis
 *    combination of a 4-d array with keepdims, views with negative and
 *    non-unit strides, initial=, identities, empty and 0-d inputs, integer
 *    overflow, NaN through maximum/minimum kernels, left-to-right order of
 *    kernels that are not reorderable, accumulate, outer, and NumPy's
 *    error messages for bad axes.
 * 2. Float sums: the pairwise tree against a C copy of NumPy's
 *    pairwise_sum, the same result for strided input, and accuracy on
 *    1e6 elements where a sequential sum is far off.
 * 3. out=, a kernel that fails, and out-of-memory paths. */
#include <math.h>

#include "test_util.h"

#include "common/alloc.h"
#include "ndarray/cast.h"

#define KERNELS UF_TEST_DATA_DIR "/../kernels/reduce_kernels.py"

static const char *oracle_path = UF_TEST_DATA_DIR "/reduce_cases.txt";

typedef struct fixture {
    uf_context *ctx;
    uf_module *m;
} fixture;

static int setup(void **state)
{
    static fixture fx;
    uf_error err;
    uf_error_clear(&err);
    fx.ctx = uf_context_new(&err);
    fx.m = fx.ctx ? uf_module_load(fx.ctx, KERNELS, &err) : NULL;
    if (fx.m == NULL) {
        print_error("cannot load %s: %s\n", KERNELS, err.message);
        return -1;
    }
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    uf_module_free(fx->m);
    uf_context_free(fx->ctx);
    return 0;
}

/* @cuda.reduce kernels run on the cuda target unless told: these run
 * them on the host */
static const uf_call_options CPU = {.size = sizeof CPU, .target = "cpu"};

static uf_func *get(void **state, const char *name)
{
    fixture *fx = *state;
    uf_error err;
    uf_func *f = uf_module_get(fx->m, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

/* ---- the oracle file ------------------------------------------------- */

typedef struct reader {
    char *text, *pos;
    int line;
} reader;

/* The next line (NUL-terminated in place), NULL at the end. */
static char *next_line(reader *r)
{
    while (r->pos && *r->pos) {
        char *s = r->pos, *nl = strchr(s, '\n');
        r->line++;
        if (nl) {
            *nl = '\0';
            r->pos = nl + 1;
        } else {
            r->pos = NULL;
        }
        if (*s != '#' && *s != '\0')
            return s;
    }
    return NULL;
}

static int parse_shape(const char *s, int64_t *shape)
{
    if (strcmp(s, "-") == 0)
        return 0;
    int n = 0;
    for (;;) {
        char *end;
        shape[n++] = strtoll(s, &end, 10);
        if (*end != 'x')
            return n;
        s = end + 1;
    }
}

/* Fills a C-contiguous array from the "data v v v" line. */
static void fill(uf_array *a, char *data)
{
    uf_dtype dt = uf_array_dtype(a);
    char kind = uf_dtype_kind(dt);
    size_t isz = uf_array_itemsize(a);
    char *p = uf_array_data(a), *s = data + 4;
    for (int64_t i = 0; i < uf_array_size(a); i++) {
        char *end;
        if (kind == 'f') {
            double v = strtod(s, &end);
            uf__get_cast(UF_FLOAT64, dt)((char *)&v, 0, p + i * isz, 0, 1);
        } else if (kind == 'u') {
            uint64_t v = strtoull(s, &end, 10);
            uf__get_cast(UF_UINT64, dt)((char *)&v, 0, p + i * isz, 0, 1);
        } else {
            int64_t v = strtoll(s, &end, 10);
            uf__get_cast(UF_INT64, dt)((char *)&v, 0, p + i * isz, 0, 1);
        }
        s = end;
    }
}

/* "in DTYPE SHAPE VIEW" + data: the base array, then the view. */
static uf_array *read_input(reader *r, char *hdr, uf_error *err)
{
    char dname[32], shp[256], view[256];
    int64_t shape[UF_MAXDIMS];
    uf_dtype dt;
    if (sscanf(hdr, "in %31s %255s %255s", dname, shp, view) != 3 ||
        uf_dtype_from_name(dname, &dt, err) != 0)
        return NULL;
    int nd = parse_shape(shp, shape);
    uf_array *a = uf_empty(dt, nd, shape, UF_ORDER_C, err);
    char *data = next_line(r);
    if (a == NULL || data == NULL)
        return a;
    fill(a, data);
    uf_array *v = a;
    if (view[0] == 'S') {
        v = uf_array_slice(a, strchr(view, ':') + 1, err);
        uf_array_release(a);
        a = v;
    }
    if (v != NULL && strchr(view, 'T') != NULL) {
        v = uf_array_transpose(a, NULL, err);
        uf_array_release(a);
    }
    return v;
}

typedef struct tcase {
    int id;
    char kernel[64], method[16], axes[64], init[64];
    int keepdims;
    uf_array *in[2];
    int nin;
} tcase;

static int run_case(void **state, const tcase *c, uf_array **out,
                    uf_error *err)
{
    uf_func *f = get(state, c->kernel);
    uf_call_options o;
    int axes[UF_MAXDIMS], naxes = 0;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.target = "cpu"; /* @cuda.reduce kernels default to cuda */
    o.keepdims = c->keepdims != 0;
    if (strcmp(c->axes, "none") == 0) {
        o.axes_mode = UF_AXES_ALL;
    } else if (strncmp(c->axes, "list:", 5) == 0) {
        o.axes_mode = UF_AXES_LIST;
        for (const char *s = c->axes + 5; *s;) {
            char *end;
            axes[naxes++] = (int)strtol(s, &end, 10);
            s = *end == ',' ? end + 1 : end;
        }
        o.naxes = naxes;
        o.axes = axes;
    }
    uf_array *init = NULL;
    if (strcmp(c->init, "-") != 0) {
        char dname[32];
        uf_dtype dt;
        double v = 0;
        if (sscanf(c->init, "%31[^:]:%lf", dname, &v) != 2 ||
            uf_dtype_from_name(dname, &dt, err) != 0)
            return UF_ERR_INVALID;
        init = uf_full(dt, 0, NULL, &v, UF_FLOAT64, UF_ORDER_C, err);
        o.initial = init;
    }
    int rc;
    *out = NULL;
    if (strcmp(c->method, "outer") == 0)
        rc = uf_outer(f, c->in[0], c->in[1], out, &o, err);
    else if (strcmp(c->method, "accumulate") == 0)
        rc = uf_accumulate(f, c->in[0], out, &o, err);
    else if (uf_func_get_kind(f) == UF_FUNC_REDUCE)
        rc = uf_call(f, c->in, 1, out, 1, &o, err);
    else
        rc = uf_reduce(f, c->in[0], out, &o, err);
    uf_array_release(init);
    return rc;
}

/* Compares with the expected "out" array; a message in `why` if not. */
static bool same(uf_array *got, uf_array *want, char *why, size_t n)
{
    char s1[256], s2[256];
    if (uf_array_dtype(got) != uf_array_dtype(want)) {
        snprintf(why, n, "dtype %s, want %s", uf_dtype_name(uf_array_dtype(got)),
                 uf_dtype_name(uf_array_dtype(want)));
        return false;
    }
    int nd = uf_array_ndim(got);
    if (nd != uf_array_ndim(want) ||
        memcmp(uf_array_shape(got), uf_array_shape(want),
               (size_t)nd * sizeof(int64_t)) != 0) {
        uf_error e;
        char *a = uf_array_repr(got, &e);
        snprintf(why, n, "shape differs: got %s", a ? a : "?");
        uf_free(a);
        return false;
    }
    uf_error e;
    uf_array *g = uf_array_copy(got, UF_ORDER_C, &e);
    size_t isz = uf_array_itemsize(want);
    bool ok = true;
    char kind = uf_dtype_kind(uf_array_dtype(want));
    for (int64_t i = 0; ok && i < uf_array_size(want); i++) {
        const char *x = (char *)uf_array_data(g) + i * isz;
        const char *y = (char *)uf_array_data(want) + i * isz;
        if (kind == 'f') {
            double a = 0, b = 0;
            uf__get_cast(uf_array_dtype(want), UF_FLOAT64)(x, 0, (char *)&a, 0,
                                                          1);
            uf__get_cast(uf_array_dtype(want), UF_FLOAT64)(y, 0, (char *)&b, 0,
                                                          1);
            ok = a == b || (isnan(a) && isnan(b));
        } else {
            ok = memcmp(x, y, isz) == 0;
        }
    }
    if (!ok) {
        char *a = uf_array_repr(got, &e), *b = uf_array_repr(want, &e);
        snprintf(s1, sizeof s1, "%s", a ? a : "?");
        snprintf(s2, sizeof s2, "%s", b ? b : "?");
        snprintf(why, n, "got %s\n    want %s", s1, s2);
        uf_free(a);
        uf_free(b);
    }
    uf_array_release(g);
    return ok;
}

static char *read_text(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, fp) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(fp);
    return s;
}

static void test_oracle(void **state)
{
    reader r = {read_text(oracle_path), NULL, 0};
    if (r.text == NULL)
        fail_msg("cannot read %s", oracle_path);
    r.pos = r.text;
    int ncases = 0, nfail = 0;
    char *line = next_line(&r);
    while (line != NULL) {
        tcase c;
        memset(&c, 0, sizeof c);
        if (sscanf(line, "case %d %63s %15s %63s %d %63s", &c.id, c.kernel,
                   c.method, c.axes, &c.keepdims, c.init) != 6)
            fail_msg("%s:%d: bad case line", oracle_path, r.line);
        int at = r.line;
        uf_error err;
        uf_error_clear(&err);
        while ((line = next_line(&r)) != NULL && strncmp(line, "in ", 3) == 0)
            if (!(c.in[c.nin++] = read_input(&r, line, &err)))
                fail_msg("%s:%d: bad input: %s", oracle_path, r.line,
                         err.message);
        if (line == NULL)
            fail_msg("%s: truncated at case %d", oracle_path, c.id);
        uf_array *got = NULL;
        uf_error_clear(&err);
        int rc = run_case(state, &c, &got, &err);
        char why[2048] = "";
        bool ok;
        if (strncmp(line, "err ", 4) == 0) {
            char code[32];
            int off = 0;
            sscanf(line, "err %31s %n", code, &off);
            char want_code[48];
            snprintf(want_code, sizeof want_code, "UF_ERR_%s", code);
            ok = rc != 0 && strcmp(uf_err_name(rc), want_code) == 0 &&
                 strcmp(err.message, line + off) == 0;
            if (!ok)
                snprintf(why, sizeof why, "want %s '%s', got %s '%s'",
                         want_code, line + off, rc ? uf_err_name(rc) : "success",
                         rc ? err.message : "");
        } else {
            /* "out DTYPE SHAPE" + data */
            char hdr[300];
            snprintf(hdr, sizeof hdr, "in %s -", line + 4);
            uf_array *want = read_input(&r, hdr, &err);
            ok = rc == 0 && want != NULL && same(got, want, why, sizeof why);
            if (rc != 0)
                snprintf(why, sizeof why, "failed: %s (%s)", err.message,
                         uf_err_name(rc));
            uf_array_release(want);
        }
        if (!ok && nfail++ < 25)
            print_error("%s:%d: case %d %s %s axes=%s keepdims=%d "
                        "initial=%s:\n    %s\n", oracle_path, at, c.id,
                        c.kernel, c.method, c.axes, c.keepdims, c.init, why);
        uf_array_release(got);
        for (int i = 0; i < c.nin; i++)
            uf_array_release(c.in[i]);
        ncases++;
        line = next_line(&r);
    }
    free(r.text);
    print_message("%d oracle cases, %d failed\n", ncases, nfail);
    assert_true(ncases > 300);
    assert_int_equal(nfail, 0);
}

/* ---- float sums ------------------------------------------------------ */

/* NumPy's pairwise_sum (numpy/_core/src/umath/loops_utils.h.src). */
static double np_pairwise(const double *a, int64_t n)
{
    if (n < 8) {
        double res = 0.;
        for (int64_t i = 0; i < n; i++)
            res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8], res;
        int64_t i;
        for (int j = 0; j < 8; j++)
            r[j] = a[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += a[i + j];
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += a[i];
        return res;
    }
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    return np_pairwise(a, n2) + np_pairwise(a + n2, n - n2);
}

static double sum_of(void **state, uf_array *a, uf_error *err)
{
    uf_array *out = NULL;
    uf_call_options o = {.size = sizeof o, .axes_mode = UF_AXES_ALL};
    if (uf_reduce(get(state, "vadd"), a, &out, &o, err) != 0)
        return NAN;
    double v = 0;
    uf__get_cast(uf_array_dtype(out), UF_FLOAT64)(uf_array_data(out), 0,
                                                  (char *)&v, 0, 1);
    uf_array_release(out);
    return v;
}

static void test_pairwise_order(void **state)
{
    /* for n a power of two times 128 (and n <= 128) NumPy's halving and
     * the block tree split the same way: bit for bit */
    static const int64_t ns[] = {3, 8, 9, 100, 127, 128, 256, 1024, 4096,
                                 32768, 1 << 20};
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &(int64_t){1 << 20}, UF_ORDER_C,
                           &err);
    double *x = uf_array_data(a);
    uint64_t s = 88172645463325252ull;
    for (int64_t i = 0; i < (1 << 20); i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        x[i] = (double)(s >> 11) * 0x1p-53 * (i % 3 ? 1.0 : -1e3) + 1e-9 * i;
    }
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        char expr[64];
        snprintf(expr, sizeof expr, ":%lld", (long long)ns[k]);
        uf_array *v = uf_array_slice(a, expr, &err);
        double got = sum_of(state, v, &err), want = np_pairwise(x, ns[k]);
        if (got != want)
            fail_msg("n=%lld: %.17g, NumPy's pairwise sum %.17g",
                     (long long)ns[k], got, want);
        /* the same elements through a stride: the same tree */
        uf_array *w = uf_empty(UF_FLOAT64, 1, &(int64_t){2 * ns[k]},
                               UF_ORDER_C, &err);
        for (int64_t i = 0; i < ns[k]; i++)
            ((double *)uf_array_data(w))[2 * i] = x[i];
        uf_array *ws = uf_array_slice(w, "::2", &err);
        double strided = sum_of(state, ws, &err);
        if (strided != got)
            fail_msg("n=%lld: strided %.17g, contiguous %.17g",
                     (long long)ns[k], strided, got);
        uf_array_release(ws);
        uf_array_release(w);
        uf_array_release(v);
    }
    uf_array_release(a);
}

static void test_accuracy(void **state)
{
    /* 0.1 two million times: a sequential float32 sum is off by ~2%,
     * the pairwise one by a few ulps */
    uf_error err;
    int64_t n = 2000000;
    float v32 = 0.1f;
    double v64 = 0.1;
    uf_array *a32 = uf_full(UF_FLOAT32, 1, &n, &v32, UF_FLOAT32, UF_ORDER_C,
                            &err);
    uf_array *a64 = uf_full(UF_FLOAT64, 1, &n, &v64, UF_FLOAT64, UF_ORDER_C,
                            &err);
    double exact32 = (double)v32 * (double)n, exact64 = (double)((long double)v64 * n);
    double got32 = sum_of(state, a32, &err), got64 = sum_of(state, a64, &err);
    float seq = 0;
    for (int64_t i = 0; i < n; i++)
        seq += v32;
    print_message("float32: pairwise rel. error %.2g, sequential %.2g\n",
                  fabs(got32 - exact32) / exact32,
                  fabs(seq - exact32) / exact32);
    assert_true(fabs(got32 - exact32) / exact32 < 1e-6);
    assert_true(fabs(seq - exact32) / exact32 > 1e-3); /* the test can fail */
    assert_true(fabs(got64 - exact64) / exact64 < 1e-15);
    uf_array_release(a32);
    uf_array_release(a64);
}

/* ---- out=, failures, memory ------------------------------------------- */

static void test_out(void **state)
{
    uf_error err;
    uf_array *a = uf_arange(0, 12, 1, UF_FLOAT64, &err);
    uf_array *m = uf_array_reshape(a, 2, (int64_t[]){3, 4}, UF_ORDER_C,
                                   false, &err);
    uf_func *f = get(state, "vadd");
    uf_call_options o = {.size = sizeof o, .axes_mode = UF_AXES_LIST,
                         .naxes = 1, .axes = (int[]){1}};
    /* into a given float32 array (same_kind), strided */
    uf_array *big = uf_zeros(UF_FLOAT32, 1, (int64_t[]){6}, UF_ORDER_C, &err);
    uf_array *out = uf_array_slice(big, "::2", &err), *given = out;
    uf_assert_ok(uf_reduce(f, m, &out, &o, &err) == 0, &err);
    assert_ptr_equal(out, given);
    const float *p = uf_array_data(big);
    assert_true(p[0] == 6 && p[1] == 0 && p[2] == 22 && p[4] == 38);
    /* wrong shape, keepdims, cast, read-only */
    uf_array *bad = uf_zeros(UF_FLOAT64, 1, (int64_t[]){4}, UF_ORDER_C, &err);
    assert_int_equal(uf_reduce(f, m, &bad, &o, &err), UF_ERR_SHAPE);
    assert_string_equal(err.message, "output parameter for reduction "
                        "operation vadd has shape (4,), expected (3,)");
    o.keepdims = true;
    assert_int_equal(uf_reduce(f, m, &bad, &o, &err), UF_ERR_SHAPE);
    assert_string_equal(err.message, "output parameter for reduction "
                        "operation vadd has the wrong number of dimensions: "
                        "Found 1 but expected 2 (must match the operand's "
                        "when keepdims=True)");
    o.keepdims = false;
    uf_array *i32 = uf_zeros(UF_INT32, 1, (int64_t[]){3}, UF_ORDER_C, &err);
    assert_int_equal(uf_reduce(f, m, &i32, &o, &err), UF_ERR_CAST);
    assert_string_equal(err.message, "Cannot cast ufunc 'vadd' output from "
                        "dtype('float64') to dtype('int32') with casting "
                        "rule 'same_kind'");
    uf_array *ro = uf_zeros(UF_FLOAT64, 1, (int64_t[]){3}, UF_ORDER_C, &err);
    uf_array_set_writeable(ro, false, &err);
    assert_int_equal(uf_reduce(f, m, &ro, &o, &err), UF_ERR_READONLY);
    /* the output overlapping the input: computed aside first */
    uf_array *col = uf_array_slice(m, ":, 0", &err);
    uf_assert_ok(uf_reduce(f, m, &col, &o, &err) == 0, &err);
    const double *d = uf_array_data(a);
    assert_true(d[0] == 6 && d[4] == 22 && d[8] == 38 && d[1] == 1);
    /* initial must be 0-d */
    o.initial = m;
    assert_int_equal(uf_reduce(f, m, &bad, &o, &err), UF_ERR_VALUE);
    assert_string_equal(err.message, "initial value of reduction 'vadd' "
                        "must be a scalar (a 0-d array), not an array of "
                        "shape (3, 4)");
    /* a complex start value for a real reduction: TypeError in Numba
     * (np.float64(1+2j)), not its real part */
    const double c12[2] = {1, 2}; /* a complex128's layout */
    o.initial = uf_full(UF_COMPLEX128, 0, NULL, c12, UF_COMPLEX128,
                        UF_ORDER_C, &err);
    assert_non_null(o.initial);
    assert_int_equal(uf_reduce(f, m, &bad, &o, &err), UF_ERR_TYPE);
    assert_string_equal(err.message, "initial value of reduction 'vadd' is "
                        "complex128, which cannot be converted to the "
                        "reduction's float64 without dropping its "
                        "imaginary part");
    uf_array_release(o.initial);
    uf_array_release(col);
    uf_array_release(ro);
    uf_array_release(i32);
    uf_array_release(bad);
    uf_array_release(out);
    uf_array_release(big);
    uf_array_release(m);
    uf_array_release(a);
}

static void test_kernel_errors(void **state)
{
    uf_error err;
    uf_array *a = uf_arange(-3, 5, 1, UF_INT64, &err), *out = NULL;
    /* an assert in the kernel: Python's AssertionError */
    assert_int_equal(uf_call(get(state, "checked_sum"), &a, 1, &out, 1, &CPU,
                             &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "AssertionError"));
    assert_null(out);
    /* unary kernels, other kinds, operand counts */
    assert_int_equal(uf_reduce(get(state, "unary"), a, &out, NULL, &err),
                     UF_ERR_VALUE);
    assert_string_equal(err.message, "'unary': reduce only supported for "
                        "binary functions");
    assert_int_equal(uf_call(get(state, "sum_reduce"), &a, 1, &out, 2, &CPU,
                             &err), UF_ERR_INVALID);
    uf_array *two[2] = {a, a};
    assert_int_equal(uf_call(get(state, "sum_reduce"), two, 2, &out, 1, &CPU,
                             &err), UF_ERR_INVALID);
    assert_int_equal(uf_reduce(NULL, a, &out, NULL, &err), UF_ERR_INVALID);
    /* (the CUDA targets' reduce and accumulate: test_cuda_reduce.c,
     * test_cuda_accumulate.c) */
    uf_call_options o;
    /* a reduce kernel without initial on an empty array; with one */
    uf_array *e = uf_zeros(UF_INT64, 1, (int64_t[]){0}, UF_ORDER_C, &err);
    assert_int_equal(uf_call(get(state, "max_reduce"), &e, 1, &out, 1, &CPU,
                             &err), UF_ERR_VALUE);
    assert_string_equal(err.message, "zero-size array to reduction "
                        "operation max_reduce which has no identity");
    int64_t nine = 9;
    o = (uf_call_options){.size = sizeof o, .target = "cpu"};
    o.initial = uf_full(UF_INT64, 0, NULL, &nine, UF_INT64, UF_ORDER_C, &err);
    uf_assert_ok(uf_call(get(state, "max_reduce"), &e, 1, &out, 1, &o,
                         &err) == 0, &err);
    assert_int_equal(uf_array_ndim(out), 0);
    assert_int_equal(*(int64_t *)uf_array_data(out), 9);
    /* the seeds' sum_reduce(A, res=r): into a given 0-d output, and with
     * init= (Numba's init is folded into the result) */
    uf_array *A = uf_arange(1, 1235, 1, UF_FLOAT64, &err);
    uf_array *r = uf_zeros(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err), *rg = r;
    uf_assert_ok(uf_call(get(state, "sum_reduce"), &A, 1, &r, 1, &CPU,
                         &err) == 0, &err);
    assert_ptr_equal(r, rg);
    assert_true(*(double *)uf_array_data(r) == 761995.0);
    double ten = 10;
    uf_array_release(o.initial);
    o.initial = uf_full(UF_FLOAT64, 0, NULL, &ten, UF_FLOAT64, UF_ORDER_C,
                        &err);
    uf_assert_ok(uf_call(get(state, "sum_reduce"), &A, 1, &r, 1, &o, &err) ==
                     0, &err);
    assert_true(*(double *)uf_array_data(r) == 762005.0);
    uf_array_release(r);
    uf_array_release(A);
    /* n_out 0: computed, nothing returned */
    uf_assert_ok(uf_call(get(state, "sum_reduce"), &a, 1, NULL, 0, &CPU,
                         &err) == 0, &err);
    uf_array_release(o.initial);
    uf_array_release(out);
    uf_array_release(e);
    uf_array_release(a);
}

/* Axis 0 of C arrays runs UF__REDUCE_ROWS rows per pass (fns.rows) and
 * the rest row by row: for every row count around multiples of 4 and
 * widths around the vector length, `sub` (not associative) gives exactly
 * the left-to-right x[0] - x[1] - ... of each column, serial and split
 * between 2 and 7 threads; a 3-d array reduced over its first two axes
 * (one merged run of rows); the assert of checked_sum failing in a row
 * that a 4-row pass reaches. */
static void test_rows_order(void **state)
{
    uf_error err;
    static const int64_t widths[] = {1, 7, 8, 9, 33, 1000};
    static const char *targets[] = {"cpu", "parallel", "parallel"};
    static const int threads[] = {0, 2, 7};
    uf_func *sub = get(state, "sub");
    for (int64_t rows = 1; rows <= 13; rows++) {
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
            int64_t cols = widths[w], shape[2] = {rows, cols};
            uf_array *x = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
            double *xd = uf_array_data(x);
            for (int64_t i = 0; i < rows * cols; i++)
                xd[i] = 1.0 / (double)(i + 3) + (double)(i % 7) * 1e3;
            for (int t = 0; t < 3; t++) {
                uf_call_options o = {.size = sizeof o, .target = targets[t],
                                     .num_threads = threads[t]};
                uf_array *out = NULL;
                uf_assert_ok(uf_reduce(sub, x, &out, &o, &err) == 0, &err);
                const double *od = uf_array_data(out);
                for (int64_t j = 0; j < cols; j++) {
                    double want = xd[j];
                    for (int64_t i = 1; i < rows; i++)
                        want -= xd[i * cols + j];
                    assert_memory_equal(&od[j], &want, sizeof want);
                }
                uf_array_release(out);
            }
            uf_array_release(x);
        }
    }
    /* (3, 5, 17) over axes 0 and 1 with vadd (reorderable): one merged
     * run of 15 rows of 17, each row counted once */
    int64_t shape3[3] = {3, 5, 17};
    uf_array *y = uf_empty(UF_INT64, 3, shape3, UF_ORDER_C, &err);
    int64_t *yd = uf_array_data(y);
    for (int64_t i = 0; i < 3 * 5 * 17; i++)
        yd[i] = (i * 7919) % 1000 - 500;
    int axes[2] = {0, 1};
    uf_call_options o = {.size = sizeof o, .target = "cpu",
                         .axes_mode = UF_AXES_LIST, .naxes = 2, .axes = axes};
    uf_array *out = NULL;
    uf_assert_ok(uf_reduce(get(state, "vadd"), y, &out, &o, &err) == 0,
                 &err);
    for (int64_t j = 0; j < 17; j++) {
        int64_t want = 0;
        for (int64_t i = 0; i < 15; i++)
            want += yd[i * 17 + j];
        assert_int_equal(((int64_t *)uf_array_data(out))[j], want);
    }
    uf_array_release(out);
    /* checked_sum over axis 0 of (9, 5): row 6 has a negative element */
    int64_t shape2[2] = {9, 5};
    uf_array *z = uf_empty(UF_INT64, 2, shape2, UF_ORDER_C, &err);
    int64_t *zd = uf_array_data(z);
    for (int64_t i = 0; i < 45; i++)
        zd[i] = i == 6 * 5 + 2 ? -1 : i;
    int ax0 = 0;
    o.naxes = 1;
    o.axes = &ax0;
    out = NULL;
    assert_int_equal(uf_call(get(state, "checked_sum"), &z, 1, &out, 1, &o,
                             &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "AssertionError"));
    uf_array_release(z);
    uf_array_release(y);
}

/* Every allocation of a reduction failing in turn: a clean UF_ERR_NOMEM
 * and nothing leaked (the ops are compiled before, with memory). */
static void test_alloc_fail(void **state)
{
    uf_error err;
    uf_array *a = uf_arange(0, 24, 1, UF_INT32, &err);
    uf_array *m = uf_array_reshape(a, 3, (int64_t[]){2, 3, 4}, UF_ORDER_C,
                                   false, &err);
    uf_array *t = uf_array_transpose(m, NULL, &err);
    const char *names[] = {"vadd", "sub", "vadd"};
    for (int k = 0; k < 3; k++) {
        uf_func *f = get(state, names[k]);
        uf_call_options o = {.size = sizeof o, .axes_mode = UF_AXES_LIST,
                             .naxes = 1, .axes = (int[]){1}};
        uf_array *out = NULL;
        uf_assert_ok(uf_reduce(f, t, &out, &o, &err) == 0, &err);
        uf_array_release(out);
        out = NULL;
        uf_assert_ok(uf_accumulate(f, t, &out, &o, &err) == 0, &err);
        uf_array_release(out);
        for (int method = 0; method < 3; method++) {
            for (long n = 1;; n++) {
                long live = uf__alloc_live();
                uf_error_clear(&err);
                out = NULL;
                uf__alloc_fail_at(n);
                int rc = method == 0   ? uf_reduce(f, t, &out, &o, &err)
                         : method == 1 ? uf_accumulate(f, t, &out, &o, &err)
                                       : uf_outer(f, m, a, &out, NULL, &err);
                bool failed = uf__alloc_failed();
                uf__alloc_fail_at(0);
                uf_array_release(out);
                if (uf__alloc_live() != live)
                    fail_msg("%s method %d: allocation %ld failing leaked",
                             names[k], method, n);
                if (!failed) {
                    uf_assert_ok(rc == 0, &err);
                    break;
                }
                if (rc != UF_ERR_NOMEM)
                    fail_msg("%s method %d: allocation %ld: %s", names[k],
                             method, n, err.message);
            }
        }
    }
    uf_array_release(t);
    uf_array_release(m);
    uf_array_release(a);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        oracle_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle),
        cmocka_unit_test(test_pairwise_order),
        cmocka_unit_test(test_accuracy),
        cmocka_unit_test(test_out),
        cmocka_unit_test(test_rows_order),
        cmocka_unit_test(test_kernel_errors),
        cmocka_unit_test(test_alloc_fail),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
