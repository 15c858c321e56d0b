/* A guvectorize loop compiled for the disk cache (jit_gufunc_obj.c): the
 * generic loop of uf__jit_gufunc_loop with its symbol named by content and
 * the object file kept, for gufunc/guvectorize.c to store. */
#ifndef UF_COMPILER_JIT_GUFUNC_OBJ_H
#define UF_COMPILER_JIT_GUFUNC_OBJ_H

#include <stddef.h>

#include "compiler/jit_gufunc.h"

/* uf__jit_gufunc_loop (no listing) with the symbol named by `stem`
 * (uf__jit_disk_prefix); its name into symbol[0..symcap), the object file
 * the JIT runs into *obj (free with uf__free), *objlen bytes. */
int uf__jit_gufunc_loop_obj(uf__jit *jit, const uf__typed_func *tf_c,
                            const uf__typed_func *tf_a,
                            const uf__gufunc_layout *layout,
                            const uf__guvec_arg *args, const char *stem,
                            uf__strided_loop *fn, char *symbol,
                            size_t symcap, char **obj, size_t *objlen,
                            uf_error *err);

#endif
