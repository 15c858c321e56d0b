/* guvectorize kernels as gufunc loops (guvectorize.c): the layout read as
 * Numba reads it, each signature checked against it, the kernel typed and
 * compiled into the loop of gufunc/gufunc.h; and the call path of
 * guvectorize uf_funcs (guvectorize_func.c). */
#ifndef UF_GUFUNC_GUVECTORIZE_H
#define UF_GUFUNC_GUVECTORIZE_H

#include <stdbool.h>

#include "compiler/host/jit_gufunc.h"
#include "compiler/front/kmodule.h"
#include "compiler/module.h"
#include "compiler/front/layout.h"
#include "ufunc/ufunc.h"

/* The kernel's inputs and outputs as its layout text gives them, without
 * allocating (for uf_func_nin/nout before any call): the outputs are the
 * groups after '->' (none without one, Numba's "(n),(n)" of STREAM's
 * copy), the inputs the remaining parameters. False when the text says
 * more outputs than the kernel has parameters. */
bool uf__guvectorize_arity(const uf__kernel_decl *decl, int *nin,
                           int *nout);

/* The layout of a guvectorize kernel, checked as Numba checks it (bad
 * tokens, output symbols no input defines), then parsed with NumPy's
 * grammar for the kernel's arity; fixed sizes "(3)" and flexible
 * dimensions "n?" are accepted, which Numba refuses. Errors point at the
 * layout string in the kernel source. */
uf__gufunc_layout *uf__guvectorize_layout(const uf__kmodule *km,
                                          const uf__kernel_decl *decl,
                                          uf_error *err);

/* Compiles declared signature `sig` (Numba's "void(float64[:,:],
 * float64[:], float64[:])" form, or without a return type): checks it
 * against the layout argument by argument with Numba's messages, types the
 * kernel for both loop variants and fills `loop` (operand dtypes, the
 * function). `listing` may be NULL. */
int uf__guvectorize_compile(uf__kmodule *km, const uf__kernel_decl *decl,
                            const uf__gufunc_layout *layout, uf__jit *jit,
                            const uf__signature *sig, uf__ufunc_loop *loop,
                            uf__jit_listing *listing, uf_error *err);

/* A kernel without signatures, for the operand dtypes `types` (inputs,
 * then outputs; -1 for an output whose dtype is to be inferred). Inputs
 * with "()" are plain scalars (Numba's dynamic gufunc; a kernel reading
 * x[0] gets Numba's one-element array instead), outputs with "()" one-
 * element arrays. An absent output's dtype is what the kernel stores into
 * it: the values assigned to out[...] unified (literals such as out[0] = 0
 * count only when nothing else is stored), found by typing the kernel
 * with a first guess, the inputs' promoted dtype, and again until the
 * guess holds; a kernel that stores nothing there keeps the guess. */
int uf__guvectorize_compile_lazy(uf__kmodule *km, const uf__kernel_decl *decl,
                                 const uf__gufunc_layout *layout,
                                 uf__jit *jit, const int *types,
                                 uf__ufunc_loop *loop,
                                 uf__jit_listing *listing, uf_error *err);

/* ---- the pieces of those compilations other targets share ---- */

/* How each operand of declared signature `sig` reaches the kernel
 * (args[0..lay->nargs)), checked against the layout with Numba's
 * messages. */
int uf__guvectorize_sig_args(const uf__kernel_decl *decl,
                             const uf__gufunc_layout *lay,
                             const uf__signature *sig, uf__guvec_arg *args,
                             uf_error *err);

/* The same for a kernel without signatures and operand dtypes `types`
 * (as uf__guvectorize_compile_lazy: absent outputs' dtypes inferred, a
 * "()" input a plain scalar unless the kernel reads it as x[0]). */
int uf__guvectorize_lazy_args(uf__kmodule *km, const uf__kernel_decl *decl,
                              const uf__gufunc_layout *lay, const int *types,
                              uf__guvec_arg *args, uf_error *err);

/* The kernel typed for args with every ARRAY operand of layout `layout`
 * ('A' or 'C'); UF_ERR_TYPING when it returns a value. */
uf__typed_func *uf__guvectorize_type(uf__kmodule *km,
                                     const uf__kernel_decl *decl,
                                     const uf__gufunc_layout *lay,
                                     const uf__guvec_arg *args, char layout,
                                     uf_error *err);

/* The guvectorize kind (compiler/module.h). */
extern const uf__kind_ops uf__guvectorize_kind;

#endif
