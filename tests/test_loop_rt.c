/* uf__rt_loop (targets/cpu/loop_rt.c), the dispatcher every vectorize
 * loop runs through, against a sequential reference: one element after the
 * other, inputs read then outputs written, as NumPy's inner loop does.
 * Hand-written C contig loops stand in for generated ones; they combine
 * the bytes of their inputs into each output, so any element read from the
 * wrong place, written twice or missed shows up in the bytes compared.
 *
 * Covered: itemsizes 1/2/4/8/16 (the specialised copies) and 3/12/32 (the
 * generic ones), strides unit, 0 (broadcast inputs and stride-0 outputs),
 * +-2, -1, 3, odd byte strides (unaligned elements), sizes 0..5000 around
 * every chunk boundary, outputs aliasing an input exactly or partially
 * (the element-by-element path), contig's status on every path, and which
 * operands the buffered path passes in place; and the strided slot
 * (compiler/host/jit_strided.h): which strips take its fused loop, when its
 * compile hook runs (once; again after a retry; never after a refusal). */
#include "test_util.h"

#include "common/alloc.h"
#include "compiler/host/jit.h"
#include "compiler/host/jit_strided.h"
#include "targets/cpu/cpu.h"
#include "targets/cpu/strided_slot.h"

#define MAXOPS 6

/* The descriptor the contig loops below read their itemsizes from (tests
 * run one at a time). */
static const uf__loop_desc *cur;
static int fail_at_marker; /* contig returns 5 on an input byte 0xEE */

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

/* One element of every output from one element of every input. */
static int element(char **p, int64_t i)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int64_t k = 0; k < cur->nin; k++) {
        const unsigned char *e =
            (const unsigned char *)p[k] + i * cur->itemsize[k];
        for (int64_t b = 0; b < cur->itemsize[k]; b++) {
            if (fail_at_marker && e[b] == 0xEE)
                return 5;
            h = mix(h + e[b] + 1 + (uint64_t)k * 131);
        }
    }
    for (int64_t k = cur->nin; k < cur->nargs; k++) {
        unsigned char *e = (unsigned char *)p[k] + i * cur->itemsize[k];
        uint64_t g = mix(h + (uint64_t)k);
        for (int64_t b = 0; b < cur->itemsize[k]; b++) {
            e[b] = (unsigned char)(g >> (8 * (b % 8)));
            if (b % 8 == 7)
                g = mix(g);
        }
    }
    return 0;
}

/* The calls contig received, for the tests of the paths. */
#define LOGMAX 128
static int64_t log_n[LOGMAX];
static char *log_ptrs[LOGMAX][MAXOPS];
static int nlog;

static int contig(int64_t n, char **ptrs)
{
    if (nlog < LOGMAX) {
        log_n[nlog] = n;
        memcpy(log_ptrs[nlog], ptrs, sizeof(char *) * (size_t)cur->nargs);
    }
    nlog++;
    for (int64_t i = 0; i < n; i++) {
        int rc = element(ptrs, i);
        if (rc)
            return rc;
    }
    return 0;
}

static uf__loop_desc *new_desc(int nin, int nout, const int64_t *isz)
{
    uf__loop_desc *d = uf__malloc(
        1, sizeof *d + sizeof(int64_t) * (size_t)(nin + nout), NULL);
    assert_non_null(d);
    d->contig = contig;
    d->strided = NULL;
    d->nin = nin;
    d->nargs = nin + nout;
    d->block = 0;
    for (int k = 0; k < nin + nout; k++)
        d->itemsize[k] = isz[k];
    return d;
}

/* Sequential reference: element i's inputs, then its outputs. */
static int reference(const uf__loop_desc *d, char **data,
                     const int64_t *strides, int64_t n)
{
    char *p[MAXOPS];
    for (int64_t i = 0; i < n; i++) {
        for (int64_t k = 0; k < d->nargs; k++)
            p[k] = data[k] + i * strides[k];
        int rc = element(p, 0);
        if (rc)
            return rc;
    }
    return 0;
}

static uint64_t rng = 0x1234567887654321ULL;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const int64_t SIZES[] = {0,   1,   2,   3,    7,    8,    15,   16,
                                17,  63,  64,  65,   127,  128,  129,  255,
                                256, 257, 511, 512,  513,  1023, 1024, 1025,
                                2047, 2048, 2049, 4095, 4096, 4097, 5000};
