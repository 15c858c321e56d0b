/* Kernel-language types with Numba's rules, interned in a table so that
 * two equal types are the same pointer. */
#ifndef UF_COMPILER_TYPES_H
#define UF_COMPILER_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <ufjit/dtype.h>

#include "compiler/front/arena.h"

typedef enum uf__type_kind {
    UF__T_SCALAR,   /* bool, ints, floats, complex: `dtype` */
    UF__T_TUPLE,    /* `n` elements in `elts` (homogeneous or not) */
    UF__T_ARRAY,    /* `dtype`, `ndim`, `layout` */
    UF__T_NONE,     /* None, and the return type of void functions */
    UF__T_RANGE,    /* the value of range(...) in a for loop */
    UF__T_MODULE,   /* an imported module (math, numpy, cmath, numba) */
    UF__T_FUNCTION, /* a callable: builtin or a kernel of the file */
    UF__T_DTYPE,    /* a type used as a value: float32 in float32(x) */
    UF__T_LIST,     /* Numba's list(T): element type elts[0] (n 1), or
                       n 0 for list(undefined), the type of `[]` until an
                       append refines it (infer_list.c) */
    UF__T_DICT,     /* Numba's DictType[K, V]: key elts[0], value elts[1]
                       (n 2), or n 0 for DictType[undefined,undefined],
                       `{}` until a store refines it (infer_dict.c);
                       `layout` 'k'/'v'/'i' for d.keys()/values()/items()
                       (a loop's iterable), 0 for the dict itself */
    UF__T_FLATITER, /* a.flat of an F or strided N-d array: the array's
                       `dtype`, `ndim`, `layout`, `readonly` (its value is
                       the array; indexed and counted in C order) */
    UF__T_SET,      /* Numba's set(T) of numbers: key type elts[0] (n 1),
                       or n 0 for set(undefined), the type of set() until
                       an add refines it (infer_set.c, lower_set.c) */
    UF__T_STR,      /* Numba's Literal[str]: a string known at compile time,
                       its characters in `name` (`n` bytes, UTF-8); it has
                       no run-time value (infer_str.c, lower_str.c) */
    UF__T_USTR      /* Numba's unicode_type: a string known at run time,
                       a pointer to a common/ustr.h block (infer_ustr.c,
                       lower_ustr.c) */
} uf__type_kind;

typedef struct uf__type uf__type;

struct uf__type {
    uf__type_kind kind;
    uf_dtype dtype; /* SCALAR, ARRAY, DTYPE */
    int ndim;       /* ARRAY */
    char layout;    /* ARRAY: 'C', 'F' or 'A' (any strides) */
    bool readonly;  /* ARRAY: Numba's readonly array (a module-level array
                       frozen into the code, and views of it) */
    bool dtype_obj; /* DTYPE: Numba's dtype(X), the value of a.dtype or
                       np.dtype('f4'), rather than class(X), np.float32 */
    int n;          /* TUPLE */
    const uf__type *const *elts; /* TUPLE */
    const char *name; /* MODULE ("math"), FUNCTION ("math.sin", "helper") */
};

/* Owns every type it hands out. */
typedef struct uf__typectx uf__typectx;

uf__typectx *uf__typectx_new(uf_error *err);
void uf__typectx_free(uf__typectx *tc);

const uf__type *uf__type_scalar(uf__typectx *tc, uf_dtype dtype);
const uf__type *uf__type_none(uf__typectx *tc);
const uf__type *uf__type_range(uf__typectx *tc);
const uf__type *uf__type_tuple(uf__typectx *tc, int n,
                               const uf__type *const *elts, uf_error *err);
const uf__type *uf__type_array(uf__typectx *tc, uf_dtype dtype, int ndim,
                               char layout, uf_error *err);
/* The same with Numba's mutability: a readonly array refuses stores
 * (infer.c), converts to a mutable one never and from one safely, and
 * unifies with one to readonly. */
const uf__type *uf__type_array_ro(uf__typectx *tc, uf_dtype dtype, int ndim,
                                  char layout, bool readonly, uf_error *err);
const uf__type *uf__type_module(uf__typectx *tc, const char *name,
                                uf_error *err);
const uf__type *uf__type_function(uf__typectx *tc, const char *name,
                                  uf_error *err);
