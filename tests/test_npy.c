/* .npy reading and writing.
 *
 *   test_npy             files NumPy made (tests/data/npy, committed), the
 *                        header parser, round trips, truncated and damaged
 *                        files, out-of-memory and save errors
 *   test_npy DIR         the same checks on a fresh set from
 *                        tests/gen/make_npy.py, plus its fuzz.bin of
 *                        damaged headers with NumPy's verdict on each
 *   test_npy --write DIR saves every dtype in every `layouts` entry into
 *                        DIR for make_npy.py to check with NumPy, byte
 *                        for byte
 *
 * Files hold pattern(dtype, i) at C-order index i, the formula of
 * make_npy.py. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

#include "common/alloc.h"
#include "ndarray/npy_internal.h"

static const char *gen_dir;

/* ---- helpers --------------------------------------------------------- */

static const char *const dtype_names[UF_NTYPES] = {
#define NAME(e, name, kind, size, ctype) [UF_##e] = #name,
    UF_DTYPE_MAP(NAME)
#undef NAME
};

static bool dtype_by_name(const char *name, uf_dtype *out)
{
    for (int t = 0; t < UF_NTYPES; t++)
        if (!strcmp(name, dtype_names[t])) {
            *out = (uf_dtype)t;
            return true;
        }
    return false;
}

/* make_npy.py's pattern(): element i of a test array, native order. */
static void pattern(uf_dtype dt, int64_t i, unsigned char out[16])
{
    int64_t x = i * 1000003 - 50;
    double v = (double)i * 0.25 - 1.5, w = 2.0 - (double)i * 0.5;
    if (i == 1)
        v = NAN;
    if (i == 2)
        v = INFINITY, w = -INFINITY;
    if (i == 3 && uf_dtype_kind(dt) == 'f')
        v = -INFINITY;
    if (i == 3 && uf_dtype_kind(dt) == 'c')
        w = NAN;
    switch (dt) {
#define INT_CASE(E, T)                                                      \
    case E: {                                                               \
        T t = (T)(uint64_t)x;                                               \
        memcpy(out, &t, sizeof t);                                          \
        break;                                                              \
    }
        INT_CASE(UF_INT8, uint8_t)
        INT_CASE(UF_UINT8, uint8_t)
        INT_CASE(UF_INT16, uint16_t)
        INT_CASE(UF_UINT16, uint16_t)
        INT_CASE(UF_INT32, uint32_t)
        INT_CASE(UF_UINT32, uint32_t)
        INT_CASE(UF_INT64, uint64_t)
        INT_CASE(UF_UINT64, uint64_t)
#undef INT_CASE
    case UF_BOOL:
        out[0] = i % 3 == 1;
        break;
    case UF_FLOAT32: {
        float f = (float)v;
        memcpy(out, &f, 4);
        break;
    }
    case UF_FLOAT64:
        memcpy(out, &v, 8);
        break;
    case UF_COMPLEX64: {
        float f[2] = {(float)v, (float)w};
        memcpy(out, f, 8);
        break;
    }
    case UF_COMPLEX128: {
        double d[2] = {v, w};
        memcpy(out, d, 16);
        break;
    }
    default:
        break;
    }
}

/* Bytes equal, or both NaN part by part (NaN payloads may differ). */
static bool same_value(uf_dtype dt, const void *got, const void *want)
{
    size_t n = uf_dtype_itemsize(dt);
    if (!memcmp(got, want, n))
        return true;
    char kind = uf_dtype_kind(dt);
    if (kind != 'f' && kind != 'c')
        return false;
    size_t part = kind == 'c' ? n / 2 : n;
    for (size_t off = 0; off < n; off += part) {
        if (part == 4) {
            float a, b;
            memcpy(&a, (const char *)got + off, 4);
            memcpy(&b, (const char *)want + off, 4);
            if (!(a == b || (isnan(a) && isnan(b))))
                return false;
        } else {
            double a, b;
            memcpy(&a, (const char *)got + off, 8);
            memcpy(&b, (const char *)want + off, 8);
            if (!(a == b || (isnan(a) && isnan(b))))
                return false;
        }
    }
    return true;
}

/* Visits `a` in C order; element with multi-index idx must equal
 * pattern(base_off + sum idx[k] * base_strides[k]) (strides in elements).
 * Returns the first bad C-order position or -1. */
