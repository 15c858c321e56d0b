/* Reshape and ravel.
 *
 * The view-or-copy decision is checked two ways: against NumPy in
 * test_views (tests/data/views_numpy.txt records whether NumPy's result
 * shares memory), and here against brute force: for random strided inputs
 * (negative steps, transposes, zero strides from broadcasting) a view is
 * possible exactly when the source's elements, read in the reshape order,
 * sit at addresses that are an affine function of the new index. Then a
 * view must be made, and every element must be where the brute force
 * says; otherwise allow_copy=false must fail and the copy must hold the
 * same values. Fixed seed, printed on failure; UF_TEST_SEED overrides. */
#include <inttypes.h>

#include "test_util.h"

#include "common/alloc.h"

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int64_t rng_range(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rng_next() % (uint64_t)(hi - lo + 1));
}

static uint64_t test_seed(void)
{
    const char *s = getenv("UF_TEST_SEED");
    return s != NULL ? strtoull(s, NULL, 0) : 0xC0FFEEull;
}

static uf_array *owner_of(uf_array *a)
{
    return uf_array_base(a) != NULL ? uf_array_base(a) : a;
}

/* Advances a multi-index in C order (or F order: first axis fastest). */
static bool next_index(int nd, const int64_t *shape, int64_t *idx,
                       bool fortran)
{
    for (int j = 0; j < nd; j++) {
        int k = fortran ? j : nd - 1 - j;
        if (++idx[k] < shape[k])
            return true;
        idx[k] = 0;
    }
    return false;
}

static char *elem_ptr(const uf_array *a, const int64_t *idx)
{
    char *p = uf_array_data(a);
    for (int k = 0; k < uf_array_ndim(a); k++)
        p += idx[k] * uf_array_strides(a)[k];
    return p;
}

/* Element addresses of `a` read in C or F order: out[i] is the i-th. */
static int64_t read_addresses(const uf_array *a, bool fortran, char **out)
{
    int64_t n = uf_array_size(a), i = 0;
    if (n == 0)
        return 0;
    int64_t idx[UF_MAXDIMS] = {0};
    do
        out[i++] = elem_ptr(a, idx);
    while (next_index(uf_array_ndim(a), uf_array_shape(a), idx, fortran));
    return n;
}

/* A C-order int32 array of `shape` holding 0, 1, 2, ... */
static uf_array *arange_array(int nd, const int64_t *shape, uf_order order,
                              uf_error *err)
{
    uf_array *a = uf_empty(UF_INT32, nd, shape, order, err);
    if (a == NULL || uf_array_size(a) == 0)
        return a;
    int64_t idx[UF_MAXDIMS] = {0};
    int32_t i = 0;
    do
        *(int32_t *)elem_ptr(a, idx) = i++;
    while (next_index(nd, shape, idx, false));
    return a;
}

/* A random strided array: a C or F base, sliced with random (often
 * negative) steps, sometimes transposed, sometimes broadcast (zero
 * strides). Describes what it did in `how`. */
