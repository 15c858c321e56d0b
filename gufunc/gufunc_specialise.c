/* Lazily compiled core-shape variants of guvectorize loops
 * (gufunc_specialise.h). A fixed table per compiled loop: entries are
 * written once, under the context lock, then published by a release store
 * of the count, so a call finds its variant with one acquire load and a
 * short scan, on any thread. */
#include <stdatomic.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/types/infer.h"
#include "gufunc/gufunc_internal.h"
#include "gufunc/gufunc_specialise.h"
#include "ndarray/array_internal.h"

/* Iterations of a kernel's outer loops interleaved (jit_gufunc_spec.h). */
#define SPEC_JAM 4
/* Distinct core shapes remembered per loop; later ones run generic. */
#define NVARIANTS 32

typedef struct variant {
    int64_t dim[UF__GUFUNC_SPEC_MAXDIMS];
    bool unit, noalias;
    uf__strided_loop fn; /* NULL: the compilation failed */
} variant;

#define VARIANTS_TAG 0x67757370u /* "gusp": aux is a variants table */

struct uf__gufunc_variants {
    unsigned tag;
    uf__guvec_arg args[UF__LOOP_MAXARGS];
    bool lazy;  /* "()" inputs' kind still to decide (lazy loops) */
    int nargs;
    _Atomic int count;
    variant v[NVARIANTS];
};

/* Process-wide, not per context: a tuning threshold only tests and
 * benchmarks change (uf__gufunc_spec_set_min_work), and what it decides
 * cannot change a result, only the speed: a variant computes the generic
 * loop's results bit for bit (jit_gufunc_spec.h). */
static _Atomic int64_t min_work = UF__GUFUNC_SPEC_MIN_WORK;

int64_t uf__gufunc_spec_set_min_work(int64_t work)
{
    return atomic_exchange(&min_work, work);
}

uf__gufunc_variants *uf__gufunc_variants_new(const uf__gufunc_layout *lay,
                                             const uf__signature *sig,
                                             uf_error *err)
{
    if (lay->nargs > UF__LOOP_MAXARGS ||
        (sig != NULL && sig->nargs != lay->nargs)) {
        uf__error_set(err, UF_ERR_INTERNAL,
                      "gufunc variants: %d operands", lay->nargs);
        return NULL;
    }
    uf__gufunc_variants *v = uf__calloc(1, sizeof *v, err);
    if (v == NULL)
        return NULL;
    v->tag = VARIANTS_TAG;
    v->nargs = lay->nargs;
    v->lazy = sig == NULL;
    /* the kinds uf__guvectorize_compile(_lazy) gives (guvectorize.c) */
    for (int k = 0; k < lay->nargs; k++) {
        bool scalar = sig ? sig->args[k]->kind == UF__T_SCALAR
                          : k < lay->nin;
        v->args[k].kind = lay->core_ndim[k] > 0 ? UF__GUVEC_ARRAY
                          : scalar              ? UF__GUVEC_SCALAR
                                                : UF__GUVEC_ELEM;
    }
    atomic_init(&v->count, 0);
    return v;
}

void uf__gufunc_variants_free(uf__gufunc_variants *v)
{
    if (v != NULL && v->tag == VARIANTS_TAG)
        uf__free(v);
}

int uf__gufunc_variants_compiled(const uf__ufunc_loop *loop)
{
    uf__gufunc_variants *v = loop->aux;
    int n = v && v->tag == VARIANTS_TAG
                ? atomic_load_explicit(&v->count, memory_order_acquire) : 0;
    int ok = 0;
    for (int i = 0; i < n; i++)
        ok += v->v[i].fn != NULL;
    return ok;
}

/* The kernel typed as the loop's variant `layout` ('C' or 'A') needs. */
static uf__typed_func *type_kernel(uf_func *f, const uf__gufunc_layout *lay,
                                   const uf__guvec_arg *args,
                                   const uf_dtype *types, char layout,
                                   uf_error *err)
{
    uf__kmodule *km = f->module->km;
    const uf__type *t[UF__LOOP_MAXARGS];
    for (int k = 0; k < lay->nargs; k++) {
        switch (args[k].kind) {
        case UF__GUVEC_SCALAR:
            t[k] = uf__type_scalar(km->tc, types[k]);
            break;
        case UF__GUVEC_ELEM:
            t[k] = uf__type_array(km->tc, types[k], 1, 'C', err);
            break;
        case UF__GUVEC_ARRAY:
            t[k] = uf__type_array(km->tc, types[k], lay->core_ndim[k],
                                  layout, err);
            break;
        }
        if (t[k] == NULL)
            return NULL;
    }
    return uf__infer(km, f->decl, t, lay->nargs, NULL, err);
}

