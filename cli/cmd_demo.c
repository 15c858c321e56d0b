/* ufjit demo: a short tour for a newcomer. Each step is printed as NumPy
 * would spell it (">>> ..."), with the ufjit C function that did it after
 * '#', followed by ufjit's result printed the way NumPy prints it. So the
 * transcript reads like a Python session, and tests/cli/demo_numpy.py
 * replays every ">>>" line in NumPy and compares. The kernel sections run
 * their kernels on generated data and print one "# [ok] ..." line per
 * result compared with a plain C computation, with its time.
 *
 * This file holds the transcript helpers and runs the section table;
 * the sections are in cmd_demo_*.c, one file per topic. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/cmd_demo.h"
#include "cli/commands.h"

static const char demo_help[] =
    "usage: ufjit demo\n"
    "\n"
    "A short tour of what ufjit can do so far, printed as a Python session:\n"
    "each '>>>' line is the NumPy spelling of a step, '#' after it names\n"
    "the ufjit C function that ran it, and the lines below are ufjit's own\n"
    "result printed the way NumPy prints it (errors show ufjit's message).\n"
    "Sections: creating arrays, views, broadcasting, casting, memory\n"
    "order, .npy files, printing large arrays; then kernels: the seeds'\n"
    "vectorize examples, guvectorize (batched matrix-vector products, two\n"
    "outputs), reductions (pairwise sums, accumulate, outer), njit\n"
    "functions, bounds checking, and the parallel target. Kernel results\n"
    "are compared with plain C loops: '[ok]' or '[MISMATCH]', with times.\n"
    "A step the library refuses is shown as '[refused]' and the tour goes\n"
    "on. Exit status 1 if a result mismatched or a section failed.\n";

/* ---- transcript lines ------------------------------------------------- */

void uf__demo_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

void uf__demo_prompt(const char *code, const char *cfn)
{
    if (cfn == NULL)
        printf(">>> %s\n", code);
    else
        printf(">>> %-40s # %s\n", code, cfn);
}

int uf__demo_fail(demo *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    d->err.code = UF_ERR_INTERNAL;
    vsnprintf(d->err.message, sizeof d->err.message, fmt, ap);
    va_end(ap);
    return -1;
}

int uf__demo_show_array(demo *d, const char *code, const char *cfn,
                        uf_array *a, bool keep)
{
    if (a == NULL)
        return -1;
    char *repr = uf_array_repr(a, &d->err);
    if (!keep)
        uf_array_release(a);
    if (repr == NULL)
        return -1;
    uf__demo_prompt(code, cfn);
    printf("%s\n\n", repr);
    uf_free(repr);
    return 0;
}

void uf__demo_show_text(const char *code, const char *cfn, const char *fmt,
                        ...)
{
    va_list ap;
    va_start(ap, fmt);
    uf__demo_prompt(code, cfn);
    vprintf(fmt, ap);
    fputs("\n\n", stdout);
    va_end(ap);
}

int uf__demo_show_refusal(demo *d, const char *code, const char *cfn,
                          bool failed)
{
    if (!failed)
        return uf__demo_fail(d, "'%s' was expected to fail and did not",
                             code);
    uf__demo_prompt(code, cfn);
    printf("error (%s): %s\n\n", uf_err_name(d->err.code), d->err.message);
    uf_error_clear(&d->err);
    return 0;
}

void uf__demo_listing(const char *name, const char *src)
{
    uf__demo_say("%s:", name);
    for (const char *l = src; *l != '\0';) {
        const char *e = strchr(l, '\n');
        if (e == NULL)
            e = l + strlen(l);
        printf(e > l ? "#   %.*s\n" : "#\n", (int)(e - l), l);
        l = *e != '\0' ? e + 1 : e;
    }
}

/* ---- checked results -------------------------------------------------- */

