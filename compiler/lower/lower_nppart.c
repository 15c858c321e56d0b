/* np.partition(a, kth) and np.argpartition(a, kth) (typed by
 * infer_nppart.c): a new C array of a's shape, then one call of the host
 * runtime (common/nppart.h) that fills it row by row with Numba's
 * quickselect. a goes to it as it is (data, shape, strides, dtype), a
 * tuple of numbers first stored in a stack slot in its dtype; kth as an
 * array of integers (data, count, stride, dtype), an int or a tuple of
 * ints first stored as int64 in a stack slot. The runtime's statuses
 * become Numba's ValueErrors. */
#include <string.h>

#include "common/nppart.h"
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

static LLVMTypeRef i8p(uf__fn *F)
{
    return LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
}

/* Room for n (at least 1) i64 values on the stack, as an i8*. */
static LLVMValueRef slots(uf__fn *F, int n, const char *name)
{
    LLVMValueRef s = uf__fn_alloca(
        F, LLVMArrayType(i64t(F), (unsigned)(n ? n : 1)), name);
    return LLVMBuildPointerCast(B, s, i8p(F), "");
}

/* Stores v (dtype dt) at byte offset off of p. */
static void put(uf__fn *F, LLVMValueRef p, int64_t off, uf_dtype dt,
                LLVMValueRef v)
{
    LLVMValueRef ix = c64(F, off);
    uf__emit_elem_store(
        F, LLVMBuildGEP2(B, LLVMInt8TypeInContext(F->L->ctx), p, &ix, 1, ""),
        dt, v);
}

/* The values of a tuple of numbers (or of one number) converted to dt in
 * a stack slot, itemsize bytes apart. */
static LLVMValueRef stack_values(uf__fn *F, const uf__type *t,
                                 LLVMValueRef v, uf_dtype dt)
{
    int n = t->kind == UF__T_TUPLE ? t->n : 1;
    int64_t isz = (int64_t)uf_dtype_itemsize(dt);
    LLVMValueRef p = slots(F, n, "part.values");
    for (int i = 0; i < n; i++) {
        const uf__type *et = t->kind == UF__T_TUPLE ? t->elts[i] : t;
        LLVMValueRef x = t->kind == UF__T_TUPLE
                             ? LLVMBuildExtractValue(B, v, (unsigned)i, "")
                             : v;
        put(F, p, i * isz, dt, uf__emit_cast(F, x, et->dtype, dt));
    }
    return p;
}

/* The argument at position pos or keyword name (infer_nppart.c bound
 * them). */
static const uf__expr *arg_of(const uf__expr *e, int pos, const char *name)
{
    if (pos < e->u.call.nargs)
        return e->u.call.args[pos];
    for (int k = 0; k < e->u.call.nkw; k++)
        if (strcmp(e->u.call.kw[k].name, name) == 0)
            return e->u.call.kw[k].value;
    return NULL;
}

LLVMValueRef uf__lower_nppart(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    bool arg = in->builtin == UF__BI_NP_ARGPARTITION;
    if (F->L->cg->sreg != NULL) { /* a CUDA ufunc or gufunc */
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "np.%s() copies the array in the host runtime, "
                         "which CUDA kernels cannot do",
                         arg ? "argpartition" : "partition");
        return NULL;
    }
    const uf__expr *ax = arg_of(e, 0, "a");
    const uf__expr *kx = arg_of(e, 1, "kth");
    LLVMValueRef av = uf__lower_expr(F, ax);
    if (!av)
        return NULL;
    LLVMValueRef kv = uf__lower_expr(F, kx);
    if (!kv)
        return NULL;
    const uf__type *at = uf__lower_info(F, ax)->type;
    const uf__type *kt = uf__lower_info(F, kx)->type;
    const uf__type *rt = in->type;
    uf_dtype dt = at->kind == UF__T_ARRAY ? at->dtype : at->elts[0]->dtype;
    for (int i = 0; at->kind == UF__T_TUPLE && i < at->n; i++)
        dt = uf_promote_types(dt, at->elts[i]->dtype); /* np.asarray's */
    int nd = rt->ndim;
    LLVMValueRef data, shape = slots(F, nd, "part.shape");
    LLVMValueRef strides = slots(F, nd, "part.strides");
    LLVMValueRef dims[UF_MAXDIMS];
    if (at->kind == UF__T_ARRAY) {
        for (int k = 0; k < nd; k++) {
            dims[k] = uf__emit_array_dim(F, av, k);
            put(F, shape, 8 * k, UF_INT64, dims[k]);
            put(F, strides, 8 * k, UF_INT64,
                uf__emit_array_stride(F, av, at, k));
        }
        data = LLVMBuildPointerCast(B, uf__emit_array_data(F, av), i8p(F),
                                    "");
    } else {
        data = stack_values(F, at, av, dt);
        dims[0] = c64(F, at->n);
        put(F, shape, 0, UF_INT64, dims[0]);
        put(F, strides, 0, UF_INT64,
            c64(F, (int64_t)uf_dtype_itemsize(dt)));
    }
    LLVMValueRef kdata, nk, kstride, kdt, kbad = c32(F, 0);
    if (kt->kind == UF__T_ARRAY) {
        kdata = LLVMBuildPointerCast(B, uf__emit_array_data(F, kv), i8p(F),
                                     "");
        kdt = c32(F, (int)kt->dtype);
        if (kt->ndim == 1) {
            nk = uf__emit_array_dim(F, kv, 0);
            kstride = uf__emit_array_stride(F, kv, kt, 0);
        } else { /* Numba's ValueError, once a is known not empty */
            nk = c64(F, 0);
            kstride = c64(F, 0);
            kbad = c32(F, 1);
        }
    } else {
        kdata = stack_values(F, kt, kv, UF_INT64);
        nk = c64(F, kt->kind == UF__T_TUPLE ? kt->n : 1);
        kstride = c64(F, 8);
        kdt = c32(F, UF_INT64);
    }
    LLVMValueRef n;
    LLVMValueRef res = uf__lower_new_array(F, rt->dtype, nd, dims, &n);
    if (!res)
        return NULL;
    LLVMValueRef args[12] = {
        data, c64(F, nd), shape, strides, c32(F, (int)dt), kdata, nk,
        kstride, kdt, kbad, c32(F, arg),
        LLVMBuildPointerCast(B, uf__emit_array_data(F, res), i8p(F), "")};
    LLVMTypeRef pt[12];
    for (unsigned i = 0; i < 12; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(i32t(F), pt, 12, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, UF__NP_PARTITION, fty);
    F->L->uses_runtime = true;
    LLVMValueRef st = LLVMBuildCall2(B, fty, fn, args, 12, "");
    static const struct {
        int status, jit;
    } map[] = {
        {UF__NPPART_NOMEM, UF__JIT_NOMEM},
        {UF__NPPART_KTH_BOUNDS, UF__JIT_KTH_BOUNDS},
        {UF__NPPART_KTH_DIMS, UF__JIT_KTH_DIMS},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, st,
                                         c32(F, map[i].status), ""),
                        map[i].jit);
    return res;
}