static uf_array *random_input(char *how, size_t size, uf_error *err)
{
    int nd = (int)rng_range(0, 5);
    int64_t shape[UF_MAXDIMS];
    for (int k = 0; k < nd; k++)
        shape[k] = rng_range(0, 5) == 0 ? rng_range(0, 1) : rng_range(1, 4);
    uf_order order = rng_range(0, 2) == 0 ? UF_ORDER_F : UF_ORDER_C;
    uf_array *a = arange_array(nd, shape, order, err);
    if (a == NULL)
        return NULL;
    size_t len = (size_t)snprintf(how, size, "base %dd %c; ", nd,
                                  order == UF_ORDER_F ? 'F' : 'C');
    char expr[256] = "";
    size_t el = 0;
    for (int k = 0; k < nd; k++) {
        int64_t r = rng_range(0, 5);
        const char *s = r == 0 ? "::-1" : r == 1 ? "::2" : r == 2 ? "::-2"
                        : r == 3 ? "1:" : ":";
        el += (size_t)snprintf(expr + el, sizeof expr - el, "%s%s",
                               k ? ", " : "", s);
    }
    uf_array *b = uf_array_slice(a, nd ? expr : "()", err);
    uf_array_release(a);
    if (b == NULL)
        return NULL;
    len += (size_t)snprintf(how + len, size - len, "a[%s]", expr);
    if (nd > 1 && rng_range(0, 2) == 0) {
        int axes[UF_MAXDIMS];
        for (int k = 0; k < nd; k++)
            axes[k] = k;
        for (int k = nd - 1; k > 0; k--) {
            int j = (int)rng_range(0, k), t = axes[k];
            axes[k] = axes[j];
            axes[j] = t;
        }
        uf_array *t = uf_array_transpose(b, axes, err);
        uf_array_release(b);
        if (t == NULL)
            return NULL;
        b = t;
        len += (size_t)snprintf(how + len, size - len, ".transpose(...)");
    }
    if (nd < 5 && rng_range(0, 4) == 0) {
        int at = (int)rng_range(0, nd);
        uf_array *e = uf_array_expand_dims(b, at, err);
        uf_array_release(b);
        if (e == NULL)
            return NULL;
        int64_t to[UF_MAXDIMS];
        memcpy(to, uf_array_shape(e), sizeof(int64_t) * (size_t)(nd + 1));
        to[at] = rng_range(1, 3);
        b = uf_array_broadcast_to(e, nd + 1, to, err);
        uf_array_release(e);
        if (b == NULL)
            return NULL;
        len += (size_t)snprintf(how + len, size - len,
                                ", broadcast %" PRId64 " at axis %d",
                                to[at], at);
    }
    return b;
}

/* A random shape of 0-5 axes with `size` elements (a 0 in it when size is
 * 0), one entry sometimes -1. */
static int random_shape(int64_t size, int64_t *shape)
{
    int nd = (int)rng_range(size == 1 ? 0 : 1, 5);
    for (int k = 0; k < nd; k++)
        shape[k] = 1;
    if (size == 0) {
        for (int k = 0; k < nd; k++)
            shape[k] = rng_range(0, 3);
        shape[rng_range(0, nd - 1)] = 0;
    } else {
        int64_t rest = size;
        for (int64_t p = 2; rest > 1; p++)
            while (rest % p == 0) {
                shape[rng_range(0, nd - 1)] *= p;
                rest /= p;
            }
    }
    if (size > 0 && nd > 0 && rng_range(0, 3) == 0)
        shape[rng_range(0, nd - 1)] = -1;
    return nd;
}

/* Brute force: strides that place the source's elements (in reading
 * order) on the new shape, if any exist. */
static bool brute_view(char *const *src, int64_t n, int nd,
                       const int64_t *shape, bool fortran, int64_t *strides)
{
    if (n == 0)
        return true;
    int64_t unit = 1;
    for (int j = 0; j < nd; j++) {
        int k = fortran ? j : nd - 1 - j;
        strides[k] = shape[k] > 1 ? src[unit] - src[0] : 0;
        unit *= shape[k];
    }
    int64_t idx[UF_MAXDIMS] = {0}, i = 0;
    do {
        int64_t off = 0;
        for (int k = 0; k < nd; k++)
            off += idx[k] * strides[k];
        if (src[i++] - src[0] != off)
            return false;
    } while (next_index(nd, shape, idx, fortran));
    return true;
}

