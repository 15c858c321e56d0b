/* Numba signature strings (compiler/types/signature.c): the type names and
 * signatures of tests/data/numba_typing.txt as Numba reads them (or of
 * the file named by argv[1]), hand-written rows for layouts, spacing and
 * every error with its column, and out-of-memory runs. */
#include "test_util.h"

#include "common/alloc.h"
#include "compiler/front/arena.h"
#include "compiler/types/types.h"

static const char *table_path = UF_TEST_DATA_DIR "/numba_typing.txt";

/* "ret(arg, arg)" with Numba's spellings, "-" for no return type. */
static void sig_str(const uf__signature *s, char *buf, size_t size)
{
    size_t pos = 0;
    if (s->ret)
        pos += (size_t)uf__type_str(s->ret, buf, size);
    else
        pos += (size_t)snprintf(buf, size, "-");
    for (int i = 0; i < s->nargs && pos < size; i++) {
        pos += (size_t)snprintf(buf + pos, size - pos, i ? " | " : " <- ");
        if (pos < size)
            pos += (size_t)uf__type_str(s->args[i], buf + pos, size - pos);
    }
}

static const struct {
    const char *file;
    int line;
    const char *text;
    const char *want;
} good_rows[] = {
    {LOC, "float32(float32, float32)", "float32 <- float32 | float32"},
    {LOC, "f8(f8, i4)", "float64 <- float64 | int32"},
    {LOC, "b1(u1,u2,u4,u8,i1,i2,i8,c8,c16,f4)",
     "bool <- uint8 | uint16 | uint32 | uint64 | int8 | int16 | int64 | "
     "complex64 | complex128 | float32"},
    {LOC, "void(float64[:,:], float64[:], float64[:])",
     "none <- array(float64, 2d, A) | array(float64, 1d, A) | "
     "array(float64, 1d, A)"},
    {LOC, "(float64[:], int64)", "- <- array(float64, 1d, A) | int64"},
    {LOC, "(float64,)", "- <- float64"},
    /* guvectorize's arguments alone, as Numba evaluates the string */
    {LOC, "int32[:], int32, int32[:]",
     "- <- array(int32, 1d, A) | int32 | array(int32, 1d, A)"},
    {LOC, " float64[:, ::1] , f8 ,", "- <- array(float64, 2d, C) | float64"},
    {LOC, "UniTuple(f8, 2), i8", "- <- UniTuple(float64 x 2) | int64"},
    {LOC, "()", "-"},
    {LOC, "int64()", "int64"},
    {LOC, " \t( )\n", "-"},
    {LOC, "void(float64[::1])", "none <- array(float64, 1d, C)"},
    {LOC, "void(float64[:, ::1])", "none <- array(float64, 2d, C)"},
    {LOC, "void(float64[::1, :])", "none <- array(float64, 2d, F)"},
    {LOC, "void(float64[::1, ::1])", "none <- array(float64, 2d, F)"},
    {LOC, "void(float64[:, :, :])", "none <- array(float64, 3d, A)"},
    {LOC, "void(float64[:, ::1, :])", "none <- array(float64, 3d, A)"},
    {LOC, "void(float64[::1,])", "none <- array(float64, 1d, F)"},
    {LOC, "void(float64[:,])", "none <- array(float64, 1d, A)"},
    {LOC, "void(float64[::2])", "none <- array(float64, 1d, A)"},
    {LOC, "void(float64[::-1, :])", "none <- array(float64, 2d, A)"},
    {LOC, "void(float64[ : , : : 1 ])", "none <- array(float64, 2d, C)"},
    {LOC, "void(float64[::])", "none <- array(float64, 1d, A)"},
    {LOC, "UniTuple(float64, 2)(float64)", "UniTuple(float64 x 2) <- float64"},
    {LOC, "UniTuple(float64, 2,)(float64)", "UniTuple(float64 x 2) <- float64"},
    {LOC, "UniTuple(int8, 0)()", "Tuple()"},
    {LOC, "Tuple((float64, int32))(float64)",
     "Tuple(float64, int32) <- float64"},
    {LOC, "Tuple([float64, int32])(float64)",
     "Tuple(float64, int32) <- float64"},
    {LOC, "Tuple((float64, float64))()", "UniTuple(float64 x 2)"},
    {LOC, "Tuple((float64,))()", "UniTuple(float64 x 1)"},
    {LOC, "Tuple(())()", "Tuple()"},
    {LOC, "Tuple((UniTuple(i4, 2), Tuple((f4, b1)), f8[::1]))()",
     "Tuple(UniTuple(int32 x 2), Tuple(float32, bool), "
     "array(float64, 1d, C))"},
    {LOC, "float64[:](float64[:], none)",
     "array(float64, 1d, A) <- array(float64, 1d, A) | none"},
    {LOC, "intp(uintp, intc, uintc, int_, uint, size_t, ssize_t)",
     "int64 <- uint64 | int32 | uint32 | int64 | uint64 | uint64 | int64"},
    {LOC, "double(byte, char, short, ushort, long_, ulong, longlong)",
     "float64 <- uint8 | int8 | int16 | uint16 | int64 | uint64 | int64"},
    {LOC, "boolean(bool, bool_, ulonglong)",
     "bool <- bool | bool | uint64"},
    {LOC, "void(f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, i1)",
     "none <- float64 | float64 | float64 | float64 | float64 | float64 | "
     "float64 | float64 | float64 | float64 | int8"},
};

