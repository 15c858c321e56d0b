/* Each runtime's memory manager and the checked calls into it
 * (cuda_mm.h), with the public functions of ufjit/cuda_memory.h.
 *
 * A runtime holds the chosen table (a plug-in, or the default manager)
 * and always a default instance too: it serves pinned and mapped memory
 * for plug-ins that manage device memory only (Numba's
 * HostOnlyCUDAMemoryManager); with no plug-in the two are one. The table
 * is chosen on first use (uf_cuda_set_memory_manager's, else
 * UFJIT_CUDA_MEMORY_MANAGER's, else the default) and fixed from the first
 * allocation until uf_cuda_memory_reset. */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_internal.h"
#include "targets/cuda/cuda_mm.h"
#include "targets/cuda/cuda_mm_plugin.h"
#include "targets/cuda/cuda_mm_registry.h"
#include "targets/cuda/cuda_scratch.h"

typedef struct mm_state {
    const uf__cuda_rt *rt;
    pthread_mutex_t lock;
    bool chosen; /* table and host are set up */
    bool used;   /* allocated since chosen or reset */
    uf_cuda_memory_manager table, host;
    uf_cuda_mm_driver drv;
    uf__mm_registry live;
    int defer_depth;
    uf_error sticky; /* the first failed free not yet reported */
    size_t failed;
} mm_state;

/* one per runtime: the real driver's and cudasim's */
#define NSTATES 2
static mm_state states[NSTATES] = {{.lock = PTHREAD_MUTEX_INITIALIZER},
                                   {.lock = PTHREAD_MUTEX_INITIALIZER}};
static pthread_mutex_t states_lock = PTHREAD_MUTEX_INITIALIZER;

static mm_state *state_of(const uf__cuda_rt *rt)
{
    mm_state *st = NULL;
    pthread_mutex_lock(&states_lock);
    for (int i = 0; i < NSTATES && !st; i++) {
        if (states[i].rt == NULL) {
            states[i].rt = rt;
            uf__cuda_mm_driver_init(&states[i].drv, rt);
        }
        if (states[i].rt == rt)
            st = &states[i];
    }
    pthread_mutex_unlock(&states_lock);
    return st;
}

static const char *name_of(const uf_cuda_memory_manager *t)
{
    return t->name ? t->name : "(unnamed)";
}

static bool separate_host(const mm_state *st)
{
    return st->table.user != st->host.user;
}

/* A manager method's result as ufjit's error: its own message, prefixed
 * with the manager's name, or one saying it gave none. */
static int check(const uf_cuda_memory_manager *t, const char *method, int rc,
                 const uf_error *perr, uf_error *err)
{
    if (rc == 0)
        return 0;
    int code = perr->code != 0 ? perr->code : rc < 0 ? rc : UF_ERR_INTERNAL;
    if (perr->message[0] == '\0')
        return uf__error_set(err, code,
                             "memory manager '%s': %s failed (%d) without "
                             "saying why", name_of(t), method, rc);
    return uf__error_set(err, code, "memory manager '%s': %s: %s", name_of(t),
                         method, perr->message);
}

/* The error a manager method fills: one per thread, cleared before each
 * call (managers never call back into these functions). */
static _Thread_local uf_error perr_tls;

static uf_error *fresh(void)
{
    uf_error_clear(&perr_tls);
    return &perr_tls;
}

/* CALL(t, method, err, args...): t->method(t->user, args..., perr),
 * checked into err */
#define CALL(t, method, err, ...)                                           \
    check((t), #method, (t)->method((t)->user, __VA_ARGS__, fresh()),       \
          &perr_tls, (err))

static void note(mm_state *st, const uf_error *e)
{
    pthread_mutex_lock(&st->lock);
    if (st->sticky.code == 0)
        st->sticky = *e;
    st->failed++;
    pthread_mutex_unlock(&st->lock);
}

void uf__cuda_mm_note_failure(const uf_cuda_mm_driver *d, const uf_error *e)
{
    note(state_of(d->impl), e);
}

void uf__cuda_mm_keep_error(const uf__cuda_rt *rt, const uf_error *e)
{
    mm_state *st = state_of(rt);
    if (st != NULL)
        note(st, e);
}

static int init_table(mm_state *st, uf_cuda_memory_manager *t,
                      uf_error *err)
{
    if (t->initialize == NULL)
        return 0;
    uf_error perr;
    uf_error_clear(&perr);
    return check(t, "initialize", t->initialize(t->user, &st->drv, &perr),
                 &perr, err);
}