const uf__type *uf__type_dtype(uf__typectx *tc, uf_dtype dtype);
/* Numba's dtype(X) (uf__type.dtype_obj): a.dtype, np.dtype('f4'). */
const uf__type *uf__type_dtype_obj(uf__typectx *tc, uf_dtype dtype);
/* Numba's list of `elt` (NULL: list(undefined), `[]` not yet appended
 * to), spelled "list(int64)<iv=None>"; its value is a pointer to a
 * header block (compiler/lower/lower_list.c). */
const uf__type *uf__type_list(uf__typectx *tc, const uf__type *elt,
                              uf_error *err);
/* Numba's DictType[key, val] (both NULL: undefined, `{}` not yet
 * stored into), or with view 'k', 'v', 'i' the iterable of d.keys(),
 * d.values(), d.items() (0: the dict); its value is a pointer to a
 * header block (compiler/lower/lower_dict.c). */
const uf__type *uf__type_dict(uf__typectx *tc, const uf__type *key,
                              const uf__type *val, char view, uf_error *err);
/* Numba's set(key) (NULL: set(undefined), set() not yet added to);
 * its value is a pointer to a header block (compiler/lower/
 * lower_set.c). */
const uf__type *uf__type_set(uf__typectx *tc, const uf__type *key,
                             uf_error *err);
/* How deep lists and dicts nest in t: list(T) and DictType[K, T] count
 * one more than T, anything else 0 (the runtime describes at most
 * common/list_items.h's UF__LIST_NEST_MAX levels). */
int uf__type_nest_depth(const uf__type *t);
/* a.flat of array type `arr` where no 1-D view has its order (Numba's
 * NumpyFlatType, spelled "array.flat(array(float64, 2d, F))"). */
const uf__type *uf__type_flatiter(uf__typectx *tc, const uf__type *arr,
                                  uf_error *err);

/* Numba's Literal[str](s): the string s (`len` bytes) known at compile
 * time, one type per value as Numba's literal dispatch specialises
 * callees per value; spelled "Literal[str](abc)". */
const uf__type *uf__type_strlit(uf__typectx *tc, const char *s, size_t len,
                                uf_error *err);

/* Numba's unicode_type, a string made at run time (infer_ustr.c). */
const uf__type *uf__type_ustr(uf__typectx *tc);

/* Numba's unification at control-flow joins and loop back edges: numbers
 * unify to the type both convert to safely under Numba's rules (int32 and
 * float32 -> float64; int64 and uint64 -> float64), tuples element-wise,
 * arrays of the same dtype/ndim to the weaker layout. NULL when they do
 * not unify (the caller reports "Cannot unify X and Y for 'v'"). */
const uf__type *uf__type_unify(uf__typectx *tc, const uf__type *a,
                               const uf__type *b);

/* The type Numba gives a binary arithmetic operation on two numbers
 * (operands are converted to it first): int32 + int32 -> int64 ... as
 * Numba's integer typing rules; true division of ints -> float64. Exposed
 * for the inference, which knows the operator. */
const uf__type *uf__type_arith(uf__typectx *tc, const uf__type *a,
                               const uf__type *b);

/* ---- added by the types engineer (additive) ---------------------------
 * The most elements a tuple type may have (uf__type_tuple refuses more),
 * so that unification needs no allocation besides the interned result. */
#define UF__TUPLE_MAX 256

/* True once an allocation inside the context failed: a NULL from
 * uf__type_unify (which takes no uf_error) may then be out of memory. */
bool uf__typectx_oom(const uf__typectx *tc);

/* Numba's conversion kinds between two types (numba.core.typeconv), from
 * strictest to loosest; UF__CONV_NONE when there is no conversion. */
typedef enum uf__conversion {
    UF__CONV_EXACT = 1,
    UF__CONV_PROMOTE = 2, /* same kind, wider: int32 -> int64 */
    UF__CONV_SAFE = 3,    /* no information lost: int32 -> float64 */
    UF__CONV_UNSAFE = 4,  /* may lose information: int64 -> int32 */
    UF__CONV_NONE = 99
} uf__conversion;

uf__conversion uf__type_conversion(const uf__type *from, const uf__type *to);

