/* Random basic indexing against an independent reference: every element
 * of every view must sit at the byte the reference computes from Python's
 * slice semantics (random shapes of 0-5 dims with lengths 0-4, negative
 * strides from chained negative-step slices). Fixed seed, printed on
 * failure; UF_TEST_SEED overrides it. */
#include "views_test_util.h"

static uint64_t rng_state;

/* splitmix64: small, and the same sequence everywhere. */
static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static int64_t rng_range(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rng_next() % (uint64_t)(hi - lo + 1));
}

static uint64_t test_seed(void)
{
    const char *s = getenv("UF_TEST_SEED");
    return s != NULL ? strtoull(s, NULL, 0) : 0x5EEDF00Dull;
}

/* NumPy's contiguity rule, written from its definition: a zero-length
 * array is contiguous; otherwise every axis longer than 1 must have the
 * stride of a dense layout in that order. */
static bool ref_contiguous(const uf_array *a, bool fortran)
{
    int nd = uf_array_ndim(a);
    const int64_t *sh = uf_array_shape(a), *st = uf_array_strides(a);
    if (uf_array_size(a) == 0)
        return true;
    int64_t dense = (int64_t)uf_array_itemsize(a);
    for (int j = 0; j < nd; j++) {
        int k = fortran ? j : nd - 1 - j;
        if (sh[k] > 1 && st[k] != dense)
            return false;
        dense *= sh[k];
    }
    return true;
}

/* ---- random indexing against a reference ------------------------------ */

/* A view as the reference sees it: its shape and, for every element in C
 * order, its byte offset from the base array's first element. */
typedef struct ref_view {
    int nd;
    int64_t shape[UF_MAXDIMS];
    int64_t n;
    int64_t *off;
} ref_view;

/* A slice bound: negative counts from the end, then clamped to [lo, hi]. */
static int64_t clamp(int64_t v, int64_t n, int64_t lo, int64_t hi)
{
    if (v < 0)
        v = v < lo - n ? lo : v + n; /* v + n < lo, without overflow */
    return v < lo ? lo : v > hi ? hi : v;
}

/* Python's slice.indices(n), from the language reference: defaults are the
 * ends in the step's direction, negative values count from the end, and
 * the results are clamped to the valid range ([0, n] going forward,
 * [-1, n - 1] going backward). */
static void ref_slice_indices(const uf_index *ix, int64_t n, int64_t *start,
                              int64_t *stop, int64_t *step)
{
    *step = ix->has_step ? ix->step : 1;
    if (*step > 0) {
        *start = ix->has_start ? clamp(ix->start, n, 0, n) : 0;
        *stop = ix->has_stop ? clamp(ix->stop, n, 0, n) : n;
    } else {
        *start = ix->has_start ? clamp(ix->start, n, -1, n - 1) : n - 1;
        *stop = ix->has_stop ? clamp(ix->stop, n, -1, n - 1) : -1;
    }
}

/* The positions a slice selects on an axis of length n, by enumeration. */
static int64_t ref_slice_positions(const uf_index *ix, int64_t n,
                                   int64_t *pos)
{
    int64_t start, stop, step, count = 0;
    ref_slice_indices(ix, n, &start, &stop, &step);
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
        pos[count++] = i;
    return count;
}

/* Applies a valid basic index to a reference view. Each result axis is
 * described by the input axis it reads (or -1 for a new axis) and the list
 * of input positions it visits; integers fix an input position. */
