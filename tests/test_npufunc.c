/* NumPy ufuncs called on scalars inside kernels (compiler/types/
 * infer_npufunc.c, compiler/lower/lower_npufunc.c) against Numba: every
 * case of tests/data/npufunc_scalars.txt (tests/gen/npufunc_scalars.py:
 * each kernel of tests/kernels/npufunc_scalars.py, each of its loops, on
 * NaN, infinities, signed zeros, the integers' extremes and zero
 * divisors, run by Numba) on `cpu` and on `parallel`, the result dtype
 * and every value as Numba's (floats bit for bit, NaNs as any NaN, a few
 * ulps where libm functions are called). Also: a ufunc never raises in an
 * njit function, what stays unsupported is refused with its position,
 * and README's list of NumPy functions is the compiler's table. */
#include <ctype.h>
#include <math.h>

#include "test_util.h"

#include "compiler/types/builtins.h"
#include "compiler/types/infer_npufunc.h"

#define DATA UF_TEST_DATA_DIR "/npufunc_scalars.txt"
#define KFILE UF_TEST_DATA_DIR "/../kernels/npufunc_scalars.py"
#define README UF_TEST_DATA_DIR "/../../README.md"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* ---- values ---------------------------------------------------------------- */

static uf_dtype dtype_of(const char *name)
{
    uf_error err;
    uf_dtype d;
    uf_assert_ok(uf_dtype_from_name(name, &d, &err) == 0, &err);
    return d;
}

/* One value as the generator wrote it into p (an element of dtype d);
 * returns the text after it. */
static char *parse_value(char *s, uf_dtype d, char *p)
{
    char *end = s; /* fail_msg does not return, but clang cannot tell */
    switch (d) {
    case UF_BOOL: *(bool *)p = strtol(s, &end, 10) != 0; break;
    case UF_INT8: *(int8_t *)p = (int8_t)strtoll(s, &end, 10); break;
    case UF_UINT8: *(uint8_t *)p = (uint8_t)strtoull(s, &end, 10); break;
    case UF_INT32: *(int32_t *)p = (int32_t)strtoll(s, &end, 10); break;
    case UF_INT64: *(int64_t *)p = strtoll(s, &end, 10); break;
    case UF_UINT64: *(uint64_t *)p = strtoull(s, &end, 10); break;
    case UF_FLOAT32: *(float *)p = (float)strtod(s, &end); break;
    case UF_FLOAT64: *(double *)p = strtod(s, &end); break;
    case UF_COMPLEX128:
        ((double *)p)[0] = strtod(s, &end);
        assert_int_equal(*end, ':');
        ((double *)p)[1] = strtod(end + 1, &end);
        break;
    default:
        fail_msg("dtype %s not in the data", uf_dtype_name(d));
    }
    if (end == s)
        fail_msg("bad value at '%.20s'", s);
    return end;
}

/* The distance in ulps of two finite-or-infinite doubles of one sign
 * (as ordered integers), or a large number when the signs differ. */
static uint64_t ulps64(double a, double b)
{
    int64_t x, y;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    if ((x < 0) != (y < 0))
        return a == b ? 0 : UINT64_MAX; /* +0 and -0 differ bitwise */
    return x > y ? (uint64_t)(x - y) : (uint64_t)(y - x);
}

static uint64_t ulps32(float a, float b)
{
    int32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    if ((x < 0) != (y < 0))
        return a == b ? 0 : UINT64_MAX;
    return x > y ? (uint64_t)(x - y) : (uint64_t)(y - x);
}

static bool same_double(double got, double want, int ulps)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (ulps == 0 || isinf(want))
        return memcmp(&got, &want, 8) == 0;
    return ulps64(got, want) <= (uint64_t)ulps;
}

static bool same_float(float got, float want, int ulps)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (ulps == 0 || isinf(want))
        return memcmp(&got, &want, 4) == 0;
    return ulps32(got, want) <= (uint64_t)ulps;
}

static bool same(uf_dtype d, const char *got, const char *want, int ulps)
{
    switch (d) {
    case UF_FLOAT32:
        return same_float(*(const float *)got, *(const float *)want, ulps);
    case UF_FLOAT64:
        return same_double(*(const double *)got, *(const double *)want,
                           ulps);
    case UF_COMPLEX128:
        return same_double(((const double *)got)[0],
                           ((const double *)want)[0], ulps) &&
               same_double(((const double *)got)[1],
                           ((const double *)want)[1], ulps);
    case UF_BOOL:
        return (*got != 0) == (*want != 0);
    default:
        return memcmp(got, want, uf_dtype_itemsize(d)) == 0;
    }
}

