/* np.median, np.nanmedian, np.percentile, np.nanpercentile, np.quantile,
 * np.nanquantile (typed by infer_npselect.c): one call of the host
 * runtime (common/npselect.h), which copies the array, selects as Numba
 * does and frees its copy before it returns. Arrays go to it as they are
 * (data, shape, strides, dtype); a number or a tuple of numbers is first
 * stored as float64 into a stack slot, a 1-D (or 0-d) array of its own.
 * The result is a float64, or for an array or tuple of q a new 1-D
 * float64 array of q's size owned by the frame. The runtime's statuses
 * become Numba's exceptions. */
#include <string.h>

#include "common/npselect.h"
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

/* An operand as the runtime reads it. */
typedef struct operand {
    LLVMValueRef data, nd, shape, strides, dt; /* i8*, i64, i64*, i64*, i32 */
    LLVMValueRef size;                         /* i64: its element count */
} operand;

static LLVMValueRef i64_slots(uf__fn *F, int n, const char *name)
{
    LLVMValueRef s = uf__fn_alloca(F, LLVMArrayType(i64t(F),
                                                    (unsigned)(n ? n : 1)),
                                   name);
    return LLVMBuildPointerCast(B, s, LLVMPointerType(i64t(F), 0), "");
}

static void put(uf__fn *F, LLVMValueRef p, int k, LLVMValueRef v)
{
    LLVMValueRef ix = c64(F, k);
    LLVMBuildStore(B, v, LLVMBuildGEP2(B, i64t(F), p, &ix, 1, ""));
}

/* The operand of expression x (type t, value v): an array as it is, a
 * number or a tuple of numbers as float64 in a stack slot. */
static void take(uf__fn *F, const uf__type *t, LLVMValueRef v, operand *o)
{
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    if (t->kind == UF__T_ARRAY) {
        o->shape = i64_slots(F, t->ndim, "sel.shape");
        o->strides = i64_slots(F, t->ndim, "sel.strides");
        o->size = c64(F, 1);
        for (int k = 0; k < t->ndim; k++) {
            LLVMValueRef d = uf__emit_array_dim(F, v, k);
            put(F, o->shape, k, d);
            put(F, o->strides, k, uf__emit_array_stride(F, v, t, k));
            o->size = LLVMBuildMul(B, o->size, d, "");
        }
        o->data = LLVMBuildPointerCast(B, uf__emit_array_data(F, v), i8p,
                                       "");
        o->nd = c64(F, t->ndim);
        o->dt = LLVMConstInt(i32t(F), (unsigned)t->dtype, 0);
        return;
    }
    int n = t->kind == UF__T_TUPLE ? t->n : 1;
    LLVMValueRef slot = uf__fn_alloca(F, LLVMArrayType(f64, (unsigned)(n ? n
                                                                       : 1)),
                                      "sel.values");
    LLVMValueRef fp = LLVMBuildPointerCast(B, slot, LLVMPointerType(f64, 0),
                                           "");
    for (int i = 0; i < n; i++) {
        const uf__type *et = t->kind == UF__T_TUPLE ? t->elts[i] : t;
        LLVMValueRef x = t->kind == UF__T_TUPLE
                             ? LLVMBuildExtractValue(B, v, (unsigned)i, "")
                             : v;
        LLVMValueRef ix = c64(F, i);
        LLVMBuildStore(B, uf__emit_cast(F, x, et->dtype, UF_FLOAT64),
                       LLVMBuildGEP2(B, f64, fp, &ix, 1, ""));
    }
    o->data = LLVMBuildPointerCast(B, fp, i8p, "");
    o->shape = i64_slots(F, 1, "sel.shape");
    o->strides = i64_slots(F, 1, "sel.strides");
    put(F, o->shape, 0, c64(F, n));
    put(F, o->strides, 0, c64(F, 8));
    o->nd = c64(F, t->kind == UF__T_TUPLE ? 1 : 0);
    o->dt = LLVMConstInt(i32t(F), UF_FLOAT64, 0);
    o->size = c64(F, n);
}

