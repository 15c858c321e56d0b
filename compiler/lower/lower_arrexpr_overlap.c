/* NumPy's overlap rule for fused array expressions (lower_arrexpr.c): an
 * input whose bytes may overlap the destination's, and that is not the
 * destination itself element for element, is read from a copy made before
 * the loop, as NumPy's ufuncs do; the copies are freed after the loop. */
#include <string.h>

#include "common/alloc.h"
#include "compiler/lower/lower_arrexpr_internal.h"
#include "compiler/lower/lower_array.h"

#define B (F->L->b)

/* [lo, hi) of the bytes an array touches, as i64 addresses. */
static void extent(uf__fn *F, LLVMValueRef data, const LLVMValueRef *shape,
                   const LLVMValueRef *strides, int nd, uf_dtype dt,
                   LLVMValueRef *lo, LLVMValueRef *hi)
{
    LLVMValueRef l = LLVMBuildPtrToInt(B, data, i64t(F), ""), h = l;
    for (int d = 0; d < nd; d++) {
        LLVMValueRef span = LLVMBuildMul(
            B, LLVMBuildSub(B, shape[d], c64(F, 1), ""), strides[d], "");
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, span, c64(F, 0), "");
        l = LLVMBuildAdd(B, l, LLVMBuildSelect(B, neg, span, c64(F, 0), ""),
                         "");
        h = LLVMBuildAdd(B, h, LLVMBuildSelect(B, neg, c64(F, 0), span, ""),
                         "");
    }
    *lo = l;
    *hi = LLVMBuildAdd(B, h, c64(F, (long long)uf_dtype_itemsize(dt)), "");
}

static LLVMValueRef call1(uf__fn *F, const char *name, LLVMTypeRef ret,
                          LLVMValueRef arg)
{
    LLVMTypeRef at = LLVMTypeOf(arg);
    LLVMTypeRef ft = LLVMFunctionType(ret, &at, 1, 0);
    return LLVMBuildCall2(B, ft, uf__lower_declare(F->L, name, ft, false),
                          &arg, 1, "");
}

typedef struct copy {
    operand *o;
    LLVMValueRef dst;
} copy;

/* Copies operand o (its own shape, C order) into a fresh buffer when
 * its bytes may overlap the destination's and it is not the destination
 * read element for element; points it at the copy. NumPy's rule. */
