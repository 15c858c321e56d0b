/* The ufunc object: its loop list and type resolution (Numba's rule: the
 * first loop every input can be cast to safely, else compile one).
 *
 * Loops are allocated one by one and never move, so a loop pointer handed
 * out by uf__ufunc_resolve stays valid while later calls append loops. A
 * mutex guards the list: one context may be called from several threads,
 * and two threads meeting a new type combination must compile it once.
 *
 * Resolutions are memoized for the lock-free common case: a few slots,
 * each written once under the lock (input types -> loop) and then
 * published by raising an atomic count; readers scan the published slots
 * only. Since loops never move and a slot never changes once published,
 * a hit needs no lock (the loop a type combination resolves to never
 * changes either: loops are only appended, and the first match wins). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ufunc/ufunc.h"

#define MEMO_NIN 8
#define MEMO_SLOTS 8

struct uf__ufunc {
    char *name;
    int nin, nout;
    uf__ufunc_compile_fn compile;
    void *compile_ctx;
    uf__ufunc_loop **loops;
    int nloops, cap;
    pthread_mutex_t lock;
    /* memo[0 .. nmemo) are published (see above); only ufuncs with at most
     * MEMO_NIN inputs are memoized. */
    struct memo {
        uint8_t in[MEMO_NIN];
        const uf__ufunc_loop *loop;
    } memo[MEMO_SLOTS];
    atomic_int nmemo;
};

uf__ufunc *uf__ufunc_new(const char *name, int nin, int nout,
                         uf__ufunc_compile_fn compile, void *compile_ctx,
                         uf_error *err)
{
    uf__ufunc *u;

    if (name == NULL || nin < 0 || nout < 1 ||
        nin > UF__LOOP_MAXARGS - nout) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf__ufunc_new: invalid arguments (nin %d, nout %d; "
                      "at most %d operands, at least one output)",
                      nin, nout, UF__LOOP_MAXARGS);
        return NULL;
    }
    u = uf__calloc(1, sizeof *u, err);
    if (u == NULL)
        return NULL;
    u->name = uf__strdup(name, err);
    if (u->name == NULL)
        goto fail_name;
    if (pthread_mutex_init(&u->lock, NULL) != 0) {
        uf__error_set(err, UF_ERR_INTERNAL, "cannot create a mutex");
        goto fail_lock;
    }
    u->nin = nin;
    u->nout = nout;
    u->compile = compile;
    u->compile_ctx = compile_ctx;
    atomic_init(&u->nmemo, 0);
    return u;

fail_lock:
    uf__free(u->name);
fail_name:
    uf__free(u);
    return NULL;
}

void uf__ufunc_free(uf__ufunc *u)
{
    if (u == NULL)
        return;
    for (int i = 0; i < u->nloops; i++)
        uf__free(u->loops[i]);
    uf__free(u->loops);
    pthread_mutex_destroy(&u->lock);
    uf__free(u->name);
    uf__free(u);
}

static int check_loop(const uf__ufunc *u, const uf__ufunc_loop *loop,
                      const char *what, int code, uf_error *err)
{
    if (loop->fn == NULL)
        return uf__error_set(err, code, "%s: ufunc '%s' loop has no function",
                             what, u->name);
    for (int i = 0; i < u->nin + u->nout; i++)
        if (!uf_dtype_valid((int)loop->types[i]))
            return uf__error_set(err, code,
                                 "%s: ufunc '%s' loop has an invalid type "
                                 "for operand %d", what, u->name, i);
    return 0;
}

/* Room for one more loop: the list grown if full and the loop's memory.
 * Called with the lock held. */
static int reserve(uf__ufunc *u, uf__ufunc_loop **copy, uf_error *err)
{
    if (u->nloops == u->cap) {
        int cap = u->cap ? 2 * u->cap : 4;
        uf__ufunc_loop **grown =
            uf__realloc(u->loops, (size_t)cap, sizeof *grown, err);

        if (grown == NULL)
            return err ? err->code : UF_ERR_NOMEM;
        u->loops = grown;
        u->cap = cap;
    }
    *copy = uf__malloc(1, sizeof **copy, err);
    if (*copy == NULL)
        return err ? err->code : UF_ERR_NOMEM;
    return 0;
}

