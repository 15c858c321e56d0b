/* The gufunc call path, NumPy's PyUFunc_GeneralizedFunctionInternal with
 * Numba's dispatch: check the operands, choose the loop, check casts,
 * resolve core and loop dimensions (core_dims.c), convert inputs, allocate
 * outputs, then run the loop over the loop space (gufunc_exec.c).
 *
 * Checks come in NumPy's order (read-only outputs, loop resolution,
 * casting, shapes) so that a bad call fails with NumPy's message. Unlike
 * the ufunc path there are no chunked cast buffers: a core argument is a
 * whole sub-array, so an input whose dtype differs from the loop's (or that
 * is unaligned) is converted once into a copy, and such an output is
 * computed into a temporary of the loop's dtype and copied back. An input
 * sharing memory with an output is copied first, as NumPy does, and also
 * when both are the very same view, where NumPy does not (it assumes
 * elementwise access, wrong for a gufunc: its matrix_multiply(a, a,
 * out=a) is not a @ a).
 *
 * On a target with threads (`parallel`) the loop space (strips of the loop
 * dimensions, and parts of strips when there are few) is shared out
 * between threads by its `run`, each with its own scratch, loop context and
 * error; iterations are independent, so the results are cpu's bit for
 * bit. Calls with little work (iterations times the core sizes) stay on
 * the caller's thread. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "gufunc/gufunc_internal.h"
#include "ndarray/array_internal.h"
#include "ufunc/call_check.h"
#include "ufunc/options.h"

#define MAXARGS UF__LOOP_MAXARGS

typedef struct call {
    uf__gufunc *g;
    const uf__gufunc_layout *L;
    const char *name;
    int nin, nout, nargs;
    uf__gufunc_axes axes;
    const uf__ufunc_loop *loop;
    uint64_t writable; /* inputs the kernel may write (writable_args=) */
    bool resolved;
    bool empty;
    /* the casting rule, the target (targets/target.h) and its threads
     * (0: its default) */
    uf__call_setup set;
    uf__gufunc_pick_fn pick; /* may be NULL */
    void *pick_ctx;
    /* The large members last: a call zeroes only what comes before them
     * and the operands it has (see uf__gufunc_call_pick). */
    /* Inputs then outputs as the caller gave them (absent outputs NULL),
     * and what the loop runs on: the same array, or one the call made
     * (owned): a converted input copy, an allocated output, or an
     * output's temporary of the loop dtype. */
    uf_array *user[MAXARGS];
    uf_array *op[MAXARGS];
    bool owned[MAXARGS];
    uf__gufunc_resolution res; /* valid once `resolved` */
} call;

int uf__gufunc_read_axes(const char *name, const uf_call_options *opts,
                         uf__gufunc_axes *ax, uf_error *err)
{
    uf_axes_mode mode = UF__OPT(opts, axes_mode, UF_AXES_DEFAULT);
    int nops = UF__OPT(opts, gufunc_nops, 0);

    memset(ax, 0, sizeof *ax);
    ax->keepdims = -1;
    if (opts == NULL)
        return 0;
    if (mode == UF_AXES_ALL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "gufunc '%s': axis= must be a single axis, "
                             "not every axis (None)", name);
    if (mode == UF_AXES_LIST) {
        int naxes = UF__OPT(opts, naxes, 0);
        const int *axes = UF__OPT(opts, axes, (const int *)NULL);

        if (naxes != 1 || axes == NULL)
            return uf__error_set(err, UF_ERR_INVALID,
                                 "gufunc '%s': axis= must be a single axis "
                                 "(got %d); use gufunc_axes for axes=",
                                 name, naxes);
        ax->has_axis = true;
        ax->axis = axes[0];
    } else if (mode != UF_AXES_DEFAULT) {
        return uf__error_set(err, UF_ERR_INVALID, "invalid axes mode %d",
                             (int)mode);
    }
    if (UF__OPT(opts, keepdims, false))
        ax->keepdims = 1;
    if (nops != 0) {
        ax->naxes_ops = nops;
        ax->naxes = UF__OPT(opts, gufunc_naxes, (const int *)NULL);
        ax->axes = UF__OPT(opts, gufunc_axes, (const int *const *)NULL);
    }
    return 0;
}

