/* np.nonzero, np.flatnonzero, np.argwhere, np.extract and np.unique of
 * kernels (npfind.h). Each array is walked a row (its last axis) at a
 * time in C order, an odometer over the other axes; a row runs one loop
 * per kind of element, chosen once: integers and bools by their bits,
 * floats and complex numbers by value (so -0.0 is false and NaN true). */
#include "common/npfind.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <ufjit/array.h>
#include <ufjit/dtype.h>

#include "common/alloc.h"
#include "common/npsort.h"

/* The kinds of element a row loop tells apart. */
enum { K8, K16, K32, K64, KF32, KF64, KC64, KC128 };

static int kind_of(int32_t dt)
{
    switch (dt) {
    case UF_FLOAT32:
        return KF32;
    case UF_FLOAT64:
        return KF64;
    case UF_COMPLEX64:
        return KC64;
    case UF_COMPLEX128:
        return KC128;
    default:
        switch (uf_dtype_itemsize((uf_dtype)dt)) {
        case 1:
            return K8;
        case 2:
            return K16;
        case 4:
            return K32;
        default:
            return K64;
        }
    }
}

typedef struct c64 {
    float re, im;
} c64;
typedef struct c128 {
    double re, im;
} c128;

#define TRUTH_INT(x) ((x) != 0)
#define TRUTH_CPX(x) ((x).re != 0 || (x).im != 0)

/* count_T(p, n, s): the true elements of a row of n at stride s bytes;
 * find_T(...): writes base + j to out[c * os] for the c-th true one,
 * without a branch: every element's index is stored at the next place,
 * which moves on past the true ones, so out needs room for one more
 * (npfind.h). */
#define ROW_FNS(T, TRUTH)                                                   \
    static int64_t count_##T(const char *p, int64_t n, int64_t s)           \
    {                                                                       \
        int64_t c = 0;                                                      \
        if (s == (int64_t)sizeof(T)) {                                      \
            const T *q = (const T *)(const void *)p;                        \
            for (int64_t j = 0; j < n; j++)                                 \
                c += TRUTH(q[j]);                                           \
        } else {                                                            \
            for (int64_t j = 0; j < n; j++) {                               \
                T x;                                                        \
                memcpy(&x, p + j * s, sizeof x);                            \
                c += TRUTH(x);                                              \
            }                                                               \
        }                                                                   \
        return c;                                                           \
    }                                                                       \
    static int64_t find_##T(const char *p, int64_t n, int64_t s,            \
                            int64_t base, int64_t *out, int64_t os)         \
    {                                                                       \
        int64_t c = 0;                                                      \
        if (s == (int64_t)sizeof(T)) {                                      \
            const T *q = (const T *)(const void *)p;                        \
            for (int64_t j = 0; j < n; j++) {                               \
                out[os * c] = base + j;                                     \
                c += TRUTH(q[j]);                                           \
            }                                                               \
            return c;                                                       \
        }                                                                   \
        for (int64_t j = 0; j < n; j++) {                                   \
            T x;                                                            \
            memcpy(&x, p + j * s, sizeof x);                                \
            out[os * c] = base + j;                                         \
            c += TRUTH(x);                                                  \
        }                                                                   \
        return c;                                                           \
    }

ROW_FNS(uint8_t, TRUTH_INT)
ROW_FNS(uint16_t, TRUTH_INT)
ROW_FNS(uint32_t, TRUTH_INT)
ROW_FNS(uint64_t, TRUTH_INT)
ROW_FNS(float, TRUTH_INT)
ROW_FNS(double, TRUTH_INT)
ROW_FNS(c64, TRUTH_CPX)
ROW_FNS(c128, TRUTH_CPX)

static int64_t count_row(int k, const char *p, int64_t n, int64_t s)
{
    switch (k) {
    case K8:
        return count_uint8_t(p, n, s);
    case K16:
        return count_uint16_t(p, n, s);
    case K32:
        return count_uint32_t(p, n, s);
    case K64:
        return count_uint64_t(p, n, s);
    case KF32:
        return count_float(p, n, s);
    case KF64:
        return count_double(p, n, s);
    case KC64:
        return count_c64(p, n, s);
    default:
        return count_c128(p, n, s);
    }
}

