/* Core-shape variants of guvectorize loops (gufunc/gufunc_specialise.h):
 * the generic loop (specialisation off) is the oracle, and every variant
 * must give its outputs bit for bit, on cpu and on parallel: matvec,
 * matmul (k loop innermost), max_min and (n),()->(n) at core sizes 1..17,
 * 64 and 65 (not specialised), float32 and int64, strided, F-ordered,
 * negative-stride and broadcast operands, empty loop spaces, zero-size
 * core dimensions, a lazy kernel reading a "()" input as x[0], a fixed
 * size layout, operands sharing memory (no noalias variant then: an input
 * given twice, two outputs the same view, a layout without outputs
 * writing an input that overlaps the other). Also: a variant is compiled
 * once per (loop, core sizes, unit steps or not, disjoint operands or not)
 * and reused; small calls keep the generic loop; the table's limit falls
 * back to the generic loop; failing allocations fail the call cleanly or
 * fall back; threads meeting a new shape at once compile it once. */
#include <math.h>

#include "test_util.h"

#include <pthread.h>
#include <stdatomic.h>

#include "common/alloc.h"
#include "compiler/module.h"
#include "gufunc/gufunc_internal.h"
#include "gufunc/gufunc_specialise.h"
#include "targets/parallel/parallel.h"

static const char src[] =
    "from numba import guvectorize\n"
    "@guvectorize(['void(float64[:,:], float64[:], float64[:])',\n"
    "              'void(float32[:,:], float32[:], float32[:])'],\n"
    "             '(m,n),(n)->(m)')\n"
    "def matvec(M, v, y):\n"
    "    for i in range(M.shape[0]):\n"
    "        acc = 0.0\n"
    "        for j in range(M.shape[1]):\n"
    "            acc += M[i, j] * v[j]\n"
    "        y[i] = acc\n"
    "@guvectorize(['void(float64[:,:], float64[:,:], float64[:,:])',\n"
    "              'void(int64[:,:], int64[:,:], int64[:,:])'],\n"
    "             '(m,n),(n,p)->(m,p)')\n"
    "def matmul(A, B, C):\n"
    "    for i in range(A.shape[0]):\n"
    "        for k in range(B.shape[1]):\n"
    "            C[i, k] = 0\n"
    "        for j in range(A.shape[1]):\n"
    "            a = A[i, j]\n"
    "            for k in range(B.shape[1]):\n"
    "                C[i, k] += a * B[j, k]\n"
    "@guvectorize(['void(float64[:], float64, float64[:])'], '(n),()->(n)')\n"
    "def scale(x, c, y):\n"
    "    for i in range(x.shape[0]):\n"
    "        y[i] = x[i] * c\n"
    "@guvectorize(['void(float64[:], float64[:], float64[:])'],\n"
    "             '(n)->(),()')\n"
    "def max_min(x, hi, lo):\n"
    "    a = x[0]\n"
    "    b = x[0]\n"
    "    for i in range(1, x.shape[0]):\n"
    "        a = max(a, x[i])\n"
    "        b = min(b, x[i])\n"
    "    hi[0] = a\n"
    "    lo[0] = b\n"
    "@guvectorize('(n),()->(n)')\n"
    "def lazy_shift(x, s, y):\n"
    "    for i in range(x.shape[0]):\n"
    "        y[i] = x[i] - s[0] * i\n"
    "@guvectorize(['void(float64[:], float64[:], float64[:])'],\n"
    "             '(3),(3)->(3)')\n"
    "def cross(a, b, c):\n"
    "    c[0] = a[1] * b[2] - a[2] * b[1]\n"
    "    c[1] = a[2] * b[0] - a[0] * b[2]\n"
    "    c[2] = a[0] * b[1] - a[1] * b[0]\n"
    "@guvectorize(['void(float64[:], float64[:])'], '(n),(n)')\n"
    "def copy(a, b):\n"
    "    for i in range(a.shape[0]):\n"
    "        a[i] = b[i]\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    uf_error err;
    (void)state;
    ctx = uf_context_new(&err);
    mod = ctx ? uf_module_from_string(ctx, "spec.py", src, &err) : NULL;
    uf_assert_ok(mod != NULL, &err);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    uf__gufunc_spec_set_min_work(UF__GUFUNC_SPEC_MIN_WORK);
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

