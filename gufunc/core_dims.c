/* Resolving a gufunc call: core dimensions bound from the operands, loop
 * dimensions broadcast, output shapes, and axes=/axis=/keepdims turned into
 * per-operand axis permutations. The steps and their order (hence which
 * error wins) follow NumPy's PyUFunc_GeneralizedFunctionInternal; messages
 * start as NumPy's do, some with more detail after them. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/front/layout.h"
#include "ndarray/array_internal.h"

#define SHAPE_STR_SIZE (UF_MAXDIMS * 22 + 4)

typedef struct call {
    const uf__gufunc_layout *L;
    const char *name;
    const uf__gufunc_shape *shapes;
    uf__gufunc_resolution *res;
    int keepdims;
} call;

static bool given(const call *c, int op)
{
    return c->shapes[op].ndim >= 0;
}

static const char *op_kind(const call *c, int op)
{
    return op < c->L->nin ? "Input" : "Output";
}

static int op_index(const call *c, int op)
{
    return op < c->L->nin ? op : op - c->L->nin;
}

static int check_arguments(const call *c, const uf__gufunc_axes *ax,
                           uf_error *err)
{
    const uf__gufunc_layout *L = c->L;

    for (int i = 0; i < L->nargs; i++) {
        const uf__gufunc_shape *s = &c->shapes[i];
        if (s->ndim < (i < L->nin ? 0 : -1) || s->ndim > UF_MAXDIMS ||
            (s->ndim > 0 && s->shape == NULL))
            return uf__error_set(err, UF_ERR_INVALID,
                                 "%s: invalid shape for operand %d", c->name,
                                 i);
        for (int k = 0; k < s->ndim; k++)
            if (s->shape[k] < 0)
                return uf__error_set(err, UF_ERR_VALUE,
                                     "%s: negative dimensions are not "
                                     "allowed (operand %d)", c->name, i);
    }
    if (ax == NULL)
        return 0;
    if (ax->keepdims < -1 || ax->keepdims > 1 || ax->naxes_ops < 0 ||
        (ax->naxes_ops > 0 && (ax->naxes == NULL || ax->axes == NULL)))
        return uf__error_set(err, UF_ERR_INVALID,
                             "%s: invalid axes arguments", c->name);
    if (ax->has_axis && ax->naxes_ops > 0)
        return uf__error_set(err, UF_ERR_INVALID,
                             "cannot specify both 'axis' and 'axes'");
    return 0;
}

/* keepdims needs inputs sharing one core dimension count and outputs
 * without core dimensions: (i),(i)->() or (m,m)->(). */
static int check_keepdims_support(const call *c, uf_error *err)
{
    const uf__gufunc_layout *L = c->L;

    /* from operand 0: with no inputs it is an output (found by fuzzing:
     * "->(n)" with keepdims went on to index past the operand's axes) */
    for (int i = 0; i < L->nargs; i++) {
        int want = i < L->nin ? L->core_ndim[0] : 0;
        if (L->core_ndim[i] != want)
            return uf__error_set(
                err, UF_ERR_INVALID,
                "%s does not support keepdims: its signature %s requires "
                "%s %d to have %d core dimensions, but keepdims can only be "
                "used when all inputs have the same number of core "
                "dimensions and all outputs have no core dimensions.",
                c->name, L->text, i < L->nin ? "input" : "output",
                op_index(c, i), L->core_ndim[i]);
    }
    return 0;
}

/* Operands with fewer dimensions than their core dimensions: flexible
 * dimensions they use are removed from every operand until they fit. */
static int validate_num_dims(const call *c, uf_error *err)
{
    const uf__gufunc_layout *L = c->L;
    uf__gufunc_resolution *res = c->res;

    for (int i = 0; i < L->nargs; i++) {
        int ndim = c->shapes[i].ndim;

        if (!given(c, i) || ndim >= res->ops[i].core_ndim)
            continue;
        for (int j = 0; j < L->core_ndim[i]; j++) {
            int ix = L->dim_ix[L->core_offset[i] + j];
            if (!L->dims[ix].flexible || res->dim_missing[ix])
                continue;
            res->dim_missing[ix] = true;
            for (int i1 = 0; i1 < L->nargs; i1++)
                for (int j1 = 0; j1 < L->core_ndim[i1]; j1++)
                    if (L->dim_ix[L->core_offset[i1] + j1] == ix)
                        res->ops[i1].core_ndim--;
            if (ndim == res->ops[i].core_ndim)
                break;
        }
        if (ndim < res->ops[i].core_ndim)
            return uf__error_set(err, UF_ERR_SHAPE,
                                 "%s: %s operand %d does not have enough "
                                 "dimensions (has %d, gufunc core with "
                                 "signature %s requires %d)",
                                 c->name, op_kind(c, i), op_index(c, i),
                                 ndim, L->text, res->ops[i].core_ndim);
    }
    return 0;
}