static int64_t find_row(int k, const char *p, int64_t n, int64_t s,
                        int64_t base, int64_t *out, int64_t os)
{
    switch (k) {
    case K8:
        return find_uint8_t(p, n, s, base, out, os);
    case K16:
        return find_uint16_t(p, n, s, base, out, os);
    case K32:
        return find_uint32_t(p, n, s, base, out, os);
    case K64:
        return find_uint64_t(p, n, s, base, out, os);
    case KF32:
        return find_float(p, n, s, base, out, os);
    case KF64:
        return find_double(p, n, s, base, out, os);
    case KC64:
        return find_c64(p, n, s, base, out, os);
    default:
        return find_c128(p, n, s, base, out, os);
    }
}

/* The rows of an array in C order: the row at idx[0..nd-1) starts at p
 * and holds n elements at stride s (a 0-d array: one row of one). */
typedef struct rows {
    int64_t nd, n, s, left; /* left: rows not yet visited, this one too */
    const int64_t *shape, *strides;
    int64_t idx[UF_MAXDIMS];
    const char *p;
} rows;

static void rows_start(rows *r, const char *data, int64_t nd,
                       const int64_t *shape, const int64_t *strides)
{
    r->nd = nd;
    r->shape = shape;
    r->strides = strides;
    r->p = data;
    r->n = nd ? shape[nd - 1] : 1;
    r->s = nd ? strides[nd - 1] : 0;
    r->left = 1;
    for (int64_t k = 0; k < nd; k++) {
        if (shape[k] == 0)
            r->left = 0;
        if (k < nd - 1) {
            r->left *= shape[k];
            r->idx[k] = 0;
        }
    }
}

/* Moves to the next row. */
static void rows_next(rows *r)
{
    r->left--;
    for (int64_t k = r->nd - 2; k >= 0; k--) {
        r->p += r->strides[k];
        if (++r->idx[k] < r->shape[k])
            return;
        r->p -= r->idx[k] * r->strides[k];
        r->idx[k] = 0;
    }
}

int64_t uf__np_count_true(const char *data, int64_t nd, const int64_t *shape,
                          const int64_t *strides, int32_t dt, int64_t limit)
{
    int k = kind_of(dt);
    int64_t c = 0;
    rows r;
    for (rows_start(&r, data, nd, shape, strides); r.left > 0 && limit > 0;
         rows_next(&r)) {
        int64_t n = r.n < limit ? r.n : limit;
        c += count_row(k, r.p, n, r.s);
        limit -= n;
    }
    return c;
}

void uf__np_find(const char *data, int64_t nd, const int64_t *shape,
                 const int64_t *strides, int32_t dt, int32_t how,
                 int64_t *const *outs)
{
    int k = kind_of(dt);
    int64_t c = 0, flat = 0;
    int64_t last = nd ? nd - 1 : 0;
    rows r;
    for (rows_start(&r, data, nd, shape, strides); r.left > 0;
         rows_next(&r), flat += r.n) {
        int64_t m;
        if (how == UF__NPFIND_FLAT) {
            c += find_row(k, r.p, r.n, r.s, flat, outs[0] + c, 1);
            continue;
        }
        if (how == UF__NPFIND_NONZERO) {
            m = find_row(k, r.p, r.n, r.s, 0, outs[last] + c, 1);
            for (int64_t a = 0; a < last; a++)
                for (int64_t j = 0; j < m; j++)
                    outs[a][c + j] = r.idx[a];
        } else { /* ARGWHERE, nd >= 1 */
            int64_t *o = outs[0] + c * nd;
            m = find_row(k, r.p, r.n, r.s, 0, o + last, nd);
            for (int64_t j = 0; j < m; j++)
                for (int64_t a = 0; a < last; a++)
                    o[j * nd + a] = r.idx[a];
        }
        c += m;
    }
}

/* The element of v at flat C-order index k >= *vflat (the flat index of
 * v's current row), moving v's rows forward to it. */
