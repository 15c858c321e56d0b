/* The one compilation of a gufunc loop (jit_gufunc_spec.h): the kernel
 * typed 'C' and 'A' lowered into one module, the loop around them, with a
 * spec's constants in the loop when there is one; a jammed variant also
 * gets software prefetches (jit_gufunc_spec_prefetch.c). The generic loop
 * (uf__jit_gufunc_loop) and the disk cache's (uf__jit_gufunc_loop_obj)
 * are this with no spec. */
#include <stdio.h>

#include <llvm-c/Core.h>

#include "common/error_internal.h"
#include "compiler/host/jit_gufunc_spec.h"

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
    if (spec && spec->jam > 1) {
        uf__lower_gufunc_jam(&L, ka, spec->jam);
        if (kc && kc != ka)
            uf__lower_gufunc_jam(&L, kc, spec->jam);
        L.passes = JAM_PASSES;
        /* a loop the pass leaves is no error: no warning on stderr */
        /* missed transformations are expected: only errors reach stderr */
        LLVMContextSetDiagnosticHandler(L.ctx, uf__jit_diag_errors_only,
                                        NULL);
    }
    if (!uf__lower_gufunc_loop_spec(&L, kc, fc, ka, fa, layout, args, spec,
                                    name, err))
        goto fail;
    if (spec && spec->jam > 1) {
        /* the pipeline runs here, jit_finish's has nothing left to do */
        if (uf__jit_gufunc_prefetch(jit, &L, L.passes, name, PREFETCH_UNROLL,
                                    PREFETCH_DISTANCE, err) != 0)
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
