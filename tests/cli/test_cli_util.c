/* The CLI's argument helpers (cli/cli_util.c): scalar literals as
 * `ufjit call` will take them, the option parser, tuples and axis lists.
 * Needs no NumPy: the expected values are Python's own (int(), float(),
 * complex() and Numba's typeof() of the literal, noted per row). */
#include <complex.h>
#include <math.h>

#include "test_util.h"
#include "cli/cli_util.h"

/* ---- scalars ------------------------------------------------------------- */

typedef struct scalar_case {
    const char *file;
    int line;
    const char *text;
    bool ok;
    uf_dtype dtype;
    int64_t i;  /* bool and signed integers */
    uint64_t u; /* unsigned integers */
    double re, im; /* floats and complex */
} scalar_case;

#define OKI(text, dt, v) {LOC, text, true, dt, v, 0, 0, 0}
#define OKU(text, dt, v) {LOC, text, true, dt, 0, v, 0, 0}
#define OKF(text, dt, v) {LOC, text, true, dt, 0, 0, v, 0}
#define OKC(text, dt, r, i) {LOC, text, true, dt, 0, 0, r, i}
#define BAD(text) {LOC, text, false, UF_NTYPES, 0, 0, 0, 0}

static const scalar_case scalar_cases[] = {
    /* Untyped: Numba types Python int literals as int64, or uint64 when
     * only that fits; floats as float64; complex as complex128. */
    OKI("3", UF_INT64, 3),
    OKI("-7", UF_INT64, -7),
    OKI("+0", UF_INT64, 0),
    OKI(" 42 ", UF_INT64, 42),
    OKI("0x1F", UF_INT64, 31),
    OKI("-0x10", UF_INT64, -16),
    OKI("0b101", UF_INT64, 5),
    OKI("0o17", UF_INT64, 15),
    OKI("007", UF_INT64, 7), /* int("007") == 7 */
    OKI("9223372036854775807", UF_INT64, INT64_MAX),
    OKI("-9223372036854775808", UF_INT64, INT64_MIN),
    OKU("9223372036854775808", UF_UINT64, 9223372036854775808ULL),
    OKU("18446744073709551615", UF_UINT64, UINT64_MAX),
    BAD("18446744073709551616"),
    BAD("-9223372036854775809"),
    OKF("2.5", UF_FLOAT64, 2.5),
    OKF("1e3", UF_FLOAT64, 1000.0),
    OKF(".5", UF_FLOAT64, 0.5),
    OKF("5.", UF_FLOAT64, 5.0),
    /* a decimal that overflows is refused for every float type, as
     * float32:3.5e38 is; an infinity is written inf */
    BAD("1e999"),
    BAD("-1e999"),
    BAD("float32:1e999"),
    BAD("complex128:1e999j"),
    OKF("float32:-inf", UF_FLOAT32, -INFINITY),
    OKF("-1.5e-3", UF_FLOAT64, -1.5e-3),
    OKF("1E+2", UF_FLOAT64, 100.0),
    OKF("inf", UF_FLOAT64, INFINITY),
    OKF("-Infinity", UF_FLOAT64, -INFINITY),
    OKF("nan", UF_FLOAT64, NAN),
    /* float("1e400") == inf in Python, but a decimal that overflows is an
     * error for every float type here (float32:3.5e38 always was): inf
     * is written inf */
    BAD("1e400"),
    OKF("0.1", UF_FLOAT64, 0.1),
    OKI("true", UF_BOOL, 1),
    OKI("False", UF_BOOL, 0),
    OKC("1+2j", UF_COMPLEX128, 1.0, 2.0),
    OKC("2j", UF_COMPLEX128, 0.0, 2.0),
    OKC("-j", UF_COMPLEX128, 0.0, -1.0),
    OKC("j", UF_COMPLEX128, 0.0, 1.0),
    OKC("(1-2.5j)", UF_COMPLEX128, 1.0, -2.5),
    OKC("1e-3+1e+3J", UF_COMPLEX128, 1e-3, 1e3),
    OKC("-1e-5j", UF_COMPLEX128, 0.0, -1e-5),
    OKC("3-j", UF_COMPLEX128, 3.0, -1.0),
    OKC("inf+nanj", UF_COMPLEX128, INFINITY, NAN),
    /* Typed: TYPE:VALUE, any NumPy dtype name, value must fit. */
    OKF("float32:2.5", UF_FLOAT32, 2.5),
    OKF("f4:0.1", UF_FLOAT32, (double)0.1f),
    OKF("float32:inf", UF_FLOAT32, INFINITY),
    OKF("float32:7", UF_FLOAT32, 7.0),
    OKF("float64:-0x10", UF_FLOAT64, -16.0),
    OKI("int32:7", UF_INT32, 7),
    OKI("int32:-2147483648", UF_INT32, INT32_MIN),
    OKI("int8:-128", UF_INT8, -128),
    OKI("int8:127", UF_INT8, 127),
    OKI("int16:-32768", UF_INT16, -32768),
    OKU("uint8:255", UF_UINT8, 255),
    OKU("u1:0x10", UF_UINT8, 16),
    OKU("uint16:65535", UF_UINT16, 65535),
    OKU("uint32:4294967295", UF_UINT32, 4294967295u),
    OKU("uint64:18446744073709551615", UF_UINT64, UINT64_MAX),
    OKU("uint64:0", UF_UINT64, 0),
    OKI("int64:-9223372036854775808", UF_INT64, INT64_MIN),
    OKI("bool:1", UF_BOOL, 1),
    OKI("bool:0", UF_BOOL, 0),
    OKI("bool:true", UF_BOOL, 1),
    OKI("?:false", UF_BOOL, 0),
    OKC("complex64:1-2j", UF_COMPLEX64, 1.0, -2.0),
    OKC("complex128:3", UF_COMPLEX128, 3.0, 0.0),
    OKC("c16:2.5", UF_COMPLEX128, 2.5, 0.0),
    OKC(" complex128 : 1+1j ", UF_COMPLEX128, 1.0, 1.0),
    BAD("int32:2147483648"),
    BAD("int8:-129"),
    BAD("int8:128"),
    BAD("uint8:256"),
    BAD("uint8:-1"),
    BAD("uint64:18446744073709551616"),
    BAD("int64:9223372036854775808"),
    BAD("int32:2.5"),
    BAD("int32:1+2j"),
    BAD("int16:true"),
    BAD("float64:true"),
    BAD("float64:1+2j"),
    BAD("float32:1e40"),
    BAD("complex64:1e40j"),
    BAD("complex128:true"),
    BAD("bool:2"),
    BAD("bool:-1"),
    BAD("bool:1.0"),
    BAD("float99:1"),
    BAD("object:1"),
    BAD("int32:"),
    BAD(":3"),
    /* Not literals. */
    BAD(""),
    BAD("   "),
    BAD("abc"),
    BAD("1.2.3"),
    BAD("0x"),
    BAD("0xg"),
    BAD("0b2"),
    BAD("1e"),
    BAD("e3"),
    BAD("."),
    BAD("--1"),
    BAD("1+"),
    BAD("j2"),
    BAD("1+2"),
    BAD("1+2jj"),
    BAD("0x1p3"), /* a C hex float: not Python's float() */
    BAD("1_000"),
    BAD("truex"),
    BAD("(1+2j"),
};