static uf_func *get(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

/* Variants compiled (successfully) so far for loop `i` of f (built by a
 * call first). */
static int compiled(uf_func *f, int i)
{
    assert_non_null(f->gufunc);
    const uf__ufunc_loop *l = uf__gufunc_get_loop(f->gufunc, i);
    assert_non_null(l);
    return uf__gufunc_variants_compiled(l);
}

/* ---- operands ------------------------------------------------------------ */

typedef struct spec {
    uf_dtype dtype;
    int ndim;
    int64_t shape[4];
    const char *slice; /* applied to the base, or NULL */
    bool transpose;    /* then axes reversed */
} spec;

static uint64_t rng;

static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Reals in [-100, 100) with NaN, infinities and signed zeros mixed in. */
static uf_array *make(const spec *s, uint64_t seed)
{
    static const double odd[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0};
    uf_error err;
    uf_array *a = uf_empty(s->dtype, s->ndim, s->shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    rng = seed * 0x9E3779B97F4A7C15ull + 7;
    char *p = uf_array_data(a);
    for (int64_t i = 0; i < uf_array_size(a); i++) {
        double v = -100.0 + 200.0 * (double)(next_random() >> 11) /
                                9007199254740992.0;
        if (i % 97 == 5)
            v = odd[next_random() % 5];
        switch (s->dtype) {
        case UF_FLOAT64: ((double *)p)[i] = v; break;
        case UF_FLOAT32: ((float *)p)[i] = (float)v; break;
        case UF_INT64:
            ((int64_t *)p)[i] = (int64_t)(next_random() >> 3);
            break;
        default: fail_msg("dtype %s", uf_dtype_name(s->dtype));
        }
    }
    if (s->slice != NULL) {
        uf_array *v = uf_array_slice(a, s->slice, &err);
        uf_assert_ok(v != NULL, &err);
        uf_array_release(a);
        a = v;
    }
    if (s->transpose) {
        uf_array *t = uf_array_transpose(a, NULL, &err);
        uf_assert_ok(t != NULL, &err);
        uf_array_release(a);
        a = t;
    }
    return a;
}

static void release2(uf_array **out)
{
    uf_array_release(out[0]);
    uf_array_release(out[1]);
    out[0] = out[1] = NULL;
}

static int call(uf_func *f, uf_array **in, int nin, uf_array **out,
                int nout, const char *target, uf_error *err)
{
    uf_call_options o = {.size = sizeof o, .target = target,
                         .num_threads = 2};
    return uf_call(f, in, nin, out, nout, &o, err);
}

/* Runs f generic on cpu (the oracle), then specialised on cpu and on
 * parallel, comparing every output; returns the variants compiled for
 * loop `loop` by the specialised calls. Outputs `given` (nout specs or
 * NULL) are made for each call, else allocated by it. */
static int check_at(const char *file, int line, uf_func *f, int loop,
                    const spec *ins, int nin, const spec *given, int nout)
{
    static const char *const targets[] = {"cpu", "parallel"};
    uf_array *in[3], *want[2] = {0}, *got[2] = {0};
    uf_error err;
    for (int i = 0; i < nin; i++)
        in[i] = make(&ins[i], (uint64_t)i + 1);
    for (int o = 0; given && o < nout; o++)
        want[o] = make(&given[o], 100);
    int64_t was = uf__gufunc_spec_set_min_work(-1);
    if (call(f, in, nin, want, nout, "cpu", &err) != 0)
        uf_fail_at(file, line, "generic: %s", err.message);
    uf__gufunc_spec_set_min_work(0);
    int before = compiled(f, loop);
    for (int t = 0; t < 2; t++) {
        for (int o = 0; o < nout; o++)
            got[o] = given ? make(&given[o], 100) : NULL;
        if (call(f, in, nin, got, nout, targets[t], &err) != 0)
            uf_fail_at(file, line, "%s: %s", targets[t], err.message);
        for (int o = 0; o < nout; o++) {
            char what[64];
            snprintf(what, sizeof what, "output %d on %s", o, targets[t]);
            uf_assert_same_bytes(file, line, what, want[o], got[o]);
            uf_array_release(got[o]);
        }
    }
    uf__gufunc_spec_set_min_work(was);
    for (int o = 0; o < nout; o++)
        uf_array_release(want[o]);
    for (int i = 0; i < nin; i++)
        uf_array_release(in[i]);
    return compiled(f, loop) - before;
}

#define F8 UF_FLOAT64

/* Every size from 1 to 17, 64 and 65, each kernel C-contiguous. */
static void test_sizes(void **state)
{
    static const int64_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                    13, 14, 15, 16, 17, 64, 65};
    (void)state;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int64_t s = sizes[i], n = s > 16 ? 9 : 70;
        int want = s <= UF__GUFUNC_SPEC_MAXSIZE; /* one new variant */
        spec mv[2] = {{F8, 3, {n, s, s}, NULL, false},
                      {F8, 2, {n, s}, NULL, false}};
        spec mm[2] = {{F8, 3, {n, s, s}, NULL, false},
                      {F8, 3, {n, s, s + 1}, NULL, false}};
        spec sc[2] = {{F8, 2, {n, s}, NULL, false},
                      {F8, 1, {n}, NULL, false}};
        spec mx[1] = {{F8, 2, {n, s}, NULL, false}};
        assert_int_equal(check_at(LOC, get("matvec"), 0, mv, 2, NULL, 1),
                         want);
        assert_int_equal(check_at(LOC, get("matmul"), 0, mm, 2, NULL, 1),
                         s + 1 <= UF__GUFUNC_SPEC_MAXSIZE);
        assert_int_equal(check_at(LOC, get("scale"), 0, sc, 2, NULL, 1),
                         want);
        assert_int_equal(check_at(LOC, get("max_min"), 0, mx, 1, NULL, 2),
                         want);
    }
}

