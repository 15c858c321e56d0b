/* Plain njit functions through uf_call, and arrays inside kernels.
 *
 * The table tests/data/njit_oracle.txt (written by
 * tests/e2e/run_njit_oracle.py from Numba's results, exact: floats in hex)
 * gives the cases of tests/kernels/arrays_index.py and njit_funcs.py:
 * inputs (C or F order, then optionally a view such as "::-1,1:"), and
 * Numba's outputs, the exception ufjit must report, or the message and
 * position of a construct ufjit refuses. Each case runs in a module of its
 * own (UFJIT_DEBUG=1 set for the cases that ask for it, since it is read
 * when compiling). The rest checks the call path itself: outputs given by
 * the caller, output counts, read-only arrays, None results, what is
 * refused, and out-of-memory failures. */
#include <math.h>

#include "test_util.h"

#include "common/alloc.h"

#define KERNELS UF_TEST_DATA_DIR "/../kernels/"
#define MAXOPS 16

static uf_context *ctx;

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
    uf_context_free(ctx);
    return 0;
}

/* ---- values in the table's text ------------------------------------------ */

/* One value of dtype dt from text (ints decimal, floats strtod's hex,
 * complex "re,im") into p; the end of the text read in *end. */
static bool parse_value(const char *s, uf_dtype dt, void *p, char **end)
{
    switch (uf_dtype_kind(dt)) {
    case 'b':
        *(bool *)p = strtol(s, end, 10) != 0;
        break;
    case 'i': {
        long long v = strtoll(s, end, 10);
        switch (uf_dtype_itemsize(dt)) {
        case 1: *(int8_t *)p = (int8_t)v; break;
        case 2: *(int16_t *)p = (int16_t)v; break;
        case 4: *(int32_t *)p = (int32_t)v; break;
        default: *(int64_t *)p = (int64_t)v; break;
        }
        break;
    }
    case 'u': {
        unsigned long long v = strtoull(s, end, 10);
        switch (uf_dtype_itemsize(dt)) {
        case 1: *(uint8_t *)p = (uint8_t)v; break;
        case 2: *(uint16_t *)p = (uint16_t)v; break;
        case 4: *(uint32_t *)p = (uint32_t)v; break;
        default: *(uint64_t *)p = (uint64_t)v; break;
        }
        break;
    }
    case 'f':
        if (dt == UF_FLOAT32)
            *(float *)p = (float)strtod(s, end);
        else
            *(double *)p = strtod(s, end);
        break;
    default: {
        double re = strtod(s, end), im;
        if (**end != ',')
            return false;
        im = strtod(*end + 1, end);
        if (dt == UF_COMPLEX64) {
            ((float *)p)[0] = (float)re;
            ((float *)p)[1] = (float)im;
        } else {
            ((double *)p)[0] = re;
            ((double *)p)[1] = im;
        }
    }
    }
    return *end != s;
}

/* Bitwise equality, any NaN equal to any NaN. */
static bool same_value(uf_dtype dt, const void *a, const void *b)
{
    if (dt == UF_FLOAT64) {
        double x = *(const double *)a, y = *(const double *)b;
        return (isnan(x) && isnan(y)) || memcmp(&x, &y, 8) == 0;
    }
    if (dt == UF_FLOAT32) {
        float x = *(const float *)a, y = *(const float *)b;
        return (isnan(x) && isnan(y)) || memcmp(&x, &y, 4) == 0;
    }
    if (dt == UF_COMPLEX64)
        return same_value(UF_FLOAT32, a, b) &&
               same_value(UF_FLOAT32, (const float *)a + 1,
                          (const float *)b + 1);
    if (dt == UF_COMPLEX128)
        return same_value(UF_FLOAT64, a, b) &&
               same_value(UF_FLOAT64, (const double *)a + 1,
                          (const double *)b + 1);
    if (dt == UF_BOOL)
        return (*(const unsigned char *)a != 0) ==
               (*(const unsigned char *)b != 0);
    return memcmp(a, b, uf_dtype_itemsize(dt)) == 0;
}

/* ---- the table ------------------------------------------------------------ */

