/* A kernel file after parsing: its imports, folded module constants and
 * decorated kernels, checked against what the kernel language supports. */
#ifndef UF_COMPILER_KMODULE_H
#define UF_COMPILER_KMODULE_H

#include <stdbool.h>
#include <stdint.h>
#include <ufjit/array.h>

#include "compiler/front/ast.h"
#include "compiler/types/builtins.h"
#include "compiler/types/types.h"

typedef enum uf__kernel_kind {
    UF__K_VECTORIZE,   /* @vectorize / @vectorize([...], target=...) */
    UF__K_GUVECTORIZE, /* @guvectorize([...], '(n),()->(n)') */
    UF__K_REDUCE,      /* @reduce, @cuda.reduce */
    UF__K_NJIT,        /* @njit, @jit, @jit(nopython=True) */
    UF__K_DEVICE,      /* @cuda.jit(device=True) */
    UF__K_CUDA_KERNEL  /* @cuda.jit: launched over a grid (uf_launch) */
} uf__kernel_kind;
#define UF__K_COUNT (UF__K_CUDA_KERNEL + 1)

/* A folded constant: a number (math.pi, SQRT_2PI = float32(...)). */
typedef struct uf__constant {
    const uf__type *type; /* a scalar type */
    union {
        bool b;
        int64_t i;  /* signed ints */
        uint64_t u; /* unsigned ints */
        double f;   /* float32 values are stored already rounded */
        double c[2];
    } v;
} uf__constant;

typedef struct uf__kernel_decl {
    const char *name;
    const uf__stmt *def; /* the FUNCDEF */
    uf__kernel_kind kind;
    const char **signatures; /* as written, in order; NULL/0 when lazy */
    uf__pos *signature_pos;
    int nsignatures;
    const char *layout; /* guvectorize layout string, else NULL */
    const char *target; /* "cpu" (default), "parallel", "cuda" */
    /* identity= for vectorize: NULL when absent, else "0", "1", "None",
     * "reorderable" or a literal's text */
    const char *identity;
    bool fastmath, cache, boundscheck;
    /* njit(parallel=True): prange loops run on the threads (lower_prange.c) */
    bool parallel;
    /* guvectorize writable_args=: bit i set when argument i is an input
     * whose writes reach the caller's array, even through a cast copy */
    uint64_t writable_args;
    uf__pos writable_args_pos; /* of the keyword's value, for errors */
    int max_registers; /* cuda.jit max_registers=; 0: none */
    /* cuda.jit link=: files to link with the kernel's PTX, as paths
     * resolved against the kernel file's folder (kmodule_extern.c) */
    const char **link;
    int nlink;
} uf__kernel_decl;

/* A foreign device function, `mul = cuda.declare_device('mul',
 * 'float32(float32, float32)')`: called by its symbol with numba-cuda's
 * ABI, `int mul(float *ret, float x, float y)` (abi='numba', returning 0)
 * or `float mul(float x, float y)` (abi='c'), from code linked in with
 * link= (kmodule_extern.c). */
typedef struct uf__extern_decl {
    const char *symbol;
    const char *signature; /* as written */
    uf__pos pos;           /* of the declare_device call */
    const uf__type *ret;   /* a scalar, or none */
    const uf__type *const *args; /* scalars */
    int nargs;
    bool c_abi;
} uf__extern_decl;

/* A module-level array, A = np.array([...], dtype=np.float32), built when
 * the file is scanned (kmodule_array.c) with NumPy's values bit for bit:
 * kernels read it as a readonly C-contiguous array frozen into the code
 * (lower_garray.c). */
typedef struct uf__garray {
    const char *name; /* the first name bound to it */
    uf_dtype dtype;
    int ndim; /* >= 1 */
    int64_t shape[UF_MAXDIMS];
    const void *data; /* C order, in the arena */
    size_t nbytes;
    uf__pos pos; /* of the value */
} uf__garray;

/* CUDA's constant memory, where NVVM keeps module-level arrays. */
#define UF__CUDA_CONST_MAX (64u << 10)

/* What a module-level name stands for. */
typedef enum uf__global_kind {
    UF__G_MODULE,    /* import math / numpy as np / from numba import cuda */
    UF__G_BUILTIN,   /* from math import sqrt */
    UF__G_DTYPE,     /* from numba import float32 / np.float32 */
    UF__G_DECORATOR, /* from numba import vectorize */
    UF__G_KERNEL,    /* a def in this file */
    UF__G_CONSTANT,
    UF__G_EXTERN,    /* cuda.declare_device(...) */
    UF__G_ARRAY,     /* A = np.array([...]) and friends (kmodule_array.c) */
    UF__G_TUPLE,     /* SHAPE = (3, 4): a tuple of folded numbers */
    UF__G_TYPE       /* LT = types.ListType(types.float64): a container
                        type for List.empty_list / Dict.empty
                        (typed_containers.c) */
} uf__global_kind;

