/* NumPy 2's casting rules and type promotion between the builtin dtypes,
 * derived from kinds and sizes rather than kept as 13x13 tables, checked
 * against np.can_cast / np.promote_types by tests/test_casting.c. */
#include "ndarray/dtype_internal.h"

/* Size of the real value: a complex's part, else the itemsize. */
static size_t real_size(uf_dtype t)
{
    size_t size = uf_dtype_itemsize(t);
    return uf_dtype_kind(t) == 'c' ? size / 2 : size;
}

/* np.can_cast(from, to, "safe"): every value of `from` is exactly
 * representable in `to`, except that int64/uint64 to float64 (and
 * complex128) counts as safe, as in NumPy. */
static bool safe_cast(uf_dtype from, uf_dtype to)
{
    char fk = uf_dtype_kind(from), tk = uf_dtype_kind(to);
    size_t fs = uf_dtype_itemsize(from), ts = real_size(to);
    if (from == to || fk == 'b')
        return true;
    switch (tk) {
    case 'b':
        return false;
    case 'u':
        return fk == 'u' && ts >= fs;
    case 'i':
        return (fk == 'i' && ts >= fs) || (fk == 'u' && ts > fs);
    case 'f':
    case 'c':
        if (fk == 'i' || fk == 'u') /* float32 holds 16-bit ints exactly */
            return ts == 8 || fs <= 2;
        if (fk == 'f')
            return ts >= fs;
        return tk == 'c' && ts >= real_size(from);
    default:
        return false;
    }
}

bool uf_can_cast(uf_dtype from, uf_dtype to, uf_casting casting)
{
    if (!uf_dtype_valid((int)from) || !uf_dtype_valid((int)to))
        return false;
    switch (casting) {
    case UF_CASTING_NO:
    case UF_CASTING_EQUIV: /* native byte order only: equiv is no */
        return from == to;
    case UF_CASTING_SAFE:
        return safe_cast(from, to);
    case UF_CASTING_SAME_KIND:
        return safe_cast(from, to) || uf__kind_rank(from) <= uf__kind_rank(to);
    case UF_CASTING_UNSAFE:
        return true;
    default:
        return false;
    }
}

/* The first type in NumPy's type-number order that both cast to safely:
 * the smallest common type, as np.promote_types picks it (int64 with
 * uint64 gives float64). An invalid argument gives UF_NTYPES. */
uf_dtype uf_promote_types(uf_dtype a, uf_dtype b)
{
    if (!uf_dtype_valid((int)a) || !uf_dtype_valid((int)b))
        return UF_NTYPES;
    for (int t = 0; t < UF_NTYPES; t++) {
        if (safe_cast(a, (uf_dtype)t) && safe_cast(b, (uf_dtype)t))
            return (uf_dtype)t;
    }
    return UF_COMPLEX128; /* unreachable: everything casts to complex128 */
}
