/* np.insert(arr, obj, values) (typed by infer_npinsert.c), as Numba
 * 0.68's np_insert: arr and values are flattened in C order into new C
 * arrays of the result's dtype (values cast as Numba's setitem casts),
 * obj into int64s (np.asarray(obj).astype(np.int64): a uint64 past
 * INT64_MAX wraps negative and is out of bounds, as there); the result
 * and the sort's scratch are made in the frame, then the host runtime
 * (common/npinsert.h) checks the indices and fills the result. */
#include <stdint.h>

#include "common/npinsert.h"
#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_arrmeth.h"
#include "compiler/lower/lower_rtcall.h"

#define B (F->L->b)

/* Operand x flattened into a new 1-D C array of dtype dt: an array
 * copied (converted), a number or a tuple of numbers stored. NULL on
 * error. */
static LLVMValueRef flat(uf__fn *F, const uf__expr *x, uf_dtype dt)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return NULL;
    if (t->kind == UF__T_ARRAY) {
        const uf__type *rt = uf__type_array(F->tf->km->tc, dt, 1, 'C',
                                            F->err);
        return rt ? uf__arrmeth_copy(F, v, t, rt) : NULL;
    }
    bool tup = t->kind == UF__T_TUPLE;
    int n = tup ? t->n : 1;
    LLVMValueRef len = uf__c_i64(F, n), items;
    LLVMValueRef r = uf__arrmeth_new(F, dt, 1, &len, 'C', &items);
    if (!r)
        return NULL;
    LLVMValueRef data = uf__emit_array_data(F, r);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    for (int i = 0; i < n; i++) {
        const uf__type *et = tup ? t->elts[i] : t;
        LLVMValueRef xi = tup ? LLVMBuildExtractValue(B, v, (unsigned)i, "")
                              : v;
        LLVMValueRef off = uf__c_i64(F, i * (int64_t)uf_dtype_itemsize(dt));
        uf__emit_elem_store(F, LLVMBuildGEP2(B, i8, data, &off, 1, ""), dt,
                            uf__emit_cast(F, xi, et->dtype, dt));
    }
    return r;
}

LLVMValueRef uf__lower_npinsert(uf__fn *F, const uf__expr *e)
{
    if (F->L->cg->sreg != NULL) { /* a CUDA ufunc or gufunc */
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "np.insert() allocates its result in the host "
                         "runtime, which CUDA kernels cannot do");
        return NULL;
    }
    uf_dtype dt = uf__lower_info(F, e)->type->dtype;
    const uf__expr *ox = uf__call_arg(e, 1, "obj");
    bool scalar = uf__lower_info(F, ox)->type->kind == UF__T_SCALAR;
    LLVMValueRef arr = flat(F, uf__call_arg(e, 0, "arr"), dt);
    LLVMValueRef idx = arr ? flat(F, ox, UF_INT64) : NULL;
    LLVMValueRef vals = idx ? flat(F, uf__call_arg(e, 2, "values"), dt)
                            : NULL;
    if (!vals)
        return NULL;
    if (scalar && uf__lower_info(F, ox)->type->dtype == UF_UINT64) {
        /* past INT64_MAX: Numba's pos > N (the array form wraps it
         * negative, as its astype(np.int64) does) */
        LLVMValueRef pos = LLVMBuildLoad2(
            B, uf__ty_i64(F),
            uf__emit_rt_ptr(F, uf__emit_rt_data(F, idx), uf__ty_i64(F)), "");
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntSLT, pos, uf__c_i64(F, 0),
                                         ""),
                        UF__JIT_INSERT_INDEX);
    }
    LLVMValueRef n = uf__emit_array_dim(F, arr, 0);
    LLVMValueRef nidx = uf__emit_array_dim(F, idx, 0);
    LLVMValueRef nvals = uf__emit_array_dim(F, vals, 0);
    LLVMValueRef one = scalar ? LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx),
                                             1, 0)
                              : LLVMBuildICmp(B, LLVMIntEQ, nidx,
                                              uf__c_i64(F, 1), "");
    LLVMValueRef len = LLVMBuildAdd(
        B, n, LLVMBuildSelect(B, one, nvals, nidx, ""), "");
    LLVMValueRef items;
    LLVMValueRef out = uf__arrmeth_new(F, dt, 1, &len, 'C', &items);
    LLVMValueRef scratch_len = LLVMBuildMul(B, nidx, uf__c_i64(F, 2), "");
    LLVMValueRef order = out ? uf__arrmeth_new(F, UF_INT64, 1, &scratch_len,
                                               'C', &items)
                             : NULL;
    if (!order)
        return NULL;
    LLVMValueRef args[10] = {
        uf__emit_rt_data(F, out), uf__emit_rt_data(F, arr), n,
        uf__emit_rt_ptr(F, uf__emit_rt_data(F, idx), uf__ty_i64(F)), nidx,
        LLVMBuildZExt(B, one, uf__ty_i32(F), ""), uf__emit_rt_data(F, vals),
        nvals, uf__c_i64(F, (int64_t)uf_dtype_itemsize(dt)),
        uf__emit_rt_ptr(F, uf__emit_rt_data(F, order), uf__ty_i64(F))};
    LLVMValueRef st = uf__emit_rt_call(F, UF__NP_INSERT, uf__ty_i32(F), args,
                                       10);
    static const uf__rt_status map[] = {
        {UF__NPINSERT_INDEX, UF__JIT_INSERT_INDEX},
        {UF__NPINSERT_VALUES, UF__JIT_INSERT_VALUES}};
    uf__emit_rt_statuses(F, st, map, sizeof map / sizeof map[0]);
    return out;
}
