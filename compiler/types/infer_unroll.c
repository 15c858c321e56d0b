/* The tests compiler/front/unroll.c puts in a loop over literal_unroll(),
 * decided from the type of the iterable as branch pruning decides a
 * constant test (infer_prune.c): the way not taken is neither typed nor
 * lowered. For a tuple of at most UF__UNROLL_MAX items the copies of the
 * body for its items are live and the plain loop dead; for anything else
 * the plain loop runs (a list, an array, a dict: Numba iterates them as
 * `for v in x`; a longer tuple whose items have one type). What Numba's
 * literal_unroll refuses is refused here, at the loop. */
#include <string.h>

#include "compiler/front/unroll.h"
#include "compiler/types/infer_internal.h"

static bool one_type(const uf__type *t)
{
    for (int i = 1; i < t->n; i++)
        if (t->elts[i] != t->elts[0])
            return false;
    return true;
}

int uf__infer_unroll_test(uf__ictx *C, const uf__stmt *s)
{
    int v = uf__typed_var(C->tf, s->u.if_.unroll.tuple);
    const uf__type *t = v >= 0 ? C->tf->vars[v].type : NULL;
    int copy = s->u.if_.unroll.copy;
    uf__pos at = s->u.if_.unroll.at;
    signed char truth = -1; /* not typed yet in this pass: neither way */
    if (t != NULL && t != UF__UNKNOWN && t->kind == UF__T_TUPLE) {
        if (copy < 0 && t->n == 0)
            return uf__ierr(C, UF_ERR_TYPING, at, "Invalid use of getiter "
                            "with parameters (%s): literal_unroll of an "
                            "empty tuple", uf__tname(t));
        if (copy < 0 && t->n > UF__UNROLL_MAX && !one_type(t))
            return uf__ierr(C, UF_ERR_UNSUPPORTED, at, "literal_unroll of "
                            "a tuple of %d items of different types: ufjit "
                            "unrolls at most %d (a tuple whose items all "
                            "have one type may be longer)", t->n,
                            UF__UNROLL_MAX);
        bool unrolled = t->n <= UF__UNROLL_MAX;
        truth = copy < 0 ? (unrolled ? -1 : 1)
                         : (unrolled && copy < t->n ? 0 : -1);
    } else if (t != NULL && t != UF__UNKNOWN) {
        if (copy < 0 && s->u.if_.unroll.of_arg)
            return uf__ierr(C, UF_ERR_UNSUPPORTED, at, "Invalid use of "
                            "literal_unroll with a function argument, only "
                            "tuples are supported as function arguments, "
                            "found %s", uf__tname(t));
        if (copy < 0 && uf__is_string(t))
            return uf__ierr(C, UF_ERR_UNSUPPORTED, at, "%s", "Invalid use "
                            "of literal_unroll, argument should be a tuple "
                            "or a list of constant values");
        truth = copy < 0 ? 1 : -1;
    }
    uf__iinfo(C, s->u.if_.cond)->truth = truth;
    return 0;
}
