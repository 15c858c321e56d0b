/* Strided conversion loops for every (from, to) pair of dtypes, with the
 * semantics of NumPy's unsafe astype on x86-64.
 *
 * Float to integer, as measured with NumPy 2.4 on x86-64 (what its
 * contiguous loops give; see tests/gen/casting_table.py):
 * - int8, uint8, int16, uint16, int32: truncate to int32 as cvttsd2si does
 *   (NaN and values outside int32 give INT32_MIN), then wrap to the width.
 *   So 300.0 -> int8 44, but 3e9 -> int8 0 and -2**31-10 -> int16 0.
 * - int64: truncate; NaN and values outside int64 give INT64_MIN.
 * - uint32, uint64 (N bits): x >= 2**(N-1) ? trunc_N(x - 2**(N-1)) ^ 2**(N-1)
 *   : trunc_N(x), with trunc_N the signed rule above. So negative values
 *   wrap (-1.5 -> 2**N - 1), NaN and x <= -2**(N-1) give 2**(N-1), and
 *   x >= 2**N gives 0.
 *   NumPy's strided and scalar path for float -> uint32 instead goes
 *   through int64 (NaN -> 0, 5e9 -> 705032704): it disagrees with its own
 *   contiguous loop for NaN and values outside [-2**31, 2**32), and we follow
 *   the contiguous one everywhere so results do not depend on strides.
 * Each rule is written with range checks so that no C conversion is out of
 * range (that would be undefined behaviour).
 *
 * The rest: to bool is `!= 0` (complex: either part); a bool byte that is
 * not 0 reads as 1; complex to real takes the real part; real to complex
 * has imaginary part 0; integer narrowing wraps (two's complement);
 * int/float conversions round to nearest as the C conversions do. */
#include <complex.h>
#include <stdint.h>
#include <string.h>

#include "ndarray/cast.h"

/* At -O2, GCC 12's "very cheap" vectoriser cost model leaves the
 * contiguous loops scalar (a 2-3x loss on float64 -> int32, int64 -> int8);
 * the dynamic model vectorises them. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

static inline int32_t trunc_i32(double x)
{
    return x > -2147483649.0 && x < 2147483648.0 ? (int32_t)x : INT32_MIN;
}

static inline int64_t trunc_i64(double x)
{
    return x >= -9223372036854775808.0 && x < 9223372036854775808.0
               ? (int64_t)x
               : INT64_MIN;
}

static inline uint32_t trunc_u32(double x)
{
    if (x >= 2147483648.0)
        return (uint32_t)trunc_i32(x - 2147483648.0) ^ UINT32_C(0x80000000);
    return (uint32_t)trunc_i32(x);
}

static inline uint64_t trunc_u64(double x)
{
    if (x >= 9223372036854775808.0)
        return (uint64_t)trunc_i64(x - 9223372036854775808.0) ^
               (UINT64_C(1) << 63);
    return (uint64_t)trunc_i64(x);
}

/* The real part of any value as double, for the float-to-int rules;
 * float to double is exact, so float sources follow the same rules. */
#define REAL(x)                                                             \
    _Generic((x), float _Complex: (double)crealf(x),                        \
             double _Complex: creal(x), default: (double)(x))

/* Integer destination: C conversion from integers (wraps), the rules above
 * from floats and complex. */
#define TO_INT(T, trunc, x)                                                 \
    _Generic((x), float: (T)trunc(REAL(x)), double: (T)trunc(REAL(x)),      \
             float _Complex: (T)trunc(REAL(x)),                             \
             double _Complex: (T)trunc(REAL(x)), default: (T)(x))

/* Real floating destination: the real part of a complex. */
#define TO_FLOAT(T, x)                                                      \
    _Generic((x), float _Complex: (T)crealf(x),                             \
             double _Complex: (T)creal(x), default: (T)(x))

#define TO_BOOL(x) ((x) != 0)
#define TO_INT8(x) TO_INT(int8_t, trunc_i32, x)
#define TO_UINT8(x) TO_INT(uint8_t, trunc_i32, x)
#define TO_INT16(x) TO_INT(int16_t, trunc_i32, x)
#define TO_UINT16(x) TO_INT(uint16_t, trunc_i32, x)
#define TO_INT32(x) TO_INT(int32_t, trunc_i32, x)
#define TO_UINT32(x) TO_INT(uint32_t, trunc_u32, x)
#define TO_INT64(x) TO_INT(int64_t, trunc_i64, x)
#define TO_UINT64(x) TO_INT(uint64_t, trunc_u64, x)
#define TO_FLOAT32(x) TO_FLOAT(float, x)
#define TO_FLOAT64(x) TO_FLOAT(double, x)
/* Conversion to complex keeps both parts of a complex, imag 0 otherwise. */
#define TO_COMPLEX64(x) ((float _Complex)(x))
#define TO_COMPLEX128(x) ((double _Complex)(x))

/* Loads go through memcpy since data may be unaligned. A bool is read as
 * a byte so that a stored value other than 0/1 is not undefined. */
