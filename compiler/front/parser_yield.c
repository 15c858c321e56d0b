/* `yield` in kernels (issue 18): a statement `yield [value]` inside a def
 * becomes the expression statement `yield$(value)`, a call of a name no
 * Python source can spell, which compiler/front/generators.c inlines into
 * the loops consuming the generator. The value of a yield expression
 * (`x = yield v`, send()) and `yield from` are refused on the def, as
 * Numba cannot compile them either. */
#include "compiler/front/generators.h"
#include "compiler/front/parser.h"

/* After `yield`: the value up to the end of the statement, or NULL for a
 * bare yield (None), or NULL with p->failed set. */
static uf__expr *yield_value(uf__parser *p)
{
    if (uf__at(p, UF__TOK_NEWLINE) || uf__at(p, UF__TOK_SEMI) ||
        uf__at(p, UF__TOK_RPAR))
        return NULL;
    return uf__parse_star_expressions(p);
}

uf__expr *uf__parse_yield_expr(uf__parser *p, bool statement)
{
    uf__token *t = uf__advance(p);
    if (p->func_depth == 0)
        return uf__syntax_error(p, t->pos, "'yield' outside function");
    if (uf__at(p, UF__TOK_KW_FROM)) {
        if (!uf__refuse_in_def(p, t->pos, "'yield from' (Numba: \"Use of "
                               "unsupported opcode (GET_YIELD_FROM_ITER)\")"))
            return NULL;
        uf__advance(p);
    } else if (!statement &&
               !uf__refuse_in_def(p, t->pos, "the value of a 'yield' "
                                  "expression (send())")) {
        return NULL;
    }
    uf__expr *value = yield_value(p);
    if (p->failed)
        return NULL;
    uf__expr *call = uf__new_expr(p, UF__EX_CALL, t->pos);
    uf__expr *fn = uf__new_expr(p, UF__EX_NAME, t->pos);
    uf__expr **args = uf__arena_alloc(p->arena, 1, sizeof *args, p->err);
    if (call == NULL || fn == NULL || args == NULL) {
        p->failed = true;
        return NULL;
    }
    fn->u.name.id = UF__YIELD_NAME;
    args[0] = value;
    call->u.call.func = fn;
    call->u.call.args = args;
    call->u.call.nargs = value != NULL;
    return call;
}
