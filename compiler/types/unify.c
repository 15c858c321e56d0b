/* Numba's typing rules for numbers: the conversion lattice of
 * numba.core.typeconv.rules, unification at joins, and the operator
 * templates of numba.core.typing.builtins resolved the way Numba's typing
 * context resolves overloads. The templates are short candidate lists;
 * the answers come out of the same ranking Numba applies, so that the
 * tables generated from Numba (tests/data/numba_typing.txt) are checked
 * against rules rather than copied. */
#include "compiler/types/types.h"

#include <pthread.h>
#include <string.h>

#include "compiler/front/ast.h"

/* ---- conversions ------------------------------------------------------ */

/* float16 takes part in Numba's graph (int8 -> float16 -> float32), so it
 * is a node here even though the kernel language has no such type. */
enum { F16 = UF_NTYPES, NNODES };

/* One rule of numba/core/typeconv/rules.py: a -> b and back. */
typedef struct conv_rule {
    int a, b;
    uf__conversion ab, ba;
} conv_rule;

#define P UF__CONV_PROMOTE
#define S UF__CONV_SAFE
#define U UF__CONV_UNSAFE
#define N UF__CONV_NONE
static const conv_rule conv_rules[] = {
    {UF_BOOL, UF_INT8, S, U},         {UF_BOOL, UF_UINT8, S, U},
    {UF_INT8, UF_INT16, P, U},        {UF_UINT8, UF_UINT16, P, U},
    {UF_INT16, UF_INT32, P, U},       {UF_UINT16, UF_UINT32, P, U},
    {UF_INT32, UF_INT64, P, U},       {UF_UINT32, UF_UINT64, P, U},
    {UF_UINT8, UF_INT16, S, U},       {UF_UINT16, UF_INT32, S, U},
    {UF_UINT32, UF_INT64, S, U},      {UF_INT8, F16, S, U},
    {UF_INT16, UF_FLOAT32, S, U},     {UF_INT32, UF_FLOAT64, S, U},
    {UF_INT16, F16, U, U},            {UF_INT32, UF_FLOAT32, U, U},
    /* Numba: "we want to prefer float64 over int64" for int64 + float64 */
    {UF_INT64, UF_FLOAT64, S, U},     {UF_UINT64, UF_FLOAT64, S, U},
    {F16, UF_FLOAT32, P, U},          {UF_FLOAT32, UF_FLOAT64, P, U},
    {UF_FLOAT32, UF_COMPLEX64, S, N}, {UF_FLOAT64, UF_COMPLEX128, S, N},
    {UF_COMPLEX64, UF_COMPLEX128, P, U},
};
#undef P
#undef S
#undef U
#undef N

static uf__conversion conv_max(uf__conversion x, uf__conversion y)
{
    return x > y ? x : y;
}

/* Numba propagates rules transitively: a path converts with the loosest
 * kind on it, and of all paths the strictest wins. The closure is computed
 * once per process (Floyd-Warshall over 14 nodes) and never changes. */
static unsigned char conv_table[NNODES][NNODES];
static pthread_once_t conv_once = PTHREAD_ONCE_INIT;

static void conv_init(void)
{
    for (int i = 0; i < NNODES; i++)
        for (int j = 0; j < NNODES; j++)
            conv_table[i][j] = i == j ? UF__CONV_EXACT : UF__CONV_NONE;
    for (size_t r = 0; r < sizeof conv_rules / sizeof conv_rules[0]; r++) {
        const conv_rule *c = &conv_rules[r];
        conv_table[c->a][c->b] = (unsigned char)c->ab;
        conv_table[c->b][c->a] = (unsigned char)c->ba;
    }
    for (int k = 0; k < NNODES; k++)
        for (int i = 0; i < NNODES; i++)
            for (int j = 0; j < NNODES; j++) {
                if (i == j)
                    continue;
                unsigned char via = conv_table[i][k] > conv_table[k][j]
                                        ? conv_table[i][k]
                                        : conv_table[k][j];
                if (via < conv_table[i][j])
                    conv_table[i][j] = via;
            }
}

static uf__conversion scalar_conversion(uf_dtype from, uf_dtype to)
{
    pthread_once(&conv_once, conv_init);
    return (uf__conversion)conv_table[from][to];
}

