/* guvectorize kernels end to end through uf_call: the kernel files
 * tests/kernels/gufuncs*.py on the inputs and NumPy results of
 * tests/data/guvectorize_cases.txt (tests/gen/guvectorize_cases.py), the
 * layout and signature errors with Numba's messages, arities, given
 * outputs, the compiled loop called directly with contiguous and strided
 * core steps, bounds checks, lazy compilation and out-of-memory paths. */
#include "test_util.h"

#include "common/alloc.h"
#include "compiler/module.h"
#include "gufunc/guvectorize.h"

#define KDIR UF_TEST_DATA_DIR "/../kernels/"

static uf_context *ctx;

/* ---- modules, loaded once per file --------------------------------------- */

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

static uf_func *func(const char *file, const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(module(file), name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

static int setup(void **state)
{
    (void)state;
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

/* ---- inputs made as the generator makes them ----------------------------- */

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

/* Element i of the base array: (i*37 + seed*11) % 23 - 11, x0.25 for
 * floats, stored in `d`'s dtype. */
static void store(uf_dtype dt, void *p, int64_t i, int seed)
{
    int64_t v = (i * 37 + seed * 11) % 23 - 11;
    switch (dt) {
    case UF_FLOAT64: *(double *)p = (double)v * 0.25; break;
    case UF_FLOAT32: *(float *)p = (float)v * 0.25f; break;
    case UF_INT64: *(int64_t *)p = v; break;
    case UF_INT32: *(int32_t *)p = (int32_t)v; break;
    default: fail_msg("dtype %d", (int)dt);
    }
}

static uf_array *make_input(uf_dtype dt, char order, const char *index,
                            int seed, int ndim, const int64_t *shape)
{
    uf_error err;
    uf_array *a = uf_empty(dt, ndim, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    char *p = uf_array_data(a);
    for (int64_t i = 0; i < uf_array_size(a); i++)
        store(dt, p + i * (int64_t)uf_dtype_itemsize(dt), i, seed);
    if (order == 'F') {
        uf_array *f = uf_array_copy(a, UF_ORDER_F, &err);
        uf_assert_ok(f != NULL, &err);
        uf_array_release(a);
        a = f;
    }
    if (index != NULL) {
        uf_array *v = uf_array_slice(a, index, &err);
        uf_assert_ok(v != NULL, &err);
        uf_array_release(a);
        a = v;
    }
    return a;
}

static double value_at(const uf_array *a, int64_t flat)
{
    int64_t idx[UF_MAXDIMS];
    int nd = uf_array_ndim(a);
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = flat % uf_array_shape(a)[d];
        flat /= uf_array_shape(a)[d];
    }
    const void *p = uf_array_getptr(a, idx, NULL);
    switch (uf_array_dtype(a)) {
    case UF_FLOAT64: return *(const double *)p;
    case UF_FLOAT32: return *(const float *)p;
    case UF_INT64: return (double)*(const int64_t *)p;
    case UF_INT32: return *(const int32_t *)p;
    default: fail_msg("dtype"); return 0;
    }
}

/* ---- the NumPy cases ----------------------------------------------------- */

typedef struct gcase {
    char id[64], file[64], kernel[64];
    uf_array *in[8];
    int nin;
    char *out[8]; /* the "out" lines */
    int nout;
    int line;
} gcase;

static void check_output(const gcase *c, int k, const uf_array *got)
{
    char *s = c->out[k];
    char *save = NULL;
    char *tok = strtok_r(s, " ", &save); /* "out" */
    tok = strtok_r(NULL, " ", &save);
    uf_dtype dt = dtype_named(tok);
    if (uf_array_dtype(got) != dt)
        uf_fail_at("guvectorize_cases.txt", c->line, "%s output %d: dtype %s, "
                   "expected %s", c->id, k,
                   uf_dtype_name(uf_array_dtype(got)), tok);
    int nd = atoi(strtok_r(NULL, " ", &save));
    if (uf_array_ndim(got) != nd)
        uf_fail_at("guvectorize_cases.txt", c->line, "%s output %d: ndim %d, "
                   "expected %d", c->id, k, uf_array_ndim(got), nd);
    for (int d = 0; d < nd; d++) {
        int64_t n = atoll(strtok_r(NULL, " ", &save));
        if (uf_array_shape(got)[d] != n)
            uf_fail_at("guvectorize_cases.txt", c->line, "%s output %d: axis "
                       "%d has %lld, expected %lld", c->id, k, d,
                       (long long)uf_array_shape(got)[d], (long long)n);
    }
    tok = strtok_r(NULL, " ", &save); /* ":" */
    int64_t i = 0;
    while ((tok = strtok_r(NULL, " ", &save)) != NULL) {
        double want = strtod(tok, NULL), have = value_at(got, i);
        if (!(have == want) && !(have != have && want != want))
            uf_fail_at("guvectorize_cases.txt", c->line, "%s output %d "
                       "element %lld: %.17g, expected %.17g", c->id, k,
                       (long long)i, have, want);
        i++;
    }
    if (i != uf_array_size(got))
        uf_fail_at("guvectorize_cases.txt", c->line, "%s: %lld values for "
                   "%lld elements", c->id, (long long)i,
                   (long long)uf_array_size(got));
}

static void run_case(gcase *c)
{
    uf_func *f = func(c->file, c->kernel);
    uf_array *out[8] = {NULL};
    uf_error err;
    if (uf_call(f, c->in, c->nin, out, c->nout, NULL, &err) != 0)
        uf_fail_at("guvectorize_cases.txt", c->line, "%s: %s", c->id,
                   err.message);
    for (int k = 0; k < c->nout; k++) {
        check_output(c, k, out[k]);
        uf_array_release(out[k]);
    }
}

static void test_numpy_cases(void **state)
{
    (void)state;
    const char *path = getenv("UF_GUVEC_CASES");
    FILE *fp = fopen(path ? path : UF_TEST_DATA_DIR "/guvectorize_cases.txt",
                     "r");
    assert_non_null(fp);
    static char lines[64][32768];
    gcase c;
    memset(&c, 0, sizeof c);
    int lineno = 0, ncases = 0, nl = 0;
    char buf[32768];
    while (fgets(buf, sizeof buf, fp)) {
        lineno++;
        buf[strcspn(buf, "\n")] = '\0';
        char kw[16] = "";
        sscanf(buf, "%15s", kw);
        if (strcmp(kw, "case") == 0) {
            memset(&c, 0, sizeof c);
            nl = 0;
            c.line = lineno;
            assert_int_equal(sscanf(buf, "case %63s %63s %63s", c.id, c.file,
                                    c.kernel), 3);
        } else if (strcmp(kw, "in") == 0) {
            char dt[16], order, index[64];
            int seed, nd, off;
            assert_int_equal(sscanf(buf, "in %15s %c %63s %d %d%n", dt,
                                    &order, index, &seed, &nd, &off), 5);
            int64_t shape[UF_MAXDIMS];
            char *p = buf + off;
            for (int d = 0; d < nd; d++)
                shape[d] = strtoll(p, &p, 10);
            c.in[c.nin++] = make_input(dtype_named(dt), order,
                                       strcmp(index, "-") ? index : NULL,
                                       seed, nd, shape);
        } else if (strcmp(kw, "scalar") == 0) {
            char dt[16];
            double v;
            uf_error err;
            assert_int_equal(sscanf(buf, "scalar %15s %lf", dt, &v), 2);
            c.in[c.nin] = uf_full(dtype_named(dt), 0, NULL, &v, UF_FLOAT64,
                                  UF_ORDER_C, &err);
            uf_assert_ok(c.in[c.nin] != NULL, &err);
            c.nin++;
        } else if (strcmp(kw, "out") == 0) {
            assert_true(nl < 64);
            snprintf(lines[nl], sizeof lines[nl], "%s", buf);
            c.out[c.nout++] = lines[nl++];
        } else if (strcmp(kw, "end") == 0) {
            run_case(&c);
            for (int i = 0; i < c.nin; i++)
                uf_array_release(c.in[i]);
            ncases++;
        }
    }
    fclose(fp);
    assert_true(ncases >= 30);
}

/* ---- arities, before any call -------------------------------------------- */

static void test_arity(void **state)
{
    (void)state;
    static const struct {
        const char *file, *kernel;
        int nin, nout;
    } t[] = {
        {"gufuncs.py", "g", 2, 1},
        {"gufuncs.py", "matvec", 2, 1},
        {"gufuncs.py", "max_min", 1, 2},
        {"gufuncs.py", "stream_triad", 3, 1},
        {"gufuncs.py", "copy", 2, 0},  /* seed 000: no '->' */
        {"gufuncs.py", "scale", 3, 0},
        {"gufuncs.py", "lazy_shift", 2, 1},
        {"gufuncs_numpy.py", "cross", 2, 1},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        uf_func *f = func(t[i].file, t[i].kernel);
        assert_int_equal(uf_func_get_kind(f), UF_FUNC_GUFUNC);
        if (uf_func_nin(f) != t[i].nin || uf_func_nout(f) != t[i].nout)
            fail_msg("%s: nin %d nout %d, expected %d %d", t[i].kernel,
                     uf_func_nin(f), uf_func_nout(f), t[i].nin, t[i].nout);
    }
}

/* ---- errors: Numba's messages (checked against Numba by the oracle) ------ */

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *kernel;
        int nin;
        int code;
        const char *msg;
        int src_line; /* where the error points, 0: not checked */
    } t[] = {
        {LOC, "bad_token", 2, UF_ERR_SYNTAX,
         "bad token in signature \";\"", 7},
        {LOC, "bad_token_name", 2, UF_ERR_SYNTAX,
         "bad token in signature \"n\"", 12},
        {LOC, "bad_token_end", 2, UF_ERR_SYNTAX,
         "bad token in signature \"\"", 17},
        {LOC, "bad_arrow", 3, UF_ERR_SYNTAX,
         "bad token in signature \">\"", 22},
        {LOC, "undefined_output", 2, UF_ERR_SYNTAX,
         "undefined output symbols: m", 27},
        {LOC, "undefined_outputs", 2, UF_ERR_SYNTAX,
         "undefined output symbols: m,p", 33},
        {LOC, "comma_paren", 2, UF_ERR_SYNTAX,
         "',' must not be followed by ')' at position 12 in "
         "\"(n),(n)->(n,)\"", 38},
        {LOC, "two_arrows", 1, UF_ERR_SYNTAX,
         "expect ',' at position 12 in \"(n),(n)->(n)->(n)\"", 44},
        {LOC, "batch_matmul", 2, UF_ERR_TYPE,
         "type and shape signature mismatch for arg #2", 50},
        {LOC, "max_min_seed", 1, UF_ERR_TYPE,
         "type and shape signature mismatch for arg #1", 57},
        {LOC, "mismatch_arg2", 2, UF_ERR_TYPE,
         "type and shape signature mismatch for arg #2", 62},
        {LOC, "mismatch_out", 2, UF_ERR_TYPE,
         "type and shape signature mismatch for arg #3", 67},
        {LOC, "scalar_not_scalar", 2, UF_ERR_TYPE,
         "scalar type float64 given for non scalar argument #3", 73},
        {LOC, "too_few_types", 2, UF_ERR_TYPE,
         "Signature mismatch: 2 argument types given, but function takes 3 "
         "arguments", 78},
        {LOC, "too_many_types", 2, UF_ERR_TYPE,
         "Signature mismatch: 4 argument types given, but function takes 3 "
         "arguments", 83},
        {LOC, "layout_arity", 1, UF_ERR_TYPE,
         "takes 3 arguments but its layout \"(n)->(n)\" has 1 inputs and 1 "
         "outputs", 90},
        {LOC, "returns_value", 1, UF_ERR_TYPING,
         "guvectorized functions cannot return values: 'returns_value' "
         "returns float64", 95},
        {LOC, "return_type", 1, UF_ERR_TYPE,
         "guvectorized functions cannot return values: the signature's "
         "return type is float64", 99},
        {LOC, "scalar_output", 1, UF_ERR_TYPE,
         "scalar type float64 given for output argument #2", 106},
    };
    uf_error err;
    uf_array *x = uf_zeros(UF_FLOAT64, 1, (int64_t[]){3}, UF_ORDER_C, &err);
    uf_assert_ok(x != NULL, &err);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        uf_func *f = func("gufuncs_errors.py", t[i].kernel);
        uf_array *in[3] = {x, x, x}, *out[3] = {NULL, NULL, NULL};
        uf_error_clear(&err);
        int rc = uf_call(f, in, t[i].nin, out, 3 - t[i].nin, NULL, &err);
        if (rc == 0 || err.code != t[i].code ||
            !strstr(err.message, t[i].msg))
            uf_fail_at(t[i].file, t[i].line, "%s: %s %s, expected %s "
                       "with \"%s\"", t[i].kernel, uf_err_name(err.code),
                       err.message, uf_err_name(t[i].code), t[i].msg);
        if (t[i].src_line && (err.line != t[i].src_line ||
                              !strstr(err.file, "gufuncs_errors.py") ||
                              !strchr(err.message, '^')))
            uf_fail_at(t[i].file, t[i].line, "%s: at %s:%d, expected line "
                       "%d with a caret", t[i].kernel, err.file, err.line,
                       t[i].src_line);
        /* a second call reports the same (nothing half-built was kept) */
        uf_error again;
        assert_int_not_equal(uf_call(f, in, t[i].nin, out, 3 - t[i].nin,
                                     NULL, &again), 0);
        assert_string_equal(again.message, err.message);
    }
    uf_array_release(x);
}