static int64_t first_mismatch(const uf_array *a, int64_t base_off,
                              const int64_t *base_strides)
{
    int nd = uf_array_ndim(a);
    const int64_t *shape = uf_array_shape(a);
    const int64_t *strides = uf_array_strides(a);
    int64_t size = uf_array_size(a);
    int64_t idx[UF_MAXDIMS] = {0};
    uf_dtype dt = uf_array_dtype(a);
    for (int64_t pos = 0; pos < size; pos++) {
        const char *p = uf_array_data(a);
        int64_t bi = base_off;
        for (int k = 0; k < nd; k++) {
            p += idx[k] * strides[k];
            bi += idx[k] * base_strides[k];
        }
        unsigned char want[16];
        pattern(dt, bi, want);
        if (!same_value(dt, p, want))
            return pos;
        for (int k = nd - 1; k >= 0; k--) {
            if (++idx[k] < shape[k])
                break;
            idx[k] = 0;
        }
    }
    return -1;
}

static void c_strides_elems(int nd, const int64_t *shape, int64_t *out)
{
    int64_t s = 1;
    for (int k = nd - 1; k >= 0; k--) {
        out[k] = s;
        s *= shape[k] > 0 ? shape[k] : 1;
    }
}

static unsigned char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

static void write_whole(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A scratch directory under the build tree, removed by rm_tree. */
static char *make_tmpdir(void)
{
    char *dir = malloc(4096);
    snprintf(dir, 4096, "%s/npy_tmp_XXXXXX", UF_TEST_BINARY_DIR);
    assert_non_null(mkdtemp(dir));
    return dir;
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[4096];
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            struct stat st;
            if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
                chmod(path, 0700);
                rm_tree(path);
            } else {
                unlink(path);
            }
        }
        closedir(d);
    }
    rmdir(dir);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

/* ---- files NumPy made ------------------------------------------------- */

/* Checks every file of DIR/MANIFEST ("FILE ok DTYPE FLAGS NDIM DIMS..." or
 * "FILE err") and returns how many were checked. */
static int check_manifest(const char *dir)
{
    char mpath[4096], path[4096], line[2048];
    snprintf(mpath, sizeof mpath, "%s/MANIFEST", dir);
    FILE *m = fopen(mpath, "r");
    if (!m)
        uf_fail_at(mpath, 0, "cannot open: %s", strerror(errno));
    int lineno = 0, nfiles = 0;
    long live = uf__alloc_live();
    while (fgets(line, sizeof line, m)) {
        lineno++;
        char name[256], verdict[8], dtname[32], flags[8];
        int nd, used;
        if (sscanf(line, "%255s %7s%n", name, verdict, &used) != 2)
            uf_fail_at(mpath, lineno, "bad line");
        snprintf(path, sizeof path, "%s/%s", dir, name);
        uf_error err;
        uf_array *a = uf_npy_load(path, &err);
        nfiles++;
        if (!strcmp(verdict, "err")) {
            if (a)
                uf_fail_at(mpath, lineno, "%s: loaded, NumPy refuses it",
                           name);
            if (err.code != UF_ERR_FORMAT || !strstr(err.message, name))
                uf_fail_at(mpath, lineno, "%s: %s: %s", name,
                           uf_err_name(err.code), err.message);
            continue;
        }
        const char *rest = line + used;
        int n2;
        if (sscanf(rest, "%31s %7s %d%n", dtname, flags, &nd, &n2) != 3)
            uf_fail_at(mpath, lineno, "bad line");
        rest += n2;
        int64_t shape[UF_MAXDIMS];
        for (int k = 0; k < nd; k++) {
            long long d;
            if (sscanf(rest, "%lld%n", &d, &n2) != 1)
                uf_fail_at(mpath, lineno, "bad shape");
            shape[k] = d;
            rest += n2;
        }
        uf_dtype dt = UF_BOOL;
        if (!dtype_by_name(dtname, &dt))
            uf_fail_at(mpath, lineno, "unknown dtype %s", dtname);
        if (!a)
            uf_fail_at(mpath, lineno, "%s: %s", name, err.message);
        if (uf_array_dtype(a) != dt || uf_array_ndim(a) != nd ||
            memcmp(uf_array_shape(a), shape, sizeof shape[0] * (size_t)nd))
            uf_fail_at(mpath, lineno, "%s: wrong dtype or shape", name);
        int f = uf_array_flags(a);
        char got[4] = "";
        if (f & UF_ARRAY_C_CONTIGUOUS)
            strcat(got, "C");
        if (f & UF_ARRAY_F_CONTIGUOUS)
            strcat(got, "F");
        if (strcmp(got, flags) ||
            !(f & UF_ARRAY_WRITEABLE) || !(f & UF_ARRAY_OWNDATA))
            uf_fail_at(mpath, lineno, "%s: flags %#x, NumPy has %s", name, f,
                       flags);
        int64_t cs[UF_MAXDIMS];
        c_strides_elems(nd, shape, cs);
        int64_t bad = first_mismatch(a, 0, cs);
        if (bad >= 0)
            uf_fail_at(mpath, lineno, "%s: element %lld (C order) differs",
                       name, (long long)bad);
        uf_array_release(a);
    }
    fclose(m);
    assert_int_equal(uf__alloc_live(), live);
    return nfiles;
}

