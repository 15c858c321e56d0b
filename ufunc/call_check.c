/* The checks the ufunc and gufunc call paths share (call_check.h). */
#include <stddef.h>
#include <stdio.h>

#include "common/error_internal.h"
#include "compiler/module.h"
#include "ndarray/array_internal.h"
#include "ufunc/call_check.h"
#include "ufunc/options.h"

int uf__call_read_options(const uf_call_options *opts, const char *declared,
                          unsigned caps, uf__call_setup *s, uf_error *err)
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

int uf__call_check_memory(const char *what, const char *name,
                          const uf__target *t, const uf_array *a,
                          const char *role, int i, uf_error *err)
{
    char num[16] = "";

    if (!(t->caps & UF__TCAP_HOST_MEMORY) ||
        a->device.type == UF_DEVICE_HOST)
        return 0;
    if (i >= 0)
        snprintf(num, sizeof num, " %d", i);
    return uf__error_set(err, UF_ERR_UNSUPPORTED,
                         "%s '%s': %s%s is not in host memory", what, name,
                         role, num);
}

int uf__call_check_operands(const char *what, const char *name,
                            const uf__target *t, int nin, int nout,
                            uf_array *const *inputs, int n_in,
                            uf_array **outputs, int n_out, uf_array **op,
                            uf_error *err)
{
    if (n_in != nin || n_out != nout || (n_in > 0 && inputs == NULL) ||
        (n_out > 0 && outputs == NULL))
        return uf__error_set(err, UF_ERR_INVALID,
                             "%s '%s' takes %d input%s and %d output%s "
                             "(got %d and %d)", what, name, nin,
                             nin == 1 ? "" : "s", nout, nout == 1 ? "" : "s",
                             n_in, n_out);
    for (int i = 0; i < n_in; i++) {
        if (inputs[i] == NULL)
            return uf__error_set(err, UF_ERR_INVALID,
                                 "%s '%s': input %d is NULL", what, name, i);
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

int uf__call_check_casts(const char *name, uf_casting casting, int nin,
                         int nout, uf_array *const *op,
                         const uf_dtype *types, uf_error *err)
{
    for (int i = 0; i < nin; i++) {
        uf_dtype from = op[i]->dtype, to = types[i];
        char which[32] = "";

        if (from == to || casting >= UF_CASTING_SAFE ||
            uf_can_cast(from, to, casting))
            continue;
        /* NumPy numbers operands only when there are several. */
        if (nin > 1)
            snprintf(which, sizeof which, " %d", i);
        return uf__error_set(err, UF_ERR_CAST,
                             "Cannot cast ufunc '%s' input%s from "
                             "dtype('%s') to dtype('%s') with casting rule "
                             "'%s'", name, which, uf_dtype_name(from),
                             uf_dtype_name(to), uf_casting_name(casting));
    }
    for (int o = 0; o < nout; o++) {
        const uf_array *a = op[nin + o];
        uf_dtype from = types[nin + o];
        char which[32] = "";

        if (a == NULL || a->dtype == from ||
            uf_can_cast(from, a->dtype, casting))
            continue;
        /* Outputs are numbered by operand position. */
        if (nout > 1)
            snprintf(which, sizeof which, " %d", nin + o);
        return uf__error_set(err, UF_ERR_CAST,
                             "Cannot cast ufunc '%s' output%s from "
                             "dtype('%s') to dtype('%s') with casting rule "
                             "'%s'", name, which, uf_dtype_name(from),
                             uf_dtype_name(a->dtype),
                             uf_casting_name(casting));
    }
    return 0;
}

const char *uf__func_target(const uf_func *f, const uf_call_options *opts)
{
    if (opts != NULL && opts->target != NULL)
        return opts->target;
    return f->decl->target != NULL ? f->decl->target : UF__TARGET_DEFAULT;
}