/* ---- outputs the caller gives -------------------------------------------- */

static void test_given_outputs(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = func("gufuncs.py", "matvec");
    uf_array *M = make_input(UF_FLOAT64, 'C', NULL, 1, 3,
                             (int64_t[]){5, 3, 4});
    uf_array *v = make_input(UF_FLOAT64, 'C', NULL, 2, 1, (int64_t[]){4});
    uf_array *want = NULL, *in[2] = {M, v};
    uf_assert_ok(uf_call(f, in, 2, &want, 1, NULL, &err) == 0, &err);
    /* a reversed, strided view of a bigger array, and an F-ordered one */
    uf_array *big = uf_zeros(UF_FLOAT64, 2, (int64_t[]){10, 6}, UF_ORDER_C,
                             &err);
    uf_array *view = uf_array_slice(big, "::-2, 1:4", &err);
    uf_array *fo = uf_zeros(UF_FLOAT64, 2, (int64_t[]){5, 3}, UF_ORDER_F,
                            &err);
    uf_assert_ok(big && view && fo, &err);
    uf_array *outs[2] = {view, fo};
    for (int k = 0; k < 2; k++) {
        uf_array *o = outs[k];
        uf_assert_ok(uf_call(f, in, 2, &o, 1, NULL, &err) == 0, &err);
        assert_ptr_equal(o, outs[k]);
        for (int64_t i = 0; i < 15; i++)
            assert_true(value_at(o, i) == value_at(want, i));
    }
    /* untouched elements of the bigger array stay zero */
    assert_true(value_at(big, 6 * 9) == 0.0 && value_at(big, 6 * 8 + 1) == 0.0);
    /* a given output of the wrong core size */
    uf_array *bad = uf_zeros(UF_FLOAT64, 2, (int64_t[]){5, 4}, UF_ORDER_C,
                             &err);
    assert_int_not_equal(uf_call(f, in, 2, &bad, 1, NULL, &err), 0);
    assert_int_equal(err.code, UF_ERR_SHAPE);
    uf_array_release(bad);
    uf_array_release(fo);
    uf_array_release(view);
    uf_array_release(big);
    uf_array_release(want);
    uf_array_release(M);
    uf_array_release(v);
}

