/* The strided iterator against a brute-force nested loop on random
 * layouts, plus the reductions (flipping, sorting, coalescing) it must do. */
#include "test_util.h"

#include "common/alloc.h"
#include "ndarray/iter.h"

#define SEED UINT64_C(0x5eed1e7e12345678)

static const char *data_path = UF_TEST_DATA_DIR "/iter_order.txt";
#define NCASES 10000
#define MAXND 5
#define MAXOP 5 /* 4 random operands plus the index operand */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(2685821657736338717);
}

static int rnd_int(int n)
{
    return (int)(rnd() % (uint64_t)n);
}

/* One operand of a random case: its view of a private buffer. */
typedef struct operand {
    int ndim;
    int64_t shape[MAXND];
    int64_t strides[MAXND];
    char *buf;
    char *data;
} operand;

typedef struct rcase {
    int ndim;
    int64_t shape[MAXND];
    int64_t size;
    int nop;
    operand op[MAXOP];
} rcase;

/* Strides that lay the operand's axes out in a random order, with random
 * gaps and signs, or stride 0 now and then (a broadcast_to view); axes of
 * length 1 get junk strides, which the iterator must ignore. */
static void random_layout(operand *o)
{
    int perm[MAXND];
    int64_t step = 1 + rnd_int(8), lo = 0, hi = step;

    for (int i = 0; i < o->ndim; i++)
        perm[i] = i;
    for (int i = o->ndim - 1; i > 0; i--) {
        int j = rnd_int(i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int i = 0; i < o->ndim; i++) {
        int ax = perm[i];
        int64_t s = step * (rnd_int(4) == 0 ? 2 : 1);

        if (rnd_int(10) == 0)
            s = 0;
        if (rnd_int(3) == 0)
            s = -s;
        o->strides[ax] = s;
        if (o->shape[ax] > 1)
            step = (s < 0 ? -s : s) * o->shape[ax] + (s == 0 ? step : 0);
        if (o->shape[ax] > 0) {
            int64_t span = (o->shape[ax] - 1) * s;
            if (span < 0)
                lo += span;
            else
                hi += span;
        }
        if (o->shape[ax] == 1)
            o->strides[ax] = 1000 + rnd_int(1000);
    }
    o->buf = malloc((size_t)(hi - lo) + 1);
    assert_non_null(o->buf);
    o->data = o->buf - lo;
}

static void random_case(rcase *c)
{
    memset(c, 0, sizeof *c);
    c->ndim = rnd_int(MAXND + 1);
    c->size = 1;
    for (int i = 0; i < c->ndim; i++) {
        int r = rnd_int(20);
        c->shape[i] = r == 0 ? 0 : r < 5 ? 1 : 1 + rnd_int(5);
        c->size *= c->shape[i];
    }
    c->nop = 1 + rnd_int(4);
    for (int k = 0; k < c->nop; k++) {
        operand *o = &c->op[k];

        o->ndim = rnd_int(c->ndim + 1);
        for (int i = 0; i < o->ndim; i++) {
            int64_t d = c->shape[c->ndim - o->ndim + i];
            o->shape[i] = rnd_int(4) == 0 ? 1 : d;
        }
        random_layout(o);
    }
}

static void free_case(rcase *c)
{
    for (int k = 0; k < c->nop; k++)
        free(c->op[k].buf);
}

/* Adds a C-contiguous int64 operand at position `at` whose value at each
 * element is that element's C-order index. */
static int64_t *add_index_operand(rcase *c, int at)
{
    int64_t *idx = malloc((size_t)(c->size ? c->size : 1) * sizeof *idx);
    operand o = {.ndim = c->ndim};
    int64_t s = sizeof(int64_t);

    assert_non_null(idx);
    for (int64_t i = 0; i < c->size; i++)
        idx[i] = i;
    for (int i = c->ndim - 1; i >= 0; i--) {
        o.shape[i] = c->shape[i];
        o.strides[i] = s;
        s *= c->shape[i];
    }
    o.data = (char *)idx;
    memmove(&c->op[at + 1], &c->op[at], (size_t)(c->nop - at) * sizeof o);
    c->op[at] = o;
    c->nop++;
    return idx;
}

/* Brute force: the address of every operand at every element, in C order
 * (nop entries per element). */
static char **brute_force(const rcase *c)
{
    char **out = malloc((size_t)(c->size ? c->size : 1) * MAXOP *
                        sizeof *out);
    int64_t idx[MAXND] = {0};

    assert_non_null(out);
    for (int64_t e = 0; e < c->size; e++) {
        for (int k = 0; k < c->nop; k++) {
            const operand *o = &c->op[k];
            char *p = o->data;
            for (int i = 0; i < o->ndim; i++) {
                int64_t x = idx[c->ndim - o->ndim + i];
                if (o->shape[i] != 1)
                    p += x * o->strides[i];
            }
            out[e * MAXOP + k] = p;
        }
        for (int i = c->ndim - 1; i >= 0; i--) {
            if (++idx[i] < c->shape[i])
                break;
            idx[i] = 0;
        }
    }
    return out;
}

static uf__iter *make_iter(const rcase *c, unsigned flags)
{
    uf__iter_operand ops[MAXOP];
    uf_error err;
    uf__iter *it;

    for (int k = 0; k < c->nop; k++)
        ops[k] = (uf__iter_operand){c->op[k].data, c->op[k].ndim,
                                    c->op[k].shape, c->op[k].strides};
    it = uf__iter_new(c->nop, ops, c->ndim, c->shape, flags, &err);
    uf_assert_ok(it != NULL, &err);
    return it;
}

/* Visits strips [begin, end) and appends nop pointers per element to
 * `seq` starting at element *n. */
static void visit(const uf__iter *it, int64_t begin, int64_t end,
                  char **seq, int64_t *n, int64_t cap)
{
    uf__iter_cursor cur;
    char *p[MAXOP];
    const int64_t *st = uf__iter_strip_strides(it);
    int64_t len = uf__iter_strip_len(it);
    int nop = uf__iter_nop(it);

    uf__iter_range(it, begin, end, &cur);
    while (uf__iter_next(it, &cur, p)) {
        for (int64_t j = 0; j < len; j++) {
            if (*n >= cap)
                fail_msg("more elements visited than the %lld expected",
                         (long long)cap);
            for (int k = 0; k < nop; k++)
                seq[*n * MAXOP + k] = p[k] + j * st[k];
            (*n)++;
        }
    }
}

static int cmp_tuple(const void *a, const void *b)
{
    const char *const *x = a, *const *y = b;
    for (int k = 0; k < MAXOP; k++) {
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    }
    return 0;
}

#define CASE_FAIL(...)                                                      \
    do {                                                                    \
        print_error("seed %#llx case %d flags %u: ",                        \
                    (unsigned long long)SEED, ci, flags);                  \
        fail_msg(__VA_ARGS__);                                              \
    } while (0)

/* Runs one iteration of case `ci` and checks it against brute force:
 * with an index operand every element maps to its brute-force pointers;
 * without, the multiset of pointer tuples matches; with C_ORDER the
 * sequence matches exactly; split into k ranges it matches one range. */
static void check_case(const rcase *c, int ci, unsigned flags, int index_at,
                       char **want)
{
    uf__iter *it = make_iter(c, flags);
    int64_t cap = c->size, n = 0, n2 = 0;
    char **seq = calloc((size_t)(cap ? cap : 1) * MAXOP, sizeof *seq);
    char **seq2 = calloc((size_t)(cap ? cap : 1) * MAXOP, sizeof *seq2);
    int64_t nstrips = uf__iter_nstrips(it);

    assert_non_null(seq);
    assert_non_null(seq2);
    if (nstrips * uf__iter_strip_len(it) != c->size)
        CASE_FAIL("%lld strips of %lld for %lld elements",
                  (long long)nstrips, (long long)uf__iter_strip_len(it),
                  (long long)c->size);
    visit(it, 0, nstrips, seq, &n, cap);
    if (n != c->size)
        CASE_FAIL("visited %lld of %lld", (long long)n, (long long)c->size);

    if (flags & UF__ITER_C_ORDER) {
        for (int64_t e = 0; e < n; e++)
            for (int k = 0; k < c->nop; k++)
                if (seq[e * MAXOP + k] != want[e * MAXOP + k])
                    CASE_FAIL("C order: element %lld operand %d",
                              (long long)e, k);
    }
    if (index_at >= 0) {
        char *seen = calloc((size_t)(cap ? cap : 1), 1);
        assert_non_null(seen);
        for (int64_t e = 0; e < n; e++) {
            int64_t id = *(const int64_t *)seq[e * MAXOP + index_at];
            if (id < 0 || id >= cap || seen[id])
                CASE_FAIL("element %lld visited twice", (long long)id);
            seen[id] = 1;
            for (int k = 0; k < c->nop; k++)
                if (seq[e * MAXOP + k] != want[id * MAXOP + k])
                    CASE_FAIL("element %lld operand %d: wrong pointer",
                              (long long)id, k);
        }
        free(seen);
    }

    /* Random split points: the concatenation is the same sequence. */
    {
        int k = 1 + rnd_int(5);
        int64_t cut[7];
        cut[0] = 0;
        for (int i = 1; i < k; i++)
            cut[i] = nstrips ? (int64_t)(rnd() % (uint64_t)(nstrips + 1)) : 0;
        cut[k] = nstrips;
        for (int i = 1; i < k; i++) /* sort the cuts */
            for (int j = i; j > 0 && cut[j - 1] > cut[j]; j--) {
                int64_t t = cut[j];
                cut[j] = cut[j - 1];
                cut[j - 1] = t;
            }
        for (int i = 0; i < k; i++)
            visit(it, cut[i], cut[i + 1], seq2, &n2, cap);
        if (n2 != n || memcmp(seq, seq2, (size_t)n * MAXOP * sizeof *seq))
            CASE_FAIL("%d ranges differ from one range", k);
    }

    /* Multiset of pointer tuples (all of them, index operand or not). */
    qsort(seq, (size_t)n, MAXOP * sizeof *seq, cmp_tuple);
    {
        char **w = malloc((size_t)(cap ? cap : 1) * MAXOP * sizeof *w);
        assert_non_null(w);
        memcpy(w, want, (size_t)cap * MAXOP * sizeof *w);
        for (int64_t e = 0; e < cap; e++)
            for (int k = c->nop; k < MAXOP; k++)
                w[e * MAXOP + k] = NULL;
        qsort(w, (size_t)cap, MAXOP * sizeof *w, cmp_tuple);
        if (memcmp(seq, w, (size_t)cap * MAXOP * sizeof *w))
            CASE_FAIL("pointer tuples differ from brute force");
        free(w);
    }
    free(seq);
    free(seq2);
    uf__iter_free(it);
}

static void test_random_against_brute_force(void **state)
{
    (void)state;
    rng_state = SEED;
    for (int ci = 0; ci < NCASES; ci++) {
        rcase c;
        int64_t *idx = NULL;
        int index_at = -1;
        char **want;

        random_case(&c);
        if (ci % 2 == 0) {
            index_at = rnd_int(c.nop + 1);
            idx = add_index_operand(&c, index_at);
        }
        want = brute_force(&c);
        for (unsigned flags = 0; flags <= UF__ITER_C_ORDER; flags++)
            check_case(&c, ci, flags, index_at, want);
        free(want);
        free(idx);
        free_case(&c); /* the index operand's buf is NULL */
    }
}

/* A single operand whose memory has no gaps is one strip in K order, read
 * forward, whatever the axis order and signs. */
static void test_dense_single_operand_is_one_strip(void **state)
{
    (void)state;
    rng_state = SEED ^ 1;
    for (int ci = 0; ci < 500; ci++) {
        operand o = {.ndim = 1 + rnd_int(MAXND)};
        int perm[MAXND];
        int64_t step = 4, lo = 0, size = 1;
        uf__iter_operand op;
        uf__iter_cursor cur;
        uf_error err;
        char *p;

        for (int i = 0; i < o.ndim; i++) {
            o.shape[i] = 1 + rnd_int(4);
            size *= o.shape[i];
            perm[i] = i;
        }
        for (int i = o.ndim - 1; i > 0; i--) {
            int j = rnd_int(i + 1), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int i = 0; i < o.ndim; i++) {
            int ax = perm[i];
            int64_t s = rnd_int(2) ? -step : step;
            o.strides[ax] = s;
            if (s < 0)
                lo += (o.shape[ax] - 1) * s;
            step *= o.shape[ax];
        }
        o.buf = malloc((size_t)step);
        assert_non_null(o.buf);
        o.data = o.buf - lo;
        op = (uf__iter_operand){o.data, o.ndim, o.shape, o.strides};
        uf__iter *it = uf__iter_new(1, &op, o.ndim, o.shape, 0, &err);
        uf_assert_ok(it != NULL, &err);
        uf__iter_range(it, 0, uf__iter_nstrips(it), &cur);
        assert_true(uf__iter_next(it, &cur, &p));
        if (uf__iter_nstrips(it) != 1 || uf__iter_strip_len(it) != size ||
            (size > 1 && uf__iter_strip_strides(it)[0] != 4) ||
            p != o.buf)
            fail_msg("seed %#llx case %d: %lld strips of %lld, stride %lld",
                     (unsigned long long)(SEED ^ 1), ci,
                     (long long)uf__iter_nstrips(it),
                     (long long)uf__iter_strip_len(it),
                     (long long)uf__iter_strip_strides(it)[0]);
        assert_false(uf__iter_next(it, &cur, &p));
        uf__iter_free(it);
        free(o.buf);
    }
}

/* Hand-checked layouts: how many strips, how long, which strides and
 * where the first strip starts (byte offset from each operand's data). */
typedef struct layout_row {
    const char *file;
    int line;
    unsigned flags;
    int ndim;
    int64_t shape[4];
    int nop;
    struct {
        int ndim;
        int64_t shape[4];
        int64_t strides[4];
    } op[3];
    int64_t nstrips, strip_len;
    int64_t strip_strides[3];
    int64_t first[3];  /* offset of the first strip's pointers */
    int64_t second[3]; /* offset of the second strip's, when nstrips > 1 */
} layout_row;

static const layout_row layout_rows[] = {
    /* contiguous 3-d: one strip */
    {LOC, 0, 3, {2, 3, 4}, 1, {{3, {2, 3, 4}, {96, 32, 8}}},
     1, 24, {8}, {0}, {0}},
    /* its transpose (F order): still one strip in K order */
    {LOC, 0, 3, {4, 3, 2}, 1, {{3, {4, 3, 2}, {8, 32, 96}}},
     1, 24, {8}, {0}, {0}},
    /* ... but C order walks the last axis innermost: no coalescing */
    {LOC, UF__ITER_C_ORDER, 3, {4, 3, 2}, 1, {{3, {4, 3, 2}, {8, 32, 96}}},
     12, 2, {96}, {0}, {32}},
    /* C order still coalesces a C-contiguous array */
    {LOC, UF__ITER_C_ORDER, 3, {2, 3, 4}, 1, {{3, {2, 3, 4}, {96, 32, 8}}},
     1, 24, {8}, {0}, {0}},
    /* reversed 1-d: flipped to go forward from the lowest address */
    {LOC, 0, 1, {5}, 1, {{1, {5}, {-8}}}, 1, 5, {8}, {-32}, {0}},
    {LOC, UF__ITER_C_ORDER, 1, {5}, 1, {{1, {5}, {-8}}}, 1, 5, {-8}, {0},
     {0}},
    /* a[::-1, ::-1] of a C (3, 4) array */
    {LOC, 0, 2, {3, 4}, 1, {{2, {3, 4}, {-32, -8}}}, 1, 12, {8}, {-88},
     {0}},
    /* a[:, ::2] of a (3, 8) array: evenly spaced, one strip */
    {LOC, 0, 2, {3, 4}, 1, {{2, {3, 4}, {64, 16}}}, 1, 12, {16}, {0},
     {0}},
    /* a[:, :4] of a (3, 8) array: the gap stops coalescing */
    {LOC, 0, 2, {3, 4}, 1, {{2, {3, 4}, {64, 8}}}, 3, 4, {8}, {0},
     {64}},
    /* length-1 axes with junk strides are dropped */
    {LOC, 0, 3, {1, 5, 1}, 1, {{3, {1, 5, 1}, {777, 8, 999}}}, 1, 5, {8},
     {0}, {0}},
    /* a row broadcast against a C matrix: one strip per row */
    {LOC, 0, 2, {3, 4}, 2, {{2, {3, 4}, {32, 8}}, {1, {4}, {8}}}, 3, 4,
     {8, 8}, {0, 0}, {32, 0}},
    /* a column (3, 1) broadcast: stride 0 inside the strip */
    {LOC, 0, 2, {3, 4}, 2, {{2, {3, 4}, {32, 8}}, {2, {3, 1}, {8, 8}}}, 3,
     4, {8, 0}, {0, 0}, {32, 8}},
    /* a scalar operand (0-d) with a C matrix: one strip, stride 0 */
    {LOC, 0, 2, {3, 4}, 2, {{2, {3, 4}, {32, 8}}, {0, {0}, {0}}}, 1, 12,
     {8, 0}, {0, 0}, {0, 0}},
    /* C and F operands disagree: C order wins */
    {LOC, 0, 2, {3, 4}, 2, {{2, {3, 4}, {32, 8}}, {2, {3, 4}, {8, 24}}}, 3,
     4, {8, 24}, {0, 0}, {32, 8}},
    {LOC, 0, 2, {3, 4}, 2, {{2, {3, 4}, {8, 24}}, {2, {3, 4}, {32, 8}}}, 3,
     4, {24, 8}, {0, 0}, {8, 32}},
    /* both F: the first axis goes innermost and coalesces */
    {LOC, 0, 2, {3, 4}, 2, {{2, {3, 4}, {8, 24}}, {2, {3, 4}, {4, 12}}}, 1,
     12, {8, 4}, {0, 0}, {0, 0}},
    /* sorting looks past an axis it cannot compare (stride 0) and moves
     * the F axis inside, where it coalesces with the last one */
    {LOC, 0, 3, {2, 3, 4}, 1, {{3, {2, 1, 4}, {8, 0, 16}}}, 3, 8, {8}, {0},
     {0}},
    /* equal strides are a tie for the first operand: C order stays */
    {LOC, 0, 2, {3, 4}, 2, {{2, {3, 4}, {8, 8}}, {2, {3, 4}, {8, 24}}}, 3,
     4, {8, 24}, {0, 0}, {8, 8}},
    /* one operand reversed, the other not: no flip */
    {LOC, 0, 1, {4}, 2, {{1, {4}, {-8}}, {1, {4}, {8}}}, 1, 4, {-8, 8},
     {0, 0}, {0, 0}},
    /* reversed rows where the other operand broadcasts: flipped, and then
     * the rows line up into one strip */
    {LOC, 0, 2, {2, 4}, 2, {{2, {2, 4}, {32, -8}}, {1, {1}, {0}}}, 1, 8,
     {8, 0}, {-24, 0}, {0}},
    /* flipped axes stay flipped when they cannot coalesce */
    {LOC, 0, 2, {2, 4}, 2, {{2, {2, 4}, {-64, -8}}, {1, {4}, {-4}}}, 2, 4,
     {8, 4}, {-88, -12}, {-24, -12}},
    /* 0-d: one strip of one element */
    {LOC, 0, 0, {0}, 1, {{0, {0}, {0}}}, 1, 1, {0}, {0}, {0}},
    {LOC, UF__ITER_C_ORDER, 0, {0}, 1, {{0, {0}, {0}}}, 1, 1, {0}, {0},
     {0}},
    /* empty */
    {LOC, 0, 2, {3, 0}, 1, {{2, {3, 0}, {8, 8}}}, 0, 0, {0}, {0}, {0}},
    {LOC, 0, 3, {0, 5, 6}, 2, {{3, {0, 5, 6}, {8, 8, 8}}, {1, {6}, {8}}},
     0, 0, {0, 0}, {0}, {0}},
};

static void test_layouts(void **state)
{
    (void)state;
    static char buf[4096];
    char *base = buf + 2048;

    for (size_t r = 0; r < sizeof layout_rows / sizeof layout_rows[0]; r++) {
        const layout_row *w = &layout_rows[r];
        uf__iter_operand ops[3];
        uf__iter_cursor cur;
        char *p[3];
        uf_error err;
        uf__iter *it;

        for (int k = 0; k < w->nop; k++)
            ops[k] = (uf__iter_operand){base + 128 * k, w->op[k].ndim,
                                        w->op[k].shape, w->op[k].strides};
        it = uf__iter_new(w->nop, ops, w->ndim, w->shape, w->flags, &err);
        if (it == NULL)
            uf_fail_at(w->file, w->line, "%s", err.message);
        if (uf__iter_nstrips(it) != w->nstrips ||
            uf__iter_strip_len(it) != w->strip_len)
            uf_fail_at(w->file, w->line, "%lld strips of %lld",
                       (long long)uf__iter_nstrips(it),
                       (long long)uf__iter_strip_len(it));
        uf__iter_range(it, 0, uf__iter_nstrips(it), &cur);
        if (w->nstrips == 0) {
            if (uf__iter_next(it, &cur, p))
                uf_fail_at(w->file, w->line, "a strip in an empty space");
            uf__iter_free(it);
            continue;
        }
        for (int k = 0; k < w->nop; k++)
            if (uf__iter_strip_strides(it)[k] != w->strip_strides[k])
                uf_fail_at(w->file, w->line, "operand %d strip stride %lld",
                           k, (long long)uf__iter_strip_strides(it)[k]);
        assert_true(uf__iter_next(it, &cur, p));
        for (int k = 0; k < w->nop; k++)
            if (p[k] - ops[k].data != w->first[k])
                uf_fail_at(w->file, w->line, "operand %d starts at %lld", k,
                           (long long)(p[k] - ops[k].data));
        if (w->nstrips > 1) {
            assert_true(uf__iter_next(it, &cur, p));
            for (int k = 0; k < w->nop; k++)
                if (p[k] - ops[k].data != w->second[k])
                    uf_fail_at(w->file, w->line,
                               "operand %d second strip at %lld", k,
                               (long long)(p[k] - ops[k].data));
        }
        uf__iter_free(it);
    }
}

/* Many operands (more than any fixed small array would hold). */
static void test_many_operands(void **state)
{
    (void)state;
    enum { NOP = 40 };
    static double data[NOP][6];
    uf__iter_operand ops[NOP];
    int64_t shape[2] = {2, 3}, strides[2] = {24, 8};
    int64_t bstrides[2] = {0, 8}, bshape[2] = {1, 3};
    char *p[NOP];
    uf__iter_cursor cur;
    uf_error err;

    for (int k = 0; k < NOP; k++)
        ops[k] = (uf__iter_operand){(char *)data[k], 2, shape, strides};
    uf__iter *it = uf__iter_new(NOP, ops, 2, shape, 0, &err);
    uf_assert_ok(it != NULL, &err);
    assert_int_equal(uf__iter_nop(it), NOP);
    assert_int_equal(uf__iter_nstrips(it), 1);
    assert_int_equal(uf__iter_strip_len(it), 6);
    uf__iter_range(it, 0, 1, &cur);
    assert_true(uf__iter_next(it, &cur, p));
    for (int k = 0; k < NOP; k++)
        assert_ptr_equal(p[k], data[k]);
    uf__iter_free(it);

    /* the last operand broadcast along the rows breaks coalescing */
    ops[NOP - 1] = (uf__iter_operand){(char *)data[NOP - 1], 2, bshape,
                                      bstrides};
    it = uf__iter_new(NOP, ops, 2, shape, 0, &err);
    uf_assert_ok(it != NULL, &err);
    assert_int_equal(uf__iter_nstrips(it), 2);
    assert_int_equal(uf__iter_strip_len(it), 3);
    uf__iter_range(it, 1, 2, &cur);
    assert_true(uf__iter_next(it, &cur, p));
    assert_ptr_equal(p[0], data[0] + 3);
    assert_ptr_equal(p[NOP - 1], data[NOP - 1]);
    assert_false(uf__iter_next(it, &cur, p));
    uf__iter_free(it);

    /* no operands: just the shape */
    it = uf__iter_new(0, NULL, 2, shape, 0, &err);
    uf_assert_ok(it != NULL, &err);
    assert_int_equal(uf__iter_nstrips(it), 1);
    assert_int_equal(uf__iter_strip_len(it), 6);
    uf__iter_free(it);
}

/* Ranges are clamped to [0, nstrips]; each cursor is independent; the
 * odometer carries between two outer dimensions. */
static void test_ranges(void **state)
{
    (void)state;
    static double data[4][6][6];
    int64_t shape[3] = {4, 5, 3}, strides[3] = {288, 48, 8};
    uf__iter_operand op = {(char *)data, 3, shape, strides};
    uf__iter_cursor a, b;
    char *p, *q;
    uf_error err;
    int64_t n = 0;

    uf__iter *it = uf__iter_new(1, &op, 3, shape, 0, &err);
    uf_assert_ok(it != NULL, &err);
    assert_int_equal(uf__iter_nstrips(it), 20);
    assert_int_equal(uf__iter_strip_len(it), 3);

    uf__iter_range(it, 9, 11, &a);
    uf__iter_range(it, 13, 14, &b);
    assert_true(uf__iter_next(it, &a, &p));
    assert_true(uf__iter_next(it, &b, &q));
    assert_ptr_equal(p, &data[1][4][0]);
    assert_ptr_equal(q, &data[2][3][0]);
    assert_true(uf__iter_next(it, &a, &p));
    assert_ptr_equal(p, &data[2][0][0]);
    assert_false(uf__iter_next(it, &a, &p));
    assert_false(uf__iter_next(it, &b, &q));

    uf__iter_range(it, -5, 100, &a);
    while (uf__iter_next(it, &a, &p)) {
        assert_ptr_equal(p, &data[n / 5][n % 5][0]);
        n++;
    }
    assert_int_equal(n, 20);
    uf__iter_range(it, 9, 3, &a);
    assert_false(uf__iter_next(it, &a, &p));
    uf__iter_range(it, 20, 20, &a);
    assert_false(uf__iter_next(it, &a, &p));
    uf__iter_free(it);
}

static void test_errors(void **state)
{
    (void)state;
    int64_t shape[2] = {2, 3}, bad[2] = {2, 4}, strides[2] = {24, 8};
    int64_t neg[2] = {2, -1}, huge[2] = {INT64_C(1) << 40, INT64_C(1) << 40};
    int64_t zero[2] = {0, 0};
    uf__iter_operand op = {NULL, 2, bad, strides};
    uf_error err;

    assert_null(uf__iter_new(1, &op, 2, shape, 0, &err));
    assert_int_equal(err.code, UF_ERR_SHAPE);
    assert_string_equal(err.message, "operand 0 with shape (2, 4) cannot be "
                                     "broadcast to the iteration shape "
                                     "(2, 3)");
    op.shape = shape;
    assert_null(uf__iter_new(1, &op, 1, shape + 1, 0, &err));
    assert_int_equal(err.code, UF_ERR_SHAPE);
    assert_null(uf__iter_new(0, NULL, 2, neg, 0, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_null(uf__iter_new(0, NULL, 2, huge, 0, &err));
    assert_int_equal(err.code, UF_ERR_OVERFLOW);
    assert_null(uf__iter_new(0, NULL, UF_MAXDIMS + 1, shape, 0, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf__iter_new(-1, NULL, 2, shape, 0, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf__iter_new(1, &op, 2, shape, 1u << 7, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    op.ndim = -1;
    assert_null(uf__iter_new(1, &op, 2, shape, 0, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);

    /* an empty space may still be huge in its other dimensions */
    huge[1] = 0;
    uf__iter *it = uf__iter_new(0, NULL, 2, huge, 0, &err);
    uf_assert_ok(it != NULL, &err);
    assert_int_equal(uf__iter_nstrips(it), 0);
    uf__iter_free(it);
    it = uf__iter_new(0, NULL, 2, zero, 0, &err);
    uf_assert_ok(it != NULL, &err);
    assert_int_equal(uf__iter_nstrips(it), 0);
    uf__iter_free(it);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    int64_t shape[2] = {2, 3}, strides[2] = {24, 8};
    uf__iter_operand op = {NULL, 2, shape, strides};
    long live = uf__alloc_live();
    uf_error err;

    uf__alloc_fail_at(1);
    assert_null(uf__iter_new(1, &op, 2, shape, 0, &err));
    uf__alloc_fail_at(0);
    assert_int_equal(err.code, UF_ERR_NOMEM);
    assert_int_equal(uf__alloc_live(), live);
    uf__iter *it = uf__iter_new(1, &op, 2, shape, 0, &err);
    uf_assert_ok(it != NULL, &err);
    uf__iter_free(it);
    assert_int_equal(uf__alloc_live(), live);
}

/* ---- NumPy's nditer(order='K', flags=['external_loop']) as the oracle */

static int parse_list(const char *s, int64_t *out, int max)
{
    int n = 0;

    while (*s != '\0' && *s != ';' && *s != '|') {
        char *end;
        assert_true(n < max);
        out[n++] = strtoll(s, &end, 10);
        assert_true(end != s);
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* The next ';'- or '|'-separated part of *s. */
static const char *next_part(const char **s)
{
    const char *start = *s;

    *s += strcspn(*s, ";|");
    if (**s != '\0')
        (*s)++;
    return start;
}

/* One line: every strip of ufjit's iterator starts where the matching
 * row of NumPy's iterator views starts, in the same order. */
static void run_numpy_case(const char *file, int line, const char *s)
{
    int64_t shape[MAXND], itshape[MAXND], opshape[MAXOP][MAXND];
    int64_t opstrides[MAXOP][MAXND], itstrides[MAXOP][MAXND];
    int64_t itoff[MAXOP], nouter = 1;
    int ndim, nop, itnd;
    uf__iter_operand ops[MAXOP];
    char *bufs[MAXOP];
    uf__iter_cursor cur;
    char *p[MAXOP];
    uf_error err;

    ndim = parse_list(next_part(&s), shape, MAXND);
    nop = atoi(next_part(&s));
    assert_true(nop >= 1 && nop <= MAXOP);
    for (int k = 0; k < nop; k++) {
        int64_t nbytes = strtoll(next_part(&s), NULL, 10);
        int64_t offset = strtoll(next_part(&s), NULL, 10);
        int n = parse_list(next_part(&s), opshape[k], MAXND);

        assert_int_equal(parse_list(next_part(&s), opstrides[k], MAXND), n);
        bufs[k] = malloc((size_t)nbytes);
        assert_non_null(bufs[k]);
        ops[k] = (uf__iter_operand){bufs[k] + offset, n, opshape[k],
                                    opstrides[k]};
    }
    itnd = parse_list(next_part(&s), itshape, MAXND);
    for (int k = 0; k < nop; k++) {
        itoff[k] = strtoll(next_part(&s), NULL, 10);
        assert_int_equal(parse_list(next_part(&s), itstrides[k], MAXND),
                         itnd);
    }
    for (int d = 0; d + 1 < itnd; d++)
        nouter *= itshape[d];

    uf__iter *it = uf__iter_new(nop, ops, ndim, shape, 0, &err);
    if (it == NULL)
        uf_fail_at(file, line, "%s", err.message);
    if (uf__iter_strip_len(it) != itshape[itnd - 1] ||
        uf__iter_nstrips(it) != nouter)
        uf_fail_at(file, line, "%lld strips of %lld, NumPy %lld of %lld",
                   (long long)uf__iter_nstrips(it),
                   (long long)uf__iter_strip_len(it), (long long)nouter,
                   (long long)itshape[itnd - 1]);
    for (int k = 0; k < nop; k++)
        if (uf__iter_strip_strides(it)[k] != itstrides[k][itnd - 1])
            uf_fail_at(file, line, "operand %d strip stride %lld, NumPy %lld",
                       k, (long long)uf__iter_strip_strides(it)[k],
                       (long long)itstrides[k][itnd - 1]);
    uf__iter_range(it, 0, nouter, &cur);
    for (int64_t strip = 0; uf__iter_next(it, &cur, p); strip++) {
        int64_t rest = strip;
        int64_t want[MAXOP];

        for (int k = 0; k < nop; k++)
            want[k] = itoff[k];
        for (int d = itnd - 2; d >= 0; d--) {
            for (int k = 0; k < nop; k++)
                want[k] += (rest % itshape[d]) * itstrides[k][d];
            rest /= itshape[d];
        }
        for (int k = 0; k < nop; k++)
            if (p[k] - bufs[k] != want[k])
                uf_fail_at(file, line,
                           "strip %lld operand %d at %lld, NumPy %lld",
                           (long long)strip, k, (long long)(p[k] - bufs[k]),
                           (long long)want[k]);
    }
    uf__iter_free(it);
    for (int k = 0; k < nop; k++)
        free(bufs[k]);
}

static void test_numpy_order(void **state)
{
    (void)state;
    FILE *f = fopen(data_path, "r");
    static char line[4096];
    int lineno = 0, ncases = 0;

    if (f == NULL)
        fail_msg("cannot open %s", data_path);
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        run_numpy_case(data_path, lineno, line);
        ncases++;
    }
    fclose(f);
    if (ncases < 100)
        fail_msg("%s: only %d cases", data_path, ncases);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_brute_force),
        cmocka_unit_test(test_dense_single_operand_is_one_strip),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_many_operands),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_numpy_order),
    };
    if (argc > 1)
        data_path = argv[1];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
