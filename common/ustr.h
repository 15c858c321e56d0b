/* Run-time strings inside kernels (Numba's unicode_type; typed by
 * compiler/types/infer_ustr.c, lowered by compiler/lower/lower_ustr.c).
 *
 * A string's value is a pointer to a uf__ustr: its length in code points,
 * a hash slot (-1: not computed) and the code points, one 32-bit unit
 * each (PEP 393's kind 4 for every string: indexing and slicing are by
 * code point with no kind to dispatch on; 4 bytes a character where
 * CPython and Numba use 1 for ASCII). A string made at run time lives in
 * an NRT block (common/nrt.h), owned by frames and swept like an array;
 * a literal is a constant of the generated module with the same layout,
 * in no block. Strings are immutable, so `t = s` shares the pointer. */
#ifndef UF_COMMON_USTR_H
#define UF_COMMON_USTR_H

#include <stdbool.h>
#include <stdint.h>

#include "common/nrt.h"

typedef struct uf__ustr {
    int64_t len;  /* code points */
    int64_t hash; /* -1 until computed */
    uint32_t cp[]; /* len code points */
} uf__ustr;

#define UF__USTR_CP_OFFSET 16 /* offsetof(uf__ustr, cp), for lower_ustr.c */

/* A new string of n code points (uninitialised) in *frame; NULL when out
 * of memory or n is too large. */
uf__ustr *uf__ustr_new(uf__nrt_meminfo **frame, int64_t n);
/* a + b; NULL when out of memory. */
uf__ustr *uf__ustr_concat(uf__nrt_meminfo **frame, const uf__ustr *a,
                          const uf__ustr *b);
/* s * n (empty for n <= 0); NULL when out of memory. */
uf__ustr *uf__ustr_repeat(uf__nrt_meminfo **frame, const uf__ustr *s,
                          int64_t n);
/* The one-character string of code point c (0 <= c <= 0x10FFFF): for c
 * < 256 a constant of the runtime, in no block. */
uf__ustr *uf__ustr_char(uf__nrt_meminfo **frame, int64_t c);
/* s[start:stop:step] with Python's rules; bit 0/1/2 of `none` says start,
 * stop, step is None; step != 0 (checked by the caller). */
uf__ustr *uf__ustr_slice(uf__nrt_meminfo **frame, const uf__ustr *s,
                         int64_t start, int64_t stop, int64_t step,
                         int32_t none);
/* str(v): the decimal digits of v, as unsigned when is_unsigned. */
uf__ustr *uf__ustr_from_int(uf__nrt_meminfo **frame, int64_t v,
                            int32_t is_unsigned);
/* The order of a and b by code point: <0, 0, >0. */
int32_t uf__ustr_cmp(const uf__ustr *a, const uf__ustr *b);
/* The first index of sub in s, or -1 (`sub in s`). */
int64_t uf__ustr_find(const uf__ustr *s, const uf__ustr *sub);
/* Writes s to stdout as UTF-8 (print()). */
void uf__ustr_write(const uf__ustr *s, void *stream);
/* The UTF-8 bytes of s into buf (cap bytes), NUL-terminated; the bytes
 * the whole string needs (without the NUL). */
int64_t uf__ustr_utf8(const uf__ustr *s, char *buf, int64_t cap);

/* The methods (common/ustr_meth.c), in builtins.h's order from
 * UF__BI_USTR_UPPER. */