static int adjust_axis(int *axis, int ndim, uf_error *err)
{
    if (*axis < -ndim || *axis >= ndim)
        return uf__error_set(err, UF_ERR_INDEX,
                             "axis %d is out of bounds for array of "
                             "dimension %d", *axis, ndim);
    if (*axis < 0)
        *axis += ndim;
    return 0;
}

/* axis=: the single core dimension of each operand that has one moves from
 * `axis` to the end. */
static int remap_axis(const call *c, int axis_in, uf_error *err)
{
    uf__gufunc_resolution *res = c->res;

    for (int i = 0; i < c->L->nargs; i++) {
        uf__gufunc_operand *op = &res->ops[i];
        int nd = op->ndim, axis = axis_in;

        if (op->core_ndim == 0)
            continue;
        int rc = adjust_axis(&axis, nd, err);

        if (rc < 0)
            return rc;
        for (int k = 0; k < axis; k++)
            op->perm[k] = k;
        for (int k = axis; k < nd - 1; k++)
            op->perm[k] = k + 1;
        op->perm[nd - 1] = axis;
    }
    return 0;
}

/* axes=: entry i names operand i's core axes in order; its other axes keep
 * their order in front of them. */
static int remap_axes(const call *c, const uf__gufunc_axes *ax, uf_error *err)
{
    const uf__gufunc_layout *L = c->L;
    uf__gufunc_resolution *res = c->res;

    if (ax->naxes_ops != L->nargs) {
        bool out_core = false;
        for (int i = L->nin; i < L->nargs; i++)
            out_core |= L->core_ndim[i] > 0;
        if (ax->naxes_ops != L->nin || out_core)
            return uf__error_set(err, UF_ERR_VALUE,
                                 "axes should be a list with an entry for "
                                 "all %d inputs and outputs; entries for "
                                 "outputs can only be omitted if none of "
                                 "them has core axes.", L->nargs);
    }
    for (int i = 0; i < ax->naxes_ops; i++) {
        uf__gufunc_operand *op = &res->ops[i];
        bool seen[UF_MAXDIMS] = {false};
        int nd = op->ndim, ncore = op->core_ndim, nbcast = nd - ncore;
        int k, a;

        if (ax->naxes[i] != ncore)
            return uf__error_set(err, UF_ERR_INDEX,
                                 "%s: operand %d has %d core dimensions, "
                                 "but %d dimensions are specified by axes "
                                 "tuple.", c->name, i, ncore, ax->naxes[i]);
        for (k = nbcast; k < nd; k++) {
            a = ax->axes[i][k - nbcast];
            int rc = adjust_axis(&a, nd, err);

            if (rc < 0)
                return rc;
            if (seen[a])
                return uf__error_set(err, UF_ERR_VALUE,
                                     "axes item %d has value %d repeated",
                                     i, a);
            seen[a] = true;
            op->perm[k] = a;
        }
        for (k = 0, a = 0; k < nbcast; k++) {
            while (seen[a])
                a++;
            op->perm[k] = a++;
        }
    }
    return 0;
}

/* Binds every core dimension from the given operands, in operand order,
 * and checks the later uses (and fixed sizes) against the first. */
