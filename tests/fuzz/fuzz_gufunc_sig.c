/* libFuzzer target: the guvectorize layout parser ("(m,n),(n)->(m)",
 * compiler/front/layout.c), the resolution of one call against it
 * (core dimensions, broadcasting, axes=/axis=/keepdims, gufunc/core_dims.c)
 * and Numba's signature parser ("void(float64[:,:], float64[:])",
 * compiler/types/signature.c).
 *
 * Input: TEXT [NUL CALL]. TEXT is parsed as a layout and as a signature.
 * CALL's bytes, read in order (missing ones are 0), describe the call:
 * arity mode (bit 0 set: the fixed arity nin = bits 1-3, nout = bits 4-6;
 * else read from TEXT), option flags (bit 0 axes=, bit 1 axis=, bits 2-3
 * keepdims: 0 not given, 1 false, 2 true), then per operand ndim and that
 * many dimension sizes (byte % 5; 0xfe is 2**40, 0xff INT64_MAX), then
 * the axes lists and the axis. */
#include "compiler/front/arena.h"
#include "compiler/front/layout.h"
#include "compiler/types/types.h"
#include "common/alloc.h"
#include "fuzz_util.h"

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static unsigned next(reader *r)
{
    if (r->n == 0)
        return 0;
    r->n--;
    return *r->p++;
}

/* The resolution describes arrays that can exist. */
static void check_resolution(const uf__gufunc_layout *L,
                             const uf__gufunc_resolution *res)
{
    FZ_CHECK(res->loop_ndim >= 0 && res->loop_ndim <= UF_MAXDIMS);
    for (int i = 0; i < L->nargs; i++) {
        const uf__gufunc_operand *op = &res->ops[i];
        FZ_CHECK(op->ndim >= 0 && op->ndim <= UF_MAXDIMS);
        FZ_CHECK(op->core_ndim >= 0 && op->core_ndim <= op->ndim);
        bool seen[UF_MAXDIMS] = {false};
        for (int k = 0; k < op->ndim; k++) {
            FZ_CHECK(op->shape[k] >= 0);
            FZ_CHECK(op->perm[k] >= 0 && op->perm[k] < op->ndim &&
                     !seen[op->perm[k]]);
            seen[op->perm[k]] = true;
        }
    }
    for (int d = 0; d < L->ndims; d++)
        FZ_CHECK(res->dim_size[d] >= 0);
}

static void fuzz_call(const uf__gufunc_layout *L, reader *r, unsigned flags)
{
    int nargs = L->nargs;
    uf__gufunc_shape *shapes = calloc((size_t)nargs + 1, sizeof *shapes);
    int64_t(*dims)[8] = calloc((size_t)nargs + 1, sizeof *dims);
    int *naxes = calloc((size_t)nargs + 1, sizeof *naxes);
    int(*axes)[8] = calloc((size_t)nargs + 1, sizeof *axes);
    const int **axes_p = calloc((size_t)nargs + 1, sizeof *axes_p);
    if (!shapes || !dims || !naxes || !axes || !axes_p)
        abort();
    for (int i = 0; i < nargs; i++) {
        unsigned b = next(r);
        /* inputs 0..7 dimensions, outputs also -1 (not given) */
        shapes[i].ndim = i < L->nin ? (int)(b % 8) : (int)(b % 9) - 1;
        shapes[i].shape = dims[i];
        for (int k = 0; k < shapes[i].ndim; k++) {
            unsigned d = next(r);
            /* mostly small; 0xfe, 0xff: sizes whose products overflow */
            dims[i][k] = d == 0xff   ? INT64_MAX
                         : d == 0xfe ? (int64_t)1 << 40
                                     : d % 5;
        }
    }
    uf__gufunc_axes ax = {.keepdims = (int)((flags >> 2) & 3) - 1};
    if (ax.keepdims > 1)
        ax.keepdims = 1;
    if (flags & 1) {
        ax.naxes_ops = (int)(next(r) % ((unsigned)nargs + 1));
        for (int i = 0; i < ax.naxes_ops; i++) {
            naxes[i] = (int)(next(r) % 4);
            for (int k = 0; k < naxes[i]; k++)
                axes[i][k] = (int8_t)next(r) % 9;
            axes_p[i] = axes[i];
        }
        ax.naxes = naxes;
        ax.axes = axes_p;
    }
    if (flags & 2) {
        ax.has_axis = true;
        ax.axis = (int8_t)next(r) % 9;
    }
    uf__gufunc_resolution res;
    uf_error err;
    uf_error_clear(&err);
    if (uf__gufunc_resolve(L, "fuzz", shapes, &ax, &res, &err) == 0) {
        check_resolution(L, &res);
        uf__gufunc_resolution_free(&res);
    } else {
        fz_check_error(&err);
    }
    free(shapes);
    free(dims);
    free(naxes);
    free(axes);
    free(axes_p);
}

static void fuzz_layout(const char *text, reader *r)
{
    unsigned mode = next(r), flags = next(r);
    int nin = -1, nout = -1;
    if (mode & 1) {
        nin = (int)((mode >> 1) & 7);
        nout = (int)((mode >> 4) & 7);
    }
    uf_error err;
    uf_error_clear(&err);
    uf__gufunc_layout *L = uf__gufunc_layout_parse(text, nin, nout, &err);
    if (L == NULL) {
        fz_check_error(&err);
        return;
    }
    FZ_CHECK(L->nin >= 0 && L->nout >= 0 && L->nargs == L->nin + L->nout);
    char name[64];
    for (int d = 0; d < L->ndims; d++)
        uf__gufunc_dim_name(L, d, name, sizeof name);
    for (int i = 0; i < L->nargs; i++) {
        FZ_CHECK(L->core_ndim[i] >= 0);
        for (int k = 0; k < L->core_ndim[i]; k++) {
            int ix = L->dim_ix[L->core_offset[i] + k];
            FZ_CHECK(ix >= 0 && ix < L->ndims);
        }
        (void)uf__gufunc_layout_check_arg(L, i, (int)(next(r) % 4) - 1,
                                          &err);
    }
    (void)uf__gufunc_layout_check_arity(L, L->nin, L->nout, &err);
    fuzz_call(L, r, flags);
    uf__gufunc_layout_free(L);
}

static void fuzz_signature(const char *text)
{
    uf_error err;
    uf_error_clear(&err);
    uf__typectx *tc = uf__typectx_new(&err);
    uf__arena *arena = uf__arena_new(&err);
    if (tc == NULL || arena == NULL)
        abort();
    uf__signature sig;
    if (uf__parse_signature(tc, arena, text, &sig, &err) == 0) {
        FZ_CHECK(sig.nargs >= 0);
        char buf[256];
        for (int i = 0; i < sig.nargs; i++)
            uf__type_str(sig.args[i], buf, sizeof buf);
    } else {
        fz_check_error(&err);
    }
    const uf__type *t;
    uf_error_clear(&err);
    if (uf__parse_type(tc, text, &t, &err) != 0)
        fz_check_error(&err);
    uf__arena_free(arena);
    uf__typectx_free(tc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fz_cstring(data, size);
    size_t used = strlen(text) + 1;
    reader r = {data + used, used < size ? size - used : 0};
    fuzz_layout(text, &r);
    fuzz_signature(text);
    free(text);
    return 0;
}
