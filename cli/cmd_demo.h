/* `ufjit demo`, split by topic: cmd_demo.c runs the tour and holds the
 * transcript helpers below; cmd_demo_*.c hold the sections. */
#ifndef UF_CLI_CMD_DEMO_H
#define UF_CLI_CMD_DEMO_H

#include <stdbool.h>
#include <stdint.h>
#include <ufjit/ufjit.h>

typedef struct demo {
    uf_error err;
    uf_array *a;        /* np.arange(12).reshape(3, 4), several sections */
    char tmpdir[256];   /* the .npy section's, removed at the end */
    uf_context *ctx;    /* the kernel sections', made on first use */
    int checks;         /* results compared with a plain C computation */
    int mismatches;     /* ... that disagreed */
    int refusals;       /* steps the library refused at run time */
} demo;

/* ---- transcript lines ---------------------------------------------------- */

/* "# text": an explanation, or a step that is not a NumPy line. */
void uf__demo_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* ">>> code   # cfn": a NumPy step and the ufjit C function behind it. */
void uf__demo_prompt(const char *code, const char *cfn);
/* A step and the repr of its result; the array is released unless `keep`.
 * NULL (the step failed) returns -1 with the library's error in d->err. */
int uf__demo_show_array(demo *d, const char *code, const char *cfn,
                        uf_array *a, bool keep);
/* A step whose result is a Python value written out as text. */
void uf__demo_show_text(const char *code, const char *cfn, const char *fmt,
                        ...) __attribute__((format(printf, 3, 4)));
/* A step that must fail: prints ufjit's message where NumPy would raise. */
int uf__demo_show_refusal(demo *d, const char *code, const char *cfn,
                          bool failed);
/* Sets d->err to an internal error with this message; returns -1. */
int uf__demo_fail(demo *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Prints a kernel file's source, each line behind "#   ". */
void uf__demo_listing(const char *name, const char *src);

/* ---- checked results (the kernel sections) ------------------------------- */

/* "# [ok] name: what" or "# [MISMATCH] name: what": one result compared
 * with a plain C computation; counted in d->checks and d->mismatches. */
void uf__demo_check(demo *d, bool ok, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "# [refused] name: UF_ERR_...: message" for a step the library refused
 * (d->err); clears d->err and counts it. The tour goes on. */
void uf__demo_refused(demo *d, const char *name);

/* The context of the kernel sections, or NULL with d->err set. */
uf_context *uf__demo_context(demo *d);
/* Loads `src` as kernel file `name` and lists it; NULL: refused (already
 * reported). */
uf_module *uf__demo_module(demo *d, const char *name, const char *src);
/* Kernel `name` of m; NULL: refused (already reported). */
uf_func *uf__demo_func(demo *d, uf_module *m, const char *name);
/* uf_call twice: ms[0] is the first call (compiling if needed), ms[1] the
 * second; the second call's outputs are returned. -1: refused (reported
 * under `name`). */
int uf__demo_call2(demo *d, const char *name, uf_func *f, uf_array *const *in,
                   int nin, uf_array **out, int nout,
                   const uf_call_options *opts, double ms[2]);

/* Milliseconds of a monotonic clock. */
double uf__demo_now_ms(void);
/* Deterministic pseudo-random numbers in [0, 1) (xorshift64; *state != 0). */
double uf__demo_uniform(uint64_t *state);
/* A new C-contiguous float64 array of `shape` filled with lo + (hi - lo) *
 * uniform, or NULL with d->err set. */
uf_array *uf__demo_random(demo *d, int ndim, const int64_t *shape, double lo,
                          double hi, uint64_t seed);
/* Largest |x - y| / max(1, |y|) over n elements (NaN where they differ in
 * NaN-ness). */
double uf__demo_max_diff(const double *x, const double *y, int64_t n);

/* ---- the sections -------------------------------------------------------- */

int uf__demo_create(demo *d);
int uf__demo_views(demo *d);
int uf__demo_broadcast(demo *d);
int uf__demo_casting(demo *d);
int uf__demo_order(demo *d);
int uf__demo_npy(demo *d);
int uf__demo_print(demo *d);
int uf__demo_vectorize(demo *d);
int uf__demo_guvectorize(demo *d);
int uf__demo_reduce(demo *d);
int uf__demo_njit(demo *d);
int uf__demo_boundscheck(demo *d);
int uf__demo_parallel(demo *d);
int uf__demo_cuda(demo *d);
int uf__demo_kernels(demo *d);

#endif