static bool same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static void check_scalar(const scalar_case *c)
{
    uf__cli_scalar s;
    memset(&s, 0xAB, sizeof s);
    uf_error err;
    uf_error_clear(&err);
    int rc = uf__cli_parse_scalar(c->text, &s, &err);
    if (!c->ok) {
        if (rc == 0)
            uf_fail_at(c->file, c->line, "'%s' parsed as %s, expected an "
                       "error", c->text, uf_dtype_name(s.dtype));
        if (err.code == UF_ERR_OK || err.message[0] == '\0')
            uf_fail_at(c->file, c->line, "'%s': error without a message",
                       c->text);
        return;
    }
    if (rc != 0)
        uf_fail_at(c->file, c->line, "'%s': %s", c->text, err.message);
    if (s.dtype != c->dtype)
        uf_fail_at(c->file, c->line, "'%s': dtype %s, expected %s", c->text,
                   uf_dtype_name(s.dtype), uf_dtype_name(c->dtype));
    int64_t i = 0;
    uint64_t u = 0;
    double re = 0, im = 0;
    switch (s.dtype) {
    case UF_BOOL: i = s.v.b; break;
    case UF_INT8: i = s.v.i8; break;
    case UF_INT16: i = s.v.i16; break;
    case UF_INT32: i = s.v.i32; break;
    case UF_INT64: i = s.v.i64; break;
    case UF_UINT8: u = s.v.u8; break;
    case UF_UINT16: u = s.v.u16; break;
    case UF_UINT32: u = s.v.u32; break;
    case UF_UINT64: u = s.v.u64; break;
    case UF_FLOAT32: re = s.v.f32; break;
    case UF_FLOAT64: re = s.v.f64; break;
    case UF_COMPLEX64: re = crealf(s.v.c64); im = cimagf(s.v.c64); break;
    default: re = creal(s.v.c128); im = cimag(s.v.c128); break;
    }
    if (i != c->i || u != c->u || !same_double(re, c->re) ||
        !same_double(im, c->im))
        uf_fail_at(c->file, c->line,
                   "'%s': got i=%lld u=%llu re=%.17g im=%.17g, expected "
                   "i=%lld u=%llu re=%.17g im=%.17g", c->text, (long long)i,
                   (unsigned long long)u, re, im, (long long)c->i,
                   (unsigned long long)c->u, c->re, c->im);
}