/* Called with the lock held. */
static int append(uf__ufunc *u, const uf__ufunc_loop *loop,
                  const uf__ufunc_loop **added, uf_error *err)
{
    uf__ufunc_loop *copy;
    int rc = reserve(u, &copy, err);

    if (rc < 0)
        return rc;
    *copy = *loop;
    u->loops[u->nloops++] = copy;
    if (added != NULL)
        *added = copy;
    return 0;
}

int uf__ufunc_add_loop(uf__ufunc *u, const uf__ufunc_loop *loop,
                       uf_error *err)
{
    int rc;

    if (u == NULL || loop == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__ufunc_add_loop: invalid arguments");
    rc = check_loop(u, loop, "uf__ufunc_add_loop", UF_ERR_INVALID, err);
    if (rc < 0)
        return rc;
    pthread_mutex_lock(&u->lock);
    rc = append(u, loop, NULL, err);
    pthread_mutex_unlock(&u->lock);
    return rc;
}

int uf__ufunc_nloops(const uf__ufunc *u)
{
    return u->nloops;
}

const uf__ufunc_loop *uf__ufunc_get_loop(const uf__ufunc *u, int i)
{
    return i >= 0 && i < u->nloops ? u->loops[i] : NULL;
}

int uf__ufunc_nin(const uf__ufunc *u)
{
    return u->nin;
}

int uf__ufunc_nout(const uf__ufunc *u)
{
    return u->nout;
}

const char *uf__ufunc_name(const uf__ufunc *u)
{
    return u->name;
}

static bool loop_accepts(const uf__ufunc *u, const uf__ufunc_loop *loop,
                         const uf_dtype *in)
{
    for (int i = 0; i < u->nin; i++)
        if (!uf_can_cast(in[i], loop->types[i], UF_CASTING_SAFE))
            return false;
    return true;
}

/* Appends "(a, b)" for n types, or the single name when `bare`. */
static size_t put_types(char *buf, size_t size, size_t n, const uf_dtype *t,
                        int count, bool bare)
{
    bare = bare && count == 1;
    if (n < size && !bare)
        n += (size_t)snprintf(buf + n, size - n, "(");
    for (int i = 0; i < count && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
                              uf_dtype_name(t[i]));
    if (n < size && !bare)
        n += (size_t)snprintf(buf + n, size - n, ")");
    return n;
}

/* NumPy's message, then what was asked for and what exists:
 * "...; inputs (int64, complex128); loops: (float32, float32) -> float32".
 * Built once, after every loop failed to match. Called with the lock. */
static int no_loop_error(const uf__ufunc *u, const uf_dtype *in,
                         uf_error *err)
{
    char buf[sizeof err->message];
    size_t n = 0, size = sizeof buf;

    buf[0] = '\0';
    n = put_types(buf, size, n, in, u->nin, false);
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, "; loops: %s",
                              u->nloops ? "" : "none");
    for (int i = 0; i < u->nloops && n < size; i++) {
        const uf__ufunc_loop *l = u->loops[i];

        if (i > 0)
            n += (size_t)snprintf(buf + n, size - n, ", ");
        n = put_types(buf, size, n, l->types, u->nin, false);
        if (n < size)
            n += (size_t)snprintf(buf + n, size - n, " -> ");
        n = put_types(buf, size, n, l->types + u->nin, u->nout, true);
    }
    return uf__error_set(err, UF_ERR_TYPE,
                         "ufunc '%s' not supported for the input types, and "
                         "the inputs could not be safely coerced to any "
                         "supported types according to the casting rule "
                         "''safe''; inputs %s",
                         u->name, buf);
}

/* Called with the lock held. The hook fills a zeroed loop; what it gives
 * back is checked, since a wrong loop would corrupt memory later. Room
 * for it is made first: a loop the hook made (which may own memory, such
 * as vectorize's strided slot) is then always kept, unless it is wrong. */
