/* The .npy header: parsing (table, limits, prefixes), formatting as
 * np.save does, and loading: data sizes, byte orders, file errors. */
#include "npy_test_util.h"

/* ---- the header parser ------------------------------------------------ */

static void test_parse_header_table(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int major;
        const char *text;
        uf_dtype dtype;
        bool swapped, fortran;
        int ndim;
        int64_t shape[3];
    } good[] = {
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }",
         UF_FLOAT64, false, false, 2, {3, 4}},
        {LOC, 3, "  {\n'fortran_order' : False ,\n 'shape' : ( 5 , ) ,"
                 "'descr' : \"|b1\" , } \n", UF_BOOL, false, false, 1,
         {5}},
        {LOC, 2, "{'descr': '<i2', 'fortran_order': False, 'shape': (2L, 3L)}",
         UF_INT16, false, false, 2, {2, 3}},
        {LOC, 1, "{'descr': 'uint32', 'fortran_order': False, "
                 "'shape': (0x10, 0b1_1, 0o7)}", UF_UINT32, false,
         false, 3, {16, 3, 7}},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, "
                 "'shape': (9223372036854775807,)}", UF_FLOAT64, false,
         false, 1, {INT64_MAX}},
        {LOC, 1, "{'shape':(),'descr':'>c16','fortran_order':True}",
         UF_COMPLEX128, true, true, 0, {0}},
    };
    static const struct {
        const char *file;
        int line;
        int major;
        const char *text;
        const char *msg;
    } bad[] = {
        {LOC, 3, "{'descr': '<i2', 'fortran_order': False, 'shape': (2L,)}",
         "at offset 52: the Python 2 'L' suffix is only allowed"},
        {LOC, 1, "{'descr': '|O', 'fortran_order': False, 'shape': (2,)}",
         "dtype '|O' cannot be loaded: object arrays"},
        {LOC, 1, "{'descr': [('a', '<f8')], 'fortran_order': False, "
                 "'shape': (2,)}", "structured dtypes"},
        {LOC, 1, "{'descr': ('<f8', (2,)), 'fortran_order': False, "
                 "'shape': (2,)}", "subarray dtypes"},
        {LOC, 1, "{'descr': '<U5', 'fortran_order': False, 'shape': (2,)}",
         "unicode"},
        {LOC, 1, "{'descr': '|S5', 'fortran_order': False, 'shape': (2,)}",
         "byte string"},
        {LOC, 1, "{'descr': '<M8[us]', 'fortran_order': False, "
                 "'shape': (2,)}", "datetime64"},
        {LOC, 1, "{'descr': '<m8', 'fortran_order': False, 'shape': (2,)}",
         "timedelta64"},
        {LOC, 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2,)}",
         "float16"},
        {LOC, 1, "{'descr': 'float16', 'fortran_order': False, "
                 "'shape': (2,)}", "float16"},
        {LOC, 1, "{'descr': '<x9', 'fortran_order': False, 'shape': (2,)}",
         "unknown dtype '<x9'"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (-3,)}",
         "negative dimension -3"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, "
                 "'shape': (9223372036854775808,)}", "does not fit"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, "
                 "'shape': (99999999999999999999999,)}", "does not fit"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (5)}",
         "not an int"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': [5]}",
         "shape must be a tuple"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2.5,)}",
         "shape must be a tuple"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': 1, 'shape': (2,)}",
         "fortran_order must be True or False"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': Falsey, 'shape': (2,)}",
         "fortran_order must be True or False"},
        {LOC, 1, "{'descr': '<f8', 'shape': (2,)}",
         "lacks the key 'fortran_order'"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), "
                 "'extra': 1}", "unexpected key 'extra'"},
        {LOC, 1, "[('descr', '<f8')]", "not a dict"},
        {LOC, 1, "", "not a dict"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,)",
         "not terminated"},
        {LOC, 1, "{'descr': '<f8, 'fortran_order': False, 'shape': (2,)}",
         "expected ',' or '}'"},
        {LOC, 1, "{'descr': '<f8\n', 'fortran_order': False}",
         "unterminated string"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,)} x",
         "unexpected text after the dict"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,)}\\\n",
         "unexpected text after the dict"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (01,)}",
         "leading zeros"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1__0,)}",
         "malformed integer"},
        {LOC, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (0x,)}",
         "malformed integer"},
        {LOC, 3, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,)}"
                 "#\xc3\x28", "not valid UTF-8"},
        {LOC, 1, "{'descr': b'<f8', 'fortran_order': False, 'shape': (2,)}",
         "expected a string"},
        {LOC, 1, "{'descr': '<f8\\x00', 'fortran_order': False, "
                 "'shape': (2,)}", "unknown dtype"},
    };
    for (size_t r = 0; r < sizeof good / sizeof good[0]; r++) {
        uf__npy_header h;
        uf_error err;
        int rc = uf__npy_parse_header(good[r].text, strlen(good[r].text),
                                      good[r].major, "'t.npy'", &h, &err);
        if (rc)
            uf_fail_at(good[r].file, good[r].line, "%s", err.message);
        if (h.dtype != good[r].dtype || h.swapped != good[r].swapped ||
            h.fortran_order != good[r].fortran || h.ndim != good[r].ndim ||
            memcmp(h.shape, good[r].shape,
                   sizeof h.shape[0] * (size_t)h.ndim))
            uf_fail_at(good[r].file, good[r].line, "parsed wrongly");
    }
    for (size_t r = 0; r < sizeof bad / sizeof bad[0]; r++) {
        uf__npy_header h;
        uf_error err;
        int rc = uf__npy_parse_header(bad[r].text, strlen(bad[r].text),
                                      bad[r].major, "'t.npy'", &h, &err);
        if (rc == 0)
            uf_fail_at(bad[r].file, bad[r].line, "parsed");
        if (rc != UF_ERR_FORMAT || err.code != UF_ERR_FORMAT ||
            !strstr(err.message, bad[r].msg) ||
            strncmp(err.message, "'t.npy': ", 9))
            uf_fail_at(bad[r].file, bad[r].line, "got %s: %s",
                       uf_err_name(err.code), err.message);
    }
}