enum {
    UF__USTR_OP_UPPER, UF__USTR_OP_LOWER, UF__USTR_OP_TITLE,
    UF__USTR_OP_CAPITALIZE, UF__USTR_OP_SWAPCASE, UF__USTR_OP_STRIP,
    UF__USTR_OP_LSTRIP, UF__USTR_OP_RSTRIP, UF__USTR_OP_STARTSWITH,
    UF__USTR_OP_ENDSWITH, UF__USTR_OP_FIND, UF__USTR_OP_RFIND,
    UF__USTR_OP_INDEX, UF__USTR_OP_RINDEX, UF__USTR_OP_COUNT,
    UF__USTR_OP_REPLACE, UF__USTR_OP_ISDIGIT, UF__USTR_OP_ISALPHA,
    UF__USTR_OP_ISALNUM, UF__USTR_OP_ISSPACE, UF__USTR_OP_ISUPPER,
    UF__USTR_OP_ISLOWER, UF__USTR_OP_ZFILL, UF__USTR_OP_CENTER,
    UF__USTR_OP_LJUST, UF__USTR_OP_RJUST, UF__USTR_OP_ISASCII,
    UF__USTR_OP_ISDECIMAL, UF__USTR_OP_ISNUMERIC, UF__USTR_OP_ISPRINTABLE,
    UF__USTR_OP_ISIDENTIFIER, UF__USTR_OP_ISTITLE, UF__USTR_OP_CASEFOLD,
    UF__USTR_OP_EXPANDTABS
};
/* What a method returns besides its result (the lowering raises). */
enum {
    UF__USTR_OK,
    UF__USTR_NOMEM,
    UF__USTR_NOTFOUND, /* index/rindex: ValueError */
    UF__USTR_FILL,     /* center/ljust/rjust: a fill that is not 1 long */
    UF__USTR_EMPTYSEP  /* split, rsplit, partition: ValueError */
};
/* Method op of s with string arguments a, b (NULL: not given or None)
 * and integers i, j (bit 0/1 of `given`: i/j given): *out gets the int64
 * result, or the new string's pointer. One of the codes above. */
int32_t uf__ustr_meth(uf__nrt_meminfo **frame, int32_t op, const uf__ustr *s,
                      const uf__ustr *a, const uf__ustr *b, int64_t i,
                      int64_t j, int32_t given, int64_t *out);

/* sep.join(list): the list's items (uf__ustr pointers, common/list.h's
 * header) joined by sep; NULL when out of memory. */
uf__ustr *uf__ustr_join(uf__nrt_meminfo **frame, const uf__ustr *sep,
                        const void *list);
/* s.split(sep, maxsplit) (sep NULL: runs of whitespace) as a new list of
 * new strings in *frame, into *out; one of the codes above. */
int32_t uf__ustr_split(uf__nrt_meminfo **frame, const uf__ustr *s,
                       const uf__ustr *sep, int64_t maxsplit, void **out);

/* s.rsplit(sep, maxsplit), s.splitlines(keepends), as split
 * (common/ustr_parts.c). */
int32_t uf__ustr_rsplit(uf__nrt_meminfo **frame, const uf__ustr *s,
                        const uf__ustr *sep, int64_t maxsplit, void **out);
int32_t uf__ustr_splitlines(uf__nrt_meminfo **frame, const uf__ustr *s,
                            int64_t keepends, void **out);
/* s.partition(sep) (right: rpartition): three new strings into out. */
int32_t uf__ustr_partition(uf__nrt_meminfo **frame, const uf__ustr *s,
                           const uf__ustr *sep, int32_t right, void **out);

/* Inside uf__ustr_meth: the case mappings (UF__USTR_OP_UPPER ...
 * CASEFOLD, common/ustr_case.c), the is*() classes (0/1), expandtabs. */
uf__ustr *uf__ustr_case(uf__nrt_meminfo **frame, const uf__ustr *s,
                        int32_t op);
int64_t uf__ustr_class(const uf__ustr *s, int32_t op);
uf__ustr *uf__ustr_expandtabs(uf__nrt_meminfo **frame, const uf__ustr *s,
                              int64_t tabsize);

#define UF__USTR_RSPLIT "uf__ustr_rsplit"
#define UF__USTR_SPLITLINES "uf__ustr_splitlines"
#define UF__USTR_PARTITION "uf__ustr_partition"
#define UF__USTR_JOIN "uf__ustr_join"
#define UF__USTR_SPLIT "uf__ustr_split"
#define UF__USTR_METH "uf__ustr_meth"
#define UF__USTR_CONCAT "uf__ustr_concat"
#define UF__USTR_REPEAT "uf__ustr_repeat"
#define UF__USTR_CHAR "uf__ustr_char"
#define UF__USTR_SLICE "uf__ustr_slice"
#define UF__USTR_FROM_INT "uf__ustr_from_int"
#define UF__USTR_CMP "uf__ustr_cmp"
#define UF__USTR_FIND "uf__ustr_find"

#endif
