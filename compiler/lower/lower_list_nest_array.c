/* np.array(l) of a list of lists of numbers (Numba's np.array of a
 * nested list, typed by types/infer_npjoin.c): an array of one more
 * dimension per level of lists, its shape read from the first list at
 * each level, filled by common/list_nest.c; an empty list above the last
 * level raises Numba's IndexError "getitem out of range", a ragged list
 * its ValueError "incompatible sequence shape". */
#include "common/list_items.h"
#include "common/list_nest.h"
#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"

#define B (F->L->b)

static LLVMValueRef call(uf__fn *F, const char *name, LLVMTypeRef ret,
                         LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[8]; /* n <= 8 */
    for (unsigned i = 0; i < n; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, n, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    F->L->uses_runtime = true;
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

/* A new array of dtype `to` and src's shape, its cnt numbers converted
 * from src's (dtype `from`): np.array(l, dtype=...). */
static LLVMValueRef convert(uf__fn *F, LLVMValueRef src, uf_dtype from,
                            uf_dtype to, int nd, LLVMValueRef *shape,
                            LLVMValueRef cnt)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMValueRef n2, arr = uf__lower_new_array(F, to, nd, shape, &n2);
    LLVMValueRef s = uf__emit_array_data(F, src);
    LLVMValueRef d = uf__emit_array_data(F, arr);
    LLVMValueRef slot = uf__fn_alloca(F, i64, "nest.k");
    LLVMBuildStore(B, LLVMConstInt(i64, 0, 0), slot);
    LLVMBasicBlockRef head = uf__fn_block(F, "nest.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "nest.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "nest.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef k = LLVMBuildLoad2(B, i64, slot, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, k, cnt, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef si = LLVMBuildMul(
        B, k, LLVMConstInt(i64, uf_dtype_itemsize(from), 0), "");
    LLVMValueRef di = LLVMBuildMul(
        B, k, LLVMConstInt(i64, uf_dtype_itemsize(to), 0), "");
    LLVMValueRef v = uf__emit_elem_load(
        F, LLVMBuildInBoundsGEP2(B, i8, s, &si, 1, ""), from);
    uf__emit_elem_store(F, LLVMBuildInBoundsGEP2(B, i8, d, &di, 1, ""), to,
                        uf__emit_cast(F, v, from, to));
    LLVMBuildStore(B, LLVMBuildAdd(B, k, LLVMConstInt(i64, 1, 0), ""), slot);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
    return arr;
}

LLVMValueRef uf__lower_list_nested_array(uf__fn *F, LLVMValueRef l,
                                         const uf__type *lt, uf_dtype to)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    int nd = 1;
    const uf__type *leaf = lt->elts[0];
    for (; leaf->kind == UF__T_LIST; leaf = leaf->elts[0])
        nd++;
    LLVMValueRef dims = uf__fn_alloca(F, LLVMArrayType(i64, (unsigned)nd),
                                      "nest.shape");
    LLVMValueRef dp = LLVMBuildPointerCast(B, dims, LLVMPointerType(i64, 0),
                                           "");
    LLVMValueRef sa[3] = {l, LLVMConstInt(i32, (unsigned)nd, 0), dp};
    LLVMValueRef got = call(F, UF__LIST_NEST_SHAPE, i32, sa, 3);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, got,
                                     LLVMConstInt(i32, 0, 0), ""),
                    UF__JIT_LIST_INDEX);
    LLVMValueRef shape[UF__LIST_NEST_MAX + 1], cnt;
    for (int d = 0; d < nd; d++) {
        LLVMValueRef ix = LLVMConstInt(i64, (unsigned)d, 0);
        shape[d] = LLVMBuildLoad2(
            B, i64, LLVMBuildInBoundsGEP2(B, i64, dp, &ix, 1, ""), "");
    }
    uf_dtype from = leaf->dtype;
    LLVMValueRef arr = uf__lower_new_array(F, from, nd, shape, &cnt);
    LLVMValueRef fa[5] = {
        l, LLVMConstInt(i32, (unsigned)nd, 0), dp,
        LLVMConstInt(i64, (unsigned long long)uf_dtype_itemsize(from), 0),
        LLVMBuildPointerCast(B, uf__emit_array_data(F, arr), i8p, "")};
    LLVMValueRef rc = call(F, UF__LIST_NEST_FILL, i32, fa, 5);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, rc,
                                     LLVMConstInt(i32, 0, 0), ""),
                    UF__JIT_LIST_RAGGED);
    return from == to ? arr : convert(F, arr, from, to, nd, shape, cnt);
}
