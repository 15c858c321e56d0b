/* dtype properties, names and typestrings, checked against what NumPy 2.4
 * reports on x86-64 Linux (np.dtype(x).name/.kind/.itemsize/.alignment/
 * .str, and which strings np.dtype() accepts). */
#include "test_util.h"

/* ---- properties ------------------------------------------------------ */

typedef struct props_case {
    const char *file;
    int line;
    uf_dtype dtype;
    const char *name;
    char kind;
    size_t itemsize;
    size_t alignment;
    const char *typestr;
} props_case;

static const props_case props_cases[] = {
    {LOC, UF_BOOL, "bool", 'b', 1, 1, "|b1"},
    {LOC, UF_INT8, "int8", 'i', 1, 1, "|i1"},
    {LOC, UF_UINT8, "uint8", 'u', 1, 1, "|u1"},
    {LOC, UF_INT16, "int16", 'i', 2, 2, "<i2"},
    {LOC, UF_UINT16, "uint16", 'u', 2, 2, "<u2"},
    {LOC, UF_INT32, "int32", 'i', 4, 4, "<i4"},
    {LOC, UF_UINT32, "uint32", 'u', 4, 4, "<u4"},
    {LOC, UF_INT64, "int64", 'i', 8, 8, "<i8"},
    {LOC, UF_UINT64, "uint64", 'u', 8, 8, "<u8"},
    {LOC, UF_FLOAT32, "float32", 'f', 4, 4, "<f4"},
    {LOC, UF_FLOAT64, "float64", 'f', 8, 8, "<f8"},
    {LOC, UF_COMPLEX64, "complex64", 'c', 8, 4, "<c8"},
    {LOC, UF_COMPLEX128, "complex128", 'c', 16, 8, "<c16"},
};

#define NCASES(a) (sizeof(a) / sizeof((a)[0]))

static void test_properties(void **state)
{
    (void)state;
    assert_int_equal(NCASES(props_cases), UF_NTYPES);
    for (size_t i = 0; i < NCASES(props_cases); i++) {
        const props_case *c = &props_cases[i];
        char buf[8];
        if (!uf_dtype_valid((int)c->dtype))
            uf_fail_at(c->file, c->line, "not valid");
        if (strcmp(uf_dtype_name(c->dtype), c->name) != 0)
            uf_fail_at(c->file, c->line, "name %s", uf_dtype_name(c->dtype));
        if (uf_dtype_kind(c->dtype) != c->kind)
            uf_fail_at(c->file, c->line, "kind %c", uf_dtype_kind(c->dtype));
        if (uf_dtype_itemsize(c->dtype) != c->itemsize)
            uf_fail_at(c->file, c->line, "itemsize %zu",
                       uf_dtype_itemsize(c->dtype));
        if (uf_dtype_alignment(c->dtype) != c->alignment)
            uf_fail_at(c->file, c->line, "alignment %zu",
                       uf_dtype_alignment(c->dtype));
        if (strcmp(uf_dtype_typestr(c->dtype, buf), c->typestr) != 0)
            uf_fail_at(c->file, c->line, "typestr %s", buf);
    }
}

static void test_invalid_dtype(void **state)
{
    (void)state;
    const int bad[] = {-1, UF_NTYPES, UF_NTYPES + 1, 1000};
    for (size_t i = 0; i < NCASES(bad); i++) {
        char buf[8] = "xxxxxxx";
        uf_dtype t = (uf_dtype)bad[i];
        assert_false(uf_dtype_valid(bad[i]));
        assert_string_equal(uf_dtype_name(t), "invalid");
        assert_int_equal(uf_dtype_kind(t), '\0');
        assert_int_equal(uf_dtype_itemsize(t), 0);
        assert_int_equal(uf_dtype_alignment(t), 0);
        assert_string_equal(uf_dtype_typestr(t, buf), "");
    }
    assert_true(uf_dtype_valid(0));
    assert_true(uf_dtype_valid(UF_NTYPES - 1));
}

