/* ufjit demo: a short tour for a newcomer. Each step is printed as NumPy
 * would spell it (">>> ..."), with the ufjit C function that did it after
 * '#', followed by ufjit's result printed the way NumPy prints it. So the
 * transcript reads like a Python session, and tests/cli/demo_numpy.py
 * replays every ">>>" line in NumPy and compares.
 *
 * Each capability is one section function in the table at the bottom;
 * later ones (kernels, targets) add a section each. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/commands.h"

static const char demo_help[] =
    "usage: ufjit demo\n"
    "\n"
    "A short tour of what ufjit can do so far, printed as a Python session:\n"
    "each '>>>' line is the NumPy spelling of a step, '#' after it names\n"
    "the ufjit C function that ran it, and the lines below are ufjit's own\n"
    "result printed the way NumPy prints it (errors show ufjit's message).\n"
    "Sections: creating arrays, views, broadcasting, casting, memory\n"
    "order, .npy files, printing large arrays, and kernels: the seeds'\n"
    "vectorize examples compiled and run on a million elements. Each\n"
    "section reports its time; the whole tour takes well under a second.\n";

typedef struct demo {
    uf_error err;
    uf_array *a; /* np.arange(12).reshape(3, 4), used by several sections */
    char tmpdir[256];
} demo;

/* ---- transcript helpers ------------------------------------------------- */

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

static void prompt(const char *code, const char *cfn)
{
    if (cfn == NULL)
        printf(">>> %s\n", code);
    else
        printf(">>> %-40s # %s\n", code, cfn);
}