void uf__demo_check(demo *d, bool ok, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    d->checks++;
    if (!ok)
        d->mismatches++;
    printf("# [%s] %s: ", ok ? "ok" : "MISMATCH", name);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

void uf__demo_refused(demo *d, const char *name)
{
    d->refusals++;
    printf("# [refused] %s: %s: %s\n", name, uf_err_name(d->err.code),
           d->err.message);
    uf_error_clear(&d->err);
}

uf_context *uf__demo_context(demo *d)
{
    if (d->ctx == NULL)
        d->ctx = uf_context_new(&d->err);
    return d->ctx;
}

uf_module *uf__demo_module(demo *d, const char *name, const char *src)
{
    uf__demo_listing(name, src);
    uf_context *ctx = uf__demo_context(d);
    double t0 = uf__demo_now_ms();
    uf_module *m =
        ctx ? uf_module_from_string(ctx, name, src, &d->err) : NULL;
    if (m == NULL)
        uf__demo_refused(d, name);
    else
        uf__demo_say("uf_module_from_string parsed %s in %.2f ms", name,
                     uf__demo_now_ms() - t0);
    return m;
}

uf_func *uf__demo_func(demo *d, uf_module *m, const char *name)
{
    uf_func *f = m ? uf_module_get(m, name, &d->err) : NULL;
    if (m != NULL && f == NULL)
        uf__demo_refused(d, name);
    return f;
}

int uf__demo_call2(demo *d, const char *name, uf_func *f, uf_array *const *in,
                   int nin, uf_array **out, int nout,
                   const uf_call_options *opts, double ms[2])
{
    uf_array *first[8] = {NULL};
    if (f == NULL || nout > 8)
        return -1;
    double t0 = uf__demo_now_ms();
    int rc = uf_call(f, in, nin, first, nout, opts, &d->err);
    double t1 = uf__demo_now_ms();
    for (int k = 0; k < nout; k++)
        uf_array_release(first[k]);
    if (rc == 0)
        rc = uf_call(f, in, nin, out, nout, opts, &d->err);
    ms[0] = t1 - t0;
    ms[1] = uf__demo_now_ms() - t1;
    if (rc != 0)
        uf__demo_refused(d, name);
    return rc != 0 ? -1 : 0;
}

double uf__demo_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

double uf__demo_uniform(uint64_t *state)
{
    uint64_t s = *state;
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    *state = s;
    return (double)(s >> 11) * 0x1p-53;
}

uf_array *uf__demo_random(demo *d, int ndim, const int64_t *shape, double lo,
                          double hi, uint64_t seed)
{
    uf_array *a = uf_empty(UF_FLOAT64, ndim, shape, UF_ORDER_C, &d->err);
    if (a == NULL)
        return NULL;
    double *p = uf_array_data(a);
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int64_t i = 0, n = uf_array_size(a); i < n; i++)
        p[i] = lo + (hi - lo) * uf__demo_uniform(&s);
    return a;
}

double uf__demo_max_diff(const double *x, const double *y, int64_t n)
{
    double worst = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (isnan(x[i]) != isnan(y[i]))
            return NAN;
        double diff = fabs(x[i] - y[i]) / fmax(1.0, fabs(y[i]));
        if (diff > worst)
            worst = diff;
    }
    return worst;
}

/* ---- the tour ---------------------------------------------------------- */

typedef struct demo_section {
    const char *title;
    int (*run)(demo *d);
} demo_section;

static const demo_section sections[] = {
    {"Creating arrays", uf__demo_create},
    {"Views: slicing, transposing, reshaping", uf__demo_views},
    {"Broadcasting", uf__demo_broadcast},
    {"Casting", uf__demo_casting},
    {"Memory order", uf__demo_order},
    {".npy files", uf__demo_npy},
    {"Printing large arrays", uf__demo_print},
    {"Kernels: the seeds' vectorize examples", uf__demo_vectorize},
    {"guvectorize: kernels over core dimensions", uf__demo_guvectorize},
    {"Reductions: reduce, accumulate, outer", uf__demo_reduce},
    {"njit: plain functions on arrays", uf__demo_njit},
    {"Bounds checking", uf__demo_boundscheck},
    {"The parallel target", uf__demo_parallel},
    {"The CUDA target, on a GPU or on cudasim", uf__demo_cuda},
    {"CUDA kernels: @cuda.jit over a grid", uf__demo_kernels},
};

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
    int rc =
        uf__cli_parse("demo", argc - 1, argv + 1, NULL, 0, pos, 0, &npos);
    if (rc == UF__CLI_HELP) {
        fputs(demo_help, stdout);
        return UF__CLI_OK;
    }
    if (rc != 0)
        return rc;

    demo d;
    memset(&d, 0, sizeof d);
    uf_error_clear(&d.err);
    int n = (int)(sizeof sections / sizeof sections[0]), failed = 0;
    printf("ufjit %s: a tour of the array core and the kernels\n",
           uf_version());
    uf__demo_say("Each '>>>' line is the NumPy spelling of a step; after "
                 "'#' is the");
    uf__demo_say("ufjit C function that ran it. Below it is ufjit's own "
                 "result,");
    uf__demo_say("printed the way NumPy prints it: paste the lines into "
                 "Python to");
    uf__demo_say("compare. Kernel results are checked against plain C "
                 "loops: '[ok]'.");
    double total = 0.0;
    for (int i = 0; i < n; i++) {
        printf("\n== %d. %s ==\n", i + 1, sections[i].title);
        double t0 = uf__demo_now_ms();
        int r = sections[i].run(&d);
        double dt = uf__demo_now_ms() - t0;
        total += dt;
        if (r != 0) {
            fflush(stdout);
            uf__cli_error("demo: section '%s' failed: %s", sections[i].title,
                          d.err.message);
            uf_error_clear(&d.err);
            failed++;
            continue;
        }
        uf__demo_say("(section took %.2f ms)", dt);
    }
    printf("\n== done: %d sections in %.2f ms; checks: %d ok, %d "
           "mismatched; steps refused: %d ==\n",
           n, total, d.checks - d.mismatches, d.mismatches, d.refusals);
    remove_tmpdir(&d);
    uf_array_release(d.a);
    uf_context_free(d.ctx);
    rc = UF__CLI_OK;
    if (d.mismatches > 0)
        rc = uf__cli_error("demo: %d of %d checks mismatched", d.mismatches,
                           d.checks);
    if (failed > 0)
        rc = uf__cli_error("demo: %d of %d sections failed", failed, n);
    return rc;
}