static void test_random_reshape(void **state)
{
    (void)state;
    uint64_t seed = test_seed();
    rng_state = seed;
    long live = uf__alloc_live();
    static char *src[4096], *dst[4096];
    int views = 0, copies = 0;
    for (int round = 0; round < 4000; round++) {
        uf_error err;
        char how[512];
        uf_array *a = random_input(how, sizeof how, &err);
        uf_assert_ok(a != NULL, &err);
        int64_t shape[UF_MAXDIMS], fixed[UF_MAXDIMS];
        int nd = random_shape(uf_array_size(a), shape);
        static const uf_order orders[] = {UF_ORDER_C, UF_ORDER_F, UF_ORDER_A};
        uf_order order = orders[rng_range(0, 2)];
        int flags = uf_array_flags(a);
        bool fortran = order == UF_ORDER_F ||
                       (order == UF_ORDER_A &&
                        (flags & UF_ARRAY_F_CONTIGUOUS) &&
                        !(flags & UF_ARRAY_C_CONTIGUOUS));
        int64_t n = read_addresses(a, fortran, src), known = 1;
        for (int k = 0; k < nd; k++)
            known *= shape[k] < 0 ? 1 : shape[k];
        for (int k = 0; k < nd; k++)
            fixed[k] = shape[k] < 0 ? n / known : shape[k];
        int64_t want_strides[UF_MAXDIMS];
        bool can_view = brute_view(src, n, nd, fixed, fortran, want_strides);

        uf_array *r = uf_array_reshape(a, nd, shape, order, false, &err);
        if ((r != NULL) != can_view)
            fail_msg("seed %#" PRIx64 " round %d (%s, order %d): brute force "
                     "says %s, reshape %s: %s", seed, round, how, (int)order,
                     can_view ? "view" : "copy",
                     r ? "made a view" : "failed", err.message);
        if (r == NULL) {
            if (err.code != UF_ERR_SHAPE)
                fail_msg("seed %#" PRIx64 " round %d: %s", seed, round,
                         err.message);
            r = uf_array_reshape(a, nd, shape, order, true, &err);
            uf_assert_ok(r != NULL, &err);
            assert_ptr_not_equal(owner_of(r), owner_of(a));
            int want = fortran ? UF_ARRAY_F_CONTIGUOUS : UF_ARRAY_C_CONTIGUOUS;
            assert_true(uf_array_flags(r) & want);
            copies++;
        } else {
            assert_ptr_equal(owner_of(r), owner_of(a));
            for (int k = 0; k < nd && n > 0; k++)
                if (fixed[k] > 1 && uf_array_strides(r)[k] != want_strides[k])
                    fail_msg("seed %#" PRIx64 " round %d (%s): stride %d is "
                             "%" PRId64 ", brute force %" PRId64, seed, round,
                             how, k, uf_array_strides(r)[k], want_strides[k]);
            views++;
        }
        if (uf_array_ndim(r) != nd)
            fail_msg("seed %#" PRIx64 " round %d: ndim %d", seed, round,
                     uf_array_ndim(r));
        for (int k = 0; k < nd; k++)
            if (uf_array_shape(r)[k] != fixed[k])
                fail_msg("seed %#" PRIx64 " round %d: shape[%d] %" PRId64,
                         seed, round, k, uf_array_shape(r)[k]);
        /* element i of the result in reading order is element i of the
         * source: the same address for a view, the same value for a copy */
        read_addresses(r, fortran, dst);
        bool is_view = owner_of(r) == owner_of(a);
        for (int64_t i = 0; i < n; i++)
            if (is_view ? dst[i] != src[i]
                        : *(int32_t *)dst[i] != *(int32_t *)src[i])
                fail_msg("seed %#" PRIx64 " round %d (%s): element %" PRId64
                         " differs", seed, round, how, i);
        uf_array_release(r);
        uf_array_release(a);
    }
    if (uf__alloc_live() != live)
        fail_msg("seed %#" PRIx64 ": leak", seed);
    /* the generator must exercise both outcomes */
    if (views < 500 || copies < 500)
        fail_msg("seed %#" PRIx64 ": only %d views and %d copies", seed,
                 views, copies);
}

static int cmp_ptr(const void *x, const void *y)
{
    char *const *a = x, *const *b = y;
    return *a < *b ? -1 : *a > *b;
}

static int cmp_i32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return a < b ? -1 : a > b;
}