static int bind_core_dims(const call *c, uf_error *err)
{
    const uf__gufunc_layout *L = c->L;
    uf__gufunc_resolution *res = c->res;
    char nbuf[64], by[96];

    for (int i = 0; i < L->nargs; i++) {
        const uf__gufunc_operand *op = &res->ops[i];
        int start = op->ndim - op->core_ndim, delta = 0;

        if (!given(c, i))
            continue;
        for (int j = 0; j < L->core_ndim[i]; j++) {
            int ix = L->dim_ix[L->core_offset[i] + j];
            int64_t have;

            if (res->dim_missing[ix]) {
                delta++;
                continue;
            }
            have = c->shapes[i].shape[op->perm[start + j - delta]];
            if (res->dim_size[ix] < 0) {
                res->dim_size[ix] = have;
                res->dim_bound_by[ix] = i;
                continue;
            }
            if (have == res->dim_size[ix])
                continue;
            uf__gufunc_dim_name(L, ix, nbuf, sizeof nbuf);
            if (res->dim_bound_by[ix] < 0)
                snprintf(by, sizeof by, "is fixed by the signature");
            else
                snprintf(by, sizeof by, "was bound by %s operand %d",
                         op_kind(c, res->dim_bound_by[ix]),
                         op_index(c, res->dim_bound_by[ix]));
            return uf__error_set(err, UF_ERR_SHAPE,
                                 "%s: %s operand %d has a mismatch in its "
                                 "core dimension %d, with gufunc signature "
                                 "%s (size %" PRId64 " is different from %"
                                 PRId64 "); dimension '%s' %s",
                                 c->name, op_kind(c, i), op_index(c, i),
                                 j - delta, L->text, have, res->dim_size[ix],
                                 nbuf, by);
        }
    }
    for (int ix = 0; ix < L->ndims; ix++)
        if (res->dim_missing[ix])
            res->dim_size[ix] = 1;
    for (int i = L->nin; i < L->nargs; i++)
        for (int j = 0; j < L->core_ndim[i]; j++) {
            int ix = L->dim_ix[L->core_offset[i] + j];
            if (res->dim_size[ix] >= 0)
                continue;
            uf__gufunc_dim_name(L, ix, nbuf, sizeof nbuf);
            return uf__error_set(err, UF_ERR_VALUE,
                                 "%s: Output operand %d has core dimension "
                                 "%d unspecified, with gufunc signature %s; "
                                 "no input defines '%s', so the output must "
                                 "be given", c->name, i - L->nin, j, L->text,
                                 nbuf);
        }
    return 0;
}

/* The operand's loop dimensions as the permutation orders them. */
static void loop_shape_of(const call *c, int i, int64_t *out)
{
    const uf__gufunc_operand *op = &c->res->ops[i];

    for (int k = 0; k < op->ndim - op->core_ndim; k++)
        out[k] = c->shapes[i].shape[op->perm[k]];
}

/* Loop shape = broadcast of the inputs' loop dimensions, then of the given
 * outputs' too (outputs may broadcast inputs, as in NumPy); a given output
 * must cover that loop shape without being stretched and, under keepdims,
 * have length 1 at its kept axes. */