/* Compiles variant `spec` of the loop with operand dtypes `types`. */
static uf__strided_loop compile_variant(uf_func *f, uf__gufunc_variants *v,
                                        const uf__gufunc_layout *lay,
                                        const uf_dtype *types,
                                        const uf__gufunc_spec *spec)
{
    uf_error err;
    uf_error_clear(&err);
    uf__jit *jit = uf__context_jit(f->module->ctx, &err);
    if (jit == NULL)
        return NULL;
    uf__guvec_arg args[UF__LOOP_MAXARGS];
    bool any_array = false, any_scalar = false;
    for (int k = 0; k < lay->nargs; k++) {
        args[k] = (uf__guvec_arg){v->args[k].kind, types[k]};
        any_array |= args[k].kind == UF__GUVEC_ARRAY;
        any_scalar |= args[k].kind == UF__GUVEC_SCALAR;
    }
    char layout = spec->unit && any_array ? 'C' : 'A';
    uf__typed_func *tf = type_kernel(f, lay, args, types, layout, &err);
    if (tf == NULL && v->lazy && any_scalar && err.code != UF_ERR_NOMEM) {
        /* a kernel written for Numba's convention reads x[0] */
        for (int k = 0; k < lay->nin; k++)
            if (args[k].kind == UF__GUVEC_SCALAR)
                args[k].kind = UF__GUVEC_ELEM;
        uf_error_clear(&err);
        tf = type_kernel(f, lay, args, types, layout, &err);
    }
    if (tf == NULL)
        return NULL;
    uf__strided_loop fn = NULL;
    if (uf__jit_gufunc_loop_spec(jit, layout == 'C' ? tf : NULL, tf, lay,
                                 args, spec, &fn, NULL, &err) != 0)
        return NULL;
    return fn;
}

static bool same_key(const variant *e, const uf__gufunc_spec *s)
{
    return e->unit == s->unit && e->noalias == s->noalias &&
           memcmp(e->dim, s->dim, (size_t)s->ndims * sizeof *e->dim) == 0;
}

/* Fills `spec` for the call; false when it is not to be specialised. */
static bool call_spec(const uf__gufunc_layout *lay, const uf_dtype *types,
                      const int64_t *dims, const int64_t *steps,
                      int64_t iterations, uf__gufunc_spec *spec)
{
    int64_t threshold = atomic_load_explicit(&min_work,
                                             memory_order_relaxed);
    int64_t work = iterations;
    if (threshold < 0 || lay->ndims == 0 ||
        lay->ndims > UF__GUFUNC_SPEC_MAXDIMS)
        return false;
    memset(spec, 0, sizeof *spec);
    spec->ndims = lay->ndims;
    for (int d = 0; d < lay->ndims; d++) {
        int64_t n = dims[1 + d];
        if (n < 0 || n > UF__GUFUNC_SPEC_MAXSIZE)
            return false;
        spec->dim[d] = n;
        /* saturating at 2^40 (n <= 64) */
        work = work > ((int64_t)1 << 34) ? (int64_t)1 << 40
                                         : work * (n > 1 ? n : 1);
    }
    if (work < threshold)
        return false;
    /* as the generic loop's check (lower_gufunc_loop.c) */
    spec->unit = true;
    for (int k = 0; k < lay->nargs && spec->unit; k++) {
        int64_t expect = (int64_t)uf_dtype_itemsize(types[k]);
        for (int j = lay->core_ndim[k] - 1; j >= 0; j--) {
            int c = lay->core_offset[k] + j;
            int64_t n = dims[1 + lay->dim_ix[c]];
            if (n != 1 && steps[lay->nargs + c] != expect)
                spec->unit = false;
            expect *= n;
        }
    }
    return true;
}

/* Whether no two operands share a byte (also when both are only read:
 * the kernel may write an input). */
static bool disjoint(uf_array *const *ops, int nargs)
{
    for (int i = 0; i < nargs; i++)
        for (int j = i + 1; j < nargs; j++)
            if (uf__arrays_overlap(ops[i], ops[j]))
                return false;
    return true;
}

uf__strided_loop uf__gufunc_variant(uf_func *f, bool locked,
                                    const uf__ufunc_loop *loop,
                                    const int64_t *dims,
                                    const int64_t *steps,
                                    int64_t iterations,
                                    uf_array *const *ops)
{
    uf__gufunc_variants *v = loop->aux;
    const uf__gufunc_layout *lay = uf__gufunc_layout_of(f->gufunc);
    uf__gufunc_spec spec;
    if (v == NULL || v->tag != VARIANTS_TAG ||
        !call_spec(lay, loop->types, dims, steps, iterations, &spec))
        return NULL;
    spec.noalias = disjoint(ops, lay->nargs);
    /* the pass needs to know the operands apart to prove it safe */
    spec.jam = spec.noalias ? SPEC_JAM : 0;
    int n = atomic_load_explicit(&v->count, memory_order_acquire);
    for (int i = 0; i < n; i++)
        if (same_key(&v->v[i], &spec))
            return v->v[i].fn;
    if (n == NVARIANTS)
        return NULL;
    uf_context *ctx = f->module->ctx;
    if (!locked)
        pthread_mutex_lock(&ctx->lock);
    /* another thread may have added it meanwhile */
    n = atomic_load_explicit(&v->count, memory_order_relaxed);
    uf__strided_loop fn = NULL;
    int i = 0;
    while (i < n && !same_key(&v->v[i], &spec))
        i++;
    if (i < n) {
        fn = v->v[i].fn;
    } else if (n < NVARIANTS) {
        fn = compile_variant(f, v, lay, loop->types, &spec);
        variant *e = &v->v[n];
        memcpy(e->dim, spec.dim, sizeof e->dim);
        e->unit = spec.unit;
        e->noalias = spec.noalias;
        e->fn = fn;
        atomic_store_explicit(&v->count, n + 1, memory_order_release);
    }
    if (!locked)
        pthread_mutex_unlock(&ctx->lock);
    return fn;
}