void uf__arrexpr_copy_if_overlap(fused *z, operand *o)
{
    uf__fn *F = z->F;
    const uf__type *t = uf__lower_info(F, o->e)->type;
    LLVMValueRef sh[MAXD], st[MAXD];
    LLVMValueRef ne = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0);
    for (int k = 0; k < o->ndim; k++) {
        sh[k] = uf__emit_array_dim(F, o->arr, k);
        st[k] = uf__emit_array_stride(F, o->arr, t, k);
        ne = LLVMBuildAnd(B, ne, LLVMBuildICmp(B, LLVMIntSGT, sh[k], c64(F, 0),
                                               ""), "");
    }
    for (int d = 0; d < z->nd; d++)
        ne = LLVMBuildAnd(B, ne, LLVMBuildICmp(B, LLVMIntSGT, z->shape[d],
                                               c64(F, 0), ""), "");
    LLVMValueRef slo, shi, dlo, dhi;
    extent(F, o->data, sh, st, o->ndim, o->dt, &slo, &shi);
    extent(F, z->ddata, z->shape, z->dstr, z->nd, z->ddt, &dlo, &dhi);
    LLVMValueRef same = LLVMBuildICmp(
        B, LLVMIntEQ, LLVMBuildPtrToInt(B, o->data, i64t(F), ""),
        LLVMBuildPtrToInt(B, z->ddata, i64t(F), ""), "");
    same = LLVMBuildAnd(B, same,
                        LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx),
                                     uf_dtype_itemsize(o->dt) ==
                                         uf_dtype_itemsize(z->ddt),
                                     0),
                        "");
    for (int d = 0; d < z->nd; d++)
        same = LLVMBuildAnd(B, same, LLVMBuildICmp(B, LLVMIntEQ, o->str[d],
                                                   z->dstr[d], ""), "");
    LLVMValueRef overlap = LLVMBuildAnd(
        B, LLVMBuildAnd(B, ne, LLVMBuildNot(B, same, ""), ""),
        LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntULT, slo, dhi, ""),
                     LLVMBuildICmp(B, LLVMIntULT, dlo, shi, ""), ""),
        "overlap");
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef cp = uf__fn_block(F, "arrexpr.copy");
    LLVMBasicBlockRef join = uf__fn_block(F, "arrexpr.join");
    LLVMBuildCondBr(B, overlap, cp, join);

    LLVMPositionBuilderAtEnd(B, cp);
    LLVMValueRef cstr[MAXD];
    LLVMValueRef bytes = c64(F, (long long)uf_dtype_itemsize(o->dt));
    for (int k = o->ndim - 1; k >= 0; k--) {
        cstr[k] = bytes;
        bytes = LLVMBuildMul(B, bytes, sh[k], "");
    }
    LLVMValueRef buf = call1(F, "malloc", i8p(F), bytes);
    uf__fn_raise_if(F, LLVMBuildIsNull(B, buf, ""), UF__JIT_NOMEM);
    /* the copy: a small fused store of the operand into buf */
    fused c;
    memset(&c, 0, sizeof c);
    c.F = F;
    c.pos = z->pos;
    c.nd = o->ndim;
    c.ddt = o->dt;
    c.ddata = buf;
    c.augop = -1;
    c.value = o->e;
    for (int k = 0; k < o->ndim; k++) {
        c.shape[k] = sh[k];
        c.dstr[k] = cstr[k];
    }
    c.nops = 1;
    c.ops[0] = *o;
    for (int k = 0; k < o->ndim; k++)
        c.ops[0].str[k] = st[k];
    LLVMValueRef contig = LLVMConstNull(LLVMInt1TypeInContext(F->L->ctx));
    bool ok = true;
    nest s = {0, contig, &ok};
    LLVMValueRef p[2] = {buf, o->data};
    uf__arrexpr_level(&c, p, &s);
    LLVMValueRef tstr[MAXD];
    for (int d = 0; d < z->nd; d++) {
        int k = d - (z->nd - o->ndim);
        tstr[d] = k < 0 ? c64(F, 0)
                        : LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ,
                                                           o->str[d],
                                                           c64(F, 0), ""),
                                          c64(F, 0), cstr[k], "");
    }
    LLVMBasicBlockRef copied = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, join);

    LLVMPositionBuilderAtEnd(B, join);
    LLVMBasicBlockRef from[2] = {pre, copied};
    LLVMValueRef pd = LLVMBuildPhi(B, i8p(F), "src");
    LLVMAddIncoming(pd, (LLVMValueRef[]){o->data, buf}, from, 2);
    LLVMValueRef pt = LLVMBuildPhi(B, i8p(F), "tmp");
    LLVMAddIncoming(pt, (LLVMValueRef[]){LLVMConstNull(i8p(F)), buf}, from,
                    2);
    for (int d = 0; d < z->nd; d++) {
        LLVMValueRef s2 = LLVMBuildPhi(B, i64t(F), "str");
        LLVMAddIncoming(s2, (LLVMValueRef[]){o->str[d], tstr[d]}, from, 2);
        o->str[d] = s2;
    }
    o->data = pd;
    o->tmp = pt;
}

void uf__arrexpr_free_copies(fused *z)
{
    uf__fn *F = z->F;
    for (int i = 0; i < z->nops; i++) {
        if (!z->ops[i].tmp)
            continue;
        LLVMBasicBlockRef rel = uf__fn_block(F, "arrexpr.free");
        LLVMBasicBlockRef end = uf__fn_block(F, "arrexpr.end");
        LLVMBuildCondBr(B, LLVMBuildIsNull(B, z->ops[i].tmp, ""), end, rel);
        LLVMPositionBuilderAtEnd(B, rel);
        call1(F, "free", LLVMVoidTypeInContext(F->L->ctx), z->ops[i].tmp);
        LLVMBuildBr(B, end);
        LLVMPositionBuilderAtEnd(B, end);
    }
}