typedef struct uf__global {
    const char *name;
    uf__global_kind kind;
    const char *module;     /* MODULE: "math", "numpy", "cmath", "numba",
                               "numba.cuda" */
    uf__builtin builtin;    /* BUILTIN */
    uf_dtype dtype;         /* DTYPE */
    int kernel;             /* KERNEL: index into kernels */
    uf__constant constant;  /* CONSTANT (type Literal[str] for MODE = 's') */
    int ext;                /* EXTERN: index into externs */
    const uf__garray *array; /* ARRAY */
    const uf__constant *elts; /* TUPLE: its numbers, `n` of them */
    const uf__type *type;      /* TYPE, or NULL: refused, type_error says
                                  why when a kernel uses it */
    const uf_error *type_error;
    int n;
} uf__global;

typedef struct uf__kmodule {
    const uf__source *src;
    uf__arena *arena; /* owns the tree, tables and typed functions */
    uf__typectx *tc;
    uf__ast_module *ast;
    uf__kernel_decl *kernels;
    int nkernels;
    uf__global *globals;
    int nglobals;
    uf__extern_decl *externs;
    int nexterns;
    /* every declare_device link= of the file, resolved (kmodule_extern.c) */
    const char **extern_link;
    int nextern_link;
    /* typed specialisations made so far (see infer.h), for reuse */
    struct uf__typed_func **typed;
    int ntyped, captyped;
    /* counts top-level typings (uf__infer): a callee that failed is not
     * typed again within one (compiler/types/infer.c) */
    unsigned infer_generation;
    /* numba.typed's List.empty_list / Dict.empty calls and the types they
     * declare (compiler/front/typed_containers.c) */
    struct uf__typed_decl *typed_decls;
    int ntyped_decls;
    struct uf__typed_var *typed_vars; /* locals holding a typed List */
    int ntyped_vars;
} uf__kmodule;

/* Parses `src` and scans the module: imports of math, cmath, numpy (any
 * alias), numba and its names, module constants folded with Python/Numba
 * semantics, decorators and their arguments validated (unknown decorator or
 * argument -> UF_ERR_UNSUPPORTED at its position). Module-level statements
 * other than these are refused. `src` must outlive the module. */
uf__kmodule *uf__kmodule_new(const uf__source *src, uf_error *err);
void uf__kmodule_free(uf__kmodule *km);

const uf__kernel_decl *uf__kmodule_find(const uf__kmodule *km,
                                        const char *name);
const uf__global *uf__kmodule_global(const uf__kmodule *km, const char *name);

/* What kernel d links with (cuda.jit link=): its own files, then those of
 * the file's declare_device(link=...) and of its device functions' link=,
 * each path once, into out[0..max); the count (at most max). */
int uf__kmodule_link_files(const uf__kmodule *km, const uf__kernel_decl *d,
                           const char **out, int max);

/* kmodule_extern.c, for the module scan: `expr` (a list, tuple or one
 * string of paths) as resolved paths in the arena; and the binding of a
 * cuda.declare_device call (`call`) into km->externs, its index. <0 with
 * err set (UF_ERR_UNSUPPORTED at the offending argument). */
int uf__kmodule_scan_link(uf__kmodule *km, const uf__expr *expr,
                          const char ***out, int *n, uf_error *err);
int uf__kmodule_scan_declare(uf__kmodule *km, const uf__expr *call,
                             uf_error *err);

/* kmodule_array.c, for the module scan: whether `e` is an array
 * expression (a call of numpy's array constructors, a method of an array,
 * arithmetic with an array operand, a name bound to an array); and its
 * value, built in the arena into *out (0), or <0 with err set at the
 * offending sub-expression. `weak` is the scan's per-global flag of
 * Python scalars (consteval.h). */
bool uf__kmodule_is_array_expr(const uf__kmodule *km, const uf__expr *e);
int uf__kmodule_scan_array(uf__kmodule *km, const bool *weak,
                           const uf__expr *e, uf__garray *out, uf_error *err);
/* The i-th numpy function (*method false: np.NAME) or array method
 * (a.NAME()) a module-level array is built with, from the tables the scan
 * checks names against (README lists them); false past the end. */
bool uf__kmodule_array_listing_at(int i, const char **name, bool *method);

#endif
