/* guvectorize on the CUDA targets, run on cudasim (gufunc/gufunc_cuda.c,
 * compiler/nvvm/nvvm_gukernel.c): every case of
 * tests/data/guvectorize_cases.txt and every guvectorize kernel of
 * tests/kernels/gufuncs*.py (the seeds' gufuncs among them) give the cpu
 * target's results bit for bit, with host inputs, device inputs (views
 * of device arrays included), out= on the device and broadcast loop
 * dimensions; empty loop spaces, axes=, bounds checks through the status
 * word, and the CPU's messages for core-dimension mismatches. Both
 * targets use libm (UFJIT_ENABLE_LIBMVEC=0). */
#include "test_util.h"

#include <ufjit/cuda.h>

#include "compiler/module.h"
#include "gufunc/guvectorize.h"

#define KDIR UF_TEST_DATA_DIR "/../kernels/"
#define SIM "cudasim"

static uf_context *ctx;

static struct {
    char name[64];
    uf_module *m;
} mods[8];

static uf_module *module(const char *file)
{
    int i;
    for (i = 0; i < 8 && mods[i].m; i++)
        if (strcmp(mods[i].name, file) == 0)
            return mods[i].m;
    assert_true(i < 8);
    char path[1024];
    snprintf(path, sizeof path, KDIR "%s", file);
    uf_error err;
    mods[i].m = uf_module_load(ctx, path, &err);
    uf_assert_ok(mods[i].m != NULL, &err);
    snprintf(mods[i].name, sizeof mods[i].name, "%s", file);
    return mods[i].m;
}

static int setup(void **state)
{
    (void)state;
    setenv("UFJIT_ENABLE_LIBMVEC", "0", 1);
    uf_error err;
    ctx = uf_context_new(&err);
    return ctx ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < 8 && mods[i].m; i++) {
        uf_module_free(mods[i].m);
        mods[i].m = NULL;
    }
    uf_context_free(ctx);
    return 0;
}

static uf_call_options on(const char *target)
{
    uf_call_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.target = target;
    return o;
}

/* A host array of `dt` holding (i*37 + seed*11) % 23 - 11 (x0.25 for
 * floats) in C order. */
static uf_array *values(uf_dtype dt, int ndim, const int64_t *shape, int seed)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, ndim, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *p = uf_array_data(a);
    bool fl = dt == UF_FLOAT32 || dt == UF_FLOAT64 || dt == UF_COMPLEX64 ||
              dt == UF_COMPLEX128;
    for (int64_t i = 0; i < uf_array_size(a); i++)
        p[i] = (double)((i * 37 + seed * 11) % 23 - 11) * (fl ? 0.25 : 1.0);
    uf_array *b = uf_array_astype(a, dt, UF_CASTING_UNSAFE, UF_ORDER_C, &err);
    uf_assert_ok(b != NULL, &err);
    uf_array_release(a);
    return b;
}

/* The host copy of a (a itself, retained, when on the host). */
static uf_array *on_host(uf_array *a)
{
    if (uf_array_device(a).type != UF_DEVICE_CUDA)
        return uf_array_retain(a);
    uf_error err;
    uf_array *h = uf_copy_to_host(a, NULL, NULL, &err);
    uf_assert_ok(h != NULL, &err);
    return h;
}

/* got (host or device) equals want bit for bit. */
static void assert_same_bits(const char *what, uf_array *want, uf_array *got)
{
    uf_array *h = on_host(got);
    if (uf_array_dtype(h) != uf_array_dtype(want))
        fail_msg("%s: dtype %s, the cpu's %s", what,
                 uf_dtype_name(uf_array_dtype(h)),
                 uf_dtype_name(uf_array_dtype(want)));
    assert_int_equal(uf_array_ndim(h), uf_array_ndim(want));
    int nd = uf_array_ndim(h);
    for (int d = 0; d < nd; d++)
        assert_int_equal(uf_array_shape(h)[d], uf_array_shape(want)[d]);
    size_t isz = uf_dtype_itemsize(uf_array_dtype(h));
    int64_t idx[UF_MAXDIMS] = {0};
    for (int64_t i = 0; i < uf_array_size(h); i++) {
        int64_t r = i;
        for (int d = nd - 1; d >= 0; d--) {
            idx[d] = r % uf_array_shape(h)[d];
            r /= uf_array_shape(h)[d];
        }
        if (memcmp(uf_array_getptr(h, idx, NULL),
                   uf_array_getptr(want, idx, NULL), isz) != 0)
            fail_msg("%s: element %lld differs from the cpu target's", what,
                     (long long)i);
    }
    uf_array_release(h);
}

