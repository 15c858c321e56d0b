/* Parsing dtype names and typestrings the way np.dtype() reads them. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ufjit/dtype.h>

#include "common/error_internal.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define UF__FOREIGN_ORDER '<'
#else
#define UF__FOREIGN_ORDER '>'
#endif

/* Spelled-out names np.dtype() accepts for our types (NumPy 2, LP64 Linux:
 * "int"/"long"/"intp" are int64, "float" float64, "complex" complex128). */
typedef struct named_dtype {
    const char *name;
    uf_dtype dtype;
} named_dtype;

static const named_dtype dtype_names[] = {
#define UF__DT_NAME(e, name, kind, size, ctype) {#name, UF_##e},
    UF_DTYPE_MAP(UF__DT_NAME)
#undef UF__DT_NAME
    {"bool_", UF_BOOL},        {"byte", UF_INT8},
    {"ubyte", UF_UINT8},       {"short", UF_INT16},
    {"ushort", UF_UINT16},     {"intc", UF_INT32},
    {"uintc", UF_UINT32},      {"int", UF_INT64},
    {"int_", UF_INT64},        {"uint", UF_UINT64},
    {"long", UF_INT64},        {"ulong", UF_UINT64},
    {"longlong", UF_INT64},    {"ulonglong", UF_UINT64},
    {"intp", UF_INT64},        {"uintp", UF_UINT64},
    {"float", UF_FLOAT64},     {"single", UF_FLOAT32},
    {"double", UF_FLOAT64},    {"complex", UF_COMPLEX128},
    {"csingle", UF_COMPLEX64}, {"cdouble", UF_COMPLEX128},
};

/* Types NumPy has and we do not: named in the error so the user knows the
 * name was understood, just not supported. */
static const char *const unsupported_names[] = {
    "float16", "half", "float128", "longdouble", "complex256",
    "clongdouble", "object", "str", "bytes", "void", "datetime64",
    "timedelta64",
};

/* One-character codes (dtype.char) of our types on LP64 Linux. */
static bool dtype_from_char(char c, uf_dtype *out)
{
    switch (c) {
    case '?': *out = UF_BOOL; return true;
    case 'b': *out = UF_INT8; return true;
    case 'B': *out = UF_UINT8; return true;
    case 'h': *out = UF_INT16; return true;
    case 'H': *out = UF_UINT16; return true;
    case 'i': *out = UF_INT32; return true;
    case 'I': *out = UF_UINT32; return true;
    case 'l': case 'q': case 'p': *out = UF_INT64; return true;
    case 'L': case 'Q': case 'P': *out = UF_UINT64; return true;
    case 'f': *out = UF_FLOAT32; return true;
    case 'd': *out = UF_FLOAT64; return true;
    case 'F': *out = UF_COMPLEX64; return true;
    case 'D': *out = UF_COMPLEX128; return true;
    default: return false;
    }
}

/* Kind letter plus size in bytes ("f", 8) as in typestrings; 'b' is bool. */
static bool dtype_from_kind_size(char kind, unsigned long size, uf_dtype *out)
{
    for (int t = 0; t < UF_NTYPES; t++) {
        if (uf_dtype_kind((uf_dtype)t) == kind &&
            uf_dtype_itemsize((uf_dtype)t) == size) {
            *out = (uf_dtype)t;
            return true;
        }
    }
    return false;
}

/* Writes `s` quoted for an error message: at most 48 characters, anything
 * unprintable as \xNN, so a garbage argument gives a readable message. */
static const char *quote(const char *s, char *buf, size_t size)
{
    size_t n = 0;
    buf[n++] = '\'';
    for (size_t i = 0; s[i] != '\0' && n + 8 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i == 48) {
            memcpy(buf + n, "...", 3);
            n += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f)
            buf[n++] = (char)c;
        else
            n += (size_t)snprintf(buf + n, size - n, "\\x%02x", c);
    }
    buf[n++] = '\'';
    buf[n] = '\0';
    return buf;
}

/* NumPy's codes for types we lack (float16, long double, objects, bytes,
 * strings, void, datetimes), alone and as kinds that take a size. */
#define OTHER_CODES "egGOUSaVMmc"
#define OTHER_SIZED_KINDS "OUSaVMm"

typedef struct parsed_code {
    char order;  /* '<', '>', '=', '|' or '\0' when absent */
    uf_dtype dtype;
} parsed_code;

