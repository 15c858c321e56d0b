/* The dtype table: names, kinds, sizes, alignments and typestrings, and the
 * names of the casting rules. Parsing of names lives in dtype_parse.c. */
#include <stdint.h>
#include <string.h>
#include <ufjit/dtype.h>

#include "common/error_internal.h"

typedef struct dtype_info {
    const char *name;
    char kind;
    size_t itemsize;
    size_t alignment;
} dtype_info;

/* _Alignof a complex type equals that of its parts on every ABI we target
 * (x86-64, aarch64), which is what NumPy reports as the alignment. */
static const dtype_info dtype_table[UF_NTYPES] = {
#define UF__DT_INFO(e, name, kind, size, ctype) \
    [UF_##e] = {#name, kind, size, _Alignof(ctype)},
    UF_DTYPE_MAP(UF__DT_INFO)
#undef UF__DT_INFO
};

bool uf_dtype_valid(int dtype)
{
    return dtype >= 0 && dtype < UF_NTYPES;
}

const char *uf_dtype_name(uf_dtype dtype)
{
    return uf_dtype_valid((int)dtype) ? dtype_table[dtype].name : "invalid";
}

char uf_dtype_kind(uf_dtype dtype)
{
    return uf_dtype_valid((int)dtype) ? dtype_table[dtype].kind : '\0';
}

size_t uf_dtype_itemsize(uf_dtype dtype)
{
    return uf_dtype_valid((int)dtype) ? dtype_table[dtype].itemsize : 0;
}

size_t uf_dtype_alignment(uf_dtype dtype)
{
    return uf_dtype_valid((int)dtype) ? dtype_table[dtype].alignment : 0;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define UF__NATIVE_ORDER '>'
#else
#define UF__NATIVE_ORDER '<'
#endif

/* As NumPy's dtype.str: '|' for one-byte types, the host order otherwise.
 * An invalid dtype gives the empty string. */
const char *uf_dtype_typestr(uf_dtype dtype, char buf[8])
{
    buf[0] = '\0';
    if (!uf_dtype_valid((int)dtype))
        return buf;
    const dtype_info *info = &dtype_table[dtype];
    buf[0] = info->itemsize == 1 ? '|' : UF__NATIVE_ORDER;
    buf[1] = info->kind;
    /* itemsize is at most 16: two digits and a NUL fit in the 8 bytes. */
    if (info->itemsize >= 10) {
        buf[2] = (char)('0' + info->itemsize / 10);
        buf[3] = (char)('0' + info->itemsize % 10);
        buf[4] = '\0';
    } else {
        buf[2] = (char)('0' + info->itemsize);
        buf[3] = '\0';
    }
    return buf;
}

static const char *const casting_names[] = {
    [UF_CASTING_NO] = "no",
    [UF_CASTING_EQUIV] = "equiv",
    [UF_CASTING_SAFE] = "safe",
    [UF_CASTING_SAME_KIND] = "same_kind",
    [UF_CASTING_UNSAFE] = "unsafe",
};

#define UF__NCASTING (sizeof casting_names / sizeof casting_names[0])

const char *uf_casting_name(uf_casting casting)
{
    if ((unsigned)casting >= UF__NCASTING)
        return "invalid";
    return casting_names[casting];
}

int uf_casting_from_name(const char *name, uf_casting *out, uf_error *err)
{
    if (name == NULL || out == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_casting_from_name: NULL argument");
    for (size_t i = 0; i < UF__NCASTING; i++) {
        if (strcmp(name, casting_names[i]) == 0) {
            *out = (uf_casting)i;
            return 0;
        }
    }
    return uf__error_set(err, UF_ERR_VALUE,
                         "casting must be one of 'no', 'equiv', 'safe', "
                         "'same_kind', or 'unsafe', not '%.64s'",
                         name);
}
