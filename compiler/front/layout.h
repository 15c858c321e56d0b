/* guvectorize layouts: NumPy's generalized-ufunc signature grammar
 * ("(m,n),(n)->(m)") parsed once per kernel (layout.c), and the per-call
 * resolution of core dimensions, loop dimensions and output shapes,
 * including axes=/axis=/keepdims (core_dims.c).
 *
 * Grammar (NumPy's, whitespace allowed between tokens):
 *   layout   := args '->' args
 *   args     := arg (',' arg)*           (inputs may be empty: "->(n)")
 *   arg      := '(' [dim (',' dim)*] ')'
 *   dim      := (NAME | SIZE) ['?']      NAME an identifier, SIZE > 0
 * A '?' dimension is flexible: when an operand lacks it, it is removed from
 * every operand (matmul's "(m?,n),(n,p?)->(m?,p?)"). Output-only names are
 * allowed, as NumPy allows them; they must then be bound by a given output
 * at call time. */
#ifndef UF_GUFUNC_LAYOUT_H
#define UF_GUFUNC_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include <ufjit/array.h>
#include <ufjit/error.h>

/* One distinct core dimension of a layout. */
typedef struct uf__gufunc_dim {
    int name_pos;    /* where its first use starts in the layout text */
    int name_len;    /* length of the name or number, without '?' */
    int64_t size;    /* fixed size, or -1 for a named dimension */
    bool flexible;   /* written with '?' */
    bool in_input;   /* appears in at least one input */
} uf__gufunc_dim;

typedef struct uf__gufunc_layout {
    char *text;          /* the layout exactly as written */
    int nin, nout;
    int nargs;           /* nin + nout */
    int ndims;           /* distinct core dimensions */
    uf__gufunc_dim *dims;
    int *core_ndim;      /* [nargs] core dimensions of each operand */
    int *core_offset;    /* [nargs] start of each operand's run in dim_ix */
    int *dim_ix;         /* [sum core_ndim] index into dims */
} uf__gufunc_layout;

/* Parses `text`. With nin, nout >= 0 the arity is fixed and the parse and
 * its error messages are exactly NumPy's _parse_signature; with nin = nout
 * = -1 the arity is read from the text ('->' separates inputs from
 * outputs, at least one output). Errors are UF_ERR_SYNTAX with NumPy's
 * message form: `expect ')' at position 5 in "(m,n"`. Returns NULL on
 * failure. */
uf__gufunc_layout *uf__gufunc_layout_parse(const char *text, int nin,
                                           int nout, uf_error *err);
void uf__gufunc_layout_free(uf__gufunc_layout *layout);

/* The kernel has nin inputs and nout outputs (nout < 0: only the total
 * nin + |layout outputs| is known, as for a Numba kernel whose outputs are
 * its trailing arguments): UF_ERR_VALUE naming both counts otherwise. */
int uf__gufunc_layout_check_arity(const uf__gufunc_layout *layout, int nin,
                                  int nout, uf_error *err);

/* Argument `arg` of the kernel signature has `ndim` dimensions (-1: a plain
 * scalar type, allowed only for a "()" operand). UF_ERR_TYPE with Numba's
 * "type and shape signature mismatch for arg #N" otherwise. */
int uf__gufunc_layout_check_arg(const uf__gufunc_layout *layout, int arg,
                                int ndim, uf_error *err);

/* Writes the name of dimension `ix` ("n", "3") into buf. */
const char *uf__gufunc_dim_name(const uf__gufunc_layout *layout, int ix,
                                char *buf, size_t size);

/* ---- resolution for one call (core_dims.c) ------------------------------ */

/* One operand's shape; ndim -1 for an output the caller did not give. */
typedef struct uf__gufunc_shape {
    int ndim;
    const int64_t *shape;
} uf__gufunc_shape;

/* NumPy's axes=, axis= and keepdims= of a gufunc call. Zero-initialised
 * means none given, except keepdims: set it to -1 when not given. */
typedef struct uf__gufunc_axes {
    /* axes=: naxes_ops entries (nargs, or nin when no output has core
     * dimensions), entry i listing naxes[i] axes, negative ones counting
     * from the end. naxes_ops 0: axes= not given. */
    int naxes_ops;
    const int *naxes;
    const int *const *axes;
    bool has_axis;
    int axis;
    int keepdims;        /* -1 not given, 0 false, 1 true */
} uf__gufunc_axes;

/* What the call looks like once resolved, per operand. */
typedef struct uf__gufunc_operand {
    int ndim;                       /* the array's (for an absent output: of
                                       the array to allocate) */
    int64_t shape[UF_MAXDIMS];      /* the array's shape, in its own axis
                                       order: allocate absent outputs so */
    int perm[UF_MAXDIMS];           /* uf_array_transpose(a, perm) puts the
                                       loop dimensions first, then the core
                                       dimensions in layout order */
    bool permuted;                  /* perm is not the identity */
    int core_ndim;                  /* trailing core axes of the permuted
                                       view (flexible missing ones removed;
                                       for keepdims outputs, the kept
                                       length-1 axes) */
    int kept_ndim;                  /* keepdims outputs: core_ndim length-1
                                       axes the kernel does not see */
} uf__gufunc_operand;

/* Operands and core dimensions a resolution keeps in itself: a call of a
 * gufunc with no more than these allocates nothing to resolve. */
#define UF__GUFUNC_RES_INLINE 4

typedef struct uf__gufunc_resolution {
    int nargs;
    int loop_ndim;                  /* broadcast of the non-core dimensions */
    int64_t loop_shape[UF_MAXDIMS];
    int64_t *dim_size;              /* [layout ndims] bound size; 1 for a
                                       flexible dimension that is missing */
    bool *dim_missing;              /* [layout ndims] flexible and removed */
    int *dim_bound_by;              /* [layout ndims] operand that bound the
                                       size; -1 fixed by the layout or
                                       missing */
    uf__gufunc_operand *ops;        /* [nargs] */
    struct {                        /* the arrays above when they fit; a
                                       resolution is never copied */
        uf__gufunc_operand ops[UF__GUFUNC_RES_INLINE];
        int64_t dim_size[UF__GUFUNC_RES_INLINE];
        bool dim_missing[UF__GUFUNC_RES_INLINE];
        int dim_bound_by[UF__GUFUNC_RES_INLINE];
    } local;
} uf__gufunc_resolution;

/* Resolves one call: binds core dimensions from the operands' trailing (or
 * axes-selected) dimensions, removes missing flexible ones, broadcasts the
 * loop dimensions, computes the outputs' shapes and checks given outputs.
 * `name` prefixes messages as NumPy's ufunc name does ("matmul: Input
 * operand 1 has a mismatch ..."). `axes` may be NULL. Errors: UF_ERR_SHAPE
 * (mismatch, too few dimensions, broadcasting), UF_ERR_VALUE (unbound output
 * dimension, bad axes lists), UF_ERR_INDEX (axis out of bounds),
 * UF_ERR_INVALID (axis/keepdims not supported by the layout, bad
 * arguments). On success free `res` with uf__gufunc_resolution_free. */
int uf__gufunc_resolve(const uf__gufunc_layout *layout, const char *name,
                       const uf__gufunc_shape *shapes,
                       const uf__gufunc_axes *axes,
                       uf__gufunc_resolution *res, uf_error *err);
void uf__gufunc_resolution_free(uf__gufunc_resolution *res);

#endif