static void drop_table(mm_state *st)
{
    if (separate_host(st) && st->table.destroy)
        st->table.destroy(st->table.user);
    st->table = st->host;
}

/* Sets up st's default instance and, from the environment, its table;
 * st->lock held. */
static int choose(mm_state *st, uf_error *err)
{
    if (st->chosen)
        return 0;
    if (st->host.user == NULL) {
        if (uf__cuda_mm_default_new(&st->host, err) != 0)
            return err->code;
        if (init_table(st, &st->host, err) != 0)
            return err->code;
    }
    st->table = st->host;
    const char *spec = getenv("UFJIT_CUDA_MEMORY_MANAGER");
    if (spec != NULL && *spec && strcmp(spec, "default") != 0) {
        uf_cuda_memory_manager t;
        if (uf__cuda_mm_load_plugin(spec, "UFJIT_CUDA_MEMORY_MANAGER", &t,
                                    err) != 0)
            return err->code;
        st->table = t;
        if (init_table(st, &st->table, err) != 0) {
            drop_table(st);
            return err->code;
        }
    }
    st->chosen = true;
    return 0;
}

/* st of rt with its table chosen; *t the table (fixed until reset). */
static mm_state *use(const uf__cuda_rt *rt, uf_cuda_memory_manager *t,
                     bool host, uf_error *err)
{
    mm_state *st = state_of(rt);
    if (st == NULL) {
        uf__error_set(err, UF_ERR_INTERNAL, "no memory manager slot");
        return NULL;
    }
    pthread_mutex_lock(&st->lock);
    int rc = choose(st, err);
    if (rc == 0) {
        st->used = true;
        *t = host && st->table.memhostalloc == NULL ? st->host : st->table;
    }
    pthread_mutex_unlock(&st->lock);
    return rc == 0 ? st : NULL;
}

/* Records p as live; a manager handing out an address still in use gets
 * UF_ERR_INTERNAL (and keeps its address: whoever holds it still uses
 * it); UF_ERR_NOMEM when there is no host memory to record it. */
static int add_live(mm_state *st, const uf_cuda_memory_manager *t,
                    const char *method, uint64_t p, size_t bytes,
                    uf_error *err)
{
    if (p == 0)
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "memory manager '%s': %s of %zu bytes returned "
                             "NULL without an error", name_of(t), method,
                             bytes);
    uf_error e;
    pthread_mutex_lock(&st->lock);
    int rc = uf__mm_registry_add(&st->live, p, bytes, &e);
    pthread_mutex_unlock(&st->lock);
    if (rc == UF_ERR_INVALID)
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "memory manager '%s': %s returned 0x%" PRIx64
                             ", which it handed out before and is still in "
                             "use", name_of(t), method, p);
    if (rc != 0)
        return uf__error_set(err, rc, "%s", e.message);
    return 0;
}

/* Forgets p; false (noted as the sticky error) when it was not live. */
static bool remove_live(mm_state *st, const uf_cuda_memory_manager *t,
                        const char *what, uint64_t p)
{
    pthread_mutex_lock(&st->lock);
    bool ok = uf__mm_registry_remove(&st->live, p);
    pthread_mutex_unlock(&st->lock);
    if (!ok) {
        uf_error e;
        uf__error_set(&e, UF_ERR_INTERNAL,
                      "memory manager '%s': %s of 0x%" PRIx64 ", which is "
                      "not in use (a double free?): not passed on",
                      name_of(t), what, p);
        note(st, &e);
    }
    return ok;
}

int uf__cuda_mm_alloc(const uf__cuda_rt *rt, size_t bytes, uf__cu_stream s,
                      uf__cu_dptr *p, uf_error *err)
{
    uf_cuda_memory_manager t;
    mm_state *st = use(rt, &t, false, err);
    if (st == NULL)
        return err->code;
    uint64_t got = 0;
    if (CALL(&t, memalloc, err, bytes, s, &got) != 0)
        return err->code;
    int rc = add_live(st, &t, "memalloc", got, bytes, err);
    if (rc == UF_ERR_NOMEM) { /* no room to record it: give it back */
        uf_error e;
        (void)CALL(&t, memfree, &e, got, bytes, s);
    }
    if (rc != 0)
        return rc;
    *p = got;
    return 0;
}

