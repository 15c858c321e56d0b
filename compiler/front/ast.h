/* The syntax tree of a kernel file: the Python subset of DESIGN.md
 * section 2 plus module level (imports, constants, decorated defs).
 * Nodes live in the compilation's arena. Every expression has a module-wide
 * unique `id` so that typing results (which differ per specialisation) live
 * in side tables indexed by id rather than on the shared tree. */
#ifndef UF_COMPILER_AST_H
#define UF_COMPILER_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/front/arena.h"
#include "compiler/front/source.h"

typedef enum uf__binop {
    UF__OP_ADD, UF__OP_SUB, UF__OP_MUL, UF__OP_DIV, UF__OP_FLOORDIV,
    UF__OP_MOD, UF__OP_POW, UF__OP_LSHIFT, UF__OP_RSHIFT, UF__OP_BITAND,
    UF__OP_BITOR, UF__OP_BITXOR, UF__OP_MATMUL
} uf__binop;

typedef enum uf__unop {
    UF__OP_NEG, UF__OP_POS, UF__OP_NOT, UF__OP_INVERT
} uf__unop;

typedef enum uf__cmpop {
    UF__CMP_EQ, UF__CMP_NE, UF__CMP_LT, UF__CMP_LE, UF__CMP_GT, UF__CMP_GE,
    UF__CMP_IS, UF__CMP_ISNOT, UF__CMP_IN, UF__CMP_NOTIN
} uf__cmpop;

typedef enum uf__expr_kind {
    UF__EX_INT,       /* 1_000, 0x1f: u.i */
    UF__EX_FLOAT,     /* 1e-3: u.f */
    UF__EX_IMAG,      /* 2j: u.f is the imaginary part */
    UF__EX_STR,       /* 'float32(float32)': u.str (escapes decoded) */
    UF__EX_BOOL,      /* True / False: u.b */
    UF__EX_NONE,      /* None */
    UF__EX_ELLIPSIS,  /* ... */
    UF__EX_NAME,      /* u.name */
    UF__EX_ATTR,      /* value.attr: u.attr */
    UF__EX_CALL,      /* u.call */
    UF__EX_SUBSCRIPT, /* value[i, j]: u.subscript */
    UF__EX_SLICE,     /* lower:upper:step inside a subscript: u.slice */
    UF__EX_UNARY,
    UF__EX_BINARY,
    UF__EX_BOOLOP,    /* a and b and c: u.boolop */
    UF__EX_COMPARE,   /* a < b <= c: u.compare */
    UF__EX_IFEXP,     /* a if c else b */
    UF__EX_TUPLE,     /* u.seq */
    UF__EX_LIST       /* u.seq (decorator signature lists only) */
} uf__expr_kind;

typedef struct uf__expr uf__expr;

typedef struct uf__keyword {
    const char *name;
    uf__pos pos;
    uf__expr *value;
} uf__keyword;

struct uf__expr {
    uf__expr_kind kind;
    uf__pos pos; /* first character of the expression */
    int id;      /* 0 .. uf__ast_module.nexprs - 1 */
    bool parenthesized;
    union {
        struct {
            uint64_t value; /* magnitude; literals are non-negative */
            bool too_big;   /* did not fit in 64 bits */
        } i;
        double f;
        bool b;
        struct {
            const char *s;
            size_t len;
        } str;
        struct {
            const char *id;
        } name;
        struct {
            uf__expr *value;
            const char *attr;
            uf__pos attr_pos;
        } attr;
        struct {
            uf__expr *func;
            uf__expr **args;
            int nargs;
            uf__keyword *kw;
            int nkw;
            /* np.ndindex(*shape): its one argument was starred (the only
             * call the parser takes `*args` in) */
            bool starred;
        } call;
        struct {
            uf__expr *value;
            uf__expr **index; /* a[i, j] gives two entries, a[(i, j)] one */
            int nindex;
        } subscript;
        struct {
            uf__expr *lower, *upper, *step; /* NULL when absent */
        } slice;
        struct {
            uf__unop op;
            uf__expr *operand;
        } unary;
        struct {
            uf__binop op;
            uf__expr *left, *right;
            bool inplace; /* from x op= v (compiler/types/ssa_versions.c) */
        } binary;
        struct {
            bool is_and;
            uf__expr **values;
            int n; /* >= 2 */
        } boolop;
        struct {
            uf__expr **operands; /* nops + 1 */
            uf__cmpop *ops;
            int nops;
        } compare;
        struct {
            uf__expr *cond, *then, *orelse;
        } ifexp;
        struct {
            uf__expr **elts;
            int n;
        } seq;
    } u;
};

typedef struct uf__stmt uf__stmt;

typedef struct uf__block {
    uf__stmt **stmts;
    int n;
} uf__block;

typedef struct uf__alias {
    const char *name;   /* "numpy", "numba.cuda", or a from-import name */
    const char *asname; /* NULL without `as` */
    uf__pos pos;
} uf__alias;

typedef struct uf__param {
    const char *name;
    uf__pos pos;
    uf__expr *default_value; /* NULL when absent */
} uf__param;