static int broadcast_loops(const call *c, uf_error *err)
{
    const uf__gufunc_layout *L = c->L;
    uf__gufunc_resolution *res = c->res;
    /* on the stack for the usual few operands */
    int64_t local_loops[UF__GUFUNC_RES_INLINE + 1][UF_MAXDIMS];
    const int64_t *local_ptrs[UF__GUFUNC_RES_INLINE + 1];
    int local_nds[UF__GUFUNC_RES_INLINE + 1];
    bool small = L->nargs <= UF__GUFUNC_RES_INLINE;
    int64_t (*loops)[UF_MAXDIMS] = local_loops;
    const int64_t **ptrs = local_ptrs;
    int *nds = local_nds, n = 0, rc = 0;
    char s1[SHAPE_STR_SIZE], s2[SHAPE_STR_SIZE];
    uf_error sub;

    if (!small) {
        loops = uf__malloc((size_t)L->nargs + 1, sizeof *loops, err);
        ptrs = uf__malloc((size_t)L->nargs + 1, sizeof *ptrs, err);
        nds = uf__malloc((size_t)L->nargs + 1, sizeof *nds, err);
    }
    if (loops == NULL || ptrs == NULL || nds == NULL) {
        rc = uf__error_nomem(err);
        goto done;
    }
    for (int i = 0; i < L->nin; i++, n++) {
        loop_shape_of(c, i, loops[n]);
        nds[n] = res->ops[i].ndim - res->ops[i].core_ndim;
        ptrs[n] = loops[n];
    }
    if (uf_broadcast_shapes(n, nds, ptrs, &res->loop_ndim, res->loop_shape,
                            &sub) < 0) {
        rc = uf__error_set(err, sub.code,
                           "%s: operands could not be broadcast together "
                           "in their loop (non-core) dimensions: %s",
                           c->name, sub.message);
        goto done;
    }
    memcpy(loops[0], res->loop_shape, sizeof loops[0]);
    nds[0] = res->loop_ndim;
    ptrs[0] = loops[0];
    n = 1;
    for (int i = L->nin; i < L->nargs; i++) {
        if (!given(c, i))
            continue;
        loop_shape_of(c, i, loops[n]);
        nds[n] = res->ops[i].ndim - res->ops[i].core_ndim;
        ptrs[n] = loops[n];
        n++;
    }
    if (uf_broadcast_shapes(n, nds, ptrs, &res->loop_ndim, res->loop_shape,
                            &sub) < 0)
        res->loop_ndim = -1;
    for (int i = L->nin, m = 1; i < L->nargs; i++) {
        const uf__gufunc_operand *op = &res->ops[i];
        int nd = op->ndim - op->core_ndim;
        bool ok;

        if (!given(c, i))
            continue;
        /* the output is never stretched: its loop dims are the loop
         * shape's trailing ones, any it lacks are of length 1 */
        ok = nd <= res->loop_ndim &&
             memcmp(loops[m], res->loop_shape + res->loop_ndim - nd,
                    (size_t)nd * sizeof(int64_t)) == 0;
        for (int k = 0; ok && k < res->loop_ndim - nd; k++)
            ok = res->loop_shape[k] == 1;
        for (int k = nd; ok && k < op->ndim && op->kept_ndim > 0; k++)
            ok = c->shapes[i].shape[op->perm[k]] == 1;
        if (!ok) {
            uf__shape_str(c->shapes[i].ndim, c->shapes[i].shape, s1,
                          sizeof s1);
            uf__shape_str(nds[0], loops[0], s2, sizeof s2);
            rc = uf__error_set(err, UF_ERR_SHAPE,
                               "%s: non-broadcastable output operand %d "
                               "with shape %s doesn't match the broadcast "
                               "shape %s of the loop dimensions%s",
                               c->name, i - L->nin, s1, s2,
                               op->kept_ndim > 0
                                   ? " followed by length-1 kept axes"
                                   : "");
            goto done;
        }
        m++;
    }
done:
    if (!small) {
        uf__free(nds);
        uf__free(ptrs);
        uf__free(loops);
    }
    return rc;
}

/* Shapes of the outputs to allocate: loop shape + core sizes in the
 * permuted order, scattered back through the permutation. */
static void fill_shapes(const call *c)
{
    const uf__gufunc_layout *L = c->L;
    uf__gufunc_resolution *res = c->res;

    for (int i = 0; i < L->nargs; i++) {
        uf__gufunc_operand *op = &res->ops[i];
        int64_t logical[UF_MAXDIMS];
        int k = 0;

        for (int j = 0; j < op->ndim; j++)
            op->permuted |= op->perm[j] != j;
        if (given(c, i)) {
            memcpy(op->shape, c->shapes[i].shape,
                   (size_t)op->ndim * sizeof(int64_t));
            continue;
        }
        for (; k < res->loop_ndim; k++)
            logical[k] = res->loop_shape[k];
        if (op->kept_ndim > 0) {
            for (; k < op->ndim; k++)
                logical[k] = 1;
        } else {
            for (int j = 0; j < L->core_ndim[i]; j++) {
                int ix = L->dim_ix[L->core_offset[i] + j];
                if (!res->dim_missing[ix])
                    logical[k++] = res->dim_size[ix];
            }
        }
        for (k = 0; k < op->ndim; k++)
            op->shape[op->perm[k]] = logical[k];
    }
}

/* The resolution's arrays: in the struct when the layout is small (the
 * common call allocates nothing), else on the heap. Only the used operands
 * are zeroed: the struct is large. */