typedef struct tcase {
    int line; /* of the "case" line */
    char id[128], file[64], kernel[64];
    bool debug;
    uf_array *in[MAXOPS];
    int nin;
    uf_dtype out_dt[MAXOPS];
    _Alignas(16) unsigned char out_v[MAXOPS][16];
    int nout;
    char raises[512];
    int refused_line, refused_col;
    char refused[256];
} tcase;

static void tcase_clear(tcase *c)
{
    for (int i = 0; i < c->nin; i++)
        uf_array_release(c->in[i]);
    memset(c, 0, sizeof *c);
}

/* "in DTYPE scalar V" or "in DTYPE NDIM SHAPE... ORDER VIEW : VALUES" */
static uf_array *parse_input(char *s, int line)
{
    uf_error err;
    char name[32];
    int used = 0;
    uf_dtype dt;
    if (sscanf(s, "in %31s %n", name, &used) != 1 ||
        uf_dtype_from_name(name, &dt, &err) != 0)
        uf_fail_at("njit_oracle.txt", line, "bad input line");
    s += used;
    _Alignas(16) unsigned char v[16];
    char *end;
    if (strncmp(s, "scalar ", 7) == 0) {
        if (!parse_value(s + 7, dt, v, &end))
            uf_fail_at("njit_oracle.txt", line, "bad scalar");
        return uf_full(dt, 0, NULL, v, dt, UF_ORDER_C, &err);
    }
    int nd = (int)strtol(s, &end, 10);
    int64_t shape[UF_MAXDIMS];
    int64_t n = 1;
    for (int k = 0; k < nd; k++) {
        shape[k] = strtoll(end, &end, 10);
        n *= shape[k];
    }
    char order[4], view[64];
    if (sscanf(end, " %3s %63s :%n", order, view, &used) != 2)
        uf_fail_at("njit_oracle.txt", line, "bad array input");
    s = end + used;
    uf_array *a = uf_empty(dt, nd, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    char *p = uf_array_data(a);
    for (int64_t i = 0; i < n; i++) {
        if (!parse_value(s, dt, p + i * (int64_t)uf_dtype_itemsize(dt),
                         &end))
            uf_fail_at("njit_oracle.txt", line, "bad value %lld",
                       (long long)i);
        s = end;
    }
    if (order[0] == 'F') {
        uf_array *f = uf_array_copy(a, UF_ORDER_F, &err);
        uf_assert_ok(f != NULL, &err);
        uf_array_release(a);
        a = f;
    }
    if (strcmp(view, "-") != 0) {
        uf_array *w = uf_array_slice(a, view, &err);
        uf_assert_ok(w != NULL, &err);
        uf_array_release(a);
        a = w;
    }
    return a;
}

/* Reads the next case; false at the end of the file. */
static bool next_case(FILE *f, int *lineno, tcase *c)
{
    static char buf[1 << 16];
    bool in_case = false;
    while (fgets(buf, sizeof buf, f)) {
        (*lineno)++;
        buf[strcspn(buf, "\n")] = '\0';
        if (buf[0] == '#' || buf[0] == '\0')
            continue;
        if (strncmp(buf, "case ", 5) == 0) {
            char env[64];
            if (sscanf(buf, "case %127s %63s %63s %63s", c->id, c->file,
                       c->kernel, env) != 4)
                uf_fail_at("njit_oracle.txt", *lineno, "bad case line");
            c->line = *lineno;
            c->debug = strcmp(env, "UFJIT_DEBUG=1") == 0;
            in_case = true;
        } else if (!in_case) {
            uf_fail_at("njit_oracle.txt", *lineno, "line outside a case");
        } else if (strncmp(buf, "in ", 3) == 0) {
            c->in[c->nin++] = parse_input(buf, *lineno);
        } else if (strncmp(buf, "out ", 4) == 0) {
            char name[32], *end;
            int used = 0;
            uf_error err;
            if (sscanf(buf, "out %31s %n", name, &used) != 1 ||
                uf_dtype_from_name(name, &c->out_dt[c->nout], &err) != 0 ||
                !parse_value(buf + used, c->out_dt[c->nout],
                             c->out_v[c->nout], &end))
                uf_fail_at("njit_oracle.txt", *lineno, "bad output");
            c->nout++;
        } else if (strncmp(buf, "raises ", 7) == 0) {
            snprintf(c->raises, sizeof c->raises, "%.500s", buf + 7);
        } else if (strncmp(buf, "refused ", 8) == 0) {
            int used = 0;
            if (sscanf(buf, "refused %d %d %n", &c->refused_line,
                       &c->refused_col, &used) != 2)
                uf_fail_at("njit_oracle.txt", *lineno, "bad refused line");
            snprintf(c->refused, sizeof c->refused, "%.250s", buf + used);
        } else if (strcmp(buf, "end") == 0) {
            return true;
        } else {
            uf_fail_at("njit_oracle.txt", *lineno, "unknown line");
        }
    }
    return false;
}

/* `want` with {path} replaced by the kernel file's path. */
static void expand_path(const char *want, const char *path, char *out,
                        size_t size)
{
    const char *p = strstr(want, "{path}");
    if (!p) {
        snprintf(out, size, "%s", want);
        return;
    }
    snprintf(out, size, "%.*s%s%s", (int)(p - want), want, path, p + 6);
}

static void run_case(tcase *c)
{
    char path[512], want[1024];
    snprintf(path, sizeof path, KERNELS "%s", c->file);
    if (c->debug)
        setenv("UFJIT_DEBUG", "1", 1);
    else
        unsetenv("UFJIT_DEBUG");
    uf_error err;
    uf_module *m = uf_module_load(ctx, path, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, c->kernel, &err);
    uf_assert_ok(f != NULL, &err);
    assert_int_equal(uf_func_get_kind(f), UF_FUNC_PLAIN);
    uf_array *out[MAXOPS] = {NULL};
    int nout = c->raises[0] || c->refused[0] ? uf_func_nout(f) : c->nout;
    if (nout < 0)
        nout = 0;
    int rc = uf_call(f, c->in, c->nin, out, nout, NULL, &err);
    if (c->refused[0]) {
        if (rc == 0 || !strstr(err.message, c->refused) ||
            err.line != c->refused_line || err.column != c->refused_col)
            uf_fail_at("njit_oracle.txt", c->line, "%s: expected '%s' at "
                       "%d:%d, got rc %d: %s at %d:%d", c->id, c->refused,
                       c->refused_line, c->refused_col, rc, err.message,
                       err.line, err.column);
    } else if (c->raises[0]) {
        /* the output count is known once compiled: call again with it */
        if (rc != 0 && err.code == UF_ERR_INVALID && uf_func_nout(f) > 0) {
            nout = uf_func_nout(f);
            rc = uf_call(f, c->in, c->nin, out, nout, NULL, &err);
        }
        expand_path(c->raises, path, want, sizeof want);
        if (rc == 0 || strncmp(err.message, want, strlen(want)) != 0)
            uf_fail_at("njit_oracle.txt", c->line, "%s: expected '%s', got "
                       "rc %d: %s", c->id, want, rc, err.message);
        int code = strncmp(want, "IndexError", 10) == 0 ? UF_ERR_INDEX
                                                        : UF_ERR_VALUE;
        if (rc != code)
            uf_fail_at("njit_oracle.txt", c->line, "%s: code %s", c->id,
                       uf_err_name(rc));
    } else {
        if (rc != 0)
            uf_fail_at("njit_oracle.txt", c->line, "%s: %s", c->id,
                       err.message);
        assert_int_equal(uf_func_nout(f), c->nout);
        for (int k = 0; k < c->nout; k++) {
            if (uf_array_ndim(out[k]) != 0 ||
                uf_array_dtype(out[k]) != c->out_dt[k])
                uf_fail_at("njit_oracle.txt", c->line, "%s: output %d is "
                           "%d-d %s, expected 0-d %s", c->id, k,
                           uf_array_ndim(out[k]),
                           uf_dtype_name(uf_array_dtype(out[k])),
                           uf_dtype_name(c->out_dt[k]));
            if (!same_value(c->out_dt[k], uf_array_data(out[k]),
                            c->out_v[k])) {
                char *got = uf_array_repr(out[k], &err);
                uf_fail_at("njit_oracle.txt", c->line, "%s: output %d is %s",
                           c->id, k, got ? got : "?");
            }
        }
    }
    for (int k = 0; k < MAXOPS; k++)
        uf_array_release(out[k]);
    uf_module_free(m);
    unsetenv("UFJIT_DEBUG");
}

static void test_oracle_table(void **state)
{
    (void)state;
    FILE *f = fopen(UF_TEST_DATA_DIR "/njit_oracle.txt", "r");
    assert_non_null(f);
    int line = 0, n = 0;
    tcase c;
    memset(&c, 0, sizeof c);
    while (next_case(f, &line, &c)) {
        run_case(&c);
        tcase_clear(&c);
        n++;
    }
    fclose(f);
    assert_true(n >= 80);
}

/* ---- the call path ------------------------------------------------------------ */

static const char src[] =
    "import numpy as np\n"
    "from numba import njit\n"
    "\n"
    "@njit\n"
    "def total(a):\n"
    "    s = 0.0\n"
    "    for x in a:\n"
    "        s += x\n"
    "    return s\n"
    "\n"
    "@njit\n"
    "def put(a, i, v):\n"
    "    a[i] = v\n"
    "\n"
    "@njit\n"
    "def pair(x):\n"
    "    return x, x * 2\n"
    "\n"
    "@njit\n"
    "def view(a):\n"
    "    return a[0]\n"
    "\n"
    "ROW = np.array([1.0, 2.5, 4.0])\n"
    "\n"
    "@njit\n"
    "def const_row():\n"
    "    return ROW\n";

static uf_module *load_src(uf_error *err)
{
    return uf_module_from_string(ctx, "calls.py", src, err);
}

static uf_array *ramp(uf_dtype dt, int64_t n)
{
    uf_error err;
    uf_array *a = uf_arange(0, (double)n, 1, dt, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

static void test_outputs(void **state)
{
    (void)state;
    uf_error err;
    uf_module *m = load_src(&err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "total", &err);
    uf_assert_ok(f != NULL, &err);
    assert_int_equal(uf_func_nin(f), 1);
    assert_int_equal(uf_func_nout(f), -1);
    uf_array *a = ramp(UF_FLOAT64, 5);

    /* a given 0-d output of a same-kind dtype gets the value */
    uf_array *o = uf_zeros(UF_FLOAT32, 0, NULL, UF_ORDER_C, &err);
    assert_int_equal(uf_call(f, &a, 1, &o, 1, NULL, &err), 0);
    assert_true(*(float *)uf_array_data(o) == 10.0f);
    assert_int_equal(uf_func_nout(f), 1);
    uf_array_release(o);

    /* float64 into int32 is not same_kind; unsafe casting allows it */
    o = uf_zeros(UF_INT32, 0, NULL, UF_ORDER_C, &err);
    assert_int_equal(uf_call(f, &a, 1, &o, 1, NULL, &err), UF_ERR_CAST);
    assert_non_null(strstr(err.message, "cannot cast the result 1 from "
                                        "float64 to the output's int32"));
    uf_call_options opts;
    memset(&opts, 0, sizeof opts);
    opts.size = sizeof opts;
    opts.casting = UF_CASTING_UNSAFE;
    opts.casting_set = true;
    assert_int_equal(uf_call(f, &a, 1, &o, 1, &opts, &err), 0);
    assert_int_equal(*(int32_t *)uf_array_data(o), 10);
    uf_array_release(o);

    /* outputs must be 0-d, writeable, and one per result */
    o = uf_zeros(UF_FLOAT64, 1, (int64_t[]){1}, UF_ORDER_C, &err);
    assert_int_equal(uf_call(f, &a, 1, &o, 1, NULL, &err), UF_ERR_SHAPE);
    assert_non_null(strstr(err.message, "output 1 must be a 0-d array"));
    uf_array_release(o);
    o = uf_zeros(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err);
    assert_int_equal(uf_array_set_writeable(o, false, &err), 0);
    assert_int_equal(uf_call(f, &a, 1, &o, 1, NULL, &err), UF_ERR_READONLY);
    uf_array_release(o);
    uf_array *two[2] = {NULL, NULL};
    assert_int_equal(uf_call(f, &a, 1, two, 2, NULL, &err), UF_ERR_INVALID);
    assert_string_equal(err.message, "'total' returns 1 value (one output "
                                     "each) but 2 outputs were given");
    assert_null(two[0]);

    /* argument counts */
    uf_array *ab[2] = {a, a};
    assert_int_equal(uf_call(f, ab, 2, two, 1, NULL, &err), UF_ERR_INVALID);
    assert_string_equal(err.message,
                        "'total' takes 1 argument but 2 were given");
    /* njit functions run on the cpu */
    opts.casting_set = false;
    opts.target = "parallel";
    assert_int_equal(uf_call(f, &a, 1, two, 1, &opts, &err),
                     UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "runs on the 'cpu' target"));

    /* a tuple result: one output per element */
    uf_func *p = uf_module_get(m, "pair", &err);
    uf_array *x = uf_full(UF_INT32, 0, NULL, &(int32_t){21}, UF_INT32,
                          UF_ORDER_C, &err);
    assert_int_equal(uf_call(p, &x, 1, two, 2, NULL, &err), 0);
    assert_int_equal(uf_func_nout(p), 2);
    assert_int_equal(uf_array_dtype(two[0]), UF_INT32);
    assert_int_equal(uf_array_dtype(two[1]), UF_INT64);
    assert_int_equal(*(int64_t *)uf_array_data(two[1]), 42);
    uf_array_release(two[0]);
    uf_array_release(two[1]);
    uf_array_release(x);
    uf_array_release(a);
    uf_module_free(m);
}

static void test_writes_and_none(void **state)
{
    (void)state;
    uf_error err;
    uf_module *m = load_src(&err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "put", &err);
    uf_array *a = ramp(UF_INT16, 6);
    uf_array *rev = uf_array_slice(a, "::-2", &err); /* 5, 3, 1 */
    uf_assert_ok(rev != NULL, &err);
    uf_array *i = uf_full(UF_INT64, 0, NULL, &(int64_t){-1}, UF_INT64,
                          UF_ORDER_C, &err);
    uf_array *v = uf_full(UF_FLOAT64, 0, NULL, &(double){-7.9}, UF_FLOAT64,
                          UF_ORDER_C, &err);
    uf_array *args[3] = {rev, i, v};
    /* None: no output; the write lands in the caller's array (float64
     * into int16 truncates, as Numba's setitem casts) */
    assert_int_equal(uf_call(f, args, 3, NULL, 0, NULL, &err), 0);
    assert_int_equal(uf_func_nout(f), 0);
    assert_int_equal(((int16_t *)uf_array_data(a))[1], -7);
    assert_int_equal(((int16_t *)uf_array_data(a))[0], 0);
    uf_array *extra = NULL;
    assert_int_equal(uf_call(f, args, 3, &extra, 1, NULL, &err),
                     UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "returns 0 values"));

    /* a function that writes refuses read-only arrays; reading is fine */
    assert_int_equal(uf_array_set_writeable(rev, false, &err), 0);
    assert_int_equal(uf_call(f, args, 3, NULL, 0, NULL, &err),
                     UF_ERR_READONLY);
    assert_string_equal(err.message, "'put' writes into arrays but "
                                     "argument 1 is read-only");
    uf_func *t = uf_module_get(m, "total", &err);
    uf_array *o = NULL;
    assert_int_equal(uf_call(t, &rev, 1, &o, 1, NULL, &err), 0);
    assert_true(*(double *)uf_array_data(o) == 5 + 3 - 7);
    uf_array_release(o);

    /* returning an array: a view of an argument comes back as a view
     * of it, as in Numba, and keeps it alive (tests/test_alloc.c: arrays
     * the function made come back as they are) */
    uf_func *w = uf_module_get(m, "view", &err);
    uf_array *m2 = uf_zeros(UF_FLOAT64, 2, (int64_t[]){2, 3}, UF_ORDER_C,
                            &err);
    ((double *)uf_array_data(m2))[2] = 4.5;
    o = NULL;
    assert_int_equal(uf_call(w, &m2, 1, &o, 1, NULL, &err), 0);
    assert_int_equal(uf_array_ndim(o), 1);
    assert_int_equal(uf_array_shape(o)[0], 3);
    assert_true(uf_array_data(o) == uf_array_data(m2));
    assert_true(((double *)uf_array_data(o))[2] == 4.5);
    ((double *)uf_array_data(o))[1] = -2.0; /* the argument sees it */
    assert_true(((double *)uf_array_data(m2))[1] == -2.0);
    uf_array_release(m2); /* o keeps m2's memory alive (ASan checks) */
    assert_true(((double *)uf_array_data(o))[2] == 4.5);
    uf_array_release(o);
    o = NULL;
    /* a read-only argument gives a read-only view; a constant array of
     * the file is copied, read-only as Numba's */
    m2 = uf_zeros(UF_FLOAT64, 2, (int64_t[]){2, 3}, UF_ORDER_C, &err);
    uf_assert_ok(uf_array_set_writeable(m2, false, &err) == 0, &err);
    assert_int_equal(uf_call(w, &m2, 1, &o, 1, NULL, &err), 0);
    assert_true(uf_array_data(o) == uf_array_data(m2));
    assert_false(uf_array_flags(o) & UF_ARRAY_WRITEABLE);
    uf_array_release(o);
    o = NULL;
    uf_func *cg = uf_module_get(m, "const_row", &err);
    uf_assert_ok(cg != NULL, &err);
    assert_int_equal(uf_call(cg, NULL, 0, &o, 1, NULL, &err), 0);
    assert_int_equal(uf_array_shape(o)[0], 3);
    assert_true(((double *)uf_array_data(o))[1] == 2.5);
    assert_false(uf_array_flags(o) & UF_ARRAY_WRITEABLE);
    uf_array_release(o);
    o = NULL;
    /* a 0-d array is a scalar: a loop over it is refused */
    uf_array *z = uf_zeros(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err);
    assert_int_equal(uf_call(t, &z, 1, &o, 1, NULL, &err),
                     UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "loops over arrays and "
                                        "homogeneous tuples (not over "
                                        "float64)"));
    assert_int_equal(err.line, 7);
    uf_array_release(z);
    uf_array_release(m2);
    uf_array_release(i);
    uf_array_release(v);
    uf_array_release(rev);
    uf_array_release(a);
    uf_module_free(m);
}