static int fail_with(demo *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail_with(demo *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    d->err.code = UF_ERR_INTERNAL;
    vsnprintf(d->err.message, sizeof d->err.message, fmt, ap);
    va_end(ap);
    return -1;
}

/* Prints a step and the repr of its result. The array is released unless
 * `keep`; NULL (the step failed) returns -1 with the library's error. */
static int show_array(demo *d, const char *code, const char *cfn,
                      uf_array *a, bool keep)
{
    if (a == NULL)
        return -1;
    char *repr = uf_array_repr(a, &d->err);
    if (!keep)
        uf_array_release(a);
    if (repr == NULL)
        return -1;
    prompt(code, cfn);
    printf("%s\n\n", repr);
    uf_free(repr);
    return 0;
}

/* A step whose result is a Python value written out as text. */
static void show_text(const char *code, const char *cfn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void show_text(const char *code, const char *cfn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    prompt(code, cfn);
    vprintf(fmt, ap);
    fputs("\n\n", stdout);
    va_end(ap);
}

/* A step that must fail: shows ufjit's message where NumPy would raise. */
static int show_refusal(demo *d, const char *code, const char *cfn,
                        bool failed)
{
    if (!failed)
        return fail_with(d, "'%s' was expected to fail and did not", code);
    prompt(code, cfn);
    printf("error (%s): %s\n\n", uf_err_name(d->err.code), d->err.message);
    uf_error_clear(&d->err);
    return 0;
}

static const char *py_bool(bool b)
{
    return b ? "True" : "False";
}

/* The array owning the memory: a view's base, else the array itself. */
static const uf_array *owner(const uf_array *a)
{
    const uf_array *b = uf_array_base(a);
    return b != NULL ? b : a;
}

/* ---- sections ------------------------------------------------------------ */

static int sec_create(demo *d)
{
    say("An array is a dtype, a shape and byte strides over one block of");
    say("memory. Creation follows NumPy's functions and defaults.");
    int64_t s23[] = {2, 3}, s22[] = {2, 2}, s03[] = {0, 3};
    if (show_array(d, "np.zeros((2, 3))", "uf_zeros",
                   uf_zeros(UF_FLOAT64, 2, s23, UF_ORDER_C, &d->err),
                   false) != 0 ||
        show_array(d, "np.arange(0, 10, 2)", "uf_arange",
                   uf_arange(0, 10, 2, UF_INT64, &d->err), false) != 0 ||
        show_array(d, "np.linspace(0, 1, 5)", "uf_linspace",
                   uf_linspace(0, 1, 5, true, UF_FLOAT64, &d->err),
                   false) != 0)
        return -1;
    double v = 7.5;
    if (show_array(d, "np.full((2, 2), 7.5, dtype=np.float32)", "uf_full",
                   uf_full(UF_FLOAT32, 2, s22, &v, UF_FLOAT64, UF_ORDER_C,
                           &d->err), false) != 0 ||
        show_array(d, "np.zeros((0, 3))", "uf_zeros (empty)",
                   uf_zeros(UF_FLOAT64, 2, s03, UF_ORDER_C, &d->err),
                   false) != 0)
        return -1;
    return 0;
}

static int sec_views(demo *d)
{
    say("Slicing, transposing and reshaping make views: a new shape and");
    say("new strides over the same memory. Nothing is copied.");
    char buf[128];
    uf_array *r = uf_arange(0, 12, 1, UF_INT64, &d->err);
    if (r == NULL)
        return -1;
    int64_t s34[] = {3, 4}, s26[] = {2, 6};
    d->a = uf_array_reshape(r, 2, s34, UF_ORDER_C, false, &d->err);
    uf_array_release(r);
    if (d->a == NULL)
        return -1;
    prompt("a = np.arange(12).reshape(3, 4)", "uf_arange, uf_array_reshape");
    if (show_array(d, "a", NULL, d->a, true) != 0)
        return -1;

    uf_array *v = uf_array_slice(d->a, "::-1, ::2", &d->err);
    if (v == NULL)
        return -1;
    prompt("v = a[::-1, ::2]", "uf_array_slice: negative step");
    int rc = show_array(d, "v", NULL, v, true);
    if (rc == 0) {
        show_text("v.strides", "uf_array_strides", "%s",
                  uf__cli_tuple(2, uf_array_strides(v), buf, sizeof buf));
        show_text("np.shares_memory(v, a)", "uf_array_base", "%s",
                  py_bool(owner(v) == owner(d->a)));
    }
    uf_array_release(v);
    if (rc != 0)
        return -1;

    uf_array *t = uf_array_transpose(d->a, NULL, &d->err);
    if (t == NULL)
        return -1;
    rc = show_array(d, "a.T", "uf_array_transpose", t, true);
    if (rc == 0)
        show_text("a.T.strides", "uf_array_strides", "%s",
                  uf__cli_tuple(2, uf_array_strides(t), buf, sizeof buf));
    uf_array_release(t);
    if (rc != 0)
        return -1;

    if (show_array(d, "a.reshape(2, 6)", "uf_array_reshape",
                   uf_array_reshape(d->a, 2, s26, UF_ORDER_C, false,
                                    &d->err), false) != 0 ||
        show_array(d, "a[:, None, 1]", "uf_array_slice: newaxis",
                   uf_array_slice(d->a, ":, None, 1", &d->err), false) != 0)
        return -1;
    return 0;
}

static int sec_broadcast(demo *d)
{
    say("Broadcasting compares shapes from the right: two lengths must be");
    say("equal or one of them 1, and missing axes count as 1.");
    char buf[256];
    int64_t out[UF_MAXDIMS];
    int out_nd;
    const int64_t s31[] = {3, 1}, s14[] = {1, 4}, s514[] = {5, 1, 4};
    const int64_t s23[] = {2, 3}, s4[] = {4};
    const int64_t *pair1[] = {s31, s14}, *pair2[] = {s514, s31};
    const int64_t *bad[] = {s23, s4};
    int nd1[] = {2, 2}, nd2[] = {3, 2}, ndbad[] = {2, 1};
    if (uf_broadcast_shapes(2, nd1, pair1, &out_nd, out, &d->err) != 0)
        return -1;
    show_text("np.broadcast_shapes((3, 1), (1, 4))", "uf_broadcast_shapes",
              "%s", uf__cli_tuple(out_nd, out, buf, sizeof buf));
    if (uf_broadcast_shapes(2, nd2, pair2, &out_nd, out, &d->err) != 0)
        return -1;
    show_text("np.broadcast_shapes((5, 1, 4), (3, 1))",
              "uf_broadcast_shapes", "%s",
              uf__cli_tuple(out_nd, out, buf, sizeof buf));
    if (show_refusal(d, "np.broadcast_shapes((2, 3), (4,))",
                     "uf_broadcast_shapes",
                     uf_broadcast_shapes(2, ndbad, bad, &out_nd, out,
                                         &d->err) != 0) != 0)
        return -1;

    say("broadcast_to makes a read-only view whose new axis has stride 0.");
    uf_array *r = uf_arange(0, 3, 1, UF_INT64, &d->err);
    if (r == NULL)
        return -1;
    uf_array *b = uf_array_broadcast_to(r, 2, s23, &d->err);
    uf_array_release(r);
    if (b == NULL)
        return -1;
    prompt("b = np.broadcast_to(np.arange(3), (2, 3))",
           "uf_array_broadcast_to");
    int rc = show_array(d, "b", NULL, b, true);
    if (rc == 0) {
        show_text("b.strides", "uf_array_strides", "%s",
                  uf__cli_tuple(2, uf_array_strides(b), buf, sizeof buf));
        show_text("b.flags.writeable", "uf_array_flags", "%s",
                  py_bool(uf_array_flags(b) & UF_ARRAY_WRITEABLE));
    }
    uf_array_release(b);
    return rc;
}

static int sec_casting(demo *d)
{
    say("astype converts the elements; the casting rule says which");
    say("conversions are allowed. 'safe' refuses any that can lose");
    say("information; astype's default, 'unsafe', truncates floats.");
    uf_array *x = uf_linspace(-2.5, 2.5, 5, true, UF_FLOAT64, &d->err);
    if (x == NULL)
        return -1;
    prompt("x = np.linspace(-2.5, 2.5, 5)", "uf_linspace");
    int rc = show_array(d, "x", NULL, x, true);
    if (rc == 0) {
        uf_array *bad = uf_array_astype(x, UF_INT32, UF_CASTING_SAFE,
                                        UF_ORDER_K, &d->err);
        rc = show_refusal(d, "x.astype(np.int32, casting='safe')",
                          "uf_array_astype", bad == NULL);
        uf_array_release(bad);
    }
    if (rc == 0)
        rc = show_array(d, "x.astype(np.int32)", "uf_array_astype",
                        uf_array_astype(x, UF_INT32, UF_CASTING_UNSAFE,
                                        UF_ORDER_K, &d->err), false);
    uf_array_release(x);
    if (rc != 0)
        return -1;
    show_text("np.can_cast(np.int32, np.float64)", "uf_can_cast", "%s",
              py_bool(uf_can_cast(UF_INT32, UF_FLOAT64, UF_CASTING_SAFE)));
    show_text("np.can_cast(np.float64, np.float32)", "uf_can_cast", "%s",
              py_bool(uf_can_cast(UF_FLOAT64, UF_FLOAT32,
                                  UF_CASTING_SAFE)));
    show_text("np.can_cast(np.float64, np.float32, 'same_kind')",
              "uf_can_cast", "%s",
              py_bool(uf_can_cast(UF_FLOAT64, UF_FLOAT32,
                                  UF_CASTING_SAME_KIND)));
    show_text("np.promote_types(np.int64, np.float32)", "uf_promote_types",
              "dtype('%s')", uf_dtype_name(uf_promote_types(UF_INT64,
                                                            UF_FLOAT32)));
    return 0;
}

static int sec_order(demo *d)
{
    say("A copy can be laid out row by row (C order) or column by column");
    say("(F order, as Fortran and BLAS like it); the flags record which.");
    char buf[128];
    int fl = uf_array_flags(d->a);
    show_text("a.flags.c_contiguous, a.flags.f_contiguous", "uf_array_flags",
              "(%s, %s)", py_bool(fl & UF_ARRAY_C_CONTIGUOUS),
              py_bool(fl & UF_ARRAY_F_CONTIGUOUS));
    uf_array *f = uf_array_copy(d->a, UF_ORDER_F, &d->err);
    if (f == NULL)
        return -1;
    prompt("f = a.copy(order='F')", "uf_array_copy");
    int rc = show_array(d, "f", NULL, f, true);
    if (rc == 0) {
        fl = uf_array_flags(f);
        show_text("f.flags.c_contiguous, f.flags.f_contiguous",
                  "uf_array_flags", "(%s, %s)",
                  py_bool(fl & UF_ARRAY_C_CONTIGUOUS),
                  py_bool(fl & UF_ARRAY_F_CONTIGUOUS));
        show_text("f.strides", "uf_array_strides", "%s",
                  uf__cli_tuple(2, uf_array_strides(f), buf, sizeof buf));
        show_text("f.flags.owndata", "uf_array_flags", "%s",
                  py_bool(fl & UF_ARRAY_OWNDATA));
    }
    uf_array_release(f);
    return rc;
}

/* Compares two arrays by dtype, shape and printed values: enough for the
 * tour, whose arrays print in full. */
static bool same_array(const uf_array *x, const uf_array *y, uf_error *err,
                       bool *same)
{
    *same = false;
    if (uf_array_dtype(x) != uf_array_dtype(y) ||
        uf_array_ndim(x) != uf_array_ndim(y) ||
        memcmp(uf_array_shape(x), uf_array_shape(y),
               sizeof(int64_t) * (size_t)uf_array_ndim(x)) != 0)
        return true;
    char *rx = uf_array_repr(x, err);
    char *ry = rx ? uf_array_repr(y, err) : NULL;
    if (ry != NULL)
        *same = strcmp(rx, ry) == 0;
    uf_free(rx);
    uf_free(ry);
    return ry != NULL;
}

static int sec_npy(demo *d)
{
    say(".npy files keep dtype, shape and memory order. ufjit writes the");
    say("file beside its final name and renames it into place, so a reader");
    say("never sees half a file. (Paths here are temporary, so these steps");
    say("are comments rather than >>> lines.)");
    const char *tmp = getenv("TMPDIR");
    snprintf(d->tmpdir, sizeof d->tmpdir, "%s/ufjit-demo-XXXXXX",
             tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (mkdtemp(d->tmpdir) == NULL) {
        d->tmpdir[0] = '\0';
        return fail_with(d, "cannot create a temporary directory");
    }
    char path[320];
    snprintf(path, sizeof path, "%s/f.npy", d->tmpdir);
    uf_array *f = uf_array_copy(d->a, UF_ORDER_F, &d->err);
    if (f == NULL)
        return -1;
    int rc = -1;
    uf_array *g = NULL;
    if (uf_npy_save(path, f, &d->err) != 0)
        goto done;
    struct stat st;
    long long size = stat(path, &st) == 0 ? (long long)st.st_size : -1;
    say("np.save(path, f)     -> uf_npy_save wrote %lld bytes to %s", size,
        path);
    g = uf_npy_load(path, &d->err);
    if (g == NULL)
        goto done;
    bool same;
    if (!same_array(f, g, &d->err, &same))
        goto done;
    say("g = np.load(path)    -> uf_npy_load: %s, shape %s, F-contiguous "
        "%s", uf_dtype_name(uf_array_dtype(g)),
        uf__cli_tuple(uf_array_ndim(g), uf_array_shape(g), path,
                      sizeof path),
        py_bool(uf_array_flags(g) & UF_ARRAY_F_CONTIGUOUS));
    say("np.array_equal(f, g) -> %s", py_bool(same));
    if (!same)
        goto done;
    rc = 0;
done:
    uf_array_release(g);
    uf_array_release(f);
    return rc;
}

static int sec_print(demo *d)
{
    say("Past 1000 elements repr summarises: the first and last three of");
    say("each axis, with '...' between, exactly as NumPy does.");
    uf_array *r = uf_arange(0, 2000, 1, UF_INT64, &d->err);
    if (r == NULL)
        return -1;
    int64_t shape[] = {40, 50};
    uf_array *m = uf_array_reshape(r, 2, shape, UF_ORDER_C, false, &d->err);
    uf_array_release(r);
    return show_array(d, "np.arange(2000).reshape(40, 50)",
                      "uf_arange, uf_array_reshape, uf_array_repr", m,
                      false);
}

/* The seeds' vectorize examples, as a user would write them for Numba. */
static const char demo_seeds_src[] =
    "import math\n"
    "import numpy as np\n"
    "from numba import vectorize\n"
    "\n"
    "SQRT_2PI = np.float32((2 * math.pi) ** 0.5)\n"
    "\n"
    "@vectorize\n"
    "def rel_diff(x, y):\n"
    "    return 2 * (x - y) / (x + y)\n"
    "\n"
    "@vectorize(['float32(float32, float32, float32)'])\n"
    "def gaussian_pdf(x, mean, sigma):\n"
    "    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * "
    "SQRT_2PI)\n"
    "\n"
    "@vectorize(['float64(float64, float64)'])\n"
    "def hypot(x, y):\n"
    "    x = abs(x)\n"
    "    y = abs(y)\n"
    "    t = min(x, y)\n"
    "    x = max(x, y)\n"
    "    t = t / x\n"
    "    return x * math.sqrt(1 + t * t)\n";

static double now_ms(void);

/* Runs kernel `name` of m on n inputs twice: the first call compiles (or
 * finds the loops compiled at load), the second only runs. Shows the
 * result under the NumPy spelling `code` and the two times. */
static int run_kernel(demo *d, uf_module *m, const char *name,
                      uf_array *const *in, int n, const char *code)
{
    uf_func *f = uf_module_get(m, name, &d->err);
    if (f == NULL)
        return -1;
    uf_array *out = NULL, *again = NULL;
    double t0 = now_ms();
    if (uf_call(f, in, n, &out, 1, NULL, &d->err) != 0)
        return -1;
    double t1 = now_ms();
    int rc = uf_call(f, in, n, &again, 1, NULL, &d->err);
    double t2 = now_ms();
    uf_array_release(again);
    if (rc != 0) {
        uf_array_release(out);
        return -1;
    }
    char cfn[64];
    snprintf(cfn, sizeof cfn, "%s: uf_call", name);
    if (show_array(d, code, cfn, out, false) != 0)
        return -1;
    say("%s: first call %.2f ms (type inference, LLVM -O3, JIT, then the "
        "loop), second call %.2f ms (the loop only)", name, t1 - t0,
        t2 - t1);
    return 0;
}

static int sec_kernels(demo *d)
{
    say("Kernels are Python files written for Numba. ufjit parses them,");
    say("types them with Numba's rules, compiles them with LLVM and calls");
    say("them as NumPy ufuncs. This section's kernels are the seeds'");
    say("vectorize examples, from this source (seeds.py):");
    for (const char *l = demo_seeds_src; *l != '\0';) {
        const char *e = strchr(l, '\n');
        printf(e > l ? "#   %.*s\n" : "#\n", (int)(e - l), l);
        l = e + 1;
    }
    say("Each >>> line below is what the kernel computes, in NumPy (with");
    say("the float64 steps Numba's typing puts in: float literals are");
    say("float64), and the array is ufjit's result on a million elements.");

    enum { N = 1000000 };
    int rc = -1;
    uf_array *a = NULL, *b = NULL, *x = NULL, *mean = NULL, *sigma = NULL;
    uf_array *hx = NULL, *hy = NULL;
    uf_context *ctx = uf_context_new(&d->err);
    if (ctx == NULL)
        return -1;
    double t0 = now_ms();
    uf_module *m = uf_module_from_string(ctx, "seeds.py", demo_seeds_src,
                                         &d->err);
    if (m == NULL)
        goto done;
    say("uf_module_from_string parsed seeds.py in %.2f ms", now_ms() - t0);

    a = uf_arange(0, N, 1, UF_FLOAT32, &d->err);
    b = a ? uf_arange(1, 2 * N + 1, 2, UF_FLOAT32, &d->err) : NULL;
    if (b == NULL)
        goto done;
    prompt("a = np.arange(1000000, dtype=np.float32)", "uf_arange");
    prompt("b = a * 2 + 1", "uf_arange(1, 2000001, 2)");
    uf_array *ab[] = {a, b};
    if (run_kernel(d, m, "rel_diff", ab, 2,
                   "2 * (a - b).astype(np.float64) / (a + b)") != 0)
        goto done;

    float zero = 0.0f, one = 1.0f;
    x = uf_linspace(-3, 3, N, true, UF_FLOAT32, &d->err);
    mean = x ? uf_full(UF_FLOAT32, 0, NULL, &zero, UF_FLOAT32, UF_ORDER_C,
                       &d->err) : NULL;
    sigma = mean ? uf_full(UF_FLOAT32, 0, NULL, &one, UF_FLOAT32,
                           UF_ORDER_C, &d->err) : NULL;
    if (sigma == NULL)
        goto done;
    prompt("x = np.linspace(-3, 3, 1000000, dtype=np.float32)",
           "uf_linspace");
    prompt("mean, sigma = np.float32(0), np.float32(1)", "uf_full, 0-d");
    prompt("import math", NULL);
    prompt("SQRT_2PI = np.float32((2 * math.pi) ** 0.5)",
           "folded when seeds.py loads");
    uf_array *xms[] = {x, mean, sigma};
    if (run_kernel(d, m, "gaussian_pdf", xms, 3,
                   "(np.exp(-0.5 * (((x - mean) / sigma) ** 2).astype("
                   "np.float64)) / (sigma * SQRT_2PI)).astype(np.float32)")
        != 0)
        goto done;

    hx = uf_linspace(-5, 5, N, true, UF_FLOAT64, &d->err);
    hy = hx ? uf_linspace(3, -3, N, true, UF_FLOAT64, &d->err) : NULL;
    if (hy == NULL)
        goto done;
    prompt("x = np.linspace(-5, 5, 1000000)", "uf_linspace");
    prompt("y = np.linspace(3, -3, 1000000)", "uf_linspace");
    uf_array *xy[] = {hx, hy};
    if (run_kernel(d, m, "hypot", xy, 2, "np.hypot(x, y)") != 0)
        goto done;
    rc = 0;
done:
    uf_array_release(hy);
    uf_array_release(hx);
    uf_array_release(sigma);
    uf_array_release(mean);
    uf_array_release(x);
    uf_array_release(b);
    uf_array_release(a);
    uf_module_free(m);
    uf_context_free(ctx);
    return rc;
}

/* ---- the tour -------------------------------------------------------------- */

typedef struct demo_section {
    const char *title;
    int (*run)(demo *d);
} demo_section;

static const demo_section sections[] = {
    {"Creating arrays", sec_create},
    {"Views: slicing, transposing, reshaping", sec_views},
    {"Broadcasting", sec_broadcast},
    {"Casting", sec_casting},
    {"Memory order", sec_order},
    {".npy files", sec_npy},
    {"Printing large arrays", sec_print},
    {"Kernels: the seeds' vectorize examples", sec_kernels},
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void remove_tmpdir(demo *d)
{
    if (d->tmpdir[0] == '\0')
        return;
    char path[320];
    snprintf(path, sizeof path, "%s/f.npy", d->tmpdir);
    unlink(path);
    rmdir(d->tmpdir);
    d->tmpdir[0] = '\0';
}

int uf__cli_demo(int argc, char **argv)
{
    const char *pos[1];
    int npos;
    int rc = uf__cli_parse("demo", argc - 1, argv + 1, NULL, 0, pos, 0,
                           &npos);
    if (rc == UF__CLI_HELP) {
        fputs(demo_help, stdout);
        return UF__CLI_OK;
    }
    if (rc != 0)
        return rc;

    demo d;
    memset(&d, 0, sizeof d);
    uf_error_clear(&d.err);
    int n = (int)(sizeof sections / sizeof sections[0]);
    printf("ufjit %s: a tour of the array core\n", uf_version());
    say("Each '>>>' line is the NumPy spelling of a step; after '#' is the");
    say("ufjit C function that ran it. Below it is ufjit's own result,");
    say("printed the way NumPy prints it: paste the lines into Python to");
    say("compare.");
    double total = 0.0;
    rc = UF__CLI_OK;
    for (int i = 0; i < n; i++) {
        printf("\n== %d. %s ==\n", i + 1, sections[i].title);
        double t0 = now_ms();
        int r = sections[i].run(&d);
        double dt = now_ms() - t0;
        total += dt;
        if (r != 0) {
            fflush(stdout);
            rc = uf__cli_error("demo: section '%s' failed: %s",
                               sections[i].title, d.err.message);
            break;
        }
        say("(section took %.2f ms)", dt);
    }
    if (rc == UF__CLI_OK)
        printf("\n== done: %d sections in %.2f ms ==\n", n, total);
    remove_tmpdir(&d);
    uf_array_release(d.a);
    return rc;
}