/* The options every call reads (ufunc/call_check.h), then the axes.
 * `target` is the kernel's declared target, used when opts names none. */
static int read_options(call *c, const uf_call_options *opts,
                        const char *target, uf_error *err)
{
    int rc = uf__call_read_options(opts, target,
                                   UF__TCAP_HOST_MEMORY | UF__TCAP_GUVECTORIZE,
                                   &c->set, err);
    if (rc < 0)
        return rc;
    /* NumPy's gufuncs take no where= ("unexpected keyword argument") */
    if (opts != NULL && opts->where != NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "gufunc '%s' does not take where=: generalized "
                             "ufuncs have no mask argument", c->name);
    return uf__gufunc_read_axes(c->name, opts, &c->axes, err);
}

static int check_operands(call *c, uf_array *const *inputs, int n_in,
                          uf_array **outputs, int n_out, uf_error *err)
{
    if (uf__call_check_operands("gufunc", c->name, c->set.target, c->nin,
                                c->nout, inputs, n_in, outputs, n_out, c->op,
                                err) < 0)
        return err->code;
    for (int i = 0; i < c->nargs; i++)
        c->user[i] = c->op[i];
    return 0;
}

static int resolve_loop(call *c, uf_error *err)
{
    uf_dtype in[MAXARGS];
    int out[MAXARGS];

    for (int i = 0; i < c->nin; i++)
        in[i] = c->user[i]->dtype;
    for (int o = 0; o < c->nout; o++) {
        const uf_array *a = c->user[c->nin + o];
        out[o] = a != NULL ? (int)a->dtype : -1;
    }
    return uf__gufunc_resolve_loop(c->g, in, out, c->set.casting, &c->loop,
                                   err);
}

static bool writable_input(const call *c, int i)
{
    return i < 64 && (c->writable >> i & 1);
}

/* A writable_args input is read and written: it must be writeable (the
 * write-back of a converted copy is unsafe-cast, as NumPy's for a
 * READWRITE operand: int32 data through a float64 loop gets its values
 * back truncated). */
static int check_writable_inputs(const call *c, uf_error *err)
{
    for (int i = 0; i < c->nin; i++)
        if (writable_input(c, i) &&
            !(c->user[i]->flags & UF_ARRAY_WRITEABLE))
            return uf__error_set(err, UF_ERR_READONLY,
                                 "gufunc '%s': input %d is in writable_args "
                                 "but the array is read-only", c->name, i);
    return 0;
}

/* NumPy's cast checks (call_check.h), then writable_args inputs'. */
static int check_casts(const call *c, uf_error *err)
{
    if (uf__call_check_casts(c->name, c->set.casting, c->nin, c->nout,
                             c->user, c->loop->types, err) < 0)
        return err->code;
    return c->writable ? check_writable_inputs(c, err) : 0;
}

static int resolve_dims(call *c, uf_error *err)
{
    uf__gufunc_shape shapes[MAXARGS];

    for (int i = 0; i < c->nargs; i++) {
        const uf_array *a = c->user[i];

        shapes[i].ndim = a != NULL ? a->ndim : -1;
        shapes[i].shape = a != NULL ? a->shape : NULL;
    }
    if (uf__gufunc_resolve(c->L, c->name, shapes, &c->axes, &c->res, err) < 0)
        return err->code;
    c->resolved = true;
    for (int d = 0; d < c->res.loop_ndim; d++)
        c->empty = c->empty || c->res.loop_shape[d] == 0;
    return 0;
}

