/* The slot of a vectorize loop's lazily compiled loops (strided_slot.h):
 * it calls the compile hook the call machinery installed once, on the
 * first call that wants the loop, and publishes the result to every
 * thread. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "targets/cpu/strided_slot.h"

/* A slot's state: IDLE (nothing tried, or a retry due), BUSY (one thread
 * compiling), READY (fn published), NEVER (the buffered path for good). */
enum { SLOT_IDLE, SLOT_BUSY, SLOT_READY, SLOT_NEVER };

uf__strided_slot *uf__strided_slot_new(const uf__ufunc_loop *loop, int nargs,
                                       uf__strided_compile_fn compile,
                                       void *cctx, int tag, uf_error *err)
{
    if (nargs < 1 || nargs > UF__LOOP_MAXARGS) {
        uf__error_set(err, UF_ERR_INTERNAL, "strided slot: %d operands",
                      nargs);
        return NULL;
    }
    uf__strided_slot *s = uf__calloc(1, sizeof *s, err);
    if (!s)
        return NULL;
    s->desc = loop->aux;
    atomic_init(&s->fn, NULL);
    atomic_init(&s->state, SLOT_IDLE);
    atomic_init(&s->nt, NULL);
    atomic_init(&s->nt_state, SLOT_IDLE);
    atomic_init(&s->nts, NULL);
    atomic_init(&s->nts_state, SLOT_IDLE);
    uf__stream_pick_init(&s->pick[0]);
    uf__stream_pick_init(&s->pick[1]);
    s->compile = compile;
    s->cctx = cctx;
    s->tag = tag;
    s->ntypes = nargs;
    memcpy(s->types, loop->types, (size_t)nargs * sizeof s->types[0]);
    return s;
}

void uf__strided_slot_free(uf__strided_slot *s)
{
    uf__free(s);
}

/* Whether this thread moved *state from IDLE to BUSY: the one thread that
 * compiles the loop (the others go on without it meanwhile). */
static bool claim(atomic_int *state)
{
    int idle = SLOT_IDLE;
    return atomic_load_explicit(state, memory_order_relaxed) == SLOT_IDLE &&
           atomic_compare_exchange_strong(state, &idle, SLOT_BUSY);
}

/* After the compile: READY, IDLE again for a retry, or NEVER. */
static void settle(atomic_int *state, int rc, bool made)
{
    atomic_store(state, rc == 0 && made ? SLOT_READY
                        : rc == UF__STRIDED_RETRY ? SLOT_IDLE
                                                  : SLOT_NEVER);
}

uf__loop_strided_fn uf__strided_slot_get(uf__strided_slot *s)
{
    uf__loop_strided_fn fn = atomic_load_explicit(&s->fn,
                                                  memory_order_acquire);
    if (fn || !claim(&s->state))
        return fn; /* compiled elsewhere, or never */
    int rc = s->compile(s->cctx, s->tag, s->types, &fn);
    if (rc == 0 && fn)
        atomic_store_explicit(&s->fn, fn, memory_order_release);
    settle(&s->state, rc, fn != NULL);
    return rc == 0 ? fn : NULL;
}

uf__loop_contig_fn uf__strided_slot_stream(uf__strided_slot *s)
{
    uf__loop_contig_fn fn = atomic_load_explicit(&s->nt,
                                                 memory_order_acquire);
    if (fn || !s->compile_nt || !claim(&s->nt_state))
        return fn;
    bool blocked = false;
    int rc = s->compile_nt(s->cctx, s->tag, s->types, NULL, &fn, &blocked);
    /* run as the descriptor's contig is, or not at all */
    if (rc == 0 &&
        (blocked ? uf__loop_block(s->types, s->ntypes) : 0) != s->desc->block)
        rc = -1;
    if (rc == 0 && fn)
        atomic_store_explicit(&s->nt, fn, memory_order_release);
    settle(&s->nt_state, rc, fn != NULL);
    return rc == 0 ? fn : NULL;
}

uf__loop_contig_fn uf__strided_slot_stream_strided(uf__strided_slot *s,
                                                   const int64_t *strides)
{
    size_t bytes = (size_t)s->ntypes * sizeof strides[0];
    uf__loop_contig_fn fn = atomic_load_explicit(&s->nts,
                                                 memory_order_acquire);
    if (fn)
        return memcmp(strides, s->nts_strides, bytes) == 0 ? fn : NULL;
    if (!s->compile_nt || !claim(&s->nts_state))
        return NULL;
    memcpy(s->nts_strides, strides, bytes); /* read after nts's release */
    bool blocked = false;
    int rc = s->compile_nt(s->cctx, s->tag, s->types, s->nts_strides, &fn,
                           &blocked);
    if (rc == 0 && blocked)
        rc = -1;
    if (rc == 0 && fn)
        atomic_store_explicit(&s->nts, fn, memory_order_release);
    settle(&s->nts_state, rc, fn != NULL);
    return rc == 0 ? fn : NULL;
}
