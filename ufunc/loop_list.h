/* The list of typed loops a ufunc or a gufunc dispatches over (ufunc.c,
 * gufunc/gufunc.c). Loops are allocated one by one and never move, so a
 * loop pointer handed out stays valid while later calls append loops; the
 * mutex guards appending, so that two threads meeting a new type
 * combination compile it once. */
#ifndef UF_UFUNC_LOOP_LIST_H
#define UF_UFUNC_LOOP_LIST_H

#include <pthread.h>
#include <stdbool.h>

#include "common/loop.h"

typedef struct uf__loop_list {
    const char *kind; /* "ufunc", "gufunc": for messages */
    char *name;
    int nin, nout;
    uf__ufunc_loop **loops;
    int nloops, cap;
    pthread_mutex_t lock;
} uf__loop_list;

/* An empty list of loops of nin inputs and nout outputs for `kind` `name`
 * (copied). */
int uf__loop_list_init(uf__loop_list *l, const char *kind, const char *name,
                       int nin, int nout, uf_error *err);
void uf__loop_list_fini(uf__loop_list *l);

/* 0, or `code` in err: the loop has no function or an invalid dtype
 * ("what: ufunc 'f' loop has no function"). */
int uf__loop_list_check(const uf__loop_list *l, const uf__ufunc_loop *loop,
                        const char *what, int code, uf_error *err);

/* Room for one more loop: the list grown if full, and the loop's memory
 * in *copy (fill it and append it with uf__loop_list_put, or free it).
 * Lock held. */
int uf__loop_list_reserve(uf__loop_list *l, uf__ufunc_loop **copy,
                          uf_error *err);
/* Appends a copy reserved above; returns it. Lock held. */
const uf__ufunc_loop *uf__loop_list_put(uf__loop_list *l,
                                        uf__ufunc_loop *copy);
/* Appends a copy of `loop`; *added (may be NULL) gets it. Lock held. */
int uf__loop_list_append(uf__loop_list *l, const uf__ufunc_loop *loop,
                         const uf__ufunc_loop **added, uf_error *err);
/* Checks and appends, taking the lock (`what` names the caller in
 * messages). */
int uf__loop_list_add(uf__loop_list *l, const uf__ufunc_loop *loop,
                      const char *what, uf_error *err);

/* Whether every input dtype in[0..nin) casts safely to the loop's. */
bool uf__loop_list_inputs_accept(const uf__loop_list *l,
                                 const uf__ufunc_loop *loop,
                                 const uf_dtype *in);

/* 0, or UF_ERR_INTERNAL: what a compile hook made is not a usable loop
 * for inputs `in` (a wrong loop would corrupt memory later). */
int uf__loop_list_check_made(const uf__loop_list *l,
                             const uf__ufunc_loop *made, const uf_dtype *in,
                             uf_error *err);

/* NumPy's message when no loop fits, then what was asked for and what
 * exists: "...; inputs (int64, complex128); loops: (float32, float32) ->
 * float32". Built once, after every loop failed. Lock held. */
int uf__loop_list_no_loop_error(const uf__loop_list *l, const uf_dtype *in,
                                uf_error *err);

#endif