static const char *seek(rows *v, int64_t *vflat, int64_t k)
{
    while (k - *vflat >= v->n) {
        *vflat += v->n;
        rows_next(v);
    }
    return v->p + (k - *vflat) * v->s;
}

static void copy_elem(char *dst, const char *src, size_t isz)
{
    switch (isz) {
    case 1:
        *dst = *src;
        break;
    case 2:
        memcpy(dst, src, 2);
        break;
    case 4:
        memcpy(dst, src, 4);
        break;
    case 8:
        memcpy(dst, src, 8);
        break;
    default:
        memcpy(dst, src, 16);
        break;
    }
}

/* np.extract: each row of cond in pieces of up to 256 elements, whose true
 * ones' flat indices find_row lists on the stack; a's cursor follows. */
void uf__np_extract(const char *cond, int64_t cnd, const int64_t *cshape,
                    const int64_t *cstrides, int32_t cdt, int64_t limit,
                    const char *a, int64_t and_, const int64_t *ashape,
                    const int64_t *astrides, int32_t adt, char *out)
{
    enum { PIECE = 256 };
    int k = kind_of(cdt);
    size_t isz = uf_dtype_itemsize((uf_dtype)adt);
    int64_t pos[PIECE + 1], vflat = 0, cflat = 0;
    rows c, v;
    rows_start(&v, a, and_, ashape, astrides);
    for (rows_start(&c, cond, cnd, cshape, cstrides);
         c.left > 0 && cflat < limit; rows_next(&c), cflat += c.n) {
        int64_t n = c.n < limit - cflat ? c.n : limit - cflat;
        for (int64_t j0 = 0; j0 < n; j0 += PIECE) {
            int64_t m = n - j0 < PIECE ? n - j0 : PIECE;
            int64_t f = find_row(k, c.p + j0 * c.s, m, c.s, cflat + j0, pos,
                                 1);
            for (int64_t i = 0; i < f; i++, out += isz)
                copy_elem(out, seek(&v, &vflat, pos[i]), isz);
        }
    }
}

/* The integer of dtype dt at p as int64; *big for a uint64 past
 * INT64_MAX. */
static int64_t int_at(const char *p, int32_t dt, bool *big)
{
    switch (dt) {
    case UF_INT8:
        return *(const int8_t *)p;
    case UF_UINT8:
        return *(const uint8_t *)p;
    case UF_INT16:
        return *(const int16_t *)(const void *)p;
    case UF_UINT16:
        return *(const uint16_t *)(const void *)p;
    case UF_INT32:
        return *(const int32_t *)(const void *)p;
    case UF_UINT32:
        return *(const uint32_t *)(const void *)p;
    case UF_UINT64: {
        uint64_t u = *(const uint64_t *)(const void *)p;
        *big = u > (uint64_t)INT64_MAX;
        return (int64_t)u;
    }
    default:
        return *(const int64_t *)(const void *)p;
    }
}

int64_t uf__np_delete_mask(char *keep, int64_t n, const char *idx,
                           int64_t ind, const int64_t *ishape,
                           const int64_t *istrides, int32_t idt,
                           int64_t *bad)
{
    memset(keep, 1, (size_t)n);
    int64_t kept = n;
    rows r;
    for (rows_start(&r, idx, ind, ishape, istrides); r.left > 0;
         rows_next(&r))
        for (int64_t j = 0; j < r.n; j++) {
            bool big = false;
            int64_t v = int_at(r.p + j * r.s, idt, &big);
            if (big || v < -n || v >= n) {
                *bad = v;
                return -1;
            }
            v += v < 0 ? n : 0;
            kept -= keep[v];
            keep[v] = 0;
        }
    return kept;
}

/* Element equality for np.unique's runs: by value, NaNs (any NaN part of
 * a complex number) equal to each other, as Numba's `b[i] != x and not
 * (isnan(b[i]) and isnan(x))`. */
#define SAME_INT(x, y) ((x) == (y))
#define SAME_FLT(x, y) ((x) == (y) || ((x) != (x) && (y) != (y)))
#define SAME_CPX(x, y)                                                      \
    (((x).re == (y).re && (x).im == (y).im) ||                              \
     (((x).re != (x).re || (x).im != (x).im) &&                             \
      ((y).re != (y).re || (y).im != (y).im)))

