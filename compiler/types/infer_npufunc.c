/* NumPy's loops of the ufuncs of UF__NPUFUNC_MAP and the loop selection
 * of NumPy's scalar type resolution as Numba does it
 * (numpy_support.ufunc_find_matching_loop). The loop lists are NumPy 2's
 * ufunc.types with int64 written 'l' (NumPy also lists 'q', the same
 * type here) and float16, longdouble and object loops left out;
 * tests/gen/numba_infer.py checks the typing they give against Numba. */
#include <string.h>

#include "compiler/types/infer_npufunc.h"

#define INTS "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L"
#define CMP "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? lL->? " \
            "Ll->? ff->? dd->? FF->? DD->?"
#define LOGIC "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? " \
              "ff->? dd->? FF->? DD->?"
#define BITS "?\?->? " INTS
#define ALL1 "b->b B->B h->h H->H i->i I->I l->l L->L f->f d->d F->F D->D"
#define FLOAT1 "f->f d->d"
#define FLOAT2 "ff->f dd->d"
#define INEXACT1 "f->f d->d F->F D->D"

static const uf__ufunc_loops table[] = {
    {UF__BI_NP_ADD, 2, 1, "?\?->? " INTS " ff->f dd->d FF->F DD->D"},
    {UF__BI_NP_SUBTRACT, 2, 1, INTS " ff->f dd->d FF->F DD->D"},
    {UF__BI_NP_MULTIPLY, 2, 1, "?\?->? " INTS " ff->f dd->d FF->F DD->D"},
    {UF__BI_NP_TRUE_DIVIDE, 2, 1, "ff->f dd->d FF->F DD->D"},
    {UF__BI_NP_FLOOR_DIVIDE, 2, 1, INTS " " FLOAT2},
    {UF__BI_NP_REMAINDER, 2, 1, INTS " " FLOAT2},
    {UF__BI_NP_DIVMOD, 2, 2, "bb->bb BB->BB hh->hh HH->HH ii->ii II->II "
                             "ll->ll LL->LL ff->ff dd->dd"},
    {UF__BI_NP_NEGATIVE, 1, 1, ALL1},
    {UF__BI_NP_POSITIVE, 1, 1, ALL1},
    {UF__BI_NP_FLOAT_POWER, 2, 1, "dd->d DD->D"},
    {UF__BI_NP_RECIPROCAL, 1, 1, ALL1},
    {UF__BI_NP_LOGADDEXP, 2, 1, FLOAT2},
    {UF__BI_NP_LOGADDEXP2, 2, 1, FLOAT2},
    {UF__BI_NP_EXP2, 1, 1, INEXACT1},
    {UF__BI_NP_CBRT, 1, 1, FLOAT1},
    {UF__BI_NP_ARCSINH, 1, 1, INEXACT1},
    {UF__BI_NP_ARCCOSH, 1, 1, INEXACT1},
    {UF__BI_NP_ARCTANH, 1, 1, INEXACT1},
    {UF__BI_NP_GCD, 2, 1, INTS},
    {UF__BI_NP_LCM, 2, 1, INTS},
    {UF__BI_NP_BITWISE_AND, 2, 1, BITS},
    {UF__BI_NP_BITWISE_OR, 2, 1, BITS},
    {UF__BI_NP_BITWISE_XOR, 2, 1, BITS},
    {UF__BI_NP_INVERT, 1, 1, "?->? b->b B->B h->h H->H i->i I->I l->l L->L"},
    {UF__BI_NP_LEFT_SHIFT, 2, 1, INTS},
    {UF__BI_NP_RIGHT_SHIFT, 2, 1, INTS},
    {UF__BI_NP_GREATER, 2, 1, CMP},
    {UF__BI_NP_GREATER_EQUAL, 2, 1, CMP},
    {UF__BI_NP_LESS, 2, 1, CMP},
    {UF__BI_NP_LESS_EQUAL, 2, 1, CMP},
    {UF__BI_NP_EQUAL, 2, 1, CMP},
    {UF__BI_NP_NOT_EQUAL, 2, 1, CMP},
    {UF__BI_NP_LOGICAL_AND, 2, 1, LOGIC},
    {UF__BI_NP_LOGICAL_OR, 2, 1, LOGIC},
    {UF__BI_NP_LOGICAL_XOR, 2, 1, LOGIC},
    {UF__BI_NP_LOGICAL_NOT, 1, 1, "?->? b->? B->? h->? H->? i->? I->? l->? "
                                  "L->? f->? d->? F->? D->?"},
    {UF__BI_NP_SIGNBIT, 1, 1, "f->? d->?"},
    {UF__BI_NP_NEXTAFTER, 2, 1, FLOAT2},
    {UF__BI_NP_SPACING, 1, 1, FLOAT1},
    {UF__BI_NP_LDEXP, 2, 1, "fi->f fl->f di->d dl->d"},
};

