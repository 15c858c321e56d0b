/* uf_broadcast_shapes: hand-written cases and NumPy's answers for random
 * ones (tests/data/broadcast_shapes.txt, or the file named by argv[1]). */
#include "test_util.h"

#define MAXARGS 8

static const char *data_path = UF_TEST_DATA_DIR "/broadcast_shapes.txt";

typedef struct bcase {
    const char *file;
    int line;
    int n;
    int ndims[MAXARGS];
    int64_t shapes[MAXARGS][6];
    int want_ndim; /* -1: an error */
    int64_t want[6];
    int code;
    const char *message;
} bcase;

static void run_case(const bcase *c)
{
    const int64_t *shapes[MAXARGS];
    int64_t out[UF_MAXDIMS];
    int nd = -7;
    uf_error err;
    int rc;

    for (int j = 0; j < c->n; j++)
        shapes[j] = c->shapes[j];
    uf_error_clear(&err);
    rc = uf_broadcast_shapes(c->n, c->ndims, shapes, &nd, out, &err);
    if (c->want_ndim < 0) {
        if (rc != c->code || err.code != c->code)
            uf_fail_at(c->file, c->line, "returned %d (%s), want %s", rc,
                       err.message, uf_err_name(c->code));
        if (c->message != NULL && strcmp(err.message, c->message) != 0)
            uf_fail_at(c->file, c->line, "message\n  %s\nwant\n  %s",
                       err.message, c->message);
        return;
    }
    if (rc != 0)
        uf_fail_at(c->file, c->line, "failed: %s", err.message);
    if (nd != c->want_ndim)
        uf_fail_at(c->file, c->line, "ndim %d, want %d", nd, c->want_ndim);
    for (int i = 0; i < nd; i++)
        if (out[i] != c->want[i])
            uf_fail_at(c->file, c->line, "dim %d is %lld, want %lld", i,
                       (long long)out[i], (long long)c->want[i]);
}

#define MISMATCH "shape mismatch: objects cannot be broadcast to a single " \
                 "shape.  Mismatch is between "

static const bcase cases[] = {
    {LOC, 0, {0}, {{0}}, 0, {0}, 0, NULL},
    {LOC, 1, {0}, {{0}}, 0, {0}, 0, NULL},
    {LOC, 2, {2, 1}, {{2, 3}, {3}}, 2, {2, 3}, 0, NULL},
    {LOC, 2, {2, 2}, {{4, 1}, {1, 5}}, 2, {4, 5}, 0, NULL},
    {LOC, 3, {3, 0, 2}, {{2, 1, 4}, {0}, {7, 1}}, 3, {2, 7, 4}, 0, NULL},
    /* zero-length dimensions broadcast like any other length */
    {LOC, 2, {1, 1}, {{0}, {1}}, 1, {0}, 0, NULL},
    {LOC, 2, {2, 1}, {{1, 0}, {0}}, 2, {1, 0}, 0, NULL},
    {LOC, 2, {1, 1}, {{0}, {3}}, -1, {0}, UF_ERR_SHAPE,
     MISMATCH "arg 0 with shape (0,) and arg 1 with shape (3,)."},
    {LOC, 2, {2, 1}, {{2, 3}, {4}}, -1, {0}, UF_ERR_SHAPE,
     MISMATCH "arg 0 with shape (2, 3) and arg 1 with shape (4,)."},
    /* the message names the operand that set the dimension */
    {LOC, 3, {2, 2, 2}, {{1, 3}, {2, 1}, {4, 1}}, -1, {0}, UF_ERR_SHAPE,
     MISMATCH "arg 1 with shape (2, 1) and arg 2 with shape (4, 1)."},
    {LOC, 4, {2, 3, 2, 3}, {{2, 1}, {3, 1, 1}, {1, 4}, {3, 2, 5}}, -1, {0},
     UF_ERR_SHAPE,
     MISMATCH "arg 2 with shape (1, 4) and arg 3 with shape (3, 2, 5)."},
    {LOC, 2, {0, 1}, {{0}, {-1}}, -1, {0}, UF_ERR_VALUE, NULL},
    {LOC, 2, {1, -1}, {{2}, {0}}, -1, {0}, UF_ERR_INVALID, NULL},
};

static void test_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);
}

