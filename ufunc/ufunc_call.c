/* The ufunc call path, NumPy's ufunc __call__ with Numba's dispatch:
 * check the operands, choose the loop, broadcast, check casts, allocate
 * the missing outputs, then run the loop over the iterator's strips.
 *
 * Checks come in NumPy's order (read-only outputs, the where mask's type,
 * loop resolution, casting, shapes) so the same bad call fails with the
 * same message. When no operand needs converting and there is no mask,
 * the loop runs straight on the strips: one call per strip, nothing per
 * element. Anything else goes through ufunc_buffer.c.
 *
 * On a target with threads (`parallel`) the strips (and, when there are
 * few, parts of them) are shared out between threads by its `run`; each
 * thread has its own loop context, error and cast buffers, and small calls
 * stay on the caller's thread. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/stream_pick.h"
#include "ndarray/array_internal.h"
#include "ndarray/iter.h"
#include "ufunc/call_check.h"
#include "ufunc/ufunc_exec.h"

#define SHAPE_STR_SIZE (UF_MAXDIMS * 22 + 4)
/* Loop operands plus the where mask. */
#define MAXOPS (UF__LOOP_MAXARGS + 1)

/* uf_dtype_itemsize for the dtypes of arrays and loops (valid by
 * construction), without a call: the small-call path asks it per operand. */
static const unsigned char item_size[UF_NTYPES] = {
#define UF__DT_SIZE(e, name, kind, size, ctype) [UF_##e] = size,
    UF_DTYPE_MAP(UF__DT_SIZE)
#undef UF__DT_SIZE
};

static inline size_t itemsize(uf_dtype d)
{
    return item_size[d];
}

typedef struct call {
    uf__ufunc *u;
    const char *name;
    int nin, nout;
    const uf__ufunc_loop *loop;
    /* Inputs then outputs; an input or the mask overlapping an output is
     * replaced by a copy (owned[i]); a NULL output is allocated (owned). */
    uf_array *op[UF__LOOP_MAXARGS];
    bool owned[UF__LOOP_MAXARGS];
    uf_array *where;
    bool where_owned;
    int nd;
    int64_t shape[UF_MAXDIMS];
    /* the casting rule, the target (targets/target.h) and its threads
     * (0: its default) */
    uf__call_setup set;
} call;

/* The options every call reads (call_check.h), then where=: fields are
 * read only as far as the caller's `size` says they exist. `target` is the
 * kernel's declared target, used when opts names none. */
static int read_options(call *c, const uf_call_options *opts,
                        const char *target, uf_error *err)
{
    int rc = uf__call_read_options(opts, target,
                                   UF__TCAP_HOST_MEMORY | UF__TCAP_VECTORIZE,
                                   &c->set, err);
    if (rc < 0)
        return rc;
    c->where = opts != NULL ? opts->where : NULL;
    return 0;
}

static int check_operands(call *c, uf_array *const *inputs, int n_in,
                          uf_array **outputs, int n_out, uf_error *err)
{
    if (uf__call_check_operands("ufunc", c->name, c->set.target, c->nin,
                                c->nout, inputs, n_in, outputs, n_out, c->op,
                                err) < 0)
        return err->code;
    if (c->where != NULL) {
        if (uf__call_check_memory("ufunc", c->name, c->set.target, c->where,
                                  "the where mask", -1, err) < 0)
            return err->code;
        if (c->where->dtype != UF_BOOL)
            return uf__error_set(err, UF_ERR_CAST,
                                 "Cannot cast array data from dtype('%s') "
                                 "to dtype('bool') according to the rule "
                                 "'safe'", uf_dtype_name(c->where->dtype));
    }
    return 0;
}

/* NumPy's cast checks (call_check.h). */
static int check_casts(const call *c, uf_error *err)
{
    return uf__call_check_casts(c->name, c->set.casting, c->nin, c->nout,
                                c->op, c->loop->types, err);
}

/* The operands that have memory, in NumPy's iterator order: inputs, given
 * outputs, the mask. Returns their count. */