/* Byte stride of operand `q` (as the caller gave it) along loop axis `ax`
 * of the loop shape; 0 where it is broadcast, absent or of length 1. */
static int64_t loop_stride(const void *ctx, int q, int ax)
{
    const call *c = ctx;
    return c->user[q] == NULL
               ? 0
               : uf__gufunc_loop_stride(&c->res, q, c->user[q], ax);
}

/* An array for operand i (an absent output, or a given output's
 * temporary) laid out as NumPy allocates gufunc outputs: in its permuted
 * view the core dimensions are innermost and C-contiguous, and the loop
 * dimensions outside them in NumPy's K order of the other operands'
 * strides (uf__iter_sort_axes, as the ufunc's outputs). */
static uf_array *alloc_operand(const call *c, int i, uf_dtype dt,
                               uf_error *err)
{
    const uf__gufunc_operand *ro = &c->res.ops[i];
    int nd = ro->ndim, nl = nd - ro->core_ndim, order[UF_MAXDIMS];
    int off = c->res.loop_ndim - nl;
    int64_t lshape[UF_MAXDIMS], lstrides[UF_MAXDIMS];
    int64_t step = (int64_t)uf_dtype_itemsize(dt);
    uf_array *a = uf_empty(dt, nd, ro->shape, UF_ORDER_C, err);

    if (a == NULL || uf_array_size(a) == 0)
        return a;
    for (int k = 0; k < nd; k++)
        lshape[k] = ro->shape[ro->perm[k]];
    for (int k = nd - 1; k >= nl; k--) {
        lstrides[k] = step;
        step *= lshape[k];
    }
    /* loop axes of the loop shape this operand has, innermost first */
    for (int k = 0; k < nl; k++)
        order[k] = c->res.loop_ndim - 1 - k;
    uf__iter_sort_axes(nl, c->nargs, loop_stride, c, order);
    for (int k = 0; k < nl; k++) {
        lstrides[order[k] - off] = step;
        step *= lshape[order[k] - off];
    }
    for (int k = 0; k < nd; k++)
        a->strides[ro->perm[k]] = lstrides[k];
    uf__array_update_flags(a);
    return a;
}

static bool needs_conversion(const uf_array *a, uf_dtype loop_type)
{
    return a->dtype != loop_type || !(a->flags & UF_ARRAY_ALIGNED);
}

/* Absent outputs are allocated; a given one the loop cannot write
 * directly gets a temporary (not needed when nothing runs). */
static int prepare_outputs(call *c, uf_error *err)
{
    for (int i = c->nin; i < c->nargs; i++) {
        uf_dtype dt = c->loop->types[i];
        uf_array *a = c->user[i];

        if (a != NULL && (c->empty || !needs_conversion(a, dt)))
            continue;
        c->op[i] = alloc_operand(c, i, dt, err);
        if (c->op[i] == NULL)
            return err->code;
        c->owned[i] = true;
    }
    return 0;
}

/* Whether input array `a` shares memory with an output the loop writes
 * in place (allocated outputs and temporaries share nothing). */
static bool overlaps_an_output(const call *c, const uf_array *a)
{
    for (int i = c->nin; i < c->nargs; i++)
        if (!c->owned[i] && uf__arrays_overlap(a, c->op[i]))
            return true;
    return false;
}

/* Inputs of another dtype (or unaligned) become converted copies; inputs
 * overlapping an output become copies, so that every input reads as it
 * was before the call. */
static int prepare_inputs(call *c, uf_error *err)
{
    for (int i = 0; i < c->nin; i++) {
        uf_array *a = c->user[i], *copy;
        uf_dtype dt = c->loop->types[i];

        if (needs_conversion(a, dt))
            copy = uf_array_astype(a, dt, UF_CASTING_UNSAFE, UF_ORDER_K, err);
        else if (!writable_input(c, i) && overlaps_an_output(c, a))
            copy = uf_array_copy(a, UF_ORDER_K, err);
        else
            continue;
        if (copy == NULL)
            return err->code;
        c->op[i] = copy;
        c->owned[i] = true;
    }
    return 0;
}

