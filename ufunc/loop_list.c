/* The typed loop list of ufuncs and gufuncs (loop_list.h). */
#include <stdio.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ufunc/loop_list.h"

int uf__loop_list_init(uf__loop_list *l, const char *kind, const char *name,
                       int nin, int nout, uf_error *err)
{
    *l = (uf__loop_list){.kind = kind, .nin = nin, .nout = nout};
    if (!(l->name = uf__strdup(name, err)))
        return err ? err->code : UF_ERR_NOMEM;
    if (pthread_mutex_init(&l->lock, NULL) != 0) {
        uf__free(l->name);
        return uf__error_set(err, UF_ERR_INTERNAL, "cannot create a mutex");
    }
    return 0;
}

void uf__loop_list_fini(uf__loop_list *l)
{
    for (int i = 0; i < l->nloops; i++)
        uf__free(l->loops[i]);
    uf__free(l->loops);
    pthread_mutex_destroy(&l->lock);
    uf__free(l->name);
}

int uf__loop_list_check(const uf__loop_list *l, const uf__ufunc_loop *loop,
                        const char *what, int code, uf_error *err)
{
    if (loop->fn == NULL)
        return uf__error_set(err, code, "%s: %s '%s' loop has no function",
                             what, l->kind, l->name);
    for (int i = 0; i < l->nin + l->nout; i++)
        if (!uf_dtype_valid((int)loop->types[i]))
            return uf__error_set(err, code,
                                 "%s: %s '%s' loop has an invalid type for "
                                 "operand %d", what, l->kind, l->name, i);
    return 0;
}

int uf__loop_list_reserve(uf__loop_list *l, uf__ufunc_loop **copy,
                          uf_error *err)
{
    if (l->nloops == l->cap) {
        int cap = l->cap ? 2 * l->cap : 4;
        uf__ufunc_loop **grown =
            uf__realloc(l->loops, (size_t)cap, sizeof *grown, err);

        if (grown == NULL)
            return err ? err->code : UF_ERR_NOMEM;
        l->loops = grown;
        l->cap = cap;
    }
    *copy = uf__malloc(1, sizeof **copy, err);
    if (*copy == NULL)
        return err ? err->code : UF_ERR_NOMEM;
    return 0;
}

const uf__ufunc_loop *uf__loop_list_put(uf__loop_list *l,
                                        uf__ufunc_loop *copy)
{
    l->loops[l->nloops++] = copy;
    return copy;
}

int uf__loop_list_append(uf__loop_list *l, const uf__ufunc_loop *loop,
                         const uf__ufunc_loop **added, uf_error *err)
{
    uf__ufunc_loop *copy;
    int rc = uf__loop_list_reserve(l, &copy, err);

    if (rc < 0)
        return rc;
    *copy = *loop;
    const uf__ufunc_loop *put = uf__loop_list_put(l, copy);
    if (added != NULL)
        *added = put;
    return 0;
}

int uf__loop_list_add(uf__loop_list *l, const uf__ufunc_loop *loop,
                      const char *what, uf_error *err)
{
    int rc = uf__loop_list_check(l, loop, what, UF_ERR_INVALID, err);

    if (rc < 0)
        return rc;
    pthread_mutex_lock(&l->lock);
    rc = uf__loop_list_append(l, loop, NULL, err);
    pthread_mutex_unlock(&l->lock);
    return rc;
}

bool uf__loop_list_inputs_accept(const uf__loop_list *l,
                                 const uf__ufunc_loop *loop,
                                 const uf_dtype *in)
{
    for (int i = 0; i < l->nin; i++)
        if (!uf_can_cast(in[i], loop->types[i], UF_CASTING_SAFE))
            return false;
    return true;
}

int uf__loop_list_check_made(const uf__loop_list *l,
                             const uf__ufunc_loop *made, const uf_dtype *in,
                             uf_error *err)
{
    int rc = uf__loop_list_check(l, made, "compile hook", UF_ERR_INTERNAL,
                                 err);
    if (rc == 0 && !uf__loop_list_inputs_accept(l, made, in))
        rc = uf__error_set(err, UF_ERR_INTERNAL,
                           "compile hook: %s '%s' got a loop whose input "
                           "types the inputs cannot be safely cast to",
                           l->kind, l->name);
    return rc;
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

int uf__loop_list_no_loop_error(const uf__loop_list *l, const uf_dtype *in,
                                uf_error *err)
{
    char buf[sizeof err->message];
    size_t n = 0, size = sizeof buf;

    buf[0] = '\0';
    n = put_types(buf, size, n, in, l->nin, false);
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, "; loops: %s",
                              l->nloops ? "" : "none");
    for (int i = 0; i < l->nloops && n < size; i++) {
        const uf__ufunc_loop *lp = l->loops[i];

        if (i > 0)
            n += (size_t)snprintf(buf + n, size - n, ", ");
        n = put_types(buf, size, n, lp->types, l->nin, false);
        if (n < size)
            n += (size_t)snprintf(buf + n, size - n, " -> ");
        n = put_types(buf, size, n, lp->types + l->nin, l->nout, true);
    }
    /* NumPy says "ufunc" for gufuncs too */
    return uf__error_set(err, UF_ERR_TYPE,
                         "ufunc '%s' not supported for the input types, and "
                         "the inputs could not be safely coerced to any "
                         "supported types according to the casting rule "
                         "''safe''; inputs %s",
                         l->name, buf);
}
