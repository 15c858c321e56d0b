/* Gufunc loops specialised for a call's core shape (compiler/
 * jit_gufunc_spec.h), compiled lazily and remembered per compiled loop.
 *
 * A call whose core dimensions are all small (<= UF__GUFUNC_SPEC_MAXSIZE)
 * and whose work is worth a compilation runs a variant of its loop with
 * the sizes (and, when its operands are C-contiguous over their core
 * dimensions, the core steps) as constants; other calls keep the generic
 * loop. Variants are keyed by (the loop, core sizes, unit steps or not),
 * published lock-free once compiled (readers take no lock), compiled
 * under the context lock. Results are the generic loop's bit for bit. */
#ifndef UF_GUFUNC_GUFUNC_SPECIALISE_H
#define UF_GUFUNC_GUFUNC_SPECIALISE_H

#include "compiler/host/jit_gufunc_spec.h"
#include "compiler/module.h"
#include "compiler/types/types.h"

/* Core sizes above this keep the generic loop. */
#define UF__GUFUNC_SPEC_MAXSIZE 64

/* The variants of one compiled loop (its aux pointer). */
typedef struct uf__gufunc_variants uf__gufunc_variants;

/* For a loop of `f` compiled for declared signature `sig`, or with `sig`
 * NULL for a lazily compiled one (its "()" inputs typed as scalars when
 * the kernel allows, else as one-element arrays, as the lazy compile
 * does). */
uf__gufunc_variants *uf__gufunc_variants_new(const uf__gufunc_layout *lay,
                                             const uf__signature *sig,
                                             uf_error *err);
void uf__gufunc_variants_free(uf__gufunc_variants *v);

/* The variant of `loop` (loop->aux a uf__gufunc_variants, or NULL) for
 * a call of `f` with the loop arguments dims/steps (gufunc.h; dims[0] is
 * not read) over `iterations` iterations on arrays `ops` (the variant
 * tells LLVM the operands are disjoint when no two of them share memory),
 * compiled now when new; NULL
 * when the generic loop is to run (sizes too large, too little work, no
 * room, or the compilation failed: a failure is remembered, not
 * reported). `locked`: the caller holds the context lock. */
uf__strided_loop uf__gufunc_variant(uf_func *f, bool locked,
                                    const uf__ufunc_loop *loop,
                                    const int64_t *dims,
                                    const int64_t *steps,
                                    int64_t iterations,
                                    uf_array *const *ops);

/* For tests: the work (iterations times core sizes) from which calls are
 * specialised (default UF__GUFUNC_SPEC_MIN_WORK; 0: always; negative:
 * never), returning the previous value; and how many variants `loop`
 * compiled successfully. */
#define UF__GUFUNC_SPEC_MIN_WORK ((int64_t)1 << 22)
int64_t uf__gufunc_spec_set_min_work(int64_t work);
int uf__gufunc_variants_compiled(const uf__ufunc_loop *loop);

#endif