static void show(char *buf, size_t n, uf_dtype d, const char *p)
{
    switch (d) {
    case UF_BOOL: snprintf(buf, n, "%d", *p != 0); break;
    case UF_INT8: snprintf(buf, n, "%d", *(const int8_t *)p); break;
    case UF_UINT8: snprintf(buf, n, "%u", *(const uint8_t *)p); break;
    case UF_INT32: snprintf(buf, n, "%d", *(const int32_t *)p); break;
    case UF_INT64:
        snprintf(buf, n, "%lld", (long long)*(const int64_t *)p);
        break;
    case UF_UINT64:
        snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)p);
        break;
    case UF_FLOAT32: snprintf(buf, n, "%a", *(const float *)p); break;
    case UF_FLOAT64: snprintf(buf, n, "%a", *(const double *)p); break;
    default:
        snprintf(buf, n, "%a:%a", ((const double *)p)[0],
                 ((const double *)p)[1]);
    }
}

/* ---- the cases ------------------------------------------------------------- */

typedef struct ucase {
    char kernel[64];
    int nin;
    uf_dtype in[2], out;
    int ulps;
    int64_t n;
} ucase;

static char *next_line(char **s)
{
    char *line = *s;
    char *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *s = nl + 1;
    } else {
        *s = line + strlen(line);
    }
    return line;
}

/* "case np_add int8 int8 -> int8 ulps 0 n 144" */
static void parse_header(char *line, ucase *c)
{
    char *save = NULL;
    char *tok = strtok_r(line, " ", &save);
    assert_string_equal(tok, "case");
    snprintf(c->kernel, sizeof c->kernel, "%s", strtok_r(NULL, " ", &save));
    c->nin = 0;
    while ((tok = strtok_r(NULL, " ", &save)) && strcmp(tok, "->") != 0) {
        assert_true(c->nin < 2);
        c->in[c->nin++] = dtype_of(tok);
    }
    c->out = dtype_of(strtok_r(NULL, " ", &save));
    assert_string_equal(strtok_r(NULL, " ", &save), "ulps");
    c->ulps = atoi(strtok_r(NULL, " ", &save));
    assert_string_equal(strtok_r(NULL, " ", &save), "n");
    c->n = atoll(strtok_r(NULL, " ", &save));
}

/* "in0 1 2 3" into a new 1-D array of dtype d and n elements */
static uf_array *parse_array(char *line, const char *tag, uf_dtype d,
                             int64_t n)
{
    size_t tl = strlen(tag);
    assert_memory_equal(line, tag, tl);
    uf_error err;
    uf_array *a = uf_empty(d, 1, &n, false, &err);
    uf_assert_ok(a != NULL, &err);
    char *p = uf_array_data(a);
    size_t item = uf_dtype_itemsize(d);
    char *s = line + tl;
    for (int64_t i = 0; i < n; i++)
        s = parse_value(s, d, p + (size_t)i * item);
    while (isspace((unsigned char)*s))
        s++;
    assert_int_equal(*s, '\0');
    return a;
}

