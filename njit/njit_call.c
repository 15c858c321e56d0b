/* The call path of plain njit functions: uf_call runs the function once.
 * Each input fixes one argument type (a 0-d array is a scalar of its
 * dtype; other arrays keep their dtype, dimension count and layout: 'C'
 * when C-contiguous, 'F' when F-contiguous with 2+ dimensions, else 'A'),
 * and each list of argument types is typed and compiled once, on first
 * use (or loaded from the disk cache: cache=True, UFJIT_CACHE_DIR), then
 * cached in f->plain. A function declared with signatures
 * (@njit('f8(f8[:])')) runs the signature Numba's dispatcher would pick
 * for the arguments. Results come back as 0-d arrays. A string argument
 * (an array flagged UF_ARRAY_STRING) is a unicode_type: the entry gets a
 * uf__ustr copied from its code points, in no NRT block (as a literal),
 * freed after the results are out; a returned string is a 1-D uint32
 * array of code points flagged the same way. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "common/ustr.h"
#include "common/error_internal.h"
#include "compiler/front/ast_visit.h"
#include "compiler/cache/disk_cache.h"
#include "compiler/host/jit_plain.h"
#include "compiler/module.h"
#include "ndarray/array_internal.h"
#include "njit/njit.h"
#include "njit/njit_prange.h"
#include "targets/target.h"
#include "ufunc/call_check.h"
#include "ufunc/inspect.h"

#define MAXARGS 64

/* One compiled specialisation. */
typedef struct plain_spec {
    const uf__type *in[MAXARGS]; /* the input types (the cache key) */
    int nin;
    uf_dtype out[UF__TUPLE_MAX];
    int nout;
    bool writes; /* stores into some array: inputs must be writeable */
    int ret_ndim; /* -1, or the returned array's dimensions (dtype out[0]) */
    /* per result: -1 for a number, else the array's dimensions (a tuple's
     * arrays; out_ndim[0] == ret_ndim for one array) */
    int out_ndim[UF__TUPLE_MAX];
    /* per result: a readonly array type (a global array or a view of
     * one, a.imag of real numbers): it comes back read-only, as Numba's */
    bool out_ro[UF__TUPLE_MAX];
    bool out_str[UF__TUPLE_MAX]; /* a string's code points */
    char *tree; /* how the results nest (uf_func_result_tree) */
    uf__plain_entry fn;
} plain_spec;

struct uf__plain {
    plain_spec **specs;
    int n, cap;
};

static void njit_release(uf_func *f)
{
    if (f->plain == NULL)
        return;
    for (int i = 0; i < f->plain->n; i++) {
        uf__free(f->plain->specs[i]->tree);
        uf__free(f->plain->specs[i]);
    }
    uf__free(f->plain->specs);
    uf__free(f->plain);
    f->plain = NULL;
}

/* ---- argument types ------------------------------------------------------ */

static const uf__type *input_type(uf__typectx *tc, const uf_array *a,
                                  uf_error *err)
{
    int nd = uf_array_ndim(a);
    uf_dtype dt = uf_array_dtype(a);
    if (uf_array_flags(a) & UF_ARRAY_STRING)
        return uf__type_ustr(tc);
    if (nd == 0)
        return uf__type_scalar(tc, dt);
    int fl = uf_array_flags(a);
    char layout = (fl & UF_ARRAY_C_CONTIGUOUS)                ? 'C'
                  : (nd > 1 && (fl & UF_ARRAY_F_CONTIGUOUS)) ? 'F'
                                                             : 'A';
    return uf__type_array(tc, dt, nd, layout, err);
}

/* Whether an array input of type `t` can be passed as the declared `want`:
 * the same dtype and dimensions, into the same layout or 'A'. */
static bool array_fits(const uf__type *t, const uf__type *want)
{
    return want->kind == UF__T_ARRAY && want->dtype == t->dtype &&
           want->ndim == t->ndim &&
           (want->layout == 'A' || want->layout == t->layout);
}