#define DEDUP_FN(T, SAME)                                                   \
    static int64_t dedup_##T(char *p, int64_t n)                            \
    {                                                                       \
        T *q = (T *)(void *)p;                                              \
        int64_t m = n ? 1 : 0;                                              \
        for (int64_t i = 1; i < n; i++)                                     \
            if (!(SAME(q[i - 1], q[i])))                                    \
                q[m++] = q[i];                                              \
        return m;                                                           \
    }

DEDUP_FN(uint8_t, SAME_INT)
DEDUP_FN(uint16_t, SAME_INT)
DEDUP_FN(uint32_t, SAME_INT)
DEDUP_FN(uint64_t, SAME_INT)
DEDUP_FN(float, SAME_FLT)
DEDUP_FN(double, SAME_FLT)
DEDUP_FN(c64, SAME_CPX)
DEDUP_FN(c128, SAME_CPX)

int64_t uf__np_unique(const char *data, int64_t nd, const int64_t *shape,
                      const int64_t *strides, int32_t dt, char *out)
{
    size_t isz = uf_dtype_itemsize((uf_dtype)dt);
    int64_t n = 0;
    rows r;
    for (rows_start(&r, data, nd, shape, strides); r.left > 0;
         rows_next(&r)) {
        if (r.s == (int64_t)isz) {
            memcpy(out + n * (int64_t)isz, r.p, (size_t)r.n * isz);
        } else {
            for (int64_t j = 0; j < r.n; j++)
                memcpy(out + (n + j) * (int64_t)isz, r.p + j * r.s, isz);
        }
        n += r.n;
    }
    if (n == 0)
        return 0;
    /* the sorted copy: NaN runs are kept together at the end, and the
     * values of a run of (signed) zeros compare equal in the dedup */
    int64_t sstride = (int64_t)isz;
    if (uf__np_sort_rows(out, 1, &n, &sstride, dt) != 0)
        return -1;
    switch (kind_of(dt)) {
    case K8:
        return dedup_uint8_t(out, n);
    case K16:
        return dedup_uint16_t(out, n);
    case K32:
        return dedup_uint32_t(out, n);
    case K64:
        return dedup_uint64_t(out, n);
    case KF32:
        return dedup_float(out, n);
    case KF64:
        return dedup_double(out, n);
    case KC64:
        return dedup_c64(out, n);
    default:
        return dedup_c128(out, n);
    }
}

/* ---- set routines ------------------------------------------------------ */

/* Equality as NumPy's == (NaN equal to nothing; -0.0 == 0.0). */
static bool elem_eq(int k, const char *x, const char *y)
{
    switch (k) {
    case KF32: {
        float a, b;
        memcpy(&a, x, 4);
        memcpy(&b, y, 4);
        return a == b;
    }
    case KF64: {
        double a, b;
        memcpy(&a, x, 8);
        memcpy(&b, y, 8);
        return a == b;
    }
    case KC64: {
        c64 a, b;
        memcpy(&a, x, 8);
        memcpy(&b, y, 8);
        return a.re == b.re && a.im == b.im;
    }
    case KC128: {
        c128 a, b;
        memcpy(&a, x, 16);
        memcpy(&b, y, 16);
        return a.re == b.re && a.im == b.im;
    }
    default:
        return memcmp(x, y, uf_dtype_itemsize(k == K8    ? UF_UINT8
                                              : k == K16 ? UF_UINT16
                                              : k == K32 ? UF_UINT32
                                                         : UF_UINT64)) ==
               0;
    }
}

/* n elements at src (stride ss bytes, dtype from) converted to dtype `to`
 * into dst, as np.concatenate's promotion does (ints to wider ints or
 * floats, reals to complex); common/ sits below ndarray/'s casts. */
