/* Lowering `raise Cls(args)` and `print(args)` (typed by compiler/types/infer_raise.c): a
 * call of the runtime's UF__RT_RAISE (compiler/host/jit_status.c), which
 * formats the arguments as Python's str() of the exception would and
 * records the message on the thread, then the status UF__JIT_RAISE that
 * every caller passes up (njit callers, prange workers, the loops). The
 * arguments travel as two arrays: their kinds (uf__raise_kind, a
 * constant) and their values as 64-bit words; print's the same way to
 * UF__RT_PRINT, which writes the line to stdout and flushes it. */
#include <stdio.h>
#include <string.h>

#include "compiler/host/jit.h"
#include "compiler/lower/codegen.h"
#include "compiler/lower/lower.h"
#include "compiler/types/exceptions.h"

#define B (F->L->b)

/* A private NUL-terminated constant of the module. */
static LLVMValueRef const_string(uf__fn *F, const char *s, size_t len)
{
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMValueRef init =
        LLVMConstStringInContext(F->L->ctx, s, (unsigned)len, 0);
    LLVMValueRef g = LLVMAddGlobal(F->L->mod, LLVMTypeOf(init), "uf.raise");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    return LLVMConstPointerCast(g, LLVMPointerType(i8, 0));
}

/* Argument `a` as a 64-bit word, its kind in *kind. */
static LLVMValueRef arg_word(uf__fn *F, const uf__expr *a, int32_t *kind)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    size_t len;
    const char *s = uf__lower_strlit(F, a, &len); /* lower_str.c */
    if (s != NULL) {
        *kind = UF__RAISE_STR;
        return LLVMBuildPtrToInt(B, const_string(F, s, len), i64, "");
    }
    LLVMValueRef v = uf__lower_expr(F, a);
    if (v == NULL)
        return NULL;
    if (uf__tf_info(F->tf, a)->type->kind == UF__T_USTR) { /* lower_ustr.c */
        *kind = UF__RAISE_USTR;
        return LLVMBuildPtrToInt(B, v, i64, "");
    }
    uf_dtype dt = uf__tf_info(F->tf, a)->type->dtype;
    switch (uf_dtype_kind(dt)) {
    case 'b':
        *kind = UF__RAISE_BOOL;
        return LLVMBuildZExt(B, v, i64, "");
    case 'i':
        *kind = UF__RAISE_INT;
        return LLVMBuildSExtOrBitCast(B, v, i64, "");
    case 'u':
        *kind = UF__RAISE_UINT;
        return LLVMBuildZExtOrBitCast(B, v, i64, "");
    default: /* floats, typing refused complex */
        *kind = UF__RAISE_FLOAT;
        if (dt != UF_FLOAT64)
            v = LLVMBuildFPExt(B, v, LLVMDoubleTypeInContext(F->L->ctx), "");
        return LLVMBuildBitCast(B, v, i64, "");
    }
}

/* args[0..n) packed for the runtime: *kind_ptr the constant array of
 * their kinds, *words a stack array of their words. 0 or F->err's code. */
static int pack(uf__fn *F, uf__expr *const *args, int n,
                LLVMValueRef *kind_ptr, LLVMValueRef *words)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    int32_t kinds[UF__RAISE_MAXARGS];
    *words = LLVMConstNull(LLVMPointerType(i64, 0));
    *kind_ptr = LLVMConstNull(LLVMPointerType(i32, 0));
    if (n == 0)
        return 0;
    LLVMTypeRef at = LLVMArrayType(i64, (unsigned)n);
    LLVMValueRef slot = uf__fn_alloca(F, at, "fmt.args");
    for (int i = 0; i < n; i++) {
        LLVMValueRef w = arg_word(F, args[i], &kinds[i]);
        if (w == NULL)
            return F->err->code;
        LLVMValueRef ix[2] = {LLVMConstInt(i32, 0, 0),
                              LLVMConstInt(i32, (unsigned)i, 0)};
        LLVMBuildStore(B, w, LLVMBuildInBoundsGEP2(B, at, slot, ix, 2, ""));
    }
    *words = LLVMBuildBitCast(B, slot, LLVMPointerType(i64, 0), "");
    LLVMValueRef kv[UF__RAISE_MAXARGS];
    for (int i = 0; i < n; i++)
        kv[i] = LLVMConstInt(i32, (unsigned)kinds[i], 0);
    LLVMValueRef init = LLVMConstArray(i32, kv, (unsigned)n);
    LLVMValueRef g = LLVMAddGlobal(F->L->mod, LLVMTypeOf(init), "uf.fmt.kinds");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    *kind_ptr = LLVMConstPointerCast(g, LLVMPointerType(i32, 0));
    return 0;
}

