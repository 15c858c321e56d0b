/* uf_array_repr / uf_array_str against NumPy 2.
 *
 * The corpus (tests/data/print_cases.txt, written by tests/gen/
 * print_cases.py) holds arrays of every dtype and layout with NumPy's
 * repr() and str(); each is rebuilt with uf_array_wrap from its dtype,
 * shape, strides, offset and raw bytes, once aligned and once at a
 * misaligned address, and compared character by character. A path given
 * as argv[1] replaces the committed corpus (CTest passes a fresh one). */
#include "test_util.h"

#include "common/alloc.h"

static const char *corpus_path = UF_TEST_DATA_DIR "/print_cases.txt";

/* ---- the corpus -------------------------------------------------------- */

typedef struct pcase {
    int line; /* of its "case" line, for failure messages */
    char name[96];
    uf_dtype dtype;
    int ndim;
    int64_t shape[UF_MAXDIMS], strides[UF_MAXDIMS];
    int64_t offset;
    unsigned char *data;
    size_t nbytes;
    char *repr, *str;
} pcase;

typedef struct corpus {
    pcase *cases;
    size_t n;
} corpus;

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        print_error("cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    if (text == NULL || fread(text, 1, (size_t)len, f) != (size_t)len) {
        free(text);
        fclose(f);
        return NULL;
    }
    text[len] = '\0';
    fclose(f);
    return text;
}

/* Undoes the generator's escaping of '\\' and newlines. */
static char *unescape(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    for (; *s; s++) {
        if (*s == '\\' && s[1] == 'n') {
            *o++ = '\n';
            s++;
        } else if (*s == '\\' && s[1] == '\\') {
            *o++ = '\\';
            s++;
        } else {
            *o++ = *s;
        }
    }
    *o = '\0';
    return out;
}

static int parse_ints(const char *s, int64_t *out)
{
    int n = 0;
    char *end;
    while (n < UF_MAXDIMS) {
        long long v = strtoll(s, &end, 10);
        if (end == s)
            break;
        out[n++] = v;
        s = end;
    }
    return n;
}

static unsigned char *parse_hex(const char *s, size_t *nbytes)
{
    size_t len = strlen(s) / 2;
    unsigned char *out = malloc(len ? len : 1);
    for (size_t i = 0; i < len; i++) {
        unsigned v;
        sscanf(s + 2 * i, "%2x", &v);
        out[i] = (unsigned char)v;
    }
    *nbytes = len;
    return out;
}

static void corpus_free(corpus *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->cases[i].data);
        free(c->cases[i].repr);
        free(c->cases[i].str);
    }
    free(c->cases);
}

/* Fails the test on a malformed file, naming the line. */
static void corpus_load(const char *path, corpus *c)
{
    char *text = read_file(path);
    if (text == NULL)
        fail_msg("%s: cannot read the corpus", path);
    size_t cap = 0;
    c->cases = NULL;
    c->n = 0;
    pcase *cur = NULL;
    int lineno = 0;
    char *next = text;
    while (*next != '\0') {
        char *line = next, *nl = strchr(line, '\n');
        if (nl != NULL) {
            *nl = '\0';
            next = nl + 1;
        } else {
            next = line + strlen(line);
        }
        lineno++;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *arg = strchr(line, ' ');
        arg = arg ? arg + 1 : line + strlen(line);
        if (strncmp(line, "case ", 5) == 0) {
            if (c->n == cap) {
                cap = cap ? 2 * cap : 256;
                c->cases = realloc(c->cases, cap * sizeof *c->cases);
            }
            cur = &c->cases[c->n++];
            memset(cur, 0, sizeof *cur);
            cur->line = lineno;
            snprintf(cur->name, sizeof cur->name, "%s", arg);
        } else if (cur == NULL) {
            uf_fail_at(path, lineno, "text before the first case");
        } else if (strncmp(line, "dtype ", 6) == 0) {
            uf_error err;
            if (uf_dtype_from_name(arg, &cur->dtype, &err) < 0)
                uf_fail_at(path, lineno, "bad dtype %s", arg);
        } else if (strncmp(line, "shape", 5) == 0) {
            cur->ndim = parse_ints(line + 5, cur->shape);
        } else if (strncmp(line, "strides", 7) == 0) {
            if (parse_ints(line + 7, cur->strides) != cur->ndim)
                uf_fail_at(path, lineno, "strides do not match the shape");
        } else if (strncmp(line, "offset ", 7) == 0) {
            cur->offset = strtoll(arg, NULL, 10);
        } else if (strncmp(line, "data", 4) == 0) {
            cur->data = parse_hex(line[4] ? line + 5 : "", &cur->nbytes);
        } else if (strncmp(line, "repr ", 5) == 0) {
            cur->repr = unescape(arg);
        } else if (strncmp(line, "str ", 4) == 0) {
            cur->str = unescape(arg);
        } else if (strcmp(line, "end") == 0) {
            if (cur->data == NULL || cur->repr == NULL || cur->str == NULL)
                uf_fail_at(path, cur->line, "case %s is incomplete",
                           cur->name);
            cur = NULL;
        } else {
            uf_fail_at(path, lineno, "unknown line: %.40s", line);
        }
    }
    free(text);
    if (c->n == 0)
        fail_msg("%s: no cases", path);
}

