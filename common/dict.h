/* The dicts and sets kernels make (Numba's DictType and set of numbers,
 * compiler/lower/lower_dict.c).
 *
 * As a list (common/list.h), a dict's value is the data pointer of one
 * NRT block holding its header, whose destructor frees the buffers the
 * header owns; a set is a dict without values. The table is CPython's
 * compact layout: entries in insertion order (what iteration walks, as
 * Numba's typed dict keeps it) and a power-of-two index of entry
 * positions probed linearly. A key is passed as 64 bits: an integer or
 * bool widened to int64/uint64, a float widened to double, compared by
 * bits as Numba's dict finds them (-0.0 and 0.0 are two keys), except
 * that a NaN key finds nothing; a string key (Numba's unicode_type) is
 * its uf__ustr pointer, hashed and compared by its code points.
 * Lookups allocate nothing; only inserting past the table's room does.
 * A dict holds no reference to the strings its keys or values point at,
 * nor to the blocks of its array values (stored whole, {data, shape,
 * strides}, the data pointer first): they stay in the frames that made
 * them, kept while the dict is reachable (common/list_items.h's dict
 * roots, which read the first word of each value).
 *
 * Wider keys (UF__DICT_WIDE: complex numbers, tuples of numbers) are
 * flattened into `nfields` 8-byte fields as a set's are (common/set.h:
 * integers widened, floats as doubles, fmask's bits the doubles), passed
 * by address (the *_key functions) and compared field by field, a
 * double by its bits as a float key is (Numba's dict tells -0.0 from 0.0
 * there too; a NaN field is never found).
 * An entry keeps field 0 at the key's place and the others at its end,
 * after the value, so the hash and the value stay at 8 and 16. */
#ifndef UF_COMMON_DICT_H
#define UF_COMMON_DICT_H

#include <stdint.h>

#include "common/nrt.h"

/* An entry: its key, its hash (UF__DICT_DEAD once deleted), then the
 * value (esize - 16 bytes; none in a set). */
enum { UF__DICT_KEY_OFF = 0, UF__DICT_HASH_OFF = 8, UF__DICT_VALUE_OFF = 16 };
#define UF__DICT_DEAD UINT64_MAX

typedef enum uf__dict_kind {
    UF__DICT_BITS = 0,  /* integers and bools */
    UF__DICT_FLOAT = 1, /* floats, as double: NaN never found */
    UF__DICT_USTR = 2,  /* strings: a const uf__ustr *, by content */
    UF__DICT_WIDE = 3   /* nfields 8-byte fields, fmask the doubles */
} uf__dict_kind;

typedef struct uf__dict {
    int64_t size;    /* live entries */
    int64_t used;    /* entries written, dead ones included */
    char *entries;   /* cap * esize bytes, in insertion order */
    int64_t cap;     /* entries the buffer holds */
    int64_t *index;  /* mask + 1 slots: an entry position, or -1 */
    int64_t mask;
    int64_t esize;
    int32_t kind;    /* uf__dict_kind */
    int32_t nfields; /* 8-byte fields of a key (1 but WIDE), at 60 */
    uint64_t fmask;  /* bit i: field i is a double, at 64 */
} uf__dict;

/* A new empty dict in *frame whose entries are esize bytes (16 plus the
 * value rounded up to 8); NULL when out of memory. */
void *uf__dict_new(uf__nrt_meminfo **frame, int64_t esize, int32_t kind);
/* A new empty dict of any kind: WIDE keys of nfields fields (at most
 * common/set.h's UF__SET_MAXFIELDS; bit i of fmask set when field i is a
 * double), esize then 16 + the value rounded up to 8 + 8 * (nfields - 1).
 */
void *uf__dict_new_keyed(uf__nrt_meminfo **frame, int64_t esize,
                         int32_t kind, int32_t nfields, uint64_t fmask);
/* The *_key forms take a key by its address (nfields * 8 bytes in a
 * row): every kind, WIDE keys only so. */
char *uf__dict_find_key(void *d, const void *key);
char *uf__dict_insert_key(void *d, const void *key);
int32_t uf__dict_delete_key(void *d, const void *key, void *out);
int32_t uf__dict_popitem_key(void *d, void *key, void *out);
/* The key of the entry at position pos copied to key (nfields words). */
void uf__dict_key_at(const void *d, int64_t pos, void *key);
/* The value of key (its address in the entry), or NULL when absent. */
char *uf__dict_find(void *d, uint64_t key);
/* The value of key, a new entry (value uninitialised) when absent; NULL
 * when out of memory (the dict is unchanged). */
char *uf__dict_insert(void *d, uint64_t key);
/* Removes key, its value copied to out first (esize - 16 bytes; out may
 * be NULL); 1, or 0 when absent. */
int32_t uf__dict_delete(void *d, uint64_t key, void *out);
/* The first live entry at position >= pos, or -1. */
int64_t uf__dict_next(void *d, int64_t pos);
/* Removes every entry (the buffers are kept). */
void uf__dict_clear(void *d);
/* A new dict in *frame with d's entries in d's order; NULL when out of
 * memory. */
void *uf__dict_copy(uf__nrt_meminfo **frame, void *d);
/* Removes the last live entry, its key copied to *key; 1, or 0 when d
 * is empty. */
int32_t uf__dict_popitem(void *d, uint64_t *key, void *out);

#define UF__DICT_NEW_KEYED "uf__dict_new_keyed"
#define UF__DICT_FIND_KEY "uf__dict_find_key"
#define UF__DICT_INSERT_KEY "uf__dict_insert_key"
#define UF__DICT_DELETE_KEY "uf__dict_delete_key"
#define UF__DICT_POPITEM_KEY "uf__dict_popitem_key"
#define UF__DICT_NEW "uf__dict_new"
#define UF__DICT_FIND "uf__dict_find"
#define UF__DICT_INSERT "uf__dict_insert"
#define UF__DICT_DELETE "uf__dict_delete"
#define UF__DICT_NEXT "uf__dict_next"
#define UF__DICT_CLEAR "uf__dict_clear"
#define UF__DICT_COPY "uf__dict_copy"
#define UF__DICT_POPITEM "uf__dict_popitem"

#endif