static int present_operands(const call *c, const uf_array **list)
{
    int n = 0;

    for (int i = 0; i < c->nin + c->nout; i++)
        if (c->op[i] != NULL)
            list[n++] = c->op[i];
    if (c->where != NULL)
        list[n++] = c->where;
    return n;
}

static int broadcast_error(const call *c, uf_error *err)
{
    const uf_array *list[MAXOPS];
    int n = present_operands(c, list);
    char msg[sizeof err->message], s[SHAPE_STR_SIZE];
    size_t len = 0;

    msg[0] = '\0';
    for (int i = 0; i < n && len < sizeof msg; i++)
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s",
                                i ? " " : "",
                                uf__compact_shape(list[i]->ndim, list[i]->shape,
                                              s, sizeof s));
    return uf__error_set(err, UF_ERR_SHAPE,
                         "operands could not be broadcast together with "
                         "shapes %s", msg);
}

/* (A loop, not memcmp: shapes are short and this is on every call.) */
static bool same_dims(int nd, const int64_t *a, const int64_t *b)
{
    for (int k = 0; k < nd; k++)
        if (a[k] != b[k])
            return false;
    return true;
}

/* NumPy's rule: the iteration shape is the broadcast of every operand,
 * given outputs included, but an output is never broadcast itself. */
static int broadcast(call *c, uf_error *err)
{
    const uf_array *list[MAXOPS];
    const int64_t *shapes[MAXOPS];
    int ndims[MAXOPS], n = present_operands(c, list);
    char s1[SHAPE_STR_SIZE], s2[SHAPE_STR_SIZE];

    bool same = true;

    for (int i = 0; i < n; i++) {
        ndims[i] = list[i]->ndim;
        shapes[i] = list[i]->shape;
        same = same && ndims[i] == ndims[0] &&
               same_dims(ndims[0], shapes[i], shapes[0]);
    }
    if (same && n > 0) {
        /* nothing to broadcast (the common case): the shape as it is */
        c->nd = ndims[0];
        for (int k = 0; k < c->nd; k++)
            c->shape[k] = shapes[0][k];
    } else if (uf_broadcast_shapes(n, ndims, shapes, &c->nd, c->shape,
                                   NULL) < 0) {
        return broadcast_error(c, err);
    }
    for (int o = 0; o < c->nout; o++) {
        const uf_array *a = c->op[c->nin + o];

        if (a == NULL)
            continue;
        if (a->ndim == c->nd && same_dims(c->nd, a->shape, c->shape))
            continue;
        return uf__error_set(err, UF_ERR_SHAPE,
                             "non-broadcastable output operand with shape "
                             "%s doesn't match the broadcast shape %s",
                             uf__compact_shape(a->ndim, a->shape, s1, sizeof s1),
                             uf__compact_shape(c->nd, c->shape, s2, sizeof s2));
    }
    return 0;
}

/* Element i of one is element i of the other: reading it before writing
 * it (what every loop does) is then safe in place. */
static bool same_view(const uf_array *a, const uf_array *b)
{
    return a->data == b->data && a->ndim == b->ndim &&
           uf_dtype_itemsize(a->dtype) == uf_dtype_itemsize(b->dtype) &&
           memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof(int64_t)) == 0 &&
           memcmp(a->strides, b->strides,
                  (size_t)a->ndim * sizeof(int64_t)) == 0;
}

/* The bytes [lo, hi) an array can touch; false for an empty one (as
 * uf__arrays_overlap, but each operand's is worked out once per call). */
typedef struct span {
    uintptr_t lo, hi;
    bool some;
} span;

static span extent_of(const uf_array *a)
{
    intptr_t low = 0, high = (intptr_t)uf_dtype_itemsize(a->dtype);
    span sp = {0, 0, false};

    for (int k = 0; k < a->ndim; k++) {
        intptr_t reach;

        if (a->shape[k] == 0)
            return sp;
        reach = (intptr_t)(a->shape[k] - 1) * (intptr_t)a->strides[k];
        if (reach < 0)
            low += reach;
        else
            high += reach;
    }
    sp.lo = (uintptr_t)a->data + (uintptr_t)low;
    sp.hi = (uintptr_t)a->data + (uintptr_t)high;
    sp.some = true;
    return sp;
}