static void test_good(void **state)
{
    (void)state;
    uf_error err;
    uf__typectx *tc = uf__typectx_new(&err);
    uf_assert_ok(tc != NULL, &err);
    uf__arena *arena = uf__arena_new(&err);
    uf_assert_ok(arena != NULL, &err);
    for (size_t i = 0; i < sizeof good_rows / sizeof good_rows[0]; i++) {
        uf__signature s;
        memset(&s, 0xa5, sizeof s);
        if (uf__parse_signature(tc, arena, good_rows[i].text, &s, &err) < 0)
            uf_fail_at(good_rows[i].file, good_rows[i].line, "refused: %s",
                       err.message);
        char buf[512];
        sig_str(&s, buf, sizeof buf);
        if (strcmp(buf, good_rows[i].want) != 0)
            uf_fail_at(good_rows[i].file, good_rows[i].line,
                       "got '%s', want '%s'", buf, good_rows[i].want);
        if (s.nargs == 0 && s.args != NULL)
            uf_fail_at(good_rows[i].file, good_rows[i].line, "args not NULL");
    }
    /* Types are the context's interned ones. */
    uf__signature a, b;
    assert_int_equal(uf__parse_signature(tc, arena, "f8(f8[:, ::1])", &a,
                                         &err), 0);
    assert_int_equal(uf__parse_signature(tc, arena, "float64(float64[:,::1])",
                                         &b, &err), 0);
    assert_ptr_equal(a.ret, b.ret);
    assert_ptr_equal(a.args[0], b.args[0]);
    assert_ptr_equal(a.ret, uf__type_scalar(tc, UF_FLOAT64));
    assert_ptr_equal(a.args[0], uf__type_array(tc, UF_FLOAT64, 2, 'C', NULL));
    uf__arena_free(arena);
    uf__typectx_free(tc);
}