/* Calls f on cpu, then on cudasim with the host inputs, with device
 * copies (device views when `dev` gives them), and with device outputs;
 * every result the cpu's bit for bit. Returns false (printing why) when
 * the cpu target refuses the call. */
static bool same_as_cpu(const char *what, uf_func *f, uf_array **in,
                        uf_array **dev, int nin, int nout)
{
    uf_error err;
    uf_array *ref[8] = {NULL}, *got[8] = {NULL};
    uf_call_options cpu = on("cpu"), sim = on(SIM);
    if (uf_call(f, in, nin, ref, nout, &cpu, &err) != 0) {
        printf("  %s: the cpu target refuses it (%s)\n", what, err.message);
        return false;
    }
    /* host inputs: host results */
    if (uf_call(f, in, nin, got, nout, &sim, &err) != 0)
        fail_msg("%s on cudasim: %s", what, err.message);
    for (int k = 0; k < nout; k++) {
        assert_int_not_equal(uf_array_device(got[k]).type, UF_DEVICE_CUDA);
        assert_same_bits(what, ref[k], got[k]);
        uf_array_release(got[k]);
        got[k] = NULL;
    }
    /* device inputs: device results */
    if (uf_call(f, dev, nin, got, nout, &sim, &err) != 0)
        fail_msg("%s on cudasim, device inputs: %s", what, err.message);
    for (int k = 0; k < nout; k++) {
        assert_int_equal(uf_array_device(got[k]).type, UF_DEVICE_CUDA);
        assert_same_bits(what, ref[k], got[k]);
        uf_array_release(got[k]);
    }
    /* out= on the device */
    for (int k = 0; k < nout; k++) {
        got[k] = uf_device_array(uf_array_dtype(ref[k]), uf_array_ndim(ref[k]),
                                 uf_array_shape(ref[k]), UF_ORDER_C, SIM,
                                 &err);
        uf_assert_ok(got[k] != NULL, &err);
    }
    if (uf_call(f, dev, nin, got, nout, &sim, &err) != 0)
        fail_msg("%s on cudasim, out= on the device: %s", what, err.message);
    for (int k = 0; k < nout; k++) {
        assert_same_bits(what, ref[k], got[k]);
        uf_array_release(got[k]);
        uf_array_release(ref[k]);
    }
    return true;
}

/* ---- the NumPy cases ------------------------------------------------------ */

static uf_dtype dtype_named(const char *s)
{
    static const struct {
        const char *n;
        uf_dtype d;
    } t[] = {{"float64", UF_FLOAT64}, {"float32", UF_FLOAT32},
             {"int64", UF_INT64},     {"int32", UF_INT32},
             {"bool", UF_BOOL}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].n, s) == 0)
            return t[i].d;
    fail_msg("unknown dtype %s", s);
    return UF_FLOAT64;
}

/* The case's input (base values, F copy, slice) on the host, and the
 * same view made on the device: the base copied there, then sliced. */
static void case_input(const char *line, uf_array **host, uf_array **dev)
{
    char dt[16], order, index[64];
    int seed, nd, off;
    assert_int_equal(sscanf(line, "in %15s %c %63s %d %d%n", dt, &order,
                            index, &seed, &nd, &off), 5);
    int64_t shape[UF_MAXDIMS];
    const char *p = line + off;
    for (int d = 0; d < nd; d++)
        shape[d] = strtoll(p, (char **)&p, 10);
    uf_error err;
    uf_array *base = values(dtype_named(dt), nd, shape, seed);
    if (order == 'F') {
        uf_array *f = uf_array_copy(base, UF_ORDER_F, &err);
        uf_assert_ok(f != NULL, &err);
        uf_array_release(base);
        base = f;
    }
    uf_array *dbase = uf_to_device(base, SIM, NULL, &err);
    uf_assert_ok(dbase != NULL, &err);
    if (strcmp(index, "-") == 0) {
        *host = base;
        *dev = dbase;
        return;
    }
    *host = uf_array_slice(base, index, &err);
    uf_assert_ok(*host != NULL, &err);
    *dev = uf_array_slice(dbase, index, &err);
    uf_assert_ok(*dev != NULL, &err);
    uf_array_release(base);
    uf_array_release(dbase);
}