/* UF_MAXDIMS dimensions are fine; one more is an error. */
static void test_maxdims(void **state)
{
    (void)state;
    int64_t a[UF_MAXDIMS + 1], b[1] = {3}, out[UF_MAXDIMS];
    const int64_t *shapes[2] = {a, b};
    int ndims[2] = {UF_MAXDIMS, 1}, nd;
    uf_error err;

    for (int i = 0; i <= UF_MAXDIMS; i++)
        a[i] = 1;
    a[0] = 2;
    uf_assert_ok(uf_broadcast_shapes(2, ndims, shapes, &nd, out, &err) == 0,
                 &err);
    assert_int_equal(nd, UF_MAXDIMS);
    assert_int_equal(out[0], 2);
    assert_int_equal(out[UF_MAXDIMS - 1], 3);

    ndims[0] = UF_MAXDIMS + 1;
    assert_int_equal(uf_broadcast_shapes(2, ndims, shapes, &nd, out, &err),
                     UF_ERR_SHAPE);
    assert_int_equal(err.code, UF_ERR_SHAPE);

    /* a long message is cut, never overflowed */
    ndims[0] = UF_MAXDIMS;
    for (int i = 0; i < UF_MAXDIMS; i++)
        a[i] = INT64_C(1000000000000);
    b[0] = 5;
    assert_int_equal(uf_broadcast_shapes(2, ndims, shapes, &nd, out, &err),
                     UF_ERR_SHAPE);
    assert_true(strlen(err.message) < sizeof err.message);
    assert_non_null(strstr(err.message, "arg 0 with shape (1000000000000, "));
}

static void test_bad_arguments(void **state)
{
    (void)state;
    int64_t s[1] = {2}, out[UF_MAXDIMS];
    const int64_t *shapes[1] = {s};
    int ndims[1] = {1}, nd;
    uf_error err;

    assert_int_equal(uf_broadcast_shapes(-1, ndims, shapes, &nd, out, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf_broadcast_shapes(1, NULL, shapes, &nd, out, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf_broadcast_shapes(1, ndims, NULL, &nd, out, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf_broadcast_shapes(1, ndims, shapes, NULL, out, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf_broadcast_shapes(1, ndims, shapes, &nd, NULL, &err),
                     UF_ERR_INVALID);
    shapes[0] = NULL;
    assert_int_equal(uf_broadcast_shapes(1, ndims, shapes, &nd, out, &err),
                     UF_ERR_INVALID);
    /* a 0-d shape may be NULL */
    ndims[0] = 0;
    assert_int_equal(uf_broadcast_shapes(1, ndims, shapes, &nd, out, NULL),
                     0);
    assert_int_equal(nd, 0);
}

/* Parses "2,3" into dims; an empty string is a 0-d shape. */
static int parse_dims(const char *s, int64_t *dims)
{
    int n = 0;

    while (*s != '\0') {
        char *end;
        assert_true(n < 6);
        dims[n++] = strtoll(s, &end, 10);
        assert_true(end != s);
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

static void test_numpy_cases(void **state)
{
    (void)state;
    FILE *f = fopen(data_path, "r");
    char line[2048];
    int lineno = 0, ncases = 0;

    if (f == NULL)
        fail_msg("cannot open %s", data_path);
    while (fgets(line, sizeof line, f) != NULL) {
        bcase c = {.file = data_path, .line = ++lineno};
        char *tok, *save;

        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        tok = strtok_r(line, "|", &save);
        c.n = atoi(tok);
        assert_true(c.n >= 0 && c.n <= MAXARGS);
        /* strtok_r skips empty fields, which are 0-d shapes here */
        tok = save;
        for (int j = 0; j < c.n; j++) {
            char *bar = strchr(tok, '|');
            assert_non_null(bar);
            *bar = '\0';
            c.ndims[j] = parse_dims(tok, c.shapes[j]);
            tok = bar + 1;
        }
        if (tok[0] == '=') {
            c.want_ndim = parse_dims(tok + 1, c.want);
        } else {
            assert_true(tok[0] == '!');
            c.want_ndim = -1;
            c.code = UF_ERR_SHAPE;
            c.message = tok + 1;
        }
        run_case(&c);
        ncases++;
    }
    fclose(f);
    if (ncases < 100)
        fail_msg("%s: only %d cases", data_path, ncases);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_maxdims),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_numpy_cases),
    };
    if (argc > 1)
        data_path = argv[1];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
