/* The gufunc object: its layout, its loop list and loop dispatch (Numba's
 * guvectorize rule: a loop matching the input dtypes exactly, else the
 * first loop every input can be cast to safely, with the given outputs'
 * types taken into account, else compile one).
 *
 * The loops live in a uf__loop_list as a ufunc's do (ufunc/loop_list.h):
 * a loop pointer handed out stays valid while later calls append loops,
 * and two threads meeting a new type combination compile it once. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "gufunc/gufunc_internal.h"
#include "ufunc/loop_list.h"

struct uf__gufunc {
    uf__loop_list l; /* name, nin, nout, the loops and the lock */
    const uf__gufunc_layout *layout;
    uf__gufunc_compile_fn compile;
    void *compile_ctx;
    uint64_t writable_inputs;
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
    if (uf__loop_list_init(&g->l, "gufunc", name, layout->nin,
                           layout->nout, err) != 0) {
        uf__free(g);
        return NULL;
    }
    g->layout = layout;
    g->compile = compile;
    g->compile_ctx = compile_ctx;
    return g;
}

void uf__gufunc_free(uf__gufunc *g)
{
    if (g == NULL)
        return;
    uf__loop_list_fini(&g->l);
    uf__free(g);
}

void uf__gufunc_set_writable_inputs(uf__gufunc *g, uint64_t mask)
{
    g->writable_inputs = mask;
}

uint64_t uf__gufunc_writable_inputs(const uf__gufunc *g)
{
    return g->writable_inputs;
}

const char *uf__gufunc_name(const uf__gufunc *g)
{
    return g->l.name;
}

const uf__gufunc_layout *uf__gufunc_layout_of(const uf__gufunc *g)
{
    return g->layout;
}

int uf__gufunc_nloops(const uf__gufunc *g)
{
    return g->l.nloops;
}

const uf__ufunc_loop *uf__gufunc_get_loop(const uf__gufunc *g, int i)
{
    return i >= 0 && i < g->l.nloops ? g->l.loops[i] : NULL;
}

int uf__gufunc_add_loop(uf__gufunc *g, const uf__ufunc_loop *loop,
                        uf_error *err)
{
    uf_error local;

    if (err == NULL)
        err = &local;
    if (g == NULL || loop == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__gufunc_add_loop: invalid arguments");
    return uf__loop_list_add(&g->l, loop, "uf__gufunc_add_loop", err);
}

static bool outputs_accept(const uf__gufunc *g, const uf__ufunc_loop *loop,
                           const int *out, uf_casting casting)
{
    for (int o = 0; o < g->l.nout; o++)
        if (out[o] >= 0 && !uf_can_cast(loop->types[g->l.nin + o],
                                        (uf_dtype)out[o], casting))
            return false;
    return true;
}

/* Called with the lock held. The hook fills a zeroed loop; what it gives
 * back is checked, since a wrong loop would corrupt memory later. */
static int compile_loop(uf__gufunc *g, const uf_dtype *in, const int *out,
                        const uf__ufunc_loop **loop, uf_error *err)
{
    int types[UF__LOOP_MAXARGS];
    uf__ufunc_loop made;
    int rc;

    for (int i = 0; i < g->l.nin; i++)
        types[i] = (int)in[i];
    for (int o = 0; o < g->l.nout; o++)
        types[g->l.nin + o] = out[o];
    memset(&made, 0, sizeof made);
    rc = g->compile(g->compile_ctx, types, &made, err);
    if (rc != 0)
        return rc < 0 ? rc
                      : uf__error_set(err, UF_ERR_INTERNAL,
                                      "compiling gufunc '%s' failed (status "
                                      "%d)", g->l.name, rc);
    if ((rc = uf__loop_list_check_made(&g->l, &made, in, err)) < 0)
        return rc;
    return uf__loop_list_append(&g->l, &made, loop, err);
}

int uf__gufunc_resolve_loop(uf__gufunc *g, const uf_dtype *in,
                            const int *out, uf_casting casting,
                            const uf__ufunc_loop **loop, uf_error *err)
{
    const uf__ufunc_loop *inputs_only = NULL;
    int rc;

    for (int i = 0; i < g->l.nin; i++)
        if (!uf_dtype_valid((int)in[i]))
            return uf__error_set(err, UF_ERR_INVALID,
                                 "gufunc '%s': invalid dtype for input %d",
                                 g->l.name, i);
    pthread_mutex_lock(&g->l.lock);
    /* Numba's guvectorize (NumPy 2's dispatch) takes a loop matching the
     * input dtypes exactly before the first one they cast to safely */
    for (int i = 0; i < g->l.nloops; i++) {
        bool exact = true;
        for (int k = 0; k < g->l.nin && exact; k++)
            exact = g->l.loops[i]->types[k] == in[k];
        if (exact && outputs_accept(g, g->l.loops[i], out, casting)) {
            *loop = g->l.loops[i];
            pthread_mutex_unlock(&g->l.lock);
            return 0;
        }
    }
    for (int i = 0; i < g->l.nloops; i++) {
        if (!uf__loop_list_inputs_accept(&g->l, g->l.loops[i], in))
            continue;
        if (outputs_accept(g, g->l.loops[i], out, casting)) {
            *loop = g->l.loops[i];
            pthread_mutex_unlock(&g->l.lock);
            return 0;
        }
        if (inputs_only == NULL)
            inputs_only = g->l.loops[i];
    }
    if (g->compile != NULL) {
        rc = compile_loop(g, in, out, loop, err);
    } else if (inputs_only != NULL) {
        *loop = inputs_only;
        rc = 0;
    } else {
        rc = uf__loop_list_no_loop_error(&g->l, in, err);
    }
    pthread_mutex_unlock(&g->l.lock);
    return rc;
}
