/* Nesting limits of the syntax tree, checked once after parsing so that the
 * passes after it (consteval, typing, SSA versions, lowering) may recurse
 * over expressions and blocks: their stack use is bounded by these limits
 * times a frame, whatever the input. The parser's own recursion limit
 * (UF__PARSE_MAX_DEPTH) does not bound left-associative chains such as
 * `x + x + ... + x` or long elif chains: the parser builds them in loops,
 * but they nest as deeply as they are long. CPython refuses both at about
 * 3000 levels ("maximum recursion depth exceeded during compilation"). */
#ifndef UF_COMPILER_AST_LIMITS_H
#define UF_COMPILER_AST_LIMITS_H

#include <stdbool.h>

#include "compiler/front/ast.h"

/* Levels of operators, calls, subscripts and the like in one expression. */
#define UF__MAX_EXPR_HEIGHT 1000
/* Levels of nested blocks, each elif counting as one (it nests in the
 * else block of the if before it). */
#define UF__MAX_BLOCK_DEPTH 1000

/* Typing and lowering a call of another kernel recurse into the callee, so
 * along a chain of calls the nesting of each function (its funcdef's
 * `nesting`) adds up, plus UF__CALL_NESTING per call: a chain may hold up
 * to this much, about the stack of one function at both limits above. */
#define UF__MAX_CALL_NESTING 2000
#define UF__CALL_NESTING 8

/* False with err set (UF_ERR_LIMIT, position and caret at the offending
 * expression or statement) when m exceeds either limit. Records each
 * def's `nesting`. Iterative: safe on any tree the parser builds. */
bool uf__ast_check_limits(uf__ast_module *m, uf_error *err);

#endif