/* seed 000's STREAM copy: no outputs, the kernel writes its first input */
static void test_seed_no_outputs(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = func("gufuncs.py", "copy");
    uf_array *lhs = uf_zeros(UF_FLOAT64, 1, (int64_t[]){100}, UF_ORDER_C,
                             &err);
    uf_array *rhs = make_input(UF_FLOAT64, 'C', NULL, 3, 1,
                               (int64_t[]){100});
    uf_array *in[2] = {lhs, rhs};
    int rc = uf_call(f, in, 2, NULL, 0, NULL, &err);
    if (rc != 0 && strstr(err.message, "at least one output")) {
        uf_array_release(lhs);
        uf_array_release(rhs);
        skip(); /* the gufunc object refuses nout = 0 (reported) */
    }
    uf_assert_ok(rc == 0, &err);
    for (int64_t i = 0; i < 100; i++)
        assert_true(value_at(lhs, i) == value_at(rhs, i));
    uf_array_release(lhs);
    uf_array_release(rhs);
}

/* ---- the loop itself, with hand-built data/dims/steps --------------------- */

static void test_loop_variants(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = func("gufuncs.py", "matvec_c");
    uf__kmodule *km = f->module->km;
    uf__gufunc_layout *lay = uf__guvectorize_layout(km, f->decl, &err);
    uf_assert_ok(lay != NULL, &err);
    uf__signature sig;
    uf_assert_ok(uf__parse_signature(km->tc, km->arena, f->decl->signatures[0],
                                     &sig, &err) == 0, &err);
    uf__ufunc_loop loop;
    uf__jit_listing listing;
    pthread_mutex_lock(&ctx->lock);
    uf__jit *jit = uf__context_jit(ctx, &err);
    int rc = jit ? uf__guvectorize_compile(km, f->decl, lay, jit, &sig, &loop,
                                           &listing, &err)
                 : err.code;
    pthread_mutex_unlock(&ctx->lock);
    uf_assert_ok(rc == 0, &err);
    /* both variants are in the function */
    assert_non_null(strstr(listing.llvm_ir, "contiguous"));
    uf__free(listing.llvm_ir);
    uf__free(listing.asm_text);
    assert_int_equal(loop.types[0], UF_FLOAT64);

    /* 2 iterations of a 2x3 matrix times a 3-vector: once packed, once
     * with every core step doubled (the 'A' variant must be taken) */
    double Mbuf[2 * 12], vbuf[6], y[2 * 4];
    for (int i = 0; i < 24; i++)
        Mbuf[i] = i * 0.5;
    for (int i = 0; i < 6; i++)
        vbuf[i] = i - 2.0;
    for (int s = 1; s <= 2; s++) {
        memset(y, 0, sizeof y);
        char *data[3] = {(char *)Mbuf, (char *)vbuf, (char *)y};
        int64_t dims[3] = {2, 2, 3}; /* N, m, n */
        int64_t steps[3 + 4] = {6 * 8 * s, 0, 2 * 8 * s,
                                3 * 8 * s, 8 * s, 8 * s, 8 * s};
        uf__loop_ctx lc = {.err = &err};
        assert_int_equal(loop.fn(&lc, data, dims, steps, NULL), 0);
        for (int it = 0; it < 2; it++)
            for (int i = 0; i < 2; i++) {
                double acc = 0;
                for (int j = 0; j < 3; j++)
                    acc += Mbuf[it * 6 * s + i * 3 * s + j * s] * vbuf[j * s];
                assert_true(y[it * 2 * s + i * s] == acc);
                if (s == 2)
                    assert_true(y[it * 2 * s + i * s + 1] == 0.0);
            }
    }
    /* N = 0 runs nothing */
    int64_t dims0[3] = {0, 2, 3}, steps0[7] = {0};
    char *data0[3] = {NULL, NULL, NULL};
    assert_int_equal(loop.fn(NULL, data0, dims0, steps0, NULL), 0);
    uf__gufunc_layout_free(lay);
}

