/* Many threads on the library at once (`make tsan` runs this under
 * ThreadSanitizer, `make test` normally and under ASan):
 *   - 8 threads on ONE context, each owning a kernel of one module and
 *     sharing another thread's: 8 kernels (vectorize, guvectorize, a
 *     reduce kernel, uf_reduce), half compiled before the threads start,
 *     half lazily by the threads' first calls, all released by one barrier
 *     so that four compiles on the context race, two threads each;
 *   - 3 threads each making a context of its own at the same moment and
 *     running all 8 kernels there;
 *   - one more thread on the shared context doing what else a program
 *     does meanwhile: reading the kernels' arities while their first
 *     calls are under way, then loading and freeing another module (njit
 *     functions, a vectorize kernel calling one), calling those,
 *     inspecting a kernel of the first module, uf_accumulate;
 *   - gufunc calls big enough for specialised loops (the threshold
 *     lowered), compiled by whichever call first needs one;
 *   - calls alternate between the kernel's declared target and the other
 *     one (cpu, parallel), two kernels are cache=True in a scratch disk
 *     cache that every context shares;
 *   - every result is compared with what C computes here (integer-valued
 *     doubles, so any summation order gives the same bits). */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "disk_cache_test_util.h"

#include "gufunc/gufunc_specialise.h"

static const char *const SRC =
    "from numba import cuda, guvectorize, vectorize\n"
    "@vectorize(['float64(float64, float64)', 'int64(int64, int64)'])\n"
    "def axpy(a, b):\n"
    "    return 2 * a + b\n"
    "@vectorize(target='parallel')\n"
    "def diff3(a, b):\n"
    "    return a - 3 * b\n"
    "@guvectorize(['void(float64[:], float64[:])'], '(n)->()',\n"
    "             target='parallel', cache=True)\n"
    "def sumsq(x, out):\n"
    "    acc = 0.0\n"
    "    for i in range(x.shape[0]):\n"
    "        acc += x[i] * x[i]\n"
    "    out[0] = acc\n"
    "@guvectorize('(n),()->(n)')\n"
    "def shift(x, s, y):\n"
    "    for i in range(x.shape[0]):\n"
    "        y[i] = x[i] + s * i\n"
    "@cuda.reduce\n"
    "def total(a, b):\n"
    "    return a + b\n"
    "@vectorize(['float64(float64, float64)'], identity=0,\n"
    "           target='parallel')\n"
    "def vsum(a, b):\n"
    "    return a + b\n"
    "@vectorize(cache=True)\n"
    "def poly(x, y):\n"
    "    return x * x - y\n"
    "@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')\n"
    "def cumsum(x, y):\n"
    "    acc = 0.0\n"
    "    for i in range(x.shape[0]):\n"
    "        acc += x[i]\n"
    "        y[i] = acc\n";

/* The side thread's module, loaded into the shared context meanwhile. */
static const char *const SIDE_SRC =
    "from numba import njit, vectorize\n"
    "@njit\n"
    "def halve(x):\n"
    "    return x / 2\n"
    "@njit\n"
    "def dot(a, b):\n"
    "    acc = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        acc += a[i] * b[i]\n"
    "    return acc\n"
    "@vectorize\n"
    "def half_sum(a, b):\n"
    "    return halve(a + b)\n";

/* Large enough that the parallel target really splits the work (it cuts
 * chunks of 32768 elements or units of work). */
enum { N = 100003, ROWS = 2048, COLS = 64 };
enum { NKERNELS = 8, NSHARED = 8, NOWN = 3, CALLS = 40, SIDE_ROUNDS = 4 };

typedef enum how { VEC2, GU1, GU_SHIFT, REDUCE_KERNEL, UFUNC_REDUCE } how;

typedef struct kernel {
    const char *name;
    how how;
    bool parallel; /* its declared target */
    bool lazy;     /* compiled by the threads' first calls */
    double *want;  /* the expected result, computed in C */
    int64_t nwant;
} kernel;

static kernel kernels[NKERNELS] = {
    {"axpy", VEC2, false, false, NULL, 0},
    {"diff3", VEC2, true, true, NULL, 0},
    {"sumsq", GU1, true, false, NULL, 0},
    {"shift", GU_SHIFT, false, true, NULL, 0},
    {"total", REDUCE_KERNEL, false, true, NULL, 0},
    {"vsum", UFUNC_REDUCE, true, false, NULL, 0},
    {"poly", VEC2, false, true, NULL, 0},
    {"cumsum", GU1, false, false, NULL, 0},
};

/* Inputs shared (read only) by every thread: a, b of N elements, x of
 * ROWS x COLS, s of ROWS. */