static void test_scalars(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof scalar_cases / sizeof scalar_cases[0]; k++)
        check_scalar(&scalar_cases[k]);
}

/* Negative zero keeps its sign, as float("-0.0") does. */
static void test_scalar_negative_zero(void **state)
{
    (void)state;
    uf__cli_scalar s;
    uf_error err;
    uf_assert_ok(uf__cli_parse_scalar("-0.0", &s, &err) == 0, &err);
    assert_int_equal(s.dtype, UF_FLOAT64);
    assert_true(s.v.f64 == 0.0 && signbit(s.v.f64));
    uf_assert_ok(uf__cli_parse_scalar("float32:-0.0", &s, &err) == 0, &err);
    assert_true(s.v.f32 == 0.0f && signbit(s.v.f32));
}

/* ---- option parser ------------------------------------------------------- */

typedef struct parse_case {
    const char *file;
    int line;
    const char *args[8]; /* NULL-terminated */
    int rc;
    const char *a;      /* value of --a, or NULL */
    bool flag;          /* --flag seen */
    int npos;
    const char *pos[2];
} parse_case;

static const parse_case parse_cases[] = {
    {LOC, {NULL}, 0, NULL, false, 0, {NULL}},
    {LOC, {"x", "y"}, 0, NULL, false, 2, {"x", "y"}},
    {LOC, {"x", "--a", "v", "y"}, 0, "v", false, 2, {"x", "y"}},
    {LOC, {"--a=v", "x"}, 0, "v", false, 1, {"x"}},
    {LOC, {"--a="}, 0, "", false, 0, {NULL}},
    {LOC, {"--a", ""}, 0, "", false, 0, {NULL}},
    {LOC, {"--a", "-1"}, 0, "-1", false, 0, {NULL}},
    {LOC, {"--a", "--flag"}, 0, "--flag", false, 0, {NULL}},
    {LOC, {"--flag", "x"}, 0, NULL, true, 1, {"x"}},
    {LOC, {"-3", "-.5"}, 0, NULL, false, 2, {"-3", "-.5"}},
    /* infinities and NaN, negative, are values too */
    {LOC, {"-inf", "-NaN"}, 0, NULL, false, 2, {"-inf", "-NaN"}},
    {LOC, {"--a", "1", "-Infinity"}, 0, "1", false, 1, {"-Infinity"}},
    {LOC, {"-"}, 0, NULL, false, 1, {"-"}},
    {LOC, {"--", "--flag", "-h"}, 0, NULL, false, 2, {"--flag", "-h"}},
    {LOC, {"x", "--help"}, UF__CLI_HELP, NULL, false, 1, {"x"}},
    {LOC, {"-h"}, UF__CLI_HELP, NULL, false, 0, {NULL}},
    {LOC, {"--b"}, UF__CLI_USAGE, NULL, false, 0, {NULL}},
    {LOC, {"--ab"}, UF__CLI_USAGE, NULL, false, 0, {NULL}},
    {LOC, {"-x"}, UF__CLI_USAGE, NULL, false, 0, {NULL}},
    {LOC, {"--a"}, UF__CLI_USAGE, NULL, false, 0, {NULL}},
    {LOC, {"--a", "1", "--a", "2"}, UF__CLI_USAGE, "1", false, 0, {NULL}},
    {LOC, {"--flag=1"}, UF__CLI_USAGE, NULL, false, 0, {NULL}},
    {LOC, {"x", "y", "z"}, UF__CLI_USAGE, NULL, false, 2, {"x", "y"}},
};

