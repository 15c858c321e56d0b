/* The list operations of list_ops.h. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "common/alloc.h"

#include "common/list.h"
#include "common/list_ops.h"
#include "common/ustr.h"
#include "ufjit/dtype.h"

/* Numba's SMALL_QUICKSORT and MAX_STACK (the largest partition is
 * pushed, so the stack never holds more than log2(n) entries). */
enum { SMALL = 15, MAX_STACK = 100 };

/* One quicksort per item type and direction; LT(a, b) is `a < b`, or
 * `a > b` when reversed. Bounds are inclusive, as Numba's. */
#define QSORT(NAME, T, LT)                                                  \
    static void NAME##_insertion(T *a, int64_t lo, int64_t hi)             \
    {                                                                       \
        for (int64_t i = lo + 1; i <= hi; i++) {                            \
            T v = a[i];                                                     \
            int64_t j = i;                                                  \
            while (j > lo && LT(v, a[j - 1])) {                             \
                a[j] = a[j - 1];                                            \
                j--;                                                        \
            }                                                               \
            a[j] = v;                                                       \
        }                                                                   \
    }                                                                       \
    static int64_t NAME##_partition(T *a, int64_t lo, int64_t hi)          \
    {                                                                       \
        int64_t mid = (lo + hi) >> 1;                                       \
        T t;                                                                \
        if (LT(a[mid], a[lo]))                                              \
            t = a[lo], a[lo] = a[mid], a[mid] = t;                          \
        if (LT(a[hi], a[mid]))                                              \
            t = a[hi], a[hi] = a[mid], a[mid] = t;                          \
        if (LT(a[mid], a[lo]))                                              \
            t = a[lo], a[lo] = a[mid], a[mid] = t;                          \
        T pivot = a[mid];                                                   \
        t = a[hi], a[hi] = a[mid], a[mid] = t;                              \
        int64_t i = lo, j = hi - 1;                                         \
        for (;;) {                                                          \
            while (i < hi && LT(a[i], pivot))                               \
                i++;                                                        \
            while (j >= lo && LT(pivot, a[j]))                              \
                j--;                                                        \
            if (i >= j)                                                     \
                break;                                                      \
            t = a[i], a[i] = a[j], a[j] = t;                                \
            i++;                                                            \
            j--;                                                            \
        }                                                                   \
        t = a[i], a[i] = a[hi], a[hi] = t;                                  \
        return i;                                                           \
    }                                                                       \
    static void NAME(T *a, int64_t n)                                       \
    {                                                                       \
        int64_t stack[MAX_STACK][2];                                        \
        if (n < 2)                                                          \
            return;                                                         \
        int64_t sp = 1;                                                     \
        stack[0][0] = 0;                                                    \
        stack[0][1] = n - 1;                                                \
        while (sp > 0) {                                                    \
            sp--;                                                           \
            int64_t lo = stack[sp][0], hi = stack[sp][1];                   \
            while (hi - lo >= SMALL) {                                      \
                int64_t i = NAME##_partition(a, lo, hi);                    \
                if (hi - i > i - lo) {                                      \
                    if (hi > i) {                                           \
                        stack[sp][0] = i + 1;                               \
                        stack[sp][1] = hi;                                  \
                        sp++;                                               \
                    }                                                       \
                    hi = i - 1;                                             \
                } else {                                                    \
                    if (i > lo) {                                           \
                        stack[sp][0] = lo;                                  \
                        stack[sp][1] = i - 1;                               \
                        sp++;                                               \
                    }                                                       \
                    lo = i + 1;                                             \
                }                                                           \
            }                                                               \
            NAME##_insertion(a, lo, hi);                                    \
        }                                                                   \
    }

#define ASC(x, y) ((x) < (y))
#define DESC(x, y) ((x) > (y))
#define BOTH(N, T) QSORT(N##_asc, T, ASC) QSORT(N##_desc, T, DESC)

BOTH(b, bool)
BOTH(i8, int8_t)
BOTH(u8, uint8_t)
BOTH(i16, int16_t)
BOTH(u16, uint16_t)
BOTH(i32, int32_t)
BOTH(u32, uint32_t)
BOTH(i64, int64_t)
BOTH(u64, uint64_t)
BOTH(f32, float)
BOTH(f64, double)

