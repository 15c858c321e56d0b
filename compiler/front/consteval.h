/* Folding of module-level constant expressions (SQRT_2PI =
 * float32((2 * math.pi) ** 0.5)) with the semantics the expression has when
 * Python imports the file: Python numbers, NumPy scalars with NumPy 2's
 * promotion (NEP 50: Python scalars are "weak"), the math module. The
 * result is typed as Numba types the global: int -> int64, float ->
 * float64, numpy.float32 -> float32. */
#ifndef UF_COMPILER_CONSTEVAL_H
#define UF_COMPILER_CONSTEVAL_H

#include <stdbool.h>

#include "compiler/front/kmodule.h"

/* A folded value: the constant and whether it is a Python bool/int/float/
 * complex (weak under NEP 50) rather than a NumPy scalar. */
typedef struct uf__cval {
    uf__constant c;
    bool weak;
} uf__cval;

/* What the folder sees of the module: the globals bound so far (modules,
 * dtypes, builtins, earlier constants) and, per global, whether a
 * constant is weak. */
typedef struct uf__const_env {
    const uf__kmodule *km;
    const bool *weak; /* km->nglobals entries */
} uf__const_env;

/* Folds `e`. Errors (UF_ERR_UNSUPPORTED for what is not a constant
 * expression, UF_ERR_VALUE for Python's ZeroDivisionError, OverflowError,
 * ValueError) point into km->src at the offending sub-expression. */
int uf__consteval(const uf__const_env *env, const uf__expr *e, uf__cval *out,
                  uf_error *err);

/* Python's `a OP b` and `a CMP b` on folded values, for branch pruning
 * (infer_prune.c), with uf__consteval's semantics and errors (`at` is
 * where they point). `env->weak` is not read. */
int uf__consteval_binop(const uf__const_env *env, const uf__expr *at,
                        uf__binop op, const uf__cval *a, const uf__cval *b,
                        uf__cval *out, uf_error *err);
int uf__consteval_compare(const uf__const_env *env, const uf__expr *at,
                          uf__cmpop op, const uf__cval *a, const uf__cval *b,
                          bool *out, uf_error *err);
/* Python's bool(v). */
bool uf__consteval_truth(const uf__cval *v);

/* The value of module attributes such as math.pi, numpy.inf, cmath.tau
 * ("math", "pi"): true and *out set when known. */
bool uf__const_module_attr(uf__typectx *tc, const char *module,
                           const char *attr, uf__constant *out);

/* A dtype named by a module attribute or a `from numba import` name:
 * ("numpy", "float32"), ("numba", "f4"), ("numba.types", "int64").
 * False when `name` is not a dtype of that module. */
bool uf__const_dtype_name(const char *module, const char *name,
                          uf_dtype *out);

#endif