static void convert(const char *src, int64_t ss, int32_t from, char *dst,
                    int32_t to, int64_t n)
{
    size_t tsz = uf_dtype_itemsize((uf_dtype)to);
    if (from == to) {
        for (int64_t j = 0; j < n; j++)
            memcpy(dst + (size_t)j * tsz, src + j * ss, tsz);
        return;
    }
    for (int64_t j = 0; j < n; j++, dst += tsz) {
        const char *p = src + j * ss;
        int64_t si = 0;
        uint64_t ui = 0;
        double re = 0, im = 0;
        int cls = 0; /* 0 signed, 1 unsigned, 2 real, 3 complex */
        switch (from) {
#define LOAD(E, T, C, V)                                                    \
    case UF_##E: {                                                          \
        T x;                                                                \
        memcpy(&x, p, sizeof x);                                            \
        V = x;                                                              \
        cls = C;                                                            \
        break;                                                              \
    }
            LOAD(BOOL, uint8_t, 1, ui)
            LOAD(INT8, int8_t, 0, si)
            LOAD(UINT8, uint8_t, 1, ui)
            LOAD(INT16, int16_t, 0, si)
            LOAD(UINT16, uint16_t, 1, ui)
            LOAD(INT32, int32_t, 0, si)
            LOAD(UINT32, uint32_t, 1, ui)
            LOAD(INT64, int64_t, 0, si)
            LOAD(UINT64, uint64_t, 1, ui)
            LOAD(FLOAT32, float, 2, re)
            LOAD(FLOAT64, double, 2, re)
#undef LOAD
        case UF_COMPLEX64: {
            c64 x;
            memcpy(&x, p, sizeof x);
            re = x.re, im = x.im, cls = 3;
            break;
        }
        default: {
            c128 x;
            memcpy(&x, p, sizeof x);
            re = x.re, im = x.im, cls = 3;
            break;
        }
        }
        if (cls == 0)
            re = (double)si;
        else if (cls == 1)
            re = (double)ui;
        switch (to) {
#define STORE(E, T)                                                         \
    case UF_##E: {                                                          \
        T x = cls == 0 ? (T)si : cls == 1 ? (T)ui : (T)re;                  \
        memcpy(dst, &x, sizeof x);                                          \
        break;                                                              \
    }
            STORE(BOOL, uint8_t)
            STORE(INT8, int8_t)
            STORE(UINT8, uint8_t)
            STORE(INT16, int16_t)
            STORE(UINT16, uint16_t)
            STORE(INT32, int32_t)
            STORE(UINT32, uint32_t)
            STORE(INT64, int64_t)
            STORE(UINT64, uint64_t)
            STORE(FLOAT64, double)
#undef STORE
        case UF_FLOAT32: { /* from ints of 16 bits at most, or float32 */
            float x = cls == 0 ? (float)si : cls == 1 ? (float)ui
                                                      : (float)re;
            memcpy(dst, &x, sizeof x);
            break;
        }
        case UF_COMPLEX64: {
            c64 x = {cls == 0 ? (float)si : cls == 1 ? (float)ui : (float)re,
                     (float)im};
            memcpy(dst, &x, sizeof x);
            break;
        }
        default: {
            c128 x = {re, im};
            memcpy(dst, &x, sizeof x);
            break;
        }
        }
    }
}

/* The array's elements in C order, converted to dtype `to`, into dst. */
static int64_t gather(const char *data, int64_t nd, const int64_t *shape,
                      const int64_t *strides, int32_t from, int32_t to,
                      char *dst)
{
    int64_t isz = (int64_t)uf_dtype_itemsize((uf_dtype)to), n = 0;
    rows r;
    for (rows_start(&r, data, nd, shape, strides); r.left > 0;
         rows_next(&r)) {
        convert(r.p, r.s, from, dst + n * isz, to, r.n);
        n += r.n;
    }
    return n;
}

static int64_t dedup(int k, char *p, int64_t n)
{
    switch (k) {
    case K8:
        return dedup_uint8_t(p, n);
    case K16:
        return dedup_uint16_t(p, n);
    case K32:
        return dedup_uint32_t(p, n);
    case K64:
        return dedup_uint64_t(p, n);
    case KF32:
        return dedup_float(p, n);
    case KF64:
        return dedup_double(p, n);
    case KC64:
        return dedup_c64(p, n);
    default:
        return dedup_c128(p, n);
    }
}