typedef struct row {
    const char *file;
    int line;
    const char *kernel;
    int loop; /* which declared signature the call resolves to */
    int nin, nout;
    spec in[3];
    spec out[2]; /* dtype UF_NTYPES: allocated */
    int variants; /* compiled by the call */
} row;

#define NONE {UF_NTYPES, 0, {0}, NULL, false}

static const row rows[] = {
    /* strided inner steps: the 'A' variant */
    {LOC, "matvec", 0, 2, 1,
     {{F8, 3, {300, 6, 16}, ":, :, ::2", false},
      {F8, 2, {300, 16}, ":, 1::2", false}}, {NONE}, 1},
    /* F-ordered matrices (each transposed), v broadcast */
    {LOC, "matvec", 0, 2, 1,
     {{F8, 3, {5, 5, 200}, NULL, true}, {F8, 1, {5}, NULL, false}},
     {NONE}, 1},
    /* the same shapes again: nothing new */
    {LOC, "matvec", 0, 2, 1,
     {{F8, 3, {5, 5, 200}, NULL, true}, {F8, 1, {5}, NULL, false}},
     {NONE}, 0},
    /* float32: the second loop */
    {LOC, "matvec", 1, 2, 1,
     {{UF_FLOAT32, 3, {300, 7, 7}, NULL, false},
      {UF_FLOAT32, 2, {300, 7}, NULL, false}}, {NONE}, 1},
    /* negative-stride input and given output */
    {LOC, "matmul", 0, 2, 1,
     {{F8, 3, {200, 8, 8}, "::-1, ::-1", false},
      {F8, 3, {200, 8, 8}, NULL, false}},
     {{F8, 3, {200, 8, 8}, ":, ::-1", false}}, 1},
    /* B broadcast over every iteration, F-ordered */
    {LOC, "matmul", 0, 2, 1,
     {{F8, 3, {300, 4, 6}, NULL, false}, {F8, 2, {3, 6}, NULL, true}},
     {NONE}, 1},
    /* int64 (wrapping products) */
    {LOC, "matmul", 1, 2, 1,
     {{UF_INT64, 3, {200, 4, 6}, NULL, false},
      {UF_INT64, 3, {200, 6, 3}, NULL, false}}, {NONE}, 1},
    /* a zero-size core dimension: C is zeros */
    {LOC, "matmul", 0, 2, 1,
     {{F8, 3, {50, 3, 0}, NULL, false}, {F8, 3, {50, 0, 5}, NULL, false}},
     {NONE}, 1},
    /* an empty loop space runs nothing, compiles nothing */
    {LOC, "matmul", 0, 2, 1,
     {{F8, 3, {0, 3, 3}, NULL, false}, {F8, 3, {0, 3, 3}, NULL, false}},
     {NONE}, 0},
    /* scalar outputs given strided, one reversed */
    {LOC, "max_min", 0, 1, 2,
     {{F8, 2, {500, 16}, NULL, false}},
     {{F8, 1, {1000}, "::2", false}, {F8, 1, {500}, "::-1", false}}, 1},
    /* strided x, a broadcast 0-d scalar */
    {LOC, "scale", 0, 2, 1,
     {{F8, 2, {300, 40}, ":, ::2", false}, {F8, 0, {0}, NULL, false}},
     {NONE}, 1},
    /* lazy kernel: its "()" input read as s[0] */
    {LOC, "lazy_shift", 0, 2, 1,
     {{F8, 2, {300, 30}, NULL, false}, {F8, 1, {300}, NULL, false}},
     {NONE}, 1},
    /* fixed sizes: only the unit/strided choice is new */
    {LOC, "cross", 0, 2, 1,
     {{F8, 2, {400, 3}, NULL, false}, {F8, 2, {3, 400}, NULL, true}},
     {NONE}, 1},
};