/* ---- bounds checks make the kernel fallible ------------------------------ */

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
    uf_array *x = make_input(UF_FLOAT64, 'C', NULL, 1, 2, (int64_t[]){2, 3});
    uf_array *out = NULL;
    assert_int_not_equal(uf_call(f, &x, 1, &out, 1, NULL, &err), 0);
    assert_int_equal(err.code, UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "index 3 is out of bounds for axis 0 "
                                        "with size 3"));
    assert_null(out);
    uf_array_release(x);
    uf_module_free(m);
}

/* Signatures of the arguments alone, as Numba takes them for guvectorize
 * ("int32[:], int32, int32[:]": no return type, no parentheses). */
static void test_bare_signature(void **state)
{
    (void)state;
    static const char src[] =
        "from numba import guvectorize\n"
        "@guvectorize(['int32[:], int32, int32[:]',\n"
        "              'float64[:], float64, float64[:],'], '(n),()->(n)')\n"
        "def add_scalar(x, y, res):\n"
        "    for i in range(x.shape[0]):\n"
        "        res[i] = x[i] + y\n";
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "bare.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "add_scalar", &err);
    uf_assert_ok(f != NULL, &err);
    int64_t n = 5;
    uf_array *in[2] = {uf_empty(UF_INT32, 1, &n, UF_ORDER_C, &err),
                       uf_empty(UF_INT32, 0, NULL, UF_ORDER_C, &err)};
    for (int i = 0; i < 5; i++)
        ((int32_t *)uf_array_data(in[0]))[i] = i - 2;
    *(int32_t *)uf_array_data(in[1]) = 2147483640; /* wraps as int32 */
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, in, 2, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(out), UF_INT32);
    for (int i = 0; i < 5; i++)
        assert_int_equal(((int32_t *)uf_array_data(out))[i],
                         (int32_t)((uint32_t)(i - 2) + 2147483640u));
    uf_array_release(out);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
    uf_array *d[2] = {uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err),
                      uf_empty(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err)};
    for (int i = 0; i < 5; i++)
        ((double *)uf_array_data(d[0]))[i] = 0.5 * i;
    *(double *)uf_array_data(d[1]) = 0.25;
    out = NULL;
    uf_assert_ok(uf_call(f, d, 2, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(out), UF_FLOAT64);
    for (int i = 0; i < 5; i++)
        assert_true(((double *)uf_array_data(out))[i] == 0.5 * i + 0.25);
    uf_array_release(out);
    uf_array_release(d[0]);
    uf_array_release(d[1]);
    uf_module_free(m);
}

