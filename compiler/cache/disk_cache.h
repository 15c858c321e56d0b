/* The disk layer under the compile caches: object code kept in files, one
 * per key (the kernel's text and its callees', the kernel, the kind of
 * object, signature, options; see cache.h), so that another process loads
 * machine code instead of compiling. Every kind of compiled kernel uses
 * it: vectorize loops (ufunc/vectorize.c), guvectorize loops, reduction
 * loops and njit entry points (through uf__disk_use). Best effort throughout: an unusable
 * directory, a missing, corrupt, truncated or stale file is a miss, never
 * an error. */
#ifndef UF_COMPILER_DISK_CACHE_H
#define UF_COMPILER_DISK_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/cache/cache.h"

#define UF__DISK_CACHE_PATH_MAX 4096
#define UF__DISK_MAXSYMS 64                      /* symbols in one file */
#define UF__DISK_MAXMETA (2 + UF__LOOP_MAXARGS) /* int32 words */

/* The directory for a kernel: UFJIT_CACHE_DIR when set and not empty (all
 * kernels), else for `cache=True` kernels $XDG_CACHE_HOME/ufjit or
 * $HOME/.cache/ufjit. False (no disk caching) otherwise. */
bool uf__disk_cache_dir(bool cache_flag, char *out, size_t cap);

/* The full key's hash (file name and object-symbol stem). */
void uf__disk_key_hash(const uf__loop_key *key, uf__hash128 *h);

/* The file of `key` in `dir` ("<dir>/<32 hex>.ufo"). */
void uf__disk_cache_path(const char *dir, const uf__loop_key *key,
                         char *out, size_t cap);

/* ---- files of any kind -------------------------------------------------- */

/* A file's verified contents: the symbols the object defines that its
 * user looks up, in the order stored, and the kind's own int32 words. */
typedef struct uf__disk_file {
    char *file; /* the whole file (owned) */
    int nsyms;
    const char *syms[UF__DISK_MAXSYMS]; /* into file */
    int32_t meta[UF__DISK_MAXMETA];
    int nmeta;
    const void *obj; /* into file */
    size_t objlen;
} uf__disk_file;

/* 1 and *f filled (release with uf__disk_file_release) when the file of
 * `key` exists, is intact (magic, version, sizes, checksum) and holds
 * exactly this key (its kind included); else 0. */
int uf__disk_file_load(const char *dir, const uf__loop_key *key,
                       uf__disk_file *f);
/* The same; *nomem tells a miss for want of memory from the others. */
int uf__disk_file_load_ex(const char *dir, const uf__loop_key *key,
                          uf__disk_file *f, bool *nomem);
void uf__disk_file_release(uf__disk_file *f);

/* Writes the file of `key` atomically (a temporary file in `dir`, fsync
 * when `durable`, rename), creating `dir` if needed: the object, the
 * names of its nsyms symbols and nmeta words. 0, or -1 when it could not
 * (nothing is left behind). */
int uf__disk_file_store(const char *dir, const uf__loop_key *key,
                        const char *const *syms, int nsyms,
                        const int32_t *meta, int nmeta, const void *obj,
                        size_t objlen, bool durable);

/* ---- vectorize loops ---------------------------------------------------- */

/* A vectorize file: one symbol, the operand dtypes. */
typedef struct uf__disk_entry {
    char *file; /* the whole file (owned) */
    char symbol[UF__JIT_SYMBOL_MAX];
    uf_dtype types[UF__LOOP_MAXARGS]; /* inputs then outputs */
    int nargs, nout;
    const void *obj; /* into file */
    size_t objlen;
} uf__disk_entry;

/* 1 and *e filled (release with uf__disk_entry_release) when the file of
 * `key` exists, is intact, holds exactly this key and `nin` inputs; else
 * 0. */
int uf__disk_cache_load(const char *dir, const uf__loop_key *key, int nin,
                        uf__disk_entry *e);
void uf__disk_entry_release(uf__disk_entry *e);

/* uf__disk_file_store for a vectorize loop. */
int uf__disk_cache_store(const char *dir, const uf__loop_key *key,
                         const char *symbol, const uf_dtype *types, int nargs,
                         int nout, const void *obj, size_t objlen);

/* ---- one compilation's use of the cache (gufunc, reduce, njit) ---------- */

typedef struct uf__disk_use {
    bool on; /* a directory applies and the key could be made */
    char *text; /* the key's text (uf__kernel_source), owned */
    char dir[UF__DISK_CACHE_PATH_MAX];
    uf__loop_key key;
    char stem[33]; /* the key's hash: the compilation's symbol prefix */
} uf__disk_use;

/* Prepares the use for kernel `decl` of module `km` (key: the text its
 * code depends on (uf__kernel_source), decl's flags, the host, and `sig`,
 * the kind's description of what else decides the code). u->on false
 * (never an error) when no directory applies, the key does not fit or
 * memory ran out. Release with uf__disk_use_release. */
void uf__disk_use_init(uf__disk_use *u, uf__obj_kind kind,
                       const uf__kmodule *km, const uf__kernel_decl *decl,
                       const char *sig, const uf__jit *jit);
void uf__disk_use_release(uf__disk_use *u);

/* A hit: the file's object added to `jit` (once per content) and its
 * nsyms symbols looked up into addrs; the file's words (exactly nmeta)
 * into meta (may be NULL when nmeta is 0). 1, or 0 on a miss (no file,
 * a damaged or stale one, other symbol or word counts, an object the JIT
 * refuses, out of memory): then compile. */
int uf__disk_use_fetch(const uf__disk_use *u, uf__jit *jit, int nsyms,
                       void **addrs, int32_t *meta, int nmeta);

/* Stores what a compilation named by u->stem produced (errors ignored:
 * the next process compiles again). */
void uf__disk_use_store(const uf__disk_use *u, const char *const *syms,
                        int nsyms, const int32_t *meta, int nmeta,
                        const void *obj, size_t objlen);

#endif