static const struct {
    const char *file;
    int line;
    const char *text;
    int code;
    const char *msg; /* a substring of err.message */
} bad_rows[] = {
    {LOC, "float32(float33)", UF_ERR_TYPING,
     "bad signature 'float32(float33)': unknown type 'float33' at column 9"},
    {LOC, "float33(float32)", UF_ERR_TYPING, "unknown type 'float33' at column 1"},
    {LOC, "float16(float32)", UF_ERR_UNSUPPORTED,
     "type 'float16' is not supported at column 1"},
    {LOC, "f8(f2)", UF_ERR_UNSUPPORTED, "type 'f2' is not supported at column 4"},
    {LOC, "float32", UF_ERR_SYNTAX,
     "expected '(' and the argument types, found end of text at column 8"},
    {LOC, "float32(float32", UF_ERR_SYNTAX,
     "expected ',' between types, found end of text at column 16"},
    {LOC, "float32(float32 float32)", UF_ERR_SYNTAX,
     "expected ',' between types, found 'f' at column 17"},
    {LOC, "float32(float32,,)", UF_ERR_SYNTAX,
     "expected a type, found ',' at column 17"},
    {LOC, "float32(,)", UF_ERR_SYNTAX, "expected a type, found ',' at column 9"},
    {LOC, "float32(float32))", UF_ERR_SYNTAX,
     "unexpected ')' after the signature at column 17"},
    {LOC, "float32(float32) x", UF_ERR_SYNTAX,
     "unexpected 'x' after the signature at column 18"},
    {LOC, "float32(float32)(float32)", UF_ERR_SYNTAX,
     "unexpected '(' after the signature at column 17"},
    {LOC, "int32[:], int32 int32", UF_ERR_SYNTAX,
     "unexpected 'i' after the signature at column 17"},
    {LOC, "int32[:], , int32", UF_ERR_SYNTAX,
     "expected a type, found ',' at column 11"},
    {LOC, "int32[:], int32(", UF_ERR_SYNTAX,
     "unexpected '(' after the signature at column 16"},
    {LOC, "(float32)", UF_ERR_SYNTAX,
     "needs a trailing comma, as in '(float32,)' at column 1"},
    {LOC, "", UF_ERR_SYNTAX, "expected a type, found end of text at column 1"},
    {LOC, "   ", UF_ERR_SYNTAX, "found end of text at column 4"},
    {LOC, "1(f8)", UF_ERR_SYNTAX, "expected a type, found '1' at column 1"},
    {LOC, "numba.f8(f8)", UF_ERR_TYPING, "unknown type 'numba' at column 1"},
    {LOC, "f8(float64[1:])", UF_ERR_SYNTAX,
     "array dimensions are written ':', '::1' (no start or stop) at column 12"},
    {LOC, "f8(float64[:1])", UF_ERR_SYNTAX,
     "expected ',' or ']' in array dimensions, found '1' at column 13"},
    {LOC, "f8(float64[])", UF_ERR_SYNTAX, "at column 12"},
    {LOC, "f8(float64[:, :)", UF_ERR_SYNTAX,
     "expected ',' or ']' in array dimensions, found ')' at column 16"},
    {LOC, "f8(float64[::x])", UF_ERR_SYNTAX,
     "expected ',' or ']' in array dimensions, found 'x' at column 14"},
    {LOC, "f8(float64[::-])", UF_ERR_SYNTAX,
     "expected an integer, found ']' at column 15"},
    {LOC, "f8(float64[:][:])", UF_ERR_UNSUPPORTED,
     "arrays of array(float64, 1d, A) are not supported at column 14"},
    {LOC, "f8(none[:])", UF_ERR_UNSUPPORTED,
     "arrays of none are not supported at column 8"},
    {LOC, "f8(UniTuple(f8, 2)[:])", UF_ERR_UNSUPPORTED,
     "arrays of UniTuple(float64 x 2) are not supported at column 19"},
    {LOC, "UniTuple(f8)(f8)", UF_ERR_SYNTAX,
     "expected ',' before the UniTuple count, found ')' at column 12"},
    {LOC, "UniTuple(f8, x)(f8)", UF_ERR_SYNTAX,
     "expected an integer, found 'x' at column 14"},
    {LOC, "UniTuple(f8, -1)(f8)", UF_ERR_SYNTAX,
     "expected an integer, found '-' at column 14"},
    {LOC, "UniTuple(f8, 99999999999)(f8)", UF_ERR_SYNTAX,
     "integer too large at column 14"},
    {LOC, "UniTuple(f8, 257)(f8)", UF_ERR_UNSUPPORTED,
     "tuple of 257 elements: at most 256 are supported at column 14"},
    {LOC, "UniTuple(f8, 2(f8)", UF_ERR_SYNTAX,
     "expected ')' to close UniTuple(...), found '(' at column 15"},
    {LOC, "UniTuple f8", UF_ERR_SYNTAX,
     "expected '(' after UniTuple, found 'f' at column 10"},
    {LOC, "Tuple(f8, i4)(f8)", UF_ERR_SYNTAX,
     "Tuple takes one tuple of types, as in Tuple((float64, int32)) at "
     "column 7"},
    {LOC, "Tuple((f8, i4)(f8)", UF_ERR_SYNTAX,
     "expected ')' to close Tuple(...), found '(' at column 15"},
    {LOC, "Tuple((f8, i4])(f8)", UF_ERR_SYNTAX,
     "expected ',' between types, found ']' at column 14"},
    {LOC, "f8(Array(f8, 1, 'C'))", UF_ERR_UNSUPPORTED,
     "type 'Array' is not supported at column 4"},
    {LOC, "f8(f8) # comment", UF_ERR_SYNTAX, "unexpected '#'"},
};