static void test_committed_files(void **state)
{
    (void)state;
    int n = check_manifest(UF_TEST_DATA_DIR "/npy");
    assert_true(n >= 90);
}

static void test_generated_files(void **state)
{
    (void)state;
    /* 13 dtypes x C/F x both byte orders x 3 versions x 5 shapes */
    int n = check_manifest(gen_dir);
    assert_true(n >= 13 * 2 * 2 * 3 * 5);
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* Compares a loaded array, in C order, with NumPy's bytes. */
static bool same_bytes_c_order(const uf_array *a, const unsigned char *raw,
                               size_t rawlen)
{
    int nd = uf_array_ndim(a);
    size_t isz = uf_array_itemsize(a);
    int64_t size = uf_array_size(a);
    if ((size_t)size * isz != rawlen)
        return false;
    int64_t idx[UF_MAXDIMS] = {0};
    for (int64_t pos = 0; pos < size; pos++) {
        const char *p = uf_array_data(a);
        for (int k = 0; k < nd; k++)
            p += idx[k] * uf_array_strides(a)[k];
        if (!same_value(uf_array_dtype(a), p, raw + (size_t)pos * isz))
            return false;
        for (int k = nd - 1; k >= 0; k--) {
            if (++idx[k] < uf_array_shape(a)[k])
                break;
            idx[k] = 0;
        }
    }
    return true;
}

/* fuzz.bin: NumPy files with one header byte overwritten, each with what
 * np.load made of it. We must agree on every one. */
static void test_generated_fuzz(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/fuzz.bin", gen_dir);
    size_t len;
    unsigned char *all = read_whole(path, &len);
    if (!all)
        uf_fail_at(path, 0, "cannot read");
    long live = uf__alloc_live();
    int records = 0, ok = 0, bad = 0;
    for (size_t pos = 0; pos < len;) {
        uint32_t flen = get_u32(all + pos);
        const unsigned char *file = all + pos + 4;
        uint32_t vlen = get_u32(file + flen);
        char verdict[2048];
        memcpy(verdict, file + flen + 4, vlen);
        verdict[vlen] = '\0';
        uint32_t rlen = get_u32(file + flen + 4 + vlen);
        const unsigned char *raw = file + flen + 8 + vlen;
        pos += 12 + (size_t)flen + vlen + rlen;
        records++;

        /* an exact-size copy so ASan sees any read past the end */
        unsigned char *copy = malloc(flen);
        memcpy(copy, file, flen);
        uf_error err;
        uf_array *a = uf_npy_load_buffer(copy, flen, &err);
        bool agree;
        if (!strcmp(verdict, "err")) {
            agree = !a && err.code == UF_ERR_FORMAT;
        } else {
            char dtname[32], flags[8];
            int nd, used;
            sscanf(verdict, "ok %31s %7s %d%n", dtname, flags, &nd, &used);
            uf_dtype dt = UF_BOOL;
            agree = a && dtype_by_name(dtname, &dt) &&
                    uf_array_dtype(a) == dt && uf_array_ndim(a) == nd;
            const char *rest = verdict + used;
            for (int k = 0; agree && k < nd; k++) {
                long long d;
                int n2;
                agree = sscanf(rest, "%lld%n", &d, &n2) == 1 &&
                        uf_array_shape(a)[k] == d;
                rest += n2;
            }
            if (agree) {
                int f = uf_array_flags(a);
                agree = (strchr(flags, 'C') != NULL) ==
                            ((f & UF_ARRAY_C_CONTIGUOUS) != 0) &&
                        (strchr(flags, 'F') != NULL) ==
                            ((f & UF_ARRAY_F_CONTIGUOUS) != 0) &&
                        same_bytes_c_order(a, raw, rlen);
            }
            ok++;
        }
        if (!agree && bad++ < 10) {
            size_t hl = flen < 140 ? flen : 140;
            char shown[600];
            size_t n = 0;
            for (size_t i = 0; i < hl; i++)
                n += (size_t)snprintf(shown + n, sizeof shown - n,
                                      file[i] >= 32 && file[i] < 127 &&
                                              file[i] != '\\'
                                          ? "%c"
                                          : "\\x%02x",
                                      file[i]);
            print_error("fuzz record %d: NumPy says '%s', ufjit %s (%s)\n"
                        "  %s\n", records, verdict, a ? "loads it" :
                        "refuses it", a ? "" : err.message, shown);
        }
        uf_array_release(a);
        free(copy);
    }
    free(all);
    print_message("fuzz: %d damaged headers, %d loadable by NumPy, %d "
                  "disagreements\n", records, ok, bad);
    assert_int_equal(uf__alloc_live(), live);
    assert_true(records > 1000);
    assert_int_equal(bad, 0);
}

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

/* ---- arrays to save --------------------------------------------------- */

/* Views into a 1-D base buffer holding pattern(0..base_n-1): offset and
 * strides in elements; NULL strides: C-contiguous. */
typedef struct layout {
    const char *file;
    int line;
    const char *name;
    int ndim;
    int64_t shape[10];
    int64_t strides[10];
    bool c_strides;
    int64_t offset;
    bool big;   /* only for a few dtypes */
    bool fortran; /* np.save writes fortran_order True */
} layout;

static const layout layouts[] = {
    {LOC, "c234", 3, {2, 3, 4}, {0}, true, 0, false, false},
    {LOC, "f234", 3, {2, 3, 4}, {1, 2, 6}, false, 0, false, true},
    {LOC, "rows2", 2, {3, 4}, {8, 1}, false, 0, false, false},
    {LOC, "reversed", 2, {3, 4}, {-4, -1}, false, 11, false, false},
    {LOC, "scalar", 0, {0}, {0}, false, 2, false, false},
    {LOC, "empty1", 1, {0}, {1}, false, 0, false, false},
    {LOC, "empty3", 3, {3, 0, 2}, {7, 3, -1}, false, 1, false, false},
    {LOC, "bcast", 2, {3, 4}, {0, 1}, false, 0, false, false},
    {LOC, "transposed", 2, {4, 3}, {1, 8}, false, 0, false, false},
    {LOC, "len1_c", 3, {2, 1, 3}, {3, 100, 1}, false, 0, false, false},
    {LOC, "len1_f", 3, {3, 1, 2}, {1, 50, 3}, false, 0, false, true},
    {LOC, "col", 2, {4, 1}, {3, 1}, false, 0, false, false},
    {LOC, "neg1d", 1, {5}, {-1}, false, 4, false, false},
    {LOC, "f_neg", 2, {3, 2}, {-1, -3}, false, 5, false, false},
    {LOC, "ten_dims", 10, {2, 1, 2, 1, 2, 1, 2, 1, 2, 1}, {0}, true, 0,
     false, false},
    {LOC, "empty_wide", 2, {0, 12345678901}, {0, 0}, false, 0, false,
     false},
    {LOC, "long1d", 1, {20000}, {2}, false, 0, true, false},
    {LOC, "big2d", 2, {300, 100}, {101, 1}, false, 0, true, false},
    {LOC, "big_f", 2, {300, 100}, {1, 300}, false, 0, true, true},
};

static void layout_strides(const layout *l, int64_t *out)
{
    if (l->c_strides)
        c_strides_elems(l->ndim, l->shape, out);
    else
        memcpy(out, l->strides, sizeof out[0] * (size_t)l->ndim);
}

/* Builds the view described by `l` over a new base of pattern values.
 * *base_n gets the base length. */
static uf_array *make_view(const layout *l, uf_dtype dt, uf_array **base,
                           int64_t *base_n)
{
    int64_t es[10], hi = l->offset, lo = l->offset;
    layout_strides(l, es);
    bool empty = false;
    for (int k = 0; k < l->ndim; k++)
        empty |= l->shape[k] == 0;
    for (int k = 0; k < l->ndim && !empty; k++) {
        int64_t ext = (l->shape[k] - 1) * es[k];
        if (ext > 0)
            hi += ext;
        else
            lo += ext;
    }
    assert_true(lo >= 0);
    *base_n = hi + 1;
    uf_error err;
    *base = uf_empty(dt, 1, base_n, UF_ORDER_C, &err);
    uf_assert_ok(*base != NULL, &err);
    size_t isz = uf_dtype_itemsize(dt);
    unsigned char *p = uf_array_data(*base);
    for (int64_t i = 0; i < *base_n; i++) {
        unsigned char v[16];
        pattern(dt, i, v);
        memcpy(p + (size_t)i * isz, v, isz);
    }
    int64_t bs[10];
    for (int k = 0; k < l->ndim; k++)
        bs[k] = es[k] * (int64_t)isz;
    uf_array *v = uf_array_wrap(dt, l->ndim, l->shape, bs,
                                p + (size_t)l->offset * isz, false, NULL,
                                NULL, &err);
    uf_assert_ok(v != NULL, &err);
    return v;
}

static const layout *find_layout(const char *name)
{
    for (size_t r = 0; r < sizeof layouts / sizeof layouts[0]; r++)
        if (!strcmp(layouts[r].name, name))
            return &layouts[r];
    fail_msg("no layout %s", name);
    return NULL;
}

static bool use_layout(const layout *l, uf_dtype dt)
{
    return !l->big || dt == UF_FLOAT64 || dt == UF_UINT8 ||
           dt == UF_COMPLEX128;
}

/* Save, load back (file and buffer), compare values and memory order. */
static void test_round_trip(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char path[4200];
    snprintf(path, sizeof path, "%s/rt.npy", dir);
    long live = uf__alloc_live();
    for (size_t r = 0; r < sizeof layouts / sizeof layouts[0]; r++) {
        const layout *l = &layouts[r];
        for (int t = 0; t < UF_NTYPES; t++) {
            if (!use_layout(l, (uf_dtype)t))
                continue;
            uf_array *base;
            int64_t base_n, es[10];
            uf_array *v = make_view(l, (uf_dtype)t, &base, &base_n);
            layout_strides(l, es);
            uf_error err;
            if (uf_npy_save(path, v, &err))
                uf_fail_at(l->file, l->line, "%s %s: %s", l->name,
                           dtype_names[t], err.message);
            size_t len;
            unsigned char *bytes = read_whole(path, &len);
            for (int via = 0; via < 2; via++) {
                uf_array *a = via ? uf_npy_load_buffer(bytes, len, &err)
                                  : uf_npy_load(path, &err);
                if (!a)
                    uf_fail_at(l->file, l->line, "%s", err.message);
                bool want_f = l->fortran;
                int f = uf_array_flags(a);
                if (uf_array_dtype(a) != (uf_dtype)t ||
                    uf_array_ndim(a) != l->ndim ||
                    memcmp(uf_array_shape(a), l->shape,
                           sizeof l->shape[0] * (size_t)l->ndim) ||
                    !(f & (want_f ? UF_ARRAY_F_CONTIGUOUS
                                  : UF_ARRAY_C_CONTIGUOUS)))
                    uf_fail_at(l->file, l->line, "%s %s: dtype, shape or "
                               "order", l->name, dtype_names[t]);
                int64_t bad = first_mismatch(a, l->offset, es);
                if (bad >= 0)
                    uf_fail_at(l->file, l->line, "%s %s: element %lld",
                               l->name, dtype_names[t], (long long)bad);
                uf_array_release(a);
            }
            /* header length % 64 == 0 and the data follows exactly */
            int major;
            size_t plen, hlen;
            assert_int_equal(uf__npy_parse_prefix(bytes, len, "x", &major,
                                                  &plen, &hlen, &err), 0);
            assert_int_equal(major, 1);
            assert_int_equal((plen + hlen) % 64, 0);
            assert_int_equal(len - plen - hlen, uf_array_nbytes(v));
            free(bytes);
            uf_array_release(v);
            uf_array_release(base);
        }
    }
    assert_int_equal(uf__alloc_live(), live);
    /* only the target is left: no temporary files */
    assert_int_equal(count_entries(dir), 1);
    rm_tree(dir);
    free(dir);
}

/* --write DIR: the files make_npy.py checks against np.save. */
static int write_cases(const char *dir)
{
    char path[4200], list[4200];
    snprintf(list, sizeof list, "%s/saved.txt", dir);
    FILE *out = fopen(list, "w");
    if (!out) {
        fprintf(stderr, "cannot write %s: %s\n", list, strerror(errno));
        return 1;
    }
    for (size_t r = 0; r < sizeof layouts / sizeof layouts[0]; r++) {
        const layout *l = &layouts[r];
        for (int t = 0; t < UF_NTYPES; t++) {
            if (!use_layout(l, (uf_dtype)t))
                continue;
            uf_array *base;
            int64_t base_n, es[10];
            uf_array *v = make_view(l, (uf_dtype)t, &base, &base_n);
            layout_strides(l, es);
            char name[128];
            snprintf(name, sizeof name, "%s_%s.npy", l->name, dtype_names[t]);
            snprintf(path, sizeof path, "%s/%s", dir, name);
            uf_error err;
            if (uf_npy_save(path, v, &err)) {
                fprintf(stderr, "%s\n", err.message);
                return 1;
            }
            size_t isz = uf_dtype_itemsize((uf_dtype)t);
            fprintf(out, "%s %s %lld %lld %d", name, dtype_names[t],
                    (long long)base_n, (long long)(l->offset * (int64_t)isz),
                    l->ndim);
            for (int k = 0; k < l->ndim; k++)
                fprintf(out, " %lld", (long long)l->shape[k]);
            for (int k = 0; k < l->ndim; k++)
                fprintf(out, " %lld", (long long)(es[k] * (int64_t)isz));
            fprintf(out, "\n");
            uf_array_release(v);
            uf_array_release(base);
        }
    }
    return fclose(out) != 0;
}

/* ---- robustness ------------------------------------------------------- */

/* Loads `len` bytes from an exact-size heap copy (ASan sees over-reads).
 * A loaded array must be consistent with what the buffer holds. */
static uf_array *load_exact(const unsigned char *src, size_t len,
                            uf_error *err)
{
    unsigned char *copy = malloc(len ? len : 1);
    memcpy(copy, src, len);
    uf_array *a = uf_npy_load_buffer(copy, len, err);
    if (a) {
        assert_true(uf_array_ndim(a) <= UF_MAXDIMS);
        assert_true(uf_array_nbytes(a) >= 0 &&
                    (size_t)uf_array_nbytes(a) <= len);
        /* touch every byte */
        const unsigned char *p = uf_array_data(a);
        unsigned sum = 0;
        for (int64_t i = 0; i < uf_array_nbytes(a); i++)
            sum += p[i];
        (void)sum;
    } else {
        assert_int_equal(err->code, UF_ERR_FORMAT);
        assert_true(err->message[0] != '\0');
    }
    free(copy);
    return a;
}

static const char *const robust_files[] = {
    "float64_C_le_v1_2x3x4.npy", "complex64_F_be_v2_2x3x4.npy",
    "int16_C_be_v3_5.npy",       "bool_C_be_v3_s.npy",
    "complex64_C_be_v3_3x0x2.npy", "hdr_long_v1.npy",
    "hdr_comment.npy",
};

/* Every proper prefix of a valid file is refused, the whole file loads. */
static void test_every_prefix(void **state)
{
    (void)state;
    long live = uf__alloc_live();
    for (size_t f = 0; f < sizeof robust_files / sizeof robust_files[0];
         f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/npy/%s", UF_TEST_DATA_DIR,
                 robust_files[f]);
        size_t len;
        unsigned char *buf = read_whole(path, &len);
        if (!buf)
            uf_fail_at(path, 0, "missing");
        for (size_t n = 0; n <= len; n++) {
            uf_error err;
            uf_array *a = load_exact(buf, n, &err);
            if ((a != NULL) != (n == len))
                uf_fail_at(path, 0, "prefix of %zu of %zu bytes: %s", n, len,
                           a ? "loaded" : err.message);
            uf_array_release(a);
        }
        free(buf);
    }
    /* the same through files for one of them */
    char *dir = make_tmpdir();
    char src[4096], dst[4200];
    snprintf(src, sizeof src, "%s/npy/%s", UF_TEST_DATA_DIR, robust_files[1]);
    snprintf(dst, sizeof dst, "%s/prefix.npy", dir);
    size_t len;
    unsigned char *buf = read_whole(src, &len);
    for (size_t n = 0; n < len; n++) {
        write_whole(dst, buf, n);
        uf_error err;
        uf_array *a = uf_npy_load(dst, &err);
        if (a || err.code != UF_ERR_FORMAT || !strstr(err.message, dst))
            uf_fail_at(src, 0, "prefix of %zu bytes: %s", n,
                       a ? "loaded" : err.message);
    }
    free(buf);
    rm_tree(dir);
    free(dir);
    assert_int_equal(uf__alloc_live(), live);
}