/* Runs every case of the data on `target`; returns the number run. */
static int run_all(const char *target, int threads)
{
    char *text = slurp(DATA);
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_load(ctx, KFILE, &err);
    uf_assert_ok(m != NULL, &err);
    int ncases = 0, bad = 0;
    char *s = text;
    while (*s) {
        char *line = next_line(&s);
        if (line[0] == '#' || line[0] == '\0')
            continue;
        ucase c;
        parse_header(line, &c);
        uf_array *in[2];
        for (int i = 0; i < c.nin; i++) {
            char tag[16];
            snprintf(tag, sizeof tag, "in%d", i);
            in[i] = parse_array(next_line(&s), tag, c.in[i], c.n);
        }
        uf_array *want = parse_array(next_line(&s), "out", c.out, c.n);
        uf_func *f = uf_module_get(m, c.kernel, &err);
        uf_assert_ok(f != NULL, &err);
        uf_array *out = NULL;
        uf_call_options o = {.size = sizeof o, .target = target,
                             .num_threads = threads};
        if (uf_call(f, in, c.nin, &out, 1, &o, &err) != 0) {
            print_error("%s(%s%s%s) on %s: %s\n", c.kernel,
                        uf_dtype_name(c.in[0]), c.nin > 1 ? ", " : "",
                        c.nin > 1 ? uf_dtype_name(c.in[1]) : "", target,
                        err.message);
            bad++;
        } else if (uf_array_dtype(out) != c.out) {
            print_error("%s(%s...) gives %s, Numba %s\n", c.kernel,
                        uf_dtype_name(c.in[0]),
                        uf_dtype_name(uf_array_dtype(out)),
                        uf_dtype_name(c.out));
            bad++;
        } else {
            size_t item = uf_dtype_itemsize(c.out);
            const char *g = uf_array_data(out), *w = uf_array_data(want);
            int shown = 0;
            for (int64_t i = 0; i < c.n; i++) {
                if (same(c.out, g + i * item, w + i * item, c.ulps))
                    continue;
                if (shown++ < 4) {
                    char a0[64], a1[64] = "", gs[96], ws[96];
                    show(a0, sizeof a0, c.in[0],
                         (char *)uf_array_data(in[0]) +
                             i * uf_dtype_itemsize(c.in[0]));
                    if (c.nin > 1)
                        show(a1, sizeof a1, c.in[1],
                             (char *)uf_array_data(in[1]) +
                                 i * uf_dtype_itemsize(c.in[1]));
                    show(gs, sizeof gs, c.out, g + i * item);
                    show(ws, sizeof ws, c.out, w + i * item);
                    print_error("%s on %s: %s(%s %s) = %s, Numba %s\n",
                                target, c.kernel, uf_dtype_name(c.in[0]), a0,
                                a1, gs, ws);
                }
                bad += shown == 1;
            }
        }
        uf_array_release(out);
        uf_array_release(want);
        for (int i = 0; i < c.nin; i++)
            uf_array_release(in[i]);
        ncases++;
    }
    uf_module_free(m);
    uf_context_free(ctx);
    free(text);
    if (bad)
        fail_msg("%d of %d cases differ from Numba on %s", bad, ncases,
                 target);
    return ncases;
}

static void numba_oracle_cpu(void **state)
{
    (void)state;
    assert_true(run_all("cpu", 0) > 200);
}

static void numba_oracle_parallel(void **state)
{
    (void)state;
    assert_true(run_all("parallel", 2) > 200);
}

/* ---- njit, errors ---------------------------------------------------------- */

static uf_module *from_string(uf_context *ctx, const char *src, uf_error *err)
{
    return uf_module_from_string(ctx, "k.py", src, err);
}

/* In an njit function (Python's error model) `//` raises, np.floor_divide
 * and np.remainder do not: a ufunc gives NumPy's 0. */
static void njit_never_raises(void **state)
{
    (void)state;
    static const char src[] =
        "import numpy as np\n"
        "from numba import njit\n"
        "@njit\n"
        "def f(x, y):\n"
        "    q, r = np.divmod(x, y)\n"
        "    return np.floor_divide(x, y) + np.remainder(x, y) + q + r + "
        "np.power(x, -1)\n"
        "@njit\n"
        "def g(x, y):\n"
        "    return x // y\n";
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = from_string(ctx, src, &err);
    uf_assert_ok(m != NULL, &err);
    int64_t seven = 7, zero = 0;
    uf_array *a = uf_empty(UF_INT64, 0, NULL, false, &err);
    uf_array *b = uf_empty(UF_INT64, 0, NULL, false, &err);
    memcpy(uf_array_data(a), &seven, 8);
    memcpy(uf_array_data(b), &zero, 8);
    uf_array *in[2] = {a, b}, *out = NULL;
    uf_func *f = uf_module_get(m, "f", &err);
    uf_assert_ok(f != NULL, &err);
    uf_assert_ok(uf_call(f, in, 2, &out, 1, NULL, &err) == 0, &err);
    /* 7 // 0 = 0, 7 % 0 = 0 twice, 7 ** -1 = 0 */
    assert_int_equal(*(int64_t *)uf_array_data(out), 0);
    uf_array_release(out);
    out = NULL;
    uf_func *g = uf_module_get(m, "g", &err);
    assert_int_not_equal(uf_call(g, in, 2, &out, 1, NULL, &err), 0);
    assert_non_null(strstr(err.message, "ZeroDivisionError"));
    uf_array_release(a);
    uf_array_release(b);
    uf_module_free(m);
    uf_context_free(ctx);
}

typedef struct refusal {
    const char *file;
    int line;
    const char *body, *sig, *message;
} refusal;

