/* The one inner-loop signature every compiled or hand-written elementwise
 * loop has, in the style of NumPy's PyArrayMethod_StridedLoop: it runs over
 * one 1-D strip and returns 0, or a nonzero status that the caller turns
 * into a uf_error. */
#ifndef UF_UFUNC_LOOP_H
#define UF_UFUNC_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <ufjit/error.h>

/* data: nin + nout pointers to the strip's first elements;
 * dims[0]: the strip length; strides: nin + nout byte strides (0 for a
 * broadcast operand); aux: the loop's own data (NULL for JIT loops). */
typedef int (*uf__strided_loop)(void *ctx, char *const *data,
                                const int64_t *dims, const int64_t *strides,
                                void *aux);

/* What the caller passes as a loop's `ctx`: a loop that returns nonzero
 * may first describe the failure in *err (uf__error_set); the call path
 * adds the ufunc's name. */
typedef struct uf__loop_ctx {
    uf_error *err;
    /* An output of the call has UF__STREAM_BYTES or more: a loop that
     * copies results out of a buffer may write them with non-temporal
     * stores (compiler/lower_loop_rt.c), which spares the write-allocate
     * reads of lines no cache will hold until they are read again. */
    bool stream;
    /* The caller checked that every output is either the very same view as
     * an operand or shares no memory with any (ufunc_call.c's simple
     * calls): the loop need not check it again. */
    bool independent;
} uf__loop_ctx;

#define UF__STREAM_BYTES ((int64_t)8 << 20)

#endif