static void test_numpy_cases(void **state)
{
    (void)state;
    FILE *fp = fopen(UF_TEST_DATA_DIR "/guvectorize_cases.txt", "r");
    assert_non_null(fp);
    static char buf[32768];
    char id[64] = "", file[64] = "", kernel[64] = "";
    uf_array *in[8], *dev[8];
    int nin = 0, nout = 0, ncases = 0;
    while (fgets(buf, sizeof buf, fp)) {
        buf[strcspn(buf, "\n")] = '\0';
        char kw[16] = "";
        sscanf(buf, "%15s", kw);
        if (strcmp(kw, "case") == 0) {
            assert_int_equal(sscanf(buf, "case %63s %63s %63s", id, file,
                                    kernel), 3);
            nin = nout = 0;
        } else if (strcmp(kw, "in") == 0) {
            case_input(buf, &in[nin], &dev[nin]);
            nin++;
        } else if (strcmp(kw, "scalar") == 0) {
            char dt[16];
            double v;
            uf_error err;
            assert_int_equal(sscanf(buf, "scalar %15s %lf", dt, &v), 2);
            in[nin] = uf_full(dtype_named(dt), 0, NULL, &v, UF_FLOAT64,
                              UF_ORDER_C, &err);
            uf_assert_ok(in[nin] != NULL, &err);
            dev[nin] = uf_array_retain(in[nin]); /* a host scalar */
            nin++;
        } else if (strcmp(kw, "out") == 0) {
            nout++;
        } else if (strcmp(kw, "end") == 0) {
            uf_error err;
            uf_func *f = uf_module_get(module(file), kernel, &err);
            uf_assert_ok(f != NULL, &err);
            assert_true(same_as_cpu(id, f, in, dev, nin, nout));
            for (int i = 0; i < nin; i++) {
                uf_array_release(in[i]);
                uf_array_release(dev[i]);
            }
            ncases++;
        }
    }
    fclose(fp);
    printf("%d cases on cudasim as on cpu\n", ncases);
    assert_true(ncases >= 30);
}

/* ---- every guvectorize kernel of the kernel files ------------------------- */

/* The dtype of argument k in f's first signature (float64 without one). */
static uf_dtype arg_dtype(uf_func *f, int k)
{
    if (uf_func_nsignatures(f) == 0)
        return UF_FLOAT64;
    uf__kmodule *km = f->module->km;
    uf__signature sig;
    uf_error err;
    uf_assert_ok(uf__parse_signature(km->tc, km->arena,
                                     uf_func_signature(f, 0), &sig,
                                     &err) == 0,
                 &err);
    return sig.args[k]->dtype;
}

/* f on inputs whose loop dimensions broadcast ((2,1) against (3,)),
 * each named core dimension of size 4 (fixed ones as written). */
static int run_kernel(uf_func *f)
{
    uf_error err;
    uf__gufunc_layout *lay = uf__guvectorize_layout(f->module->km, f->decl,
                                                   &err);
    uf_assert_ok(lay != NULL, &err);
    int nin = lay->nin, nout = lay->nout, ran = 0;
    uf_array *in[8], *dev[8];
    for (int k = 0; k < nin; k++) {
        int64_t shape[UF_MAXDIMS];
        int nd = 0;
        if (k == 0) {
            shape[nd++] = 2;
            shape[nd++] = 1;
        } else {
            shape[nd++] = 3;
        }
        for (int j = 0; j < lay->core_ndim[k]; j++) {
            const uf__gufunc_dim *d = &lay->dims[lay->dim_ix[
                lay->core_offset[k] + j]];
            shape[nd++] = d->size > 0 ? d->size : 4;
        }
        in[k] = values(arg_dtype(f, k), nd, shape, k + 1);
        dev[k] = uf_to_device(in[k], SIM, NULL, &err);
        uf_assert_ok(dev[k] != NULL, &err);
    }
    char what[160];
    snprintf(what, sizeof what, "%s (%s)", f->decl->name, lay->text);
    if (nout > 0 && same_as_cpu(what, f, in, dev, nin, nout))
        ran = 1;
    for (int k = 0; k < nin; k++) {
        uf_array_release(in[k]);
        uf_array_release(dev[k]);
    }
    uf__gufunc_layout_free(lay);
    return ran;
}

