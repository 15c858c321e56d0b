/* A gufunc loop specialised for one call's core shape: every core
 * dimension size a constant, and (when the call's operands are
 * C-contiguous over their core dimensions) the core steps too, so that
 * LLVM unrolls and SLP-vectorises a kernel over small core sizes (a
 * matmul 8x8's k loop is shorter than the loop vectoriser's minimum trip
 * count; as constants it becomes straight-line vector code). The
 * generic loop of jit_gufunc.h reads them at run time. The kernel's own
 * operation order is untouched: results are the generic loop's bit for
 * bit. gufunc/gufunc_specialise.c decides when and caches variants. */
#ifndef UF_COMPILER_JIT_GUFUNC_SPEC_H
#define UF_COMPILER_JIT_GUFUNC_SPEC_H

#include "compiler/host/jit_gufunc.h"

/* Layouts with more dimensions than this are never specialised. */
#define UF__GUFUNC_SPEC_MAXDIMS 8

typedef struct uf__gufunc_spec {
    int ndims;                             /* the layout's */
    int64_t dim[UF__GUFUNC_SPEC_MAXDIMS];  /* size of layout dimension d */
    /* every ARRAY operand is C-contiguous over its core dimensions (the
     * loop runs only the 'C' kernel, with constant core steps); else
     * only the 'A' kernel, with the call's steps */
    bool unit;
    /* no two operands share memory (the call checked): the loop tells
     * LLVM so (noalias), which lets it reorder and vectorise accesses of
     * different operands */
    bool noalias;
    /* iterations of the kernel's outer loops interleaved by LLVM's
     * unroll-and-jam (0 or 1: none) where it proves it safe: independent
     * dependency chains (a matvec's rows) run side by side, each in its
     * own order */
    int jam;
} uf__gufunc_spec;

/* Where uf__jit_gufunc_build puts the loop besides the JIT: a listing
 * (NULL: none); or, with `stem`, the disk cache's object (the module's
 * symbols named by content, uf__jit_disk_prefix): the loop's name into
 * symbol[0..symcap), the object file into *obj (free with uf__free),
 * *objlen bytes. */
typedef struct uf__gufunc_emit {
    uf__jit_listing *listing;
    const char *stem;
    char *symbol;
    size_t symcap;
    char **obj;
    size_t *objlen;
} uf__gufunc_emit;

/* The one compilation behind uf__jit_gufunc_loop, uf__jit_gufunc_loop_obj
 * and uf__jit_gufunc_loop_spec; spec NULL gives the generic loop. */
int uf__jit_gufunc_build(uf__jit *jit, const uf__typed_func *tf_c,
                         const uf__typed_func *tf_a,
                         const uf__gufunc_layout *layout,
                         const uf__guvec_arg *args,
                         const uf__gufunc_spec *spec,
                         const uf__gufunc_emit *emit, uf__strided_loop *fn,
                         uf_error *err);

/* As uf__jit_gufunc_loop, for the calls whose core shape is `spec`. */
int uf__jit_gufunc_loop_spec(uf__jit *jit, const uf__typed_func *tf_c,
                             const uf__typed_func *tf_a,
                             const uf__gufunc_layout *layout,
                             const uf__guvec_arg *args,
                             const uf__gufunc_spec *spec,
                             uf__strided_loop *fn, uf__jit_listing *listing,
                             uf_error *err);

/* Asks LLVM's unroll-and-jam (which the pipeline must run) to interleave
 * `count` iterations of each loop of `kernel` (a freshly lowered kernel:
 * its loops' back edges are the unconditional branches to an earlier
 * block). Loops the pass finds unsafe or without an inner loop are left
 * as they are. */
void uf__lower_gufunc_jam(uf__lower *L, LLVMValueRef kernel, int count);

/* Runs `passes` on L's module now, with jit's target machine
 * (uf__jit_run_passes; the caller then gives uf__jit_finish
 * a pipeline with nothing left to do: UFJIT_DUMP_LLVM shows the module
 * optimised already), unrolls each innermost loop of the function `entry`
 * up to `unroll` times, as far as a trip then reads a whole cache line of
 * each stream of its loads, then adds software prefetches `distance`
 * bytes ahead of its loads, one per line a trip starts
 * (jit_gufunc_spec_prefetch.c). Results are the same bit for bit.
 * 0 or an error code. */
int uf__jit_gufunc_prefetch(uf__jit *jit, uf__lower *L, const char *passes,
                            const char *entry, int unroll,
                            int64_t distance, uf_error *err);

/* The kernel's argument for an operand at p (i8*) reaching it as `arg`
 * says: the value loaded from p (SCALAR), Numba's one-element array
 * (ELEM), or the array over its nd core sizes and byte strides (i64
 * values; ARRAY). The host gufunc loop and the CUDA entry share it. */
LLVMValueRef uf__lower_gufunc_operand(uf__lower *L, const uf__guvec_arg *arg,
                                      LLVMValueRef p,
                                      const LLVMValueRef *shape,
                                      const LLVMValueRef *strides, int nd);

/* Emits `int name(void *ctx, char *const *data, const int64_t *dims,
 * const int64_t *steps, void *aux)` calling `kc` (may be NULL) or `ka`
 * per iteration (lower/lower_gufunc_loop.c), specialised for `spec`;
 * spec NULL gives the generic loop. */
LLVMValueRef uf__lower_gufunc_loop_spec(uf__lower *L, LLVMValueRef kc,
                                        bool kc_fallible, LLVMValueRef ka,
                                        bool ka_fallible,
                                        const uf__gufunc_layout *layout,
                                        const uf__guvec_arg *args,
                                        const uf__gufunc_spec *spec,
                                        const char *name, uf_error *err);

#endif
