/* One compilation of a guvectorize signature: the kernel typed for 'C' and
 * for 'A' arrays lowered into one module, the gufunc loop around both
 * (lower_gufunc_loop.c), optimised and added to the JIT as the model
 * uf__jit_ufunc_loop does for vectorize kernels (jit_gufunc_spec.c, with
 * no specialisation). */
#include "compiler/jit_gufunc_spec.h"

int uf__jit_gufunc_loop(uf__jit *jit, const uf__typed_func *tf_c,
                        const uf__typed_func *tf_a,
                        const uf__gufunc_layout *layout,
                        const uf__guvec_arg *args, uf__strided_loop *fn,
                        uf__jit_listing *listing, uf_error *err)
{
    return uf__jit_gufunc_loop_spec(jit, tf_c, tf_a, layout, args, NULL, fn,
                                    listing, err);
}
