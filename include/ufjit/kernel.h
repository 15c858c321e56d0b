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
    UF_FUNC_DEVICE, /* @cuda.jit(device=True) */
    UF_FUNC_KERNEL  /* @cuda.jit: launched over a grid with uf_launch */
} uf_func_kind;

UF_EXPORT uf_func_kind uf_func_get_kind(const uf_func *f);
UF_EXPORT const char *uf_func_name(const uf_func *f);
/* Inputs and outputs (a plain function has one output, or one per tuple
 * element of its return type once known; -1 when not known yet). */
UF_EXPORT int uf_func_nin(const uf_func *f);
UF_EXPORT int uf_func_nout(const uf_func *f);
/* How a plain function's outputs nest in what it returns, written as
 * Python writes a tuple of the output indexes: "0" for one value,
 * "(0, (1, 2))" for `return (a, (b, c))` (outputs 0, 1, 2: a nested
 * tuple's values depth first), "None", and "str(k)" for an output k that
 * is a returned string (`return s, n` gives "(str(0), 1)"); of the last
 * call's argument
 * types. NULL before the first call and for the other kinds. */
UF_EXPORT const char *uf_func_result_tree(const uf_func *f);
/* Declared signatures ("float32(float32, float32)"), 0 for a lazy kernel. */
UF_EXPORT int uf_func_nsignatures(const uf_func *f);
UF_EXPORT const char *uf_func_signature(const uf_func *f, int i);

/* Which axes a reduction (or a gufunc's axis=) works on. */
typedef enum uf_axes_mode {
    UF_AXES_DEFAULT = 0, /* the operation's default: axis 0 for uf_reduce
                            and uf_accumulate, every axis for reduce
                            kernels; none for gufuncs */
    UF_AXES_ALL,         /* every axis (NumPy's axis=None) */
    UF_AXES_LIST         /* exactly `axes` (none: reduce nothing, NumPy's
                            axis=()); a gufunc's axis= is one entry */
} uf_axes_mode;

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
    /* Threads for the `parallel` target; 0: UFJIT_NUM_THREADS, else one
     * per core. */
    int num_threads;
    /* Reductions (uf_reduce, uf_accumulate, reduce kernels) and a gufunc's
     * axis=: which axes, see uf_axes_mode. */
    uf_axes_mode axes_mode;
    int naxes;
    const int *axes; /* naxes entries; negative ones count from the end */
    /* Reductions and gufuncs: keep reduced (or core) axes as length 1. */
    bool keepdims;
    /* Reductions: the start value, a 0-d array (NumPy's initial=, Numba's
     * init=); NULL: the kernel's identity, an error on empty input when it
     * has none. */
    uf_array *initial;
    /* gufuncs: NumPy's axes=, one list per operand: gufunc_naxes[i] axes
     * in gufunc_axes[i]. gufunc_nops 0: not given. */
    int gufunc_nops;
    const int *gufunc_naxes;
    const int *const *gufunc_axes;
    /* The CUDA targets: the stream the call runs on (NULL: the legacy
     * default stream). A call whose operands are all on the device
     * returns once it is queued; one with host operands waits for it. */
    struct uf_stream *stream;
} uf_call_options;

/* Calls `f`. A NULL entry in `outputs` is allocated (and returned there,
 * owned by the caller). 0-d arrays stand for scalars. By kind:
 *  - vectorize: like a NumPy ufunc, inputs broadcast together, a given
 *    output must have the broadcast shape;
 *  - guvectorize: like a NumPy gufunc, core dimensions from the layout,
 *    loop dimensions broadcast (opts: gufunc_axes, axes for axis=,
 *    keepdims); n_out counts the kernel's output arguments;
 *  - reduce: one input reduced as uf_reduce (default every axis);
 *  - njit: the function called once; array arguments are passed as they
 *    are (writes to them are seen by the caller), 0-d arrays as scalars;
 *    the result is one 0-d output (one per element of a returned tuple),
 *    none for a function returning None; a returned string is a 1-D
 *    uint32 array of its code points (uf_func_result_tree says which). */
UF_EXPORT int uf_call(uf_func *f, uf_array *const *inputs, int n_in,
                      uf_array **outputs, int n_out,
                      const uf_call_options *opts, uf_error *err);

/* NumPy's ufunc methods, for vectorize kernels with two inputs and one
 * output (and, for uf_reduce, reduce kernels). `*out` NULL: allocated and
 * returned there; else the caller's array of the result's shape.
 *
 * uf_reduce: combines the elements along opts->axes (default axis 0) with
 * opts->keepdims and opts->initial; the ufunc's identity= (Numba's rules:
 * 0, 1, None, "reorderable" or a literal) starts each reduction and makes
 * empty reductions legal. Sums are pairwise (at least NumPy's accuracy).
 * uf_accumulate: running results along one axis (default 0).
 * uf_outer: f(a[i...], b[j...]) for every pair, shape a.shape + b.shape. */
UF_EXPORT int uf_reduce(uf_func *f, uf_array *in, uf_array **out,
                        const uf_call_options *opts, uf_error *err);
UF_EXPORT int uf_accumulate(uf_func *f, uf_array *in, uf_array **out,
                            const uf_call_options *opts, uf_error *err);
UF_EXPORT int uf_outer(uf_func *f, uf_array *a, uf_array *b, uf_array **out,
                       const uf_call_options *opts, uf_error *err);

enum uf_inspect_what {
    UF_INSPECT_TYPES = 1 << 0, /* the source annotated with each type */
    UF_INSPECT_LLVM = 1 << 1,  /* optimised LLVM IR */
    UF_INSPECT_ASM = 1 << 2,   /* host assembly */
    /* PTX of the cuda target's kernel (vectorize: the contiguous
     * variant; guvectorize: the general and the C-contiguous 32-bit
     * ones), with ptxas -v's registers, spills and shared memory when
     * ptxas is installed */
    UF_INSPECT_PTX = 1 << 3
};

/* Compiles `f` for `signature` (NULL: every declared signature) and
 * returns the requested listings as one string to free with uf_free. */
UF_EXPORT char *uf_func_inspect(uf_func *f, const char *signature,
                                unsigned what, uf_error *err);

UF_END_DECLS

#endif
