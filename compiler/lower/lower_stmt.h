/* What lower.c (statements, functions) shares with lower_stmt_loop.c (the
 * while and for statements). */
#ifndef UF_COMPILER_LOWER_STMT_H
#define UF_COMPILER_LOWER_STMT_H

#include "compiler/lower/lower.h"

/* Whether the block being filled already ends (return, break ...). */
bool uf__lower_terminated(uf__fn *F);
/* UF_ERR_UNSUPPORTED at pos: "<what> is not supported by the CPU
 * lowering". */
int uf__lower_unsupported(uf__fn *F, uf__pos pos, const char *what);
/* The index of local `name` in F->tf->vars, or -1. */
int uf__lower_find_var(uf__fn *F, const char *name);
/* The i1 truth of condition e (a number, or a list: not empty). */
LLVMValueRef uf__lower_truth_of(uf__fn *F, const uf__expr *e);
/* A condition branch pruning decided (infer_prune.c): only the tests that
 * still run are evaluated. */
int uf__lower_decided(uf__fn *F, const uf__expr *cond);

int uf__lower_while(uf__fn *F, const uf__stmt *s);
int uf__lower_for(uf__fn *F, const uf__stmt *s);

#endif