int uf__lower_raise(uf__fn *F, const uf__stmt *s)
{
    if (!F->fallible)
        return uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src,
                                s->pos, "%s", "a raise in a function that "
                                "cannot fail");
    LLVMContextRef c = F->L->ctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(c), 0);
    int n = s->u.raise.nargs;
    LLVMValueRef kind_ptr, words;
    if (pack(F, s->u.raise.args, n, &kind_ptr, &words) != 0)
        return F->err->code;
    const char *cls = s->u.raise.cls;
    LLVMTypeRef pt[5] = {i8p, i32, i32, LLVMPointerType(i32, 0),
                         LLVMPointerType(i64, 0)};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c), pt, 5, 0);
    LLVMValueRef args[5] = {
        const_string(F, cls, strlen(cls)),
        LLVMConstInt(i32, (unsigned)uf__exception_code(cls), 0),
        LLVMConstInt(i32, (unsigned)n, 0), kind_ptr, words};
    LLVMBuildCall2(B, fty, F->L->cg->helper(F->L, UF__RT_RAISE, fty), args, 5,
                   "");
    F->L->uses_runtime = true;
    uf__fn_raise_if(F, LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0),
                    UF__JIT_RAISE);
    LLVMBuildUnreachable(B); /* nothing follows a raise */
    return 0;
}

LLVMValueRef uf__lower_print(uf__fn *F, const uf__expr *e)
{
    LLVMContextRef c = F->L->ctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    int n = e->u.call.nargs;
    LLVMValueRef kind_ptr, words;
    if (pack(F, e->u.call.args, n, &kind_ptr, &words) != 0)
        return NULL;
    LLVMTypeRef pt[3] = {i32, LLVMPointerType(i32, 0),
                         LLVMPointerType(i64, 0)};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c), pt, 3, 0);
    LLVMValueRef args[3] = {LLVMConstInt(i32, (unsigned)n, 0), kind_ptr,
                            words};
    LLVMBuildCall2(B, fty, F->L->cg->helper(F->L, UF__RT_PRINT, fty), args, 3,
                   "");
    F->L->uses_runtime = true;
    return LLVMGetUndef(LLVMInt1TypeInContext(c)); /* None */
}

/* Value v of type t as the words of UF__RT_RAISE (a tuple's numbers or
 * strings one word each); the count, or -1 when t has no such form (a
 * complex number, a nested or 1-tuple: the caller's status then). */