static void test_parse_limits(void **state)
{
    (void)state;
    char text[2048];
    uf__npy_header h;
    uf_error err;
    for (int nd = 63; nd <= 65; nd++) {
        int n = snprintf(text, sizeof text,
                         "{'descr': '<f8', 'fortran_order': False, "
                         "'shape': (");
        for (int k = 0; k < nd; k++)
            n += snprintf(text + n, sizeof text - (size_t)n, "1, ");
        n += snprintf(text + n, sizeof text - (size_t)n, ")}");
        int rc = uf__npy_parse_header(text, (size_t)n, 1, "x", &h, &err);
        if (nd <= UF_MAXDIMS) {
            uf_assert_ok(rc == 0, &err);
            assert_int_equal(h.ndim, nd);
        } else {
            assert_int_equal(rc, UF_ERR_FORMAT);
            assert_non_null(strstr(err.message, "more than 64 dimensions"));
        }
    }
    /* a NUL inside the header */
    static const char nul[] = "{'descr': '<f8', 'fortran_order': False, "
                              "'shape': (2,)}\0";
    assert_int_equal(uf__npy_parse_header(nul, sizeof nul - 1, 1, "x", &h,
                                          &err), UF_ERR_FORMAT);
    assert_non_null(strstr(err.message, "NUL"));
}