static const int64_t ITEMSIZES[] = {1, 2, 4, 8, 16, 3, 12, 32};

/* A random stride for an operand of itemsize isz; 0 only when allowed. */
static int64_t pick_stride(int64_t isz, bool zero)
{
    switch (next() % (zero ? 9 : 8)) {
    case 0: case 1: return isz;
    case 2: return 2 * isz;
    case 3: return -isz;
    case 4: return -2 * isz;
    case 5: return 3 * isz;
    case 6: return isz + 1; /* unaligned elements */
    case 7: return -(2 * isz + 3);
    default: return 0;
    }
}

/* Runs one configuration on two copies of an arena, dispatcher and
 * reference, and compares the arenas byte for byte. `alias`: 0 outputs
 * apart, 1 output 0 is input 0 (same stride), 2 output 0 starts a few
 * bytes into input 0's span (partial overlap). */
static void run_config(int nin, int nout, const int64_t *isz,
                       const int64_t *strides, int64_t n, int alias)
{
    int nargs = nin + nout;
    uf__loop_desc *d = new_desc(nin, nout, isz);
    int64_t off[MAXOPS], total = 64;
    for (int k = 0; k < nargs; k++) {
        int64_t s = strides[k], ext = n > 0 ? (n - 1) * (s < 0 ? -s : s) : 0;
        off[k] = total + (s < 0 ? ext : 0);
        total += ext + isz[k] + 8 + (int64_t)(next() % 24);
    }
    if (alias == 1)
        off[nin] = off[0];
    else if (alias == 2)
        off[nin] = off[0] + 1 + (int64_t)(next() % 7);
    unsigned char *a = uf__malloc((size_t)total, 1, NULL);
    unsigned char *b = uf__malloc((size_t)total, 1, NULL);
    assert_non_null(a);
    assert_non_null(b);
    for (int64_t i = 0; i < total; i++)
        a[i] = (unsigned char)(next() % 0xED); /* no 0xEE marker */
    memcpy(b, a, (size_t)total);
    char *da[MAXOPS], *db[MAXOPS];
    for (int k = 0; k < nargs; k++) {
        da[k] = (char *)a + off[k];
        db[k] = (char *)b + off[k];
    }
    cur = d;
    int64_t dims[1] = {n};
    int rc = uf__rt_loop(d, NULL, da, dims, strides);
    int rr = reference(d, db, strides, n);
    if (rc != rr || memcmp(a, b, (size_t)total) != 0) {
        int64_t first = 0;
        while (first < total && a[first] == b[first])
            first++;
        print_error("nin %d nout %d n %lld alias %d: status %d vs %d, first "
                    "differing byte %lld of %lld\n", nin, nout, (long long)n,
                    alias, rc, rr, (long long)first, (long long)total);
        for (int k = 0; k < nargs; k++)
            print_error("  operand %d itemsize %lld stride %lld offset %lld\n",
                        k, (long long)isz[k], (long long)strides[k],
                        (long long)off[k]);
        fail();
    }
    uf__free(a);
    uf__free(b);
    uf__free(d);
}

/* Random operand counts, itemsizes and strides at every size. */
static void test_random_against_reference(void **state)
{
    (void)state;
    for (size_t si = 0; si < sizeof SIZES / sizeof *SIZES; si++)
        for (int rep = 0; rep < 24; rep++) {
            int nin = 1 + (int)(next() % 3), nout = 1 + (int)(next() % 2);
            int64_t isz[MAXOPS], st[MAXOPS];
            int64_t same = ITEMSIZES[next() % 8]; /* half: one itemsize */
            for (int k = 0; k < nin + nout; k++) {
                isz[k] = rep % 2 ? same : ITEMSIZES[next() % 8];
                st[k] = pick_stride(isz[k], k < nin || rep % 5 == 4);
            }
            int alias = rep % 6 == 1 ? 1 : rep % 6 == 3 ? 2 : 0;
            if (alias) {
                isz[nin] = isz[0];
                st[nin] = st[0] == 0 ? isz[0] : st[0];
                if (st[0] == 0)
                    st[0] = isz[0];
            }
            run_config(nin, nout, isz, st, SIZES[si], alias);
        }
}

