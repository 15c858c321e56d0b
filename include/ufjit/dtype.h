/* Element types, NumPy typestrings, casting rules and type promotion. */
#ifndef UFJIT_DTYPE_H
#define UFJIT_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <ufjit/error.h>

UF_BEGIN_DECLS

/* X(ENUM, name, kind, itemsize, C type) in NumPy's type-number order. */
#define UF_DTYPE_MAP(X)                         \
    X(BOOL, bool, 'b', 1, bool)                 \
    X(INT8, int8, 'i', 1, int8_t)               \
    X(UINT8, uint8, 'u', 1, uint8_t)            \
    X(INT16, int16, 'i', 2, int16_t)            \
    X(UINT16, uint16, 'u', 2, uint16_t)         \
    X(INT32, int32, 'i', 4, int32_t)            \
    X(UINT32, uint32, 'u', 4, uint32_t)         \
    X(INT64, int64, 'i', 8, int64_t)            \
    X(UINT64, uint64, 'u', 8, uint64_t)         \
    X(FLOAT32, float32, 'f', 4, float)          \
    X(FLOAT64, float64, 'f', 8, double)         \
    X(COMPLEX64, complex64, 'c', 8, float _Complex)   \
    X(COMPLEX128, complex128, 'c', 16, double _Complex)

typedef enum uf_dtype {
#define UF__DT_ENUM(e, name, kind, size, ctype) UF_##e,
    UF_DTYPE_MAP(UF__DT_ENUM)
#undef UF__DT_ENUM
    UF_NTYPES
} uf_dtype;

typedef enum uf_casting {
    UF_CASTING_NO,
    UF_CASTING_EQUIV,
    UF_CASTING_SAFE,
    UF_CASTING_SAME_KIND,
    UF_CASTING_UNSAFE
} uf_casting;

/* True for a value in [0, UF_NTYPES). */
UF_EXPORT bool uf_dtype_valid(int dtype);
/* "float64"; "invalid" for an invalid value. */
UF_EXPORT const char *uf_dtype_name(uf_dtype dtype);
/* 'b', 'i', 'u', 'f' or 'c' as NumPy's dtype.kind. */
UF_EXPORT char uf_dtype_kind(uf_dtype dtype);
UF_EXPORT size_t uf_dtype_itemsize(uf_dtype dtype);
/* Alignment required on this platform (complex: that of its parts). */
UF_EXPORT size_t uf_dtype_alignment(uf_dtype dtype);

/* Parses a name ("float32", "f4", "<f4", "int", "complex128", "bool", "?")
 * as NumPy's np.dtype() would, host byte order only. */
UF_EXPORT int uf_dtype_from_name(const char *name, uf_dtype *out, uf_error *err);

/* Native typestring as in __array_interface__: "<f8", "|b1", "<c16".
 * `buf` must hold at least 8 bytes; returns buf. */
UF_EXPORT const char *uf_dtype_typestr(uf_dtype dtype, char buf[8]);

/* Parses a typestring ("<f8", ">i4", "|u1", "=f4"). `*swapped` is set when
 * the data is in the non-native byte order. */
UF_EXPORT int uf_dtype_from_typestr(const char *typestr, uf_dtype *out,
                                    bool *swapped, uf_error *err);

/* np.can_cast(from, to, casting) for native-byte-order dtypes. */
UF_EXPORT bool uf_can_cast(uf_dtype from, uf_dtype to, uf_casting casting);

/* np.promote_types(a, b). */
UF_EXPORT uf_dtype uf_promote_types(uf_dtype a, uf_dtype b);

/* "no", "equiv", "safe", "same_kind", "unsafe" <-> enum. */
UF_EXPORT const char *uf_casting_name(uf_casting casting);
UF_EXPORT int uf_casting_from_name(const char *name, uf_casting *out,
                                   uf_error *err);

UF_END_DECLS

#endif
