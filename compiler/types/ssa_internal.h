/* What the parts of SSA versioning share: ssa_walk.c records, for every
 * read of a local, the value it reads (a definition, or a join made at a
 * merge point); ssa_joins.c gives the joins their variables and places the
 * assignments feeding them; ssa_versions.c collects the definitions,
 * renames, and runs the rest. */
#ifndef UF_COMPILER_SSA_INTERNAL_H
#define UF_COMPILER_SSA_INTERNAL_H

#include "compiler/front/ast.h"
#include "compiler/front/name_map.h"

/* A value: a definition d (0 <= d < ndefs), join j as ndefs + j, or: */
enum { SSA_UNDEF = -1 };

/* Where control flows into a merge point: before stmts[at] of block, or at
 * its end (at == block->n when it was recorded). */
typedef struct ssa_edge {
    uf__block *block;
    int at;
} ssa_edge;

/* One incoming value of a join, on one edge; a list through next. */
typedef struct ssa_input {
    int value;
    int next; /* -1 ends the list */
    ssa_edge edge;
} ssa_input;

/* A definition: a parameter (node NULL) or an assigned Name node. */
typedef struct ssa_def {
    const uf__expr *node;
    uf__pos pos;
    int name;
    int local;      /* its index among its name's definitions */
    const char *id; /* its variable */
} ssa_def;

/* A join (Numba's phi) of one name at one merge point: the end of an if,
 * a loop's head, a loop's exit. */
typedef struct ssa_join {
    int name;
    uf__pos pos; /* the statement that merges */
    int first, last; /* its inputs, -1 when none */
} ssa_join;

typedef struct ssa {
    uf__ast_module *m;
    uf__arena *arena;
    uf_error *err;
    bool failed;
    /* local names: parameters and assigned names */
    const char **names;
    int nnames, capnames;
    uf__name_map name_map;
    /* definitions: parameters first, then assigned Name nodes in source
     * order */
    ssa_def *defs;
    int ndefs, capdefs;
    int *name_ndefs;
    int *node_def; /* expression id -> definition, or -1 */
    int *read_val; /* expression id of a read of a local -> its value,
                      -2 when it is not one */
    int *versions;       /* per name: variables made so far */
    /* per name: assigned in a try block, so one variable for all its
     * definitions (ssa_versions.c), NULL when the function has no try */
    unsigned char *unsplit;
    ssa_join *joins;
    int njoins, capjoins;
    ssa_input *inputs;
    int ninputs, capinputs;
    /* filled by ssa_joins.c: per join, the value it stands for once joins
     * of the same definitions are one (a definition when only one
     * reaches, SSA_UNDEF when none) */
    int *canon;
    const char **join_id; /* per join standing for itself: its variable */
    struct ssa_classes *classes; /* ssa_joins.c's temporaries */
} ssa;

/* The index of local name id, or -1 (a global, a module, a builtin). */
static inline int uf__ssa_name(const ssa *W, const char *id)
{
    return uf__name_map_get(&W->name_map, id);
}

/* Records the value each read of a local reads, and the joins (ssa_walk.c). */
void uf__ssa_walk(ssa *W, uf__stmt *fn);
/* Makes room for one more element in an arena array of n elements whose
 * capacity is *cap. */
int uf__ssa_grow(ssa *W, void **arr, int n, int *cap, size_t size);
/* The next variable of name n: the name itself first, then "x.1", ... */
const char *uf__ssa_new_variable(ssa *W, int n);

/* After the walk: which joins are one (the same definitions reach them).
 * Temporary memory is the caller's to free with uf__ssa_joins_free. */
void uf__ssa_join_classes(ssa *W);
/* The variable a read of `value` reads (its join's variable made on first
 * use); NULL when no definition reaches it. */
const char *uf__ssa_read_variable(ssa *W, int value);
/* After renaming: variables for the joins other joins read, and the
 * assignments feeding every join read, at the ends of its incoming
 * edges (statements marked join_feed). */
void uf__ssa_place_feeds(ssa *W);
void uf__ssa_joins_free(ssa *W);

#endif
