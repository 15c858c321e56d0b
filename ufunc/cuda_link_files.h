/* What a CUDA kernel links with (cuda.jit link=, declare_device link=):
 * the files made into the driver linker's inputs. Private to
 * ufunc/cuda_*.c and launch/. */
#ifndef UF_UFUNC_CUDA_LINK_FILES_H
#define UF_UFUNC_CUDA_LINK_FILES_H

#include "compiler/module.h"
#include "targets/cuda/cuda_link.h"

/* Upper bound on a kernel's link files. */
#define UF__CUDA_MAX_LINK 32

typedef struct uf__cuda_link_inputs {
    uf__cu_link_input in[UF__CUDA_MAX_LINK];
    char *text[UF__CUDA_MAX_LINK]; /* owned PTX (read or from nvcc) */
    int n;
} uf__cuda_link_inputs;

/* f's link files as linker inputs: .ptx read as it is, .cu compiled to
 * PTX by nvcc for `arch` ("compute_90"), .cubin, .fatbin, .o and .a
 * given to the linker by path; .ltoir (link-time optimisation, which
 * needs nvJitLink) and other extensions refused. A missing file is
 * UF_ERR_NOT_FOUND naming it. out->n == 0: nothing to link. Free with
 * uf__cuda_link_inputs_clear (also after a failure). */
int uf__cuda_link_inputs_get(const uf_func *f, const char *arch,
                             uf__cuda_link_inputs *out, uf_error *err);
void uf__cuda_link_inputs_clear(uf__cuda_link_inputs *li);

#endif
