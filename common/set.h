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
 * slot order (Numba's is its own table's order).
 *
 * Wider keys (UF__SET_WIDE: complex numbers, tuples of numbers) are
 * flattened into `nfields` 8-byte fields (an integer widened to 64 bits,
 * a float or a complex part as a double; bit i of `fmask` says field i is
 * a double), passed by pointer (the *_key functions), and compared field
 * by field with == as Numba compares tuples (-0.0 == 0.0; a NaN field
 * never equal, so such a key is never found). A slot is then the fields
 * then the tag: (nfields + 1) * 8 bytes. String keys (UF__SET_USTR) are
 * a uf__ustr pointer, hashed and compared by code points (common/
 * ustr_key.h, as a dict's); the set holds no reference to them: as a
 * dict's, they stay in their frames, kept while the set is reachable
 * (UF__SET_ROOT_MARK, common/list_items.h). */
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
    UF__SET_FLOAT = 1, /* floats, as double, compared with == */
    UF__SET_USTR = 2,  /* strings: a const uf__ustr *, by content */
    UF__SET_WIDE = 3   /* nfields 8-byte fields, fmask the doubles */
} uf__set_kind;

/* The most fields a key flattens to (a tuple of 16 numbers, 8 complex). */
enum { UF__SET_MAXFIELDS = 16 };

typedef struct uf__set {
    int64_t size;   /* live keys (read inline: len, truth) */
    int64_t nslots; /* slots, a power of two, or 0 before the first add */
    char *slots;    /* nslots * UF__SET_SLOT bytes */
    int64_t fill;   /* live and dead slots */
    int64_t finger; /* where pop looks first */
    int32_t shift;  /* 64 - log2(nslots) */
    int32_t nfields; /* 8-byte fields of a key, at 44 (1 but WIDE) */
    uint64_t fmask; /* bit i: field i is a double, at 48 */
    int32_t kind;   /* uf__set_kind, at 56 (read inline) */
} uf__set;

/* The operations of uf__set_op and uf__set_iop. */
enum { UF__SET_OR = 0, UF__SET_AND = 1, UF__SET_SUB = 2, UF__SET_XOR = 3 };
/* The comparisons of uf__set_cmp. */
enum {
    UF__SET_EQ = 0, UF__SET_NE = 1, UF__SET_LE = 2, UF__SET_LT = 3,
    UF__SET_GE = 4, UF__SET_GT = 5, UF__SET_DISJOINT = 6
};

/* A new empty set in *frame of key kind `kind` (not WIDE); NULL when out
 * of memory. */
void *uf__set_new(uf__nrt_meminfo **frame, int32_t kind);
/* A new empty set of any kind: WIDE keys of nfields fields (at most
 * UF__SET_MAXFIELDS), bit i of fmask set when field i is a double. */
void *uf__set_new_keyed(uf__nrt_meminfo **frame, int32_t kind,
                        int32_t nfields, uint64_t fmask);
/* The slot bytes of s: (nfields + 1) * 8. */
int64_t uf__set_stride(const void *s);
/* The *_key forms take a key by its address (nfields * 8 bytes): every
 * kind, WIDE keys only so. */
int32_t uf__set_add_key(void *s, const void *key);
int32_t uf__set_contains_key(void *s, const void *key);
int32_t uf__set_discard_key(void *s, const void *key);
int32_t uf__set_pop_key(void *s, void *key);
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
/* Adds the keys of dict d (common/dict.h; its key kind the set's, so the
 * same 64 bits): set(d). 0, or -1 when out of memory. */
int32_t uf__set_add_dict_keys(void *s, void *d);
/* a | b, a & b, a - b, a ^ b as a new set in *frame; NULL when out of
 * memory. */
void *uf__set_op(uf__nrt_meminfo **frame, void *a, void *b, int32_t op);
/* a |= b ... in place (b may be a): 0, or -1 when out of memory. */
int32_t uf__set_iop(void *a, void *b, int32_t op);
/* a == b, a != b, a <= b (subset), a < b, a >= b, a > b, a.isdisjoint(b):
 * 1 or 0. */
int32_t uf__set_cmp(void *a, void *b, int32_t op);

/* The slot of the least (is_max: greatest) key of s, or -1 when s is
 * empty: Numba's min()/max() loop `if v < m: m = v` over tuples (first
 * differing field decides; bit i of umask: field i is a uint64) or
 * strings (by code points). */
int64_t uf__set_minmax(void *s, int32_t is_max, uint64_t umask);

#define UF__SET_MINMAX "uf__set_minmax"
#define UF__SET_NEW "uf__set_new"
#define UF__SET_NEW_KEYED "uf__set_new_keyed"
#define UF__SET_ADD_KEY "uf__set_add_key"
#define UF__SET_CONTAINS_KEY "uf__set_contains_key"
#define UF__SET_DISCARD_KEY "uf__set_discard_key"
#define UF__SET_POP_KEY "uf__set_pop_key"
#define UF__SET_ADD "uf__set_add"
#define UF__SET_CONTAINS "uf__set_contains"
#define UF__SET_DISCARD "uf__set_discard"
#define UF__SET_POP "uf__set_pop"
#define UF__SET_NEXT "uf__set_next"
#define UF__SET_CLEAR "uf__set_clear"
#define UF__SET_COPY "uf__set_copy"
#define UF__SET_UPDATE "uf__set_update"
#define UF__SET_WIDEN "uf__set_widen"
#define UF__SET_ADD_DICT_KEYS "uf__set_add_dict_keys"
#define UF__SET_OP "uf__set_op"
#define UF__SET_IOP "uf__set_iop"
#define UF__SET_CMP "uf__set_cmp"

#endif