uf__conversion uf__type_conversion(const uf__type *from, const uf__type *to)
{
    if (!from || !to)
        return UF__CONV_NONE;
    if (from == to)
        return UF__CONV_EXACT;
    if (from->kind == UF__T_SCALAR && to->kind == UF__T_SCALAR)
        return scalar_conversion(from->dtype, to->dtype);
    if (from->kind == UF__T_STR && to->kind == UF__T_USTR)
        return UF__CONV_SAFE; /* a literal made a run-time string */
    if (from->kind == UF__T_TUPLE && to->kind == UF__T_TUPLE) {
        /* BaseTuple.can_convert_to: element-wise, the loosest wins. */
        if (from->n != to->n)
            return UF__CONV_NONE;
        if (from->n == 0)
            return UF__CONV_SAFE;
        uf__conversion k = UF__CONV_EXACT;
        for (int i = 0; i < from->n; i++) {
            uf__conversion e = uf__type_conversion(from->elts[i], to->elts[i]);
            if (e == UF__CONV_NONE)
                return UF__CONV_NONE;
            k = conv_max(k, e);
        }
        return k;
    }
    if (from->kind == UF__T_ARRAY && to->kind == UF__T_ARRAY) {
        /* Array.can_convert_to: any layout may be viewed as 'A'; a
         * readonly array never becomes a mutable one. */
        if (from->dtype == to->dtype && from->ndim == to->ndim &&
            (to->layout == 'A' || to->layout == from->layout) &&
            (to->readonly || !from->readonly))
            return UF__CONV_SAFE;
        return UF__CONV_NONE;
    }
    return UF__CONV_NONE;
}

/* ---- unification ------------------------------------------------------ */

const uf__type *uf__type_unify(uf__typectx *tc, const uf__type *a,
                               const uf__type *b)
{
    if (!a || !b)
        return NULL;
    if (a == b)
        return a;
    /* Number.unify is np.promote_types: int64 and uint64 give float64. */
    if (a->kind == UF__T_SCALAR && b->kind == UF__T_SCALAR)
        return uf__type_scalar(tc, uf_promote_types(a->dtype, b->dtype));
    if (a->kind == UF__T_TUPLE && b->kind == UF__T_TUPLE) {
        if (a->n != b->n)
            return NULL;
        const uf__type *elts[UF__TUPLE_MAX];
        for (int i = 0; i < a->n; i++) {
            elts[i] = uf__type_unify(tc, a->elts[i], b->elts[i]);
            if (!elts[i])
                return NULL;
        }
        return uf__type_tuple(tc, a->n, elts, NULL);
    }
    if (a->kind == UF__T_ARRAY && b->kind == UF__T_ARRAY) {
        if (a->dtype != b->dtype || a->ndim != b->ndim)
            return NULL;
        char layout = a->layout == b->layout ? a->layout : 'A';
        return uf__type_array_ro(tc, a->dtype, a->ndim, layout,
                                 a->readonly || b->readonly, NULL);
    }
    if ((a->kind == UF__T_STR || a->kind == UF__T_USTR) &&
        (b->kind == UF__T_STR || b->kind == UF__T_USTR))
        return uf__type_ustr(tc); /* two strings: unicode_type (ustr.h) */
    if (a->kind == UF__T_LIST && b->kind == UF__T_LIST) {
        /* list(undefined) takes the other's element type (the refinement
         * of `l = []`), two element types unify (Numba's List.unify: `l =
         * [int32(1)]; l.append(2.5)` makes l a list(float64)) */
        if (a->n == 0 || b->n == 0)
            return a->n == 0 ? b : a;
        const uf__type *e = uf__type_unify(tc, a->elts[0], b->elts[0]);
        return e ? uf__type_list(tc, e, NULL) : NULL;
    }
    if (a->kind == UF__T_SET && b->kind == UF__T_SET) {
        /* set(undefined) refined; two key types unify as numbers (Numba
         * widens {1, 2} to set(float64) on s.add(2.5)) */
        if (a->n == 0 || b->n == 0)
            return a->n == 0 ? b : a;
        if (a->elts[0] == b->elts[0])
            return a;
        /* complex, tuple and string keys are stored as their type's
         * fields (lower_set_key.c): no widening (Numba fails compiling
         * one with an AssertionError) */
        for (int i = 0; i < 2; i++) {
            const uf__type *k = (i ? b : a)->elts[0];
            if (k->kind != UF__T_SCALAR || uf_dtype_kind(k->dtype) == 'c')
                return NULL;
        }
        const uf__type *k = uf__type_unify(tc, a->elts[0], b->elts[0]);
        return k ? uf__type_set(tc, k, NULL) : NULL;
    }
    if (a->kind == UF__T_DICT && b->kind == UF__T_DICT &&
        a->layout == b->layout) /* DictType[undefined,undefined] refined */
        return a->n == 0 ? b : b->n == 0 ? a : NULL;
    /* Numba's fallback: one converts safely into the other. */
    if (uf__type_conversion(a, b) <= UF__CONV_SAFE)
        return b;
    if (uf__type_conversion(b, a) <= UF__CONV_SAFE)
        return a;
    return NULL;
}