/* The types to compile for: the inputs' own, or the declared signature
 * Numba's dispatcher would pick (arrays must fit; among the rest, the
 * fewest unsafe, then safe, then promoting scalar conversions, the first
 * on a tie; unsafe ones allowed, as a dispatcher that cannot compile
 * more does), with *ret its return type. */
static int pick_types(uf_func *f, const uf__type *const *in, int n,
                      const uf__type **args, const uf__type **ret,
                      uf_error *err)
{
    uf__kmodule *km = f->module->km;
    int nsig = f->decl->nsignatures;
    *ret = NULL;
    if (nsig == 0) {
        memcpy(args, in, (size_t)n * sizeof *args);
        return 0;
    }
    uf__signature *sigs = uf__calloc((size_t)nsig, sizeof *sigs, err);
    uf_dtype *cases = uf__calloc((size_t)nsig * (size_t)(n + 1),
                                 sizeof *cases, err);
    int *which = uf__calloc((size_t)nsig, sizeof *which, err);
    const uf__type *scal[MAXARGS];
    int nscal = 0, ncase = 0, rc = 0;
    if (!sigs || !cases || !which) {
        rc = err->code;
        goto done;
    }
    for (int i = 0; i < n; i++)
        if (in[i]->kind == UF__T_SCALAR)
            scal[nscal++] = in[i];
    for (int s = 0; s < nsig; s++) {
        if (uf__parse_signature(km->tc, km->arena, f->decl->signatures[s],
                                &sigs[s], err) < 0) {
            char msg[sizeof err->message];
            snprintf(msg, sizeof msg, "%s", err->message);
            rc = uf__source_error(err, err->code, km->src,
                                  f->decl->signature_pos[s], "%s", msg);
            goto done;
        }
        if (sigs[s].nargs != n)
            continue;
        bool ok = true;
        int k = 0;
        for (int i = 0; i < n && ok; i++) {
            const uf__type *w = sigs[s].args[i];
            if (in[i]->kind == UF__T_ARRAY)
                ok = array_fits(in[i], w);
            else if (in[i]->kind == UF__T_USTR)
                ok = w->kind == UF__T_USTR;
            else if ((ok = w->kind == UF__T_SCALAR))
                cases[(size_t)ncase * (size_t)nscal + (size_t)k++] = w->dtype;
        }
        if (ok)
            which[ncase++] = s;
    }
    int best = ncase == 0 ? -1
               : nscal == 0 ? 0
                            : uf__type_pick_overload(scal, nscal, cases, ncase,
                                                     true);
    if (best >= 0) {
        memcpy(args, sigs[which[best]].args, (size_t)n * sizeof *args);
        *ret = sigs[which[best]].ret;
        goto done;
    }
    char have[512] = "";
    size_t used = 0;
    for (int i = 0; i < n && used < sizeof have; i++) {
        char t[96];
        uf__type_str(in[i], t, sizeof t);
        used += (size_t)snprintf(have + used, sizeof have - used, "%s%s",
                                 i ? ", " : "", t);
    }
    rc = uf__error_set(err, UF_ERR_TYPE, "'%s' has no signature matching "
                       "the argument types (%s)", f->decl->name, have);
done:
    uf__free(sigs);
    uf__free(cases);
    uf__free(which);
    return rc;
}

/* ---- whether a function stores into arrays ------------------------------- */

typedef struct store_scan {
    const uf__typed_func *tf;
    int depth; /* callees followed */
} store_scan;

static bool stores_in(const uf__typed_func *tf, int depth);

static bool is_array_item(const uf__typed_func *tf, const uf__expr *t)
{
    if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) {
        for (int i = 0; i < t->u.seq.n; i++)
            if (is_array_item(tf, t->u.seq.elts[i]))
                return true;
        return false;
    }
    if (t->kind != UF__EX_SUBSCRIPT)
        return false;
    const uf__type *bt = uf__tf_info(tf, t->u.subscript.value)->type;
    return bt != NULL && bt->kind == UF__T_ARRAY;
}

