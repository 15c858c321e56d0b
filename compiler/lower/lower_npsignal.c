/* np.convolve and np.correlate (typed by infer_npsignal.c): Numba's
 * checks in its order (an empty a, an empty v, then the mode), a new 1-D
 * array of the result's length owned by the frame, and one call of the
 * host runtime (common/npsignal.h) that fills it; np.bartlett ...
 * np.kaiser the same for M points. */
#include <string.h>

#include "common/npsignal.h"
#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"

#define B (F->L->b)

static LLVMTypeRef i64t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMTypeRef i32t(uf__fn *F)
{
    return LLVMInt32TypeInContext(F->L->ctx);
}

static LLVMValueRef c64(uf__fn *F, int64_t v)
{
    return LLVMConstInt(i64t(F), (unsigned long long)v, 1);
}

static LLVMValueRef c32(uf__fn *F, int v)
{
    return LLVMConstInt(i32t(F), (unsigned long long)v, 1);
}

/* The argument at position pos or keyword name (infer_npsignal.c bound
 * them). */
static const uf__expr *arg(const uf__expr *e, int pos, const char *name)
{
    if (pos < e->u.call.nargs)
        return e->u.call.args[pos];
    for (int k = 0; k < e->u.call.nkw; k++)
        if (strcmp(e->u.call.kw[k].name, name) == 0)
            return e->u.call.kw[k].value;
    return NULL;
}

/* The mode of call e: UF__NPSIGNAL_VALID ..., -1 for an invalid one. */
static int mode_of(uf__fn *F, const uf__expr *e, bool corr)
{
    const uf__expr *m = arg(e, 2, "mode");
    if (m == NULL)
        return corr ? UF__NPSIGNAL_VALID : UF__NPSIGNAL_FULL;
    static const char *const names[] = {"valid", "same", "full"};
    const char *s = uf__lower_strlit(F, m, NULL); /* lower_str.c */
    for (int i = 0; i < 3 && s != NULL; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* np.bartlett(M) ...: M < 1 an empty array, 1 [1.0], else the
 * runtime's window. */
static LLVMValueRef window(uf__fn *F, const uf__expr *e, uf__builtin b)
{
    const uf__expr *mx = arg(e, 0, "M");
    LLVMValueRef m = uf__lower_expr(F, mx);
    if (!m)
        return NULL;
    uf_dtype dt = uf__lower_info(F, mx)->type->dtype;
    m = uf__emit_cast(F, m, dt, UF_INT64);
    LLVMValueRef pos = LLVMBuildICmp(B, LLVMIntSGT, m, c64(F, 0), "");
    if (dt == UF_UINT64) /* a uint64 past 2^63 is no window Numba makes */
        pos = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0);
    LLVMValueRef len = LLVMBuildSelect(B, pos, m, c64(F, 0), "");
    LLVMValueRef items;
    LLVMValueRef res = uf__lower_new_array(F, UF_FLOAT64, 1, &len, &items);
    LLVMTypeRef f64p = LLVMPointerType(LLVMDoubleTypeInContext(F->L->ctx),
                                       0);
    LLVMValueRef args[3] = {
        c32(F, (int)(b - UF__BI_NP_BARTLETT)), len,
        LLVMBuildPointerCast(B, uf__emit_array_data(F, res), f64p, "")};
    LLVMTypeRef pt[3] = {i32t(F), i64t(F), f64p};
    LLVMTypeRef fty = LLVMFunctionType(i32t(F), pt, 3, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, UF__NP_WINDOW, fty);
    F->L->uses_runtime = true;
    /* M == 1: Numba's np.ones(1) (the formulas divide by M - 1) */
    LLVMBasicBlockRef one = uf__fn_block(F, "win.one");
    LLVMBasicBlockRef many = uf__fn_block(F, "win.many");
    LLVMBasicBlockRef done = uf__fn_block(F, "win.done");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, len, c64(F, 1), ""), one,
                    many);
    LLVMPositionBuilderAtEnd(B, one);
    LLVMBuildStore(B, LLVMConstReal(LLVMDoubleTypeInContext(F->L->ctx), 1.0),
                   args[2]);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, many);
    LLVMBuildCall2(B, fty, fn, args, 3, "");
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return res;
}

/* np.kaiser(M, beta): M < 1 an empty array, 1 [1.0], else the
 * runtime's window of beta as a float64. */
