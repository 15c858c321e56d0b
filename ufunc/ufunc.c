/* The ufunc object: its loop list and type resolution (Numba's rule: the
 * first loop every input can be cast to safely, else compile one).
 *
 * The loops live in a uf__loop_list (loop_list.h, shared with gufuncs):
 * they never move, so a loop pointer handed out by uf__ufunc_resolve stays
 * valid while later calls append loops, and its mutex makes two threads
 * meeting a new type combination compile it once.
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
#include "ufunc/loop_list.h"
#include "ufunc/ufunc.h"

#define MEMO_NIN 8
#define MEMO_SLOTS 8

struct uf__ufunc {
    uf__loop_list l; /* name, nin, nout, the loops and the lock */
    uf__ufunc_compile_fn compile;
    void *compile_ctx;
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
    if (uf__loop_list_init(&u->l, "ufunc", name, nin, nout, err) != 0) {
        uf__free(u);
        return NULL;
    }
    u->compile = compile;
    u->compile_ctx = compile_ctx;
    atomic_init(&u->nmemo, 0);
    return u;
}

void uf__ufunc_free(uf__ufunc *u)
{
    if (u == NULL)
        return;
    uf__loop_list_fini(&u->l);
    uf__free(u);
}

int uf__ufunc_add_loop(uf__ufunc *u, const uf__ufunc_loop *loop,
                       uf_error *err)
{
    if (u == NULL || loop == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__ufunc_add_loop: invalid arguments");
    return uf__loop_list_add(&u->l, loop, "uf__ufunc_add_loop", err);
}

int uf__ufunc_nloops(const uf__ufunc *u)
{
    return u->l.nloops;
}

const uf__ufunc_loop *uf__ufunc_get_loop(const uf__ufunc *u, int i)
{
    return i >= 0 && i < u->l.nloops ? u->l.loops[i] : NULL;
}

int uf__ufunc_nin(const uf__ufunc *u)
{
    return u->l.nin;
}

int uf__ufunc_nout(const uf__ufunc *u)
{
    return u->l.nout;
}

const char *uf__ufunc_name(const uf__ufunc *u)
{
    return u->l.name;
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

    if ((rc = uf__loop_list_reserve(&u->l, &copy, err)) < 0)
        return rc;
    memset(&made, 0, sizeof made);
    rc = u->compile(u->compile_ctx, in, &made, err);
    if (rc != 0) {
        uf__free(copy);
        return rc < 0 ? rc
                      : uf__error_set(err, UF_ERR_INTERNAL,
                                      "compiling ufunc '%s' failed (status "
                                      "%d)", u->l.name, rc);
    }
    if ((rc = uf__loop_list_check_made(&u->l, &made, in, err)) < 0) {
        uf__free(copy);
        return rc;
    }
    *copy = made;
    *loop = uf__loop_list_put(&u->l, copy);
    return 0;
}

/* The memoized loop for these input types, or NULL; lock-free. */
static const uf__ufunc_loop *memo_find(uf__ufunc *u, const uf_dtype *in)
{
    int n = atomic_load_explicit(&u->nmemo, memory_order_acquire);

    for (int s = 0; s < n; s++) {
        const struct memo *m = &u->memo[s];
        int i = 0;

        while (i < u->l.nin && (int)m->in[i] == (int)in[i])
            i++;
        if (i == u->l.nin)
            return m->loop;
    }
    return NULL;
}

/* Called with the lock held, for valid input types. */
static void memo_add(uf__ufunc *u, const uf_dtype *in,
                     const uf__ufunc_loop *loop)
{
    int n = atomic_load_explicit(&u->nmemo, memory_order_relaxed);

    if (u->l.nin > MEMO_NIN || n == MEMO_SLOTS || UF_NTYPES > 256)
        return;
    for (int i = 0; i < u->l.nin; i++)
        u->memo[n].in[i] = (uint8_t)in[i];
    u->memo[n].loop = loop;
    atomic_store_explicit(&u->nmemo, n + 1, memory_order_release);
}

const uf__ufunc_loop *uf__ufunc_resolved(uf__ufunc *u, const uf_dtype *in)
{
    return u != NULL && (u->l.nin == 0 || in != NULL) ? memo_find(u, in)
                                                       : NULL;
}

int uf__ufunc_resolve(uf__ufunc *u, const uf_dtype *in,
                      const uf__ufunc_loop **loop, uf_error *err)
{
    const uf__ufunc_loop *hit;
    int rc;

    if (u == NULL || loop == NULL || (u->l.nin > 0 && in == NULL))
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__ufunc_resolve: invalid arguments");
    /* only valid types are memoized: a hit needs no check */
    if ((hit = memo_find(u, in)) != NULL) {
        *loop = hit;
        return 0;
    }
    for (int i = 0; i < u->l.nin; i++)
        if (!uf_dtype_valid((int)in[i]))
            return uf__error_set(err, UF_ERR_INVALID,
                                 "uf__ufunc_resolve: invalid dtype for "
                                 "input %d", i);
    pthread_mutex_lock(&u->l.lock);
    /* another thread may have memoized it meanwhile */
    if ((hit = memo_find(u, in)) != NULL) {
        *loop = hit;
        pthread_mutex_unlock(&u->l.lock);
        return 0;
    }
    for (int i = 0; i < u->l.nloops; i++) {
        if (uf__loop_list_inputs_accept(&u->l, u->l.loops[i], in)) {
            *loop = u->l.loops[i];
            memo_add(u, in, *loop);
            pthread_mutex_unlock(&u->l.lock);
            return 0;
        }
    }
    if (u->compile != NULL)
        rc = compile_loop(u, in, loop, err);
    else
        rc = uf__loop_list_no_loop_error(&u->l, in, err);
    if (rc == 0)
        memo_add(u, in, *loop);
    pthread_mutex_unlock(&u->l.lock);
    return rc;
}