/* Calls of other kernels anywhere in an expression. */
static int stores_expr(const uf__expr *e, void *ud)
{
    const store_scan *S = ud;
    const uf__typed_func *callee = uf__tf_info(S->tf, e)->callee;
    if (e->kind == UF__EX_CALL && callee != NULL && callee != S->tf &&
        S->depth < 32 && stores_in(callee, S->depth + 1))
        return 1;
    return uf__ast_children(e, stores_expr, ud);
}

static int stores_stmt(uf__stmt *s, void *ud)
{
    const store_scan *S = ud;
    switch (s->kind) {
    case UF__ST_ASSIGN:
        for (int i = 0; i < s->u.assign.ntargets; i++)
            if (is_array_item(S->tf, s->u.assign.targets[i]))
                return 1;
        return stores_expr(s->u.assign.value, ud);
    case UF__ST_AUGASSIGN:
        return is_array_item(S->tf, s->u.augassign.target) ||
               stores_expr(s->u.augassign.value, ud);
    case UF__ST_FOR:
        return stores_expr(s->u.for_.iter, ud);
    default:
        return uf__ast_stmt_exprs(s, stores_expr, ud);
    }
}

static bool stores_in(const uf__typed_func *tf, int depth)
{
    store_scan S = {tf, depth};
    return uf__ast_walk_stmts(&tf->decl->def->u.funcdef.body, stores_stmt,
                              &S) != 0;
}

static plain_spec *find_spec(const struct uf__plain *p,
                             const uf__type *const *in, int n)
{
    for (int i = 0; p != NULL && i < p->n; i++) {
        plain_spec *s = p->specs[i];
        if (s->nin == n &&
            (n == 0 || memcmp(s->in, in, (size_t)n * sizeof *in) == 0))
            return s;
    }
    return NULL;
}

static int add_spec(uf_func *f, plain_spec *s, uf_error *err)
{
    if (f->plain == NULL &&
        (f->plain = uf__calloc(1, sizeof *f->plain, err)) == NULL)
        return err->code;
    struct uf__plain *p = f->plain;
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 4;
        plain_spec **n = uf__realloc(p->specs, (size_t)cap, sizeof *n, err);
        if (n == NULL)
            return err->code;
        p->specs = n;
        p->cap = cap;
    }
    p->specs[p->n++] = s;
    return 0;
}

/* What decides the entry's code besides the module and the kernel's
 * flags (the disk cache's key): each argument's type with the dtype a
 * scalar arrives in, and the declared result. False when it does not
 * fit. */
static bool entry_sig(const uf__type *const *args, const uf_dtype *in, int n,
                      const uf__type *ret, char *out, size_t cap)
{
    char t[128];
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        uf__type_str(args[i], t, sizeof t);
        int w = snprintf(out + used, cap - used, "%s%s<%s", i ? "," : "", t,
                         args[i]->kind == UF__T_SCALAR ? uf_dtype_name(in[i])
                                                       : "");
        if (w < 0 || (used += (size_t)w) >= cap)
            return false;
    }
    if (ret)
        uf__type_str(ret, t, sizeof t);
    int w = snprintf(out + used, cap - used, "->%s", ret ? t : "?");
    return w >= 0 && used + (size_t)w < cap;
}

/* s->fn: loaded from the disk cache when there (nothing compiled), else
 * compiled and stored there when one applies. */
