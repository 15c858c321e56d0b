/* The target registry: one descriptor per target a call can run on. The
 * call machinery (ufunc/, gufunc/, reduce/, njit/) and the command line
 * look a target up by name here and use only what its descriptor says;
 * none of them compares target names. Adding a target is one line in
 * target.c and a folder under targets/ with its descriptor. */
#ifndef UF_TARGETS_TARGET_H
#define UF_TARGETS_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <ufjit/error.h>

/* Runs [begin, end) of an iteration space; returns 0 or a nonzero status,
 * describing the failure in *err first when it can (err is a per-chunk
 * error object; the first failing chunk's error reaches the caller). */
typedef int (*uf__target_body)(void *ctx, int64_t begin, int64_t end,
                               uf_error *err);

/* What a target can do. */
enum {
    UF__TCAP_HOST_MEMORY = 1 << 0, /* runs on operands in host memory */
    UF__TCAP_THREADS = 1 << 1,     /* shares a call out between threads */
    /* the kinds of kernel it runs */
    UF__TCAP_VECTORIZE = 1 << 2,
    UF__TCAP_GUVECTORIZE = 1 << 3,
    UF__TCAP_REDUCE = 1 << 4, /* reduce kernels and ufunc methods */
    UF__TCAP_NJIT = 1 << 5,
    /* runs on a CUDA device (a GPU or cudasim): calls go through the CUDA
     * call path (ufunc/cuda_call.h), not `run`; the host-loop fields
     * below are NULL */
    UF__TCAP_DEVICE = 1 << 6
};

typedef struct uf__target {
    const char *name; /* as calls and decorators spell it: "cpu" */
    const char *summary; /* one line for `ufjit --help` and sysinfo */
    unsigned caps;       /* UF__TCAP_* */
    /* Runs body over [0, n) in chunks of at least `grain` iterations on
     * up to `nthreads` threads (0: the target's default), or in one call
     * on the caller's thread. Returns 0 or the first failing chunk's
     * status with its error in err. */
    int (*run)(int64_t n, int64_t grain, int nthreads, uf__target_body body,
               void *ctx, uf_error *err);
    /* The threads a call asking for `nthreads` (0: the default) gets, and
     * the most it may ask for (more: `run` says so). */
    int (*threads)(int nthreads);
    int max_threads;
    /* 0, or the configuration error every call on the target reports
     * (a bad UFJIT_THREADING_LAYER), set in err. */
    int (*config_error)(uf_error *err);
    /* The target's memory: NULL with err set when out of memory. */
    void *(*alloc)(size_t bytes, uf_error *err);
    void (*free)(void *p);
    /* n bytes from src to dst, both the target's. */
    int (*copy)(void *dst, const void *src, size_t n, uf_error *err);
} uf__target;

/* The default target of a call that names none. */
#define UF__TARGET_DEFAULT "cpu"

/* The registry (target.c), NULL-terminated; the first entry is the
 * default target. */
extern const uf__target *const uf__target_registry[];

/* a and b spell the same name. Every call compares one: the same pointer
 * (the linker merges equal string literals, such as a decorator's "cpu"
 * and the registry's), or the first four characters, decide the short
 * names without a call. */
static inline bool uf__target_same_name(const char *a, const char *b)
{
    if (a == b)
        return true;
    for (int i = 0; i < 4; i++) {
        if (a[i] != b[i])
            return false;
        if (a[i] == '\0')
            return true;
    }
    return strcmp(a, b) == 0; /* longer names ("parallel") */
}

/* The error of uf__target_get: UF_ERR_UNSUPPORTED, "target 'x' is not
 * available yet (only 'cpu' and 'parallel')", the list being the targets
 * with `caps`. Returns NULL. */
const uf__target *uf__target_unavailable(const char *name, unsigned caps,
                                         uf_error *err);

/* The target called `name` (NULL: the default), or NULL when this build
 * has no such target. Inline: every call looks its target up. */
static inline const uf__target *uf__target_find(const char *name)
{
    if (name == NULL)
        return uf__target_registry[0];
    for (const uf__target *const *t = uf__target_registry; *t != NULL; t++)
        if (uf__target_same_name((*t)->name, name))
            return *t;
    return NULL;
}

/* The target called `name` (NULL: the default) that has every capability
 * in `caps`; else NULL with the error of uf__target_unavailable. */
static inline const uf__target *uf__target_get(const char *name,
                                               unsigned caps, uf_error *err)
{
    const uf__target *t = uf__target_find(name);
    if (t != NULL && (t->caps & caps) == caps)
        return t;
    return uf__target_unavailable(name, caps, err);
}

/* The targets with every capability in `caps`, quoted and joined as
 * "'cpu' and 'parallel'" into buf (for messages). */
const char *uf__target_list(unsigned caps, char *buf, size_t size);

/* Whether `name` is a target ufjit defines, built into this build or not
 * yet (cuda, cudasim); and every such name, "cpu, parallel, cuda,
 * cudasim", into buf. */
bool uf__target_defined(const char *name);
const char *uf__target_names(char *buf, size_t size);

/* The registry in order: i in [0, uf__target_count()). */
int uf__target_count(void);
const uf__target *uf__target_at(int i);

#endif
