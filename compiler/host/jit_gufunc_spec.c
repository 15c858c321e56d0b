/* The one compilation of a gufunc loop (jit_gufunc_spec.h): the kernel
 * typed 'C' and 'A' lowered into one module, the loop around them, with a
 * spec's constants in the loop when there is one; a jammed variant also
 * gets software prefetches (jit_gufunc_spec_prefetch.c). The generic loop
 * (uf__jit_gufunc_loop) and the disk cache's (uf__jit_gufunc_loop_obj)
 * are this with no spec. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <llvm-c/Core.h>

#include "common/error_internal.h"
#include "compiler/host/jit_cpu.h"
#include "compiler/host/jit_gufunc_spec.h"
#include "compiler/host/jit_gufunc_transpose.h"

/* LLVM 14's O3 has no unroll-and-jam: it runs after, then the clean-up
 * the unrolled copies need (shared loads, dead phis); indvars merges the
 * copies' counters of the inner loop (a matvec's jammed rows each had
 * their own j, so v[j] was loaded once per row), early-cse the loads
 * that then have one address. */
#define JAM_PASSES                                                         \
    "default<O3>,function(loop(loop-unroll-and-jam),early-cse,instcombine," \
    "simplifycfg,loop(indvars),early-cse,instcombine)"

/* Software prefetches of the jammed variant (jit_gufunc_spec_prefetch.c):
 * innermost loops unrolled PREFETCH_UNROLL times (a trip of a float64
 * stream reads a cache line), each stream prefetched PREFETCH_DISTANCE
 * bytes ahead. Measured on matvec 64x64 x 1e4 float64 (bench_gu_parallel,
 * 2 threads, min of 9): 24.7 ms without, 20.2 prefetching every trip of
 * the loop as it was, 17.2-17.4 unrolled by 8 (4096 and 8192 bytes ahead
 * alike; 2048: 19); cpu 49 -> 33.5. */
#define PREFETCH_UNROLL 8
#define PREFETCH_DISTANCE 4096

/* After the transposed rows' rewrite: its copies of address arithmetic
 * folded and shared. */
#define TRANSPOSE_PASSES "function(early-cse,instcombine)"

/* Rows this long or longer stream well from one row at a time on AMD. */
#define AMD_LONG_ROW 32

/* The interleave the spec asks for, unless this CPU runs the kernel's own
 * loop faster. Measured with bench_gu_parallel (float64, median of 9,
 * both variants alternating in one quiet run): on an AMD EPYC Zen 4 (which
 * LLVM 14 calls "generic") matvec 64x64 x 1e4 took 11.5-12.8 ms on 1
 * thread and 7.6-9.1 on 2 without the jam, 13.8-15.4 and 9.3-10.7 jammed
 * and prefetched (jammed without the prefetches: 34 and 17.5), while the
 * short rows of matvec 4x4 and max_min 16 run 2-5x faster jammed there
 * too; on the Intel Xeon (skylake-avx512) the jammed matvec 64x64 is the
 * faster one (the prefetch figures above). Only Zen 4 was measured of
 * AMD's cores; the rule takes every AMD core. */
static bool amd_core(const uf__jit *jit)
{
    const char *cpu = uf__jit_host_cpu(jit);
    if (cpu != NULL && strcmp(cpu, "generic") != 0)
        return strncmp(cpu, "znver", 5) == 0; /* named, or UFJIT_CPU_NAME */
#if defined(__x86_64__) || defined(__i386__)
    /* LLVM 14 names no core newer than Zen 3: ask the CPU's vendor */
    unsigned a, b, c, d;
    return __get_cpuid(0, &a, &b, &c, &d) && b == 0x68747541u; /* "Auth" */
#else
    return false;
#endif
}

/* UFJIT_GUFUNC_JAM: "always" or "never" instead of the rule (tests and
 * measurements of either variant on any CPU); unset or "auto", the rule. */
static int jam_policy(void)
{
    const char *v = getenv("UFJIT_GUFUNC_JAM");
    if (v == NULL)
        return 0;
    return strcmp(v, "always") == 0 ? 1 : strcmp(v, "never") == 0 ? -1 : 0;
}

static int jam_for_host(const uf__jit *jit, const uf__gufunc_spec *spec)
{
    int policy = jam_policy();
    if (spec->jam <= 1 || policy > 0)
        return spec->jam;
    if (policy < 0)
        return 0;
    if (!amd_core(jit))
        return spec->jam;
    for (int d = 0; d < spec->ndims; d++)
        if (spec->dim[d] >= AMD_LONG_ROW)
            return 0;
    return spec->jam;
}