/* np.sort then np.unique's runs, in place: the count kept, -1 out of
 * memory. */
static int64_t sort_unique(char *p, int64_t n, int32_t dt)
{
    if (n == 0)
        return 0;
    int64_t s = (int64_t)uf_dtype_itemsize((uf_dtype)dt);
    if (uf__np_sort_rows(p, 1, &n, &s, dt) != 0)
        return -1;
    return dedup(kind_of(dt), p, n);
}

static int sort_plain(char *p, int64_t n, int32_t dt)
{
    int64_t s = (int64_t)uf_dtype_itemsize((uf_dtype)dt);
    return n ? uf__np_sort_rows(p, 1, &n, &s, dt) : 0;
}

/* Numba's _in1d_impl on x[0..n1), y[0..n2) (dtype dt): mask[i] whether
 * x[i] is in y (xor invert). Below its size threshold a plain scan;
 * otherwise with assume_unique its flags over the stable sort of x then
 * y (an element followed by an equal one), else membership by == (what
 * its unique-with-inverse path computes). 0, or -1 out of memory. */
static int in1d(const char *x, int64_t n1, const char *y, int64_t n2,
                int32_t dt, bool assume_unique, bool invert, uint8_t *mask)
{
    int k = kind_of(dt);
    int64_t isz = (int64_t)uf_dtype_itemsize((uf_dtype)dt);
    if ((double)n2 < 10.0 * pow((double)n1, 0.145)) {
        for (int64_t i = 0; i < n1; i++) {
            bool in = false;
            for (int64_t j = 0; j < n2 && !in; j++)
                in = elem_eq(k, x + i * isz, y + j * isz);
            mask[i] = (uint8_t)(in != invert);
        }
        return 0;
    }
    int64_t n = n1 + n2;
    char *cat = uf__malloc((size_t)n, (size_t)isz, NULL);
    int64_t *order = uf__malloc((size_t)n, sizeof *order, NULL);
    if (cat == NULL || order == NULL)
        goto fail;
    memcpy(cat, x, (size_t)(n1 * isz));
    memcpy(cat + n1 * isz, y, (size_t)(n2 * isz));
    if (uf__np_argsort(cat, n, isz, dt, order) != 0)
        goto fail;
    if (assume_unique) {
        for (int64_t s = 0; s < n; s++) {
            bool flag = s + 1 < n
                            ? elem_eq(k, cat + order[s + 1] * isz,
                                      cat + order[s] * isz) != invert
                            : invert;
            if (order[s] < n1)
                mask[order[s]] = (uint8_t)flag;
        }
    } else {
        for (int64_t s = 0; s < n;) { /* a run of equal elements */
            int64_t e = s + 1;
            bool has_y = order[s] >= n1;
            while (e < n && elem_eq(k, cat + order[e] * isz,
                                    cat + order[s] * isz)) {
                has_y |= order[e] >= n1;
                e++;
            }
            for (int64_t j = s; j < e; j++)
                if (order[j] < n1)
                    mask[order[j]] = (uint8_t)(has_y != invert);
            s = e;
        }
    }
    uf__free(cat);
    uf__free(order);
    return 0;
fail:
    uf__free(cat);
    uf__free(order);
    return -1;
}

