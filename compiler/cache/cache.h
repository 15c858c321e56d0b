/* Compiled vectorize loops cached per (kernel, concrete signature, target,
 * options) inside a uf_context (cache.c). The key serves the disk cache of
 * object code of every kind under it as well (disk_cache.h): it names
 * everything that decides the code: the kernel's text and the text of
 * every function it calls with the module's imports and constants
 * (uf__kernel_source), the kernel's name, the kind of object, the
 * signature (or the kind's own description), and an options string
 * (target, decorator flags, environment switches, LLVM version, host CPU
 * name and features, ufjit's version). */
#ifndef UF_COMPILER_CACHE_H
#define UF_COMPILER_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "compiler/host/jit.h"
#include "compiler/front/kmodule.h"
#include "common/loop.h"

/* What a key's object code is (the disk cache keeps every kind). */
typedef enum uf__obj_kind {
    UF__OBJ_VECTORIZE, /* contiguous vectorize loops (ufunc/vectorize.c) */
    UF__OBJ_GUFUNC,    /* a guvectorize loop (gufunc/guvectorize.c) */
    UF__OBJ_REDUCE,    /* reduction loops of a kernel (reduce/reduce_op.c) */
    UF__OBJ_PLAIN,     /* an njit function's uf_call entry (njit/) */
    UF__OBJ_PTX,       /* a CUDA kernel's PTX (ufunc/cuda_ptx_cache.c) */
    UF__OBJ_CODEGEN,   /* a module's code by its IR (host/jit_codegen_cache.c) */
    UF__OBJ_NKINDS
} uf__obj_kind;

typedef struct uf__loop_key {
    const char *text; /* uf__kernel_source's text (not owned) */
    size_t len;
    const char *kernel; /* not owned */
    char sig[1024];     /* "float32,float32->float32" ("->?": inferred);
                           other kinds: their own description */
    char opts[384];
    uf__obj_kind kind;  /* zero (vectorize) unless set */
} uf__loop_key;

/* One cached loop: loop.aux is the descriptor (common/loop.h), valid as
 * long as the context; loop.fn is NULL: the runtime that runs the
 * descriptor is the caller's (targets/cpu: uf__rt_ufunc_loop). */
typedef struct uf__cached_loop {
    uf__ufunc_loop loop;
    int nout;
    const char *symbol;  /* the contig function's name in `module_ir` */
    const char *module_ir; /* optimised IR of the module it came from
                              (listings), or NULL */
} uf__cached_loop;

typedef struct uf__loop_cache uf__loop_cache;

uf__loop_cache *uf__loop_cache_new(uf_error *err);
void uf__loop_cache_free(uf__loop_cache *c);

/* Fills `key` for `decl` of `km` (source text `text`) and the input types
 * in[0..nin), declared result `ret` (NULL: inferred). `jit` gives the
 * host description. Errors only when the signature is too long. */
int uf__loop_key_make(uf__loop_key *key, const char *text, size_t len,
                      const uf__kernel_decl *decl, const uf__type *const *in,
                      int nin, const uf__type *ret, const uf__jit *jit,
                      uf_error *err);

/* The part of km's text that decides the code of `decl`: every
 * module-level statement that is not a def (imports, constants), the
 * kernel's def with its decorators, and the defs it names, transitively
 * (a name anywhere in a def's text counts: more, never less); each piece
 * preceded by the number of its first line (error statuses carry source
 * lines). Editing another kernel of the file leaves it unchanged. *len
 * bytes (free with uf__free); NULL when out of memory. */
char *uf__kernel_source(const uf__kmodule *km, const uf__kernel_decl *decl,
                        size_t *len, uf_error *err);

/* A key of another kind of object code: `sig` is the kind's own text
 * for what decides the code besides the module, the kernel and the
 * options (argument types, accumulator dtype, ...). Errors when it does
 * not fit. */
int uf__obj_key_make(uf__loop_key *key, uf__obj_kind kind, const char *text,
                     size_t len, const uf__kernel_decl *decl,
                     const char *sig, const uf__jit *jit, uf_error *err);

/* The entry for `key`, or NULL. */
const uf__cached_loop *uf__loop_cache_find(const uf__loop_cache *c,
                                           const uf__loop_key *key);

/* Adds a loop for `key`: the contiguous function `contig` (named `symbol`
 * in the module whose optimised IR is `module_ir`, may be NULL), operand
 * dtypes types[0..nin+nout). The cache makes the descriptor and keeps
 * copies of the strings (one copy of a module's IR shared by its loops:
 * pass the same pointer). Returns the entry or NULL (out of memory). */
const uf__cached_loop *uf__loop_cache_add(uf__loop_cache *c,
                                          const uf__loop_key *key,
                                          void *contig, const uf_dtype *types,
                                          int nin, int nout,
                                          const char *symbol,
                                          const char *module_ir,
                                          uf_error *err);

/* 128-bit content hash (two independent 64-bit FNV-style lanes) of the
 * concatenation of the parts, for file names and checksums. */
typedef struct uf__hash128 {
    uint64_t a, b;
} uf__hash128;
void uf__hash128_init(uf__hash128 *h);
void uf__hash128_add(uf__hash128 *h, const void *p, size_t n);
/* A 32-character hex name. */
void uf__hash128_hex(const uf__hash128 *h, char out[33]);

#endif