static int loop_error(const call *c, int status, const uf_error *loop_err,
                      uf_error *err)
{
    if (loop_err->code != UF_ERR_OK)
        return uf__error_set(err, loop_err->code, "gufunc '%s': %s", c->name,
                             loop_err->message);
    if (c->loop->status_error != NULL) {
        uf_error why;
        int code;

        uf_error_clear(&why);
        code = c->loop->status_error(status, &why);
        return uf__error_set(err, code < 0 ? code : UF_ERR_VALUE,
                             "gufunc '%s': %s", c->name, why.message);
    }
    return uf__error_set(err, UF_ERR_VALUE,
                         "gufunc '%s': the inner loop failed (status %d)",
                         c->name, status);
}

/* The loop's core arguments (gufunc.h): dims[1 + d] the size of layout
 * dimension d, steps[nargs + core_offset[k] + j] operand k's stride along
 * its j-th core dimension (0 for a missing flexible one). */
static void core_args(const call *c, int64_t *dims, int64_t *steps)
{
    const uf__gufunc_layout *L = c->L;

    for (int d = 0; d < L->ndims; d++)
        dims[1 + d] = c->res.dim_size[d];
    for (int k = 0; k < c->nargs; k++)
        uf__gufunc_core_strides(L, &c->res, k, c->op[k],
                                &steps[c->nargs + L->core_offset[k]]);
}

/* Each operand's loop axes (its permuted view without the trailing core
 * axes) as an iterator operand. */
static uf__iter *loop_iter(const call *c, uf_error *err)
{
    uf__iter_operand ops[MAXARGS];
    int64_t local[UF__GUFUNC_RES_INLINE][2][UF_MAXDIMS];
    int64_t (*dims)[2][UF_MAXDIMS] = local;
    uf__iter *it;

    if (c->nargs > UF__GUFUNC_RES_INLINE &&
        (dims = uf__malloc((size_t)c->nargs, sizeof *dims, err)) == NULL)
        return NULL;
    for (int k = 0; k < c->nargs; k++) {
        const uf__gufunc_operand *ro = &c->res.ops[k];
        const uf_array *a = c->op[k];
        int nl = ro->ndim - ro->core_ndim;

        for (int j = 0; j < nl; j++) {
            dims[k][0][j] = a->shape[ro->perm[j]];
            dims[k][1][j] = a->strides[ro->perm[j]];
        }
        ops[k] = (uf__iter_operand){a->data, nl, dims[k][0], dims[k][1]};
    }
    /* the iterator keeps copies of what it needs */
    it = uf__iter_new(c->nargs, ops, c->res.loop_ndim, c->res.loop_shape, 0,
                      err);
    if (dims != local)
        uf__free(dims);
    return it;
}

/* ---- running the loop, on one thread or several ----------------------- */

/* Work (about one kernel step) below which a thread's share costs less
 * than starting and joining threads (1-2 us): a chunk gets at least this
 * much, and a call with less than twice it stays serial. */
#define PAR_MIN_WORK 32768
/* Units to aim for per thread when strips must be cut up. */
#define PAR_PARTS_PER_THREAD 4
/* Part boundaries of cheap iterations (a kernel over fixed or scalar core
 * arguments, whose loop may be vectorised over iterations). */
#define PAR_CHEAP_WORK 64
#define PAR_CHEAP_BLOCK 64

/* What one iteration costs, roughly: the product of the core dimension
 * sizes (a matvec (m,n),(n)->(m) does m*n steps), saturating. */
static int64_t iteration_work(const call *c)
{
    int64_t w = 1;

    for (int d = 0; d < c->L->ndims; d++) {
        int64_t n = c->res.dim_size[d] > 1 ? c->res.dim_size[d] : 1;

        w = w > ((int64_t)1 << 40) / n ? (int64_t)1 << 40 : w * n;
    }
    return w;
}