/* Every typestring and name we produce parses back to the same dtype. */
static void test_round_trip(void **state)
{
    (void)state;
    for (int t = 0; t < UF_NTYPES; t++) {
        char buf[8];
        uf_dtype got = UF_NTYPES;
        bool swapped = true;
        uf_error err;
        uf_assert_ok(uf_dtype_from_typestr(uf_dtype_typestr((uf_dtype)t, buf),
                                           &got, &swapped, &err) == 0,
                     &err);
        assert_int_equal(got, t);
        assert_false(swapped);
        got = UF_NTYPES;
        uf_assert_ok(uf_dtype_from_name(buf, &got, &err) == 0, &err);
        assert_int_equal(got, t);
        got = UF_NTYPES;
        uf_assert_ok(uf_dtype_from_name(uf_dtype_name((uf_dtype)t), &got,
                                        &err) == 0, &err);
        assert_int_equal(got, t);
    }
}

/* ---- uf_dtype_from_name ---------------------------------------------- */

typedef struct name_case {
    const char *file;
    int line;
    const char *name;
    uf_dtype want;
} name_case;

/* Each is what np.dtype(name) gives in NumPy 2 on LP64 Linux. */
static const name_case good_names[] = {
    {LOC, "bool", UF_BOOL},           {LOC, "bool_", UF_BOOL},
    {LOC, "?", UF_BOOL},              {LOC, "b1", UF_BOOL},
    {LOC, "|b1", UF_BOOL},            {LOC, "<b1", UF_BOOL},
    {LOC, ">?", UF_BOOL},             {LOC, "b01", UF_BOOL},
    {LOC, "int8", UF_INT8},           {LOC, "byte", UF_INT8},
    {LOC, "b", UF_INT8},              {LOC, "i1", UF_INT8},
    {LOC, "|i1", UF_INT8},            {LOC, ">b", UF_INT8},
    {LOC, "uint8", UF_UINT8},         {LOC, "ubyte", UF_UINT8},
    {LOC, "B", UF_UINT8},             {LOC, "u1", UF_UINT8},
    {LOC, ">u1", UF_UINT8},           {LOC, "int16", UF_INT16},
    {LOC, "short", UF_INT16},         {LOC, "h", UF_INT16},
    {LOC, "i2", UF_INT16},            {LOC, "uint16", UF_UINT16},
    {LOC, "ushort", UF_UINT16},       {LOC, "H", UF_UINT16},
    {LOC, "<u2", UF_UINT16},          {LOC, "int32", UF_INT32},
    {LOC, "intc", UF_INT32},          {LOC, "i", UF_INT32},
    {LOC, "i4", UF_INT32},            {LOC, "i04", UF_INT32},
    {LOC, "uint32", UF_UINT32},       {LOC, "uintc", UF_UINT32},
    {LOC, "I", UF_UINT32},            {LOC, "=u4", UF_UINT32},
    {LOC, "int64", UF_INT64},         {LOC, "int", UF_INT64},
    {LOC, "int_", UF_INT64},          {LOC, "long", UF_INT64},
    {LOC, "longlong", UF_INT64},      {LOC, "intp", UF_INT64},
    {LOC, "l", UF_INT64},             {LOC, "q", UF_INT64},
    {LOC, "p", UF_INT64},             {LOC, "i8", UF_INT64},
    {LOC, "<i8", UF_INT64},           {LOC, "=i8", UF_INT64},
    {LOC, "uint64", UF_UINT64},       {LOC, "uint", UF_UINT64},
    {LOC, "ulong", UF_UINT64},        {LOC, "ulonglong", UF_UINT64},
    {LOC, "uintp", UF_UINT64},        {LOC, "L", UF_UINT64},
    {LOC, "Q", UF_UINT64},            {LOC, "P", UF_UINT64},
    {LOC, "u8", UF_UINT64},           {LOC, "float32", UF_FLOAT32},
    {LOC, "single", UF_FLOAT32},      {LOC, "f", UF_FLOAT32},
    {LOC, "f4", UF_FLOAT32},          {LOC, "=f4", UF_FLOAT32},
    {LOC, "float64", UF_FLOAT64},     {LOC, "float", UF_FLOAT64},
    {LOC, "double", UF_FLOAT64},      {LOC, "d", UF_FLOAT64},
    {LOC, "f8", UF_FLOAT64},          {LOC, "<f8", UF_FLOAT64},
    {LOC, "|f8", UF_FLOAT64},         {LOC, "f08", UF_FLOAT64},
    {LOC, "<d", UF_FLOAT64},          {LOC, "complex64", UF_COMPLEX64},
    {LOC, "csingle", UF_COMPLEX64},   {LOC, "F", UF_COMPLEX64},
    {LOC, "c8", UF_COMPLEX64},        {LOC, "<c8", UF_COMPLEX64},
    {LOC, "complex128", UF_COMPLEX128}, {LOC, "complex", UF_COMPLEX128},
    {LOC, "cdouble", UF_COMPLEX128},  {LOC, "D", UF_COMPLEX128},
    {LOC, "c16", UF_COMPLEX128},      {LOC, "c016", UF_COMPLEX128},
};

