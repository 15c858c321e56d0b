/* What the ufunc and gufunc call paths check alike, in NumPy's order and
 * with its messages: the options every call reads (the target among them,
 * looked up in the registry) and the operand lists. */
#ifndef UF_UFUNC_CALL_CHECK_H
#define UF_UFUNC_CALL_CHECK_H

#include <ufjit/kernel.h>

#include "targets/target.h"

typedef struct uf__call_setup {
    const uf__target *target;
    int nthreads; /* 0: the target's default */
    uf_casting casting;
} uf__call_setup;

/* Reads opts (NULL: defaults) as far as its `size` says fields exist:
 * the casting rule (same_kind by default), the target (opts->target, else
 * `declared`, the kernel's, else the default) which must have every
 * capability in `caps`, and num_threads. */
int uf__call_read_options(const uf_call_options *opts, const char *declared,
                          unsigned caps, uf__call_setup *s, uf_error *err);

/* The operands of a call of `what` ("ufunc", "gufunc") `name` taking nin
 * inputs and nout outputs: the counts, no NULL input, every operand in
 * memory the target reaches, outputs writeable. op[0..nin+nout) receives
 * the inputs then the outputs (absent ones NULL). */
int uf__call_check_operands(const char *what, const char *name,
                            const uf__target *t, int nin, int nout,
                            uf_array *const *inputs, int n_in,
                            uf_array **outputs, int n_out, uf_array **op,
                            uf_error *err);

/* One operand's memory: "ufunc 'f': output 1 is not in host memory";
 * `i` < 0 for an operand without a number (the where mask). */
int uf__call_check_memory(const char *what, const char *name,
                          const uf__target *t, const uf_array *a,
                          const char *role, int i, uf_error *err);

/* The casts of a call running a loop of dtypes types[0..nin+nout) on
 * operands op[0..nin+nout) (absent outputs NULL), as NumPy checks them:
 * inputs are cast safely (the loop was chosen so), but a stricter rule
 * ('no', 'equiv') is honoured; outputs follow the rule, same_kind by
 * default. The messages are NumPy's ("Cannot cast ufunc 'f' input 1
 * from dtype('float64') to dtype('int64') with casting rule 'no'"). */
int uf__call_check_casts(const char *name, uf_casting casting, int nin,
                         int nout, uf_array *const *op,
                         const uf_dtype *types, uf_error *err);

/* The target a call of f runs on: opts->target, else the kernel's
 * declared one, else the default (the name, looked up by the caller). */
struct uf_func;
const char *uf__func_target(const struct uf_func *f,
                            const uf_call_options *opts);

#endif