static bool same_view(const uf_array *a, const uf_array *b)
{
    return a->data == b->data && a->ndim == b->ndim &&
           uf_dtype_itemsize(a->dtype) == uf_dtype_itemsize(b->dtype) &&
           memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof(int64_t)) == 0 &&
           memcmp(a->strides, b->strides,
                  (size_t)a->ndim * sizeof(int64_t)) == 0;
}

/* Whether no two elements of `a` share memory (a sufficient test: each
 * axis, by increasing stride, steps past everything the smaller ones
 * span), so that iterations writing their own parts of it never meet. */
static bool no_internal_overlap(const uf_array *a)
{
    int64_t st[UF_MAXDIMS], n[UF_MAXDIMS], extent;
    int m = 0;

    for (int k = 0; k < a->ndim; k++) {
        if (a->shape[k] == 0)
            return true;
        if (a->shape[k] == 1)
            continue;
        st[m] = a->strides[k] < 0 ? -a->strides[k] : a->strides[k];
        n[m++] = a->shape[k];
    }
    for (int i = 1; i < m; i++) /* insertion sort by stride */
        for (int j = i; j > 0 && st[j - 1] > st[j]; j--) {
            int64_t t = st[j];
            st[j] = st[j - 1], st[j - 1] = t;
            t = n[j];
            n[j] = n[j - 1], n[j - 1] = t;
        }
    extent = (int64_t)uf_dtype_itemsize(a->dtype);
    for (int i = 0; i < m; i++) {
        if (st[i] < extent)
            return false;
        extent += st[i] * (n[i] - 1);
    }
    return true;
}

/* Threads may share the loop space when what the kernel writes is
 * disjoint between iterations: the outputs (no stride-0 or otherwise
 * self-overlapping ones, no two overlapping unless the same view), or
 * for a layout without outputs (seed 000's STREAM copy writes an input)
 * every writeable array input. Otherwise the call stays serial. */
static bool writes_disjoint(const call *c)
{
    int first = c->nout > 0 ? c->nin : 0;

    for (int i = first; i < c->nargs; i++) {
        const uf_array *a = c->op[i];

        if (c->nout == 0 &&
            (c->L->core_ndim[i] == 0 || !(a->flags & UF_ARRAY_WRITEABLE)))
            continue;
        if (!no_internal_overlap(a))
            return false;
        for (int j = i + 1; c->nout > 0 && j < c->nargs; j++)
            if (!same_view(a, c->op[j]) &&
                uf__arrays_overlap(a, c->op[j]))
                return false;
    }
    return true;
}

typedef struct run_ctx {
    const call *c;
    const uf__gufunc_exec *x;
    uf__gufunc_split sp;
} run_ctx;

/* uf__target_body over units [begin, end): its own scratch, loop
 * context and loop error; a failure becomes the complete error (with the
 * gufunc's name) in this chunk's err. */
static int run_units(void *vctx, int64_t begin, int64_t end, uf_error *err)
{
    const run_ctx *r = vctx;
    int64_t local[16], *scratch = local, first, last;
    uf_error loop_err;
    uf__loop_ctx lctx = {.err = &loop_err};
    int status;

    if (r->x->ndims > 16 &&
        (scratch = uf__malloc((size_t)r->x->ndims, sizeof *scratch, err)) ==
            NULL)
        return err->code;
    uf__gufunc_split_range(&r->sp, begin, end, &first, &last);
    uf_error_clear(&loop_err);
    status = uf__gufunc_run_range(r->x, first, last, scratch, &lctx);
    if (scratch != local)
        uf__free(scratch);
    return status != 0 ? loop_error(r->c, status, &loop_err, err) : 0;
}

