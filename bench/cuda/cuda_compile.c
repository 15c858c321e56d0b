/* The CUDA compile benchmark (issue 14: "one more CUDA signature, lowering
 * + libnvvm, under 30 ms") and the PTX of each kernel variant for
 * bench/cuda/run.py's register table.
 *
 *   cuda_compile KERNELS.py [--reps N] [--ptx DIR] NAME SIG [NAME SIG ...]
 *
 * For each vectorize or cuda.jit kernel NAME and signature SIG (Numba's
 * syntax), in this process, with the internal API the call path uses
 * (ufunc/cuda_kernels.c, launch/launch.c; a cuda.jit kernel has one
 * listing, DIR/NAME.SIG.BACKEND.c.ptx, and its times are of that):
 *   - infer_ms: typing the kernel for SIG, in a freshly loaded module (the
 *     module caches typings: a fresh one per rep, so nothing answers from
 *     a cache; loading it is not timed);
 *   - libnvvm_ms: uf__nvvm_ufuncs_ptx on libnvvm (lowering into an NVVM
 *     module, cleanup, bitcode, libnvvm with libdevice when called), the
 *     contiguous 32-bit-index variant a call on a GPU compiles;
 *   - nvptx_ms: the same on LLVM 14's NVPTX backend (the fallback);
 *   - first_ms: the first libnvvm compile of the process (libnvvm's
 *     dlopen and first program included), measured before the rest.
 * Times are medians of N reps (default 15), wall clock. One JSON line per
 * (NAME, SIG). With --ptx DIR, the PTX of the contiguous variant with
 * 64- and 32-bit indexes from each backend is written to
 * DIR/NAME.SIG.{libnvvm,nvptx}.{c,c_i32}.ptx (SIG's dtypes joined by '-')
 * for ptxas; a backend that is not there is reported, not fatal. With
 * UFJIT_BENCH_IR=1 each also gets PATH.ll, the NVVM IR before libnvvm
 * (libnvvm reads LLVM 7 bitcode: llvm-as-14 then libnvvm, inline asm
 * aside, reproduces the PTX). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ufjit/ufjit.h>

#include "common/alloc.h"
#include "compiler/module.h"
#include "compiler/nvvm/nvvm.h"
#include "compiler/types/infer.h"
#include "compiler/types/types.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* One kernel typed for one signature, in a module of its own. */
typedef struct typed {
    uf_module *m;
    const uf__typed_func *tf;
    uf_dtype outs[UF__LOOP_MAXARGS];
    bool kernel; /* a cuda.jit kernel (no variants: one listing) */
} typed;

static int type_it(uf_context *ctx, const char *file, const char *name,
                   const char *sig, typed *t, double *infer_ms,
                   uf_error *err)
{
    memset(t, 0, sizeof *t);
    if (!(t->m = uf_module_load(ctx, file, err)))
        return -1;
    uf_func *f = uf_module_get(t->m, name, err);
    if (!f)
        return -1;
    t->kernel = uf_func_get_kind(f) == UF_FUNC_KERNEL;
    if (uf_func_get_kind(f) != UF_FUNC_UFUNC && !t->kernel) {
        snprintf(err->message, sizeof err->message,
                 "'%s' is neither a vectorize kernel nor a cuda.jit one",
                 name);
        err->code = UF_ERR_UNSUPPORTED;
        return -1;
    }
    uf__kmodule *km = f->module->km;
    double t0 = now_ms();
    uf__signature s;
    if (uf__parse_signature(km->tc, km->arena, sig, &s, err) < 0)
        return -1;
    /* a kernel's declared void is Numba's spelling, not a result */
    t->tf = uf__infer(km, f->decl, s.args, s.nargs, t->kernel ? NULL : s.ret,
                      err);
    *infer_ms = now_ms() - t0;
    if (!t->tf)
        return -1;
    if (t->kernel)
        return 0;
    const uf__type *r = s.ret ? s.ret : t->tf->ret;
    if (r->kind == UF__T_TUPLE)
        for (int k = 0; k < r->n && k < UF__LOOP_MAXARGS; k++)
            t->outs[k] = r->elts[k]->dtype;
    else
        t->outs[0] = r->dtype;
    return 0;
}

/* PATH.ll: the NVVM IR handed to libnvvm (before libdevice), for
 * experiments with libnvvm's register allocation. */
static void write_ir(const uf__nvvm_spec *spec, const char *path,
                     uf_error *err)
{
    char *ir = uf__nvvm_ufuncs_ir(spec, 1, err);
    char ll[4200];
    snprintf(ll, sizeof ll, "%s.ll", path);
    FILE *fp = ir ? fopen(ll, "w") : NULL;
    if (fp) {
        fputs(ir, fp);
        fclose(fp);
    }
    uf__free(ir);
}

/* ms of one compile of t's contiguous kernel (index32 or not) on
 * backend b; the PTX to `path` when not NULL. -1 on an error. */
