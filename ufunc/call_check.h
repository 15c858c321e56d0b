/* What the ufunc and gufunc call paths check alike, in NumPy's order and
 * with its messages: the options every call reads (the target among them,
 * looked up in the registry) and the operand lists. */
#ifndef UF_UFUNC_CALL_CHECK_H
#define UF_UFUNC_CALL_CHECK_H

#include <stddef.h>
#include <ufjit/kernel.h>

#include "common/error_internal.h"
#include "ndarray/array_internal.h"
#include "targets/target.h"
#include "ufunc/options.h"

typedef struct uf__call_setup {
    const uf__target *target;
    int nthreads; /* 0: the target's default */
    uf_casting casting;
} uf__call_setup;

/* Reads opts (NULL: defaults) as far as its `size` says fields exist:
 * the casting rule (same_kind by default), the target (opts->target, else
 * `declared`, the kernel's, else the default) which must have every
 * capability in `caps`, and num_threads. Inline, as the two checks
 * below: every call runs them. */
static inline int uf__call_read_options(const uf_call_options *opts,
                                        const char *declared, unsigned caps,
                                        uf__call_setup *s, uf_error *err)
{
    s->casting = UF_CASTING_SAME_KIND;
    if (opts != NULL &&
        opts->size < offsetof(uf_call_options, where) + sizeof opts->where)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_call_options.size must be set to "
                             "sizeof(uf_call_options) (got %zu)", opts->size);
    if (opts != NULL && opts->casting_set) {
        if ((int)opts->casting < UF_CASTING_NO ||
            opts->casting > UF_CASTING_UNSAFE)
            return uf__error_set(err, UF_ERR_INVALID,
                                 "invalid casting rule %d",
                                 (int)opts->casting);
        s->casting = opts->casting;
    }
    const char *name = opts != NULL && opts->target != NULL ? opts->target
                                                            : declared;
    if ((s->target = uf__target_get(name, caps, err)) == NULL)
        return err->code;
    s->nthreads = UF__OPT(opts, num_threads, 0);
    if (s->nthreads < 0)
        return uf__error_set(err, UF_ERR_VALUE,
                             "num_threads must be positive, or 0 for the "
                             "default (got %d)", s->nthreads);
    return 0;
}

/* The error messages of the two checks below (out of line: the checks
 * run on every call and are inlined). */
int uf__call_memory_error(const char *what, const char *name,
                          const char *role, int i, uf_error *err);
/* null_input: the input that is NULL, or -1: the counts or a list are
 * wrong */
int uf__call_operands_error(const char *what, const char *name, int nin,
                            int nout, int n_in, int n_out, int null_input,
                            uf_error *err);

/* One operand's memory: "ufunc 'f': output 1 is not in host memory";
 * `i` < 0 for an operand without a number (the where mask). */
static inline int uf__call_check_memory(const char *what, const char *name,
                                        const uf__target *t,
                                        const uf_array *a, const char *role,
                                        int i, uf_error *err)
{
    if (!(t->caps & UF__TCAP_HOST_MEMORY) ||
        a->device.type == UF_DEVICE_HOST)
        return 0;
    return uf__call_memory_error(what, name, role, i, err);
}

/* The operands of a call of `what` ("ufunc", "gufunc") `name` taking nin
 * inputs and nout outputs: the counts, no NULL input, every operand in
 * memory the target reaches, outputs writeable. op[0..nin+nout) receives
 * the inputs then the outputs (absent ones NULL). */
static inline int uf__call_check_operands(const char *what, const char *name,
                                          const uf__target *t, int nin,
                                          int nout, uf_array *const *inputs,
                                          int n_in, uf_array **outputs,
                                          int n_out, uf_array **op,
                                          uf_error *err)
{
    if (n_in != nin || n_out != nout || (n_in > 0 && inputs == NULL) ||
        (n_out > 0 && outputs == NULL))
        return uf__call_operands_error(what, name, nin, nout, n_in, n_out,
                                       -1, err);
    for (int i = 0; i < n_in; i++) {
        if (inputs[i] == NULL)
            return uf__call_operands_error(what, name, nin, nout, n_in,
                                           n_out, i, err);
        if (uf__call_check_memory(what, name, t, inputs[i], "input", i,
                                  err) < 0)
            return err->code;
        op[i] = inputs[i];
    }
    for (int o = 0; o < n_out; o++) {
        uf_array *a = outputs[o];

        op[nin + o] = a;
        if (a == NULL)
            continue;
        if (uf__call_check_memory(what, name, t, a, "output", o, err) < 0)
            return err->code;
        if (!(a->flags & UF_ARRAY_WRITEABLE))
            return uf__error_set(err, UF_ERR_READONLY,
                                 "output array is read-only");
    }
    return 0;
}

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
/* NumPy's compact shape format of ufunc errors: "(3,4)", "(3,)", "()". */
const char *uf__compact_shape(int ndim, const int64_t *shape, char *buf,
                              size_t size);

const char *uf__func_target(const struct uf_func *f,
                            const uf_call_options *opts);

#endif