/* Every header byte overwritten with each of several values, then runs of
 * random damage: each file loads consistently or is refused cleanly. */
static void test_damaged_headers(void **state)
{
    (void)state;
    static const unsigned char values[] = {
        0x00, ' ', '\n', '\t', '#', ',', '(', ')', '{', '}', '\'', '"', ':',
        '0', '1', '9', '-', 'L', 'x', '\\', 0x80, 0xff, 0x7f};
    long live = uf__alloc_live();
    uint64_t rng = 0x9e3779b97f4a7c15u;
    int loaded = 0, tried = 0;
    for (size_t f = 0; f < sizeof robust_files / sizeof robust_files[0];
         f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/npy/%s", UF_TEST_DATA_DIR,
                 robust_files[f]);
        size_t len;
        unsigned char *buf = read_whole(path, &len);
        if (!buf)
            uf_fail_at(path, 0, "missing");
        int major;
        size_t plen, hlen;
        uf_error err;
        assert_int_equal(uf__npy_parse_prefix(buf, len, "x", &major, &plen,
                                              &hlen, &err), 0);
        size_t end = plen + hlen;
        unsigned char *m = malloc(len);
        for (size_t pos = 0; pos < end; pos++) {
            for (size_t v = 0; v < sizeof values; v++) {
                memcpy(m, buf, len);
                m[pos] = values[v];
                uf_array *a = load_exact(m, len, &err);
                loaded += a != NULL;
                tried++;
                uf_array_release(a);
            }
        }
        for (int run = 0; run < 1000; run++) {
            memcpy(m, buf, len);
            int changes = 1 + run % 4;
            for (int c = 0; c < changes; c++) {
                rng = rng * 6364136223846793005u + 1442695040888963407u;
                m[(rng >> 33) % end] = (unsigned char)(rng >> 20);
            }
            uf_array *a = load_exact(m, len, &err);
            loaded += a != NULL;
            tried++;
            uf_array_release(a);
        }
        free(m);
        free(buf);
    }
    print_message("damaged headers: %d tried, %d still loadable\n", tried,
                  loaded);
    assert_int_equal(uf__alloc_live(), live);
}