/* ---- comparing --------------------------------------------------------- */

/* Reports where two strings part, with both in full; false if they do. */
static bool same_text(const char *file, int line, const char *what,
                      const char *name, const char *want, const char *got)
{
    if (got != NULL && strcmp(want, got) == 0)
        return true;
    size_t i = 0;
    while (got && want[i] && want[i] == got[i])
        i++;
    print_error("%s:%d: case %s: %s differs at character %zu\n"
                "--- NumPy:\n%s\n--- ufjit:\n%s\n",
                file, line, name, what, i, want, got ? got : "(NULL)");
    return false;
}

/* Rebuilds a case in `buf` (offset bytes in) and checks repr and str. */
static bool check_case(const pcase *pc, unsigned char *buf, size_t misalign)
{
    memcpy(buf + misalign, pc->data, pc->nbytes);
    uf_error err;
    uf_array *a = uf_array_wrap(pc->dtype, pc->ndim, pc->shape, pc->strides,
                                buf + misalign + pc->offset, false, NULL,
                                NULL, &err);
    if (a == NULL) {
        print_error("%s:%d: case %s: uf_array_wrap failed: %s\n",
                    corpus_path, pc->line, pc->name, err.message);
        return false;
    }
    char tag[64];
    char *r = uf_array_repr(a, &err);
    snprintf(tag, sizeof tag, "repr%s", misalign ? " (misaligned)" : "");
    bool ok = same_text(corpus_path, pc->line, tag, pc->name, pc->repr, r);
    uf_free(r);
    char *s = uf_array_str(a, &err);
    snprintf(tag, sizeof tag, "str%s", misalign ? " (misaligned)" : "");
    ok = same_text(corpus_path, pc->line, tag, pc->name, pc->str, s) && ok;
    uf_free(s);
    uf_array_release(a);
    return ok;
}

static void test_corpus(void **state)
{
    (void)state;
    corpus c;
    corpus_load(corpus_path, &c);
    long live = uf__alloc_live();
    size_t failures = 0;
    for (size_t i = 0; i < c.n; i++) {
        const pcase *pc = &c.cases[i];
        /* 16-byte aligned, then one byte off */
        unsigned char *buf = malloc(pc->nbytes + 17);
        bool ok = check_case(pc, buf, 0);
        if (ok)
            ok = check_case(pc, buf, 1);
        free(buf);
        if (!ok && ++failures >= 20) {
            print_error("... stopping after 20 failing cases\n");
            break;
        }
        if (uf__alloc_live() != live) {
            print_error("%s:%d: case %s leaks %ld allocations\n", corpus_path,
                        pc->line, pc->name, uf__alloc_live() - live);
            failures++;
            live = uf__alloc_live();
        }
    }
    print_message("%zu cases from %s\n", c.n, corpus_path);
    corpus_free(&c);
    if (failures > 0)
        fail_msg("%zu cases differ from NumPy", failures);
}

/* ---- views built by hand (strides from NumPy, expected text too) ------ */

typedef struct view_row {
    const char *file;
    int line;
    uf_dtype dtype;
    int ndim;
    int64_t shape[3], strides[3];
    int64_t first; /* byte offset of element [0, ...] in the data */
    const char *repr, *str;
} view_row;