static void test_layouts(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const row *r = &rows[i];
        bool given = r->out[0].dtype != UF_NTYPES;
        /* the gufunc exists once the first call built it */
        int n = check_at(r->file, r->line, get(r->kernel), r->loop, r->in,
                         r->nin, given ? r->out : NULL, r->nout);
        if (n != r->variants)
            uf_fail_at(r->file, r->line, "%d variants compiled, not %d", n,
                       r->variants);
    }
}

/* Calls below the work threshold, and sizes over the limit, keep the
 * generic loop; unit and strided steps of one shape are two variants. */
static void test_when(void **state)
{
    (void)state;
    uf_func *f = get("max_min");
    spec x = {F8, 2, {1000, 16}, NULL, false};
    spec xs = {F8, 2, {1000, 32}, ":, ::2", false};
    uf__gufunc_spec_set_min_work(-1);
    uf_array *in = make(&x, 1), *ins = make(&xs, 2), *out[2] = {0};
    uf_error err;
    uf_assert_ok(call(f, &in, 1, out, 2, "cpu", &err) == 0, &err);
    release2(out);
    assert_int_equal(compiled(f, 0), 0);
    /* 16000 steps: over the threshold 16000, not over 16001 */
    uf__gufunc_spec_set_min_work(16001);
    uf_assert_ok(call(f, &in, 1, out, 2, "cpu", &err) == 0, &err);
    release2(out);
    assert_int_equal(compiled(f, 0), 0);
    uf__gufunc_spec_set_min_work(16000);
    for (int rep = 0; rep < 3; rep++) {
        uf_assert_ok(call(f, &in, 1, out, 2, "cpu", &err) == 0, &err);
        release2(out);
        uf_assert_ok(call(f, &ins, 1, out, 2, "parallel", &err) == 0, &err);
        release2(out);
    }
    assert_int_equal(compiled(f, 0), 2);
    uf_array_release(in);
    uf_array_release(ins);
}

/* A loop remembers a bounded number of shapes; past them calls run the
 * generic loop, still right. */
