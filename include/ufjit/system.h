/* What this build and this machine offer: the targets calls can name, the
 * parallel target's threading layer, and the host the JIT compiles for
 * (`ufjit sysinfo`, like `numba -s`). */
#ifndef UFJIT_SYSTEM_H
#define UFJIT_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <ufjit/error.h>
#include <ufjit/export.h>
#include <ufjit/kernel.h>

UF_BEGIN_DECLS

/* The targets of this build, in the registry's order: i in
 * [0, uf_target_count()); name ("cpu") and a one-line summary; NULL for an
 * i out of range. */
UF_EXPORT int uf_target_count(void);
UF_EXPORT const char *uf_target_name(int i);
UF_EXPORT const char *uf_target_summary(int i);
/* Whether `name` names a target ufjit defines, built into this build or
 * not yet ("cuda"): a call naming one this build lacks fails as "not
 * available yet"; other names are simply wrong. uf_target_names writes
 * every such name, "cpu, parallel, cuda, cudasim", into buf and returns
 * it. */
UF_EXPORT bool uf_target_defined(const char *name);
UF_EXPORT const char *uf_target_names(char *buf, size_t size);

/* The parallel target's threading: the layers built in ("omp tbb", the
 * serial one always is), the layer this process uses ("omp", "tbb" or
 * "serial": UFJIT_THREADING_LAYER or the best built in) and its default
 * thread count (UFJIT_NUM_THREADS or the CPUs this process may use). A bad
 * UFJIT_THREADING_LAYER or UFJIT_NUM_THREADS: uf_threading_layer returns
 * NULL with the error every parallel call reports. */
UF_EXPORT const char *uf_threading_layers_available(void);
UF_EXPORT const char *uf_threading_layer(uf_error *err);
UF_EXPORT int uf_threading_default_threads(void);

/* The LLVM version the JIT is built against ("14.0.6"). */
UF_EXPORT const char *uf_llvm_version(void);

/* The host the context's JIT compiles for (created on first use): CPU
 * name ("skylake-avx512"), its LLVM feature list, and whether vector math
 * goes through glibc's libmvec. The strings live as long as the context.
 * Returns 0, or a negative code with err set (LLVM cannot target the
 * host). */
UF_EXPORT int uf_jit_host(uf_context *ctx, const char **cpu,
                          const char **features, bool *libmvec,
                          uf_error *err);
/* What math calls in the context's vectorised loops use, in words:
 * "glibc libmvec, AVX-512 and AVX2 variants; SLEEF (libsleef.so.3) for
 * sinf cosf ... on AVX-512", or "scalar libm (...)" and why. Lives as long
 * as the context; NULL with err set as uf_jit_host. */
UF_EXPORT const char *uf_jit_vector_math(uf_context *ctx, uf_error *err);

/* The CUDA driver (libcuda.so.1, or the library UFJIT_CUDA_DRIVER names),
 * loaded on first use, whatever UFJIT_ENABLE_CUDASIM says: returns its
 * device count (>= 1) and writes its version ("13.0") into version and the
 * file it was loaded from into path (either may be NULL). Without a usable
 * driver, UF_ERR_NO_DEVICE with the reason in err: no library (the
 * loader's message), the toolkit's stub library, a driver too old, no
 * device. */
UF_EXPORT int uf_cuda_driver(char *version, size_t version_size, char *path,
                             size_t path_size, uf_error *err);

/* CUDA device i of [0, uf_cuda_driver()): its name, compute capability
 * and total memory in bytes (any output may be NULL). Returns 0, or a
 * negative code with err set. */
UF_EXPORT int uf_cuda_device(int i, char *name, size_t name_size,
                             int *cc_major, int *cc_minor,
                             size_t *total_bytes, uf_error *err);

/* The CUDA toolkit pieces the CUDA target compiles with (searched once:
 * CUDA_HOME, CUDA_PATH, /usr/local/cuda, the loader, PATH). Each piece
 * is a path, or NULL with the reason it is missing; nvvm versions are
 * 0 when libnvvm is missing, ptxas_version "" when unknown. The strings
 * live as long as the process. */
typedef struct uf_cuda_toolkit {
    const char *libnvvm_path, *libnvvm_missing;
    int nvvm_version[2];    /* nvvmVersion: {2, 0} */
    int nvvm_ir_version[2]; /* nvvmIRVersion */
    const char *libdevice_path, *libdevice_missing;
    const char *ptxas_path, *ptxas_version, *ptxas_missing;
} uf_cuda_toolkit;
UF_EXPORT void uf_cuda_toolkit_info(uf_cuda_toolkit *out);

UF_END_DECLS

#endif