typedef enum uf__stmt_kind {
    UF__ST_EXPR,
    UF__ST_ASSIGN,     /* a = b = value; targets may be tuples/subscripts */
    UF__ST_AUGASSIGN,
    UF__ST_IF,         /* elif chains nest in orelse as a single IF;
                          try/except too (if_.is_try) */
    UF__ST_FOR,
    UF__ST_WHILE,
    UF__ST_BREAK,
    UF__ST_CONTINUE,
    UF__ST_RETURN,
    UF__ST_PASS,
    UF__ST_ASSERT,
    UF__ST_RAISE,      /* raise ValueError / raise ValueError(args) */
    UF__ST_IMPORT,     /* import math, numpy as np */
    UF__ST_IMPORTFROM, /* from numba import vectorize, float32 as f4 */
    UF__ST_FUNCDEF
} uf__stmt_kind;

struct uf__stmt {
    uf__stmt_kind kind;
    uf__pos pos;
    bool join_feed; /* `x.3 = x.1` added by compiler/types/ssa_joins.c */
    union {
        struct {
            uf__expr *value;
        } expr;
        struct {
            uf__expr **targets;
            int ntargets;
            uf__expr *value;
        } assign;
        struct {
            uf__expr *target;
            uf__binop op;
            uf__expr *value;
        } augassign;
        struct {
            uf__expr *cond; /* NULL for a try */
            uf__block body, orelse;
            /* try/except (compiler/front/parser_stmt.c) as an if whose
             * way is chosen at run time: body is the try block followed
             * by its else block, the first ntry statements protected;
             * orelse is the handler, entered when one of those raises */
            bool is_try;
            int ntry;
            /* a test compiler/front/unroll.c made for a loop over
             * literal_unroll(): `tuple` (NULL for other ifs) names the
             * variable holding the iterable; `copy` k >= 0 guards the body's
             * copy for item k (live while the tuple has more items), -1
             * the plain loop taken for anything but a tuple of at most
             * UF__UNROLL_MAX items. Typing decides the test's truth from
             * the variable's type (types/infer_unroll.c); `of_arg`: the
             * iterable is an argument, `at` where the loop is. */
            struct {
                const char *tuple;
                int copy;
                bool of_arg;
                uf__pos at;
            } unroll;
        } if_;
        struct {
            uf__expr *target;
            uf__expr *iter;
            uf__block body, orelse;
            /* an enumerate()/zip() loop compiler/front/desugar_for.c
             * refused: typing reports this (a UF_ERR_* code) */
            const char *refused;
            uf__pos refused_pos;
            int refused_code;
        } for_;
        struct {
            uf__expr *cond;
            uf__block body, orelse;
        } while_;
        struct {
            uf__expr *value; /* NULL for a bare return */
        } ret;
        struct {
            uf__expr *test, *msg;
        } assert_;
        struct {
            const char *cls; /* the exception class's name */
            uf__pos cls_pos;
            uf__expr **args; /* the constructor's arguments */
            int nargs;
        } raise;
        struct {
            uf__alias *names;
            int n;
        } import;
        struct {
            const char *module; /* "numba", "math", "numba.cuda" */
            int level;          /* leading dots (relative imports: refused
                                   later) */
            uf__alias *names;
            int n;
        } importfrom;
        struct {
            const char *name;
            uf__pos name_pos;
            uf__param *params;
            int nparams;
            uf__expr **decorators; /* in source order */
            int ndecorators;
            uf__block body;
            /* deepest block nesting plus expression height in the body
             * (compiler/front/ast_limits.c): what typing and lowering a
             * call of it add to the stack */
            int nesting;
            /* this def's expressions (decorators, defaults, body, SSA
             * feeds) have the ids first_id .. first_id + nids - 1
             * (compiler/front/ast_ids.c), so that typing's tables per
             * specialisation are sized by the function, not the file */
            int first_id, nids;
            /* a nested def lifted to module level (compiler/front/
             * closures.c): the module-level def it was written in */
            const struct uf__stmt *closure_of;
            /* a nested def closures.c refused: typing reports this */
            const char *refused;
            uf__pos refused_pos;
            int refused_code;
        } funcdef;
    } u;
};

typedef struct uf__ast_module {
    const uf__source *src;
    uf__block body;
    int nexprs; /* ids run 0 .. nexprs - 1 */
} uf__ast_module;

/* Parses a whole file. Syntax errors are UF_ERR_SYNTAX; valid Python that
 * the kernel language refuses (lambda, comprehensions, with, try, class,
 * yield, star-args, walrus, f-strings, dict/set literals, global, del,
 * chained/starred targets, ...) is UF_ERR_UNSUPPORTED naming the construct.
 * Both carry file:line:col and a caret (uf__source_error). */
uf__ast_module *uf__parse(const uf__source *src, uf__arena *arena,
                          uf_error *err);

/* Human-readable names for messages: "+", "//", "<=", "not". */
const char *uf__binop_str(uf__binop op);
const char *uf__unop_str(uf__unop op);
const char *uf__cmpop_str(uf__cmpop op);

#endif