static void test_parse(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof parse_cases / sizeof parse_cases[0]; k++) {
        const parse_case *c = &parse_cases[k];
        char *argv[8];
        int argc = 0;
        while (c->args[argc] != NULL) {
            argv[argc] = (char *)c->args[argc];
            argc++;
        }
        const char *a = NULL;
        bool flag = false;
        const uf__cli_opt opts[] = {{"--a", &a, NULL},
                                    {"--flag", NULL, &flag}};
        const char *pos[2] = {NULL, NULL};
        int npos = -1;
        int rc = uf__cli_parse("test", argc, argv, opts, 2, pos, 2, &npos);
        if (rc != c->rc)
            uf_fail_at(c->file, c->line, "rc %d, expected %d", rc, c->rc);
        if (rc != 0)
            continue;
        if ((a == NULL) != (c->a == NULL) ||
            (a != NULL && strcmp(a, c->a) != 0))
            uf_fail_at(c->file, c->line, "--a is '%s', expected '%s'",
                       a ? a : "(none)", c->a ? c->a : "(none)");
        if (flag != c->flag)
            uf_fail_at(c->file, c->line, "--flag %d, expected %d", flag,
                       c->flag);
        if (npos != c->npos)
            uf_fail_at(c->file, c->line, "%d positionals, expected %d",
                       npos, c->npos);
        for (int i = 0; i < npos; i++)
            if (strcmp(pos[i], c->pos[i]) != 0)
                uf_fail_at(c->file, c->line, "positional %d is '%s', "
                           "expected '%s'", i, pos[i], c->pos[i]);
    }
}

/* ---- tuples and axis lists ---------------------------------------------- */

static void test_tuple(void **state)
{
    (void)state;
    char buf[64];
    const int64_t v[] = {2, 3, -8};
    assert_string_equal(uf__cli_tuple(0, v, buf, sizeof buf), "()");
    assert_string_equal(uf__cli_tuple(1, v, buf, sizeof buf), "(2,)");
    assert_string_equal(uf__cli_tuple(2, v, buf, sizeof buf), "(2, 3)");
    assert_string_equal(uf__cli_tuple(3, v, buf, sizeof buf), "(2, 3, -8)");
    char small[8];
    assert_string_equal(uf__cli_tuple(3, v, small, sizeof small), "(2, ...");
    const int64_t big[] = {INT64_MIN};
    assert_string_equal(uf__cli_tuple(1, big, buf, sizeof buf),
                        "(-9223372036854775808,)");
}

typedef struct list_case {
    const char *file;
    int line;
    const char *text;
    bool ok;
    int n;
    int v[4];
} list_case;

static const list_case list_cases[] = {
    {LOC, "1,0,2", true, 3, {1, 0, 2}},
    {LOC, " -1 , 0 ", true, 2, {-1, 0}},
    {LOC, "", true, 0, {0}},
    {LOC, "  ", true, 0, {0}},
    {LOC, "5", true, 1, {5}},
    {LOC, "1,2,3,4", true, 4, {1, 2, 3, 4}},
    {LOC, "1,2,3,4,5", false, 0, {0}}, /* more than max = 4 */
    {LOC, "1,,2", false, 0, {0}},
    {LOC, "1,", false, 0, {0}},
    {LOC, ",1", false, 0, {0}},
    {LOC, "1,a", false, 0, {0}},
    {LOC, "1 2", false, 0, {0}},
    {LOC, "1.5", false, 0, {0}},
    {LOC, "99999999999", false, 0, {0}},
};

static void test_int_list(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof list_cases / sizeof list_cases[0]; k++) {
        const list_case *c = &list_cases[k];
        int v[4] = {0};
        int n = -1;
        uf_error err;
        uf_error_clear(&err);
        int rc = uf__cli_parse_int_list(c->text, v, 4, &n, &err);
        if ((rc == 0) != c->ok)
            uf_fail_at(c->file, c->line, "'%s': rc %d (%s)", c->text, rc,
                       err.message);
        if (!c->ok) {
            if (err.message[0] == '\0')
                uf_fail_at(c->file, c->line, "'%s': no message", c->text);
            continue;
        }
        if (n != c->n || memcmp(v, c->v, sizeof(int) * (size_t)n) != 0)
            uf_fail_at(c->file, c->line, "'%s': wrong list (n=%d)", c->text,
                       n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_scalar_negative_zero),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_tuple),
        cmocka_unit_test(test_int_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