static uf_array *a, *b, *x, *s;
static pthread_barrier_t start;
/* Shared-context threads past their first (compiling) call. */
static atomic_int first_calls_done;

static double a_at(int64_t i)
{
    return (double)(i % 97);
}

static double b_at(int64_t i)
{
    return (double)((i * 7) % 101);
}

static double x_at(int64_t r, int64_t c)
{
    return (double)((r * COLS + c) % 89);
}

static double x_flat(int64_t i)
{
    return x_at(i / COLS, i % COLS);
}

static double s_at(int64_t r)
{
    return (double)(r % 5);
}

static uf_array *filled(int ndim, const int64_t *shape, double (*at)(int64_t))
{
    uf_error err;
    uf_array *r = uf_empty(UF_FLOAT64, ndim, shape, UF_ORDER_C, &err);
    uf_assert_ok(r != NULL, &err);
    double *p = uf_array_data(r);
    for (int64_t i = 0; i < uf_array_size(r); i++)
        p[i] = at(i);
    return r;
}

static double *want_alloc(kernel *k, int64_t n)
{
    k->nwant = n;
    k->want = malloc((size_t)n * sizeof(double));
    assert_non_null(k->want);
    return k->want;
}

/* The inputs and every kernel's expected result. */
static void make_data(void)
{
    int64_t n = N, rc[2] = {ROWS, COLS}, rows = ROWS;
    a = filled(1, &n, a_at);
    b = filled(1, &n, b_at);
    x = filled(2, rc, x_flat);
    s = filled(1, &rows, s_at);

    double *w0 = want_alloc(&kernels[0], N), *w1 = want_alloc(&kernels[1], N);
    double *w6 = want_alloc(&kernels[6], N), *w4 = want_alloc(&kernels[4], 1);
    w4[0] = 0;
    for (int64_t i = 0; i < N; i++) {
        w0[i] = 2 * a_at(i) + b_at(i);
        w1[i] = a_at(i) - 3 * b_at(i);
        w6[i] = a_at(i) * a_at(i) - b_at(i);
        w4[0] += a_at(i);
    }
    double *w2 = want_alloc(&kernels[2], ROWS);
    double *w3 = want_alloc(&kernels[3], ROWS * COLS);
    double *w5 = want_alloc(&kernels[5], COLS);
    double *w7 = want_alloc(&kernels[7], ROWS * COLS);
    memset(w5, 0, COLS * sizeof(double));
    for (int64_t r = 0; r < ROWS; r++) {
        double sq = 0, run = 0;
        for (int64_t c = 0; c < COLS; c++) {
            double v = x_at(r, c);
            sq += v * v;
            run += v;
            w3[r * COLS + c] = v + s_at(r) * (double)c;
            w5[c] += v;
            w7[r * COLS + c] = run;
        }
        w2[r] = sq;
    }
}

static void free_data(void)
{
    uf_array *in[4] = {a, b, x, s};
    for (int i = 0; i < 4; i++)
        uf_array_release(in[i]);
    for (int k = 0; k < NKERNELS; k++) {
        free(kernels[k].want);
        kernels[k].want = NULL;
    }
}

/* One call of kernel k of module m, on its declared target or (other)
 * the other one; 0, or -1 with the reason in why. */
static int call_checked(uf_module *m, int k, bool other, char *why,
                        size_t size)
{
    const kernel *kn = &kernels[k];
    uf_error err;
    uf_func *f = uf_module_get(m, kn->name, &err);
    uf_call_options o = {.size = sizeof o};
    uf_array *out = NULL;
    int rc;

    if (f == NULL) {
        snprintf(why, size, "%s: %.400s", kn->name, err.message);
        return -1;
    }
    if (other)
        o.target = kn->parallel ? "cpu" : "parallel";
    else if (kn->how == REDUCE_KERNEL)
        o.target = "cpu"; /* @cuda.reduce defaults to the cuda target */
    switch (kn->how) {
    case VEC2:
        rc = uf_call(f, (uf_array *[]){a, b}, 2, &out, 1, &o, &err);
        break;
    case GU1:
        rc = uf_call(f, &x, 1, &out, 1, &o, &err);
        break;
    case GU_SHIFT:
        rc = uf_call(f, (uf_array *[]){x, s}, 2, &out, 1, &o, &err);
        break;
    case REDUCE_KERNEL:
        rc = uf_call(f, &a, 1, &out, 1, &o, &err);
        break;
    default:
        rc = uf_reduce(f, x, &out, &o, &err);
        break;
    }
    if (rc != 0) {
        snprintf(why, size, "%s on %s: %.400s", kn->name,
                 o.target ? o.target : "its target", err.message);
        return -1;
    }
    rc = 0;
    if (uf_array_dtype(out) != UF_FLOAT64 ||
        uf_array_size(out) != kn->nwant ||
        !(uf_array_flags(out) & UF_ARRAY_C_CONTIGUOUS)) {
        snprintf(why, size, "%s: dtype, size or layout differs", kn->name);
        rc = -1;
    }
    const double *got = uf_array_data(out);
    for (int64_t i = 0; rc == 0 && i < kn->nwant; i++)
        if (got[i] != kn->want[i]) {
            snprintf(why, size, "%s on %s: element %lld is %g, not %g",
                     kn->name, o.target ? o.target : "its target",
                     (long long)i, got[i], kn->want[i]);
            rc = -1;
        }
    uf_array_release(out);
    return rc;
}

