/* Type inference: a kernel specialised for concrete argument types, typed
 * with Numba's rules. The result is a side table over the shared tree. */
#ifndef UF_COMPILER_INFER_H
#define UF_COMPILER_INFER_H

#include "compiler/kmodule.h"

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
    const uf__constant *constant; /* NAME/ATTR that folds to a constant */
} uf__expr_info;

typedef struct uf__var {
    const char *name;
    const uf__type *type; /* unified over every assignment */
    int arg;              /* argument index, or -1 for a local */
} uf__var;

struct uf__typed_func {
    const uf__kmodule *km;
    const uf__kernel_decl *decl;
    const uf__type *const *args;
    int nargs;
    const uf__type *ret; /* after casting to the declared return type */
    uf__var *vars;
    int nvars;
    uf__expr_info *info; /* km->ast->nexprs entries */
    /* Ufunc kernels follow NumPy's error model (x/0 -> inf/nan, int
     * division by zero -> 0); njit functions raise ZeroDivisionError. */
    bool numpy_error_model;
    const char *symbol; /* unique LLVM name of this specialisation */
};

/* Types `decl` for `args`. `ret`, when not NULL, is the declared return
 * type: the inferred one must convert to it (Numba casts the returned
 * value). Callees are specialised on demand and reused from km->typed.
 * Errors: UF_ERR_TYPING with file:line:col and caret, e.g.
 * "Cannot unify float32 and int64 for 'x' (lines 3 and 5)";
 * UF_ERR_UNSUPPORTED for constructs outside the kernel language. */
uf__typed_func *uf__infer(uf__kmodule *km, const uf__kernel_decl *decl,
                          const uf__type *const *args, int nargs,
                          const uf__type *ret, uf_error *err);

/* The kernel's source with each variable's type, like Numba's
 * inspect_types (for `ufjit inspect --types`); free with uf__free. */
char *uf__typed_func_dump(const uf__typed_func *tf, uf_error *err);

#endif
