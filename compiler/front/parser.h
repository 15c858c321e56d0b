/* Internals shared by the parser's files: parser.c (token helpers, errors,
 * node allocation, the module), parser_expr.c (expressions) and
 * parser_stmt.c (statements). */
#ifndef UF_COMPILER_PARSER_H
#define UF_COMPILER_PARSER_H

#include "compiler/front/ast.h"
#include "compiler/front/lexer.h"

/* Deeper nesting than this is refused rather than risking the C stack. */
#define UF__PARSE_MAX_DEPTH 300

typedef struct uf__parser {
    const uf__source *src;
    uf__arena *arena;
    uf_error *err;
    uf__token *toks;
    int ntoks;
    int i;          /* current token */
    int far;        /* furthest token looked at (lookahead) */
    int nexprs;     /* next expression id */
    int depth;      /* recursion depth, see UF__PARSE_MAX_DEPTH */
    int func_depth; /* enclosing defs */
    int loop_depth; /* enclosing loops inside the innermost def */
    int except_depth; /* enclosing except blocks inside the innermost def */
    struct uf__stmt *def; /* the innermost def being parsed, or NULL */
    bool failed;    /* an error is in err: unwind */
    /* statements a list comprehension was rewritten into (parser_expr.c),
     * emitted before the statement holding it (parser_stmt.c); no_comp
     * > 0 where that would not run them once per evaluation */
    void **pending;
    int npending, cappending;
    int no_comp;
    int ncomps;     /* the comprehensions' temporaries so far */
    const uf_error *lex_error; /* the lexer's error, if it stopped early */
} uf__parser;

/* A growable array of pointers in the arena (old storage is abandoned to
 * the arena: total waste is below the final size). */
typedef struct uf__pvec {
    void **items;
    int n, cap;
} uf__pvec;

bool uf__pvec_push(uf__parser *p, uf__pvec *v, void *item);
/* Grows an array of elements of `size` bytes to hold n + 1 elements. */
bool uf__grow(uf__parser *p, void **items, int *cap, int n, size_t size);

/* Token access (inline: the expression rules call these constantly). */
static inline uf__token *uf__peek(uf__parser *p)
{
    return &p->toks[p->i];
}

static inline bool uf__at(uf__parser *p, uf__tok_kind kind)
{
    return p->toks[p->i].kind == kind;
}

/* Returns the current token and moves on (never past the last one). */
static inline uf__token *uf__advance(uf__parser *p)
{
    uf__token *t = &p->toks[p->i];
    if (p->i < p->ntoks - 1)
        p->i++;
    return t;
}

/* Consumes the token when it is `kind`. */
static inline bool uf__accept(uf__parser *p, uf__tok_kind kind)
{
    if (!uf__at(p, kind))
        return false;
    uf__advance(p);
    return true;
}

/* Looks `ahead` tokens further (recorded: see uf__parser.far). */
uf__token *uf__peek_at(uf__parser *p, int ahead);
/* End of the previous token: where "expected ':'" points. */
uf__pos uf__prev_end(uf__parser *p);

/* Errors: all return NULL so that `return uf__syntax_error(...)` works in
 * functions returning node pointers. */
void *uf__syntax_error(uf__parser *p, uf__pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void *uf__unsupported(uf__parser *p, uf__pos pos, const char *construct);
/* "invalid syntax" at the current token (or a more precise message for
 * tokens that begin refused constructs, such as ':='). */
void *uf__unexpected(uf__parser *p);
bool uf__failed(uf__parser *p);

/* Recursion guard: false (err set) when nesting is too deep. */
bool uf__enter(uf__parser *p, uf__pos pos);
void uf__leave(uf__parser *p);

uf__expr *uf__new_expr(uf__parser *p, uf__expr_kind kind, uf__pos pos);
/* A form Numba refuses compiling the function it is in (parser_stmt.c):
 * inside a def, recorded on the def and reported by typing when the
 * function is compiled; at module level, refused now. False when parsing
 * must stop. */
bool uf__refuse_in_def(uf__parser *p, uf__pos pos, const char *construct);
/* parser_del.c: 'del' del_targets, at `del` */
uf__stmt *uf__parse_del(uf__parser *p);
uf__stmt *uf__new_stmt(uf__parser *p, uf__stmt_kind kind, uf__pos pos);
/* parser_yield.c: at `yield`, the call of UF__YIELD_NAME it becomes; a
 * yield's value used (statement false) or `yield from` refuse the def */
uf__expr *uf__parse_yield_expr(uf__parser *p, bool statement);

/* parser_expr.c */
uf__expr *uf__parse_expression(uf__parser *p);
uf__expr *uf__parse_named_expression(uf__parser *p);
uf__expr *uf__parse_star_expressions(uf__parser *p);
uf__expr *uf__parse_bitor(uf__parser *p);
uf__expr *uf__parse_target_list(uf__parser *p);
/* Checks e is assignable (name, attribute, subscript or a tuple/list of
 * those); lists become tuples. `hint` adds CPython's "Maybe you meant
 * '=='" suffix for a lone `x = y` target. Returns false with err set. */
bool uf__check_target(uf__parser *p, uf__expr *e, bool hint);
/* `x = 1` where an expression was expected (conditions, parentheses,
 * lists, subscripts): CPython's "Maybe you meant '=='" errors. Returns
 * NULL with err set. */
void *uf__assign_in_expression(uf__parser *p, const uf__expr *e);
/* CPython's name of an expression kind in messages: "literal", ... */
const char *uf__expr_desc(const uf__expr *e);
/* disjunction: conjunction ('or' conjunction)* (a comprehension's
 * iterable and conditions) */
uf__expr *uf__parse_disjunction(uf__parser *p);
/* What follows a complete expression that cannot: CPython's "Perhaps you
 * forgot a comma?" or its other errors; NULL with err set. */
void *uf__bad_after(uf__parser *p, const uf__expr *last);
/* `{...}` literals as calls of dict() or set() (its items as arguments,
 * `starred` marking the literal) */
uf__expr *uf__brace_call(uf__parser *p, uf__pos start, uf__pvec *v,
                         const char *fn);

/* parser_comp.c */
/* A comprehension whose first element `elt` (and `key`, for a dict
 * comprehension) was parsed, at `for`: the statements making it go to
 * p->pending (mark: their count before the enclosing expression), and
 * its value is the name of the list or dict they fill. */
uf__expr *uf__parse_listcomp(uf__parser *p, uf__pos start, uf__expr *elt,
                             int mark, uf__expr *key);
/* sorted(X, key=K) / L.sort(key=K) (call e; lam_kw the index of a key=
 * lambda or -1, lam_param its parameter): the keys computed into a list
 * by pending statements, key= replaced by its name. Other calls as they
 * are. */
uf__expr *uf__parse_sort_key(uf__parser *p, uf__expr *e, int lam_kw,
                             const char *lam_param);

/* parser_stmt.c */
/* statements until `end` (DEDENT or EOF) into b */
bool uf__parse_statements(uf__parser *p, uf__block *b, uf__tok_kind end);

#endif