typedef struct worker {
    uf_module *m;  /* the shared module; NULL: make a context of one's own */
    uf_context *ctx; /* the side thread: the shared context; else NULL */
    int mine, also; /* shared-context threads: their two kernels */
    char why[512];  /* empty: every call right */
} worker;

/* Thread on the shared context: its lazy kernel first (the race), then
 * both in turn on both targets. */
static void run_shared(worker *w)
{
    int first = kernels[w->mine].lazy ? w->mine : w->also;
    int second = first == w->mine ? w->also : w->mine;

    for (int c = 0; c < CALLS; c++) {
        int rc = call_checked(w->m, first, c % 2, w->why, sizeof w->why);
        if (c == 0)
            atomic_fetch_add(&first_calls_done, 1);
        if (rc != 0 ||
            call_checked(w->m, second, c % 2, w->why, sizeof w->why) != 0)
            return;
    }
}

/* Thread with a context of its own: all kernels, in a rotated order so
 * that the contexts compile different kernels at the same moment. */
static void run_own(worker *w)
{
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = ctx ? uf_module_from_string(ctx, "stress.py", SRC, &err)
                       : NULL;

    if (m == NULL) {
        snprintf(w->why, sizeof w->why, "context or module: %.400s",
                 err.message);
    } else {
        for (int c = 0; c < 2 * NKERNELS; c++) {
            int k = (c + w->mine) % NKERNELS;
            if (call_checked(m, k, c >= NKERNELS, w->why,
                             sizeof w->why) != 0)
                break;
        }
    }
    uf_module_free(m);
    uf_context_free(ctx);
}

/* got, an output of a call that returned rc, is want[0..n); else a
 * reason in why. Releases got. */
static int check_out(int rc, const uf_error *err, uf_array *got,
                     const double *want, int64_t n, int64_t stride,
                     const char *what, char *why, size_t size)
{
    if (rc != 0) {
        snprintf(why, size, "%s: %.400s", what, err->message);
        return -1;
    }
    const double *g = uf_array_data(got);
    rc = uf_array_dtype(got) == UF_FLOAT64 && uf_array_size(got) >= n
             ? 0 : -1;
    for (int64_t i = 0; rc == 0 && i < n; i++)
        if (g[i * stride] != want[i]) {
            snprintf(why, size, "%s: element %lld is %g, not %g", what,
                     (long long)i, g[i * stride], want[i]);
            rc = -1;
        }
    if (rc != 0 && why[0] == '\0')
        snprintf(why, size, "%s: dtype or size differs", what);
    uf_array_release(got);
    return rc;
}

/* Each kernel of m has one output, or -1 while its first call is still
 * to come (read while the other threads make those first calls). */
