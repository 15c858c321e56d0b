/* The gufunc object: its layout, its loop list and loop dispatch (Numba's
 * guvectorize rule: a loop matching the input dtypes exactly, else the
 * first loop every input can be cast to safely, with the given outputs'
 * types taken into account, else compile one).
 *
 * As in ufunc/ufunc.c, loops are allocated one by one and never move, so a
 * loop pointer handed out stays valid while later calls append loops, and
 * a mutex guards the list so that two threads meeting a new type
 * combination compile it once. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "gufunc/gufunc_internal.h"

struct uf__gufunc {
    char *name;
    const uf__gufunc_layout *layout;
    int nin, nout;
    uf__gufunc_compile_fn compile;
    void *compile_ctx;
    uf__ufunc_loop **loops;
    int nloops, cap;
    pthread_mutex_t lock;
};

uf__gufunc *uf__gufunc_new(const char *name, const uf__gufunc_layout *layout,
                           uf__gufunc_compile_fn compile, void *compile_ctx,
                           uf_error *err)
{
    uf__gufunc *g;

    if (name == NULL || layout == NULL || layout->nin < 0 ||
        layout->nout < 0 || layout->nin > UF__LOOP_MAXARGS - layout->nout) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf__gufunc_new: invalid arguments (at most %d "
                      "operands)", UF__LOOP_MAXARGS);
        return NULL;
    }
    g = uf__calloc(1, sizeof *g, err);
    if (g == NULL)
        return NULL;
    g->name = uf__strdup(name, err);
    if (g->name == NULL)
        goto fail_name;
    if (pthread_mutex_init(&g->lock, NULL) != 0) {
        uf__error_set(err, UF_ERR_INTERNAL, "cannot create a mutex");
        goto fail_lock;
    }
    g->layout = layout;
    g->nin = layout->nin;
    g->nout = layout->nout;
    g->compile = compile;
    g->compile_ctx = compile_ctx;
    return g;

fail_lock:
    uf__free(g->name);
fail_name:
    uf__free(g);
    return NULL;
}

void uf__gufunc_free(uf__gufunc *g)
{
    if (g == NULL)
        return;
    for (int i = 0; i < g->nloops; i++)
        uf__free(g->loops[i]);
    uf__free(g->loops);
    pthread_mutex_destroy(&g->lock);
    uf__free(g->name);
    uf__free(g);
}

const char *uf__gufunc_name(const uf__gufunc *g)
{
    return g->name;
}

const uf__gufunc_layout *uf__gufunc_layout_of(const uf__gufunc *g)
{
    return g->layout;
}

int uf__gufunc_nloops(const uf__gufunc *g)
{
    return g->nloops;
}

const uf__ufunc_loop *uf__gufunc_get_loop(const uf__gufunc *g, int i)
{
    return i >= 0 && i < g->nloops ? g->loops[i] : NULL;
}

static int check_loop(const uf__gufunc *g, const uf__ufunc_loop *loop,
                      const char *what, int code, uf_error *err)
{
    if (loop->fn == NULL)
        return uf__error_set(err, code,
                             "%s: gufunc '%s' loop has no function", what,
                             g->name);
    for (int i = 0; i < g->nin + g->nout; i++)
        if (!uf_dtype_valid((int)loop->types[i]))
            return uf__error_set(err, code,
                                 "%s: gufunc '%s' loop has an invalid type "
                                 "for operand %d", what, g->name, i);
    return 0;
}

/* Called with the lock held. */
static int append(uf__gufunc *g, const uf__ufunc_loop *loop,
                  const uf__ufunc_loop **added, uf_error *err)
{
    uf__ufunc_loop *copy;

    if (g->nloops == g->cap) {
        int cap = g->cap ? 2 * g->cap : 4;
        uf__ufunc_loop **grown =
            uf__realloc(g->loops, (size_t)cap, sizeof *grown, err);

        if (grown == NULL)
            return err->code;
        g->loops = grown;
        g->cap = cap;
    }
    copy = uf__malloc(1, sizeof *copy, err);
    if (copy == NULL)
        return err->code;
    *copy = *loop;
    g->loops[g->nloops++] = copy;
    if (added != NULL)
        *added = copy;
    return 0;
}

