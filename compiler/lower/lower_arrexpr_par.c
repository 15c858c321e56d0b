/* Whole-array expressions in njit(parallel=True) functions: a fused nest
 * (lower_arrexpr.c) of at least PARALLEL_MIN_ELEMENTS elements is
 * outlined over a range of axis 0 and run as the blocks of a prange loop
 * (lower_prange.c's runtime); smaller ones stay on the calling thread. */
#include <stdio.h>

#include "common/alloc.h"
#include "compiler/lower/lower_arrexpr_internal.h"

#define B (F->L->b)

/* Below this many elements a nest runs on the calling thread. */
#define PARALLEL_MIN_ELEMENTS (1 << 16)

/* The nest over axis 0's [begin, end), outlined for the prange runtime
 * (lower_prange.c): ctx holds the destination's and operands' data and
 * strides, the shape, the unit-stride flag and the scalars, which the
 * copy zg of z reads instead of F's values. */
static LLVMValueRef outline_nest(fused *z, const LLVMValueRef *p,
                                 LLVMValueRef contig, LLVMValueRef *ctx_out)
{
    uf__fn *F = z->F;
    uf__lower *L = F->L;
    int nd = z->nd, np = z->nops + 1, nf = 0;
    LLVMTypeRef i64 = i64t(F), ft[3 * MAXD + MAXOPS * (MAXD + 1) + MAXOPS];
    LLVMValueRef fv[sizeof ft / sizeof *ft];
    for (int k = 0; k < np; k++) {
        ft[nf] = i8p(F);
        fv[nf++] = p[k];
        for (int d = 0; d < nd; d++) {
            ft[nf] = i64;
            fv[nf++] = k == 0 ? z->dstr[d] : z->ops[k - 1].str[d];
        }
    }
    for (int d = 0; d < nd; d++) {
        ft[nf] = i64;
        fv[nf++] = z->shape[d];
    }
    ft[nf] = LLVMInt1TypeInContext(L->ctx);
    fv[nf++] = contig;
    for (int i = 0; i < z->nsc; i++) {
        ft[nf] = LLVMTypeOf(z->scv[i]);
        fv[nf++] = z->scv[i];
    }
    LLVMTypeRef cty = LLVMStructTypeInContext(L->ctx, ft, (unsigned)nf, 0);
    LLVMValueRef ctx = uf__fn_alloca(F, cty, "arrexpr.ctx");
    for (int f = 0; f < nf; f++)
        LLVMBuildStore(B, fv[f],
                       LLVMBuildStructGEP2(B, cty, ctx, (unsigned)f, ""));
    *ctx_out = ctx;

    LLVMTypeRef params[4] = {i8p(F), i64, i64, i64};
    LLVMTypeRef fty = LLVMFunctionType(LLVMInt32TypeInContext(L->ctx), params,
                                       4, 0);
    char name[256];
    snprintf(name, sizeof name, "%s_%s_arrexpr_%d", L->prefix,
             F->tf->symbol ? F->tf->symbol : F->tf->decl->name, L->seq++);
    LLVMValueRef fn = LLVMAddFunction(L->mod, name, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    uf__lower_target_attrs(L, fn);
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, "noinline");
    LLVMBasicBlockRef here = LLVMGetInsertBlock(B);
    uf__fn G;
    uf__fn_begin(&G, L, fn, true, true, F->err);
    G.tf = F->tf;
    G.in_prange = true;
    fused *zg = uf__calloc(1, sizeof *zg, F->err);
    if (!zg) {
        uf__fn_end(&G);
        return NULL;
    }
    *zg = *z;
    zg->F = &G;
    LLVMValueRef c = LLVMBuildPointerCast(B, LLVMGetParam(fn, 0),
                                          LLVMPointerType(cty, 0), "");
    LLVMValueRef v[sizeof ft / sizeof *ft];
    for (int f = 0; f < nf; f++)
        v[f] = LLVMBuildLoad2(B, ft[f],
                              LLVMBuildStructGEP2(B, cty, c, (unsigned)f, ""),
                              "");
    LLVMValueRef begin = LLVMGetParam(fn, 1), q[MAXOPS + 1];
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    nf = 0;
    for (int k = 0; k < np; k++) {
        LLVMValueRef base = v[nf++];
        for (int d = 0; d < nd; d++) {
            if (k == 0)
                zg->dstr[d] = v[nf];
            else
                zg->ops[k - 1].str[d] = v[nf];
            nf++;
        }
        /* the block starts `begin` rows in */
        LLVMValueRef off = LLVMBuildMul(
            B, begin, k == 0 ? zg->dstr[0] : zg->ops[k - 1].str[0], "");
        q[k] = LLVMBuildGEP2(B, i8, base, &off, 1, "");
    }
    for (int d = 0; d < nd; d++)
        zg->shape[d] = v[nf++];
    zg->shape[0] = LLVMBuildSub(B, LLVMGetParam(fn, 2), begin, "");
    LLVMValueRef gcontig = v[nf++];
    for (int i = 0; i < z->nsc; i++)
        zg->scv[i] = v[nf++];
    bool ok = true;
    nest s = {0, gcontig, &ok};
    uf__arrexpr_level(zg, q, &s);
    LLVMBuildRet(B, LLVMConstNull(LLVMInt32TypeInContext(L->ctx)));
    uf__free(zg);
    uf__fn_end(&G);
    LLVMPositionBuilderAtEnd(B, here);
    return ok ? fn : NULL;
}

/* njit(parallel=True): large nests split along axis 0 into the blocks
 * of a prange loop (the same runtime), small ones on this thread. */
int uf__arrexpr_run_nest(fused *z, LLVMValueRef *p, nest *s)
{
    uf__fn *F = z->F;
    if (z->nd == 0 || !uf__prange_parallel(F)) {
        uf__arrexpr_level(z, p, s);
        return *s->ok ? 0 : -1;
    }
    LLVMValueRef size = z->shape[0];
    for (int d = 1; d < z->nd; d++)
        size = LLVMBuildMul(B, size, z->shape[d], "");
    LLVMBasicBlockRef par = uf__fn_block(F, "arrexpr.parallel");
    LLVMBasicBlockRef ser = uf__fn_block(F, "arrexpr.serial");
    LLVMBasicBlockRef join = uf__fn_block(F, "arrexpr.join");
    LLVMBuildCondBr(B,
                    LLVMBuildICmp(B, LLVMIntSGE, size,
                                  c64(F, PARALLEL_MIN_ELEMENTS), ""),
                    par, ser);
    LLVMPositionBuilderAtEnd(B, par);
    LLVMValueRef ctx;
    LLVMValueRef body = outline_nest(z, p, s->contig, &ctx);
    if (!body)
        return -1;
    uf__lower_prange_call(F, z->shape[0], body,
                          LLVMBuildPointerCast(B, ctx, i8p(F), ""));
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, ser);
    uf__arrexpr_level(z, p, s);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, join);
    return *s->ok ? 0 : -1;
}
