/* Timings of vectorize ufuncs on non-contiguous operands, the path
 * uf__rt_loop (targets/cpu/loop_rt.c) takes through buffered chunks:
 * strided inputs, a reversed input, 2-d broadcasting and 0-d (stride-0)
 * inputs, next to a plain C fused strided loop for reference.
 *
 *   bench_strided [ROUNDS [FILTER [TARGET]]]   (default 9 rounds, every
 *                                              case, cpu)
 *
 * FILTER: only the cases whose name contains it (with their C loops).
 * TARGET: cpu or parallel (2 threads; the C loops stay on one).
 *
 * Rounds alternate between the cases (machine noise hits them alike); one
 * line per case: name, median and minimum milliseconds of one call, and
 * for ufjit's cases the median over rounds of their time over that of a
 * fused C loop (GCC -O2, no vectorisation across the gathers) computing
 * the same, run right after in the same round: a ratio that survives the
 * load of a shared machine. To compare two builds, run their binaries
 * alternately. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ufjit/ufjit.h>

#define NCASES 18
#define MAXROUNDS 64

static const char *const SRC =
    "import math\n"
    "from numba import vectorize\n"
    "@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])\n"
    "def add(a, b):\n"
    "    return a + b\n"
    "@vectorize(['float64(float64)'])\n"
    "def twice(a):\n"
    "    return a * 2.0\n"
    "@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])\n"
    "def hypot(x, y):\n"
    "    x = abs(x)\n"
    "    y = abs(y)\n"
    "    t = min(x, y)\n"
    "    x = max(x, y)\n"
    "    t = t / x\n"
    "    return x * math.sqrt(1 + t * t)\n"
    "@vectorize(['float32(float32, float32, float32)',\n"
    "            'float64(float64, float64, float64)'])\n"
    "def gaussian_pdf(x, mean, sigma):\n"
    "    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / "
    "(sigma * 2.5066282746310002)\n";

typedef struct bcase {
    const char *name;
    uf_func *f; /* NULL: the C reference loop `ref` */
    void (*ref)(struct bcase *c);
    uf_array *in[3], *out;
    int nin;
    double t[MAXROUNDS];
} bcase;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const uf_error *err, const char *what)
{
    fprintf(stderr, "bench_strided: %s: %s\n", what, err->message);
    exit(1);
}

static uf_array *lin(uf_dtype dt, int64_t n, const char *slice, uf_error *err)
{
    uf_array *a = uf_linspace(0.5, 3.5, n, true, dt, err);
    if (a == NULL)
        die(err, "linspace");
    if (slice == NULL)
        return a;
    uf_array *v = uf_array_slice(a, slice, err);
    uf_array_release(a);
    if (v == NULL)
        die(err, slice);
    return v;
}

static uf_array *scalar(uf_dtype dt, double x, uf_error *err)
{
    uf_array *a = uf_full(dt, 0, NULL, &x, UF_FLOAT64, UF_ORDER_C, err);
    if (a == NULL)
        die(err, "full");
    return a;
}

/* out[i] = a[2i] + b[2i], what a fused strided loop costs */
static void ref_add64(bcase *c)
{
    const double *a = uf_array_data(c->in[0]), *b = uf_array_data(c->in[1]);
    double *o = uf_array_data(c->out);
    int64_t n = uf_array_size(c->out);
    for (int64_t i = 0; i < n; i++)
        o[i] = a[2 * i] + b[2 * i];
}

static void ref_add32(bcase *c)
{
    const float *a = uf_array_data(c->in[0]), *b = uf_array_data(c->in[1]);
    float *o = uf_array_data(c->out);
    int64_t n = uf_array_size(c->out);
    for (int64_t i = 0; i < n; i++)
        o[i] = a[2 * i] + b[2 * i];
}

static void ref_twice_rev(bcase *c)
{
    const double *a = uf_array_data(c->in[0]);
    double *o = uf_array_data(c->out);
    int64_t n = uf_array_size(c->out);
    for (int64_t i = 0; i < n; i++)
        o[i] = a[-i] * 2.0; /* the view's data is its first element */
}

static void ref_bcast(bcase *c)
{
    const double *a = uf_array_data(c->in[0]), *b = uf_array_data(c->in[1]);
    double *o = uf_array_data(c->out);
    for (int64_t i = 0; i < 1000; i++)
        for (int64_t j = 0; j < 10000; j++)
            o[i * 10000 + j] = a[i] + b[j];
}

static void ref_bcast32(bcase *c)
{
    const float *a = uf_array_data(c->in[0]), *b = uf_array_data(c->in[1]);
    float *o = uf_array_data(c->out);
    for (int64_t i = 0; i < 1000; i++)
        for (int64_t j = 0; j < 10000; j++)
            o[i * 10000 + j] = a[i] + b[j];
}

