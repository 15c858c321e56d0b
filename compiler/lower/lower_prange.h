/* What lower_prange.c shares with lower_prange_array.c: the reductions of
 * a prange loop, and the code of array reductions (`s += a[i, :]` with s
 * an array: each block reduces into its own partial array, the caller
 * combines them into s in block order). */
#ifndef UF_COMPILER_LOWER_PRANGE_H
#define UF_COMPILER_LOWER_PRANGE_H

#include "compiler/lower/lower.h"

typedef enum red_op {
    RED_NONE, RED_ADD, RED_MUL, RED_MIN, RED_MAX,
    RED_DIV /* s /= e: blocks start at 1, partials are multiplied (Numba) */
} red_op;

typedef struct reduction {
    int var;   /* the version carried between iterations (the loop's join) */
    red_op op;
    uf_dtype dt;
    LLVMValueRef partials; /* scalars: the caller's [MAX_BLOCKS x T] */
    int field;             /* its pointer's field in ctx (arrays: i8*) */
    /* arrays */
    const uf__type *type;  /* NULL for a scalar */
    bool rebinds;          /* some s = s op e (a new array each time) */
    LLVMValueRef items;    /* caller: s.size */
    LLVMValueRef buf;      /* caller: i8** slot of the partials */
    LLVMValueRef result;   /* caller: the array combined into */
    LLVMValueRef row;      /* body: i8** slot of this block's partial */
} reduction;

/* Checks an array reduction's operator and type: 0, or the error (at
 * pos) Numba gives or ufjit's refusal. */
int uf__prange_array_check(uf__fn *F, uf__pos pos, const char *name,
                           size_t n, red_op op, const uf__type *t,
                           bool rebinds);
/* Caller, before the loop: each array reduction's size and the array the
 * partials are combined into (s itself for `s += e`, a new copy of s for
 * `s = s + e`); returns the most blocks the partials may take (i64), or
 * NULL with F->err set. */
LLVMValueRef uf__prange_array_prepare(uf__fn *F, reduction *R, int nred);
/* Caller: the partials of nb blocks; an i1, false when out of memory. */
LLVMValueRef uf__prange_array_alloc(uf__fn *F, reduction *R, int nred,
                                    LLVMValueRef nb);
/* Body: the block's partial, a view of row `block` of buf with init's
 * shape. */
LLVMValueRef uf__prange_array_partial(uf__fn *G, reduction *r,
                                      LLVMValueRef init, LLVMValueRef buf,
                                      LLVMValueRef block);
/* Body, at the end of a block: s stored into the partial when it was
 * rebound; the status (i32). */
LLVMValueRef uf__prange_array_store(uf__fn *G, const reduction *r,
                                    LLVMValueRef s);
/* Caller: the partials combined in block order (when status is 0) and
 * freed; the carried variable set to the result. */
void uf__prange_array_finish(uf__fn *F, reduction *R, int nred,
                             LLVMValueRef nb, LLVMValueRef status);

#endif