static void test_table_full(void **state)
{
    (void)state;
    uf_func *f = get("scale");
    int last = -1;
    for (int64_t s = 1; s <= 40; s++) {
        spec sc[2] = {{F8, 2, {20, s}, NULL, false},
                      {F8, 1, {20}, NULL, false}};
        check_at(LOC, f, 0, sc, 2, NULL, 1);
        int n = compiled(f, 0);
        assert_true(n >= last && n <= 40);
        last = n;
    }
    assert_true(last < 40); /* the limit was reached */
}

/* Operands that share memory: the variant must not assume otherwise. */
static void test_overlap(void **state)
{
    (void)state;
    uf_error err;
    /* an input given twice: C = A @ A */
    spec a = {F8, 3, {300, 6, 6}, NULL, false};
    uf_array *A = make(&a, 3), *in[2] = {A, A}, *want = NULL, *got = NULL;
    uf__gufunc_spec_set_min_work(-1);
    uf_assert_ok(call(get("matmul"), in, 2, &want, 1, "cpu", &err) == 0,
                 &err);
    uf__gufunc_spec_set_min_work(0);
    uf_assert_ok(call(get("matmul"), in, 2, &got, 1, "cpu", &err) == 0,
                 &err);
    uf_assert_same_bytes(LOC, "A @ A", want, got);
    assert_int_equal(compiled(get("matmul"), 0), 1);
    uf_array_release(want);
    uf_array_release(got);
    uf_array_release(A);

    /* both outputs one view: the last store wins, as in the generic loop */
    spec x = {F8, 2, {400, 9}, NULL, false};
    spec o = {F8, 1, {400}, NULL, false};
    uf_array *X = make(&x, 4), *w = make(&o, 5), *g = make(&o, 5);
    uf_array *wo[2] = {w, w}, *go[2] = {g, g};
    uf__gufunc_spec_set_min_work(-1);
    uf_assert_ok(call(get("max_min"), &X, 1, wo, 2, "cpu", &err) == 0, &err);
    uf__gufunc_spec_set_min_work(0);
    uf_assert_ok(call(get("max_min"), &X, 1, go, 2, "cpu", &err) == 0, &err);
    uf_assert_same_bytes(LOC, "max_min into one view", w, g);
    assert_int_equal(compiled(get("max_min"), 0), 1);
    uf_array_release(X);
    uf_array_release(w);
    uf_array_release(g);

    /* no outputs: copy(a, b) with a = row[1:], b = row[:-1] smears each
     * row's first element along it when run in order */
    for (int variant = 0; variant < 2; variant++) {
        spec base = {F8, 2, {300, 13}, NULL, false};
        uf_array *want_base = make(&base, 6), *got_base = make(&base, 6);
        uf_array *bases[2] = {want_base, got_base};
        for (int k = 0; k < 2; k++) {
            uf_array *dst = uf_array_slice(bases[k], ":, 1:", &err);
            uf_array *from = uf_array_slice(bases[k], ":, :-1", &err);
            uf_assert_ok(dst && from, &err);
            uf_array *ops[2] = {dst, from};
            uf__gufunc_spec_set_min_work(k == 0 ? -1 : 0);
            uf_assert_ok(call(get("copy"), ops, 2, NULL, 0,
                              variant ? "parallel" : "cpu", &err) == 0,
                         &err);
            uf_array_release(dst);
            uf_array_release(from);
        }
        uf_assert_same_bytes(LOC, "overlapping copy", want_base, got_base);
        const double *p = uf_array_data(got_base);
        assert_memory_equal(&p[12], &p[0], sizeof *p); /* smeared */
        uf_array_release(want_base);
        uf_array_release(got_base);
    }
    assert_int_equal(compiled(get("copy"), 0), 1);
}

/* A fresh module's matvec with a variant compiled on the call: out of
 * memory anywhere either fails the call with UF_ERR_NOMEM or (a variant
 * that could not be compiled) runs the generic loop, right. */
