/* Helpers shared by the .npy tests (test_npy*.c): make_npy.py's pattern
 * of element values and comparisons against it, whole-file I/O, scratch
 * directories, and the `layouts` of views that are saved. Functions are
 * static inline: each test uses a subset. */
#ifndef UF_TESTS_NPY_TEST_UTIL_H
#define UF_TESTS_NPY_TEST_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

#include "common/alloc.h"
#include "ndarray/npy_internal.h"

/* ---- helpers --------------------------------------------------------- */

static const char *const dtype_names[UF_NTYPES] = {
#define NAME(e, name, kind, size, ctype) [UF_##e] = #name,
    UF_DTYPE_MAP(NAME)
#undef NAME
};

static inline bool dtype_by_name(const char *name, uf_dtype *out)
{
    for (int t = 0; t < UF_NTYPES; t++)
        if (!strcmp(name, dtype_names[t])) {
            *out = (uf_dtype)t;
            return true;
        }
    return false;
}

/* make_npy.py's pattern(): element i of a test array, native order. */
static inline void pattern(uf_dtype dt, int64_t i, unsigned char out[16])
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
static inline bool same_value(uf_dtype dt, const void *got, const void *want)
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
static inline int64_t first_mismatch(const uf_array *a, int64_t base_off,
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

static inline void c_strides_elems(int nd, const int64_t *shape, int64_t *out)
{
    int64_t s = 1;
    for (int k = nd - 1; k >= 0; k--) {
        out[k] = s;
        s *= shape[k] > 0 ? shape[k] : 1;
    }
}

static inline unsigned char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    *len = 0;
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

static inline void write_whole(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A scratch directory under the build tree, removed by rm_tree. */
static inline char *make_tmpdir(void)
{
    char *dir = malloc(4096);
    snprintf(dir, 4096, "%s/npy_tmp_XXXXXX", UF_TEST_BINARY_DIR);
    assert_non_null(mkdtemp(dir));
    return dir;
}

static inline void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[4096];
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            int w = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (w < 0 || (size_t)w >= sizeof path)
                continue;
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

static inline int count_entries(const char *dir)
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

static inline void layout_strides(const layout *l, int64_t *out)
{
    if (l->c_strides)
        c_strides_elems(l->ndim, l->shape, out);
    else
        memcpy(out, l->strides, sizeof out[0] * (size_t)l->ndim);
}

/* Builds the view described by `l` over a new base of pattern values.
 * *base_n gets the base length. */
static inline uf_array *make_view(const layout *l, uf_dtype dt, uf_array **base,
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

static inline const layout *find_layout(const char *name)
{
    for (size_t r = 0; r < sizeof layouts / sizeof layouts[0]; r++)
        if (!strcmp(layouts[r].name, name))
            return &layouts[r];
    fail_msg("no layout %s", name);
    return NULL;
}

static inline bool use_layout(const layout *l, uf_dtype dt)
{
    return !l->big || dt == UF_FLOAT64 || dt == UF_UINT8 ||
           dt == UF_COMPLEX128;
}

#endif
