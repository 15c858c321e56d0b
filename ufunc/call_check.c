/* The checks the ufunc and gufunc call paths share (call_check.h). */
#include <stdio.h>

#include "common/error_internal.h"
#include "compiler/module.h"
#include "ufunc/call_check.h"

int uf__call_memory_error(const char *what, const char *name,
                          const char *role, int i, uf_error *err)
{
    char num[16] = "";
    if (i >= 0)
        snprintf(num, sizeof num, " %d", i);
    return uf__error_set(err, UF_ERR_UNSUPPORTED,
                         "%s '%s': %s%s is not in host memory", what, name,
                         role, num);
}

int uf__call_operands_error(const char *what, const char *name, int nin,
                            int nout, int n_in, int n_out, int null_input,
                            uf_error *err)
{
    if (null_input >= 0)
        return uf__error_set(err, UF_ERR_INVALID, "%s '%s': input %d is NULL",
                             what, name, null_input);
    return uf__error_set(err, UF_ERR_INVALID,
                         "%s '%s' takes %d input%s and %d output%s "
                         "(got %d and %d)", what, name, nin,
                         nin == 1 ? "" : "s", nout, nout == 1 ? "" : "s",
                         n_in, n_out);
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

const char *uf__compact_shape(int ndim, const int64_t *shape, char *buf,
                              size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "(");

    for (int i = 0; i < ndim && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, i ? ",%lld" : "%lld",
                              (long long)shape[i]);
    if (n < size)
        snprintf(buf + n, size - n, ndim == 1 ? ",)" : ")");
    return buf;
}

const char *uf__func_target(const uf_func *f, const uf_call_options *opts)
{
    if (opts != NULL && opts->target != NULL)
        return opts->target;
    return f->decl->target != NULL ? f->decl->target : UF__TARGET_DEFAULT;
}