/* ---- overload resolution ---------------------------------------------- */

int uf__type_pick_overload(const uf__type *const *args, int nargs,
                           const uf_dtype *cases, int ncases,
                           bool allow_unsafe)
{
    int best = -1;
    int best_rate[3] = {0, 0, 0};
    for (int c = 0; c < ncases; c++) {
        /* Numba's Rating.astuple(): (unsafe, safe, promote) counts. */
        int rate[3] = {0, 0, 0};
        bool ok = true;
        for (int i = 0; i < nargs && ok; i++) {
            uf_dtype formal = cases[(size_t)c * (size_t)nargs + (size_t)i];
            uf__conversion k =
                args[i] && args[i]->kind == UF__T_SCALAR &&
                        uf_dtype_valid((int)formal)
                    ? scalar_conversion(args[i]->dtype, formal)
                    : UF__CONV_NONE;
            switch (k) {
            case UF__CONV_EXACT:
                break;
            case UF__CONV_PROMOTE:
                rate[2]++;
                break;
            case UF__CONV_SAFE:
                rate[1]++;
                break;
            case UF__CONV_UNSAFE:
                rate[0]++;
                ok = allow_unsafe;
                break;
            default:
                ok = false;
            }
        }
        if (!ok)
            continue;
        /* Stable choice: a later case must be strictly better. */
        bool better = best < 0;
        for (int j = 0; j < 3 && !better; j++) {
            if (rate[j] != best_rate[j]) {
                better = rate[j] < best_rate[j];
                break;
            }
        }
        if (better) {
            best = c;
            memcpy(best_rate, rate, sizeof rate);
        }
    }
    return best;
}

/* ---- operator templates ----------------------------------------------- */

/* A candidate list being built: up to 32 cases of one or two arguments. */
typedef struct cases {
    int n, nargs;
    uf_dtype args[32 * 2];
    uf_dtype ret[32];
} cases;

static void add1(cases *cs, uf_dtype ret, uf_dtype a)
{
    cs->args[cs->n] = a;
    cs->ret[cs->n++] = ret;
}

static void add2(cases *cs, uf_dtype ret, uf_dtype a, uf_dtype b)
{
    cs->args[2 * cs->n] = a;
    cs->args[2 * cs->n + 1] = b;
    cs->ret[cs->n++] = ret;
}

static const uf_dtype signed_ints[] = {UF_INT8, UF_INT16, UF_INT32, UF_INT64};
static const uf_dtype unsigned_ints[] = {UF_UINT8, UF_UINT16, UF_UINT32,
                                         UF_UINT64};
static const uf_dtype reals[] = {UF_FLOAT32, UF_FLOAT64};
static const uf_dtype complexes[] = {UF_COMPLEX64, UF_COMPLEX128};
/* numba's machine_ints: intp/int64 then uintp/uint64. */
static const uf_dtype machine_ints[] = {UF_INT64, UF_UINT64};

/* integer_binop_cases: (int64|uint64)^2, the result signed if either is
 * (choose_result_int: at least intp wide). `truediv` gives float64. */
static void add_int_pairs(cases *cs, bool truediv)
{
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
            uf_dtype a = machine_ints[i], b = machine_ints[j];
            uf_dtype r = (a == UF_INT64 || b == UF_INT64) ? UF_INT64 : UF_UINT64;
            add2(cs, truediv ? UF_FLOAT64 : r, a, b);
        }
    }
}

static void add_same2(cases *cs, const uf_dtype *ts, int n)
{
    for (int i = 0; i < n; i++)
        add2(cs, ts[i], ts[i], ts[i]);
}