static void test_random_ravel(void **state)
{
    (void)state;
    uint64_t seed = test_seed() + 1;
    rng_state = seed;
    long live = uf__alloc_live();
    static char *src[4096], *dst[4096];
    static int32_t sv[4096], dv[4096];
    for (int round = 0; round < 3000; round++) {
        uf_error err;
        char how[512];
        uf_array *a = random_input(how, sizeof how, &err);
        uf_assert_ok(a != NULL, &err);
        static const uf_order orders[] = {UF_ORDER_C, UF_ORDER_F, UF_ORDER_A,
                                          UF_ORDER_K};
        uf_order order = orders[rng_range(0, 3)];
        int flags = uf_array_flags(a);
        bool c = flags & UF_ARRAY_C_CONTIGUOUS;
        bool f = flags & UF_ARRAY_F_CONTIGUOUS;
        uf_array *r = uf_array_ravel(a, order, &err);
        uf_assert_ok(r != NULL, &err);
        int64_t n = uf_array_size(a);
        assert_int_equal(uf_array_ndim(r), 1);
        assert_int_equal(uf_array_shape(r)[0], n);
        bool is_view = owner_of(r) == owner_of(a);
        if (order != UF_ORDER_K) {
            bool fortran = order == UF_ORDER_F ||
                           (order == UF_ORDER_A && f && !c);
            /* NumPy: a view exactly when contiguous in that order */
            if (is_view != (fortran ? f : c))
                fail_msg("seed %#" PRIx64 " round %d (%s): ravel(%d) %s",
                         seed, round, how, (int)order,
                         is_view ? "viewed" : "copied");
            read_addresses(a, fortran, src);
            read_addresses(r, false, dst);
            for (int64_t i = 0; i < n; i++)
                if (is_view ? dst[i] != src[i]
                            : *(int32_t *)dst[i] != *(int32_t *)src[i])
                    fail_msg("seed %#" PRIx64 " round %d (%s): element %"
                             PRId64, seed, round, how, i);
        } else {
            /* K: the same elements in some order; a view only over dense
             * memory (the order itself is checked against NumPy in
             * test_views) */
            read_addresses(a, false, src);
            read_addresses(r, false, dst);
            for (int64_t i = 0; i < n; i++) {
                sv[i] = *(int32_t *)src[i];
                dv[i] = *(int32_t *)dst[i];
            }
            qsort(sv, (size_t)n, sizeof *sv, cmp_i32);
            qsort(dv, (size_t)n, sizeof *dv, cmp_i32);
            if (n > 0 && memcmp(sv, dv, sizeof *sv * (size_t)n) != 0)
                fail_msg("seed %#" PRIx64 " round %d (%s): K ravel lost "
                         "elements", seed, round, how);
            if (is_view) {
                qsort(src, (size_t)n, sizeof *src, cmp_ptr);
                for (int64_t i = 0; i < n; i++)
                    if (dst[i] != src[i] || src[i] != src[0] + 4 * i)
                        fail_msg("seed %#" PRIx64 " round %d (%s): K view is "
                                 "not the memory in order", seed, round, how);
            }
        }
        if (!is_view)
            assert_true(uf_array_flags(r) & UF_ARRAY_OWNDATA);
        uf_array_release(r);
        uf_array_release(a);
    }
    if (uf__alloc_live() != live)
        fail_msg("seed %#" PRIx64 ": leak", seed);
}