/* Runs the whole loop space: on the caller's thread for `cpu`, shared out
 * between threads on a target with threads when the work (iterations
 * times the cost of one) is worth it. Returns 0 or a negative code. */
static int run_all(const call *c, const uf__gufunc_exec *x, uf_error *err)
{
    int64_t work = iteration_work(c), pieces = 1, units, grain;
    int nthreads = c->set.nthreads;
    run_ctx r = {c, x, {0}};

    if (!(c->set.target->caps & UF__TCAP_THREADS)) {
        uf__gufunc_split_init(&r.sp, x, 1, 1);
        return run_units(&r, 0, uf__gufunc_split_units(&r.sp), err);
    }
    nthreads = c->set.target->threads(nthreads);
    if (nthreads <= 1 || x->size < 2 ||
        x->size < 2 * PAR_MIN_WORK / work + 1 || !writes_disjoint(c)) {
        uf__gufunc_split_init(&r.sp, x, 1, 1);
        units = uf__gufunc_split_units(&r.sp);
        /* still through the runtime: a bad UFJIT_THREADING_LAYER is
         * reported however small the call */
        return c->set.target->run(units, units, nthreads, run_units, &r,
                              err) != 0 ? err->code : 0;
    }
    units = uf__iter_nstrips(x->it);
    if (units < (int64_t)nthreads * PAR_PARTS_PER_THREAD)
        pieces = ((int64_t)nthreads * PAR_PARTS_PER_THREAD + units - 1) /
                 units;
    uf__gufunc_split_init(&r.sp, x, pieces,
                          work < PAR_CHEAP_WORK ? PAR_CHEAP_BLOCK : 1);
    units = uf__gufunc_split_units(&r.sp);
    /* each unit has about len / parts iterations */
    grain = r.sp.len / r.sp.parts;
    grain = grain > PAR_MIN_WORK / work ? 1
                                        : PAR_MIN_WORK / (work * grain) + 1;
    return c->set.target->run(units, grain, nthreads, run_units, &r, err) != 0
               ? err->code : 0;
}

static int execute(call *c, uf_error *err)
{
    const uf__gufunc_layout *L = c->L;
    size_t ndims = 1 + (size_t)L->ndims, nsteps = (size_t)c->nargs;
    int64_t local[64], *block = local, *dims, *steps;
    uf__ufunc_loop variant;
    uf__strided_loop fn;
    uf__gufunc_exec x;
    uf__iter *it;
    int rc;

    for (int k = 0; k < c->nargs; k++)
        nsteps += (size_t)L->core_ndim[k];
    /* dims, steps: on the stack unless there are many */
    if (ndims + nsteps > sizeof local / sizeof local[0] &&
        (block = uf__malloc(ndims + nsteps, sizeof *block, err)) == NULL)
        return err->code;
    it = loop_iter(c, err);
    if (it == NULL) {
        if (block != local)
            uf__free(block);
        return err->code;
    }
    dims = block;
    steps = dims + ndims;
    dims[0] = 0;
    memcpy(steps, uf__iter_strip_strides(it),
           (size_t)c->nargs * sizeof *steps);
    core_args(c, dims, steps);
    x = (uf__gufunc_exec){.loop = c->loop,
                          .nargs = c->nargs,
                          .it = it,
                          .ndims = (int)ndims,
                          .dims = dims,
                          .steps = steps,
                          .size = uf__iter_nstrips(it) *
                                  uf__iter_strip_len(it)};
    fn = c->pick ? c->pick(c->pick_ctx, c->loop, dims, steps, x.size, c->op)
                 : NULL;
    if (fn != NULL) { /* a variant of the loop for this core shape */
        variant = *c->loop;
        variant.fn = fn;
        x.loop = &variant;
    }
    rc = run_all(c, &x, err);
    uf__iter_free(it);
    if (block != local)
        uf__free(block);
    return rc;
}