static LLVMValueRef call_helper(uf__fn *F, const char *name,
                                LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[12];
    for (unsigned i = 0; i < n; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(i32t(F), pt, n, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    F->L->uses_runtime = true;
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

/* The runtime's statuses as Numba's exceptions. */
static void raise_status(uf__fn *F, LLVMValueRef st, bool quantile)
{
    static const struct {
        int status, jit;
    } map[] = {
        {UF__NPSELECT_NOMEM, UF__JIT_NOMEM},
        {UF__NPSELECT_EMPTY_MIN, UF__JIT_EMPTY_MIN},
        {UF__NPSELECT_EMPTY_MAX, UF__JIT_EMPTY_MAX},
        {UF__NPSELECT_EMPTY_SELECT, UF__JIT_SELECT_EMPTY},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, st,
                                         LLVMConstInt(i32t(F),
                                                      (unsigned long long)
                                                          map[i].status,
                                                      1),
                                         ""),
                        map[i].jit);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, st,
                                     LLVMConstInt(i32t(F),
                                                  UF__NPSELECT_Q_RANGE, 0),
                                     ""),
                    quantile ? UF__JIT_QUANTILE_Q : UF__JIT_PERCENTILE_Q);
}

/* The argument at position pos or keyword name (infer_npselect.c bound
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

LLVMValueRef uf__lower_npselect(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf__builtin b = in->builtin;
    if (F->L->cg->sreg != NULL) { /* a CUDA ufunc or gufunc */
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "np.%s() copies the array in the host runtime, "
                         "which CUDA kernels cannot do",
                         uf__builtin_name(b) + 6);
        return NULL;
    }
    const uf__expr *ax = arg(e, 0, "a");
    LLVMValueRef av = uf__lower_expr(F, ax);
    if (!av)
        return NULL;
    operand a;
    take(F, uf__lower_info(F, ax)->type, av, &a);
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    if (b == UF__BI_NP_MEDIAN || b == UF__BI_NP_NANMEDIAN) {
        LLVMValueRef out = uf__fn_alloca(F, f64, "median");
        LLVMValueRef args[7] = {
            a.data, a.nd, a.shape, a.strides, a.dt,
            LLVMConstInt(i32t(F), b == UF__BI_NP_NANMEDIAN, 0), out};
        raise_status(F, call_helper(F, UF__NP_MEDIAN, args, 7), false);
        return LLVMBuildLoad2(B, f64, out, "");
    }
    const uf__expr *qx = arg(e, 1, "q");
    LLVMValueRef qv = uf__lower_expr(F, qx);
    if (!qv)
        return NULL;
    operand q;
    take(F, uf__lower_info(F, qx)->type, qv, &q);
    bool quantile = b == UF__BI_NP_QUANTILE || b == UF__BI_NP_NANQUANTILE;
    bool skip = b == UF__BI_NP_NANPERCENTILE || b == UF__BI_NP_NANQUANTILE;
    LLVMValueRef res = NULL, out;
    if (in->type->kind == UF__T_ARRAY) {
        LLVMValueRef n;
        res = uf__lower_new_array(F, UF_FLOAT64, 1, &q.size, &n);
        out = LLVMBuildPointerCast(B, uf__emit_array_data(F, res),
                                   LLVMPointerType(f64, 0), "");
    } else {
        out = uf__fn_alloca(F, f64, "percentile");
    }
    int how = (skip ? UF__NPSELECT_SKIP_NAN : 0) |
              (quantile ? UF__NPSELECT_QUANTILE : 0);
    LLVMValueRef args[12] = {a.data, a.nd, a.shape, a.strides, a.dt,
                             q.data, q.nd, q.shape, q.strides, q.dt,
                             LLVMConstInt(i32t(F), (unsigned)how, 0), out};
    raise_status(F, call_helper(F, UF__NP_PERCENTILE, args, 12), quantile);
    return res ? res : LLVMBuildLoad2(B, f64, out, "");
}