void uf__list_sort(void *list, int32_t dt, int32_t reverse)
{
    uf__list *l = list;
    void *p = l->items;
    int64_t n = l->size;
#define CASE(E, N)                                                          \
    case UF_##E:                                                            \
        if (reverse)                                                        \
            N##_desc(p, n);                                                 \
        else                                                                \
            N##_asc(p, n);                                                  \
        break;
    switch ((uf_dtype)dt) {
        CASE(BOOL, b)
        CASE(INT8, i8)
        CASE(UINT8, u8)
        CASE(INT16, i16)
        CASE(UINT16, u16)
        CASE(INT32, i32)
        CASE(UINT32, u32)
        CASE(INT64, i64)
        CASE(UINT64, u64)
        CASE(FLOAT32, f32)
        CASE(FLOAT64, f64)
    default: /* complex lists are refused by the typing */
        break;
    }
#undef CASE
}

/* The n items at l fill the buffer from index n up to total (a multiple
 * of n), doubling the copied span each time. */
static void fill_repeats(uf__list *l, int64_t n, int64_t total,
                         int64_t itemsize)
{
    for (int64_t have = n; have < total;) {
        int64_t m = have <= total - have ? have : total - have;
        memcpy(l->items + have * itemsize, l->items, (size_t)(m * itemsize));
        have += m;
    }
}

void *uf__list_repeat(uf__nrt_meminfo **frame, void *list, int64_t k,
                      int64_t itemsize)
{
    uf__list *src = list;
    int64_t n = src->size, total;
    if (k < 0 || n == 0)
        k = 0;
    if (!uf__mul_i64(n, k, &total))
        return NULL;
    uf__list *l = uf__list_new(frame, total, itemsize);
    if (l == NULL || total == 0)
        return l;
    memcpy(l->items, src->items, (size_t)(n * itemsize));
    fill_repeats(l, n, total, itemsize);
    return l;
}

int32_t uf__list_irepeat(void *list, int64_t k, int64_t itemsize)
{
    uf__list *l = list;
    int64_t n = l->size, total;
    if (k <= 0 || n == 0) {
        l->size = 0;
        return 0;
    }
    if (!uf__mul_i64(n, k, &total) || uf__list_reserve(l, total, itemsize))
        return -1;
    fill_repeats(l, n, total, itemsize);
    l->size = total;
    return 0;
}

int32_t uf__list_setslice(void *list, int64_t start, int64_t n,
                          int64_t step, void *src, int64_t itemsize)
{
    uf__list *l = list;
    const uf__list *s = src;
    int64_t m = s->size;
    if (step != 1 && m != n)
        return 1;
    const char *from = s->items;
    char *copy = NULL;
    if (s == l && m > 0) { /* l[a:b] = l: read a copy of its items */
        copy = uf__malloc((size_t)m, (size_t)itemsize, NULL);
        if (copy == NULL)
            return -1;
        memcpy(copy, s->items, (size_t)(m * itemsize));
        from = copy;
    }
    if (step != 1) {
        for (int64_t i = 0; i < m; i++)
            memcpy(l->items + (start + i * step) * itemsize,
                   from + i * itemsize, (size_t)itemsize);
        uf__free(copy);
        return 0;
    }
    int64_t size = l->size, tail = size - (start + n);
    if (m > n) { /* size - n + m, past int64 refused */
        if (m - n > INT64_MAX - size ||
            uf__list_reserve(l, size + (m - n), itemsize) != 0) {
            uf__free(copy);
            return -1;
        }
    }
    uf__list_move(l, start + m, start + n, tail, itemsize);
    if (m > 0)
        memcpy(l->items + start * itemsize, from, (size_t)(m * itemsize));
    l->size = size + (m - n);
    uf__free(copy);
    return 0;
}

void uf__list_delslice(void *list, int64_t start, int64_t n, int64_t step,
                       int64_t itemsize)
{
    uf__list *l = list;
    if (n <= 0)
        return;
    if (step < 0) { /* the same items walked upwards */
        start += (n - 1) * step;
        step = -step;
    }
    /* the gaps between deleted items, then the tail, moved down */
    int64_t to = start;
    for (int64_t k = 0; k < n; k++) {
        int64_t from = start + k * step + 1;
        int64_t end = k + 1 < n ? start + (k + 1) * step : l->size;
        uf__list_move(l, to, from, end - from, itemsize);
        to += end - from;
    }
    l->size -= n;
}

/* Keys of n bytes each compared field by field (uf__list_sort_by). */
typedef struct keyorder {
    const char *keys;
    const int64_t *desc;
    bool reverse;
} keyorder;