void uf__cuda_mm_free(const uf__cuda_rt *rt, uf__cu_dptr p, size_t bytes,
                      uf__cu_stream s)
{
    uf_cuda_memory_manager t;
    uf_error e;
    mm_state *st = use(rt, &t, false, &e);
    if (st == NULL || !remove_live(st, &t, "memfree", p))
        return;
    if (CALL(&t, memfree, &e, p, bytes, s) != 0)
        note(st, &e);
}

/* the device's view of mapped host memory p */
static int device_pointer(const uf__cuda_rt *rt, void *p, uf__cu_dptr *d,
                          uf_error *err)
{
    return uf__cuda_check(rt, rt->drv->mem_host_get_device_pointer(d, p, 0),
                          "cuMemHostGetDevicePointer", err);
}

int uf__cuda_mm_host_alloc(const uf__cuda_rt *rt, size_t bytes,
                           unsigned flags, uf__cu_stream s, void **p,
                           uf__cu_dptr *dptr, uf_error *err)
{
    uf_cuda_memory_manager t;
    mm_state *st = use(rt, &t, true, err);
    if (st == NULL)
        return err->code;
    void *got = NULL;
    if (CALL(&t, memhostalloc, err, bytes, flags, s, &got) != 0)
        return err->code;
    int rc = add_live(st, &t, "memhostalloc", (uintptr_t)got, bytes, err);
    if (rc == UF_ERR_NOMEM) {
        uf_error e;
        (void)CALL(&t, memhostfree, &e, got, bytes, flags, s);
    }
    if (rc != 0)
        return rc;
    *dptr = 0;
    if ((flags & UF_CUDA_MM_HOST_MAPPED) &&
        device_pointer(rt, got, dptr, err) != 0) {
        uf__cuda_mm_host_free(rt, got, bytes, flags, s);
        return err->code;
    }
    *p = got;
    return 0;
}

void uf__cuda_mm_host_free(const uf__cuda_rt *rt, void *p, size_t bytes,
                           unsigned flags, uf__cu_stream s)
{
    uf_cuda_memory_manager t;
    uf_error e;
    mm_state *st = use(rt, &t, true, &e);
    if (st == NULL || !remove_live(st, &t, "memhostfree", (uintptr_t)p))
        return;
    if (CALL(&t, memhostfree, &e, p, bytes, flags, s) != 0)
        note(st, &e);
}

int uf__cuda_mm_pin(const uf__cuda_rt *rt, void *p, size_t bytes,
                    unsigned flags, uf__cu_stream s, uf__cu_dptr *dptr,
                    uf_error *err)
{
    uf_cuda_memory_manager t;
    mm_state *st = use(rt, &t, true, err);
    if (st == NULL)
        return err->code;
    if (t.mempin == NULL) /* a plug-in with host methods but no pinning */
        t = st->host;
    if (p == NULL || bytes == 0)
        return uf__error_set(err, UF_ERR_INVALID,
                             "pinning needs memory: NULL or 0 bytes");
    if (CALL(&t, mempin, err, p, bytes, flags, s) != 0)
        return err->code;
    if (add_live(st, &t, "mempin", (uintptr_t)p, bytes, err) != 0) {
        uf_error e;
        (void)CALL(&t, memunpin, &e, p, bytes, s);
        return err->code;
    }
    *dptr = 0;
    if ((flags & UF_CUDA_MM_HOST_MAPPED) &&
        device_pointer(rt, p, dptr, err) != 0) {
        uf_error e;
        (void)uf__cuda_mm_unpin(rt, p, bytes, s, &e);
        return err->code;
    }
    return 0;
}

int uf__cuda_mm_unpin(const uf__cuda_rt *rt, void *p, size_t bytes,
                      uf__cu_stream s, uf_error *err)
{
    uf_cuda_memory_manager t;
    mm_state *st = use(rt, &t, true, err);
    if (st == NULL)
        return err->code;
    if (t.memunpin == NULL)
        t = st->host;
    pthread_mutex_lock(&st->lock);
    bool ok = uf__mm_registry_remove(&st->live, (uintptr_t)p);
    pthread_mutex_unlock(&st->lock);
    if (!ok)
        return uf__error_set(err, UF_ERR_INVALID,
                             "unpin: %p was not pinned through the memory "
                             "manager", p);
    return CALL(&t, memunpin, err, p, bytes, s);
}

static int unsupported(const uf_cuda_memory_manager *t, const char *what,
                       uf_error *err)
{
    return uf__error_set(err, UF_ERR_UNSUPPORTED,
                         "memory manager '%s' does not implement %s",
                         name_of(t), what);
}