/* Reshaping to the same shape keeps the strides, whatever the order. */
static void test_same_shape(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = arange_array(2, (int64_t[]){3, 4}, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    uf_array *v = uf_array_slice(a, "::-1, ::2", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *r = uf_array_reshape(v, 2, (int64_t[]){3, 2}, UF_ORDER_F,
                                   false, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_strides(r)[0], -16);
    assert_int_equal(uf_array_strides(r)[1], 8);
    assert_ptr_equal(uf_array_data(r), uf_array_data(v));
    uf_array_release(r);
    uf_array_release(v);
    uf_array_release(a);
}

static void test_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = arange_array(2, (int64_t[]){2, 3}, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    uf_array *t = uf_array_transpose(a, NULL, &err);
    uf_assert_ok(t != NULL, &err);
    uf_array *e = uf_empty(UF_INT32, 1, (int64_t[]){0}, UF_ORDER_C, &err);
    uf_assert_ok(e != NULL, &err);
    static const int64_t big = INT64_C(1) << 40;
    /* messages are NumPy 2.4's */
    static const struct {
        const char *file;
        int line;
        int src; /* 0: a (2, 3); 1: a.T; 2: empty (0,); 3: NULL */
        int ndim;
        int64_t shape[4];
        int order;
        bool allow_copy;
        int code;
        const char *message;
    } rows[] = {
        {LOC, 0, 1, {4}, UF_ORDER_C, true, UF_ERR_SHAPE,
         "cannot reshape array of size 6 into shape (4,)"},
        {LOC, 0, 2, {4, -1}, UF_ORDER_C, true, UF_ERR_SHAPE,
         "cannot reshape array of size 6 into shape (4,newaxis)"},
        {LOC, 0, 2, {-1, 4}, UF_ORDER_C, true, UF_ERR_SHAPE,
         "cannot reshape array of size 6 into shape (4)"},
        {LOC, 0, 3, {-1, 5, 4}, UF_ORDER_F, true, UF_ERR_SHAPE,
         "cannot reshape array of size 6 into shape (5,4)"},
        {LOC, 0, 3, {5, -1, 4}, UF_ORDER_C, true, UF_ERR_SHAPE,
         "cannot reshape array of size 6 into shape (5,newaxis,4)"},
        {LOC, 0, 0, {0}, UF_ORDER_C, true, UF_ERR_SHAPE,
         "cannot reshape array of size 6 into shape ()"},
        {LOC, 0, 2, {big, big}, UF_ORDER_C, true, UF_ERR_SHAPE,
         "cannot reshape array of size 6 into shape "
         "(1099511627776,1099511627776)"},
        {LOC, 2, 3, {big, big, 0}, UF_ORDER_C, true, UF_ERR_SHAPE,
         "cannot reshape array of size 0 into shape "
         "(1099511627776,1099511627776,0)"},
        {LOC, 2, 2, {0, -1}, UF_ORDER_C, true, UF_ERR_SHAPE,
         "cannot reshape array of size 0 into shape (0,newaxis)"},
        {LOC, 0, 2, {-1, -1}, UF_ORDER_C, true, UF_ERR_VALUE,
         "can only specify one unknown dimension"},
        {LOC, 0, 3, {-1, 7, -2}, UF_ORDER_C, true, UF_ERR_VALUE,
         "can only specify one unknown dimension"},
        {LOC, 0, 1, {6}, UF_ORDER_K, true, UF_ERR_VALUE,
         "order 'K' is not permitted for reshaping"},
        {LOC, 0, 1, {6}, 9, true, UF_ERR_INVALID, "invalid order 9"},
        {LOC, 1, 1, {6}, UF_ORDER_C, false, UF_ERR_SHAPE,
         "cannot reshape array of shape (3, 2) into shape (6,) without a "
         "copy (unable to avoid creating a copy while reshaping in C "
         "order)"},
        {LOC, 0, 2, {3, -1}, UF_ORDER_F, false, UF_ERR_SHAPE,
         "cannot reshape array of shape (2, 3) into shape (3, 2) without a "
         "copy (unable to avoid creating a copy while reshaping in F "
         "order)"},
        {LOC, 0, 65, {0}, UF_ORDER_C, true, UF_ERR_VALUE,
         "maximum supported dimension for an ndarray is currently 64, found "
         "65"},
        {LOC, 0, -1, {0}, UF_ORDER_C, true, UF_ERR_INVALID,
         "uf_array_reshape: array is NULL or shape invalid"},
        {LOC, 3, 1, {6}, UF_ORDER_C, true, UF_ERR_INVALID,
         "uf_array_reshape: array is NULL or shape invalid"},
    };
    long live = uf__alloc_live();
    int64_t ones[UF_MAXDIMS + 1];
    for (int i = 0; i <= UF_MAXDIMS; i++)
        ones[i] = 1;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_array *srcs[] = {a, t, e, NULL};
        uf_error_clear(&err);
        uf_array *out = uf_array_reshape(
            srcs[rows[r].src], rows[r].ndim,
            rows[r].ndim > UF_MAXDIMS ? ones : rows[r].shape,
            (uf_order)rows[r].order, rows[r].allow_copy, &err);
        if (out != NULL)
            uf_fail_at(rows[r].file, rows[r].line, "succeeded");
        if (err.code != rows[r].code || strcmp(err.message, rows[r].message))
            uf_fail_at(rows[r].file, rows[r].line, "%s: %s",
                       uf_err_name(err.code), err.message);
        if (uf__alloc_live() != live)
            uf_fail_at(rows[r].file, rows[r].line, "leaked");
    }
    assert_null(uf_array_reshape(a, 2, NULL, UF_ORDER_C, true, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf_array_ravel(NULL, UF_ORDER_C, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf_array_ravel(a, (uf_order)7, &err));
    assert_string_equal(err.message, "invalid order 7");
    /* a negative entry other than -1 is an unknown, as in NumPy */
    uf_array *ok = uf_array_reshape(a, 2, (int64_t[]){-2, 3}, UF_ORDER_C,
                                    false, &err);
    uf_assert_ok(ok != NULL, &err);
    assert_int_equal(uf_array_shape(ok)[0], 2);
    uf_array_release(ok);
    uf_array_release(e);
    uf_array_release(t);
    uf_array_release(a);
}

typedef uf_array *(*op_fn)(uf_array *in, uf_error *err);

static uf_array *op_reshape_view(uf_array *in, uf_error *err)
{
    return uf_array_reshape(in, 3, (int64_t[]){2, -1, 2}, UF_ORDER_F, false,
                            err);
}
static uf_array *op_reshape_copy(uf_array *in, uf_error *err)
{
    return uf_array_reshape(in, 2, (int64_t[]){-1, 3}, UF_ORDER_C, true, err);
}
static uf_array *op_ravel_c(uf_array *in, uf_error *err)
{
    return uf_array_ravel(in, UF_ORDER_C, err);
}
static uf_array *op_ravel_f(uf_array *in, uf_error *err)
{
    return uf_array_ravel(in, UF_ORDER_F, err);
}
static uf_array *op_ravel_k(uf_array *in, uf_error *err)
{
    return uf_array_ravel(in, UF_ORDER_K, err);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        op_fn fn;
    } ops[] = {
        {"reshape view", op_reshape_view},
        {"reshape copy", op_reshape_copy},
        {"ravel C (copy)", op_ravel_c},
        {"ravel F (view)", op_ravel_f},
        {"ravel K (copy)", op_ravel_k},
    };
    uf_error err;
    uf_array *a = arange_array(2, (int64_t[]){4, 6}, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    uf_array *in = uf_array_slice(a, "::-1, :", &err); /* negative stride */
    uf_assert_ok(in != NULL, &err);
    uf_array *tin = uf_array_transpose(in, NULL, &err); /* F-ordered-ish */
    uf_assert_ok(tin != NULL, &err);
    uf_array *plain_t = uf_array_transpose(a, NULL, &err); /* F-contiguous */
    uf_assert_ok(plain_t != NULL, &err);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        uf_array *src = ops[i].fn == op_ravel_f      ? plain_t
                        : ops[i].fn == op_reshape_view ? plain_t
                                                     : tin;
        long live = uf__alloc_live();
        for (long n = 1;; n++) {
            uf__alloc_fail_at(n);
            uf_array *r = ops[i].fn(src, &err);
            bool failed = uf__alloc_failed();
            uf__alloc_fail_at(0);
            if (r != NULL) {
                uf_array_release(r);
                if (failed)
                    fail_msg("%s: allocation %ld failed unnoticed",
                             ops[i].name, n);
                break;
            }
            if (err.code != UF_ERR_NOMEM)
                fail_msg("%s, allocation %ld failing: %s", ops[i].name, n,
                         err.message);
            if (uf__alloc_live() != live)
                fail_msg("%s, allocation %ld failing: leak", ops[i].name, n);
        }
    }
    uf_array_release(plain_t);
    uf_array_release(tin);
    uf_array_release(in);
    uf_array_release(a);
}

int main(void)
{
    printf("reshape: random seed %#" PRIx64 " (set UF_TEST_SEED to change)\n",
           test_seed());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_reshape),
        cmocka_unit_test(test_random_ravel),
        cmocka_unit_test(test_same_shape),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
