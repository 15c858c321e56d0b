/* What generators.c and generators_copy.c share: node builders and the
 * deep copy of statements with a generator's locals renamed. */
#ifndef UF_COMPILER_GENERATORS_INTERNAL_H
#define UF_COMPILER_GENERATORS_INTERNAL_H


#include "compiler/front/generators.h"

typedef struct uf__gen_names {
    const char **v;
    int n, cap;
} uf__gen_names;

typedef struct uf__gen_ctx {
    uf__ast_module *m;
    uf__arena *arena;
    uf_error *err;
    int ninlined; /* suffix of the temporaries */
    /* the first refusal in the def being rewritten */
    const char *why;
    uf__pos where;
    int code;
    /* the module's generator defs */
    const uf__stmt **gens;
    const char **parse_refusal; /* the parser's refusal of each, or NULL */
    int ngens;
    /* names the def being rewritten assigns (they shadow generators) */
    uf__gen_names shadow;
    /* the function body (or inlined generator body) being rewritten:
     * where a generator kept in a variable must be read once */
    const uf__block *scope;
    /* generators_pass.c's copies of functions given generators */
    struct passing *passing;
    /* generators being inlined, outermost first (recursion) */
    const uf__stmt *stack[16];
    int depth;
} uf__gen_ctx;

/* A renaming while copying: names in `locals` become name$y<suffix>. */
typedef struct uf__gen_rename {
    const uf__gen_names *locals;
    int suffix;
} uf__gen_rename;

/* A growing run of statements (arena-allocated), as the rewrites emit
 * them; uf__gen_emit takes NULL as out of memory (false). */
typedef struct uf__gen_out {
    uf__stmt **v;
    int n, cap;
} uf__gen_out;
bool uf__gen_emit(uf__gen_ctx *G, uf__gen_out *o, uf__stmt *s);
bool uf__gen_emit_block(uf__gen_ctx *G, uf__gen_out *o, const uf__block *b);
/* Whether e is a call of the plain name fn. */
bool uf__gen_is_call_of(const uf__expr *e, const char *fn);

bool uf__gen_names_has(const uf__gen_names *s, const char *name);
/* false: out of memory (G->err set) */
bool uf__gen_names_add(uf__gen_ctx *G, uf__gen_names *s, const char *name);
/* Every name a target of s or of the statements nested in it stores. */
bool uf__gen_stored_names(uf__gen_ctx *G, const uf__block *b,
                          uf__gen_names *out);

uf__expr *uf__gen_expr(uf__gen_ctx *G, uf__expr_kind kind, uf__pos pos);
uf__expr *uf__gen_name(uf__gen_ctx *G, const char *id, uf__pos pos);
uf__expr *uf__gen_int(uf__gen_ctx *G, uint64_t v, uf__pos pos);
uf__expr *uf__gen_bool(uf__gen_ctx *G, bool v, uf__pos pos);
/* fn(args...) of a name, n <= 3 */
uf__expr *uf__gen_call(uf__gen_ctx *G, const char *fn, uf__expr **args,
                       int n, uf__pos pos);
uf__expr *uf__gen_binary(uf__gen_ctx *G, uf__binop op, uf__expr *l,
                         uf__expr *r, uf__pos pos);
uf__expr *uf__gen_tuple(uf__gen_ctx *G, uf__expr **elts, int n,
                        uf__pos pos);
uf__stmt *uf__gen_stmt(uf__gen_ctx *G, uf__stmt_kind kind, uf__pos pos);
uf__stmt *uf__gen_assign(uf__gen_ctx *G, uf__expr *target, uf__expr *value,
                         uf__pos pos);
/* `if cond: break` */
uf__stmt *uf__gen_if_break(uf__gen_ctx *G, uf__expr *cond, uf__pos pos);
/* `for name in range(1): body`: a block `continue` and `break` leave */
uf__stmt *uf__gen_once(uf__gen_ctx *G, const char *name, uf__block body,
                       uf__pos pos);
/* "what$y<k>" */
const char *uf__gen_temp(uf__gen_ctx *G, const char *what, int k);
/* b's statements as an arena array */
bool uf__gen_block(uf__gen_ctx *G, uf__stmt **stmts, int n, uf__block *b);

/* Deep copies with fresh expression ids; R NULL copies names as they are. */
uf__expr *uf__gen_copy_expr(uf__gen_ctx *G, const uf__expr *e,
                            const uf__gen_rename *R);
bool uf__gen_copy_block(uf__gen_ctx *G, const uf__block *b,
                        const uf__gen_rename *R, uf__block *out);

/* generators.c, for the other rewrites: the refusal of the def being
 * rewritten (-2; the first reason is kept), the generator def call e calls
 * (or NULL), the checks of a generator def used at `at` (0 or -2), and
 * `p$y<k> = argument` for each of def's parameters from call (0, -2, or
 * -1 out of memory). */
int uf__gen_refuse(uf__gen_ctx *G, int code, uf__pos pos, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));
const uf__stmt *uf__gen_called(const uf__gen_ctx *G, const uf__expr *e);
int uf__gen_check_def(uf__gen_ctx *G, const uf__stmt *def, uf__pos at);
int uf__gen_bind(uf__gen_ctx *G, const uf__stmt *def, const uf__expr *call,
                 int k, uf__block *out);

/* generators_step.c: generator objects in variables used with next(),
 * their for loops, and zip() of several generators, compiled as state
 * machines in the def's body (0, -2 refused, -1 out of memory). */
int uf__gen_step_def(uf__gen_ctx *G, uf__block *body);

/* generators_flat.c: g's body (def) cut into blocks run by resume index
 * pc$y<k>, as two statements into out: `has$y<k> = False` and the
 * `while True` stepping it to its next yield (val$y<k>) or end (0, -2
 * refused, -1 out of memory); `not e`; `if cond: body` (n statements). */
int uf__gen_step_code(uf__gen_ctx *G, const uf__stmt *def, int k,
                      uf__pos at, uf__stmt **out);
uf__expr *uf__gen_not(uf__gen_ctx *G, uf__expr *e, uf__pos at);
uf__stmt *uf__gen_if(uf__gen_ctx *G, uf__expr *cond, uf__stmt **body, int n,
                     uf__pos at);

/* generators_pass.c: f(..., g(...), ...) calling a module-level njit def
 * with a fresh generator calls a copy of f taking g's arguments, added to
 * the module (0, -2 refused, -1 out of memory). */
int uf__gen_pass_def(uf__gen_ctx *G, uf__block *body);

#endif