static void test_from_name_good(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCASES(good_names); i++) {
        const name_case *c = &good_names[i];
        uf_error err;
        uf_dtype got = UF_NTYPES;
        if (uf_dtype_from_name(c->name, &got, &err) != 0)
            uf_fail_at(c->file, c->line, "'%s' refused: %s", c->name,
                       err.message);
        if (got != c->want)
            uf_fail_at(c->file, c->line, "'%s' gave %s, want %s", c->name,
                       uf_dtype_name(got), uf_dtype_name(c->want));
    }
}

typedef struct bad_name_case {
    const char *file;
    int line;
    const char *name;
    const char *in_message; /* substring the message must contain */
} bad_name_case;

/* NumPy refuses these, or they name types ufjit does not have (the
 * message then says "not supported"), or big-endian data. */
static const bad_name_case bad_names[] = {
    {LOC, "float16", "'float16' is not supported"},
    {LOC, "half", "'half' is not supported"},
    {LOC, "e", "'e' is not supported"},
    {LOC, "f2", "'f2' is not supported"},
    {LOC, "<f2", "'<f2' is not supported"},
    {LOC, "f16", "'f16' is not supported"},
    {LOC, "g", "'g' is not supported"},
    {LOC, "c32", "'c32' is not supported"},
    {LOC, "longdouble", "'longdouble' is not supported"},
    {LOC, "O", "'O' is not supported"},
    {LOC, "object", "'object' is not supported"},
    {LOC, "U", "'U' is not supported"},
    {LOC, "S", "'S' is not supported"},
    {LOC, "str", "'str' is not supported"},
    {LOC, "M8", "'M8' is not supported"},
    {LOC, "i8,i8", "structured data type 'i8,i8' is not supported"},
    {LOC, "", "'' not understood"},
    {LOC, "<", "'<' not understood"},
    {LOC, "<<f8", "'<<f8' not understood"},
    {LOC, "Float64", "'Float64' not understood"},
    {LOC, "float64 ", "'float64 ' not understood"},
    {LOC, " f8", "' f8' not understood"},
    {LOC, "<float64", "'<float64' not understood"},
    {LOC, "int0", "'int0' not understood"},
    {LOC, "bool8", "'bool8' not understood"},
    {LOC, "i0", "'i0' not understood"},
    {LOC, "i3", "'i3' not understood"},
    {LOC, "i16", "'i16' not understood"},
    {LOC, "b2", "'b2' not understood"},
    {LOC, "?1", "'?1' not understood"},
    {LOC, "I4", "'I4' not understood"},
    {LOC, "i-8", "'i-8' not understood"},
    {LOC, "f4x", "'f4x' not understood"},
    {LOC, "f99999999999999999999", "not understood"},
    {LOC, "x", "'x' not understood"},
    {LOC, ">f8", "'>f8' is not in native byte order"},
    {LOC, ">i4", "'>i4' is not in native byte order"},
    {LOC, ">d", "'>d' is not in native byte order"},
    {LOC, "\x01\xff", "'\\x01\\xff' not understood"},
    {LOC, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' not understood"},
};

static void test_from_name_bad(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCASES(bad_names); i++) {
        const bad_name_case *c = &bad_names[i];
        uf_error err;
        uf_dtype got = UF_INT16;
        int rc = uf_dtype_from_name(c->name, &got, &err);
        if (rc != UF_ERR_TYPE || err.code != UF_ERR_TYPE)
            uf_fail_at(c->file, c->line, "'%s': rc %d (%s), want UF_ERR_TYPE",
                       c->name, rc, uf_err_name(rc));
        if (strstr(err.message, c->in_message) == NULL)
            uf_fail_at(c->file, c->line, "message \"%s\" lacks \"%s\"",
                       err.message, c->in_message);
        if (got != UF_INT16)
            uf_fail_at(c->file, c->line, "output written on failure");
    }
}