/* Fills the candidates of numba.core.typing.builtins for a binary
 * operator; false when no template exists (matmul on scalars). */
static bool binop_cases(int op, cases *cs, bool *allow_unsafe)
{
    cs->n = 0;
    cs->nargs = 2;
    *allow_unsafe = true;
    switch (op) {
    case UF__OP_ADD:
    case UF__OP_SUB:
    case UF__OP_MUL: /* BinOp */
        add_int_pairs(cs, false);
        add_same2(cs, reals, 2);
        add_same2(cs, complexes, 2);
        return true;
    case UF__OP_DIV: /* BinOpTrueDiv */
        add_int_pairs(cs, true);
        add_same2(cs, reals, 2);
        add_same2(cs, complexes, 2);
        return true;
    case UF__OP_FLOORDIV:
    case UF__OP_MOD: /* BinOpFloorDiv, BinOpMod: no complex */
        add_int_pairs(cs, false);
        add_same2(cs, reals, 2);
        return true;
    case UF__OP_POW: { /* BinOpPower: float ** int stays single precision */
        static const uf_dtype exps[] = {UF_INT32, UF_INT64, UF_UINT64};
        add_int_pairs(cs, false);
        for (int f = 0; f < 2; f++)
            for (int e = 0; e < 3; e++)
                add2(cs, reals[f], reals[f], exps[e]);
        add_same2(cs, reals, 2);
        add_same2(cs, complexes, 2);
        return true;
    }
    case UF__OP_LSHIFT:
    case UF__OP_RSHIFT: /* BitwiseShiftOperation: the left type decides */
        for (int i = 0; i < 4; i++) {
            add2(cs, UF_INT64, signed_ints[i], UF_UINT64);
            add2(cs, UF_INT64, signed_ints[i], UF_INT64);
        }
        for (int i = 0; i < 4; i++) {
            add2(cs, UF_UINT64, unsigned_ints[i], UF_UINT64);
            add2(cs, UF_UINT64, unsigned_ints[i], UF_INT64);
        }
        *allow_unsafe = false;
        return true;
    case UF__OP_BITAND:
    case UF__OP_BITOR:
    case UF__OP_BITXOR: /* BitwiseLogicOperation */
        add2(cs, UF_BOOL, UF_BOOL, UF_BOOL);
        add_int_pairs(cs, false);
        *allow_unsafe = false;
        return true;
    default:
        return false;
    }
}

static bool is_scalar(const uf__type *t)
{
    return t && t->kind == UF__T_SCALAR;
}

const uf__type *uf__type_binop(uf__typectx *tc, int op, const uf__type *a,
                               const uf__type *b, const uf__type **optype)
{
    if (optype)
        *optype = NULL;
    if (!is_scalar(a) || !is_scalar(b))
        return NULL;
    cases cs;
    bool allow_unsafe;
    if (!binop_cases(op, &cs, &allow_unsafe))
        return NULL;
    const uf__type *args[2] = {a, b};
    int c = uf__type_pick_overload(args, 2, cs.args, cs.n, allow_unsafe);
    if (c < 0)
        return NULL;
    const uf__type *ret = uf__type_scalar(tc, cs.ret[c]);
    uf_dtype fa = cs.args[2 * c], fb = cs.args[2 * c + 1];
    if (optype) {
        if (fa == fb)
            *optype = uf__type_scalar(tc, fa);
        else if (op == UF__OP_POW && uf_dtype_kind(fa) != 'i' &&
                 uf_dtype_kind(fa) != 'u')
            *optype = uf__type_scalar(tc, fa); /* float ** int */
        else
            *optype = ret;
    }
    return ret;
}

const uf__type *uf__type_arith(uf__typectx *tc, const uf__type *a,
                               const uf__type *b)
{
    return uf__type_binop(tc, UF__OP_ADD, a, b, NULL);
}