static int compile_entry(uf_func *f, uf__jit *jit, const uf__typed_func *tf,
                         const uf__type *const *args, const uf_dtype *in_dt,
                         int n, const uf__type *ret, plain_spec *s,
                         uf_error *err)
{
    uf__disk_use use = {.on = false};
    char sig[1024];
    if (entry_sig(args, in_dt, n, ret, sig, sizeof sig))
        uf__disk_use_init(&use, UF__OBJ_PLAIN, f->module->km, f->decl, sig,
                          jit);
    int rc = 0;
    void *addr = NULL;
    if (!use.on) {
        rc = uf__jit_plain(jit, tf, in_dt, &s->fn, NULL, err);
        goto done;
    }
    if (uf__disk_use_fetch(&use, jit, 1, &addr, NULL, 0)) {
        s->fn = (uf__plain_entry)(uintptr_t)addr;
        goto done;
    }
    char symbol[UF__JIT_SYMBOL_MAX];
    char *obj = NULL;
    size_t objlen = 0;
    if (uf__jit_plain_obj(jit, tf, in_dt, use.stem, &s->fn, symbol,
                          sizeof symbol, &obj, &objlen, err) != 0) {
        rc = err->code;
        if (rc == UF_ERR_INTERNAL) {
            /* the JIT refused the object (its symbols clash with code
             * this context loaded before): compile as without a cache */
            uf_error_clear(err);
            rc = uf__jit_plain(jit, tf, in_dt, &s->fn, NULL, err);
        }
        goto done;
    }
    const char *names[1] = {symbol};
    uf__disk_use_store(&use, names, 1, NULL, 0, obj, objlen);
    uf__free(obj);
done:
    uf__disk_use_release(&use);
    return rc;
}

/* Types and compiles f for the input types; call with the context lock. */
static plain_spec *compile_spec(uf_func *f, const uf__type *const *in, int n,
                                uf_array *const *inputs, uf_error *err)
{
    uf__kmodule *km = f->module->km;
    const uf__type *args[MAXARGS], *ret;
    if (pick_types(f, in, n, args, &ret, err) != 0)
        return NULL;
    uf__typed_func *tf = uf__infer(km, f->decl, args, n, ret, err);
    if (tf == NULL)
        return NULL;
    uf__jit *jit = uf__context_jit(f->module->ctx, err);
    if (jit == NULL)
        return NULL;
    plain_spec *s = uf__calloc(1, sizeof *s, err);
    if (s == NULL)
        return NULL;
    memcpy(s->in, in, (size_t)n * sizeof *in);
    s->nin = n;
    uf_dtype in_dt[MAXARGS];
    for (int i = 0; i < n; i++)
        in_dt[i] = uf_array_dtype(inputs[i]);
    if (compile_entry(f, jit, tf, args, in_dt, n, ret, s, err) != 0)
        goto fail;
    s->ret_ndim = -1;
    for (int k = 0; k < UF__TUPLE_MAX; k++)
        s->out_ndim[k] = -1;
    /* one output per number or array, nested tuples flattened */
    const uf__type *res[UF__TUPLE_MAX];
    s->nout = uf__plain_results(tf->ret, res, UF__TUPLE_MAX);
    if (s->nout < 0) { /* the entry compiles only what it can return */
        uf__error_set(err, UF_ERR_INTERNAL, "'%s': results not listed",
                      f->decl->name);
        goto fail;
    }
    for (int k = 0; k < s->nout; k++) {
        s->out[k] = res[k]->dtype;
        if (res[k]->kind == UF__T_ARRAY)
            s->out_ndim[k] = res[k]->ndim;
        if (res[k]->kind == UF__T_USTR || res[k]->kind == UF__T_STR) {
            s->out[k] = UF_UINT32; /* a string: its code points */
            s->out_ndim[k] = 1;
            s->out_str[k] = true;
        }
        s->out_ro[k] = res[k]->readonly;
    }
    if (tf->ret->kind == UF__T_ARRAY)
        s->ret_ndim = tf->ret->ndim;
    if (tf->ret->kind == UF__T_USTR || tf->ret->kind == UF__T_STR)
        s->ret_ndim = 1;
    char tree[16 * UF__TUPLE_MAX];
    if (uf__plain_result_tree(tf->ret, tree, sizeof tree) < 0) {
        uf__error_set(err, UF_ERR_LIMIT, "'%s': results nested too deep "
                      "to describe", f->decl->name);
        goto fail;
    }
    if ((s->tree = uf__strdup(tree, err)) == NULL)
        goto fail;
    s->writes = stores_in(tf, 0);
    if (add_spec(f, s, err) != 0)
        goto fail;
    return s;

fail:
    uf__free(s->tree);
    uf__free(s);
    return NULL;
}