static void test_bad(void **state)
{
    (void)state;
    uf_error err;
    uf__typectx *tc = uf__typectx_new(&err);
    uf_assert_ok(tc != NULL, &err);
    uf__arena *arena = uf__arena_new(&err);
    uf_assert_ok(arena != NULL, &err);
    for (size_t i = 0; i < sizeof bad_rows / sizeof bad_rows[0]; i++) {
        uf__signature s = {0};
        uf_error_clear(&err);
        int rc = uf__parse_signature(tc, arena, bad_rows[i].text, &s, &err);
        if (rc >= 0)
            uf_fail_at(bad_rows[i].file, bad_rows[i].line, "'%s' accepted",
                       bad_rows[i].text);
        if (rc != bad_rows[i].code || err.code != rc ||
            !strstr(err.message, bad_rows[i].msg))
            uf_fail_at(bad_rows[i].file, bad_rows[i].line,
                       "got %s '%s', want %s '%s'", uf_err_name(err.code),
                       err.message, uf_err_name(bad_rows[i].code),
                       bad_rows[i].msg);
        if (s.args || s.ret || s.nargs)
            uf_fail_at(bad_rows[i].file, bad_rows[i].line, "out was written");
    }
    /* Long texts are quoted shortened; deep nesting is refused. */
    char long_text[400];
    memset(long_text, ' ', sizeof long_text);
    memcpy(long_text + 300, "f9()", 5);
    uf__signature s;
    assert_int_equal(uf__parse_signature(tc, arena, long_text, &s, &err),
                     UF_ERR_TYPING);
    assert_non_null(strstr(err.message, "...': unknown type 'f9' at column 301"));
    char deep[400] = "";
    for (int i = 0; i < 40; i++)
        strcat(deep, "Tuple((");
    assert_int_equal(uf__parse_signature(tc, arena, deep, &s, &err),
                     UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "nested more than 32 deep at column 225"));
    /* 256 elements are fine, 257 are not. */
    char wide[3000] = "Tuple((";
    for (int i = 0; i < 257; i++)
        strcat(wide, i ? ", f8" : "f8");
    strcat(wide, "))()");
    assert_int_equal(uf__parse_signature(tc, arena, wide, &s, &err),
                     UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "tuple of 257 elements"));
    strcpy(strstr(wide, ", f8))"), "))()");
    assert_int_equal(uf__parse_signature(tc, arena, wide, &s, &err), 0);
    assert_int_equal(s.ret->n, 256);
    assert_int_equal(uf__parse_signature(tc, arena, NULL, &s, &err),
                     UF_ERR_INVALID);
    /* A NULL err is allowed. */
    assert_int_equal(uf__parse_signature(tc, arena, "f8(", &s, NULL),
                     UF_ERR_SYNTAX);
    uf__arena_free(arena);
    uf__typectx_free(tc);
}

static void test_parse_type(void **state)
{
    (void)state;
    uf_error err;
    uf__typectx *tc = uf__typectx_new(&err);
    uf_assert_ok(tc != NULL, &err);
    const struct {
        const char *file;
        int line;
        const char *text;
        const char *want; /* NULL: refused with msg */
        const char *msg;
    } rows[] = {
        {LOC, "float32", "float32", NULL},
        {LOC, "  c16 ", "complex128", NULL},
        {LOC, "void", "none", NULL},
        {LOC, "int8[:, ::1]", "array(int8, 2d, C)", NULL},
        {LOC, "UniTuple(b1, 3)", "UniTuple(bool x 3)", NULL},
        {LOC, "Tuple((i8, f4))", "Tuple(int64, float32)", NULL},
        {LOC, "float32(float32)", NULL,
         "bad type 'float32(float32)': unexpected '(' after the type at "
         "column 8"},
        {LOC, "", NULL, "bad type '': expected a type, found end of text at "
                        "column 1"},
        {LOC, "f8, f8", NULL, "unexpected ',' after the type at column 3"},
        {LOC, "Float64", NULL, "unknown type 'Float64' at column 1"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const uf__type *t = NULL;
        uf_error_clear(&err);
        int rc = uf__parse_type(tc, rows[i].text, &t, &err);
        char buf[128];
        if (rows[i].want) {
            if (rc < 0)
                uf_fail_at(rows[i].file, rows[i].line, "refused: %s",
                           err.message);
            uf__type_str(t, buf, sizeof buf);
            if (strcmp(buf, rows[i].want) != 0)
                uf_fail_at(rows[i].file, rows[i].line, "got %s, want %s",
                           buf, rows[i].want);
        } else if (rc >= 0 || t != NULL || !strstr(err.message, rows[i].msg)) {
            uf_fail_at(rows[i].file, rows[i].line, "got %d '%s', want '%s'",
                       rc, err.message, rows[i].msg);
        }
    }
    const uf__type *t;
    assert_int_equal(uf__parse_type(tc, NULL, &t, &err), UF_ERR_INVALID);
    uf__typectx_free(tc);
}

/* Allocation N fails for N = 1, 2, ...: a clean UF_ERR_NOMEM and nothing
 * left behind, until the whole parse succeeds. */
static int parse_some(const char *text, uf_error *err)
{
    uf__typectx *tc = uf__typectx_new(err);
    if (!tc)
        return err->code;
    uf__arena *arena = uf__arena_new(err);
    int rc = arena ? 0 : err->code;
    uf__signature s;
    if (rc == 0)
        rc = uf__parse_signature(tc, arena, text, &s, err);
    uf__arena_free(arena);
    uf__typectx_free(tc);
    return rc;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    /* 20 arguments outgrow the parser's stack list twice. */
    const char *texts[] = {
        "Tuple((f8, UniTuple(i4, 3), f4[:, ::1]))(f8[::1], c8, "
        "i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, "
        "i1, Tuple((f4, f4, f4, f4, f4, f4, f4, f4, f4, b1)))",
        "void(float64[:, :], float64[:], float64[:])",
    };
    long live = uf__alloc_live();
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        int fails = 0;
        for (long n = 1; n < 200; n++) {
            uf_error err;
            uf_error_clear(&err);
            uf__alloc_fail_at(n);
            int rc = parse_some(texts[t], &err);
            bool failed = uf__alloc_failed();
            uf__alloc_fail_at(0);
            assert_int_equal(uf__alloc_live(), live);
            if (!failed) {
                if (rc != 0)
                    fail_msg("text %zu: %s", t, err.message);
                break;
            }
            if (rc != UF_ERR_NOMEM || err.code != UF_ERR_NOMEM)
                fail_msg("text %zu, allocation %ld: got %s (%s)", t, n,
                         uf_err_name(rc), err.message);
            fails++;
        }
        assert_true(fails >= 4);
    }
}

