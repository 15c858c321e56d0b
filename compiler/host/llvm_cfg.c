/* Control-flow graphs of LLVM functions through LLVM-C (llvm_cfg.h). */
#include <string.h>

#include "common/alloc.h"
#include "compiler/host/llvm_cfg.h"

int uf__cfg_block(const uf__cfg *g, LLVMBasicBlockRef b)
{
    for (int i = 0; i < g->n; i++)
        if (g->bb[i] == b)
            return i;
    return -1;
}

bool uf__cfg_build(uf__cfg *g, LLVMValueRef fn, uf_error *err)
{
    g->n = (int)LLVMCountBasicBlocks(fn);
    g->bb = uf__calloc((size_t)g->n + 1, sizeof *g->bb, err);
    g->pstart = uf__calloc((size_t)g->n + 2, sizeof *g->pstart, err);
    int nedges = 0;
    if (g->bb == NULL || g->pstart == NULL)
        return false;
    LLVMGetBasicBlocks(fn, g->bb);
    for (int i = 0; i < g->n; i++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[i]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned k = 0; k < ns; k++) {
            int j = uf__cfg_block(g, LLVMGetSuccessor(t, k));
            if (j >= 0)
                g->pstart[j + 2]++;
            nedges++;
        }
    }
    for (int j = 0; j < g->n; j++)
        g->pstart[j + 2] += g->pstart[j + 1];
    g->preds = uf__calloc((size_t)nedges + 1, sizeof *g->preds, err);
    if (g->preds == NULL)
        return false;
    for (int i = 0; i < g->n; i++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[i]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned k = 0; k < ns; k++) {
            int j = uf__cfg_block(g, LLVMGetSuccessor(t, k));
            if (j >= 0)
                g->preds[g->pstart[j + 1]++] = i;
        }
    }
    return true;
}

void uf__cfg_free(uf__cfg *g)
{
    uf__free(g->bb);
    uf__free(g->pstart);
    uf__free(g->preds);
}

bool uf__cfg_natural_loop(const uf__cfg *g, int head, int latch, bool *in,
                         int *stack)
{
    memset(in, 0, (size_t)g->n * sizeof *in);
    int sp = 0;
    in[head] = true;
    if (!in[latch]) {
        in[latch] = true;
        stack[sp++] = latch;
    }
    while (sp > 0) {
        int b = stack[--sp];
        if (b == 0)
            return false;
        for (int e = g->pstart[b]; e < g->pstart[b + 1]; e++)
            if (!in[g->preds[e]]) {
                in[g->preds[e]] = true;
                stack[sp++] = g->preds[e];
            }
    }
    return true;
}