int64_t uf__np_setop(int32_t op, int32_t flags, const char *a, int64_t and_,
                     const int64_t *ashape, const int64_t *astrides,
                     int32_t adt, const char *b, int64_t bnd,
                     const int64_t *bshape, const int64_t *bstrides,
                     int32_t bdt, int32_t dt, char *out)
{
    bool au = flags & UF__NPSET_ASSUME_UNIQUE;
    bool inv = flags & UF__NPSET_INVERT;
    int k = kind_of(dt);
    int64_t isz = (int64_t)uf_dtype_itemsize((uf_dtype)dt);
    if (op == UF__NPSET_UNION || op == UF__NPSET_INTERSECT ||
        op == UF__NPSET_SETXOR) {
        int64_t n1 = gather(a, and_, ashape, astrides, adt, dt, out);
        if (op != UF__NPSET_UNION && !au && (n1 = sort_unique(out, n1, dt)) < 0)
            return -1;
        char *q = out + n1 * isz;
        int64_t n2 = gather(b, bnd, bshape, bstrides, bdt, dt, q);
        if (op != UF__NPSET_UNION && !au && (n2 = sort_unique(q, n2, dt)) < 0)
            return -1;
        int64_t n = n1 + n2;
        if (op == UF__NPSET_UNION)
            return sort_unique(out, n, dt);
        if (sort_plain(out, n, dt) != 0)
            return -1;
        int64_t c = 0;
        if (op == UF__NPSET_INTERSECT) { /* aux[:-1][aux[1:] == aux[:-1]] */
            for (int64_t i = 0; i + 1 < n; i++)
                if (elem_eq(k, out + i * isz, out + (i + 1) * isz))
                    memmove(out + c++ * isz, out + i * isz, (size_t)isz);
            return c;
        }
        /* setxor: flags[i] = aux[i] != aux[i-1], True at both ends; keep
         * aux[i] where flags[i] and flags[i+1] (read before overwriting) */
        char cur[16];
        bool fl = true;
        for (int64_t i = 0; i < n; i++) {
            memcpy(cur, out + i * isz, (size_t)isz);
            bool fr = i + 1 == n || !elem_eq(k, out + (i + 1) * isz, cur);
            if (fl && fr)
                memcpy(out + c++ * isz, cur, (size_t)isz);
            fl = fr;
        }
        return c;
    }
    /* isin and setdiff1d: in1d over both operands converted to dt */
    int64_t na = 1, nb = 1;
    for (int64_t i = 0; i < and_; i++)
        na *= ashape[i];
    for (int64_t i = 0; i < bnd; i++)
        nb *= bshape[i];
    int64_t asz = (int64_t)uf_dtype_itemsize((uf_dtype)adt);
    int64_t bsz = (int64_t)uf_dtype_itemsize((uf_dtype)bdt);
    int64_t big = asz > bsz ? asz : bsz;
    char *x = uf__malloc((size_t)(na ? na : 1), (size_t)(big > isz ? big : isz),
                         NULL);
    char *y = uf__malloc((size_t)(nb ? nb : 1), (size_t)(big > isz ? big : isz),
                         NULL);
    uint8_t *mask = op == UF__NPSET_ISIN ? (uint8_t *)out
                                         : uf__malloc((size_t)(na ? na : 1),
                                                      1, NULL);
    int64_t r = -1;
    if (x == NULL || y == NULL || mask == NULL)
        goto done;
    int64_t n1, n2;
    if (op == UF__NPSET_ISIN) {
        n1 = gather(a, and_, ashape, astrides, adt, dt, x);
        n2 = gather(b, bnd, bshape, bstrides, bdt, dt, y);
    } else { /* setdiff1d: ar1 (its own dtype) into out, then dt copies */
        n1 = gather(a, and_, ashape, astrides, adt, adt, out);
        if (!au && (n1 = sort_unique(out, n1, adt)) < 0)
            goto done;
        convert(out, asz, adt, x, dt, n1);
        n2 = gather(b, bnd, bshape, bstrides, bdt, bdt, y);
        if (!au && (n2 = sort_unique(y, n2, bdt)) < 0)
            goto done;
        if (bdt != dt) { /* in place would overlap when dt is wider */
            char *t = uf__malloc((size_t)(n2 ? n2 : 1), (size_t)isz, NULL);
            if (t == NULL)
                goto done;
            convert(y, bsz, bdt, t, dt, n2);
            uf__free(y);
            y = t;
        }
        au = true;
        inv = true;
    }
    if (in1d(x, n1, y, n2, dt, au, inv, mask) != 0)
        goto done;
    r = n1;
    if (op == UF__NPSET_SETDIFF) {
        r = 0;
        for (int64_t i = 0; i < n1; i++)
            if (mask[i])
                memmove(out + r++ * asz, out + i * asz, (size_t)asz);
    }
done:
    uf__free(x);
    uf__free(y);
    if (op != UF__NPSET_ISIN)
        uf__free(mask);
    return r;
}
