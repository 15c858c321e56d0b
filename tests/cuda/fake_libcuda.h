/* What the two halves of the fake libcuda share (fake_libcuda.c: the
 * script, init, devices, contexts, modules, launches;
 * fake_libcuda_memory.c: memory, streams, events, IPC). See
 * fake_libcuda.c for what the fake is and how it is scripted. */
#ifndef UF_TESTS_CUDA_FAKE_LIBCUDA_H
#define UF_TESTS_CUDA_FAKE_LIBCUDA_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "targets/cuda/cu_driver.h"

#define API __attribute__((visibility("default")))
#define MAX_DEVICES 8
#define MAX_FAILS 8

typedef uf__cu_result CUresult;

typedef struct fake_script {
    int init_rc;
    int count;
    int version;
    long oom_after; /* -1: never */
    size_t mem;
    char name[128];
    int cc_major, cc_minor;
    int nfail;
    struct {
        char symbol[64];
        int rc;
    } fail[MAX_FAILS];
} fake_script;

struct uf__cu_ctx_s {
    int device;
    int refs;
};

struct uf__cu_module_s {
    char *ptx;
    struct uf__cu_func_s *funcs;
};

struct uf__cu_func_s {
    struct uf__cu_func_s *next;
    char name[128];
};

struct uf__cu_stream_s {
    unsigned flags;
};

struct uf__cu_event_s {
    unsigned flags;
    bool recorded;
    double ms; /* CLOCK_MONOTONIC at the record */
};

/* Shared state; `lock` guards what several threads may change. */
extern pthread_mutex_t lock;
extern fake_script script;
extern bool initialised;
extern long allocs_done; /* cuMemAlloc_v2 successes since cuInit */
extern _Thread_local struct uf__cu_ctx_s *current;

/* The code the script makes `symbol` fail with, or 0. */
CUresult scripted(const char *symbol);

/* Every entry point starts so: not initialised, or a scripted failure. */
#define ENTER(symbol)                                    \
    do {                                                 \
        if (!initialised)                                \
            return UF__CU_ERROR_NOT_INITIALIZED;         \
        CUresult scripted_rc_ = scripted(symbol);        \
        if (scripted_rc_ != 0)                           \
            return scripted_rc_;                         \
    } while (0)

/* ... and those that need a current context go on so. */
#define NEED_CTX()                                       \
    do {                                                 \
        if (current == NULL)                             \
            return UF__CU_ERROR_INVALID_CONTEXT;         \
    } while (0)

static inline bool valid_stream(uf__cu_stream s)
{
    (void)s; /* NULL is the legacy default; others are ours */
    return true;
}

#endif