/* Every itemsize with each stride pattern of the benchmarks: x[::2] + y
 * [::2], x[::-1], broadcast scalars, strided outputs, many buffers. */
static void test_patterns(void **state)
{
    (void)state;
    for (size_t ii = 0; ii < sizeof ITEMSIZES / sizeof *ITEMSIZES; ii++) {
        int64_t s = ITEMSIZES[ii];
        int64_t isz[MAXOPS] = {s, s, s, s, s, s};
        const int64_t pats[][4] = {
            {2 * s, 2 * s, s, 0},  {-s, -s, s, 0},      {0, s, s, 0},
            {s, 0, s, 0},          {0, 0, s, 0},        {2 * s, 0, -s, 0},
            {s, s, 2 * s, 0},      {s, s, 0, 0},        {-s, 2 * s, 3 * s, 0},
            {0, 2 * s, 2 * s, 0}};
        for (size_t p = 0; p < sizeof pats / sizeof *pats; p++)
            for (size_t si = 0; si < sizeof SIZES / sizeof *SIZES; si++)
                run_config(2, 1, isz, pats[p], SIZES[si], 0);
        /* 5 inputs and an output all gathered, then 3 + 3 */
        const int64_t many[MAXOPS] = {2 * s, -s, 3 * s, 0, -2 * s, 2 * s};
        run_config(5, 1, isz, many, 3000, 0);
        run_config(3, 3, isz, many, 3000, 0);
    }
}

/* Operands in blocks of exactly the bytes they span (ASan's redzones right
 * after the last element and before the first): no copy reads or writes
 * past an operand, vectorised or not. */
static void test_exact_bounds(void **state)
{
    (void)state;
    for (size_t ii = 0; ii < sizeof ITEMSIZES / sizeof *ITEMSIZES; ii++) {
        int64_t s = ITEMSIZES[ii], isz[2] = {s, s};
        const int64_t pats[][2] = {{2 * s, s},  {-s, s},     {3 * s, s},
                                   {s, 2 * s},  {s, -s},     {2 * s, -2 * s},
                                   {0, 2 * s}};
        for (size_t p = 0; p < sizeof pats / sizeof *pats; p++)
            for (int64_t n = 1; n <= 40; n++) {
                uf__loop_desc *d = new_desc(1, 1, isz);
                char *blk[2], *data[2];
                for (int k = 0; k < 2; k++) {
                    int64_t st = pats[p][k], a = st < 0 ? -st : st;
                    blk[k] = uf__malloc((size_t)((n - 1) * a + s), 1, NULL);
                    assert_non_null(blk[k]);
                    memset(blk[k], 7, (size_t)((n - 1) * a + s));
                    data[k] = blk[k] + (st < 0 ? (n - 1) * a : 0);
                }
                cur = d;
                assert_int_equal(uf__rt_loop(d, NULL, data, (int64_t[]){n},
                                             pats[p]), 0);
                uf__free(blk[0]);
                uf__free(blk[1]);
                uf__free(d);
            }
    }
}

/* Outputs that overlap inputs: in place (exact alias, buffered or not)
 * and shifted by a few bytes (element by element, sequential order). */
static void test_overlaps(void **state)
{
    (void)state;
    const int64_t isz[3] = {8, 8, 8};
    const int64_t pats[][3] = {{8, 16, 8},  {16, 8, 16}, {-8, 8, -8},
                               {16, 16, 16}, {0, 8, 8}};
    for (size_t p = 0; p < sizeof pats / sizeof *pats; p++)
        for (int alias = 1; alias <= 2; alias++)
            for (size_t si = 0; si < sizeof SIZES / sizeof *SIZES; si++) {
                int64_t st[3] = {pats[p][0], pats[p][1], pats[p][2]};
                if (alias == 1 && st[0] != st[2])
                    st[2] = st[0] == 0 ? 8 : st[0], st[0] = st[2];
                run_config(2, 1, isz, st, SIZES[si], alias);
            }
}

/* contig's nonzero status comes back from the contiguous, buffered and
 * element-by-element paths alike. */