#define DEFINE_LOAD(e, name, kind, size, ctype)                             \
    static inline ctype load_##e(const char *p)                             \
    {                                                                       \
        if (kind == 'b') {                                                  \
            unsigned char byte;                                             \
            memcpy(&byte, p, 1);                                            \
            return (ctype)(byte != 0);                                      \
        }                                                                   \
        ctype v;                                                            \
        memcpy(&v, p, sizeof v);                                            \
        return v;                                                           \
    }
UF_DTYPE_MAP(DEFINE_LOAD)
#undef DEFINE_LOAD

/* One element: load, convert, store. */
#define CONVERT_ONE(F, T, tctype, s, d)                                     \
    do {                                                                    \
        tctype y_ = TO_##T(load_##F(s));                                    \
        memcpy((d), &y_, sizeof y_);                                        \
    } while (0)

/* One loop per pair, with a contiguous case the compiler can vectorise. */
#define DEFINE_CAST(F, fctype, T, tctype)                                   \
    static void cast_##F##_##T(const char *src, int64_t ss, char *dst,      \
                               int64_t ds, int64_t n)                       \
    {                                                                       \
        const int64_t fsize = sizeof(fctype), tsize = sizeof(tctype);       \
        if (ss == fsize && ds == tsize) {                                   \
            for (int64_t i = 0; i < n; i++)                                 \
                CONVERT_ONE(F, T, tctype, src + i * fsize, dst + i * tsize);\
        } else {                                                            \
            for (int64_t i = 0; i < n; i++)                                 \
                CONVERT_ONE(F, T, tctype, src + i * ss, dst + i * ds);      \
        }                                                                   \
    }

/* UF_DTYPE_MAP cannot expand inside itself, so the destinations of each
 * source are listed here once more; the table below uses designated
 * initialisers, and a missing or extra entry fails the size check. */
#define FOR_EACH_DESTINATION(X, F, fctype)                                   \
    X(F, fctype, BOOL, bool)                                                \
    X(F, fctype, INT8, int8_t)                                              \
    X(F, fctype, UINT8, uint8_t)                                            \
    X(F, fctype, INT16, int16_t)                                            \
    X(F, fctype, UINT16, uint16_t)                                          \
    X(F, fctype, INT32, int32_t)                                            \
    X(F, fctype, UINT32, uint32_t)                                          \
    X(F, fctype, INT64, int64_t)                                            \
    X(F, fctype, UINT64, uint64_t)                                          \
    X(F, fctype, FLOAT32, float)                                            \
    X(F, fctype, FLOAT64, double)                                           \
    X(F, fctype, COMPLEX64, float _Complex)                                 \
    X(F, fctype, COMPLEX128, double _Complex)

#define COUNT_ONE(F, fctype, T, tctype) +1
_Static_assert(0 FOR_EACH_DESTINATION(COUNT_ONE, BOOL, bool) == UF_NTYPES,
               "FOR_EACH_DESTINATION must list every dtype");
#undef COUNT_ONE

#define DEFINE_ROW(e, name, kind, size, ctype)                              \
    FOR_EACH_DESTINATION(DEFINE_CAST, e, ctype)
UF_DTYPE_MAP(DEFINE_ROW)
#undef DEFINE_ROW

/* from == to: a plain copy, one memmove when both sides are contiguous. */
#define DEFINE_COPY(e, name, kind, size, ctype)                             \
    static void copy_##e(const char *src, int64_t ss, char *dst,            \
                         int64_t ds, int64_t n)                             \
    {                                                                       \
        if (n > 0 && ss == size && ds == size) {                            \
            memmove(dst, src, (size_t)n * size);                            \
            return;                                                         \
        }                                                                   \
        for (int64_t i = 0; i < n; i++)                                     \
            memmove(dst + i * ds, src + i * ss, size);                      \
    }
UF_DTYPE_MAP(DEFINE_COPY)
#undef DEFINE_COPY

#define CAST_ENTRY(F, fctype, T, tctype) [UF_##F][UF_##T] = cast_##F##_##T,
#define TABLE_ROW(e, name, kind, size, ctype)                               \
    FOR_EACH_DESTINATION(CAST_ENTRY, e, ctype)
static uf__cast_fn const cast_table[UF_NTYPES][UF_NTYPES] = {
    UF_DTYPE_MAP(TABLE_ROW)
};
#undef TABLE_ROW
#undef CAST_ENTRY

#define COPY_ENTRY(e, name, kind, size, ctype) [UF_##e] = copy_##e,
static uf__cast_fn const copy_table[UF_NTYPES] = {
    UF_DTYPE_MAP(COPY_ENTRY)
};
#undef COPY_ENTRY

uf__cast_fn uf__get_cast(uf_dtype from, uf_dtype to)
{
    if (!uf_dtype_valid((int)from) || !uf_dtype_valid((int)to))
        return NULL;
    return from == to ? copy_table[from] : cast_table[from][to];
}
