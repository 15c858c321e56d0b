/* Every attribute and method kernels may use on an array, in one table
 * (array_members.c). The attribute typing (infer_arrattr.c) finds a name
 * here or refuses it, and records the entry's builtin, which the typers
 * and the lowering switch on; README's list of them is printed from the
 * same table (tests/test_readme_lists.c), so the two cannot drift. A new
 * member is one line there, then `cmake --build build --target
 * readme-lists`. */
#ifndef UF_COMPILER_ARRAY_MEMBERS_H
#define UF_COMPILER_ARRAY_MEMBERS_H

#include <stdbool.h>

#include "compiler/types/builtins.h"

typedef struct uf__array_member {
    const char *name;    /* as written after the dot: "shape", "sum" */
    uf__builtin builtin; /* UF__BI_NONE: known, refused with `why` */
    bool method;         /* a.sum() rather than a.shape */
    const char *why;     /* the refusal's hint, for UF__BI_NONE */
} uf__array_member;

/* The member `name` of arrays, or NULL when it is none of the table's. */
const uf__array_member *uf__array_member_find(const char *name);
/* The i-th member in the table's order (README's); NULL past the end. */
const uf__array_member *uf__array_member_at(int i);

#endif