/* ---- the call ------------------------------------------------------------------ */

static int check_inputs(uf_func *f, uf_array *const *inputs, int n_in,
                        const uf_call_options *opts, uf_error *err)
{
    const char *name = f->decl->name;
    if (n_in != f->nin)
        return uf__error_set(err, UF_ERR_INVALID, "'%s' takes %d argument%s "
                             "but %d %s given", name, f->nin,
                             f->nin == 1 ? "" : "s", n_in,
                             n_in == 1 ? "was" : "were");
    if (n_in > MAXARGS)
        return uf__error_set(err, UF_ERR_UNSUPPORTED, "'%s': more than %d "
                             "arguments", name, MAXARGS);
    const char *target = uf__func_target(f, opts);
    const uf__target *t = uf__target_find(target);
    /* njit(parallel=True): the prange loops run on the threads either
     * way; 'parallel' names that */
    bool prange_ok = f->decl->parallel && strcmp(target, "parallel") == 0;
    if (!prange_ok && (t == NULL || !(t->caps & UF__TCAP_NJIT))) {
        char list[64];
        return uf__error_set(err, UF_ERR_UNSUPPORTED, "'%s' is an njit "
                             "function: it runs on the %s target, not '%s'",
                             name, uf__target_list(UF__TCAP_NJIT, list,
                                                   sizeof list), target);
    }
    for (int i = 0; i < n_in; i++)
        if (uf_array_device(inputs[i]).type != UF_DEVICE_HOST)
            return uf__error_set(err, UF_ERR_INVALID, "'%s': argument %d is "
                                 "not in host memory", name, i + 1);
    return 0;
}

static int check_outputs(uf_func *f, const plain_spec *s,
                         uf_array **outputs, int n_out,
                         const uf_call_options *opts, uf_error *err)
{
    const char *name = f->decl->name;
    if (n_out != s->nout)
        return uf__error_set(err, UF_ERR_INVALID, "'%s' returns %d value%s "
                             "(one output each) but %d output%s %s given",
                             name, s->nout, s->nout == 1 ? "" : "s", n_out,
                             n_out == 1 ? "" : "s",
                             n_out == 1 ? "was" : "were");
    uf_casting casting = UF_CASTING_SAME_KIND;
    if (opts != NULL && opts->casting_set)
        casting = opts->casting;
    for (int k = 0; k < n_out; k++) {
        uf_array *o = outputs[k];
        if (o == NULL || s->out_ndim[k] >= 0) /* an array: copied into o */
            continue;
        if (uf_array_ndim(o) != 0)
            return uf__error_set(err, UF_ERR_SHAPE, "'%s': output %d must "
                                 "be a 0-d array (the function returns a "
                                 "scalar), not %d-d", name, k + 1,
                                 uf_array_ndim(o));
        if (!(uf_array_flags(o) & UF_ARRAY_WRITEABLE))
            return uf__error_set(err, UF_ERR_READONLY, "'%s': output %d is "
                                 "read-only", name, k + 1);
        if (!uf_can_cast(s->out[k], uf_array_dtype(o), casting))
            return uf__error_set(err, UF_ERR_CAST, "'%s': cannot cast the "
                                 "result %d from %s to the output's %s with "
                                 "casting rule '%s'", name, k + 1,
                                 uf_dtype_name(s->out[k]),
                                 uf_dtype_name(uf_array_dtype(o)),
                                 uf_casting_name(casting));
    }
    return 0;
}