/* Every allocation of a first call failing in turn: a clean
 * UF_ERR_NOMEM and nothing leaked. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = ramp(UF_FLOAT64, 4);
    long live0 = uf__alloc_live();
    int failures = 0;
    for (long n = 1; n < 10000; n++) {
        uf_context *c = uf_context_new(&err);
        uf_assert_ok(c != NULL, &err);
        uf_module *m = uf_module_from_string(c, "calls.py", src, &err);
        uf_assert_ok(m != NULL, &err);
        uf_func *f = uf_module_get(m, "total", &err);
        uf_array *o = NULL;
        uf__alloc_fail_at(n);
        int rc = uf_call(f, &a, 1, &o, 1, NULL, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        uf_array_release(o);
        uf_module_free(m);
        uf_context_free(c);
        if (uf__alloc_live() != live0)
            fail_msg("allocation %ld failing leaked %ld blocks", n,
                     uf__alloc_live() - live0);
        if (!failed) {
            assert_int_equal(rc, 0);
            break;
        }
        if (rc != UF_ERR_NOMEM)
            fail_msg("allocation %ld failing gave %s: %s", n,
                     uf_err_name(rc), err.message);
        failures++;
    }
    assert_true(failures > 3);
    uf_array_release(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_table),
        cmocka_unit_test(test_outputs),
        cmocka_unit_test(test_writes_and_none),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