/* ---- out of memory ---------------------------------------------------- */

static void test_out_of_memory(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char src[4096], dst[4200];
    snprintf(src, sizeof src, "%s/npy/complex64_F_be_v2_2x3x4.npy",
             UF_TEST_DATA_DIR);
    snprintf(dst, sizeof dst, "%s/oom.npy", dir);
    size_t len;
    unsigned char *buf = read_whole(src, &len);
    static const char precious[] = "keep me";
    write_whole(dst, precious, sizeof precious);
    uf_array *base;
    int64_t base_n;
    uf_array *v = make_view(find_layout("reversed"), UF_COMPLEX64, &base,
                            &base_n);
    long live = uf__alloc_live();
    for (int op = 0; op < 3; op++) {
        int failures = 0;
        for (long n = 1;; n++) {
            uf_error err;
            uf__alloc_fail_at(n);
            uf_array *a = NULL;
            int rc;
            if (op == 0) {
                a = uf_npy_load(src, &err);
                rc = a ? 0 : err.code;
            } else if (op == 1) {
                a = uf_npy_load_buffer(buf, len, &err);
                rc = a ? 0 : err.code;
            } else {
                rc = uf_npy_save(dst, v, &err);
            }
            bool failed = uf__alloc_failed();
            uf__alloc_fail_at(0);
            uf_array_release(a);
            if (!failed) {
                assert_int_equal(rc, 0);
                break;
            }
            failures++;
            if (rc != UF_ERR_NOMEM)
                fail_msg("op %d, allocation %ld: %s", op, n, err.message);
            assert_int_equal(uf__alloc_live(), live);
            if (op == 2) {
                size_t got;
                unsigned char *now = read_whole(dst, &got);
                assert_int_equal(got, sizeof precious);
                assert_memory_equal(now, precious, got);
                free(now);
                assert_int_equal(count_entries(dir), 1);
            }
        }
        assert_true(failures >= 1);
    }
    uf_array_release(v);
    uf_array_release(base);
    free(buf);
    rm_tree(dir);
    free(dir);
}