/* The byte range [*lo, *hi) that an array's elements span (empty: lo ==
 * hi). */
static void span_of(int ndim, const int64_t *shape, const int64_t *strides,
                    size_t itemsize, const char *data, uintptr_t *lo,
                    uintptr_t *hi)
{
    intptr_t first = 0, last = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] == 0) {
            *lo = *hi = (uintptr_t)data;
            return;
        }
        intptr_t reach = (intptr_t)(shape[d] - 1) * (intptr_t)strides[d];
        if (reach < 0)
            first += reach;
        else
            last += reach;
    }
    *lo = (uintptr_t)data + (uintptr_t)first;
    *hi = (uintptr_t)data + (uintptr_t)last + itemsize;
}

/* The argument whose elements hold every element of the result r (a view
 * of it the function returned: `return a`, `return a[1:]`, `a.T`), or
 * NULL (a constant array of the kernel file). */
static uf_array *base_argument(const plain_spec *s, int k,
                               const uf__plain_array_result *r,
                               uf_array *const *inputs, int n_in)
{
    uintptr_t lo, hi;
    span_of(s->out_ndim[k], r->shape, r->strides,
            uf_dtype_itemsize(s->out[k]), r->data, &lo, &hi);
    for (int i = 0; i < n_in; i++) {
        uf_array *in = inputs[i];
        uintptr_t ilo, ihi;
        if (uf_array_ndim(in) == 0)
            continue; /* passed by value: the entry saw a copy */
        span_of(uf_array_ndim(in), uf_array_shape(in), uf_array_strides(in),
                uf_array_itemsize(in), uf_array_data(in), &ilo, &ihi);
        /* (an empty result: lo == hi, a view of an argument when its
         * data pointer is in the argument's range or just past it) */
        if (ilo <= lo && hi <= ihi)
            return in;
    }
    return NULL;
}

static void release_base(void *base, void *data)
{
    (void)data;
    uf_array_release(base);
}

/* The array the entry returned (uf__plain_array_result): the block it
 * made, wrapped so that releasing the uf_array drops the block's
 * reference (common/nrt.h); a view of an argument stays a view of it, as
 * in Numba (writes through it reach the argument; the argument is kept
 * alive, and read-only when it is); anything else borrowed (a constant
 * array of the kernel file) is copied. Copied into *out when the caller
 * gave one. */
static int array_result(const plain_spec *s, int k,
                        uf__plain_array_result *r, uf_array *const *inputs,
                        int n_in, uf_array **out, uf_error *err)
{
    uf_array *base = r->meminfo ? NULL
                                : base_argument(s, k, r, inputs, n_in);
    bool writeable = base == NULL
                     || (uf_array_flags(base) & UF_ARRAY_WRITEABLE);
    uf_array *a;
    if (base != NULL) {
        a = uf_array_wrap(s->out[k], s->out_ndim[k], r->shape, r->strides,
                          r->data, writeable, release_base,
                          uf_array_retain(base), err);
        if (a == NULL)
            uf_array_release(base);
    } else {
        a = uf_array_wrap(s->out[k], s->out_ndim[k], r->shape, r->strides,
                          r->data, true,
                          r->meminfo ? uf__nrt_release_cb : NULL,
                          r->meminfo, err);
        if (a == NULL)
            uf__nrt_decref(r->meminfo);
    }
    if (a == NULL)
        return err->code;
    if (r->meminfo == NULL && base == NULL) { /* borrowed: copy it out */
        uf_array *c = uf_array_copy(a, UF_ORDER_C, err);
        uf_array_release(a);
        if ((a = c) == NULL)
            return err->code;
    }
    if (*out == NULL) {
        *out = a;
        return s->out_ro[k] && writeable
                   ? uf_array_set_writeable(a, false, err) : 0;
    }
    int rc = uf_array_copyto(*out, a, UF_CASTING_SAME_KIND, err);
    uf_array_release(a);
    return rc;
}