/* What Numba refuses is refused, with the kernel's position. */
static void refused(void **state)
{
    (void)state;
    static const refusal rows[] = {
        {LOC, "np.heaviside(x, y)", "float64(float64, float64)",
         "unknown attribute 'heaviside' of module 'numpy'"},
        {LOC, "np.left_shift(x, y)", "float64(float64, float64)",
         "No implementation of numpy.left_shift for (float64, float64)"},
        {LOC, "np.add(x, y, x)", "float64(float64, float64)",
         "numpy.add(): output argument 3 must be an array, not float64"},
        {LOC, "np.gcd(x, y)", "float32(float32, float32)",
         "No implementation of numpy.gcd"},
        {LOC, "np.exp2(x) + y", "complex128(complex128, complex128)",
         "numpy.exp2 is not supported on complex128"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        const refusal *r = &rows[i];
        char src[512];
        snprintf(src, sizeof src,
                 "import numpy as np\nfrom numba import vectorize\n"
                 "@vectorize(['%s'])\ndef k(x, y):\n    return %s\n", r->sig,
                 r->body);
        uf_error err;
        uf_context *ctx = uf_context_new(&err);
        uf_assert_ok(ctx != NULL, &err);
        uf_module *m = from_string(ctx, src, &err);
        uf_func *f = m ? uf_module_get(m, "k", &err) : NULL;
        int rc = -1;
        if (f) { /* compiled on the first call: inputs of the signature */
            uf_dtype d = strncmp(r->sig, "float32", 7) == 0 ? UF_FLOAT32
                         : strncmp(r->sig, "complex", 7) == 0
                             ? UF_COMPLEX128
                             : UF_FLOAT64;
            uf_array *a = uf_zeros(d, 0, NULL, false, &err);
            uf_array *in[2] = {a, a}, *out = NULL;
            rc = uf_call(f, in, 2, &out, 1, NULL, &err);
            uf_array_release(out);
            uf_array_release(a);
        }
        if (rc == 0)
            uf_fail_at(r->file, r->line, "'%s' was accepted", r->body);
        if (!strstr(err.message, r->message))
            uf_fail_at(r->file, r->line, "'%s': got \"%s\"", r->body,
                       err.message);
        if (err.line != 5)
            uf_fail_at(r->file, r->line, "'%s': reported at line %d, not 5",
                       r->body, err.line);
        uf_module_free(m);
        uf_context_free(ctx);
    }
}

/* ---- README ---------------------------------------------------------------- */

/* README's list of NumPy functions (between "<!-- numpy-functions -->"
 * and "<!-- /numpy-functions -->", `np.NAME` each) is every numpy.*
 * builtin of the compiler and every alias infer_npufunc.c knows. */
static void readme_lists_the_table(void **state)
{
    (void)state;
    char *text = slurp(README);
    char *begin = strstr(text, "<!-- numpy-functions -->");
    char *end = begin ? strstr(begin, "<!-- /numpy-functions -->") : NULL;
    if (!begin || !end)
        fail_msg("README.md has no <!-- numpy-functions --> list");
    *end = '\0';
    int listed = 0, known = 0;
    for (char *p = begin; (p = strstr(p, "`np.")) != NULL; p += 4) {
        char name[64] = "numpy.";
        size_t k = 6;
        for (const char *q = p + 4; *q != '`' && k < sizeof name - 1; q++)
            name[k++] = *q;
        name[k] = '\0';
        if (uf__builtin_lookup(name) == UF__BI_NONE)
            fail_msg("README lists %s, which the compiler does not know",
                     name);
        listed++;
    }
    for (int b = 1; b < UF__BI_COUNT; b++) {
        const char *q = uf__builtin_name((uf__builtin)b);
        /* the reductions have a list of their own (test_npreduce.c) */
        if (strncmp(q, "numpy.", 6) != 0 ||
            uf__builtin_is_npreduce((uf__builtin)b))
            continue;
        known++;
        char want[80];
        snprintf(want, sizeof want, "`np.%s`", q + 6);
        if (!strstr(begin, want))
            fail_msg("README's list lacks %s", want);
    }
    const char *alias, *canonical;
    for (int i = 0; uf__npufunc_alias_at(i, &alias, &canonical); i++) {
        known++;
        char want[80];
        snprintf(want, sizeof want, "`np.%s`", alias + 6);
        if (!strstr(begin, want))
            fail_msg("README's list lacks %s", want);
    }
    assert_int_equal(listed, known);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numba_oracle_cpu),
        cmocka_unit_test(numba_oracle_parallel),
        cmocka_unit_test(njit_never_raises),
        cmocka_unit_test(refused),
        cmocka_unit_test(readme_lists_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