#define REF_GAUSS(name, T, EXP)                                            \
    static void name(bcase *c)                                             \
    {                                                                      \
        const T *x = uf_array_data(c->in[0]);                              \
        T mean = *(const T *)uf_array_data(c->in[1]);                      \
        T sigma = *(const T *)uf_array_data(c->in[2]);                     \
        T *o = uf_array_data(c->out);                                      \
        int64_t n = uf_array_size(c->out);                                 \
        for (int64_t i = 0; i < n; i++) {                                  \
            T z = (x[i] - mean) / sigma;                                   \
            o[i] = EXP((T)-0.5 * (z * z)) / (sigma * (T)2.5066282746310002); \
        }                                                                  \
    }
REF_GAUSS(ref_gauss64, double, exp)
REF_GAUSS(ref_gauss32, float, expf)

#define REF_HYPOT(name, T, SQRT)                                           \
    static void name(bcase *c)                                             \
    {                                                                      \
        const T *a = uf_array_data(c->in[0]), *b = uf_array_data(c->in[1]); \
        T *o = uf_array_data(c->out);                                      \
        int64_t n = uf_array_size(c->out);                                 \
        for (int64_t i = 0; i < n; i++) {                                  \
            T x = a[2 * i] < 0 ? -a[2 * i] : a[2 * i];                     \
            T y = b[2 * i] < 0 ? -b[2 * i] : b[2 * i];                     \
            T t = x < y ? x : y;                                           \
            x = x > y ? x : y;                                             \
            t = t / x;                                                     \
            o[i] = x * SQRT(1 + t * t);                                    \
        }                                                                  \
    }
