/* The cuda.jit kind: kernels launched over a grid (launch.c; uf_launch is
 * the public entry, include/ufjit/launch.h). */
#ifndef UF_LAUNCH_LAUNCH_H
#define UF_LAUNCH_LAUNCH_H

#include "compiler/module.h"

extern const uf__kind_ops uf__cuda_kernel_kind;

/* The kind's inspect op (launch_inspect.c). */
int uf__cuda_kernel_inspect(uf_func *f, const char *sig, unsigned what,
                            uf__strbuf *out, uf_error *err);

#endif