static int arities(uf_module *m, char *why, size_t size)
{
    uf_error err;
    for (int k = 0; k < NKERNELS; k++) {
        uf_func *f = uf_module_get(m, kernels[k].name, &err);
        int nout = f ? uf_func_nout(f) : 0;
        if (nout != 1 && nout != -1) {
            snprintf(why, size, "%s has %d outputs", kernels[k].name, nout);
            return -1;
        }
    }
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int side_round(uf_context *ctx, uf_module *shared, double *half,
                      double dot, char *why, size_t size)
{
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "side.py", SIDE_SRC, &err);
    uf_array *out = NULL;
    int rc = -1;

    if (m == NULL) {
        snprintf(why, size, "side module: %.400s", err.message);
        return -1;
    }
    uf_func *fd = uf_module_get(m, "dot", &err);
    uf_func *fh = uf_module_get(m, "half_sum", &err);
    uf_func *vsum = uf_module_get(shared, "vsum", &err);
    uf_func *diff3 = uf_module_get(shared, "diff3", &err);
    if (!fd || !fh || !vsum || !diff3) {
        snprintf(why, size, "side kernels: %.400s", err.message);
        goto done;
    }
    rc = uf_call(fd, (uf_array *[]){a, b}, 2, &out, 1, NULL, &err);
    if (check_out(rc, &err, out, &dot, 1, 1, "dot", why, size) != 0)
        goto done;
    out = NULL;
    rc = uf_call(fh, (uf_array *[]){a, b}, 2, &out, 1, NULL, &err);
    if (check_out(rc, &err, out, half, N, 1, "half_sum", why, size) != 0)
        goto done;
    /* the last row of the running column sums is vsum's reduction */
    out = NULL;
    rc = uf_accumulate(vsum, x, &out, NULL, &err);
    uf_array *last = rc == 0 ? uf_array_slice(out, "-1", &err) : NULL;
    uf_array_release(out);
    if (check_out(last ? 0 : -1, &err, last, kernels[5].want, COLS, 1,
                  "accumulate", why, size) != 0)
        goto done;
    char *listing = uf_func_inspect(diff3, "float64(float64, float64)",
                                    UF_INSPECT_TYPES, &err);
    if (listing == NULL) {
        snprintf(why, size, "inspect: %.400s", err.message);
        goto done;
    }
    uf_free(listing);
    rc = arities(shared, why, size);
done:
    uf_module_free(m);
    return rc == 0 && why[0] == '\0' ? 0 : -1;
}

/* The side thread: a few rounds of side_round. */
static void run_side(worker *w)
{
    double *half = malloc(N * sizeof *half), dot = 0;
    if (half == NULL) {
        snprintf(w->why, sizeof w->why, "out of memory");
        return;
    }
    for (int64_t i = 0; i < N; i++) {
        half[i] = (a_at(i) + b_at(i)) / 2;
        dot += a_at(i) * b_at(i);
    }
    /* while the lazy kernels' first calls are under way, without taking
     * any lock of the library in between (10 s at most) */
    double t0 = now();
    while (atomic_load(&first_calls_done) < NSHARED && now() - t0 < 10.0)
        if (arities(w->m, w->why, sizeof w->why) != 0)
            break;
    for (int r = 0; r < SIDE_ROUNDS && w->why[0] == '\0'; r++)
        if (side_round(w->ctx, w->m, half, dot, w->why, sizeof w->why))
            break;
    free(half);
}

static void *thread_main(void *p)
{
    worker *w = p;
    pthread_barrier_wait(&start);
    if (w->ctx != NULL)
        run_side(w);
    else if (w->m != NULL)
        run_shared(w);
    else
        run_own(w);
    return NULL;
}

static void test_stress(void **state)
{
    (void)state;
    uf_error err;
    if (uf_threading_layer(&err) == NULL) /* a bad UFJIT_THREADING_LAYER */
        skip();
    dk_fresh_dir();
    make_data();
    /* ROWS x COLS is work enough for a specialised gufunc loop */
    int64_t min_work = uf__gufunc_spec_set_min_work(ROWS * COLS / 2);
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "stress.py", SRC, &err);
    uf_assert_ok(m != NULL, &err);
    /* the eager half: compiled (and checked) before the threads start */
    char why[512];
    for (int k = 0; k < NKERNELS; k++)
        if (!kernels[k].lazy && call_checked(m, k, false, why, sizeof why))
            fail_msg("before the threads: %s", why);

    enum { NT = NSHARED + NOWN + 1 };
    static worker w[NT];
    pthread_t t[NT];
    assert_int_equal(pthread_barrier_init(&start, NULL, NT), 0);
    atomic_store(&first_calls_done, 0);
    for (int i = 0; i < NT; i++) {
        /* pairs (i, i + 4) hold one lazy kernel and one compiled one */
        w[i] = (worker){.m = i < NSHARED || i == NT - 1 ? m : NULL,
                        .ctx = i == NT - 1 ? ctx : NULL,
                        .mine = i % NKERNELS,
                        .also = (i + NKERNELS / 2) % NKERNELS};
        assert_int_equal(pthread_create(&t[i], NULL, thread_main, &w[i]), 0);
    }
    for (int i = 0; i < NT; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < NT; i++)
        if (w[i].why[0] != '\0')
            fail_msg("thread %d (%s): %s", i,
                     w[i].ctx != NULL ? "side"
                     : i < NSHARED ? "shared context"
                                   : "own context",
                     w[i].why);
    uf_module_free(m);
    uf_context_free(ctx);
    free_data();
    uf__gufunc_spec_set_min_work(min_work);
    dk_remove_dir(dk_dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