static void test_every_kernel(void **state)
{
    (void)state;
    static const char *const files[] = {"gufuncs.py", "gufuncs_numpy.py"};
    int ran = 0, total = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        uf_module *m = module(files[i]);
        for (int j = 0; j < uf_module_nfuncs(m); j++) {
            uf_error err;
            uf_func *f = uf_module_get(m, uf_module_func_name(m, j), &err);
            uf_assert_ok(f != NULL, &err);
            if (uf_func_get_kind(f) != UF_FUNC_GUFUNC)
                continue;
            total++;
            ran += run_kernel(f);
        }
    }
    printf("%d of %d guvectorize kernels on cudasim as on cpu\n", ran,
           total);
    assert_true(ran >= total * 2 / 3);
}

static uf_func *func(const char *file, const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(module(file), name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

/* An empty loop space runs nothing and still gives outputs of the right
 * shape; zero-size core dimensions run the kernel on empty views. */
static void test_empty(void **state)
{
    (void)state;
    uf_func *f = func("gufuncs.py", "matvec");
    uf_array *m = values(UF_FLOAT64, 3, (int64_t[]){0, 2, 3}, 1);
    uf_array *v = values(UF_FLOAT64, 1, (int64_t[]){3}, 2);
    uf_array *in[2] = {m, v}, *out = NULL;
    uf_call_options sim = on(SIM);
    uf_error err;
    uf_assert_ok(uf_call(f, in, 2, &out, 1, &sim, &err) == 0, &err);
    assert_int_equal(uf_array_ndim(out), 2);
    assert_int_equal(uf_array_shape(out)[0], 0);
    assert_int_equal(uf_array_shape(out)[1], 2);
    uf_array_release(out);
    uf_array_release(m);
    uf_array_release(v);
    /* n = 0: every row sums nothing */
    m = values(UF_FLOAT64, 3, (int64_t[]){4, 2, 0}, 1);
    v = values(UF_FLOAT64, 1, (int64_t[]){0}, 2);
    in[0] = m;
    in[1] = v;
    uf_array *dev[2] = {uf_to_device(m, SIM, NULL, &err),
                        uf_to_device(v, SIM, NULL, &err)};
    uf_assert_ok(dev[0] && dev[1], &err);
    assert_true(same_as_cpu("matvec n=0", f, in, dev, 2, 1));
    uf_array_release(dev[0]);
    uf_array_release(dev[1]);
    uf_array_release(m);
    uf_array_release(v);
}

/* axes= moves the core dimensions; the result is the cpu's. */
static void test_axes(void **state)
{
    (void)state;
    uf_func *f = func("gufuncs.py", "matvec");
    uf_array *m = values(UF_FLOAT64, 3, (int64_t[]){3, 5, 2}, 1);
    uf_array *v = values(UF_FLOAT64, 2, (int64_t[]){5, 2}, 2);
    uf_array *in[2] = {m, v}, *ref = NULL, *got = NULL;
    static const int a0[] = {0, 1}, a1[] = {0}, a2[] = {0};
    const int *const axes[] = {a0, a1, a2};
    static const int naxes[] = {2, 1, 1};
    uf_call_options o = on("cpu");
    o.gufunc_nops = 3;
    o.gufunc_naxes = naxes;
    o.gufunc_axes = axes;
    uf_error err;
    uf_assert_ok(uf_call(f, in, 2, &ref, 1, &o, &err) == 0, &err);
    o.target = SIM;
    uf_assert_ok(uf_call(f, in, 2, &got, 1, &o, &err) == 0, &err);
    assert_same_bits("matvec axes=", ref, got);
    uf_array_release(ref);
    uf_array_release(got);
    uf_array_release(m);
    uf_array_release(v);
}

/* A core-dimension mismatch is reported as on the cpu, naming the
 * operands and shapes; a wrong arity too. */
static void test_errors(void **state)
{
    (void)state;
    uf_func *f = func("gufuncs.py", "matvec");
    uf_array *m = values(UF_FLOAT64, 2, (int64_t[]){2, 3}, 1);
    uf_array *v = values(UF_FLOAT64, 1, (int64_t[]){4}, 2);
    uf_array *in[2] = {m, v}, *out = NULL;
    uf_call_options cpu = on("cpu"), sim = on(SIM);
    uf_error e1, e2;
    assert_int_not_equal(uf_call(f, in, 2, &out, 1, &cpu, &e1), 0);
    assert_int_not_equal(uf_call(f, in, 2, &out, 1, &sim, &e2), 0);
    assert_null(out);
    assert_int_equal(e1.code, UF_ERR_SHAPE);
    assert_int_equal(e2.code, e1.code);
    assert_string_equal(e2.message, e1.message);
    printf("mismatch: %s\n", e2.message);
    assert_int_not_equal(uf_call(f, in, 1, &out, 1, &sim, &e2), 0);
    assert_int_equal(e2.code, UF_ERR_INVALID);
    uf_array_release(m);
    uf_array_release(v);
}

/* An index out of bounds under boundscheck=True comes back through the
 * status word as the cpu's IndexError. */
static void test_boundscheck(void **state)
{
    (void)state;
    static const char src[] =
        "from numba import guvectorize\n"
        "@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)',\n"
        "             boundscheck=True)\n"
        "def off_by_one(x, out):\n"
        "    for i in range(x.shape[0]):\n"
        "        out[i] = x[i + 1]\n";
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "bc.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "off_by_one", &err);
    uf_array *x = values(UF_FLOAT64, 2, (int64_t[]){2, 3}, 1);
    uf_array *out = NULL;
    uf_call_options sim = on(SIM), cpu = on("cpu");
    uf_error cpu_err;
    assert_int_not_equal(uf_call(f, &x, 1, &out, 1, &cpu, &cpu_err), 0);
    assert_int_not_equal(uf_call(f, &x, 1, &out, 1, &sim, &err), 0);
    assert_int_equal(err.code, UF_ERR_INDEX);
    if (!strstr(err.message, "index 3 is out of bounds for axis 0 with "
                             "size 3"))
        fail_msg("message: %s", err.message);
    /* worded as the CPU's gufunc loop words it */
    if (strncmp(err.message, "gufunc 'off_by_one': ", 21) != 0 ||
        strcmp(err.message, cpu_err.message) != 0)
        fail_msg("cudasim: %s\ncpu:     %s", err.message, cpu_err.message);
    assert_null(out);
    uf_array_release(x);
    uf_module_free(m);
}

/* A call on a stream with device operands returns queued; the stream's
 * synchronisation gives the result. */
static void test_stream(void **state)
{
    (void)state;
    uf_func *f = func("gufuncs.py", "matmul");
    uf_error err;
    uf_array *a = values(UF_FLOAT64, 3, (int64_t[]){6, 8, 8}, 1);
    uf_array *b = values(UF_FLOAT64, 2, (int64_t[]){8, 8}, 2);
    uf_array *in[2] = {a, b}, *ref = NULL;
    uf_call_options o = on("cpu");
    uf_assert_ok(uf_call(f, in, 2, &ref, 1, &o, &err) == 0, &err);
    uf_stream *s = uf_stream_create(SIM, &err);
    uf_assert_ok(s != NULL, &err);
    uf_array *da = uf_to_device(a, SIM, s, &err);
    uf_array *db = uf_to_device(b, SIM, s, &err);
    uf_assert_ok(da && db, &err);
    uf_array *dev[2] = {da, db}, *got = NULL;
    o = on(SIM);
    o.stream = s;
    uf_assert_ok(uf_call(f, dev, 2, &got, 1, &o, &err) == 0, &err);
    uf_assert_ok(uf_stream_synchronize(s, &err) == 0, &err);
    assert_same_bits("matmul on a stream", ref, got);
    uf_array_release(got);
    uf_array_release(da);
    uf_array_release(db);
    uf_stream_destroy(s);
    uf_array_release(ref);
    uf_array_release(a);
    uf_array_release(b);
}

/* A kernel without signatures picks among the loops compiled so far as
 * the CPU's lazy gufunc does: float64 first, then an int64 call runs it
 * (float64 results); a device int64 input is never cast, so it gets its
 * own loop. */
static void test_lazy_dispatch(void **state)
{
    (void)state;
    static const char src[] =
        "from numba import guvectorize\n"
        "@guvectorize('(n)->()')\n"
        "def total(x, out):\n"
        "    s = x[0] - x[0]\n"
        "    for i in range(x.shape[0]):\n"
        "        s += x[i]\n"
        "    out[0] = s\n";
    const char *targets[] = {"cpu", SIM};
    uf_dtype got_dt[2][2];
    for (int t = 0; t < 2; t++) {
        uf_error err;
        uf_module *m = uf_module_from_string(ctx, "lazy.py", src, &err);
        uf_assert_ok(m != NULL, &err);
        uf_func *f = uf_module_get(m, "total", &err);
        uf_assert_ok(f != NULL, &err);
        uf_call_options o = on(targets[t]);
        uf_array *x = values(UF_FLOAT64, 2, (int64_t[]){3, 4}, 1);
        uf_array *i = values(UF_INT64, 2, (int64_t[]){3, 4}, 2);
        uf_array *r1 = NULL, *r2 = NULL;
        uf_assert_ok(uf_call(f, &x, 1, &r1, 1, &o, &err) == 0, &err);
        uf_assert_ok(uf_call(f, &i, 1, &r2, 1, &o, &err) == 0, &err);
        got_dt[t][0] = uf_array_dtype(r1);
        got_dt[t][1] = uf_array_dtype(r2);
        if (t == 1) {
            uf_array *di = uf_to_device(i, SIM, NULL, &err), *r3 = NULL;
            uf_assert_ok(di != NULL, &err);
            uf_assert_ok(uf_call(f, &di, 1, &r3, 1, &o, &err) == 0, &err);
            assert_int_equal(uf_array_dtype(r3), UF_INT64);
            uf_array_release(r3);
            uf_array_release(di);
        }
        uf_array_release(r1);
        uf_array_release(r2);
        uf_array_release(x);
        uf_array_release(i);
        uf_module_free(m);
    }
    assert_int_equal(got_dt[0][0], UF_FLOAT64);
    assert_int_equal(got_dt[0][1], UF_FLOAT64);
    assert_int_equal(got_dt[1][0], got_dt[0][0]);
    assert_int_equal(got_dt[1][1], got_dt[0][1]);
}

/* Device inputs are never cast: a later signature taking them exactly
 * (host inputs safely) runs before an earlier one they would cast to
 * safely; with host inputs the CPU's choice. */
static void test_device_exact(void **state)
{
    (void)state;
    static const char src[] =
        "from numba import guvectorize\n"
        "@guvectorize(['void(float64[:], float64, float64[:])',\n"
        "              'void(float32[:], float32, float32[:])'],\n"
        "             '(n),()->()')\n"
        "def first(x, y, out):\n"
        "    out[0] = x[0] + y\n";
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "exact.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "first", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *x = values(UF_FLOAT32, 2, (int64_t[]){2, 3}, 1);
    uf_array *y = values(UF_INT16, 1, (int64_t[]){2}, 2);
    uf_array *dx = uf_to_device(x, SIM, NULL, &err), *r = NULL, *h = NULL;
    uf_array *c = NULL;
    uf_assert_ok(dx != NULL, &err);
    uf_call_options o = on(SIM), cpu = on("cpu");
    uf_array *din[2] = {dx, y}, *hin[2] = {x, y};
    uf_assert_ok(uf_call(f, din, 2, &r, 1, &o, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(r), UF_FLOAT32);
    assert_int_equal(uf_array_device(r).type, UF_DEVICE_CUDA);
    uf_assert_ok(uf_call(f, hin, 2, &h, 1, &o, &err) == 0, &err);
    uf_assert_ok(uf_call(f, hin, 2, &c, 1, &cpu, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(c), UF_FLOAT64);
    assert_same_bits("host inputs", c, h);
    uf_array_release(c);
    uf_array_release(h);
    uf_array_release(r);
    uf_array_release(dx);
    uf_array_release(x);
    uf_array_release(y);
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numpy_cases), cmocka_unit_test(test_every_kernel),
        cmocka_unit_test(test_empty),       cmocka_unit_test(test_axes),
        cmocka_unit_test(test_errors),      cmocka_unit_test(test_boundscheck),
        cmocka_unit_test(test_stream),      cmocka_unit_test(test_lazy_dispatch),
        cmocka_unit_test(test_device_exact),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