static int compile_loop(uf__ufunc *u, const uf_dtype *in,
                        const uf__ufunc_loop **loop, uf_error *err)
{
    uf__ufunc_loop made, *copy;
    int rc;

    if ((rc = reserve(u, &copy, err)) < 0)
        return rc;
    memset(&made, 0, sizeof made);
    rc = u->compile(u->compile_ctx, in, &made, err);
    if (rc != 0) {
        uf__free(copy);
        return rc < 0 ? rc
                      : uf__error_set(err, UF_ERR_INTERNAL,
                                      "compiling ufunc '%s' failed (status "
                                      "%d)", u->name, rc);
    }
    rc = check_loop(u, &made, "compile hook", UF_ERR_INTERNAL, err);
    if (rc == 0 && !loop_accepts(u, &made, in))
        rc = uf__error_set(err, UF_ERR_INTERNAL,
                           "compile hook: ufunc '%s' got a loop whose "
                           "input types the inputs cannot be safely cast "
                           "to", u->name);
    if (rc < 0) {
        uf__free(copy);
        return rc;
    }
    *copy = made;
    u->loops[u->nloops++] = copy;
    *loop = copy;
    return 0;
}

/* The memoized loop for these input types, or NULL; lock-free. */
static const uf__ufunc_loop *memo_find(uf__ufunc *u, const uf_dtype *in)
{
    int n = atomic_load_explicit(&u->nmemo, memory_order_acquire);

    for (int s = 0; s < n; s++) {
        const struct memo *m = &u->memo[s];
        int i = 0;

        while (i < u->nin && (int)m->in[i] == (int)in[i])
            i++;
        if (i == u->nin)
            return m->loop;
    }
    return NULL;
}

/* Called with the lock held, for valid input types. */
static void memo_add(uf__ufunc *u, const uf_dtype *in,
                     const uf__ufunc_loop *loop)
{
    int n = atomic_load_explicit(&u->nmemo, memory_order_relaxed);

    if (u->nin > MEMO_NIN || n == MEMO_SLOTS || UF_NTYPES > 256)
        return;
    for (int i = 0; i < u->nin; i++)
        u->memo[n].in[i] = (uint8_t)in[i];
    u->memo[n].loop = loop;
    atomic_store_explicit(&u->nmemo, n + 1, memory_order_release);
}

const uf__ufunc_loop *uf__ufunc_resolved(uf__ufunc *u, const uf_dtype *in)
{
    return u != NULL && (u->nin == 0 || in != NULL) ? memo_find(u, in) : NULL;
}

int uf__ufunc_resolve(uf__ufunc *u, const uf_dtype *in,
                      const uf__ufunc_loop **loop, uf_error *err)
{
    const uf__ufunc_loop *hit;
    int rc;

    if (u == NULL || loop == NULL || (u->nin > 0 && in == NULL))
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__ufunc_resolve: invalid arguments");
    /* only valid types are memoized: a hit needs no check */
    if ((hit = memo_find(u, in)) != NULL) {
        *loop = hit;
        return 0;
    }
    for (int i = 0; i < u->nin; i++)
        if (!uf_dtype_valid((int)in[i]))
            return uf__error_set(err, UF_ERR_INVALID,
                                 "uf__ufunc_resolve: invalid dtype for "
                                 "input %d", i);
    pthread_mutex_lock(&u->lock);
    /* another thread may have memoized it meanwhile */
    if ((hit = memo_find(u, in)) != NULL) {
        *loop = hit;
        pthread_mutex_unlock(&u->lock);
        return 0;
    }
    for (int i = 0; i < u->nloops; i++) {
        if (loop_accepts(u, u->loops[i], in)) {
            *loop = u->loops[i];
            memo_add(u, in, *loop);
            pthread_mutex_unlock(&u->lock);
            return 0;
        }
    }
    if (u->compile != NULL)
        rc = compile_loop(u, in, loop, err);
    else
        rc = no_loop_error(u, in, err);
    if (rc == 0)
        memo_add(u, in, *loop);
    pthread_mutex_unlock(&u->lock);
    return rc;
}