static int alloc_resolution(const uf__gufunc_layout *L,
                            uf__gufunc_resolution *res, uf_error *err)
{
    res->nargs = 0;
    res->loop_ndim = 0;
    if (L->nargs <= UF__GUFUNC_RES_INLINE &&
        L->ndims <= UF__GUFUNC_RES_INLINE) {
        res->ops = res->local.ops;
        res->dim_size = res->local.dim_size;
        res->dim_missing = res->local.dim_missing;
        res->dim_bound_by = res->local.dim_bound_by;
        memset(res->ops, 0, (size_t)L->nargs * sizeof *res->ops);
        memset(res->dim_missing, 0, sizeof res->local.dim_missing);
    } else {
        res->ops = uf__calloc((size_t)L->nargs, sizeof *res->ops, err);
        res->dim_size = uf__malloc((size_t)L->ndims, sizeof *res->dim_size,
                                   err);
        res->dim_missing = uf__calloc((size_t)L->ndims,
                                      sizeof *res->dim_missing, err);
        res->dim_bound_by = uf__malloc((size_t)L->ndims,
                                       sizeof *res->dim_bound_by, err);
        if (res->ops == NULL || res->dim_size == NULL ||
            res->dim_missing == NULL || res->dim_bound_by == NULL) {
            uf__gufunc_resolution_free(res);
            return uf__error_nomem(err);
        }
    }
    res->nargs = L->nargs;
    for (int ix = 0; ix < L->ndims; ix++) {
        res->dim_size[ix] = L->dims[ix].size;
        res->dim_bound_by[ix] = -1;
    }
    return 0;
}

int uf__gufunc_resolve(const uf__gufunc_layout *layout, const char *name,
                       const uf__gufunc_shape *shapes,
                       const uf__gufunc_axes *axes,
                       uf__gufunc_resolution *res, uf_error *err)
{
    call c = {.L = layout, .name = name ? name : "gufunc", .shapes = shapes,
              .res = res, .keepdims = axes ? axes->keepdims : -1};
    const uf__gufunc_layout *L = layout;
    int bcast_ndim = 0, rc;

    if (layout == NULL || shapes == NULL || res == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__gufunc_resolve: invalid arguments");
    rc = check_arguments(&c, axes, err);
    if (rc < 0)
        return rc;
    if (c.keepdims != -1 && (rc = check_keepdims_support(&c, err)) < 0)
        return rc;
    if (axes != NULL && axes->has_axis && L->ndims != 1)
        return uf__error_set(err, UF_ERR_INVALID,
                             "%s: axis can only be used with a single "
                             "shared core dimension, not with the %d "
                             "distinct ones implied by signature %s.",
                             c.name, L->ndims, L->text);
    rc = alloc_resolution(L, res, err);
    if (rc < 0)
        return rc;

    for (int i = 0; i < L->nargs; i++) {
        res->ops[i].core_ndim = L->core_ndim[i];
        if (c.keepdims == 1 && i >= L->nin) {
            res->ops[i].core_ndim = L->nin > 0 ? L->core_ndim[0] : 0;
            res->ops[i].kept_ndim = res->ops[i].core_ndim;
        }
    }
    if ((rc = validate_num_dims(&c, err)) < 0)
        goto fail;

    for (int i = 0; i < L->nargs; i++)
        if (given(&c, i) && shapes[i].ndim - res->ops[i].core_ndim >
                                bcast_ndim)
            bcast_ndim = shapes[i].ndim - res->ops[i].core_ndim;
    for (int i = 0; i < L->nargs; i++) {
        uf__gufunc_operand *op = &res->ops[i];
        op->ndim = given(&c, i) ? shapes[i].ndim : bcast_ndim + op->core_ndim;
        if (op->ndim > UF_MAXDIMS) {
            rc = uf__error_set(err, UF_ERR_SHAPE,
                               "%s: output operand %d would have %d "
                               "dimensions, more than the maximum of %d",
                               c.name, i - L->nin, op->ndim, UF_MAXDIMS);
            goto fail;
        }
        for (int k = 0; k < op->ndim; k++)
            op->perm[k] = k;
    }
    if (axes != NULL && axes->has_axis)
        rc = remap_axis(&c, axes->axis, err);
    else if (axes != NULL && axes->naxes_ops > 0)
        rc = remap_axes(&c, axes, err);
    if (rc < 0)
        goto fail;

    if ((rc = bind_core_dims(&c, err)) < 0)
        goto fail;
    if ((rc = broadcast_loops(&c, err)) < 0)
        goto fail;
    fill_shapes(&c);
    return 0;

fail:
    uf__gufunc_resolution_free(res);
    return rc;
}

void uf__gufunc_resolution_free(uf__gufunc_resolution *res)
{
    if (res == NULL)
        return;
    if (res->ops != res->local.ops) {
        uf__free(res->ops);
        uf__free(res->dim_size);
        uf__free(res->dim_missing);
        uf__free(res->dim_bound_by);
    }
    res->ops = NULL;
    res->dim_size = NULL;
    res->dim_missing = NULL;
    res->dim_bound_by = NULL;
}