static void test_prefix(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *bytes;
        size_t len;
        int major;
        size_t prefix_len, header_len;
    } good[] = {
        {LOC, "\x93NUMPY\x01\x00\x76\x00", 10, 1, 10, 118},
        {LOC, "\x93NUMPY\x02\x00\x74\x00\x01\x00", 12, 2, 12, 65652},
        {LOC, "\x93NUMPY\x03\x00\x74\x00\x00\x00", 12, 3, 12, 116},
    };
    static const struct {
        const char *file;
        int line;
        const char *bytes;
        size_t len;
        const char *msg;
    } bad[] = {
        {LOC, "", 0, "file is empty"},
        {LOC, "\x93NUM", 4, "truncated inside the magic string"},
        {LOC, "\x93NUMPZ\x01\x00\x76\x00", 10, "not a .npy file"},
        {LOC, "PK\x03\x04", 4, "not a .npy file"},
        {LOC, "\x93NUMPY\x01", 7, "truncated in the format version"},
        {LOC, "\x93NUMPY\x01\x01\x76\x00", 10, "version 1.1"},
        {LOC, "\x93NUMPY\x04\x00\x76\x00", 10, "version 4.0"},
        {LOC, "\x93NUMPY\x00\x00\x76\x00", 10, "version 0.0"},
        {LOC, "\x93NUMPY\x01\x00\x76", 9, "truncated in the header length"},
        {LOC, "\x93NUMPY\x02\x00\x76\x00\x00", 11,
         "truncated in the header length"},
        {LOC, "\x93NUMPY\x02\x00\x00\x00\x00\x01", 12, "larger than"},
    };
    int major;
    size_t plen, hlen;
    uf_error err;
    for (size_t r = 0; r < sizeof good / sizeof good[0]; r++) {
        int rc = uf__npy_parse_prefix((const unsigned char *)good[r].bytes,
                                      good[r].len, "'p'", &major, &plen,
                                      &hlen, &err);
        if (rc || major != good[r].major || plen != good[r].prefix_len ||
            hlen != good[r].header_len)
            uf_fail_at(good[r].file, good[r].line, "rc %d major %d %zu %zu",
                       rc, major, plen, hlen);
    }
    for (size_t r = 0; r < sizeof bad / sizeof bad[0]; r++) {
        int rc = uf__npy_parse_prefix((const unsigned char *)bad[r].bytes,
                                      bad[r].len, "'p'", &major, &plen,
                                      &hlen, &err);
        if (rc != UF_ERR_FORMAT || !strstr(err.message, bad[r].msg) ||
            strncmp(err.message, "'p': ", 5))
            uf_fail_at(bad[r].file, bad[r].line, "got %d: %s", rc,
                       rc ? err.message : "");
    }
}

/* What np.save writes, byte for byte (NumPy 2.4's
 * numpy.lib._format_impl._write_array_header for the same dict). Only the
 * dict is listed; the padding to 64 follows from it. */
static void test_format_header(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf_dtype dtype;
        bool fortran;
        int ndim;
        int64_t shape[3];
        const char *dict;
        size_t total;
    } rows[] = {
        {LOC, UF_FLOAT64, false, 2, {3, 4},
         "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }", 128},
        {LOC, UF_BOOL, false, 0, {0},
         "{'descr': '|b1', 'fortran_order': False, 'shape': (), }", 128},
        {LOC, UF_COMPLEX64, true, 3, {2, 3, 12345678901},
         "{'descr': '<c8', 'fortran_order': True, 'shape': (2, 3, "
         "12345678901), }", 128},
        {LOC, UF_UINT8, false, 1, {5},
         "{'descr': '|u1', 'fortran_order': False, 'shape': (5,), }", 128},
        {LOC, UF_INT64, false, 1, {0},
         "{'descr': '<i8', 'fortran_order': False, 'shape': (0,), }", 128},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_error err;
        size_t len;
        char *h = uf__npy_format_header(rows[r].dtype, rows[r].fortran,
                                        rows[r].ndim, rows[r].shape, &len,
                                        &err);
        uf_assert_ok(h != NULL, &err);
        size_t dl = strlen(rows[r].dict);
        if (len != rows[r].total || memcmp(h, "\x93NUMPY\x01\x00", 8) ||
            (size_t)((unsigned char)h[8] | (unsigned char)h[9] << 8) !=
                len - 10 ||
            memcmp(h + 10, rows[r].dict, dl) || h[len - 1] != '\n')
            uf_fail_at(rows[r].file, rows[r].line, "header %.*s",
                       (int)len - 10, h + 10);
        for (size_t i = 10 + dl; i < len - 1; i++)
            if (h[i] != ' ')
                uf_fail_at(rows[r].file, rows[r].line, "padding");
        uf__free(h);
    }
}

