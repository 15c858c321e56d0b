/* The error object and the allocation layer. */
#include "test_util.h"

#include "common/alloc.h"
#include "common/error_internal.h"

static const struct {
    int code;
    const char *name;
    const char *msg;
} codes[] = {
    {UF_ERR_OK, "UF_ERR_OK", "success"},
    {UF_ERR_NOMEM, "UF_ERR_NOMEM", "out of memory"},
    {UF_ERR_SHAPE, "UF_ERR_SHAPE", "shape mismatch"},
    {UF_ERR_FORMAT, "UF_ERR_FORMAT", "malformed or unsupported file"},
    {UF_ERR_INTERNAL, "UF_ERR_INTERNAL", "internal error"},
    {UF_ERR_LIMIT, "UF_ERR_LIMIT", "a documented limit was exceeded"},
    {12345, "UF_ERR_UNKNOWN", "unknown error"},
};

static void test_names_and_messages(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        assert_string_equal(uf_err_name(codes[i].code), codes[i].name);
        assert_string_equal(uf_strerror(codes[i].code), codes[i].msg);
    }
}

static void test_set_and_clear(void **state)
{
    (void)state;
    uf_error err;
    uf_error_clear(&err);
    assert_int_equal(err.code, UF_ERR_OK);
    assert_int_equal(uf__error_set(&err, UF_ERR_VALUE, "bad %d", 7),
                     UF_ERR_VALUE);
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_string_equal(err.message, "bad 7");
    assert_int_equal(err.line, 0);

    uf__error_set_at(&err, UF_ERR_SYNTAX, "k.py", 3, 14, "unexpected '%s'",
                     ")");
    assert_string_equal(err.file, "k.py");
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 14);
    assert_string_equal(err.message, "unexpected ')'");

    /* A later error without a position clears the old one. */
    uf__error_nomem(&err);
    assert_int_equal(err.code, UF_ERR_NOMEM);
    assert_string_equal(err.file, "");
    assert_int_equal(err.line, 0);

    /* NULL error objects are allowed everywhere. */
    assert_int_equal(uf__error_set(NULL, UF_ERR_IO, "x"), UF_ERR_IO);
    uf_error_clear(NULL);
}

static void test_long_message_truncated(void **state)
{
    (void)state;
    char big[4000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    uf_error err;
    uf__error_set(&err, UF_ERR_VALUE, "%s", big);
    assert_int_equal(strlen(err.message), sizeof err.message - 1);
}

static void test_alloc_overflow(void **state)
{
    (void)state;
    uf_error err;
    uf_error_clear(&err);
    assert_null(uf__malloc(SIZE_MAX / 2, 3, &err));
    assert_int_equal(err.code, UF_ERR_OVERFLOW);
    assert_null(uf__calloc(SIZE_MAX, SIZE_MAX, &err));
    assert_int_equal(err.code, UF_ERR_OVERFLOW);
    assert_null(uf__malloc_aligned(SIZE_MAX - 3, &err));
    assert_int_equal(err.code, UF_ERR_OVERFLOW);

    void *p = uf__malloc(4, 4, &err);
    assert_non_null(p);
    assert_null(uf__realloc(p, SIZE_MAX, 2, &err));
    assert_int_equal(err.code, UF_ERR_OVERFLOW);
    uf__free(p); /* still ours after a failed realloc */
}

static void test_alloc_fail_at(void **state)
{
    (void)state;
    uf_error err;
    long live0 = uf__alloc_live();
    uf__alloc_fail_at(2);
    void *a = uf__malloc(1, 8, &err);
    assert_non_null(a);
    assert_false(uf__alloc_failed());
    void *b = uf__malloc(1, 8, &err);
    assert_null(b);
    assert_int_equal(err.code, UF_ERR_NOMEM);
    assert_true(uf__alloc_failed());
    void *c = uf__malloc_aligned(100, &err); /* only one failure */
    assert_non_null(c);
    assert_int_equal((uintptr_t)c % UF__DATA_ALIGN, 0);
    assert_int_equal(uf__alloc_live(), live0 + 2);
    uf__free(a);
    uf__free(c);
    uf__free(NULL);
    assert_int_equal(uf__alloc_live(), live0);
    uf__alloc_fail_at(0);

    char *s = uf__strdup("hello", &err);
    assert_string_equal(s, "hello");
    uf__free(s);
    void *z = uf__malloc(0, 8, &err); /* size 0 is a valid pointer */
    assert_non_null(z);
    uf__free(z);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_messages),
        cmocka_unit_test(test_set_and_clear),
        cmocka_unit_test(test_long_message_truncated),
        cmocka_unit_test(test_alloc_overflow),
        cmocka_unit_test(test_alloc_fail_at),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