static bool overlaps_an_output(const call *c, const uf_array *a,
                               const span *outs)
{
    span sa = extent_of(a);

    if (!sa.some)
        return false;
    for (int o = 0; o < c->nout; o++) {
        const span *so = &outs[o];

        if (so->some && sa.lo < so->hi && so->lo < sa.hi &&
            !same_view(a, c->op[c->nin + o]))
            return true;
    }
    return false;
}

/* An input sharing memory with an output in any other way than as the
 * same view is copied first, so the result is as if every input were
 * read before any output was written (NumPy's overlap rule). */
static int copy_overlapping(call *c, uf_error *err)
{
    span outs[UF__LOOP_MAXARGS];
    bool any = false;

    for (int o = 0; o < c->nout; o++) {
        const uf_array *a = c->op[c->nin + o];

        outs[o] = a != NULL ? extent_of(a) : (span){0, 0, false};
        any = any || outs[o].some;
    }
    if (!any)
        return 0;
    for (int i = 0; i < c->nin; i++) {
        uf_array *copy;

        if (!overlaps_an_output(c, c->op[i], outs))
            continue;
        copy = uf_array_copy(c->op[i], UF_ORDER_K, err);
        if (copy == NULL)
            return err->code;
        c->op[i] = copy;
        c->owned[i] = true;
    }
    if (c->where != NULL && overlaps_an_output(c, c->where, outs)) {
        uf_array *copy = uf_array_copy(c->where, UF_ORDER_K, err);

        if (copy == NULL)
            return err->code;
        c->where = copy;
        c->where_owned = true;
    }
    return 0;
}

/* Stride of operand `a` along iteration axis `ax`; 0 where it is
 * broadcast or has length 1. */
static int64_t axis_stride(const call *c, const uf_array *a, int ax)
{
    int k = ax - (c->nd - a->ndim);

    return k < 0 || a->shape[k] == 1 ? 0 : a->strides[k];
}

typedef struct stride_ctx {
    const call *c;
    const uf_array *const *list;
} stride_ctx;

static int64_t list_stride(const void *ctx, int op, int axis)
{
    const stride_ctx *x = ctx;
    return axis_stride(x->c, x->list[op], axis);
}

/* Strides for an allocated output in NumPy's K order: the axes sorted by
 * the strides of the operands that have memory, so F-ordered inputs give
 * an F-ordered output, and C order stays wherever the operands conflict. */
static void alloc_strides(const call *c, size_t itemsize, int64_t *strides)
{
    const uf_array *list[MAXOPS];
    int n = present_operands(c, list), order[UF_MAXDIMS];
    int64_t step = (int64_t)itemsize;
    stride_ctx x = {c, list};

    for (int k = 0; k < c->nd; k++)
        order[k] = c->nd - 1 - k; /* innermost first */
    uf__iter_sort_axes(c->nd, n, list_stride, &x, order);
    for (int k = 0; k < c->nd; k++) {
        strides[order[k]] = step;
        step *= c->shape[order[k]];
    }
}

static int allocate_outputs(call *c, bool empty, uf_error *err)
{
    for (int o = c->nin; o < c->nin + c->nout; o++) {
        uf_dtype dt = c->loop->types[o];
        uf_array *a;

        if (c->op[o] != NULL)
            continue;
        a = uf_empty(dt, c->nd, c->shape, UF_ORDER_C, err);
        if (a == NULL)
            return err->code;
        /* Same buffer size as C order: only the strides are permuted. */
        if (!empty && c->nd > 1) {
            alloc_strides(c, uf_dtype_itemsize(dt), a->strides);
            uf__array_update_flags(a);
        }
        c->op[o] = a;
        c->owned[o] = true;
    }
    return 0;
}

/* ---- running the loop ------------------------------------------------- */

