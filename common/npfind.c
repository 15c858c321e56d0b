/* np.nonzero, np.flatnonzero, np.argwhere, np.extract and np.unique of
 * kernels (npfind.h). Each array is walked a row (its last axis) at a
 * time in C order, an odometer over the other axes; a row runs one loop
 * per kind of element, chosen once: integers and bools by their bits,
 * floats and complex numbers by value (so -0.0 is false and NaN true). */
#include "common/npfind.h"

#include <stdbool.h>
#include <string.h>
#include <ufjit/array.h>
#include <ufjit/dtype.h>

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