/* ---- lazy kernels: one loop per new dtype combination --------------------- */

static void test_lazy(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = func("gufuncs_numpy.py", "lazy_dot");
    static const struct {
        uf_dtype a, b, out;
    } t[] = {{UF_INT64, UF_INT64, UF_INT64},
             {UF_FLOAT32, UF_FLOAT32, UF_FLOAT32},
             {UF_INT32, UF_FLOAT64, UF_FLOAT64},
             {UF_INT64, UF_INT64, UF_INT64}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        uf_array *a = make_input(t[i].a, 'C', NULL, 1, 2, (int64_t[]){2, 4});
        uf_array *b = make_input(t[i].b, 'C', NULL, 2, 1, (int64_t[]){4});
        uf_array *in[2] = {a, b}, *out = NULL;
        uf_assert_ok(uf_call(f, in, 2, &out, 1, NULL, &err) == 0, &err);
        assert_int_equal(uf_array_dtype(out), t[i].out);
        for (int r = 0; r < 2; r++) {
            double acc = 0;
            for (int j = 0; j < 4; j++)
                acc += value_at(a, r * 4 + j) * value_at(b, j);
            assert_true(value_at(out, r) == acc);
        }
        uf_array_release(out);
        uf_array_release(a);
        uf_array_release(b);
    }
    /* a given output decides its dtype */
    uf_array *a = make_input(UF_INT64, 'C', NULL, 1, 1, (int64_t[]){4});
    uf_array *o = uf_zeros(UF_FLOAT32, 0, NULL, UF_ORDER_C, &err);
    uf_array *in[2] = {a, a}, *out = o;
    uf_assert_ok(uf_call(f, in, 2, &out, 1, NULL, &err) == 0, &err);
    double acc = 0;
    for (int j = 0; j < 4; j++)
        acc += value_at(a, j) * value_at(a, j);
    assert_true(value_at(o, 0) == acc);
    uf_array_release(o);
    uf_array_release(a);
}