/* The fast path: the loop on each strip (or part of one) as it is. */
static int run_direct(const uf__ufunc_exec *x, uf__loop_ctx *lctx,
                      const uf__ufunc_split *sp, int64_t begin, int64_t end)
{
    char *ptrs[UF__LOOP_MAXARGS];
    const int64_t *st = uf__iter_strip_strides(sp->it);
    int nop = x->nin + x->nout;
    uf__strided_loop fn = x->loop->fn;
    void *aux = x->loop->aux;
    int64_t first, len;
    uf__ufunc_walk w;

    uf__ufunc_walk_start(&w, sp, begin, end);
    while (uf__ufunc_walk_next(&w, ptrs, &first, &len)) {
        int rc;

        if (first != 0)
            for (int i = 0; i < nop; i++)
                ptrs[i] += first * st[i];
        rc = fn(lctx, ptrs, &len, st, aux);
        if (rc != 0)
            return rc;
    }
    return 0;
}

static int loop_error(const call *c, int status, const uf_error *loop_err,
                      uf_error *err)
{
    if (loop_err->code != UF_ERR_OK)
        return uf__error_set(err, loop_err->code, "ufunc '%s': %s", c->name,
                             loop_err->message);
    if (c->loop->status_error != NULL) {
        uf_error why;
        int code = c->loop->status_error(status, &why);
        return uf__error_set(err, code, "ufunc '%s': %s", c->name,
                             why.message);
    }
    return uf__error_set(err, UF_ERR_VALUE,
                         "ufunc '%s': the inner loop failed (status %d)",
                         c->name, status);
}

typedef struct run_ctx {
    const call *c;
    const uf__ufunc_exec *x;
    uf__ufunc_split sp;
    bool buffered;
} run_ctx;

/* uf__target_body over units [begin, end): a loop failure becomes the
 * complete error (with the ufunc's name) in this chunk's err. */
static int run_units(void *vctx, int64_t begin, int64_t end, uf_error *err)
{
    const run_ctx *r = vctx;
    uf_error loop_err;
    /* no streaming into the casting buffers: they are read back at once */
    uf__loop_ctx lctx = {.err = &loop_err,
                         .stream = r->x->stream && !r->buffered};
    int status = 0;

    loop_err.code = UF_ERR_OK;
    if (r->buffered) {
        if (uf__ufunc_run_buffered(r->x, &lctx, &r->sp, begin, end, &status,
                                   err) < 0)
            return err->code;
    } else {
        status = run_direct(r->x, &lctx, &r->sp, begin, end);
    }
    if (status == 0)
        return 0;
    return loop_error(r->c, status, &loop_err, err);
}

/* Elements a thread's chunk has at least: below this, starting and joining
 * threads (about 1-2 us) costs more than the work it shares out. */
#define PAR_MIN_CHUNK 32768
/* Units to aim for per thread when strips must be cut up. */
#define PAR_PARTS_PER_THREAD 4

/* An output written through more than one element position (stride 0
 * along a real axis), or outputs sharing memory other than as the same
 * view, would be written by several threads: such calls stay serial. */
static bool outputs_disjoint(const call *c)
{
    for (int o = c->nin; o < c->nin + c->nout; o++) {
        const uf_array *a = c->op[o];

        for (int k = 0; k < a->ndim; k++)
            if (a->shape[k] > 1 && a->strides[k] == 0)
                return false;
        for (int p = o + 1; p < c->nin + c->nout; p++)
            if (!same_view(a, c->op[p]) && uf__arrays_overlap(a, c->op[p]))
                return false;
    }
    return true;
}

/* Runs the loop over every unit: on the caller's thread for `cpu`, shared
 * out between threads on a target with threads. Returns 0 or a negative
 * code. */
