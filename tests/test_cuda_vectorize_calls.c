/* vectorize on the CUDA targets (ufunc/cuda_call.c): the call path against
 * the cpu target: shapes (broadcast, views, negative strides, transposed,
 * 0-d, empty, too many axes), operands on either side, out= on the device
 * and on the host with a cast, streams, and the refusals (read-only out,
 * a device input of the wrong dtype, where=, kernels the CUDA target
 * cannot compile). The kernel corpus: test_cuda_vectorize.c. */
#include "cuda_compare.h"

#include "common/alloc.h"

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
    "    return x + x\n"
    "\n"
    "@vectorize(['UniTuple(float64, 2)(float64, float64)'])\n"
    "def split(x, y):\n"
    "    return x + y, x - y\n";

typedef struct fx {
    uf_module *m;
    uf_func *rel, *pick, *twice, *split;
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
    x->split = uf_module_get(x->m, "split", &err);
    *state = x;
    return x->rel && x->pick && x->twice && x->split ? 0 : -1;
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
    /* restored after: a run with it already set (the GPU kit's runner
     * under cudasim) goes on needing it */
    const char *was = getenv("UFJIT_ENABLE_CUDASIM");
    char saved[16];
    snprintf(saved, sizeof saved, "%s", was ? was : "");
    setenv("UFJIT_ENABLE_CUDASIM", "1", 1);
    const int64_t n[1] = {17};
    uf_array *in[2] = {iota(1, n, 1.0), iota(1, n, 3.0)}, *want = NULL,
             *got = NULL;
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    uf_call_options cuda = {.size = sizeof cuda, .target = "cuda"};
    uf_assert_ok(uf_call(x->rel, in, 2, &want, 1, &cpu, &err) == 0, &err);
    uf_assert_ok(uf_call(x->rel, in, 2, &got, 1, &cuda, &err) == 0, &err);
    if (was)
        setenv("UFJIT_ENABLE_CUDASIM", saved, 1);
    else
        unsetenv("UFJIT_ENABLE_CUDASIM");
    assert_same_bits("cuda on cudasim", NULL, 0, want, got);
    uf_array_release(got);
    uf_array_release(want);
    release_all(in, 2);
}

/* Every allocation of a two-output call failing in turn (host inputs:
 * both results are copied back, the second copy can fail after the
 * first succeeded): the call reports UF_ERR_NOMEM, the caller's
 * outputs[] stay NULL, nothing leaks; once nothing fails, the results
 * are the cpu target's. */
static void test_alloc_failures(void **state)
{
    fx *x = *state;
    uf_error err;
    const int64_t n[1] = {9};
    uf_array *in[2] = {iota(1, n, 1.0), iota(1, n, -2.0)};
    uf_array *want[2] = {NULL, NULL}, *got[2] = {NULL, NULL};
    uf_call_options cpu = {.size = sizeof cpu, .target = "cpu"};
    uf_call_options sim = {.size = sizeof sim, .target = SIM};
    uf_assert_ok(uf_call(x->split, in, 2, want, 2, &cpu, &err) == 0, &err);
    /* compiled and the device set up before counting */
    uf_assert_ok(uf_call(x->split, in, 2, got, 2, &sim, &err) == 0, &err);
    release_all(got, 2);
    int failures = 0;
    for (long k = 1; k < 1000; k++) {
        got[0] = got[1] = NULL;
        /* deferred frees (and their queue) are not leaks */
        uf_assert_ok(uf_cuda_memory_flush(SIM, &err) == 0, &err);
        long live = uf__alloc_live();
        uf__alloc_fail_at(k);
        int rc = uf_call(x->split, in, 2, got, 2, &sim, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (!failed) {
            uf_assert_ok(rc == 0, &err);
            break;
        }
        failures++;
        if (rc == 0) { /* a failure the call recovered from */
            release_all(got, 2);
            continue;
        }
        assert_int_equal(rc, UF_ERR_NOMEM);
        assert_null(got[0]);
        assert_null(got[1]);
        uf_assert_ok(uf_cuda_memory_flush(SIM, &err) == 0, &err);
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(failures > 2); /* the copies back were among them */
    assert_same_bits("split[0]", NULL, 0, want[0], got[0]);
    assert_same_bits("split[1]", NULL, 0, want[1], got[1]);
    release_all(got, 2);
    release_all(want, 2);
    release_all(in, 2);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
#define CALL_TEST(f) cmocka_unit_test_setup_teardown(f, call_setup, call_teardown)
        CALL_TEST(test_shapes_and_operands),
        CALL_TEST(test_nine_axes),
        CALL_TEST(test_outputs),
        CALL_TEST(test_stream),
        CALL_TEST(test_refusals),
        CALL_TEST(test_index_error),
        CALL_TEST(test_lazy_dispatch),
        CALL_TEST(test_cuda_on_sim),
        CALL_TEST(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