static void test_from_name_null(void **state)
{
    (void)state;
    uf_error err;
    uf_dtype t;
    assert_int_equal(uf_dtype_from_name(NULL, &t, &err), UF_ERR_INVALID);
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_int_equal(uf_dtype_from_name("f8", NULL, &err), UF_ERR_INVALID);
    /* A NULL error object is allowed: the code still comes back. */
    assert_int_equal(uf_dtype_from_name("float16", &t, NULL), UF_ERR_TYPE);
}

/* ---- uf_dtype_from_typestr -------------------------------------------- */

typedef struct typestr_case {
    const char *file;
    int line;
    const char *typestr;
    uf_dtype want;
    bool swapped;
} typestr_case;

static const typestr_case good_typestrs[] = {
    {LOC, "<f8", UF_FLOAT64, false},   {LOC, ">f8", UF_FLOAT64, true},
    {LOC, "=f4", UF_FLOAT32, false},   {LOC, ">i4", UF_INT32, true},
    {LOC, "<i4", UF_INT32, false},     {LOC, "|u1", UF_UINT8, false},
    {LOC, ">u1", UF_UINT8, false},     {LOC, "<i1", UF_INT8, false},
    {LOC, "|b1", UF_BOOL, false},      {LOC, ">b1", UF_BOOL, false},
    {LOC, "<c8", UF_COMPLEX64, false}, {LOC, ">c16", UF_COMPLEX128, true},
    {LOC, ">u8", UF_UINT64, true},     {LOC, "<u2", UF_UINT16, false},
    {LOC, ">i2", UF_INT16, true},      {LOC, "=c16", UF_COMPLEX128, false},
    /* '|' is for one-byte types, but read gracefully as native order. */
    {LOC, "|f8", UF_FLOAT64, false},   {LOC, "|i4", UF_INT32, false},
    {LOC, "<f08", UF_FLOAT64, false},
};

static void test_from_typestr_good(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCASES(good_typestrs); i++) {
        const typestr_case *c = &good_typestrs[i];
        uf_error err;
        uf_dtype got = UF_NTYPES;
        bool swapped = !c->swapped;
        if (uf_dtype_from_typestr(c->typestr, &got, &swapped, &err) != 0)
            uf_fail_at(c->file, c->line, "'%s' refused: %s", c->typestr,
                       err.message);
        if (got != c->want || swapped != c->swapped)
            uf_fail_at(c->file, c->line, "'%s' gave %s swapped=%d",
                       c->typestr, uf_dtype_name(got), swapped);
    }
}

