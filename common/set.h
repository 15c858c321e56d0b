/* The sets kernels make (Numba's set of numbers, compiler/lower/
 * lower_set.c).
 *
 * As a dict (common/dict.h), a set's value is the data pointer of one
 * NRT block holding its header, whose destructor frees the slots. The
 * table is open addressing over a power-of-two array of 16-byte slots
 * (key, then its hash tag), probed linearly from the hash's top bits
 * (Fibonacci hashing), at most half full counting deleted slots: a
 * lookup reads one slot run, with no index to go through. Keys are
 * passed as 64 bits as a dict's are: integers and bools widened to
 * int64/uint64, floats as doubles, which compare with == as Numba's set
 * finds them: -0.0 and 0.0 are one key (the first stored kept), and a
 * NaN finds nothing, so each NaN added is a new item. Iteration is in
 * slot order (Numba's is its own table's order). */
#ifndef UF_COMMON_SET_H
#define UF_COMMON_SET_H

#include <stdint.h>

#include "common/nrt.h"

/* A slot: its key at 0, its tag at 8 (UF__SET_EMPTY, UF__SET_DEAD, or
 * the key's hash, never below 2). */
enum { UF__SET_SLOT = 16, UF__SET_TAG_OFF = 8 };
#define UF__SET_EMPTY UINT64_C(0)
#define UF__SET_DEAD UINT64_C(1)

typedef enum uf__set_kind {
    UF__SET_BITS = 0, /* integers and bools */
    UF__SET_FLOAT = 1 /* floats, as double, compared with == */
} uf__set_kind;

typedef struct uf__set {
    int64_t size;   /* live keys (read inline: len, truth) */
    int64_t nslots; /* slots, a power of two, or 0 before the first add */
    char *slots;    /* nslots * UF__SET_SLOT bytes */
    int64_t fill;   /* live and dead slots */
    int64_t finger; /* where pop looks first */
    int32_t shift;  /* 64 - log2(nslots) */
    int32_t pad;
    int64_t pad2;
    int32_t kind;   /* uf__set_kind, at 56 (read inline) */
} uf__set;

/* The operations of uf__set_op and uf__set_iop. */
enum { UF__SET_OR = 0, UF__SET_AND = 1, UF__SET_SUB = 2, UF__SET_XOR = 3 };
/* The comparisons of uf__set_cmp. */
enum {
    UF__SET_EQ = 0, UF__SET_NE = 1, UF__SET_LE = 2, UF__SET_LT = 3,
    UF__SET_GE = 4, UF__SET_GT = 5, UF__SET_DISJOINT = 6
};

/* A new empty set in *frame of key kind `kind`; NULL when out of
 * memory. */
void *uf__set_new(uf__nrt_meminfo **frame, int32_t kind);
/* Adds key: 0, or -1 when out of memory (the set unchanged). */
int32_t uf__set_add(void *s, uint64_t key);
/* 1 when key is in s. */
int32_t uf__set_contains(void *s, uint64_t key);
/* Removes key: 1, or 0 when absent. */
int32_t uf__set_discard(void *s, uint64_t key);
/* Removes a key, copied to *key: 1, or 0 when s is empty. */
int32_t uf__set_pop(void *s, uint64_t *key);
/* The first live slot at position >= pos, or -1. */
int64_t uf__set_next(void *s, int64_t pos);
/* Removes every key (the slots are kept). */
void uf__set_clear(void *s);
/* A new set in *frame with s's keys; NULL when out of memory. */
void *uf__set_copy(uf__nrt_meminfo **frame, void *s);
/* Adds the keys of src (a set of the same kind; src may be dst): 0, or
 * -1 when out of memory (dst holds some of them). */
int32_t uf__set_update(void *dst, void *src);
/* A new set in *frame holding the integer keys of s (int64, or uint64
 * when is_unsigned) as doubles: s as a set of floats (Numba's set(int64)
 * widened by an add of a float). NULL when out of memory. */
void *uf__set_widen(uf__nrt_meminfo **frame, void *s, int32_t is_unsigned);
/* a | b, a & b, a - b, a ^ b as a new set in *frame; NULL when out of
 * memory. */
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
#define UF__SET_NEXT "uf__set_next"
#define UF__SET_CLEAR "uf__set_clear"
#define UF__SET_COPY "uf__set_copy"
#define UF__SET_UPDATE "uf__set_update"
#define UF__SET_WIDEN "uf__set_widen"
#define UF__SET_OP "uf__set_op"
#define UF__SET_IOP "uf__set_iop"
#define UF__SET_CMP "uf__set_cmp"

#endif