/* ---- save errors ------------------------------------------------------ */

static void assert_unchanged(const char *path, const char *want)
{
    size_t got;
    unsigned char *now = read_whole(path, &got);
    assert_non_null(now);
    assert_int_equal(got, strlen(want));
    assert_memory_equal(now, want, got);
    free(now);
}

static void test_save_errors(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char path[4200], sub[4200];
    uf_error err;
    uf_array *base;
    int64_t base_n;
    uf_array *v = make_view(find_layout("big_f"), UF_FLOAT64, &base, &base_n);

    assert_int_equal(uf_npy_save(NULL, v, &err), UF_ERR_INVALID);
    assert_int_equal(uf_npy_save("x.npy", NULL, &err), UF_ERR_INVALID);

    static const struct {
        const char *file;
        int line;
        const char *rel; /* under dir */
        int errnum;
    } rows[] = {
        {LOC, "no/such/dir/a.npy", ENOENT},
        {LOC, "plain/a.npy", ENOTDIR},   /* plain is a file */
        {LOC, "adir", EISDIR},           /* the target is a directory */
    };
    snprintf(path, sizeof path, "%s/plain", dir);
    write_whole(path, "x", 1);
    snprintf(sub, sizeof sub, "%s/adir", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        snprintf(path, sizeof path, "%s/%s", dir, rows[r].rel);
        int rc = uf_npy_save(path, v, &err);
        if (rc != UF_ERR_IO || !strstr(err.message, path) ||
            !strstr(err.message, strerror(rows[r].errnum)))
            uf_fail_at(rows[r].file, rows[r].line, "%d: %s", rc,
                       err.message);
        if (count_entries(dir) != 2)
            uf_fail_at(rows[r].file, rows[r].line, "left a file behind");
    }

    /* a directory we may not write to (root may write anywhere) */
    snprintf(sub, sizeof sub, "%s/ro", dir);
    assert_int_equal(mkdir(sub, 0500), 0);
    snprintf(path, sizeof path, "%s/ro/a.npy", dir);
    if (geteuid() != 0) {
        assert_int_equal(uf_npy_save(path, v, &err), UF_ERR_IO);
        assert_non_null(strstr(err.message, strerror(EACCES)));
        assert_int_equal(count_entries(sub), 0);
    }

    /* the disk fills up halfway (a file size limit): the old file stays */
    static const char old[] = "the previous contents";
    snprintf(path, sizeof path, "%s/full.npy", dir);
    write_whole(path, old, strlen(old));
    struct rlimit saved, small = {4096, 0};
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
    small.rlim_max = saved.rlim_max;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = uf_npy_save(path, v, &err);
    setrlimit(RLIMIT_FSIZE, &saved);
    signal(SIGXFSZ, prev);
    assert_int_equal(rc, UF_ERR_IO);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, strerror(EFBIG)));
    assert_unchanged(path, old);
    assert_int_equal(count_entries(dir), 4); /* plain adir ro full.npy */

    /* and the same save succeeds without the limit, replacing it */
    assert_int_equal(uf_npy_save(path, v, &err), 0);
    uf_array *a = uf_npy_load(path, &err);
    uf_assert_ok(a != NULL, &err);
    assert_int_equal(uf_array_size(a), 30000);
    uf_array_release(a);
    assert_int_equal(count_entries(dir), 4);

    uf_array_release(v);
    uf_array_release(base);
    rm_tree(dir);
    free(dir);
}