static int oom_run(uf_array **in, const uf_array *want, bool *failed,
                   uf_error *err)
{
    uf_module *m = uf_module_from_string(ctx, "oom.py", src, err);
    *failed = uf__alloc_failed();
    if (m == NULL)
        return err->code;
    uf_func *f = uf_module_get(m, "matvec", err);
    int rc = err->code;
    if (f != NULL) {
        uf_array *out = NULL;
        rc = call(f, in, 2, &out, 1, "cpu", err);
        *failed = uf__alloc_failed();
        uf__alloc_fail_at(0); /* the comparison allocates */
        if (rc == 0)
            uf_assert_same_bytes(LOC, "matvec under failing allocation",
                                 want, out);
        uf_array_release(out);
    }
    uf_module_free(m);
    return rc;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    spec a = {F8, 3, {40, 5, 5}, NULL, false};
    spec v = {F8, 2, {40, 5}, NULL, false};
    uf_array *in[2] = {make(&a, 1), make(&v, 2)}, *want = NULL;
    uf__gufunc_spec_set_min_work(-1);
    uf_assert_ok(call(get("matvec"), in, 2, &want, 1, "cpu", &err) == 0,
                 &err);
    uf__gufunc_spec_set_min_work(0);
    bool failed;
    assert_int_equal(oom_run(in, want, &failed, &err), 0);
    long live = uf__alloc_live();
    long k;
    for (k = 1; k < 100000; k += k < 60 ? 1 : k / 6) {
        uf__alloc_fail_at(k);
        int rc = oom_run(in, want, &failed, &err);
        uf__alloc_fail_at(0);
        if (!failed) {
            uf_assert_ok(rc == 0, &err);
            break;
        }
        if (rc != 0 && rc != UF_ERR_NOMEM)
            fail_msg("allocation %ld: %s: %s", k, uf_err_name(rc),
                     err.message);
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(k > 20 && k < 100000);
    uf_array_release(want);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
}

/* ---- threads meeting a new shape at once --------------------------------- */

typedef struct worker {
    uf_func *f;
    uf_array *in[2];
    uf_array *out;
    atomic_int *go;
    int rc;
    uf_error err;
} worker;

static void *run_worker(void *p)
{
    worker *w = p;
    while (atomic_load(w->go) == 0)
        ;
    w->out = NULL;
    w->rc = call(w->f, w->in, 2, &w->out, 1, "parallel", &w->err);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    if (uf__parallel_config_error(&(uf_error){0}) != 0)
        skip();
    enum { NW = 6 };
    uf_func *f = get("matmul");
    spec a = {F8, 3, {2000, 5, 5}, NULL, false};
    spec b = {F8, 3, {2000, 5, 5}, NULL, false};
    uf_array *A = make(&a, 1), *Bm = make(&b, 2), *want = NULL;
    uf_array *in[2] = {A, Bm};
    uf_error err;
    uf__gufunc_spec_set_min_work(-1);
    uf_assert_ok(call(f, in, 2, &want, 1, "cpu", &err) == 0, &err);
    uf__gufunc_spec_set_min_work(0);
    int before = compiled(f, 0);
    atomic_int go = 0;
    worker w[NW];
    pthread_t t[NW];
    for (int i = 0; i < NW; i++) {
        w[i] = (worker){.f = f, .in = {A, Bm}, .go = &go};
        assert_int_equal(pthread_create(&t[i], NULL, run_worker, &w[i]), 0);
    }
    atomic_store(&go, 1);
    for (int i = 0; i < NW; i++) {
        pthread_join(t[i], NULL);
        uf_assert_ok(w[i].rc == 0, &w[i].err);
        uf_assert_same_bytes(LOC, "thread", want, w[i].out);
        uf_array_release(w[i].out);
    }
    assert_int_equal(compiled(f, 0) - before, 1);
    uf_array_release(want);
    uf_array_release(A);
    uf_array_release(Bm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sizes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_layouts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_when, setup, teardown),
        cmocka_unit_test_setup_teardown(test_table_full, setup, teardown),
        cmocka_unit_test_setup_teardown(test_overlap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_out_of_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