/* The `name` and `sig` lines of the Numba table. */
static void test_numba_table(void **state)
{
    (void)state;
    FILE *fp = fopen(table_path, "r");
    if (!fp)
        fail_msg("cannot open %s", table_path);
    uf_error err;
    uf__typectx *tc = uf__typectx_new(&err);
    uf_assert_ok(tc != NULL, &err);
    uf__arena *arena = uf__arena_new(&err);
    uf_assert_ok(arena != NULL, &err);
    char line[1024];
    int lineno = 0, nname = 0, nsig = 0;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        char *f[32];
        int nf = 0;
        for (char *p = line; nf < 32;) {
            f[nf++] = p;
            char *tab = strchr(p, '\t');
            if (!tab)
                break;
            *tab = '\0';
            p = tab + 1;
        }
        char buf[256];
        if (strcmp(f[0], "name") == 0 && nf == 3) {
            const uf__type *t;
            if (uf__parse_type(tc, f[1], &t, &err) < 0)
                uf_fail_at(table_path, lineno, "%s", err.message);
            uf__type_str(t, buf, sizeof buf);
            if (strcmp(buf, f[2]) != 0)
                uf_fail_at(table_path, lineno, "%s is %s, Numba %s", f[1],
                           buf, f[2]);
            nname++;
        } else if (strcmp(f[0], "sig") == 0 && nf >= 3) {
            uf__signature s;
            if (uf__parse_signature(tc, arena, f[1], &s, &err) < 0)
                uf_fail_at(table_path, lineno, "%s", err.message);
            if (s.ret)
                uf__type_str(s.ret, buf, sizeof buf);
            else
                strcpy(buf, "-");
            if (strcmp(buf, f[2]) != 0 || s.nargs != nf - 3)
                uf_fail_at(table_path, lineno, "'%s': returns %s with %d "
                           "arguments, Numba %s with %d", f[1], buf, s.nargs,
                           f[2], nf - 3);
            for (int i = 0; i < s.nargs; i++) {
                uf__type_str(s.args[i], buf, sizeof buf);
                if (strcmp(buf, f[3 + i]) != 0)
                    uf_fail_at(table_path, lineno, "'%s' argument %d: %s, "
                               "Numba %s", f[1], i + 1, buf, f[3 + i]);
            }
            nsig++;
        }
    }
    fclose(fp);
    uf__arena_free(arena);
    uf__typectx_free(tc);
    assert_true(nname >= 40);
    assert_true(nsig >= 20);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        table_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_parse_type),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_numba_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
