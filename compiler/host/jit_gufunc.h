/* Compiling a guvectorize kernel into a gufunc inner loop (the convention
 * of gufunc/gufunc.h): jit_gufunc.c drives the compilation,
 * lower_gufunc_loop.c emits the loop around the kernel. */
#ifndef UF_COMPILER_JIT_GUFUNC_H
#define UF_COMPILER_JIT_GUFUNC_H

#include "compiler/lower/lower.h"
#include "compiler/front/layout.h"

/* How one operand reaches the kernel. */
typedef enum uf__guvec_argkind {
    UF__GUVEC_ARRAY,  /* an array of the operand's core dimensions */
    UF__GUVEC_ELEM,   /* a "()" operand as Numba's 1-d array of one element
                         (the kernel reads or writes x[0]) */
    UF__GUVEC_SCALAR  /* a "()" input passed as a plain value */
} uf__guvec_argkind;

typedef struct uf__guvec_arg {
    uf__guvec_argkind kind;
    uf_dtype dtype;
} uf__guvec_arg;

/* Compiles the loop of one signature. `tf_c` types every ARRAY operand
 * 'C' (run when all of them are C-contiguous over their core dimensions
 * at call time; NULL when there is no such variant), `tf_a` every ARRAY
 * operand 'A' (any strides); ELEM operands are 'C' in both. args has
 * layout->nargs entries. `listing` may be NULL. */
int uf__jit_gufunc_loop(uf__jit *jit, const uf__typed_func *tf_c,
                        const uf__typed_func *tf_a,
                        const uf__gufunc_layout *layout,
                        const uf__guvec_arg *args, uf__strided_loop *fn,
                        uf__jit_listing *listing, uf_error *err);

/* uf__jit_gufunc_loop (no listing) for the disk cache: the symbol named
 * by `stem` (uf__jit_disk_prefix); its name into symbol[0..symcap), the
 * object file the JIT runs into *obj (free with uf__free), *objlen
 * bytes. */
int uf__jit_gufunc_loop_obj(uf__jit *jit, const uf__typed_func *tf_c,
                            const uf__typed_func *tf_a,
                            const uf__gufunc_layout *layout,
                            const uf__guvec_arg *args, const char *stem,
                            uf__strided_loop *fn, char *symbol,
                            size_t symcap, char **obj, size_t *objlen,
                            uf_error *err);

#endif