static const bad_name_case bad_typestrs[] = {
    {LOC, "f8", "invalid typestring 'f8'"},
    {LOC, "<d", "invalid typestring '<d'"},
    {LOC, "?", "invalid typestring '?'"},
    {LOC, "float64", "invalid typestring 'float64'"},
    {LOC, "", "invalid typestring ''"},
    {LOC, "<", "invalid typestring '<'"},
    {LOC, "<x4", "invalid typestring '<x4'"},
    {LOC, "<i3", "invalid typestring '<i3'"},
    {LOC, "<b2", "invalid typestring '<b2'"},
    {LOC, "<f8 ", "invalid typestring '<f8 '"},
    {LOC, "<<f8", "invalid typestring '<<f8'"},
    {LOC, "|O", "'|O' names a type not supported"},
    {LOC, "<U4", "'<U4' names a type not supported"},
    {LOC, "|V16", "'|V16' names a type not supported"},
    {LOC, "<f2", "'<f2' names a type not supported"},
    {LOC, "<f16", "'<f16' names a type not supported"},
    {LOC, "<c32", "'<c32' names a type not supported"},
};

static void test_from_typestr_bad(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCASES(bad_typestrs); i++) {
        const bad_name_case *c = &bad_typestrs[i];
        uf_error err;
        uf_dtype got = UF_INT16;
        bool swapped = true;
        int rc = uf_dtype_from_typestr(c->name, &got, &swapped, &err);
        if (rc != UF_ERR_TYPE || err.code != UF_ERR_TYPE)
            uf_fail_at(c->file, c->line, "'%s': rc %d (%s), want UF_ERR_TYPE",
                       c->name, rc, uf_err_name(rc));
        if (strstr(err.message, c->in_message) == NULL)
            uf_fail_at(c->file, c->line, "message \"%s\" lacks \"%s\"",
                       err.message, c->in_message);
        if (got != UF_INT16 || !swapped)
            uf_fail_at(c->file, c->line, "outputs written on failure");
    }
    uf_error err;
    uf_dtype t;
    bool sw;
    assert_int_equal(uf_dtype_from_typestr(NULL, &t, &sw, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf_dtype_from_typestr("<f8", &t, NULL, &err),
                     UF_ERR_INVALID);
}

/* ---- casting names --------------------------------------------------- */

static void test_casting_names(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf_casting casting;
        const char *name;
    } cases[] = {
        {LOC, UF_CASTING_NO, "no"},
        {LOC, UF_CASTING_EQUIV, "equiv"},
        {LOC, UF_CASTING_SAFE, "safe"},
        {LOC, UF_CASTING_SAME_KIND, "same_kind"},
        {LOC, UF_CASTING_UNSAFE, "unsafe"},
    };
    for (size_t i = 0; i < NCASES(cases); i++) {
        uf_error err;
        uf_casting got = (uf_casting)-1;
        if (strcmp(uf_casting_name(cases[i].casting), cases[i].name) != 0)
            uf_fail_at(cases[i].file, cases[i].line, "name %s",
                       uf_casting_name(cases[i].casting));
        if (uf_casting_from_name(cases[i].name, &got, &err) != 0 ||
            got != cases[i].casting)
            uf_fail_at(cases[i].file, cases[i].line, "from_name failed");
    }
    assert_string_equal(uf_casting_name((uf_casting)5), "invalid");
    assert_string_equal(uf_casting_name((uf_casting)-1), "invalid");

    static const char *const bad[] = {"", "Safe", "same-kind", "unsafe ",
                                      "no_"};
    for (size_t i = 0; i < NCASES(bad); i++) {
        uf_error err;
        uf_casting got = UF_CASTING_SAFE;
        assert_int_equal(uf_casting_from_name(bad[i], &got, &err),
                         UF_ERR_VALUE);
        assert_non_null(strstr(err.message, "'same_kind'"));
        assert_int_equal(got, UF_CASTING_SAFE);
    }
    uf_error err;
    uf_casting c;
    assert_int_equal(uf_casting_from_name(NULL, &c, &err), UF_ERR_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_properties),
        cmocka_unit_test(test_invalid_dtype),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_from_name_good),
        cmocka_unit_test(test_from_name_bad),
        cmocka_unit_test(test_from_name_null),
        cmocka_unit_test(test_from_typestr_good),
        cmocka_unit_test(test_from_typestr_bad),
        cmocka_unit_test(test_casting_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