int uf__cuda_mm_ipc_get(const uf__cuda_rt *rt, uf__cu_dptr p, size_t bytes,
                        uf__cu_stream s, uf_cuda_ipc_handle *h,
                        size_t *offset, uf_error *err)
{
    uf_cuda_memory_manager t;
    if (use(rt, &t, false, err) == NULL)
        return err->code;
    if (t.get_ipc_handle == NULL)
        return unsupported(&t, "get_ipc_handle", err);
    *offset = 0;
    return CALL(&t, get_ipc_handle, err, p, bytes, s, h, offset);
}

int uf__cuda_mm_ipc_open(const uf__cuda_rt *rt, const uf_cuda_ipc_handle *h,
                         uf__cu_stream s, uf__cu_dptr *p, uf_error *err)
{
    uf_cuda_memory_manager t;
    if (use(rt, &t, false, err) == NULL)
        return err->code;
    if (t.open_ipc_handle == NULL)
        return unsupported(&t, "open_ipc_handle", err);
    uint64_t got = 0;
    if (CALL(&t, open_ipc_handle, err, h, s, &got) != 0)
        return err->code;
    if (got == 0)
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "memory manager '%s': open_ipc_handle returned "
                             "NULL without an error", name_of(&t));
    *p = got;
    return 0;
}

int uf__cuda_mm_ipc_close(const uf__cuda_rt *rt, uf__cu_dptr p,
                          uf__cu_stream s, uf_error *err)
{
    uf_cuda_memory_manager t;
    if (use(rt, &t, false, err) == NULL)
        return err->code;
    if (t.close_ipc_handle == NULL)
        return unsupported(&t, "close_ipc_handle", err);
    return CALL(&t, close_ipc_handle, err, p, s);
}

/* ---- the public functions (ufjit/cuda_memory.h) ---- */

static mm_state *public_state(const char *target, uf_error *err)
{
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, err);
    if (rt == NULL)
        return NULL;
    mm_state *st = state_of(rt);
    if (st == NULL)
        uf__error_set(err, UF_ERR_INTERNAL, "no memory manager slot");
    return st;
}

int uf_cuda_set_memory_manager(const char *target,
                               const uf_cuda_memory_manager *mm,
                               uf_error *err)
{
    if (mm != NULL &&
        uf__cuda_mm_validate(mm, "uf_cuda_set_memory_manager", err) != 0)
        return err->code;
    mm_state *st = public_state(target, err);
    if (st == NULL)
        return err->code;
    pthread_mutex_lock(&st->lock);
    int rc = 0;
    if (st->used || st->live.count > 0)
        rc = uf__error_set(err, UF_ERR_INVALID,
                           "uf_cuda_set_memory_manager: target '%s' has "
                           "allocated memory through '%s' already; a "
                           "manager is chosen before the first allocation "
                           "(or after uf_cuda_memory_reset)",
                           st->rt->target, name_of(&st->table));
    else if (st->defer_depth > 0)
        rc = uf__error_set(err, UF_ERR_INVALID,
                           "uf_cuda_set_memory_manager: cleanup is "
                           "deferred (uf_cuda_defer_cleanup_begin)");
    if (rc == 0 && st->host.user == NULL) {
        rc = uf__cuda_mm_default_new(&st->host, err);
        if (rc == 0)
            rc = init_table(st, &st->host, err);
    }
    if (rc == 0) {
        if (st->chosen)
            drop_table(st);
        st->table = st->host;
        st->chosen = true;
        if (mm != NULL) {
            st->table = *mm;
            if ((rc = init_table(st, &st->table, err)) != 0)
                st->table = st->host; /* not ours to destroy */
        }
    }
    pthread_mutex_unlock(&st->lock);
    return rc;
}

/* begin/end on the table and, when separate, the host instance */
static int defer_call(mm_state *st, bool begin, uf_error *err)
{
    uf_cuda_memory_manager ts[2] = {st->table, st->host};
    int n = separate_host(st) ? 2 : 1;
    for (int i = 0; i < n; i++) {
        const uf_cuda_memory_manager *t = &ts[i];
        if (begin && t->defer_cleanup_begin &&
            CALL(t, defer_cleanup_begin, err, NULL) != 0)
            return err->code;
        if (!begin && t->defer_cleanup_end &&
            CALL(t, defer_cleanup_end, err, NULL) != 0)
            return err->code;
    }
    return 0;
}

int uf_cuda_defer_cleanup_begin(const char *target, uf_error *err)
{
    mm_state *st = public_state(target, err);
    if (st == NULL)
        return err->code;
    pthread_mutex_lock(&st->lock);
    int rc = choose(st, err);
    if (rc == 0 && (rc = defer_call(st, true, err)) == 0)
        st->defer_depth++;
    pthread_mutex_unlock(&st->lock);
    return rc;
}