static int run_all(const call *c, const uf__ufunc_exec *x, const uf__iter *it,
                   bool buffered, uf_error *err)
{
    int64_t nstrips = uf__iter_nstrips(it), len = uf__iter_strip_len(it);
    int64_t pieces = 1, grain, units;
    int nthreads = c->set.nthreads;
    run_ctx r = {c, x, {0}, buffered};

    if (!(c->set.target->caps & UF__TCAP_THREADS)) {
        uf__ufunc_split_init(&r.sp, it, 1);
        return run_units(&r, 0, nstrips, err);
    }
    nthreads = c->set.target->threads(nthreads);
    /* nstrips * len is the iteration's size: it fits. */
    if (nthreads <= 1 || nstrips * len < 2 * PAR_MIN_CHUNK ||
        !outputs_disjoint(c)) {
        uf__ufunc_split_init(&r.sp, it, 1);
        /* Still through the runtime: a bad UFJIT_THREADING_LAYER is
         * reported however small the call. */
        return c->set.target->run(nstrips, nstrips, nthreads, run_units, &r,
                              err) != 0 ? err->code : 0;
    }
    if (nstrips < (int64_t)nthreads * PAR_PARTS_PER_THREAD)
        pieces = ((int64_t)nthreads * PAR_PARTS_PER_THREAD + nstrips - 1) /
                 nstrips;
    uf__ufunc_split_init(&r.sp, it, pieces);
    units = uf__ufunc_split_units(&r.sp);
    /* Each unit has about len / pieces elements. */
    grain = PAR_MIN_CHUNK / (len / r.sp.pieces) + 1;
    return c->set.target->run(units, grain, nthreads, run_units, &r, err) != 0
               ? err->code : 0;
}

/* Every operand C-contiguous with the iteration's shape: the whole call
 * is one strip of size elements in memory order, which is also the strip
 * the iterator would make, so this shortcut changes nothing but time. */
static bool all_flat(const call *c)
{
    for (int i = 0; i < c->nin + c->nout; i++) {
        const uf_array *a = c->op[i];

        if (!(a->flags & UF_ARRAY_C_CONTIGUOUS) || a->ndim != c->nd)
            return false;
        for (int k = 0; k < c->nd; k++)
            if (a->shape[k] != c->shape[k])
                return false;
    }
    return true;
}

typedef struct flat_ctx {
    const call *c;
    int64_t size;
    bool independent; /* uf__loop_ctx.independent */
} flat_ctx;

/* uf__target_body running the one strip of a flat call. */
static int run_flat(void *vctx, int64_t begin, int64_t end, uf_error *err)
{
    const flat_ctx *f = vctx;
    const call *c = f->c;
    char *ptrs[UF__LOOP_MAXARGS];
    int64_t strides[UF__LOOP_MAXARGS];
    uf_error loop_err;
    uf__loop_ctx lctx = {.err = &loop_err, .independent = f->independent};
    int64_t n = f->size;
    int status;

    (void)begin, (void)end;
    for (int i = 0; i < c->nin + c->nout; i++) {
        ptrs[i] = c->op[i]->data;
        strides[i] = (int64_t)itemsize(c->loop->types[i]);
    }
    loop_err.code = UF_ERR_OK;
    status = c->loop->fn(&lctx, ptrs, &n, strides, c->loop->aux);
    return status == 0 ? 0 : loop_error(c, status, &loop_err, err);
}

/* CPU time, not wall time: another process taking the CPU meanwhile
 * must not decide a stream pick. The calling thread's when the call runs
 * on it alone, else the process's (its pool threads included). */
