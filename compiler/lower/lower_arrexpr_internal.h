/* Shared by lower_arrexpr.c (the fused loop nest) and lower_arrexpr_par.c
 * (the same nest split over the prange runtime): what one fused
 * whole-array expression holds while it is lowered. */
#ifndef UF_COMPILER_LOWER_ARREXPR_INTERNAL_H
#define UF_COMPILER_LOWER_ARREXPR_INTERNAL_H

#include "compiler/lower/lower.h"

#define MAXD 64
#define MAXOPS 32

/* An array the expression reads. */
typedef struct operand {
    const uf__expr *e; /* NULL: the destination (augmented assignment) */
    uf_dtype dt;
    int ndim;
    LLVMValueRef arr;
    LLVMValueRef data;      /* what the loop reads: the array or its copy */
    LLVMValueRef str[MAXD]; /* per destination axis, 0 where broadcast */
    LLVMValueRef tmp;       /* the overlap copy to free, or null */
    LLVMValueRef p;         /* in the loop: this element's address */
} operand;

#define UF__AUG_OUTPUT (-2)

typedef struct fused {
    uf__fn *F;
    uf__pos pos;
    int nd;
    uf_dtype ddt;
    LLVMValueRef ddata, shape[MAXD], dstr[MAXD], dp;
    operand ops[MAXOPS];
    int nops;
    const uf__expr *sce[MAXOPS]; /* scalars, evaluated before the loop */
    LLVMValueRef scv[MAXOPS];
    uf_dtype scd[MAXOPS];
    int nsc;
    const uf__expr *value;
    int augop; /* -1 a plain store, UF__AUG_OUTPUT a ufunc's output */
    /* uf__lower_arrexpr_elems: a call computed element by element though
     * typed as a number (np.allclose), and operands already lowered */
    const uf__expr *root;
    const uf__expr *const *pre_e;
    const LLVMValueRef *pre_v;
    int npre;
    int part; /* np.divmod's root: 0 the quotients, 1 the remainders */
} fused;

/* value into dst (dst op= value for augop >= 0). A ufunc given its
 * outputs is `root` (computed element by element though its value is an
 * array), its inputs lowered once already (pre_v), `part` the output
 * stored here. 0, or the error's code. */
int uf__arrexpr_store_into(uf__fn *F, uf__pos pos, LLVMValueRef dst,
                           const uf__type *dt, const uf__expr *value,
                           int augop, const uf__expr *root,
                           const uf__expr *const *pre_e,
                           const LLVMValueRef *pre_v, int npre, int part);

/* e into a new array of type rt (e itself computed element by element
 * when `root`); *nitems its element count. NULL with the error set. */
LLVMValueRef uf__arrexpr_new_value(uf__fn *F, const uf__expr *e,
                                   const uf__type *rt, bool root,
                                   const uf__expr *const *pre_e,
                                   const LLVMValueRef *pre_v, int npre,
                                   LLVMValueRef *nitems, int part);

/* NumPy's overlap rule (lower_arrexpr_overlap.c): operand o is copied
 * into a fresh buffer when its bytes may overlap the destination's and
 * it is not the destination itself element for element; the copies are
 * freed after the loop. */
void uf__arrexpr_copy_if_overlap(fused *z, operand *o);
void uf__arrexpr_free_copies(fused *z);

/* np.divmod(x, y) of arrays (typed by infer_arrexpr.c as a tuple of two
 * new arrays): the quotients and the remainders, each by the fused loop
 * over the operands lowered once (lower_ufunc_out.c). */
LLVMValueRef uf__lower_arrexpr_divmod(uf__fn *F, const uf__expr *e);

static inline LLVMTypeRef i64t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static inline LLVMTypeRef i8p(uf__fn *F)
{
    return LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
}

static inline LLVMValueRef c64(uf__fn *F, long long v)
{
    return LLVMConstInt(i64t(F), (unsigned long long)v, 1);
}

typedef struct nest {
    int d;
    LLVMValueRef contig; /* i1: unit strides on the innermost axis */
    bool *ok;
} nest;

/* The loop nest from axis s->d inwards over pointers p (destination
 * first, then each operand); a unit-stride innermost loop where s->contig. */
void uf__arrexpr_level(fused *z, LLVMValueRef *p, nest *s);

/* The whole nest: split along axis 0 over the prange runtime in
 * njit(parallel=True) functions when large, else uf__arrexpr_level.
 * 0, or -1 with the error set. */
int uf__arrexpr_run_nest(fused *z, LLVMValueRef *p, nest *s);

#endif