static void ref_index(const ref_view *in, const uf_index *idx, int nidx,
                      ref_view *out)
{
    int64_t fixed[UF_MAXDIMS];     /* input position, or -1 if free */
    int src[UF_MAXDIMS];           /* result axis -> input axis or -1 */
    static int64_t pos[UF_MAXDIMS][16];
    int consumed = 0, ax = 0;
    out->nd = 0;
    for (int i = 0; i < nidx; i++)
        consumed += idx[i].kind == UF_INDEX_SLICE ||
                    idx[i].kind == UF_INDEX_INTEGER;
    for (int i = 0; i < nidx; i++) {
        const uf_index *ix = &idx[i];
        if (ix->kind == UF_INDEX_INTEGER) {
            fixed[ax] = ix->start < 0 ? ix->start + in->shape[ax] : ix->start;
            ax++;
        } else if (ix->kind == UF_INDEX_SLICE) {
            fixed[ax] = -1;
            out->shape[out->nd] = ref_slice_positions(ix, in->shape[ax],
                                                      pos[out->nd]);
            src[out->nd++] = ax++;
        } else if (ix->kind == UF_INDEX_NEWAXIS) {
            out->shape[out->nd] = 1;
            src[out->nd++] = -1;
        } else {
            for (int k = 0; k < in->nd - consumed; k++) {
                fixed[ax] = -1;
                out->shape[out->nd] = in->shape[ax];
                for (int64_t p = 0; p < in->shape[ax]; p++)
                    pos[out->nd][p] = p;
                src[out->nd++] = ax++;
            }
        }
    }
    for (; ax < in->nd; ax++) {
        fixed[ax] = -1;
        out->shape[out->nd] = in->shape[ax];
        for (int64_t p = 0; p < in->shape[ax]; p++)
            pos[out->nd][p] = p;
        src[out->nd++] = ax;
    }
    out->n = 1;
    for (int k = 0; k < out->nd; k++)
        out->n *= out->shape[k];
    out->off = calloc((size_t)(out->n ? out->n : 1), sizeof(int64_t));
    assert_non_null(out->off);
    if (out->n == 0)
        return;
    int64_t ridx[UF_MAXDIMS] = {0}, r = 0;
    do {
        int64_t iidx[UF_MAXDIMS];
        for (int k = 0; k < in->nd; k++)
            iidx[k] = fixed[k];
        for (int k = 0; k < out->nd; k++)
            if (src[k] >= 0)
                iidx[src[k]] = pos[k][ridx[k]];
        int64_t flat = 0;
        for (int k = 0; k < in->nd; k++)
            flat = flat * in->shape[k] + iidx[k];
        out->off[r++] = in->off[flat];
    } while (next_index(out->nd, out->shape, ridx));
}

/* One random slice or integer for an axis of length len. */
static uf_index random_entry(int64_t len, char *item, size_t size)
{
    uf_index ix = {0};
    if (rng_range(0, 2) == 0 && len > 0) {
        ix.kind = UF_INDEX_INTEGER;
        ix.has_start = true;
        ix.start = rng_range(-len, len - 1);
        snprintf(item, size, "%" PRId64, ix.start);
        return ix;
    }
    ix.kind = UF_INDEX_SLICE;
    ix.has_start = rng_range(0, 2) > 0;
    ix.has_stop = rng_range(0, 2) > 0;
    ix.has_step = rng_range(0, 2) > 0;
    ix.start = ix.has_start ? rng_range(-len - 3, len + 3) : 0;
    ix.stop = ix.has_stop ? rng_range(-len - 3, len + 3) : 0;
    ix.step = 1;
    if (ix.has_step) {
        /* mostly negative: that is what breeds negative strides */
        static const int64_t steps[] = {-3, -2, -1, -1, -1, 1, 2, 3};
        ix.step = steps[rng_range(0, 7)];
    }
    char a[24] = "", b[24] = "", c[24] = "";
    if (ix.has_start)
        snprintf(a, sizeof a, "%" PRId64, ix.start);
    if (ix.has_stop)
        snprintf(b, sizeof b, "%" PRId64, ix.stop);
    if (ix.has_step)
        snprintf(c, sizeof c, ":%" PRId64, ix.step);
    snprintf(item, size, "%s:%s%s", a, b, c);
    return ix;
}

/* A random valid basic index for shape (nd, shape), also as text: `want`
 * axes are indexed; with an ellipsis at entry p, entries before it index
 * the leading axes and those after it the trailing ones. New axes go
 * anywhere. */
static int random_index(int nd, const int64_t *shape, uf_index *idx,
                        char *text, size_t size)
{
    int n = 0;
    int want = (int)rng_range(0, nd);
    bool ellipsis = rng_range(0, 3) == 0;
    int p = ellipsis ? (int)rng_range(0, want) : want;
    size_t len = 0;
    for (int j = 0; j <= want; j++) {
        char item[96];
        if (ellipsis && j == p) {
            idx[n++] = (uf_index){.kind = UF_INDEX_ELLIPSIS};
            len += (size_t)snprintf(text + len, size - len, "%s...",
                                    n > 1 ? ", " : "");
        }
        if (rng_range(0, 7) == 0) {
            bool np = rng_range(0, 1);
            idx[n++] = (uf_index){.kind = UF_INDEX_NEWAXIS};
            len += (size_t)snprintf(text + len, size - len, "%s%s",
                                    n > 1 ? ", " : "",
                                    np ? "np.newaxis" : "None");
        }
        if (j == want)
            break;
        int ax = j < p ? j : nd - want + j;
        idx[n++] = random_entry(shape[ax], item, sizeof item);
        len += (size_t)snprintf(text + len, size - len, "%s%s",
                                n > 1 ? ", " : "", item);
    }
    if (n == 0)
        snprintf(text, size, "()");
    return n;
}