/* The uf__ustr of each string argument (NULL for the others), from its
 * code points: outside every NRT block, so the kernel treats it as a
 * literal (never frees it; a returned one is copied out). */
static int string_args(const plain_spec *s, uf_array *const *inputs,
                       int n_in, uf__ustr **strs, uf_error *err)
{
    for (int i = 0; i < n_in; i++)
        strs[i] = NULL;
    for (int i = 0; i < n_in; i++) {
        if (s->in[i]->kind != UF__T_USTR)
            continue;
        int64_t len = uf_array_shape(inputs[i])[0];
        int64_t stride = uf_array_strides(inputs[i])[0];
        const char *cp = uf_array_data(inputs[i]);
        strs[i] = uf__malloc(1, UF__USTR_CP_OFFSET + 4 * (size_t)len, err);
        if (strs[i] == NULL)
            return err->code;
        strs[i]->len = len;
        strs[i]->hash = -1;
        for (int64_t k = 0; k < len; k++)
            memcpy(&strs[i]->cp[k], cp + k * stride, 4);
    }
    return 0;
}

/* Runs the entry and fills the outputs (allocating the NULL ones). */
static int run(uf_func *f, const plain_spec *s, uf_array *const *inputs,
               int n_in, uf__ustr **strs, uf_array **outputs, uf_error *err)
{
    void *args[MAXARGS];
    uf__plain_arg desc[MAXARGS];
    for (int i = 0; i < n_in; i++) {
        if (strs[i] != NULL) {
            args[i] = &strs[i];
            continue;
        }
        if (uf_array_ndim(inputs[i]) == 0) {
            args[i] = uf_array_data(inputs[i]);
            continue;
        }
        if (s->writes && !(uf_array_flags(inputs[i]) & UF_ARRAY_WRITEABLE))
            return uf__error_set(err, UF_ERR_READONLY, "'%s' writes into "
                                 "arrays but argument %d is read-only",
                                 f->decl->name, i + 1);
        desc[i].data = uf_array_data(inputs[i]);
        desc[i].shape = uf_array_shape(inputs[i]);
        desc[i].strides = uf_array_strides(inputs[i]);
        args[i] = &desc[i];
    }
    _Alignas(16) unsigned char res[UF__TUPLE_MAX][16];
    void *outs[UF__TUPLE_MAX];
    uf__plain_array_result local[2], *ares = local;
    int narr = 0;
    for (int k = 0; k < s->nout; k++)
        narr += s->out_ndim[k] >= 0;
    if (narr > 2 && !(ares = uf__calloc((size_t)narr, sizeof *ares, err)))
        return err->code;
    for (int k = 0, a = 0; k < s->nout; k++)
        outs[k] = s->out_ndim[k] >= 0 ? (void *)&ares[a++] : res[k];
    int status = s->fn(args, outs);
    if (ares != local && status != 0)
        uf__free(ares);
    if (status != 0) {
        uf_error why;
        int code = uf__jit_status_error(status, &why);
        if (status == UF__JIT_INDEX) /* names the function and line */
            return uf__error_set(err, code, "%s", why.message);
        return uf__error_set(err, code, "%s (in '%s')", why.message,
                             f->decl->name);
    }
    if (s->ret_ndim >= 0) {
        bool fresh = outputs[0] == NULL;
        if (array_result(s, 0, ares, inputs, n_in, &outputs[0], err) != 0)
            return err->code; /* ares is local */
        if (fresh && s->out_str[0])
            uf__array_mark_string(outputs[0]);
        return 0;
    }
    bool made[UF__TUPLE_MAX] = {false};
    int a = 0;
    for (int k = 0; k < s->nout; k++) {
        if (s->out_ndim[k] >= 0) {
            bool fresh = outputs[k] == NULL;
            uf__plain_array_result *r = &ares[a++];
            if (array_result(s, k, r, inputs, n_in, &outputs[k],
                             err) != 0) {
                /* the blocks of the arrays after this one */
                for (; a < narr; a++)
                    uf__nrt_decref(ares[a].meminfo);
                goto fail;
            }
            made[k] = fresh;
            if (fresh && s->out_str[k])
                uf__array_mark_string(outputs[k]);
        } else if (outputs[k] == NULL) {
            outputs[k] = uf_full(s->out[k], 0, NULL, res[k], s->out[k],
                                 UF_ORDER_C, err);
            if (outputs[k] == NULL)
                goto fail;
            made[k] = true;
        } else if (uf_array_fill(outputs[k], res[k], s->out[k], err) != 0) {
            goto fail;
        }
    }
    if (ares != local)
        uf__free(ares);
    return 0;

fail:
    for (; a < narr; a++) /* a number failed: the arrays not yet wrapped */
        uf__nrt_decref(ares[a].meminfo);
    if (ares != local)
        uf__free(ares);
    for (int k = 0; k < s->nout; k++)
        if (made[k]) {
            uf_array_release(outputs[k]);
            outputs[k] = NULL;
        }
    return err->code;
}