/* UFJIT_GUFUNC_TRANSPOSE: "always" or "never"; unset or "auto", the
 * transposed rows (jit_gufunc_transpose.h) wherever the spec jams and the
 * kernel has the pattern, except on AMD cores.
 * On the Intel Xeon of 2026-11-29 (LLVM 14 calls it rocketlake; 480 MiB
 * L3), matvec 64x64 x 1e4, CPU time of the best of 12 calls at load 8-10:
 * float64 31-32 ms transposed vs 53-55 the jammed rows, on 1 thread and on
 * 2 alike (Numba 55 / 61); float32 30 either way. On the AMD EPYC Zen 4
 * (bench_gu_transpose, float64, 1 thread, CPU time, load 8-10):
 * cache-resident (16 matrices per call) 10.0 ms the rule's loop, 2.84
 * transposed (AVX2: 3.2); from memory (1e4 matrices, 328 MB) transposed /
 * rule was 0.86-0.92 in one minute and 1.17-1.22 in the next (5 processes
 * each, same code; 1.15-1.27 at load 13-15), where its 8 row streams
 * compete for bandwidth with the other load: not a win we could show, so
 * AMD keeps the rule's loop. Prefetching in address order
 * (TRANSPOSE_PREFETCH) beat one prefetch per row line, the order the loads
 * take (jit_gufunc_spec_prefetch.c: 1.05-1.13x the rule's time in the same
 * runs). */
static bool transpose_wanted(const uf__jit *jit)
{
    const char *v = getenv("UFJIT_GUFUNC_TRANSPOSE");
    if (v != NULL && strcmp(v, "always") == 0)
        return true;
    if (v != NULL && strcmp(v, "never") == 0)
        return false;
    return !amd_core(jit);
}

/* Rows summed side by side in the transposed loop: 8 float64 rows fill a
 * zmm (one transpose of 8x8 per block of columns); with ymm two groups of
 * 4 rows keep two add chains going. */
#define TRANSPOSE_ROWS 8
/* Bytes ahead of the transposed loop's reads its prefetches go. */
#define TRANSPOSE_PREFETCH 4096

/* The vector bytes of the transposed variant for this spec on this CPU,
 * or 0: only where wanted, where the spec jams, on float operands, with
 * AVX's registers at least. */
static int transpose_bytes(const uf__jit *jit, const uf__gufunc_spec *spec,
                           const uf__guvec_arg *args, int nargs)
{
    /* UFJIT_GUFUNC_JAM=never: the kernel's own loop, as it says */
    if (spec->jam <= 1 || !transpose_wanted(jit) || jam_policy() < 0)
        return 0;
    for (int k = 0; k < nargs; k++)
        if (args[k].kind == UF__GUVEC_ARRAY &&
            args[k].dtype != UF_FLOAT64 && args[k].dtype != UF_FLOAT32)
            return 0;
    const char *f = uf__jit_host_features(jit);
    return f == NULL                       ? 0
           : uf__jit_cpu_has(f, "avx512f") ? 64
           : uf__jit_cpu_has(f, "avx")     ? 32
                                           : 0;
}

/* Rows to jam for `bytes` vectors of the first array operand's type. */
static int transpose_rows(int bytes, const uf__guvec_arg *args, int nargs)
{
    int w = bytes / 8;
    for (int k = 0; k < nargs; k++)
        if (args[k].kind == UF__GUVEC_ARRAY) {
            w = bytes / (int)uf_dtype_itemsize(args[k].dtype);
            break;
        }
    return w > TRANSPOSE_ROWS ? w : TRANSPOSE_ROWS;
}

static int build(uf__jit *jit, const uf__typed_func *tf_c,
                 const uf__typed_func *tf_a, const uf__gufunc_layout *layout,
                 const uf__guvec_arg *args, const uf__gufunc_spec *spec,
                 const uf__gufunc_emit *emit, int tbytes, bool *missed,
                 uf__strided_loop *fn, uf_error *err);

int uf__jit_gufunc_build(uf__jit *jit, const uf__typed_func *tf_c,
                         const uf__typed_func *tf_a,
                         const uf__gufunc_layout *layout,
                         const uf__guvec_arg *args,
                         const uf__gufunc_spec *spec,
                         const uf__gufunc_emit *emit, uf__strided_loop *fn,
                         uf_error *err)
{
    uf_error local;
    if (!err)
        err = &local;
    int tbytes = spec ? transpose_bytes(jit, spec, args, layout->nargs) : 0;
    bool missed = false;
    int rc = build(jit, tf_c, tf_a, layout, args, spec, emit, tbytes,
                   &missed, fn, err);
    /* no loop of the pattern: the variant the rule gives otherwise */
    if (rc == 0 && missed)
        rc = build(jit, tf_c, tf_a, layout, args, spec, emit, 0, &missed, fn,
                   err);
    return rc;
}