/* -1, 0 or 1 as a < b, a == b, a > b for two fields of dtype dt; 2 when
 * unordered (a NaN). */
static int field_cmp(const char *a, const char *b, int32_t dt)
{
#define CMP(T)                                                              \
    do {                                                                    \
        T x, y;                                                             \
        memcpy(&x, a, sizeof x);                                            \
        memcpy(&y, b, sizeof y);                                            \
        return x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;                     \
    } while (0)
    switch ((uf_dtype)dt) {
    case UF_BOOL:
    case UF_UINT8:
        CMP(uint8_t);
    case UF_INT8:
        CMP(int8_t);
    case UF_INT16:
        CMP(int16_t);
    case UF_UINT16:
        CMP(uint16_t);
    case UF_INT32:
        CMP(int32_t);
    case UF_UINT32:
        CMP(uint32_t);
    case UF_INT64:
        CMP(int64_t);
    case UF_UINT64:
        CMP(uint64_t);
    case UF_FLOAT32:
        CMP(float);
    case UF_FLOAT64:
        CMP(double);
    default: /* complex keys are refused by the typing */
        break;
    }
#undef CMP
    if (dt == UF__LIST_FIELD_USTR) {
        const uf__ustr *x, *y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        int c = uf__ustr_cmp(x, y);
        return c < 0 ? -1 : c > 0;
    }
    return 0;
}

/* Numba's LT of keys i and j: `<` of tuples (its tuple_cmp_ordered), or
 * `>` reversed. */
static bool key_lt(const keyorder *o, int64_t i, int64_t j)
{
    const char *a = o->keys + i * o->desc[0], *b = o->keys + j * o->desc[0];
    for (int64_t f = 0; f < o->desc[1]; f++) {
        int64_t off = o->desc[2 + 2 * f];
        int c = field_cmp(a + off, b + off, (int32_t)o->desc[3 + 2 * f]);
        if (c != 0)
            return o->reverse ? c == 1 : c == -1;
    }
    return false;
}

static void swap_i64(int64_t *r, int64_t a, int64_t b)
{
    int64_t t = r[a];
    r[a] = r[b];
    r[b] = t;
}

/* Numba's quicksort with is_argsort: R holds indices, keys compared
 * through them; the QSORT above moving indices instead of values. */
typedef bool (*key_lt_fn)(const keyorder *o, int64_t i, int64_t j);

/* Inlined into each argsort_* below with lt a constant: a comparison is
 * then a few instructions instead of a call walking the descriptor. */
#define INLINE static inline __attribute__((always_inline))

INLINE int64_t arg_partition(const keyorder *o, int64_t *r, int64_t lo,
                             int64_t hi, key_lt_fn lt)
{
    int64_t mid = (lo + hi) >> 1;
    if (lt(o, r[mid], r[lo]))
        swap_i64(r, lo, mid);
    if (lt(o, r[hi], r[mid]))
        swap_i64(r, hi, mid);
    if (lt(o, r[mid], r[lo]))
        swap_i64(r, lo, mid);
    int64_t pivot = r[mid];
    swap_i64(r, hi, mid);
    int64_t i = lo, j = hi - 1;
    for (;;) {
        while (i < hi && lt(o, r[i], pivot))
            i++;
        while (j >= lo && lt(o, pivot, r[j]))
            j--;
        if (i >= j)
            break;
        swap_i64(r, i, j);
        i++;
        j--;
    }
    swap_i64(r, i, hi);
    return i;
}

INLINE void arg_insertion(const keyorder *o, int64_t *r, int64_t lo,
                          int64_t hi, key_lt_fn lt)
{
    for (int64_t i = lo + 1; i <= hi; i++) {
        int64_t k = r[i], j = i;
        while (j > lo && lt(o, k, r[j - 1])) {
            r[j] = r[j - 1];
            j--;
        }
        r[j] = k;
    }
}

INLINE void argsort_with(const keyorder *o, int64_t *r, int64_t n,
                         key_lt_fn lt)
{
    int64_t stack[MAX_STACK][2];
    for (int64_t i = 0; i < n; i++)
        r[i] = i;
    if (n < 2)
        return;
    int64_t sp = 1;
    stack[0][0] = 0;
    stack[0][1] = n - 1;
    while (sp > 0) {
        sp--;
        int64_t lo = stack[sp][0], hi = stack[sp][1];
        while (hi - lo >= SMALL) {
            int64_t i = arg_partition(o, r, lo, hi, lt);
            if (hi - i > i - lo) {
                if (hi > i) {
                    stack[sp][0] = i + 1;
                    stack[sp][1] = hi;
                    sp++;
                }
                hi = i - 1;
            } else {
                if (i > lo) {
                    stack[sp][0] = lo;
                    stack[sp][1] = i - 1;
                    sp++;
                }
                lo = i + 1;
            }
        }
        arg_insertion(o, r, lo, hi, lt);
    }
}