REF_HYPOT(ref_hypot64, double, sqrt)
REF_HYPOT(ref_hypot32, float, sqrtf)

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 9;
    if (rounds < 1 || rounds > MAXROUNDS)
        rounds = 9;
    uf_error err = {0};
    uf_call_options opts;
    memset(&opts, 0, sizeof opts);
    opts.size = sizeof opts;
    opts.target = argc > 3 ? argv[3] : "cpu";
    opts.num_threads = 2;
    uf_context *ctx = uf_context_new(&err);
    if (ctx == NULL)
        die(&err, "context");
    uf_module *m = uf_module_from_string(ctx, "bench_strided.py", SRC, &err);
    if (m == NULL)
        die(&err, "module");
    uf_func *add = uf_module_get(m, "add", &err);
    uf_func *twice = uf_module_get(m, "twice", &err);
    uf_func *hyp = uf_module_get(m, "hypot", &err);
    uf_func *gau = uf_module_get(m, "gaussian_pdf", &err);
    if (!add || !twice || !hyp || !gau)
        die(&err, "get");
    const int64_t N = 10000000, N2 = 2 * N;
    int64_t col[2] = {1000, 1}, row[2] = {1, 10000};
    /* pairs: the ufjit call, then a fused C loop computing the same */
    bcase cs[NCASES] = {
        {"add_f64_step2", add, NULL, {0}, NULL, 2, {0}},
        {"  C fused", NULL, ref_add64, {0}, NULL, 2, {0}},
        {"add_f32_step2", add, NULL, {0}, NULL, 2, {0}},
        {"  C fused", NULL, ref_add32, {0}, NULL, 2, {0}},
        {"twice_f64_reversed", twice, NULL, {0}, NULL, 1, {0}},
        {"  C fused", NULL, ref_twice_rev, {0}, NULL, 1, {0}},
        {"add_f64_bcast_1000x1_1x10000", add, NULL, {0}, NULL, 2, {0}},
        {"  C fused", NULL, ref_bcast, {0}, NULL, 2, {0}},
        {"add_f32_bcast_1000x1_1x10000", add, NULL, {0}, NULL, 2, {0}},
        {"  C fused", NULL, ref_bcast32, {0}, NULL, 2, {0}},
        {"gaussian_f64_scalar_mean_sigma", gau, NULL, {0}, NULL, 3, {0}},
        {"  C fused", NULL, ref_gauss64, {0}, NULL, 3, {0}},
        {"gaussian_f32_scalar_mean_sigma", gau, NULL, {0}, NULL, 3, {0}},
        {"  C fused", NULL, ref_gauss32, {0}, NULL, 3, {0}},
        {"hypot_f64_step2", hyp, NULL, {0}, NULL, 2, {0}},
        {"  C fused", NULL, ref_hypot64, {0}, NULL, 2, {0}},
        {"hypot_f32_step2", hyp, NULL, {0}, NULL, 2, {0}},
        {"  C fused", NULL, ref_hypot32, {0}, NULL, 2, {0}},
    };
    uf_array *a64 = lin(UF_FLOAT64, N2, NULL, &err);
    uf_array *b64 = lin(UF_FLOAT64, N2, NULL, &err);
    uf_array *a32 = lin(UF_FLOAT32, N2, NULL, &err);
    uf_array *b32 = lin(UF_FLOAT32, N2, NULL, &err);
    uf_array *s64a = uf_array_slice(a64, "::2", &err);
    uf_array *s64b = uf_array_slice(b64, "::2", &err);
    uf_array *s32a = uf_array_slice(a32, "::2", &err);
    uf_array *s32b = uf_array_slice(b32, "::2", &err);
    uf_array *x64 = lin(UF_FLOAT64, N, NULL, &err);
    uf_array *x32 = lin(UF_FLOAT32, N, NULL, &err);
    uf_array *r64 = lin(UF_FLOAT64, N, "::-1", &err);
    uf_array *c64 = uf_array_reshape(lin(UF_FLOAT64, 1000, NULL, &err), 2,
                                     col, UF_ORDER_C, false, &err);
    uf_array *w64 = uf_array_reshape(lin(UF_FLOAT64, 10000, NULL, &err), 2,
                                     row, UF_ORDER_C, false, &err);
    uf_array *c32 = uf_array_reshape(lin(UF_FLOAT32, 1000, NULL, &err), 2,
                                     col, UF_ORDER_C, false, &err);
    uf_array *w32 = uf_array_reshape(lin(UF_FLOAT32, 10000, NULL, &err), 2,
                                     row, UF_ORDER_C, false, &err);
    if (!s64a || !s64b || !s32a || !s32b || !c64 || !w64 || !c32 || !w32)
        die(&err, "views");
    uf_array *g64[3] = {x64, scalar(UF_FLOAT64, 2.0, &err),
                        scalar(UF_FLOAT64, 0.7, &err)};
    uf_array *g32[3] = {x32, scalar(UF_FLOAT32, 2.0, &err),
                        scalar(UF_FLOAT32, 0.7, &err)};
    uf_array *ins[NCASES][3] = {
        {s64a, s64b}, {a64, b64}, {s32a, s32b}, {a32, b32}, {r64}, {r64},
        {c64, w64}, {c64, w64}, {c32, w32}, {c32, w32},
        {g64[0], g64[1], g64[2]},
        {g64[0], g64[1], g64[2]}, {g32[0], g32[1], g32[2]},
        {g32[0], g32[1], g32[2]}, {s64a, s64b}, {a64, b64}, {s32a, s32b},
        {a32, b32}};
    for (int c = 0; c < NCASES; c++) {
        memcpy(cs[c].in, ins[c], sizeof ins[c]);
        if (cs[c].f == NULL) { /* the reference writes its pair's output */
            cs[c].out = cs[c - 1].out;
            continue;
        }
        if (uf_call(cs[c].f, cs[c].in, cs[c].nin, &cs[c].out, 1, &opts,
                    &err) < 0) /* compiles; allocates the output */
            die(&err, cs[c].name);
    }
    const char *filter = argc > 2 ? argv[2] : "";
    for (int r = 0; r < rounds; r++)
        for (int c = 0; c < NCASES; c++) {
            if (!strstr(cs[c - (cs[c].f == NULL)].name, filter))
                continue;
            double t0 = now();
            if (cs[c].f == NULL)
                cs[c].ref(&cs[c]);
            else if (uf_call(cs[c].f, cs[c].in, cs[c].nin, &cs[c].out, 1,
                             &opts, &err) < 0)
                die(&err, cs[c].name);
            cs[c].t[r] = now() - t0;
        }
    /* per round, ufjit's time over the fused loop's, then the medians */
    double ratio[MAXROUNDS];
    for (int c = 0; c < NCASES; c++) {
        if (!strstr(cs[c - (cs[c].f == NULL)].name, filter))
            continue;
        if (cs[c].f != NULL)
            for (int r = 0; r < rounds; r++)
                ratio[r] = cs[c].t[r] / cs[c + 1].t[r];
        qsort(cs[c].t, (size_t)rounds, sizeof(double), cmp);
        printf("%-32s median %8.2f ms  min %8.2f ms", cs[c].name,
               1e3 * cs[c].t[rounds / 2], 1e3 * cs[c].t[0]);
        if (cs[c].f != NULL) {
            qsort(ratio, (size_t)rounds, sizeof(double), cmp);
            printf("  x%.2f of C", ratio[rounds / 2]);
        }
        putchar('\n');
    }
    return 0;
}
