/* Calls of foreign device functions (cuda.declare_device) with
 * numba-cuda's ABIs:
 *   abi='numba': int32 f(ret *out, args...), the result stored at out;
 *   abi='c':     ret f(args...).
 * The function stays an external declaration of the module, resolved when
 * the kernel's PTX is linked with the link= files. numba-cuda reads the
 * numba ABI's status as its callee convention: nonzero (other than -2)
 * returns from the calling Python function at once; ufjit does not read
 * it (README: a foreign function's status). */
#include <string.h>

#include "common/error_internal.h"
#include "compiler/lower/codegen.h"
#include "compiler/lower/lower.h"

static LLVMValueRef refuse(uf__fn *F, const uf__expr *e, const char *fmt,
                           const char *a, const char *b)
{
    uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos, fmt,
                     a, b);
    return NULL;
}

/* The declaration of x's symbol with type fty: one per module; the same
 * symbol declared twice must agree. */
static LLVMValueRef declare(uf__fn *F, const uf__expr *e,
                            const uf__extern_decl *x, LLVMTypeRef fty)
{
    LLVMValueRef fn = LLVMGetNamedFunction(F->L->mod, x->symbol);
    if (fn && LLVMGlobalGetValueType(fn) != fty)
        return refuse(F, e, "'%s' is declared with two different signatures "
                      "(or clashes with a function ufjit generates): '%s' "
                      "is one", x->symbol, x->signature);
    if (fn)
        return fn;
    fn = LLVMAddFunction(F->L->mod, x->symbol, fty);
    uf__lower_add_attr(F->L, fn, (int)LLVMAttributeFunctionIndex, "nounwind");
    return fn;
}

LLVMValueRef uf__lower_extern_call(uf__fn *F, const uf__expr *e,
                                   const uf__extern_decl *x)
{
    uf__lower *L = F->L;
    if (!L->cg->links_device_code)
        return refuse(F, e, "'%s' is external device code "
                      "(cuda.declare_device): it runs only on a GPU, "
                      "linked by the CUDA driver; the %s target cannot run "
                      "it", x->symbol, L->cg->name);
    bool none = x->ret->kind == UF__T_NONE;
    LLVMTypeRef rty = none ? LLVMVoidTypeInContext(L->ctx)
                           : uf__lower_type(L, x->ret, F->err);
    if (!rty)
        return NULL;
    LLVMTypeRef ptys[66];
    LLVMValueRef args[66];
    unsigned na = 0;
    LLVMValueRef out = NULL;
    if (!x->c_abi) {
        LLVMTypeRef slot = none ? LLVMInt8TypeInContext(L->ctx) : rty;
        out = uf__fn_alloca(F, slot, "ext.ret");
        ptys[na] = LLVMTypeOf(out);
        args[na++] = out;
    }
    if (x->nargs > 64 || e->u.call.nargs != x->nargs)
        return refuse(F, e, "'%s': this call does not match '%s'", x->symbol,
                      x->signature);
    for (int i = 0; i < x->nargs; i++) {
        const uf__expr *a = e->u.call.args[i];
        LLVMValueRef v = uf__lower_expr(F, a);
        if (!v ||
            !(v = uf__emit_convert(F, v, uf__lower_info(F, a)->type,
                                   x->args[i])))
            return NULL;
        ptys[na] = LLVMTypeOf(v);
        args[na++] = v;
    }
    LLVMTypeRef fty = LLVMFunctionType(
        x->c_abi ? rty : LLVMInt32TypeInContext(L->ctx), ptys, na, 0);
    LLVMValueRef fn = declare(F, e, x, fty);
    if (!fn)
        return NULL;
    LLVMValueRef r = LLVMBuildCall2(L->b, fty, fn, args, na, "");
    if (none)
        return LLVMGetUndef(LLVMInt1TypeInContext(L->ctx));
    if (!x->c_abi)
        r = LLVMBuildLoad2(L->b, rty, out, "");
    return r;
}
