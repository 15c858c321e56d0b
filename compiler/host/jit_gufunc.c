/* Compiling a guvectorize signature (jit_gufunc.h): the generic loop,
 * for the JIT alone or for the disk cache too. Both are the compilation
 * of jit_gufunc_spec.c with no spec, so a cached loop is the one the JIT
 * would build. */
#include "compiler/host/jit_gufunc_spec.h"

int uf__jit_gufunc_loop(uf__jit *jit, const uf__typed_func *tf_c,
                        const uf__typed_func *tf_a,
                        const uf__gufunc_layout *layout,
                        const uf__guvec_arg *args, uf__strided_loop *fn,
                        uf__jit_listing *listing, uf_error *err)
{
    return uf__jit_gufunc_loop_spec(jit, tf_c, tf_a, layout, args, NULL, fn,
                                    listing, err);
}

int uf__jit_gufunc_loop_obj(uf__jit *jit, const uf__typed_func *tf_c,
                            const uf__typed_func *tf_a,
                            const uf__gufunc_layout *layout,
                            const uf__guvec_arg *args, const char *stem,
                            uf__strided_loop *fn, char *symbol,
                            size_t symcap, char **obj, size_t *objlen,
                            uf_error *err)
{
    uf__gufunc_emit emit = {.stem = stem, .symbol = symbol,
                            .symcap = symcap, .obj = obj, .objlen = objlen};
    return uf__jit_gufunc_build(jit, tf_c, tf_a, layout, args, NULL, &emit,
                                fn, err);
}