static int value_words(uf__fn *F, LLVMValueRef v, const uf__type *t,
                       int32_t *kinds, LLVMValueRef *w)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    if (t->kind == UF__T_TUPLE) {
        if (t->n < 2 || t->n > UF__RAISE_MAXARGS)
            return -1;
        for (int i = 0; i < t->n; i++)
            if (t->elts[i]->kind == UF__T_TUPLE ||
                value_words(F, LLVMBuildExtractValue(B, v, (unsigned)i, ""),
                            t->elts[i], &kinds[i], &w[i]) != 1)
                return -1;
        return t->n;
    }
    if (t->kind == UF__T_USTR) {
        *kinds = UF__RAISE_USTR;
        *w = LLVMBuildPtrToInt(B, v, i64, "");
        return 1;
    }
    if (t->kind != UF__T_SCALAR)
        return -1;
    switch (uf_dtype_kind(t->dtype)) {
    case 'b':
        *kinds = UF__RAISE_BOOL;
        *w = LLVMBuildZExt(B, v, i64, "");
        return 1;
    case 'i':
        *kinds = UF__RAISE_INT;
        *w = LLVMBuildSExtOrBitCast(B, v, i64, "");
        return 1;
    case 'u':
        *kinds = UF__RAISE_UINT;
        *w = LLVMBuildZExtOrBitCast(B, v, i64, "");
        return 1;
    case 'f':
        *kinds = UF__RAISE_FLOAT;
        if (t->dtype != UF_FLOAT64)
            v = LLVMBuildFPExt(B, v, LLVMDoubleTypeInContext(F->L->ctx), "");
        *w = LLVMBuildBitCast(B, v, i64, "");
        return 1;
    case 'c': { /* its two parts as doubles, by address */
        LLVMTypeRef dbl = LLVMDoubleTypeInContext(F->L->ctx);
        LLVMTypeRef at = LLVMArrayType(dbl, 2);
        LLVMValueRef z = uf__fn_alloca(F, at, "key.z");
        LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
        for (unsigned k = 0; k < 2; k++) {
            LLVMValueRef part = LLVMBuildExtractValue(B, v, k, "");
            if (t->dtype != UF_COMPLEX128)
                part = LLVMBuildFPExt(B, part, dbl, "");
            LLVMValueRef ix[2] = {LLVMConstInt(i32, 0, 0),
                                  LLVMConstInt(i32, k, 0)};
            LLVMBuildStore(B, part, LLVMBuildInBoundsGEP2(B, at, z, ix, 2, ""));
        }
        *kinds = UF__RAISE_COMPLEX;
        *w = LLVMBuildPtrToInt(B, z, i64, "");
        return 1;
    }
    default:
        return -1;
    }
}

void uf__lower_raise_key_if(uf__fn *F, LLVMValueRef cond, LLVMValueRef v,
                            const uf__type *t, int status)
{
    if (!F->fallible)
        return;
    LLVMContextRef c = F->L->ctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(c), 0);
    LLVMBasicBlockRef miss = uf__fn_block(F, "keyerr");
    LLVMBasicBlockRef cont = uf__fn_block(F, "keyok");
    LLVMBuildCondBr(B, cond, miss, cont);
    LLVMPositionBuilderAtEnd(B, miss);
    int32_t kinds[UF__RAISE_MAXARGS];
    LLVMValueRef w[UF__RAISE_MAXARGS];
    int n = value_words(F, v, t, kinds, w);
    if (n < 0) { /* no str() of the key here: the plain status */
        uf__fn_raise_if(F, LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0),
                        status);
        LLVMBuildUnreachable(B);
        LLVMPositionBuilderAtEnd(B, cont);
        return;
    }
    LLVMTypeRef at = LLVMArrayType(i64, (unsigned)n);
    LLVMValueRef slot = uf__fn_alloca(F, at, "key.words");
    LLVMValueRef kv[UF__RAISE_MAXARGS];
    for (int i = 0; i < n; i++) {
        LLVMValueRef ix[2] = {LLVMConstInt(i32, 0, 0),
                              LLVMConstInt(i32, (unsigned)i, 0)};
        LLVMBuildStore(B, w[i], LLVMBuildInBoundsGEP2(B, at, slot, ix, 2, ""));
        kv[i] = LLVMConstInt(i32, (unsigned)kinds[i], 0);
    }
    LLVMValueRef init = LLVMConstArray(i32, kv, (unsigned)n);
    LLVMValueRef g = LLVMAddGlobal(F->L->mod, LLVMTypeOf(init), "uf.key.kinds");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    const char *cls = "KeyError";
    LLVMTypeRef pt[5] = {i8p, i32, i32, LLVMPointerType(i32, 0),
                         LLVMPointerType(i64, 0)};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c), pt, 5, 0);
    LLVMValueRef args[5] = {
        const_string(F, cls, strlen(cls)),
        LLVMConstInt(i32, (unsigned)uf__exception_code(cls), 0),
        LLVMConstInt(i32, (unsigned)n, 0),
        LLVMConstPointerCast(g, LLVMPointerType(i32, 0)),
        LLVMBuildBitCast(B, slot, LLVMPointerType(i64, 0), "")};
    LLVMBuildCall2(B, fty, F->L->cg->helper(F->L, UF__RT_RAISE, fty), args, 5,
                   "");
    F->L->uses_runtime = true;
    uf__fn_raise_if(F, LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0),
                    UF__JIT_RAISE);
    LLVMBuildUnreachable(B);
    LLVMPositionBuilderAtEnd(B, cont);
}