_Static_assert(sizeof table / sizeof *table ==
                   UF__BI_NP_LDEXP - UF__BI_NP_ADD + 1,
               "one row per ufunc of UF__NPUFUNC_MAP");

/* The first NumPy functions of builtins.h (numpy.sin .. numpy.conj) that
 * are ufuncs, the same way. */
static const uf__ufunc_loops first_table[] = {
    {UF__BI_NP_SIN, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_COS, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_TAN, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_ARCSIN, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_ARCCOS, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_ARCTAN, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_ARCTAN2, 2, 1, "ff->f dd->d"},
    {UF__BI_NP_SINH, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_COSH, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_TANH, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_EXP, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_EXPM1, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_LOG, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_LOG1P, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_LOG2, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_LOG10, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_SQRT, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_POWER, 2, 1, "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L "
                         "ff->f dd->d FF->F DD->D"},
    {UF__BI_NP_HYPOT, 2, 1, "ff->f dd->d"},
    {UF__BI_NP_ABS, 1, 1, "?->? b->b B->B h->h H->H i->i I->I l->l L->L f->f "
                       "d->d F->f D->d"},
    {UF__BI_NP_ABSOLUTE, 1, 1, "?->? b->b B->B h->h H->H i->i I->I l->l L->L "
                            "f->f d->d F->f D->d"},
    {UF__BI_NP_FABS, 1, 1, "f->f d->d"},
    {UF__BI_NP_FLOOR, 1, 1, "?->? b->b B->B h->h H->H i->i I->I l->l L->L f->f "
                         "d->d"},
    {UF__BI_NP_CEIL, 1, 1, "?->? b->b B->B h->h H->H i->i I->I l->l L->L f->f "
                        "d->d"},
    {UF__BI_NP_TRUNC, 1, 1, "?->? b->b B->B h->h H->H i->i I->I l->l L->L f->f "
                         "d->d"},
    {UF__BI_NP_RINT, 1, 1, "f->f d->d F->F D->D"},
    {UF__BI_NP_COPYSIGN, 2, 1, "ff->f dd->d"},
    {UF__BI_NP_FMOD, 2, 1, "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L "
                        "ff->f dd->d"},
    {UF__BI_NP_ISNAN, 1, 1, "?->? b->? B->? h->? H->? i->? I->? l->? L->? f->? "
                         "d->? F->? D->?"},
    {UF__BI_NP_ISINF, 1, 1, "?->? b->? B->? h->? H->? i->? I->? l->? L->? f->? "
                         "d->? F->? D->?"},
    {UF__BI_NP_ISFINITE, 1, 1, "?->? b->? B->? h->? H->? i->? I->? l->? L->? "
                            "f->? d->? F->? D->?"},
    {UF__BI_NP_MINIMUM, 2, 1, "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l "
                           "LL->L ff->f dd->d FF->F DD->D"},
    {UF__BI_NP_MAXIMUM, 2, 1, "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l "
                           "LL->L ff->f dd->d FF->F DD->D"},
    {UF__BI_NP_FMIN, 2, 1, "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l "
                        "LL->L ff->f dd->d FF->F DD->D"},
    {UF__BI_NP_FMAX, 2, 1, "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l "
                        "LL->L ff->f dd->d FF->F DD->D"},
    {UF__BI_NP_SIGN, 1, 1, "b->b B->B h->h H->H i->i I->I l->l L->L f->f d->d "
                        "F->F D->D"},
    {UF__BI_NP_SQUARE, 1, 1, "b->b B->B h->h H->H i->i I->I l->l L->L f->f "
                          "d->d F->F D->D"},
    {UF__BI_NP_DEG2RAD, 1, 1, "f->f d->d"},
    {UF__BI_NP_RAD2DEG, 1, 1, "f->f d->d"},
    {UF__BI_NP_CONJ, 1, 1, "b->b B->B h->h H->H i->i I->I l->l L->L f->f d->d "
                        "F->F D->D"},
};