/* Version 2.0 only when the header length does not fit 16 bits: a dict of
 * 65524 bytes still fits (1 space of padding), 65525 does not. */
static void test_wrap_header_versions(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        size_t dict_len;
        int version;
        size_t total;
    } rows[] = {
        {LOC, 65524, 1, 65536},
        {LOC, 65525, 2, 65600},
        {LOC, 100000, 2, 100032},
        {LOC, 0, 1, 64},
        {LOC, 52, 1, 64},
        {LOC, 53, 1, 128},
    };
    char *dict = malloc(100000);
    memset(dict, ' ', 100000);
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_error err;
        size_t len;
        char *h = uf__npy_wrap_header(dict, rows[r].dict_len, &len, &err);
        uf_assert_ok(h != NULL, &err);
        int major;
        size_t plen, hlen;
        int rc = uf__npy_parse_prefix((unsigned char *)h, len, "x", &major,
                                      &plen, &hlen, &err);
        if (rc || major != rows[r].version || len != rows[r].total ||
            plen + hlen != len || h[len - 1] != '\n')
            uf_fail_at(rows[r].file, rows[r].line, "v%d, %zu bytes", major,
                       len);
        uf__free(h);
    }
    free(dict);
}

/* ---- loading: sizes, truncation, garbage ------------------------------ */

/* A file with the given dict and `data_len` bytes of 0x11 after it. */
static unsigned char *file_with(const char *dict, size_t data_len,
                                size_t *len)
{
    uf_error err;
    size_t hl;
    char *h = uf__npy_wrap_header(dict, strlen(dict), &hl, &err);
    assert_non_null(h);
    unsigned char *buf = malloc(hl + data_len + 1);
    memcpy(buf, h, hl);
    memset(buf + hl, 0x11, data_len);
    uf__free(h);
    *len = hl + data_len;
    return buf;
}

static void test_load_sizes(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *dict;
        size_t data_len;
        const char *msg; /* NULL: loads */
    } rows[] = {
        {LOC, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}", 48,
         NULL},
        /* bytes after the data are ignored, as np.load does */
        {LOC, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}", 60,
         NULL},
        {LOC, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}", 40,
         "shape (2, 3) of float64 needs 48 bytes of data, only 40 present"},
        {LOC, "{'descr': '<c16', 'fortran_order': True, 'shape': ()}", 15,
         "needs 16 bytes of data, only 15 present"},
        {LOC, "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 7)}", 0,
         NULL},
        /* refused before anything is allocated: not an out-of-memory */
        {LOC, "{'descr': '<f8', 'fortran_order': False, "
              "'shape': (1099511627776,)}", 8,
         "needs 8796093022208 bytes of data, only 8 present"},
        {LOC, "{'descr': '<f8', 'fortran_order': False, "
              "'shape': (4611686018427387904, 2)}", 8, "too big"},
        {LOC, "{'descr': '<f8', 'fortran_order': False, "
              "'shape': (1152921504606846976,)}", 8, "too big"},
        /* NumPy refuses this empty shape too: the nonzero part overflows */
        {LOC, "{'descr': '<f8', 'fortran_order': False, "
              "'shape': (0, 4611686018427387904, 4)}", 8, "too big"},
        {LOC, "{'descr': '|u1', 'fortran_order': False, "
              "'shape': (0, 9223372036854775807)}", 0, NULL},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        size_t len;
        unsigned char *buf = file_with(rows[r].dict, rows[r].data_len, &len);
        uf_error err;
        uf_array *a = uf_npy_load_buffer(buf, len, &err);
        if (rows[r].msg) {
            if (a || err.code != UF_ERR_FORMAT ||
                !strstr(err.message, rows[r].msg))
                uf_fail_at(rows[r].file, rows[r].line, "got %s",
                           a ? "an array" : err.message);
        } else if (!a) {
            uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
        }
        uf_array_release(a);
        free(buf);
    }
}