/* Numba's overload choice (typing context's resolve_overload) among
 * `ncases` candidate argument lists of `nargs` dtypes each (row-major in
 * `cases`): the index of the best case (fewest unsafe, then safe, then
 * promoting conversions; the first on a tie), or -1 when none accepts the
 * arguments. `allow_unsafe` false refuses unsafe conversions. For typing
 * calls of builtins (math.sin(int32) -> the float64 case) like Numba. */
int uf__type_pick_overload(const uf__type *const *args, int nargs,
                           const uf_dtype *cases, int ncases,
                           bool allow_unsafe);

/* Numba's typing of `a op b` on two scalars, op a uf__binop (compiler/
 * ast.h). Returns the result type, or NULL when Numba refuses the pair
 * (bitwise ops on floats, % or // on complex, @). *optype (may be NULL)
 * gets the type both operands are converted to before the operation: the
 * argument type of Numba's chosen signature, or the result type when that
 * signature mixes argument types (Numba's lowering then casts both
 * operands to the result: uint64 + int64 computes in int64, uint64 /
 * int64 in float64, int8 << int64 in int64; int32 / int32 converts to
 * int64, Numba's (int64, int64) -> float64 case). One exception: `**`
 * with a float base and an integer exponent gives the base's type and
 * the exponent stays an integer (Numba multiplies by repeated squaring). */
const uf__type *uf__type_binop(uf__typectx *tc, int op, const uf__type *a,
                               const uf__type *b, const uf__type **optype);

/* Numba's typing of a comparison, op a uf__cmpop (==, !=, <, <=, >, >=):
 * bool, or NULL when refused (ordering complex numbers). *optype (may be
 * NULL) gets the type both operands are converted to (uint64 < int64
 * compares as float64). */
const uf__type *uf__type_compare(uf__typectx *tc, int op, const uf__type *a,
                                 const uf__type *b, const uf__type **optype);

/* Numba's typing of a unary operator, op a uf__unop (-, +, not, ~), and of
 * abs(x). *optype (may be NULL) gets the argument type of Numba's chosen
 * signature, which for unary ops is the operand's own type: Numba negates
 * and inverts integers in that type and only then widens to the result
 * (-uint8(1) is 255 as uint64, -int8(-128) is -128), while a bool is
 * widened first (-True is -1 as int64, +True is 1; ~True is False). abs
 * of a bool is int8, of a complex its float type. NULL when refused (~ on
 * a float or complex). */
const uf__type *uf__type_unary(uf__typectx *tc, int op, const uf__type *a,
                               const uf__type **optype);
const uf__type *uf__type_abs(uf__typectx *tc, const uf__type *a,
                             const uf__type **optype);

/* Numba's spelling: "float64", "int32", "complex128", "bool",
 * "UniTuple(float64 x 2)", "Tuple(int64, float32)",
 * "array(float64, 2d, C)", "none". Returns snprintf's count. */
int uf__type_str(const uf__type *t, char *buf, size_t size);

bool uf__type_is_number(const uf__type *t); /* scalar, bool included */
/* Python's float, int, bool, complex: functions a variable, a tuple or
 * an argument may hold as Numba lets them (d = float; d(x)). */
bool uf__type_is_pyclass(const uf__type *t);
bool uf__type_is_int(const uf__type *t);    /* signed/unsigned ints */
bool uf__type_is_float(const uf__type *t);
bool uf__type_is_complex(const uf__type *t);

/* A parsed Numba signature string. */
typedef struct uf__signature {
    const uf__type *ret; /* NULL when the string gave none ("(f8, f8)") */
    const uf__type **args;
    int nargs;
} uf__signature;

/* Parses Numba's signature syntax: "float32(float32, float32)",
 * "void(float64[:,:], float64[:], float64[:])", "f8(i4)",
 * "UniTuple(float64, 2)(float64)", "(float64[:], int64)", the arguments
 * alone as guvectorize takes them ("int32[:], int32, int32[:]"), types such as
 * float64[::1] (C), float64[:, ::1] (C), float64[::1, :] (F),
 * float64[:, :] (A). Errors point at the character in the string. */
int uf__parse_signature(uf__typectx *tc, uf__arena *arena, const char *text,
                        uf__signature *out, uf_error *err);
/* One type (also used for casts written in signatures). */
int uf__parse_type(uf__typectx *tc, const char *text, const uf__type **out,
                   uf_error *err);

#endif