int uf__gufunc_add_loop(uf__gufunc *g, const uf__ufunc_loop *loop,
                        uf_error *err)
{
    uf_error local;
    int rc;

    if (err == NULL)
        err = &local;
    if (g == NULL || loop == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__gufunc_add_loop: invalid arguments");
    rc = check_loop(g, loop, "uf__gufunc_add_loop", UF_ERR_INVALID, err);
    if (rc < 0)
        return rc;
    pthread_mutex_lock(&g->lock);
    rc = append(g, loop, NULL, err);
    pthread_mutex_unlock(&g->lock);
    return rc;
}

static bool inputs_accept(const uf__gufunc *g, const uf__ufunc_loop *loop,
                          const uf_dtype *in)
{
    for (int i = 0; i < g->nin; i++)
        if (!uf_can_cast(in[i], loop->types[i], UF_CASTING_SAFE))
            return false;
    return true;
}

static bool outputs_accept(const uf__gufunc *g, const uf__ufunc_loop *loop,
                           const int *out, uf_casting casting)
{
    for (int o = 0; o < g->nout; o++)
        if (out[o] >= 0 && !uf_can_cast(loop->types[g->nin + o],
                                        (uf_dtype)out[o], casting))
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

/* NumPy's message, then what was asked for and what exists, as the
 * ufunc's. Built once, after every loop failed. Called with the lock. */
static int no_loop_error(const uf__gufunc *g, const uf_dtype *in,
                         uf_error *err)
{
    char buf[sizeof err->message];
    size_t n = 0, size = sizeof buf;

    buf[0] = '\0';
    n = put_types(buf, size, n, in, g->nin, false);
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, "; loops: %s",
                              g->nloops ? "" : "none");
    for (int i = 0; i < g->nloops && n < size; i++) {
        const uf__ufunc_loop *l = g->loops[i];

        if (i > 0)
            n += (size_t)snprintf(buf + n, size - n, ", ");
        n = put_types(buf, size, n, l->types, g->nin, false);
        if (n < size)
            n += (size_t)snprintf(buf + n, size - n, " -> ");
        n = put_types(buf, size, n, l->types + g->nin, g->nout, true);
    }
    return uf__error_set(err, UF_ERR_TYPE,
                         "ufunc '%s' not supported for the input types, and "
                         "the inputs could not be safely coerced to any "
                         "supported types according to the casting rule "
                         "''safe''; inputs %s",
                         g->name, buf);
}

/* Called with the lock held. The hook fills a zeroed loop; what it gives
 * back is checked, since a wrong loop would corrupt memory later. */
static int compile_loop(uf__gufunc *g, const uf_dtype *in, const int *out,
                        const uf__ufunc_loop **loop, uf_error *err)
{
    int types[UF__LOOP_MAXARGS];
    uf__ufunc_loop made;
    int rc;

    for (int i = 0; i < g->nin; i++)
        types[i] = (int)in[i];
    for (int o = 0; o < g->nout; o++)
        types[g->nin + o] = out[o];
    memset(&made, 0, sizeof made);
    rc = g->compile(g->compile_ctx, types, &made, err);
    if (rc != 0)
        return rc < 0 ? rc
                      : uf__error_set(err, UF_ERR_INTERNAL,
                                      "compiling gufunc '%s' failed (status "
                                      "%d)", g->name, rc);
    rc = check_loop(g, &made, "compile hook", UF_ERR_INTERNAL, err);
    if (rc < 0)
        return rc;
    if (!inputs_accept(g, &made, in))
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "compile hook: gufunc '%s' got a loop whose "
                             "input types the inputs cannot be safely cast "
                             "to", g->name);
    return append(g, &made, loop, err);
}

int uf__gufunc_resolve_loop(uf__gufunc *g, const uf_dtype *in,
                            const int *out, uf_casting casting,
                            const uf__ufunc_loop **loop, uf_error *err)
{
    const uf__ufunc_loop *inputs_only = NULL;
    int rc;

    for (int i = 0; i < g->nin; i++)
        if (!uf_dtype_valid((int)in[i]))
            return uf__error_set(err, UF_ERR_INVALID,
                                 "gufunc '%s': invalid dtype for input %d",
                                 g->name, i);
    pthread_mutex_lock(&g->lock);
    /* Numba's guvectorize (NumPy 2's dispatch) takes a loop matching the
     * input dtypes exactly before the first one they cast to safely */
    for (int i = 0; i < g->nloops; i++) {
        bool exact = true;
        for (int k = 0; k < g->nin && exact; k++)
            exact = g->loops[i]->types[k] == in[k];
        if (exact && outputs_accept(g, g->loops[i], out, casting)) {
            *loop = g->loops[i];
            pthread_mutex_unlock(&g->lock);
            return 0;
        }
    }
    for (int i = 0; i < g->nloops; i++) {
        if (!inputs_accept(g, g->loops[i], in))
            continue;
        if (outputs_accept(g, g->loops[i], out, casting)) {
            *loop = g->loops[i];
            pthread_mutex_unlock(&g->lock);
            return 0;
        }
        if (inputs_only == NULL)
            inputs_only = g->loops[i];
    }
    if (g->compile != NULL) {
        rc = compile_loop(g, in, out, loop, err);
    } else if (inputs_only != NULL) {
        *loop = inputs_only;
        rc = 0;
    } else {
        rc = no_loop_error(g, in, err);
    }
    pthread_mutex_unlock(&g->lock);
    return rc;
}