/* Byte swapping of each dtype (complex: each part), and bools read as 0/1
 * whatever byte the file holds. */
static void test_load_byte_order(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *descr;
        unsigned char data[16];
        unsigned char want[16];
    } rows[] = {
        {LOC, ">i2", {0x01, 0x02}, {0x02, 0x01}},
        {LOC, ">u4", {1, 2, 3, 4}, {4, 3, 2, 1}},
        {LOC, ">f8", {1, 2, 3, 4, 5, 6, 7, 8}, {8, 7, 6, 5, 4, 3, 2, 1}},
        {LOC, ">c8", {1, 2, 3, 4, 5, 6, 7, 8}, {4, 3, 2, 1, 8, 7, 6, 5}},
        {LOC, ">c16", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
         {8, 7, 6, 5, 4, 3, 2, 1, 16, 15, 14, 13, 12, 11, 10, 9}},
        {LOC, "<c16", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
         {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
        {LOC, "|b1", {7}, {1}},
        {LOC, ">b1", {0}, {0}},
        {LOC, "|i1", {0xff}, {0xff}},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char dict[128];
        snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False,"
                 " 'shape': ()}", rows[r].descr);
        size_t len;
        unsigned char *buf = file_with(dict, 0, &len);
        uf_dtype dt = UF_BOOL;
        bool swapped;
        uf_error err;
        uf_assert_ok(uf_dtype_from_typestr(rows[r].descr, &dt, &swapped,
                                           &err) == 0, &err);
        size_t isz = uf_dtype_itemsize(dt);
        buf = realloc(buf, len + isz);
        memcpy(buf + len, rows[r].data, isz);
        uf_array *a = uf_npy_load_buffer(buf, len + isz, &err);
        if (!a)
            uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
        if (uf_array_dtype(a) != dt ||
            memcmp(uf_array_data(a), rows[r].want, isz))
            uf_fail_at(rows[r].file, rows[r].line, "wrong bytes");
        uf_array_release(a);
        free(buf);
    }
}

static void test_load_file_errors(void **state)
{
    (void)state;
    uf_error err;
    char *dir = make_tmpdir();
    char path[4200];
    snprintf(path, sizeof path, "%s/missing.npy", dir);
    assert_null(uf_npy_load(path, &err));
    assert_int_equal(err.code, UF_ERR_IO);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, strerror(ENOENT)));

    assert_null(uf_npy_load(dir, &err));
    assert_int_equal(err.code, UF_ERR_IO);
    assert_non_null(strstr(err.message, strerror(EISDIR)));

    snprintf(path, sizeof path, "%s/short.npy", dir);
    size_t len;
    unsigned char *buf = file_with("{'descr': '>i4', 'fortran_order': True,"
                                   " 'shape': (2, 2)}", 12, &len);
    write_whole(path, buf, len);
    assert_null(uf_npy_load(path, &err));
    assert_int_equal(err.code, UF_ERR_FORMAT);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, "needs 16 bytes of data, only 12"));
    free(buf);

    assert_null(uf_npy_load(NULL, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf_npy_load_buffer(NULL, 5, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf_npy_load_buffer(NULL, 0, &err));
    assert_int_equal(err.code, UF_ERR_FORMAT);

    /* not a regular file: no size known up front, fread finds the end */
    if (access("/dev/null", R_OK) == 0) {
        assert_null(uf_npy_load("/dev/null", &err));
        assert_int_equal(err.code, UF_ERR_FORMAT);
        assert_non_null(strstr(err.message, "empty"));
    }
    rm_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_header_table),
        cmocka_unit_test(test_parse_limits),
        cmocka_unit_test(test_prefix),
        cmocka_unit_test(test_format_header),
        cmocka_unit_test(test_wrap_header_versions),
        cmocka_unit_test(test_load_sizes),
        cmocka_unit_test(test_load_byte_order),
        cmocka_unit_test(test_load_file_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
