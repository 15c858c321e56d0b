/* The disk layer under the context's loop cache (cache.h): object code of
 * vectorize loops kept in files, one per (module text, kernel, signature,
 * options) key, so that another process loads machine code instead of
 * compiling. Best effort throughout: an unusable directory, a missing,
 * corrupt, truncated or stale file is a miss, never an error. */
#ifndef UF_COMPILER_DISK_CACHE_H
#define UF_COMPILER_DISK_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/cache.h"

#define UF__DISK_CACHE_PATH_MAX 4096

/* The directory for a kernel: UFJIT_CACHE_DIR when set and not empty (all
 * kernels), else for `cache=True` kernels $XDG_CACHE_HOME/ufjit or
 * $HOME/.cache/ufjit. False (no disk caching) otherwise. */
bool uf__disk_cache_dir(bool cache_flag, char *out, size_t cap);

/* The full key's hash (file name and object-symbol stem). */
void uf__disk_key_hash(const uf__loop_key *key, uf__hash128 *h);

/* The file of `key` in `dir` ("<dir>/<32 hex>.ufo"). */
void uf__disk_cache_path(const char *dir, const uf__loop_key *key,
                         char *out, size_t cap);

/* A file's verified contents. */
typedef struct uf__disk_entry {
    char *file; /* the whole file (owned) */
    char symbol[UF__JIT_SYMBOL_MAX];
    uf_dtype types[UF__UFUNC_MAXARGS]; /* inputs then outputs */
    int nargs, nout;
    const void *obj; /* into file */
    size_t objlen;
} uf__disk_entry;

/* 1 and *e filled (release with uf__disk_entry_release) when the file of
 * `key` exists, is intact (magic, version, sizes, checksum), holds exactly
 * this key and `nin` inputs; else 0. */
int uf__disk_cache_load(const char *dir, const uf__loop_key *key, int nin,
                        uf__disk_entry *e);
void uf__disk_entry_release(uf__disk_entry *e);

/* Writes the entry of `key` atomically (a temporary file in `dir`, fsync,
 * rename), creating `dir` if needed. 0, or -1 when it could not (nothing
 * is left behind). */
int uf__disk_cache_store(const char *dir, const uf__loop_key *key,
                         const char *symbol, const uf_dtype *types, int nargs,
                         int nout, const void *obj, size_t objlen);

#endif