static void test_status(void **state)
{
    (void)state;
    const int64_t isz[2] = {8, 8};
    const int64_t pats[][2] = {{8, 8}, {16, 8}, {0, 8}, {8, 16}};
    enum { N = 3000 };
    double *in = uf__malloc(2 * N, sizeof(double), NULL);
    double *out = uf__malloc(2 * N, sizeof(double), NULL);
    assert_non_null(in);
    assert_non_null(out);
    uf__loop_desc *d = new_desc(1, 1, isz);
    cur = d;
    fail_at_marker = 1;
    for (size_t p = 0; p < sizeof pats / sizeof *pats; p++) {
        memset(in, 0, sizeof(double) * 2 * N);
        ((unsigned char *)in)[pats[p][0] ? (N - 1) * pats[p][0] : 0] = 0xEE;
        char *data[2] = {(char *)in, (char *)out};
        int64_t dims[1] = {N};
        assert_int_equal(uf__rt_loop(d, NULL, data, dims, pats[p]), 5);
    }
    /* partial overlap: element by element */
    ((unsigned char *)in)[8 * 100 + 6] = 0xEE; /* not overwritten */
    char *data[2] = {(char *)in, (char *)in + 4};
    int64_t dims[1] = {N}, st[2] = {8, 8};
    assert_int_equal(uf__rt_loop(d, NULL, data, dims, st), 5);
    fail_at_marker = 0;
    uf__free(d);
    uf__free(in);
    uf__free(out);
}

/* Which pointers contig receives: the contiguous operand of a broadcast
 * row (the (1000,1)+(1,10000) case's inner loop) in place, the stride-0
 * one as one buffer filled once and reused; unit-stride outputs written
 * in place beside gathered inputs. */
static void test_paths(void **state)
{
    (void)state;
    enum { N = 10000 };
    const int64_t isz[3] = {8, 8, 8};
    double *x = uf__malloc(2 * N, sizeof(double), NULL);
    double *y = uf__malloc(2 * N, sizeof(double), NULL);
    double *o = uf__malloc(N, sizeof(double), NULL);
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(o);
    for (int i = 0; i < 2 * N; i++)
        x[i] = y[i] = i;
    uf__loop_desc *d = new_desc(2, 1, isz);
    cur = d;
    int64_t dims[1] = {N};

    int64_t bc[3] = {0, 8, 8};
    char *data[3] = {(char *)x, (char *)y, (char *)o};
    nlog = 0;
    assert_int_equal(uf__rt_loop(d, NULL, data, dims, bc), 0);
    assert_true(nlog > 0 && nlog <= LOGMAX);
    int64_t done = 0;
    for (int c = 0; c < nlog; c++) {
        assert_ptr_equal(log_ptrs[c][1], (char *)y + 8 * done);
        assert_ptr_equal(log_ptrs[c][2], (char *)o + 8 * done);
        assert_ptr_equal(log_ptrs[c][0], log_ptrs[0][0]);
        assert_true(log_ptrs[0][0] < (char *)x ||
                    log_ptrs[0][0] >= (char *)(x + 2 * N));
        assert_int_equal((uintptr_t)log_ptrs[c][0] % 64, 0);
        done += log_n[c];
    }
    assert_int_equal(done, N);

    int64_t st2[3] = {16, 16, 8}; /* x[::2] + y[::2] into a dense out */
    nlog = 0;
    data[0] = (char *)x;
    data[1] = (char *)y;
    assert_int_equal(uf__rt_loop(d, NULL, data, (int64_t[]){N / 2}, st2), 0);
    assert_true(nlog > 0 && nlog <= LOGMAX);
    done = 0;
    for (int c = 0; c < nlog; c++) {
        assert_ptr_equal(log_ptrs[c][2], (char *)o + 8 * done);
        assert_int_equal((uintptr_t)log_ptrs[c][0] % 64, 0);
        assert_int_equal((uintptr_t)log_ptrs[c][1] % 64, 0);
        done += log_n[c];
    }
    assert_int_equal(done, N / 2);
    uf__free(d);
    uf__free(x);
    uf__free(y);
    uf__free(o);
}

/* A fused strided loop in C, as jit_strided.c would compile, counting
 * its calls; and a compile hook giving it out as scripted. */
static int nstrided;
static int strided_c(int64_t n, char **ptrs, const int64_t *strides)
{
    nstrided++;
    char *p[MAXOPS];
    for (int64_t i = 0; i < n; i++) {
        for (int64_t k = 0; k < cur->nargs; k++)
            p[k] = ptrs[k] + i * strides[k];
        int rc = element(p, 0);
        if (rc)
            return rc;
    }
    return 0;
}

