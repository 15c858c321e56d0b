/* The entry point through which uf_call runs a plain njit function
 * (compiler/host/jit_plain.c; the call path is njit/njit_call.c). */
#ifndef UF_COMPILER_JIT_PLAIN_H
#define UF_COMPILER_JIT_PLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "compiler/host/jit.h"

/* An array argument as the entry reads it: the uf_array's data pointer,
 * shape and strides (in bytes). */
typedef struct uf__plain_arg {
    void *data;
    const int64_t *shape;
    const int64_t *strides;
} uf__plain_arg;

/* What outs[0] points to when the function returns an array (outs[k]
 * for an array in element k of a returned tuple): the block
 * its data lives in (common/nrt.h, one reference now the caller's), or
 * NULL when it is a view of an argument; then the view itself. */
typedef struct uf__plain_array_result {
    void *meminfo;
    char *data;
    int64_t shape[64];
    int64_t strides[64];
} uf__plain_array_result;

/* int entry(void *const *args, void *const *outs): args[i] points to the
 * value of a scalar argument (of dtype in[i], any alignment; bool one
 * byte), to a uf__plain_arg for an array argument, or to the uf__ustr
 * pointer of a string (common/ustr.h); outs[k] receives
 * result k (the returned value, or element k of a returned tuple) in its
 * dtype; a nested tuple's elements count depth first (uf__plain_results).
 * Returns 0 or a uf__jit_status. */
typedef int (*uf__plain_entry)(void *const *args, void *const *outs);

/* The results of a function returning `ret`, one per output of uf_call:
 * none for None, the number or array itself, a tuple's numbers and
 * arrays in order, nested tuples flattened depth first (jit_plain_results.c).
 * Their count, at most max into leaves[]; -1 for anything else (None in a
 * tuple) or more than max. */
int uf__plain_results(const uf__type *ret, const uf__type **leaves, int max);
/* How those results nest, as Python writes a tuple of their indexes:
 * "0", "(0, (1, 2))", "(0,)", "None", a string's index as "str(1)" (its
 * output is a 1-D uint32 array of its code points); into buf[0..cap),
 * its length, or -1 when ret is no such result or the text does not
 * fit. */
int uf__plain_result_tree(const uf__type *ret, char *buf, size_t cap);

/* Compiles the entry of `tf` (its arguments: scalars or arrays; its
 * result: None, a scalar, an array or a tuple of scalars, arrays and
 * such tuples). `in` gives each scalar
 * argument's dtype as passed, converted to tf's argument type (ignored
 * for arrays). `listing` may be NULL. */
int uf__jit_plain(uf__jit *jit, const uf__typed_func *tf, const uf_dtype *in,
                  uf__plain_entry *fn, uf__jit_listing *listing,
                  uf_error *err);

/* uf__jit_plain for the disk cache: the entry named by `stem`
 * (uf__jit_disk_prefix), its name into symbol[0..symcap), the object file
 * the JIT runs into *obj (free with uf__free), *objlen bytes. */
int uf__jit_plain_obj(uf__jit *jit, const uf__typed_func *tf,
                      const uf_dtype *in, const char *stem,
                      uf__plain_entry *fn, char *symbol, size_t symcap,
                      char **obj, size_t *objlen, uf_error *err);

#endif
