/* Lowering try/except (an IF with is_try: compiler/front/parser_stmt.c).
 * The try block is lowered as any block, each way out of it by an
 * exception being a `ret` of a nonzero status (uf__fn_raise_if, a raise,
 * a callee's or a prange loop's status, an index error); afterwards the
 * `ret`s of the blocks made for the try block become branches to the
 * handler. Nothing is added on the way through, so a loop with a try
 * inside runs the code it runs without one when nothing raises. The
 * handler sees no exception (Numba binds none: parser_stmt.c refuses
 * `as`). Arrays the try block made stay in the function's NRT frame
 * (lower_alloc.c) and are freed with it, or by the enclosing loop's
 * sweep, exactly once, as if the block had finished; a callee that
 * raised already freed its own. CUDA kernels were refused by typing
 * (infer.c). */
#include "compiler/lower/lower.h"

#define B (F->L->b)

/* A `ret` of an error status (a fallible function returns i32 0 when it
 * returns normally). */
static bool error_ret(LLVMValueRef term)
{
    if (term == NULL || LLVMGetInstructionOpcode(term) != LLVMRet ||
        LLVMGetNumOperands(term) != 1)
        return false;
    LLVMValueRef v = LLVMGetOperand(term, 0);
    return !LLVMIsAConstantInt(v) || LLVMConstIntGetZExtValue(v) != 0;
}

static bool terminated(uf__fn *F)
{
    return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(B)) != NULL;
}

int uf__lower_try(uf__fn *F, const uf__stmt *s)
{
    LLVMBasicBlockRef first = uf__fn_block(F, "try");
    LLVMBuildBr(B, first);
    LLVMPositionBuilderAtEnd(B, first);
    const uf__block *body = &s->u.if_.body;
    uf__block prot = {body->stmts, s->u.if_.ntry};
    int rc = uf__lower_block(F, &prot);
    if (rc != 0)
        return rc;
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef last = LLVMGetLastBasicBlock(F->fn);
    LLVMBasicBlockRef handler = uf__fn_block(F, "try.except");
    LLVMBasicBlockRef end = uf__fn_block(F, "try.end");
    bool caught = false;
    for (LLVMBasicBlockRef bb = first; F->fallible && bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (error_ret(term)) {
            LLVMInstructionEraseFromParent(term);
            LLVMPositionBuilderAtEnd(B, bb);
            LLVMBuildBr(B, handler);
            caught = true;
        }
        if (bb == last)
            break;
    }
    /* the else block: its exceptions propagate */
    LLVMPositionBuilderAtEnd(B, cur);
    if (!terminated(F)) {
        uf__block els = {body->stmts + s->u.if_.ntry,
                         body->n - s->u.if_.ntry};
        if ((rc = uf__lower_block(F, &els)) != 0)
            return rc;
        if (!terminated(F))
            LLVMBuildBr(B, end);
    }
    LLVMPositionBuilderAtEnd(B, handler);
    if (caught) {
        if ((rc = uf__lower_block(F, &s->u.if_.orelse)) != 0)
            return rc;
        if (!terminated(F))
            LLVMBuildBr(B, end);
    } else { /* nothing in the try block can raise */
        LLVMBuildUnreachable(B);
    }
    LLVMPositionBuilderAtEnd(B, end);
    return 0;
}
