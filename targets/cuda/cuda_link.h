/* A kernel's PTX linked with foreign device code (cuda.jit link=) by the
 * driver's linker, and the result loaded as a module. */
#ifndef UF_TARGETS_CUDA_CUDA_LINK_H
#define UF_TARGETS_CUDA_CUDA_LINK_H

#include <stddef.h>

#include "targets/cuda/cu_driver.h"

/* One input: in memory (data, size; PTX as NUL-terminated text) or a
 * file the linker reads (path, data NULL). `name` names it in messages. */
typedef struct uf__cu_link_input {
    uf__cu_jit_input type;
    const char *name;
    const void *data;
    size_t size;
    const char *path;
} uf__cu_link_input;

/* Links `ptx` (the kernel's, NUL-terminated) with in[0..n) through d's
 * linker (cuLinkCreate ... cuLinkComplete) and loads the cubin into *mod
 * (cuModuleLoadData). Errors name the failing call and the input, with
 * the linker's error log (e.g. an undefined reference); UF_ERR_NO_DEVICE
 * when d has no linker (cudasim, a driver without cuLink*). The driver's
 * context must be current. */
int uf__cuda_link_load(const uf__cu_driver *d, const char *ptx,
                       const uf__cu_link_input *in, int n,
                       uf__cu_module *mod, uf_error *err);

#endif
