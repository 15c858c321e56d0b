/* Type inference: a kernel specialised for concrete argument types, typed
 * with Numba's rules. The result is a side table over the shared tree. */
#ifndef UF_COMPILER_INFER_H
#define UF_COMPILER_INFER_H

#include "compiler/front/kmodule.h"
#include "compiler/front/name_map.h"

typedef struct uf__typed_func uf__typed_func;

/* What inference learned about one expression (indexed by uf__expr.id).
 * Entries of expressions outside this function stay zeroed. */
typedef struct uf__expr_info {
    const uf__type *type;   /* the expression's value */
    /* BINARY, UNARY, COMPARE (per whole chain), AUGASSIGN value: the type
     * the operands are converted to before the operation */
    const uf__type *optype;
    int var;                /* NAME of a local or argument: index in vars */
    uf__builtin builtin;    /* CALL / ATTR resolved to a builtin */
    uf_dtype cast_to;       /* builtin CAST: the target dtype */
    uf__typed_func *callee; /* CALL of a kernel of the file */
    const struct uf__extern_decl *ext; /* CALL of a cuda.declare_device */
    const uf__constant *constant; /* NAME/ATTR that folds to a constant */
    const struct uf__garray *garray; /* NAME of a module-level array */
    const struct uf__global *gtuple; /* NAME of a module-level tuple */
    /* Branch pruning (infer_prune.c), as Numba's dead_branch_prune: on
     * the condition of an if/while, the test of a conditional expression
     * and each operand of and/or, 1 when the branch there always goes the
     * true way, -1 never, 0 decided at run time. The way not taken is
     * neither typed nor lowered. `truth_end`: a while condition at the end
     * of the body (Python 3.11 tests it there again; `truth` is the test
     * on entry and after continue). */
    signed char truth, truth_end;
} uf__expr_info;

typedef struct uf__var {
    const char *name;
    const uf__type *type; /* unified over every assignment */
    int arg;              /* argument index, or -1 for a local */
    bool join;            /* a join of definitions (Numba's phi): assigned
                             by the feeds of compiler/types/ssa_joins.c */
} uf__var;

struct uf__typed_func {
    const uf__kmodule *km;
    const uf__kernel_decl *decl;
    const uf__type *const *args;
    int nargs;
    const uf__type *ret; /* after casting to the declared return type */
    uf__var *vars;
    int nvars;
    uf__name_map var_index; /* name -> index in vars */
    /* per expression of the function: ids first_id .. first_id + nids - 1
     * (the def's, ast.h); read it through uf__tf_info */
    uf__expr_info *info;
    int first_id, nids;
    /* Ufunc kernels follow NumPy's error model (x/0 -> inf/nan, int
     * division by zero -> 0); njit functions raise ZeroDivisionError. */
    bool numpy_error_model;
    const char *symbol; /* unique LLVM name of this specialisation */
    /* A cache of lowering's (compiler/lower/lower_fallible.c): 0 not yet
     * known, 1 fallible, -1 not. Without it a chain of kernels each
     * calling the next twice was scanned 2^n times. */
    signed char fallible_memo;
};

/* The info entry of e, an expression of tf's function. One past the
 * function's entries is a zeroed entry for any other expression: what
 * typing knows about expressions outside the function (nothing). */
static inline uf__expr_info *uf__tf_info(const uf__typed_func *tf,
                                         const uf__expr *e)
{
    unsigned k = (unsigned)(e->id - tf->first_id);
    return &tf->info[k < (unsigned)tf->nids ? (int)k : tf->nids];
}

/* The index in tf->vars of local or argument `name`, or -1. */
static inline int uf__typed_var(const uf__typed_func *tf, const char *name)
{
    return uf__name_map_get(&tf->var_index, name);
}

/* Types `decl` for `args`. `ret`, when not NULL, is the declared return
 * type: the inferred one must convert to it (Numba casts the returned
 * value). Callees are specialised on demand and reused from km->typed.
 * Errors: UF_ERR_TYPING with file:line:col and caret, e.g.
 * "Cannot unify float32 and int64 for 'x' (lines 3 and 5)";
 * UF_ERR_UNSUPPORTED for constructs outside the kernel language. */
uf__typed_func *uf__infer(uf__kmodule *km, const uf__kernel_decl *decl,
                          const uf__type *const *args, int nargs,
                          const uf__type *ret, uf_error *err);

/* Whether control can leave statement `s` (block `b`) at its end, with
 * pruned branches never taken: false after return/break/continue, an if
 * whose live branches all end so, a while whose condition stays true
 * without a break. What follows such a statement is dead code, neither
 * typed nor lowered (CPython does not even compile it). */
bool uf__stmt_falls_through(const uf__typed_func *tf, const uf__stmt *s);
bool uf__block_falls_through(const uf__typed_func *tf, const uf__block *b);
/* Whether the else block of a while loop can run (its condition can turn
 * false). */
bool uf__while_else_live(const uf__typed_func *tf, const uf__stmt *s);

/* A condition decided by branch pruning is still typed and evaluated
 * where parts of it run: the tests of and/or and conditional expressions
 * inside it (each a branch of its own); a constant test alone is not
 * (Numba replaces it by its value). */
static inline bool uf__cond_runs(const uf__expr *e)
{
    while (e->kind == UF__EX_UNARY && e->u.unary.op == UF__OP_NOT)
        e = e->u.unary.operand;
    return e->kind == UF__EX_BOOLOP || e->kind == UF__EX_IFEXP;
}

/* The kernel's source with each variable's type, like Numba's
 * inspect_types (for `ufjit inspect --types`); free with uf__free. */
char *uf__typed_func_dump(const uf__typed_func *tf, uf_error *err);

#endif