/* ---- out of memory: module load, layout, compile, call ------------------- */

static int oom_run(uf_error *err)
{
    static const char src[] =
        "from numba import guvectorize\n"
        "@guvectorize(['void(float64[:], float64, float64[:])'],\n"
        "             '(n),()->(n)')\n"
        "def g(x, y, out):\n"
        "    for i in range(x.shape[0]):\n"
        "        out[i] = x[i] * y\n";
    uf_module *m = uf_module_from_string(ctx, "oom.py", src, err);
    if (m == NULL)
        return err->code;
    uf_func *f = uf_module_get(m, "g", err);
    int rc = err->code;
    if (f != NULL) {
        uf_array *x = uf_zeros(UF_FLOAT64, 1, (int64_t[]){3}, UF_ORDER_C,
                               err);
        double two = 2;
        uf_array *y = x ? uf_full(UF_FLOAT64, 0, NULL, &two, UF_FLOAT64,
                                  UF_ORDER_C, err)
                        : NULL;
        uf_array *in[2] = {x, y}, *out = NULL;
        rc = x && y ? uf_call(f, in, 2, &out, 1, NULL, err) : err->code;
        uf_array_release(out);
        uf_array_release(y);
        uf_array_release(x);
    }
    uf_module_free(m);
    return rc;
}

static void test_alloc_fail(void **state)
{
    (void)state;
    uf_error err;
    assert_int_equal(oom_run(&err), 0); /* the JIT exists before counting */
    long live = uf__alloc_live();
    long k;
    /* every allocation up to 60, then a growing stride: each run compiles */
    for (k = 1; k < 100000; k += k < 60 ? 1 : k / 6) {
        uf__alloc_fail_at(k);
        int rc = oom_run(&err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (!failed) {
            uf_assert_ok(rc == 0, &err);
            break;
        }
        if (rc != UF_ERR_NOMEM)
            fail_msg("allocation %ld: %s: %s", k, uf_err_name(rc),
                     err.message);
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(k > 20 && k < 100000);
    assert_int_equal(uf__alloc_live(), live);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numpy_cases),
        cmocka_unit_test(test_arity),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_given_outputs),
        cmocka_unit_test(test_seed_no_outputs),
        cmocka_unit_test(test_loop_variants),
        cmocka_unit_test(test_boundscheck),
        cmocka_unit_test(test_bare_signature),
        cmocka_unit_test(test_lazy),
        cmocka_unit_test(test_alloc_fail),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