int uf_cuda_defer_cleanup_end(const char *target, uf_error *err)
{
    mm_state *st = public_state(target, err);
    if (st == NULL)
        return err->code;
    pthread_mutex_lock(&st->lock);
    int rc = 0;
    if (st->defer_depth == 0)
        rc = uf__error_set(err, UF_ERR_INVALID,
                           "uf_cuda_defer_cleanup_end without a matching "
                           "uf_cuda_defer_cleanup_begin");
    else if ((rc = defer_call(st, false, err)) == 0)
        st->defer_depth--;
    pthread_mutex_unlock(&st->lock);
    return rc;
}

int uf_cuda_memory_take_error(const char *target, uf_error *err)
{
    mm_state *st = public_state(target, err);
    if (st == NULL)
        return err->code;
    pthread_mutex_lock(&st->lock);
    uf_error e = st->sticky;
    uf_error_clear(&st->sticky);
    pthread_mutex_unlock(&st->lock);
    if (e.code == 0)
        return 0;
    if (err)
        *err = e;
    return e.code;
}

/* The default instance's queue flushed (its reset is a flush). */
static void flush_default(mm_state *st)
{
    if (st->host.user != NULL) {
        uf_error e;
        (void)st->host.reset(st->host.user, &e);
    }
}

int uf_cuda_memory_flush(const char *target, uf_error *err)
{
    mm_state *st = public_state(target, err);
    if (st == NULL)
        return err->code;
    flush_default(st);
    return uf_cuda_memory_take_error(target, err);
}

int uf_cuda_memory_reset(const char *target, uf_error *err)
{
    mm_state *st = public_state(target, err);
    if (st == NULL)
        return err->code;
    pthread_mutex_lock(&st->lock);
    bool deferred = st->defer_depth > 0;
    pthread_mutex_unlock(&st->lock);
    if (deferred)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_cuda_memory_reset: cleanup is deferred "
                             "(uf_cuda_defer_cleanup_begin)");
    uf__cuda_scratch_release_legacy(st->rt);
    pthread_mutex_lock(&st->lock);
    int rc = 0;
    if (st->live.count > 0)
        rc = uf__error_set(err, UF_ERR_INVALID,
                           "uf_cuda_memory_reset: %zu allocations (%zu "
                           "bytes) of target '%s' are still in use",
                           st->live.count, st->live.bytes, st->rt->target);
    else if (st->chosen) {
        if (separate_host(st) && st->table.reset)
            rc = check(&st->table, "reset",
                       st->table.reset(st->table.user, fresh()), &perr_tls,
                       err);
        st->used = false;
    }
    pthread_mutex_unlock(&st->lock);
    flush_default(st);
    return rc;
}

int uf_cuda_memory_stats_get(const char *target, uf_cuda_memory_stats *out,
                             uf_error *err)
{
    mm_state *st = public_state(target, err);
    if (st == NULL)
        return err->code;
    if (out == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_cuda_memory_stats_get: NULL");
    pthread_mutex_lock(&st->lock);
    *out = (uf_cuda_memory_stats){
        .manager = st->chosen ? name_of(&st->table) : "default",
        .live_allocations = st->live.count, .live_bytes = st->live.bytes,
        .failed_frees = st->failed, .defer_depth = st->defer_depth};
    if (st->host.user != NULL)
        uf__cuda_mm_default_queue(st->host.user, &out->pending_count,
                                  &out->pending_bytes, &out->flushes);
    pthread_mutex_unlock(&st->lock);
    return 0;
}

int uf_cuda_memory_info(const char *target, size_t *free_bytes,
                        size_t *total_bytes, uf_error *err)
{
    mm_state *st = public_state(target, err);
    if (st == NULL)
        return err->code;
    if (free_bytes == NULL || total_bytes == NULL)
        return uf__error_set(err, UF_ERR_INVALID, "uf_cuda_memory_info: NULL");
    pthread_mutex_lock(&st->lock);
    int rc = choose(st, err);
    uf_cuda_memory_manager t = st->table;
    pthread_mutex_unlock(&st->lock);
    if (rc != 0)
        return rc;
    if (t.get_memory_info == NULL)
        return unsupported(&t, "get_memory_info", err);
    return CALL(&t, get_memory_info, err, free_bytes, total_bytes, NULL);
}