/* One compilation; with tbytes > 0 the transposed variant, or *missed and
 * nothing when no loop has its pattern. */
static int build(uf__jit *jit, const uf__typed_func *tf_c,
                 const uf__typed_func *tf_a, const uf__gufunc_layout *layout,
                 const uf__guvec_arg *args, const uf__gufunc_spec *spec,
                 const uf__gufunc_emit *emit, int tbytes, bool *missed,
                 uf__strided_loop *fn, uf_error *err)
{
    *missed = false;
    if (emit->listing)
        emit->listing->llvm_ir = emit->listing->asm_text = NULL;
    if (emit->obj)
        *emit->obj = NULL;
    if (tf_a->nargs != layout->nargs)
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "kernel '%s' has %d arguments, its layout %d",
                             tf_a->decl->name, tf_a->nargs, layout->nargs);
    uf__lower L;
    if (uf__jit_begin(jit, &L, err) != 0)
        return err->code;
    if (emit->stem)
        uf__jit_disk_prefix(jit, &L, emit->stem);
    char buf[64], *name = emit->symbol ? emit->symbol : buf;
    snprintf(name, emit->symbol ? emit->symcap : sizeof buf, "%s_guloop",
             L.prefix);
    bool fa = false, fc = false;
    LLVMValueRef kc = NULL;
    /* a unit variant calls only the 'C' kernel, a strided one only 'A' */
    bool want_c = tf_c && tf_c != tf_a && (!spec || spec->unit);
    bool want_a = !spec || !want_c;
    LLVMValueRef ka = NULL;
    if (want_a && !(ka = uf__lower_func(&L, tf_a, &fa, err)))
        goto fail;
    if (want_c && !(kc = uf__lower_func(&L, tf_c, &fc, err)))
        goto fail;
    if (!ka) { /* the loop checks the kernel through ka */
        ka = kc;
        fa = fc;
    }
    int jam = tbytes > 0 ? transpose_rows(tbytes, args, layout->nargs)
              : spec     ? jam_for_host(jit, spec)
                         : 0;
    if (jam > 1) {
        uf__lower_gufunc_jam(&L, ka, jam);
        if (kc && kc != ka)
            uf__lower_gufunc_jam(&L, kc, jam);
        L.passes = JAM_PASSES;
        /* a loop the pass leaves is no error: no warning on stderr */
        /* missed transformations are expected: only errors reach stderr */
        LLVMContextSetDiagnosticHandler(L.ctx, uf__jit_diag_errors_only,
                                        NULL);
    }
    if (!uf__lower_gufunc_loop_spec(&L, kc, fc, ka, fa, layout, args, spec,
                                    name, err))
        goto fail;
    if (jam > 1) {
        /* the pipeline runs here, jit_finish's has nothing left to do */
        const char *passes = L.passes;
        if (tbytes > 0) {
            if (uf__jit_run_passes(jit, &L, passes, err) != 0)
                goto fail;
            int rewritten = 0;
            for (LLVMValueRef f = LLVMGetFirstFunction(L.mod); f;
                 f = LLVMGetNextFunction(f))
                if (LLVMCountBasicBlocks(f) > 0)
                    rewritten += uf__gufunc_transpose(L.mod, f, tbytes,
                                                      TRANSPOSE_PREFETCH);
            if (rewritten == 0) {
                *missed = true;
                uf__jit_abort(&L);
                return 0;
            }
            passes = TRANSPOSE_PASSES;
        }
        /* the transposed loop has its own prefetches: none added */
        if (uf__jit_gufunc_prefetch(jit, &L, passes, name, PREFETCH_UNROLL,
                                    tbytes > 0 ? 0 : PREFETCH_DISTANCE,
                                    err) != 0)
            goto fail;
        L.passes = "verify";
    }
    const char *names[1] = {name};
    void *addr = NULL;
    if ((emit->obj ? uf__jit_finish_obj(jit, &L, names, &addr, 1, emit->obj,
                                        emit->objlen, err)
                   : uf__jit_finish(jit, &L, names, &addr, 1, emit->listing,
                                    err)) != 0)
        return err->code;
    *fn = (uf__strided_loop)(uintptr_t)addr;
    return 0;

fail:
    uf__jit_abort(&L);
    return err->code;
}

int uf__jit_gufunc_loop_spec(uf__jit *jit, const uf__typed_func *tf_c,
                             const uf__typed_func *tf_a,
                             const uf__gufunc_layout *layout,
                             const uf__guvec_arg *args,
                             const uf__gufunc_spec *spec,
                             uf__strided_loop *fn, uf__jit_listing *listing,
                             uf_error *err)
{
    uf__gufunc_emit emit = {.listing = listing};
    return uf__jit_gufunc_build(jit, tf_c, tf_a, layout, args, spec, &emit,
                                fn, err);
}