static double compile_once(const typed *t, bool index32, uf__nvvm_backend b,
                           const char *path, uf_error *err)
{
    uf__nvvm_spec spec = {.tf = t->tf, .out_types = t->outs,
                          .kernel = t->kernel};
    spec.v.layout = UF__NVVM_CONTIG;
    spec.v.index32 = index32 && !t->kernel;
    uf__nvvm_options opts = {.backend = b};
    uf__nvvm_ptx ptx;
    double t0 = now_ms();
    if (uf__nvvm_ufuncs_ptx(&spec, 1, &opts, &ptx, err) != 0)
        return -1;
    double ms = now_ms() - t0;
    if (path && getenv("UFJIT_BENCH_IR"))
        write_ir(&spec, path, err);
    if (path) {
        FILE *fp = fopen(path, "w");
        if (!fp || fputs(ptx.ptx, fp) < 0)
            ms = -1, snprintf(err->message, sizeof err->message,
                              "cannot write %s", path);
        if (fp)
            fclose(fp);
    }
    uf__nvvm_ptx_free(&ptx);
    return ms;
}

/* "float32(float32, float32)" -> "float32-float32-float32" */
static void sig_tag(const char *sig, char *out, size_t cap)
{
    size_t n = 0;
    bool sep = false;
    for (const char *p = sig; *p && n + 2 < cap; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) {
            if (sep && n)
                out[n++] = '-';
            out[n++] = *p;
            sep = false;
        } else {
            sep = true;
        }
    }
    out[n] = '\0';
}

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        putchar(*s == '\n' ? ' ' : *s);
    }
    putchar('"');
}

static void one(uf_context *ctx, const char *file, const char *name,
                const char *sig, int reps, const char *dir, bool *first)
{
    uf_error err;
    uf_error_clear(&err);
    static const struct {
        uf__nvvm_backend b;
        const char *name;
    } backends[2] = {{UF__NVVM_LIBNVVM, "libnvvm"},
                     {UF__NVVM_NVPTX, "nvptx"}};
    double infer[64], nv[64], fb[64], first_ms = -1, dummy;
    char why[2][sizeof err.message] = {"", ""};
    typed t;
    printf("{\"name\": ");
    json_str(name);
    printf(", \"signature\": ");
    json_str(sig);
    if (type_it(ctx, file, name, sig, &t, &dummy, &err) != 0) {
        printf(", \"error\": ");
        json_str(err.message);
        printf("}\n");
        uf_module_free(t.m);
        return;
    }
    if (*first) { /* libnvvm's load and first program */
        first_ms = compile_once(&t, true, UF__NVVM_LIBNVVM, NULL, &err);
        *first = false;
    }
    /* the listings for ptxas */
    char tag[128], path[4096];
    sig_tag(sig, tag, sizeof tag);
    for (int b = 0; dir && b < 2; b++)
        for (int i32 = 0; i32 < (t.kernel ? 1 : 2); i32++) {
            snprintf(path, sizeof path, "%s/%s.%s.%s.%s.ptx", dir, name, tag,
                     backends[b].name, i32 ? "c_i32" : "c");
            uf_error_clear(&err);
            if (compile_once(&t, i32, backends[b].b, path, &err) < 0 &&
                !why[b][0])
                snprintf(why[b], sizeof why[b], "%s", err.message);
        }
    uf_module_free(t.m);
    int n = 0;
    for (int r = 0; r < reps; r++) {
        typed u;
        uf_error_clear(&err);
        if (type_it(ctx, file, name, sig, &u, &infer[n], &err) != 0) {
            uf_module_free(u.m);
            break;
        }
        nv[n] = why[0][0] ? -1
                          : compile_once(&u, true, UF__NVVM_LIBNVVM, NULL,
                                         &err);
        fb[n] = why[1][0] ? -1
                          : compile_once(&u, true, UF__NVVM_NVPTX, NULL, &err);
        uf_module_free(u.m);
        n++;
    }
    if (n > 0) {
        printf(", \"reps\": %d, \"infer_ms\": %.3f", n, median(infer, n));
        if (!why[0][0])
            printf(", \"libnvvm_ms\": %.3f", median(nv, n));
        if (!why[1][0])
            printf(", \"nvptx_ms\": %.3f", median(fb, n));
    }
    if (first_ms >= 0)
        printf(", \"first_ms\": %.3f", first_ms);
    for (int b = 0; b < 2; b++)
        if (why[b][0]) {
            printf(", \"%s_error\": ", backends[b].name);
            json_str(why[b]);
        }
    printf("}\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const char *file = NULL, *dir = NULL;
    int reps = 15, i = 1;
    if (argc > 1)
        file = argv[i++];
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (i + 1 >= argc)
            break;
        if (strcmp(argv[i], "--reps") == 0)
            reps = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--ptx") == 0)
            dir = argv[i + 1];
    }
    if (!file || reps < 1 || reps > 64 || i >= argc || (argc - i) % 2) {
        fprintf(stderr, "usage: cuda_compile KERNELS.py [--reps 1..64] "
                        "[--ptx DIR] NAME SIG [NAME SIG ...]\n");
        return 2;
    }
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    if (!ctx) {
        fprintf(stderr, "cuda_compile: %s\n", err.message);
        return 1;
    }
    bool first = true;
    for (; i + 1 < argc; i += 2)
        one(ctx, file, argv[i], argv[i + 1], reps, dir, &first);
    uf_context_free(ctx);
    return 0;
}