static int njit_call(uf_func *f, uf_array *const *inputs, int n_in,
                     uf_array **outputs, int n_out,
                     const uf_call_options *opts, uf_error *err)
{
    if (check_inputs(f, inputs, n_in, opts, err) != 0)
        return err->code;
    uf_context *ctx = f->module->ctx;
    const uf__type *in[MAXARGS];
    pthread_mutex_lock(&ctx->lock);
    int rc = 0;
    for (int i = 0; i < n_in && rc == 0; i++)
        if ((in[i] = input_type(f->module->km->tc, inputs[i], err)) == NULL)
            rc = err->code;
    plain_spec *s = rc == 0 ? find_spec(f->plain, in, n_in) : NULL;
    if (rc == 0 && s == NULL &&
        (s = compile_spec(f, in, n_in, inputs, err)) == NULL)
        rc = err->code;
    if (rc == 0) {
        f->nout = s->nout;
        f->result_tree = s->tree;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (rc != 0)
        return rc;
    if (check_outputs(f, s, outputs, n_out, opts, err) != 0)
        return err->code;
    /* prange loops of the call run on opts->num_threads threads */
    int threads = uf__prange_threads(opts != NULL ? opts->num_threads : 0);
    uf__ustr *strs[MAXARGS];
    rc = string_args(s, inputs, n_in, strs, err);
    if (rc == 0)
        rc = run(f, s, inputs, n_in, strs, outputs, err);
    for (int i = 0; i < n_in; i++)
        uf__free(strs[i]);
    uf__prange_threads(threads);
    return rc;
}

/* The njit entry of one signature, for its listing. */
static int compile_listing(uf_func *f, const uf__typed_func *tf,
                           uf__jit *jit, const uf__signature *sig,
                           uf__jit_listing *listing, uf_error *err)
{
    uf_dtype in[UF__LOOP_MAXARGS] = {0};
    for (int i = 0; i < sig->nargs && i < UF__LOOP_MAXARGS; i++)
        if (sig->args[i]->kind == UF__T_SCALAR)
            in[i] = sig->args[i]->dtype;
    uf__plain_entry entry;
    return uf__jit_plain(jit, tf, in, &entry, listing, err);
}

static const uf__inspect_kind inspect_kind = {.compile = compile_listing};

static int njit_inspect(uf_func *f, const char *sig, unsigned what,
                        uf__strbuf *out, uf_error *err)
{
    return uf__inspect_compiled(f, sig, what, &inspect_kind, out, err);
}

const uf__kind_ops uf__njit_kind = {
    .call = njit_call,
    .inspect = njit_inspect,
    .example_signature = "'float64(float64[:, :])'",
    .release = njit_release,
};