static int64_t cpu_ns(bool threaded)
{
    struct timespec ts;
    if (clock_gettime(threaded ? CLOCK_PROCESS_CPUTIME_ID
                               : CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int execute(call *c, uf_error *err)
{
    uf__iter_operand ops[MAXOPS];
    int nop = c->nin + c->nout, rc;
    bool buffered = false;
    int64_t size = 1;
    uf__ufunc_exec x;
    uf__iter *it;

    x.loop = c->loop;
    x.nin = c->nin;
    x.nout = c->nout;
    x.masked = c->where != NULL;
    for (int i = 0; i < nop; i++) {
        const uf_array *a = c->op[i];

        x.dtypes[i] = a->dtype;
        x.buffered[i] = a->dtype != c->loop->types[i] ||
                        !(a->flags & UF_ARRAY_ALIGNED);
        buffered = buffered || x.buffered[i];
        ops[i] = (uf__iter_operand){a->data, a->ndim, a->shape, a->strides};
    }
    for (int k = 0; k < c->nd; k++)
        size *= c->shape[k]; /* fits: the outputs exist */
    x.stream = false;
    for (int o = c->nin; o < nop; o++)
        x.stream = x.stream ||
                   size >= UF__STREAM_BYTES /
                               (int64_t)uf_dtype_itemsize(c->loop->types[o]);
    /* timed apart on one thread and on several: the two compare
     * differently, and one loop serves both targets */
    uf__stream_pick *pick = NULL;
    int trial = -1;
    bool threaded = x.stream && (c->set.target->caps & UF__TCAP_THREADS) &&
                    c->set.target->threads(c->set.nthreads) > 1;
    if (x.stream && c->loop->pick != NULL)
        pick = c->loop->pick + threaded;
    if (x.stream)
        x.stream = uf__stream_pick_begin(pick, &trial);
    if (!buffered && !x.masked && size < 2 * PAR_MIN_CHUNK && all_flat(c)) {
        flat_ctx f = {c, size, false};

        if (!(c->set.target->caps & UF__TCAP_THREADS))
            return run_flat(&f, 0, 1, err);
        return c->set.target->run(1, 1, c->set.nthreads, run_flat, &f,
                                  err) != 0 ? err->code : 0;
    }
    if (x.masked)
        ops[nop] = (uf__iter_operand){c->where->data, c->where->ndim,
                                      c->where->shape, c->where->strides};
    it = uf__iter_new(nop + x.masked, ops, c->nd, c->shape, 0, err);
    if (it == NULL)
        return err->code;
    int64_t t0 = trial >= 0 ? cpu_ns(threaded) : 0;
    rc = run_all(c, &x, it, buffered || x.masked, err);
    uf__iter_free(it);
    if (rc == 0 && trial >= 0)
        uf__stream_pick_done(pick, trial, cpu_ns(threaded) - t0, size);
    return rc;
}

/* The common small call, decided right after the loop is resolved: every
 * input already of the loop's type, C-contiguous, aligned, in host memory
 * and of one shape; each given output too (of its loop type, so no cast),
 * sharing no memory with an input except as the same view; no mask; not
 * empty, and small enough for execute()'s flat path. Then the casting
 * check, broadcasting and overlap copies cannot change anything and
 * execute() would take its flat path: the call goes straight there (the
 * same loop, the same single strip, the same errors). */
static bool simple_call(const call *c)
{
    const uf_array *first = c->op[0];
    int64_t size = 1;

    if (c->where != NULL || c->nin < 1)
        return false;
    for (int i = 0; i < c->nin + c->nout; i++) {
        const uf_array *a = c->op[i];

        if (a == NULL)
            continue; /* an output to allocate */
        if (a->dtype != c->loop->types[i] ||
            (a->flags & (UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_ALIGNED)) !=
                (UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_ALIGNED) ||
            a->ndim != first->ndim ||
            !same_dims(first->ndim, a->shape, first->shape))
            return false;
    }
    for (int k = 0; k < first->ndim; k++)
        size *= first->shape[k];
    /* (execute()'s own bound for its flat path, on both targets) */
    if (size == 0 || size >= 2 * PAR_MIN_CHUNK)
        return false;
    for (int o = c->nin; o < c->nin + c->nout; o++) {
        const uf_array *a = c->op[o];
        uintptr_t lo, hi;

        if (a == NULL)
            continue;
        lo = (uintptr_t)a->data;
        hi = lo + (uintptr_t)size * itemsize(a->dtype);
        for (int i = 0; i < c->nin; i++) {
            const uf_array *b = c->op[i];
            uintptr_t blo = (uintptr_t)b->data;
            uintptr_t bhi = blo + (uintptr_t)size * itemsize(b->dtype);

            if (blo < hi && lo < bhi && !same_view(a, b))
                return false;
        }
    }
    return true;
}

/* simple_call()'s run: the outputs allocated (C order: every operand is
 * C-contiguous), then the loop once over the whole call. */
static int run_simple(call *c, uf_error *err)
{
    /* simple_call() checked each output against the inputs (one output:
     * nothing else to overlap), so the loop need not */
    flat_ctx f = {c, 1, c->nout == 1};

    c->nd = c->op[0]->ndim;
    for (int k = 0; k < c->nd; k++) {
        c->shape[k] = c->op[0]->shape[k];
        f.size *= c->shape[k];
    }
    if (allocate_outputs(c, false, err) < 0)
        return err->code;
    /* (an allocated output is C-contiguous here; should it ever not be,
     * execute() takes the iterator; the given operands are checked) */
    for (int o = c->nin; o < c->nin + c->nout; o++)
        if (c->owned[o] && !(c->op[o]->flags & UF_ARRAY_C_CONTIGUOUS))
            return execute(c, err);
    if (!(c->set.target->caps & UF__TCAP_THREADS))
        return run_flat(&f, 0, 1, err);
    if (c->set.nthreads > c->set.target->max_threads)
        return c->set.target->run(1, 1, c->set.nthreads, run_flat, &f,
                                  err) != 0 ? err->code : 0; /* its error */
    /* What the target's run does with one unit, without its set-up: the
     * configuration error if any, else the body on this thread. */
    if (c->set.target->config_error(err) != 0)
        return err->code;
    uf_error_clear(err);
    return run_flat(&f, 0, 1, err);
}

static void release_all(call *c, bool failed)
{
    for (int i = 0; i < c->nin + c->nout; i++) {
        /* Allocated outputs go to the caller unless the call failed. */
        if (c->owned[i] && (i < c->nin || failed))
            uf_array_release(c->op[i]);
    }
    if (c->where_owned)
        uf_array_release(c->where);
}

int uf__ufunc_call(uf__ufunc *u, uf_array *const *inputs, int n_in,
                   uf_array **outputs, int n_out,
                   const uf_call_options *opts, uf_error *err)
{
    return uf__ufunc_call_target(u, NULL, inputs, n_in, outputs, n_out, opts,
                                 err);
}

int uf__ufunc_call_target(uf__ufunc *u, const char *target,
                          uf_array *const *inputs, int n_in,
                          uf_array **outputs, int n_out,
                          const uf_call_options *opts, uf_error *err)
{
    uf_dtype in_types[UF__LOOP_MAXARGS];
    uf_error local;
    bool empty = false;
    call c;
    int rc;

    if (err == NULL)
        err = &local;
    if (u == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__ufunc_call: NULL ufunc");
    /* Only what every path reads: the operand arrays are large. */
    c.u = u;
    c.name = uf__ufunc_name(u);
    c.nin = uf__ufunc_nin(u);
    c.nout = uf__ufunc_nout(u);
    c.where_owned = false;
    for (int i = 0; i < c.nin + c.nout; i++)
        c.owned[i] = false;
    if ((rc = read_options(&c, opts, target, err)) < 0 ||
        (rc = check_operands(&c, inputs, n_in, outputs, n_out, err)) < 0)
        return rc;
    for (int i = 0; i < c.nin; i++)
        in_types[i] = c.op[i]->dtype;
    if ((rc = uf__ufunc_resolve(u, in_types, &c.loop, err)) < 0)
        return rc;
    if (simple_call(&c)) {
        if ((rc = run_simple(&c, err)) < 0) {
            release_all(&c, true);
            return rc;
        }
        for (int o = 0; o < c.nout; o++)
            outputs[o] = c.op[c.nin + o];
        return 0; /* nothing else owned */
    }
    if ((rc = check_casts(&c, err)) < 0 || (rc = broadcast(&c, err)) < 0)
        return rc;

    for (int d = 0; d < c.nd; d++)
        empty = empty || c.shape[d] == 0;
    if ((!empty && (rc = copy_overlapping(&c, err)) < 0) ||
        (rc = allocate_outputs(&c, empty, err)) < 0 ||
        (!empty && (rc = execute(&c, err)) < 0)) {
        release_all(&c, true);
        return rc;
    }
    for (int o = 0; o < c.nout; o++)
        outputs[o] = c.op[c.nin + o];
    release_all(&c, false);
    return 0;
}