const uf__ufunc_loops *uf__npufunc_loops(uf__builtin b)
{
    if (uf__builtin_is_npufunc(b)) {
        const uf__ufunc_loops *row = &table[b - UF__BI_NP_ADD];
        return row->b == b ? row : NULL;
    }
    for (size_t i = 0; i < sizeof first_table / sizeof *first_table; i++)
        if (first_table[i].b == b)
            return &first_table[i];
    return NULL;
}

static uf_dtype char_dtype(char c)
{
    switch (c) {
    case '?': return UF_BOOL;
    case 'b': return UF_INT8;
    case 'B': return UF_UINT8;
    case 'h': return UF_INT16;
    case 'H': return UF_UINT16;
    case 'i': return UF_INT32;
    case 'I': return UF_UINT32;
    case 'l': return UF_INT64;
    case 'L': return UF_UINT64;
    case 'f': return UF_FLOAT32;
    case 'd': return UF_FLOAT64;
    case 'F': return UF_COMPLEX64;
    case 'D': return UF_COMPLEX128;
    default: return UF_NTYPES;
    }
}

static bool is_intkind(uf_dtype d)
{
    char k = uf_dtype_kind(d);
    return k == 'i' || k == 'u';
}

static bool is_inexact(uf_dtype d)
{
    char k = uf_dtype_kind(d);
    return k == 'f' || k == 'c';
}

bool uf__ufunc_select_loop(const char *loops, int nin, int nout,
                           const uf_dtype *in, uf_dtype *types)
{
    bool has_int = false, has_inexact = false;
    for (int i = 0; i < nin; i++) {
        has_int |= is_intkind(in[i]);
        has_inexact |= is_inexact(in[i]);
    }
    bool mixed = has_int && has_inexact;
    for (const char *p = loops; *p;) {
        const char *loop = p; /* "ab->c" */
        bool ok = true;
        for (int i = 0; i < nin && ok; i++) {
            uf_dtype to = char_dtype(loop[i]);
            ok = to != UF_NTYPES &&
                 ((mixed && is_intkind(in[i]) && is_inexact(to)) ||
                  uf_can_cast(in[i], to, UF_CASTING_SAFE));
        }
        if (ok) {
            for (int i = 0; i < nin; i++)
                types[i] = char_dtype(loop[i]);
            for (int o = 0; o < nout; o++)
                types[nin + o] = char_dtype(loop[nin + 2 + o]);
            return true;
        }
        p = strchr(p, ' ');
        if (p == NULL)
            break;
        p++;
    }
    return false;
}

/* NumPy's second names (NumPy 2 adds the array API's: acos, pow ...). */
static const char *const aliases[][2] = {
    {"numpy.divide", "numpy.true_divide"},
    {"numpy.mod", "numpy.remainder"},
    {"numpy.bitwise_not", "numpy.invert"},
    {"numpy.bitwise_invert", "numpy.invert"},
    {"numpy.bitwise_left_shift", "numpy.left_shift"},
    {"numpy.bitwise_right_shift", "numpy.right_shift"},
    {"numpy.conjugate", "numpy.conj"},
    {"numpy.degrees", "numpy.rad2deg"},
    {"numpy.radians", "numpy.deg2rad"},
    {"numpy.pow", "numpy.power"},
    {"numpy.acos", "numpy.arccos"},
    {"numpy.asin", "numpy.arcsin"},
    {"numpy.atan", "numpy.arctan"},
    {"numpy.atan2", "numpy.arctan2"},
    {"numpy.acosh", "numpy.arccosh"},
    {"numpy.asinh", "numpy.arcsinh"},
    {"numpy.atanh", "numpy.arctanh"},
};

const char *uf__npufunc_alias(const char *qualified_name)
{
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (strcmp(aliases[i][0], qualified_name) == 0)
            return aliases[i][1];
    return NULL;
}

bool uf__npufunc_alias_at(int i, const char **alias, const char **canonical)
{
    if (i < 0 || (size_t)i >= sizeof aliases / sizeof *aliases)
        return false;
    *alias = aliases[i][0];
    *canonical = aliases[i][1];
    return true;
}