/* code := [<>=|] (kind digits | char)
 * Returns 0, or 1 when the code is a known NumPy type we do not support,
 * or -1 when it is not understood. With `sized_only` a bare char code is
 * refused (typestrings always carry the size). */
static int parse_code(const char *s, bool sized_only, parsed_code *out)
{
    out->order = '\0';
    if (*s == '<' || *s == '>' || *s == '=' || *s == '|')
        out->order = *s++;
    char kind = *s;
    if (kind == '\0')
        return -1;
    const char *digits = s + 1;
    if (*digits == '\0') {
        if (!sized_only && dtype_from_char(kind, &out->dtype))
            return 0;
        return strchr(OTHER_CODES, kind) != NULL ? 1 : -1;
    }
    /* Leading zeros are fine ("f08"); no signs or spaces. */
    unsigned long size = 0;
    for (const char *p = digits; *p != '\0'; p++) {
        if (*p < '0' || *p > '9' || size > 1000)
            return -1;
        size = size * 10 + (unsigned long)(*p - '0');
    }
    if (dtype_from_kind_size(kind, size, &out->dtype))
        return 0;
    /* float16 and long double: understood by NumPy, not by us. */
    if ((kind == 'f' && (size == 2 || size == 16)) ||
        (kind == 'c' && size == 32))
        return 1;
    return strchr(OTHER_SIZED_KINDS, kind) != NULL ? 1 : -1;
}

int uf_dtype_from_name(const char *name, uf_dtype *out, uf_error *err)
{
    char q[256];
    if (name == NULL || out == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_dtype_from_name: NULL argument");
    for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; i++) {
        if (strcmp(name, dtype_names[i].name) == 0) {
            *out = dtype_names[i].dtype;
            return 0;
        }
    }
    for (size_t i = 0;
         i < sizeof unsupported_names / sizeof unsupported_names[0]; i++) {
        if (strcmp(name, unsupported_names[i]) == 0)
            return uf__error_set(err, UF_ERR_TYPE,
                                 "data type %s is not supported by ufjit",
                                 quote(name, q, sizeof q));
    }
    /* "i8,f4" is a structured dtype to NumPy. */
    if (strchr(name, ',') != NULL)
        return uf__error_set(err, UF_ERR_TYPE,
                             "structured data type %s is not supported by "
                             "ufjit",
                             quote(name, q, sizeof q));
    parsed_code code;
    int rc = parse_code(name, false, &code);
    if (rc > 0)
        return uf__error_set(err, UF_ERR_TYPE,
                             "data type %s is not supported by ufjit",
                             quote(name, q, sizeof q));
    if (rc < 0)
        return uf__error_set(err, UF_ERR_TYPE, "data type %s not understood",
                             quote(name, q, sizeof q));
    if (code.order == UF__FOREIGN_ORDER && uf_dtype_itemsize(code.dtype) > 1)
        return uf__error_set(err, UF_ERR_TYPE,
                             "data type %s is not in native byte order",
                             quote(name, q, sizeof q));
    *out = code.dtype;
    return 0;
}

/* typestr := [<>=|] kind digits, as in __array_interface__. '|' ("not
 * applicable") is accepted for any size and read as native order. */
int uf_dtype_from_typestr(const char *typestr, uf_dtype *out, bool *swapped,
                          uf_error *err)
{
    char q[256];
    if (typestr == NULL || out == NULL || swapped == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_dtype_from_typestr: NULL argument");
    parsed_code code;
    int rc = parse_code(typestr, true, &code);
    if (rc == 0 && code.order == '\0')
        rc = -1;
    if (rc > 0)
        return uf__error_set(err, UF_ERR_TYPE,
                             "typestring %s names a type not supported by "
                             "ufjit",
                             quote(typestr, q, sizeof q));
    if (rc < 0)
        return uf__error_set(err, UF_ERR_TYPE,
                             "invalid typestring %s: expected a byte order "
                             "(<, >, =, |), a kind (b, i, u, f, c) and a "
                             "size in bytes, as in '<f8'",
                             quote(typestr, q, sizeof q));
    *swapped = code.order == UF__FOREIGN_ORDER &&
               uf_dtype_itemsize(code.dtype) > 1;
    *out = code.dtype;
    return 0;
}
