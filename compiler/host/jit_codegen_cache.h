/* The codegen cache (UFJIT_CODEGEN_CACHE_DIR): object code kept on disk
 * under the LLVM IR a compilation hands to the optimiser, with the
 * pipeline, the non-temporal choice and the host (triple, CPU, features,
 * LLVM's version). Unlike the disk cache (compiler/cache/disk_cache.h,
 * keyed by the kernel's source and the binary's build ID), every step of
 * ufjit before LLVM still runs: its point is that another build of ufjit
 * (the sanitizer build of `make test`) skips only LLVM's optimiser and
 * code generation for modules the normal build compiled, which is most of
 * its time and none of its own code. A miss, a damaged file or an
 * unusable directory only means compiling; only a failed allocation is an
 * error, as everywhere in a call.
 *
 * Keyed by IR and not by ufjit's own version: use one directory for one
 * source tree's builds only (`make test` makes a fresh one per run). */
#ifndef UF_COMPILER_JIT_CODEGEN_CACHE_H
#define UF_COMPILER_JIT_CODEGEN_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>
#include <ufjit/error.h>

#include "compiler/cache/disk_cache.h"

typedef struct uf__codegen_use {
    bool on; /* the variable is set and the key could be made */
    char *ir; /* the module's text before optimisation (LLVM's message) */
    char dir[UF__DISK_CACHE_PATH_MAX];
    uf__loop_key key;
} uf__codegen_use;

/* Prepares a use for `mod`, to be optimised with `passes` and, when
 * `nontemporal`, marked for non-temporal stores, for the host `triple`,
 * `cpu` and `features` (LLVM's feature string). Off (u->on false) without the
 * variable, with UFJIT_DUMP_OPTIMIZED or UFJIT_DUMP_ASSEMBLY set (their
 * dumps come from compiling), or when the key does not fit. */
void uf__codegen_use_init(uf__codegen_use *u, LLVMModuleRef mod,
                          const char *passes, bool nontemporal,
                          const char *triple, const char *cpu,
                          const char *features);
void uf__codegen_use_release(uf__codegen_use *u);

/* A hit: the object (a copy in *obj, free with uf__free; *objlen bytes)
 * and the count of non-temporal stores marked when it was compiled, for
 * exactly the symbols names[0..n). 1, or 0 on a miss, or -1 with
 * UF_ERR_NOMEM in err when an allocation failed (as any allocation of a
 * call, it fails the call). */
int uf__codegen_use_fetch(const uf__codegen_use *u, const char *const *names,
                          int n, char **obj, size_t *objlen, int *nontemporal,
                          uf_error *err);

/* Keeps what the compilation produced (not fsync'ed: a file lost in a
 * crash is a miss; a torn one fails its checksum). */
void uf__codegen_use_store(const uf__codegen_use *u, const char *const *names,
                           int n, const void *obj, size_t objlen,
                           int nontemporal);

#endif