/* Outputs computed in a temporary go to the caller's array, and so do
 * converted copies of writable_args inputs. */
static int copy_back(call *c, uf_error *err)
{
    for (int i = 0; c->writable && i < c->nin; i++)
        if (writable_input(c, i) && c->op[i] != c->user[i] &&
            uf_array_copyto(c->user[i], c->op[i], UF_CASTING_UNSAFE, err) < 0)
            return err->code;
    for (int i = c->nin; i < c->nargs; i++)
        if (c->user[i] != NULL && c->op[i] != c->user[i] &&
            uf_array_copyto(c->user[i], c->op[i], UF_CASTING_UNSAFE, err) < 0)
            return err->code;
    return 0;
}

static void release_all(call *c, bool failed)
{
    for (int i = 0; i < c->nargs; i++) {
        /* Allocated outputs go to the caller unless the call failed. */
        bool handed_out = i >= c->nin && c->user[i] == NULL && !failed;

        if (c->owned[i] && !handed_out)
            uf_array_release(c->op[i]);
    }
    if (c->resolved)
        uf__gufunc_resolution_free(&c->res);
}

int uf__gufunc_call(uf__gufunc *g, uf_array *const *inputs, int n_in,
                    uf_array **outputs, int n_out,
                    const uf_call_options *opts, uf_error *err)
{
    return uf__gufunc_call_target(g, NULL, inputs, n_in, outputs, n_out,
                                  opts, err);
}

int uf__gufunc_call_target(uf__gufunc *g, const char *target,
                           uf_array *const *inputs, int n_in,
                           uf_array **outputs, int n_out,
                           const uf_call_options *opts, uf_error *err)
{
    return uf__gufunc_call_pick(g, target, NULL, NULL, inputs, n_in, outputs,
                                n_out, opts, err);
}

int uf__gufunc_call_pick(uf__gufunc *g, const char *target,
                         uf__gufunc_pick_fn pick, void *pick_ctx,
                         uf_array *const *inputs, int n_in,
                         uf_array **outputs, int n_out,
                         const uf_call_options *opts, uf_error *err)
{
    uf_error local;
    call c;
    int rc;

    if (err == NULL)
        err = &local;
    if (g == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__gufunc_call: NULL gufunc");
    /* zeroing all of `call` (kilobytes) cost a tenth of a small call */
    memset(&c, 0, offsetof(call, user));
    c.g = g;
    c.L = uf__gufunc_layout_of(g);
    memset(c.user, 0, (size_t)c.L->nargs * sizeof c.user[0]);
    memset(c.op, 0, (size_t)c.L->nargs * sizeof c.op[0]);
    memset(c.owned, 0, (size_t)c.L->nargs * sizeof c.owned[0]);
    c.name = uf__gufunc_name(g);
    c.nin = c.L->nin;
    c.nout = c.L->nout;
    c.nargs = c.L->nargs;
    c.pick = pick;
    c.pick_ctx = pick_ctx;
    c.writable = uf__gufunc_writable_inputs(g);
    if ((rc = read_options(&c, opts, target, err)) < 0 ||
        (rc = check_operands(&c, inputs, n_in, outputs, n_out, err)) < 0 ||
        (rc = resolve_loop(&c, err)) < 0 || (rc = check_casts(&c, err)) < 0)
        return rc;
    if ((rc = resolve_dims(&c, err)) < 0 ||
        (rc = prepare_outputs(&c, err)) < 0 ||
        (!c.empty && (rc = prepare_inputs(&c, err)) < 0) ||
        (!c.empty && (rc = execute(&c, err)) < 0) ||
        (!c.empty && (rc = copy_back(&c, err)) < 0)) {
        release_all(&c, true);
        return rc;
    }
    for (int o = 0; o < c.nout; o++)
        if (c.user[c.nin + o] == NULL)
            outputs[o] = c.op[c.nin + o];
    release_all(&c, false);
    return 0;
}
