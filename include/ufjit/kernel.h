/* Kernels: contexts, kernel modules (.py files written for Numba), the
 * functions in them, and calling them on arrays. */
#ifndef UFJIT_KERNEL_H
#define UFJIT_KERNEL_H

#include <stdint.h>
#include <ufjit/array.h>

UF_BEGIN_DECLS

/* Owns the JIT, the compile caches and (later) the threading layer and the
 * memory manager. Contexts are independent of each other. */
typedef struct uf_context uf_context;
/* A loaded kernel file (or source string). */
typedef struct uf_module uf_module;
/* One kernel of a module: compiled per concrete signature, on demand. */
typedef struct uf_func uf_func;

UF_EXPORT uf_context *uf_context_new(uf_error *err);
/* Frees the context; every module loaded into it must be freed first. */
UF_EXPORT void uf_context_free(uf_context *ctx);

/* Reads and parses a kernel file. Syntax errors, unknown decorators and
 * unsupported constructs are reported with file:line:col and a caret. */
UF_EXPORT uf_module *uf_module_load(uf_context *ctx, const char *path,
                                    uf_error *err);
/* The same from source text; `name` is used as the file name in errors. */
UF_EXPORT uf_module *uf_module_from_string(uf_context *ctx, const char *name,
                                           const char *source, uf_error *err);
UF_EXPORT void uf_module_free(uf_module *m);

/* Number of kernels and their names, in source order. */
UF_EXPORT int uf_module_nfuncs(const uf_module *m);
UF_EXPORT const char *uf_module_func_name(const uf_module *m, int i);

/* The kernel called `name`; owned by the module. UF_ERR_NOT_FOUND lists
 * the names that exist. */
UF_EXPORT uf_func *uf_module_get(uf_module *m, const char *name,
                                 uf_error *err);

typedef enum uf_func_kind {
    UF_FUNC_UFUNC,  /* @vectorize */
    UF_FUNC_GUFUNC, /* @guvectorize */
    UF_FUNC_REDUCE, /* @reduce / @cuda.reduce */
    UF_FUNC_PLAIN,  /* @njit / @jit */
    UF_FUNC_DEVICE  /* @cuda.jit(device=True) */
} uf_func_kind;

UF_EXPORT uf_func_kind uf_func_get_kind(const uf_func *f);
UF_EXPORT const char *uf_func_name(const uf_func *f);
/* Inputs and outputs (a plain function has one output, or one per tuple
 * element of its return type once known; -1 when not known yet). */
UF_EXPORT int uf_func_nin(const uf_func *f);
UF_EXPORT int uf_func_nout(const uf_func *f);
/* Declared signatures ("float32(float32, float32)"), 0 for a lazy kernel. */
UF_EXPORT int uf_func_nsignatures(const uf_func *f);
UF_EXPORT const char *uf_func_signature(const uf_func *f, int i);

/* Options of uf_call. Zero-initialise, then set what you need; fields may
 * be added at the end, so always set `size = sizeof(uf_call_options)`. */
typedef struct uf_call_options {
    size_t size;
    /* "cpu" (default: the kernel's declared target, else cpu). */
    const char *target;
    /* Casting rule for outputs (default UF_CASTING_SAME_KIND, as NumPy).
     * Inputs are always cast safely to the chosen loop's types. */
    uf_casting casting;
    bool casting_set;
    /* Boolean mask broadcast against the inputs; NULL for everywhere. */
    uf_array *where;
} uf_call_options;

/* Calls `f` like a NumPy ufunc: inputs broadcast together, a NULL entry in
 * `outputs` is allocated (and returned there, owned by the caller), a given
 * output must have the broadcast shape. 0-d arrays stand for scalars. */
UF_EXPORT int uf_call(uf_func *f, uf_array *const *inputs, int n_in,
                      uf_array **outputs, int n_out,
                      const uf_call_options *opts, uf_error *err);

enum uf_inspect_what {
    UF_INSPECT_TYPES = 1 << 0, /* the source annotated with each type */
    UF_INSPECT_LLVM = 1 << 1,  /* optimised LLVM IR */
    UF_INSPECT_ASM = 1 << 2    /* host assembly */
};

/* Compiles `f` for `signature` (NULL: every declared signature) and
 * returns the requested listings as one string to free with uf_free. */
UF_EXPORT char *uf_func_inspect(uf_func *f, const char *signature,
                                unsigned what, uf_error *err);

UF_END_DECLS

#endif