/* A new file gets 0666 minus the umask, an existing one keeps its mode,
 * and a symlink is written through, as np.save's open(path, "wb") does. */
static void test_save_file_modes(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char path[4200], link[4200];
    uf_error err;
    uf_array *base;
    int64_t base_n;
    uf_array *v = make_view(find_layout("c234"), UF_INT32, &base, &base_n);
    struct stat st;

    mode_t old_mask = umask(027);
    snprintf(path, sizeof path, "%s/new.npy", dir);
    uf_assert_ok(uf_npy_save(path, v, &err) == 0, &err);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);

    assert_int_equal(chmod(path, 0604), 0);
    uf_assert_ok(uf_npy_save(path, v, &err) == 0, &err);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0604);
    umask(old_mask);

    snprintf(link, sizeof link, "%s/link.npy", dir);
    assert_int_equal(symlink("new.npy", link), 0);
    write_whole(path, "old", 3);
    uf_assert_ok(uf_npy_save(link, v, &err) == 0, &err);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    uf_array *a = uf_npy_load(path, &err);
    uf_assert_ok(a != NULL, &err);
    assert_int_equal(uf_array_size(a), 24);
    uf_array_release(a);
    assert_int_equal(count_entries(dir), 2);

    uf_array_release(v);
    uf_array_release(base);
    rm_tree(dir);
    free(dir);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--write"))
        return write_cases(argv[2]);
    if (argc == 2) {
        char done[4096];
        gen_dir = argv[1];
        snprintf(done, sizeof done, "%s/DONE", gen_dir);
        if (access(done, F_OK) != 0) {
            printf("no files from make_npy.py in %s (is NumPy installed?): "
                   "skipping\n", gen_dir);
            return 77;
        }
        const struct CMUnitTest generated[] = {
            cmocka_unit_test(test_generated_files),
            cmocka_unit_test(test_generated_fuzz),
        };
        return cmocka_run_group_tests(generated, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_committed_files),
        cmocka_unit_test(test_parse_header_table),
        cmocka_unit_test(test_parse_limits),
        cmocka_unit_test(test_prefix),
        cmocka_unit_test(test_format_header),
        cmocka_unit_test(test_wrap_header_versions),
        cmocka_unit_test(test_load_sizes),
        cmocka_unit_test(test_load_byte_order),
        cmocka_unit_test(test_load_file_errors),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_every_prefix),
        cmocka_unit_test(test_damaged_headers),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_save_errors),
        cmocka_unit_test(test_save_file_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