const uf__type *uf__type_compare(uf__typectx *tc, int op, const uf__type *a,
                                 const uf__type *b, const uf__type **optype)
{
    if (optype)
        *optype = NULL;
    if (!is_scalar(a) || !is_scalar(b))
        return NULL;
    if (op < UF__CMP_EQ || op > UF__CMP_GE)
        return NULL;
    /* OrderedCmpOp; == and != (UnorderedCmpOp) also take complex. */
    cases cs = {.n = 0, .nargs = 2};
    add2(&cs, UF_BOOL, UF_BOOL, UF_BOOL);
    for (int i = 0; i < 4; i++)
        add2(&cs, UF_BOOL, signed_ints[i], signed_ints[i]);
    for (int i = 0; i < 4; i++)
        add2(&cs, UF_BOOL, unsigned_ints[i], unsigned_ints[i]);
    for (int i = 0; i < 2; i++)
        add2(&cs, UF_BOOL, reals[i], reals[i]);
    if (op == UF__CMP_EQ || op == UF__CMP_NE)
        for (int i = 0; i < 2; i++)
            add2(&cs, UF_BOOL, complexes[i], complexes[i]);
    const uf__type *args[2] = {a, b};
    int c = uf__type_pick_overload(args, 2, cs.args, cs.n, true);
    if (c < 0)
        return NULL;
    if (optype)
        *optype = uf__type_scalar(tc, cs.args[2 * c]);
    return uf__type_scalar(tc, UF_BOOL);
}

/* Resolves a one-argument template. */
static const uf__type *pick1(uf__typectx *tc, const cases *cs,
                             const uf__type *a, bool allow_unsafe,
                             const uf__type **optype)
{
    const uf__type *args[1] = {a};
    int c = uf__type_pick_overload(args, 1, cs->args, cs->n, allow_unsafe);
    if (c < 0)
        return NULL;
    if (optype)
        *optype = uf__type_scalar(tc, cs->args[c]);
    return uf__type_scalar(tc, cs->ret[c]);
}

const uf__type *uf__type_unary(uf__typectx *tc, int op, const uf__type *a,
                               const uf__type **optype)
{
    if (optype)
        *optype = NULL;
    if (!is_scalar(a))
        return NULL;
    cases cs = {.n = 0, .nargs = 1};
    bool allow_unsafe = true;
    switch (op) {
    case UF__OP_NEG:
    case UF__OP_POS: /* UnaryOp: ints widen to (u)int64 */
        for (int i = 0; i < 4; i++)
            add1(&cs, UF_UINT64, unsigned_ints[i]);
        for (int i = 0; i < 4; i++)
            add1(&cs, UF_INT64, signed_ints[i]);
        for (int i = 0; i < 2; i++)
            add1(&cs, reals[i], reals[i]);
        for (int i = 0; i < 2; i++)
            add1(&cs, complexes[i], complexes[i]);
        add1(&cs, UF_INT64, UF_BOOL);
        break;
    case UF__OP_NOT: /* UnaryNot: anything numeric to bool */
        add1(&cs, UF_BOOL, UF_BOOL);
        for (int i = 0; i < 4; i++)
            add1(&cs, UF_BOOL, signed_ints[i]);
        for (int i = 0; i < 4; i++)
            add1(&cs, UF_BOOL, unsigned_ints[i]);
        for (int i = 0; i < 2; i++)
            add1(&cs, UF_BOOL, reals[i]);
        for (int i = 0; i < 2; i++)
            add1(&cs, UF_BOOL, complexes[i]);
        break;
    case UF__OP_INVERT: /* BitwiseInvert: ~True is False as in NumPy */
        add1(&cs, UF_BOOL, UF_BOOL);
        for (int i = 0; i < 4; i++)
            add1(&cs, UF_UINT64, unsigned_ints[i]);
        for (int i = 0; i < 4; i++)
            add1(&cs, UF_INT64, signed_ints[i]);
        allow_unsafe = false;
        break;
    default:
        return NULL;
    }
    return pick1(tc, &cs, a, allow_unsafe, optype);
}

const uf__type *uf__type_abs(uf__typectx *tc, const uf__type *a,
                             const uf__type **optype)
{
    if (optype)
        *optype = NULL;
    if (!is_scalar(a))
        return NULL;
    /* builtins.Abs: ints keep their type, complex gives its float. */
    cases cs = {.n = 0, .nargs = 1};
    for (int i = 0; i < 4; i++)
        add1(&cs, signed_ints[i], signed_ints[i]);
    for (int i = 0; i < 4; i++)
        add1(&cs, unsigned_ints[i], unsigned_ints[i]);
    for (int i = 0; i < 2; i++)
        add1(&cs, reals[i], reals[i]);
    add1(&cs, UF_FLOAT32, UF_COMPLEX64);
    add1(&cs, UF_FLOAT64, UF_COMPLEX128);
    return pick1(tc, &cs, a, true, optype);
}