static const double d6[6] = {0, 1, 2, 3, 4, 5};
static const double pair[2] = {1.5, -2};
static const int32_t i10[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
static const float c3[6] = {1, 2, -0.0f, -3.5f, 4, 0}; /* -3.5j is -0-3.5j */

static void test_views(void **state)
{
    (void)state;
    const struct {
        view_row r;
        const void *data;
    } rows[] = {
        /* np.arange(6.)[::-1].reshape(2, 3) */
        {{LOC, UF_FLOAT64, 2, {2, 3}, {-24, -8}, 40,
          "array([[5., 4., 3.],\n       [2., 1., 0.]])",
          "[[5. 4. 3.]\n [2. 1. 0.]]"}, d6},
        /* np.broadcast_to([1.5, -2], (3, 2)): stride 0 */
        {{LOC, UF_FLOAT64, 2, {3, 2}, {0, 8}, 0,
          "array([[ 1.5, -2. ],\n       [ 1.5, -2. ],\n       [ 1.5, -2. ]])",
          "[[ 1.5 -2. ]\n [ 1.5 -2. ]\n [ 1.5 -2. ]]"}, pair},
        /* np.arange(10, dtype=np.int32)[1::3] */
        {{LOC, UF_INT32, 1, {3}, {12}, 4, "array([1, 4, 7], dtype=int32)",
          "[1 4 7]"}, i10},
        /* np.arange(10, dtype=np.int32)[::-4] */
        {{LOC, UF_INT32, 1, {3}, {-16}, 36, "array([9, 5, 1], dtype=int32)",
          "[9 5 1]"}, i10},
        /* np.array([1+2j, -3.5j, 4], np.complex64)[::-1] */
        {{LOC, UF_COMPLEX64, 1, {3}, {-8}, 16,
          "array([ 4.+0.j , -0.-3.5j,  1.+2.j ], dtype=complex64)",
          "[ 4.+0.j  -0.-3.5j  1.+2.j ]"}, c3},
        /* np.arange(6.).reshape(2, 3).T */
        {{LOC, UF_FLOAT64, 2, {3, 2}, {8, 24}, 0,
          "array([[0., 3.],\n       [1., 4.],\n       [2., 5.]])",
          "[[0. 3.]\n [1. 4.]\n [2. 5.]]"}, d6},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const view_row *r = &rows[i].r;
        uf_error err;
        uf_array *a = uf_array_wrap(r->dtype, r->ndim, r->shape, r->strides,
                                    (char *)rows[i].data + r->first, false,
                                    NULL, NULL, &err);
        if (a == NULL)
            uf_fail_at(r->file, r->line, "wrap failed: %s", err.message);
        char *rp = uf_array_repr(a, &err), *st = uf_array_str(a, &err);
        /* both compared (and reported) before either fails the test */
        bool ok_repr = same_text(r->file, r->line, "repr", "view", r->repr,
                                 rp);
        bool ok_str = same_text(r->file, r->line, "str", "view", r->str, st);
        bool ok = ok_repr && ok_str;
        uf_free(rp);
        uf_free(st);
        uf_array_release(a);
        if (!ok)
            uf_fail_at(r->file, r->line, "view printed wrongly");
    }
}

/* ---- errors ------------------------------------------------------------ */

static void test_bad_input(void **state)
{
    (void)state;
    uf_error err;
    uf_error_clear(&err);
    assert_null(uf_array_repr(NULL, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    uf_error_clear(&err);
    assert_null(uf_array_str(NULL, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    /* a NULL error object is allowed */
    assert_null(uf_array_repr(NULL, NULL));
}

/* Allocation N fails for N = 1, 2, ...: each failing call returns NULL
 * with UF_ERR_NOMEM and leaves nothing allocated. */
static void test_alloc_fail(void **state)
{
    (void)state;
    const char *names[] = {"sum_2d_f", "sum_4d", "c128_wrap", "f64_0d_1",
                           "c64_0d_0", "empty_0x3_float32", "sum_1001",
                           "f64_3d"};
    corpus c;
    corpus_load(corpus_path, &c);
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const pcase *pc = NULL;
        for (size_t i = 0; i < c.n; i++)
            if (strcmp(c.cases[i].name, names[k]) == 0)
                pc = &c.cases[i];
        if (pc == NULL)
            fail_msg("case %s missing from %s", names[k], corpus_path);
        uf_error err;
        uf_array *a = uf_array_wrap(pc->dtype, pc->ndim, pc->shape,
                                    pc->strides, pc->data + pc->offset,
                                    false, NULL, NULL, &err);
        uf_assert_ok(a != NULL, &err);
        for (int which = 0; which < 2; which++) {
            const char *want = which ? pc->str : pc->repr;
            for (long n = 1;; n++) {
                long live = uf__alloc_live();
                uf_error_clear(&err);
                uf__alloc_fail_at(n);
                char *s = which ? uf_array_str(a, &err)
                                : uf_array_repr(a, &err);
                bool failed = uf__alloc_failed();
                uf__alloc_fail_at(0);
                if (!failed) {
                    if (s == NULL || strcmp(s, want) != 0)
                        fail_msg("%s: wrong text after %ld allocations",
                                 pc->name, n - 1);
                    uf_free(s);
                    break;
                }
                if (s != NULL || err.code != UF_ERR_NOMEM)
                    fail_msg("%s: allocation %ld failed but the call gave "
                             "%s (%s)", pc->name, n, s ? "a string" : "NULL",
                             uf_err_name(err.code));
                if (uf__alloc_live() != live)
                    fail_msg("%s: leak when allocation %ld fails", pc->name,
                             n);
            }
        }
        uf_array_release(a);
    }
    corpus_free(&c);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        corpus_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_views),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_alloc_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
