/* The sets kernels make (Numba's set of numbers, compiler/lower/
 * lower_set.c): common/dict.h's table with 16-byte entries (key and hash,
 * no value). Keys are passed as 64 bits as a dict's are: integers and
 * bools widened to int64/uint64, floats as doubles. Float keys compare
 * with == as Numba's set finds them (UF__DICT_FLOAT_EQ): -0.0 and 0.0
 * are one key (the first stored kept), and a NaN finds nothing, so each
 * NaN added is a new item. Iteration is in insertion order (Numba's is
 * its hash table's order). */
#ifndef UF_COMMON_SET_H
#define UF_COMMON_SET_H

#include <stdint.h>

#include "common/dict.h"

/* The operations of uf__set_op and uf__set_iop. */
enum { UF__SET_OR = 0, UF__SET_AND = 1, UF__SET_SUB = 2, UF__SET_XOR = 3 };
/* The comparisons of uf__set_cmp. */
enum {
    UF__SET_EQ = 0, UF__SET_NE = 1, UF__SET_LE = 2, UF__SET_LT = 3,
    UF__SET_GE = 4, UF__SET_GT = 5, UF__SET_DISJOINT = 6
};

/* A new empty set in *frame of key kind `kind` (uf__dict_kind: BITS or
 * FLOAT_EQ); NULL when out of memory. */
void *uf__set_new(uf__nrt_meminfo **frame, int32_t kind);
/* Adds key: 0, or -1 when out of memory (the set unchanged). */
int32_t uf__set_add(void *s, uint64_t key);
/* 1 when key is in s. */
int32_t uf__set_contains(void *s, uint64_t key);
/* Removes key: 1, or 0 when absent. */
int32_t uf__set_discard(void *s, uint64_t key);
/* Removes an item (the last added), copied to *key: 1, or 0 when s is
 * empty. */
int32_t uf__set_pop(void *s, uint64_t *key);
/* Adds the items of src (a set of the same kind; src may be dst): 0, or
 * -1 when out of memory (dst holds some of them). */
int32_t uf__set_update(void *dst, void *src);
/* A new set in *frame holding the integer keys of s (int64, or uint64
 * when is_unsigned) as doubles: s as a set of floats (Numba's set(int64)
 * widened by an add of a float). NULL when out of memory. */
void *uf__set_widen(uf__nrt_meminfo **frame, void *s, int32_t is_unsigned);
/* a | b, a & b, a - b, a ^ b as a new set in *frame (items in a's order,
 * then b's); NULL when out of memory. */
void *uf__set_op(uf__nrt_meminfo **frame, void *a, void *b, int32_t op);
/* a |= b ... in place (b may be a): 0, or -1 when out of memory. */
int32_t uf__set_iop(void *a, void *b, int32_t op);
/* a == b, a != b, a <= b (subset), a < b, a >= b, a > b, a.isdisjoint(b):
 * 1 or 0. */
int32_t uf__set_cmp(void *a, void *b, int32_t op);

#define UF__SET_NEW "uf__set_new"
#define UF__SET_ADD "uf__set_add"
#define UF__SET_CONTAINS "uf__set_contains"
#define UF__SET_DISCARD "uf__set_discard"
#define UF__SET_POP "uf__set_pop"
#define UF__SET_UPDATE "uf__set_update"
#define UF__SET_WIDEN "uf__set_widen"
#define UF__SET_OP "uf__set_op"
#define UF__SET_IOP "uf__set_iop"
#define UF__SET_CMP "uf__set_cmp"

#endif