static LLVMValueRef kaiser(uf__fn *F, const uf__expr *e)
{
    const uf__expr *mx = arg(e, 0, "M"), *bx = arg(e, 1, "beta");
    LLVMValueRef m = uf__lower_expr(F, mx);
    LLVMValueRef beta = m ? uf__lower_expr(F, bx) : NULL;
    if (!beta)
        return NULL;
    m = uf__emit_cast(F, m, uf__lower_info(F, mx)->type->dtype, UF_INT64);
    beta = uf__emit_cast(F, beta, uf__lower_info(F, bx)->type->dtype,
                         UF_FLOAT64);
    LLVMValueRef pos = LLVMBuildICmp(B, LLVMIntSGT, m, c64(F, 0), "");
    LLVMValueRef len = LLVMBuildSelect(B, pos, m, c64(F, 0), "");
    LLVMValueRef items;
    LLVMValueRef res = uf__lower_new_array(F, UF_FLOAT64, 1, &len, &items);
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    LLVMTypeRef f64p = LLVMPointerType(f64, 0);
    LLVMValueRef args[3] = {
        len, beta,
        LLVMBuildPointerCast(B, uf__emit_array_data(F, res), f64p, "")};
    LLVMTypeRef pt[3] = {i64t(F), f64, f64p};
    LLVMTypeRef fty = LLVMFunctionType(i32t(F), pt, 3, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, UF__NP_KAISER, fty);
    F->L->uses_runtime = true;
    /* M == 1: Numba's np.ones(1) (alpha is 0 there) */
    LLVMBasicBlockRef one = uf__fn_block(F, "kaiser.one");
    LLVMBasicBlockRef many = uf__fn_block(F, "kaiser.many");
    LLVMBasicBlockRef done = uf__fn_block(F, "kaiser.done");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, len, c64(F, 1), ""), one,
                    many);
    LLVMPositionBuilderAtEnd(B, one);
    LLVMBuildStore(B, LLVMConstReal(f64, 1.0), args[2]);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, many);
    LLVMBuildCall2(B, fty, fn, args, 3, "");
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return res;
}

LLVMValueRef uf__lower_npsignal(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    bool corr = in->builtin == UF__BI_NP_CORRELATE;
    if (F->L->cg->sreg != NULL) { /* a CUDA ufunc or gufunc */
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "np.%s() runs in the host runtime, which CUDA "
                         "kernels cannot call",
                         uf__builtin_name(in->builtin) + 6);
        return NULL;
    }
    if (in->builtin == UF__BI_NP_KAISER)
        return kaiser(F, e);
    if (in->builtin >= UF__BI_NP_BARTLETT)
        return window(F, e, in->builtin);
    const uf__expr *xs[2] = {arg(e, 0, "a"), arg(e, 1, "v")};
    LLVMValueRef data[2], n[2], st[2], dt[2];
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    for (int i = 0; i < 2; i++) {
        LLVMValueRef x = uf__lower_expr(F, xs[i]);
        if (!x)
            return NULL;
        const uf__type *t = uf__lower_info(F, xs[i])->type;
        data[i] = LLVMBuildPointerCast(B, uf__emit_array_data(F, x), i8p,
                                       "");
        n[i] = uf__emit_array_dim(F, x, 0);
        st[i] = uf__emit_array_stride(F, x, t, 0);
        dt[i] = c32(F, (int)t->dtype);
    }
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, n[0], c64(F, 0), ""),
                    UF__JIT_SIGNAL_A_EMPTY);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, n[1], c64(F, 0), ""),
                    UF__JIT_SIGNAL_V_EMPTY);
    int mode = mode_of(F, e, corr);
    if (mode < 0) { /* Numba's ValueError at run time; what follows is
                       not reached */
        uf__fn_raise_if(F, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx),
                                        1, 0),
                        UF__JIT_SIGNAL_MODE);
        mode = UF__NPSIGNAL_FULL;
    }
    /* n1 the longer, nn the shorter; the length as uf__np_correlate_len */
    LLVMValueRef lt = LLVMBuildICmp(B, LLVMIntSLT, n[0], n[1], "");
    LLVMValueRef n1 = LLVMBuildSelect(B, lt, n[1], n[0], "");
    LLVMValueRef nn = LLVMBuildSelect(B, lt, n[0], n[1], "");
    LLVMValueRef len =
        mode == UF__NPSIGNAL_VALID
            ? LLVMBuildAdd(B, LLVMBuildSub(B, n1, nn, ""), c64(F, 1), "")
        : mode == UF__NPSIGNAL_SAME
            ? n1
            : LLVMBuildSub(B, LLVMBuildAdd(B, n1, nn, ""), c64(F, 1), "");
    uf_dtype dto = in->type->dtype;
    LLVMValueRef items;
    LLVMValueRef res = uf__lower_new_array(F, dto, 1, &len, &items);
    LLVMValueRef args[11] = {
        data[0], n[0], st[0], dt[0], data[1], n[1], st[1], dt[1],
        c32(F, (corr ? UF__NPSIGNAL_CORRELATE : 0) | mode << 1),
        LLVMBuildPointerCast(B, uf__emit_array_data(F, res), i8p, ""),
        c32(F, (int)dto)};
    LLVMTypeRef pt[11];
    for (int i = 0; i < 11; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(i32t(F), pt, 11, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, UF__NP_CORRELATE, fty);
    F->L->uses_runtime = true;
    LLVMValueRef rc = LLVMBuildCall2(B, fty, fn, args, 11, "");
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, rc, c32(F, 0), ""),
                    UF__JIT_NOMEM);
    return res;
}