static void check_view_against_ref(const uf_array *v, const ref_view *ref,
                                   const char *base_data, uint64_t seed,
                                   int round, const char *expr)
{
    if (uf_array_ndim(v) != ref->nd)
        fail_msg("seed %#" PRIx64 " round %d index \"%s\": ndim %d, want %d",
                 seed, round, expr, uf_array_ndim(v), ref->nd);
    for (int k = 0; k < ref->nd; k++)
        if (uf_array_shape(v)[k] != ref->shape[k])
            fail_msg("seed %#" PRIx64 " round %d index \"%s\": shape[%d] "
                     "%" PRId64 ", want %" PRId64, seed, round, expr, k,
                     uf_array_shape(v)[k], ref->shape[k]);
    if (ref->n > 0) {
        int64_t idx[UF_MAXDIMS] = {0}, r = 0;
        do {
            const char *p = elem_ptr(v, idx);
            if (p - base_data != ref->off[r])
                fail_msg("seed %#" PRIx64 " round %d index \"%s\": element "
                         "%" PRId64 " at offset %td, want %" PRId64, seed,
                         round, expr, r, p - base_data, ref->off[r]);
            r++;
        } while (next_index(ref->nd, ref->shape, idx));
    }
    int flags = uf_array_flags(v);
    if (!!(flags & UF_ARRAY_C_CONTIGUOUS) != ref_contiguous(v, false) ||
        !!(flags & UF_ARRAY_F_CONTIGUOUS) != ref_contiguous(v, true))
        fail_msg("seed %#" PRIx64 " round %d index \"%s\": contiguity flags "
                 "%#x disagree with the definition", seed, round, expr,
                 flags);
}

static void test_random_indexing(void **state)
{
    (void)state;
    static const uf_dtype dtypes[] = {UF_INT8, UF_INT16, UF_FLOAT32,
                                      UF_FLOAT64, UF_COMPLEX128};
    uint64_t seed = test_seed();
    rng_state = seed;
    long live = uf__alloc_live();
    for (int round = 0; round < 3000; round++) {
        uf_error err;
        int nd = (int)rng_range(0, 5);
        int64_t shape[UF_MAXDIMS];
        for (int k = 0; k < nd; k++)
            shape[k] = rng_range(0, 4) == 0 ? rng_range(0, 1)
                                            : rng_range(1, 4);
        uf_dtype dt = dtypes[rng_range(0, 4)];
        uf_array *base = uf_empty(dt, nd, shape, UF_ORDER_C, &err);
        uf_assert_ok(base != NULL, &err);
        /* reference offsets of the base, from C-order arithmetic only */
        ref_view cur = {.nd = nd};
        memcpy(cur.shape, shape, sizeof(int64_t) * (size_t)nd);
        cur.n = uf_array_size(base);
        cur.off = calloc((size_t)(cur.n ? cur.n : 1), sizeof(int64_t));
        for (int64_t i = 0; i < cur.n; i++)
            cur.off[i] = i * (int64_t)uf_dtype_itemsize(dt);
        const char *base_data = uf_array_data(base);
        uf_array *v = uf_array_retain(base);
        /* a chain of indexings: negative steps compound into negative and
         * non-unit strides */
        int depth = (int)rng_range(1, 3);
        for (int d = 0; d < depth; d++) {
            uf_index idx[UF_MAXDIMS * 2 + 1];
            char text[2048];
            int n = random_index(uf_array_ndim(v), uf_array_shape(v), idx,
                                 text, sizeof text);
            ref_view next;
            ref_index(&cur, idx, n, &next);
            uf_array *w = uf_array_index(v, idx, n, &err);
            if (w == NULL)
                fail_msg("seed %#" PRIx64 " round %d index \"%s\": %s", seed,
                         round, text, err.message);
            check_view_against_ref(w, &next, base_data, seed, round, text);
            /* the same index as text gives the same view */
            uf_array *t = uf_array_slice(v, text, &err);
            if (t == NULL)
                fail_msg("seed %#" PRIx64 " round %d: uf_array_slice(\"%s\"):"
                         " %s", seed, round, text, err.message);
            check_view_against_ref(t, &next, base_data, seed, round, text);
            assert_ptr_equal(uf_array_base(w), base);
            uf_array_release(t);
            uf_array_release(v);
            free(cur.off);
            cur = next;
            v = w;
        }
        free(cur.off);
        uf_array_release(v);
        uf_array_release(base);
    }
    if (uf__alloc_live() != live)
        fail_msg("seed %#" PRIx64 ": %ld allocations leaked", seed,
                 uf__alloc_live() - live);
}

int main(void)
{
    printf("views: random seed %#" PRIx64 " (set UF_TEST_SEED to change)\n",
           test_seed());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_indexing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