static int nhook, hook_script[8];
static int hook(void *cctx, int tag, const uf_dtype *types,
                uf__loop_strided_fn *fn)
{
    assert_ptr_equal(cctx, &nhook);
    assert_int_equal(tag, 7);
    assert_int_equal(types[0], UF_FLOAT64);
    int rc = hook_script[nhook++];
    *fn = rc == 0 ? strided_c : NULL;
    return rc;
}

/* One strip through the slot's loop, compared with the reference; what
 * ran: 'c' contig only, 's' the strided loop only. */
static char slot_run(uf__strided_slot *slot, const int64_t *st, int64_t n,
                     int shift)
{
    enum { SPAN = 3 * 8 * 600 };
    static double a[SPAN], b[SPAN];
    for (int i = 0; i < SPAN; i++)
        a[i] = b[i] = (double)(next() % 1000) - 500;
    char *da[3], *db[3];
    for (int k = 0; k < 3; k++) {
        int64_t off = 8 * 600 * k + (st[k] < 0 ? -st[k] * (n - 1) : 0);
        da[k] = (char *)a + off;
        db[k] = (char *)b + off;
    }
    if (shift) { /* the output 8 bytes after input 0: dependent */
        da[2] = da[0] + 8;
        db[2] = db[0] + 8;
    }
    nlog = nstrided = 0;
    assert_int_equal(uf__rt_slot_loop(NULL, da, &n, st, slot), 0);
    assert_int_equal(reference(cur, db, st, n), 0);
    assert_memory_equal(a, b, sizeof a);
    assert_true(nlog == 0 || nstrided == 0);
    return nstrided ? 's' : 'c';
}

static void test_slot(void **state)
{
    (void)state;
    const int64_t isz[3] = {8, 8, 8};
    uf__loop_desc *d = new_desc(2, 1, isz);
    cur = d;
    uf__ufunc_loop loop = {.types = {UF_FLOAT64, UF_FLOAT64, UF_FLOAT64},
                           .fn = uf__rt_ufunc_loop, .aux = d};
    uf__strided_slot *s = uf__strided_slot_new(&loop, 3, hook, &nhook, 7,
                                               NULL);
    assert_non_null(s);
    const int64_t unit[3] = {8, 8, 8}, bcast[3] = {0, 8, 8};
    const int64_t step2[3] = {16, 16, 8}, rev[3] = {-8, 8, -16};
    const int64_t dep[3] = {8, 8, 8};
    nhook = 0;
    hook_script[0] = UF__STRIDED_RETRY;
    hook_script[1] = 0;
    /* contiguous and broadcast strips never ask for the strided loop */
    assert_int_equal(slot_run(s, unit, 500, 0), 'c');
    assert_int_equal(slot_run(s, bcast, 500, 0), 'c');
    assert_int_equal(nhook, 0);
    /* the first strided strip: the hook cannot yet, buffered */
    assert_int_equal(slot_run(s, step2, 500, 0), 'c');
    assert_int_equal(nhook, 1);
    /* the next one compiles it, and it is used from then on */
    assert_int_equal(slot_run(s, rev, 500, 0), 's');
    assert_int_equal(slot_run(s, step2, 499, 0), 's');
    assert_int_equal(nhook, 2);
    assert_ptr_equal(uf__strided_slot_get(s), strided_c);
    /* dependent iterations run in order through it */
    assert_int_equal(slot_run(s, dep, 400, 1), 's');
    assert_int_equal(slot_run(s, unit, 500, 0), 'c');
    assert_int_equal(nhook, 2);
    uf__strided_slot_free(s);

    /* a hook that refuses is never asked again */
    s = uf__strided_slot_new(&loop, 3, hook, &nhook, 7, NULL);
    assert_non_null(s);
    nhook = 0;
    hook_script[0] = -1;
    for (int i = 0; i < 3; i++)
        assert_int_equal(slot_run(s, step2, 300, i == 2), 'c');
    assert_int_equal(nhook, 1);
    assert_null(uf__strided_slot_get(s));
    uf__strided_slot_free(s);
    uf__free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_reference),
        cmocka_unit_test(test_patterns),
        cmocka_unit_test(test_exact_bounds),
        cmocka_unit_test(test_overlaps),
        cmocka_unit_test(test_status),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_slot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