/* key_lt for keys of one or two int64 / float64 fields, the usual
 * tuples, with the same answers. */
#define FIELD_LT(T, off)                                                    \
    do {                                                                    \
        T x, y;                                                             \
        memcpy(&x, a + (off), sizeof x);                                    \
        memcpy(&y, b + (off), sizeof y);                                    \
        if (x < y)                                                          \
            return !o->reverse;                                             \
        if (x > y)                                                          \
            return o->reverse;                                              \
        if (x != y) /* unordered (a NaN) */                                 \
            return false;                                                   \
    } while (0)
#define KEY_LT1(name, T)                                                    \
    INLINE bool name(const keyorder *o, int64_t i, int64_t j)               \
    {                                                                       \
        const char *a = o->keys + i * o->desc[0];                           \
        const char *b = o->keys + j * o->desc[0];                           \
        FIELD_LT(T, o->desc[2]);                                            \
        return false;                                                       \
    }                                                                       \
    static void argsort_##name(const keyorder *o, int64_t *r, int64_t n)    \
    {                                                                       \
        argsort_with(o, r, n, name);                                        \
    }
#define KEY_LT2(name, T, U)                                                 \
    INLINE bool name(const keyorder *o, int64_t i, int64_t j)               \
    {                                                                       \
        const char *a = o->keys + i * o->desc[0];                           \
        const char *b = o->keys + j * o->desc[0];                           \
        FIELD_LT(T, o->desc[2]);                                            \
        FIELD_LT(U, o->desc[4]);                                            \
        return false;                                                       \
    }                                                                       \
    static void argsort_##name(const keyorder *o, int64_t *r, int64_t n)    \
    {                                                                       \
        argsort_with(o, r, n, name);                                        \
    }
KEY_LT1(lt_i, int64_t)
KEY_LT1(lt_f, double)
KEY_LT2(lt_ii, int64_t, int64_t)
KEY_LT2(lt_if, int64_t, double)
KEY_LT2(lt_fi, double, int64_t)
KEY_LT2(lt_ff, double, double)

/* 0: int64, 1: float64, -1: another dtype. */
static int kind8(int64_t dt)
{
    return dt == UF_INT64 ? 0 : dt == UF_FLOAT64 ? 1 : -1;
}

static void argsort(const keyorder *o, int64_t *r, int64_t n)
{
    int64_t nf = o->desc[1];
    int k0 = nf >= 1 ? kind8(o->desc[3]) : -1;
    int k1 = nf == 2 ? kind8(o->desc[5]) : -1;
    if (nf == 1 && k0 >= 0)
        (k0 ? argsort_lt_f : argsort_lt_i)(o, r, n);
    else if (nf == 2 && k0 >= 0 && k1 >= 0)
        (k0 ? (k1 ? argsort_lt_ff : argsort_lt_fi)
            : (k1 ? argsort_lt_if : argsort_lt_ii))(o, r, n);
    else
        argsort_with(o, r, n, key_lt);
}

int32_t uf__list_sort_by(void *list, void *keys, const int64_t *desc,
                         int32_t reverse, int64_t itemsize)
{
    uf__list *l = list;
    int64_t n = l->size;
    if (n < 2)
        return 0;
    int64_t *r = uf__malloc((size_t)n, sizeof *r, NULL);
    char *tmp = uf__malloc((size_t)n, (size_t)itemsize, NULL);
    if (r == NULL || tmp == NULL) {
        uf__free(r);
        uf__free(tmp);
        return -1;
    }
    keyorder o = {keys ? ((uf__list *)keys)->items : l->items, desc,
                  reverse != 0};
    argsort(&o, r, n);
    for (int64_t i = 0; i < n; i++)
        memcpy(tmp + i * itemsize, l->items + r[i] * itemsize,
               (size_t)itemsize);
    memcpy(l->items, tmp, (size_t)(n * itemsize));
    uf__free(r);
    uf__free(tmp);
    return 0;
}
