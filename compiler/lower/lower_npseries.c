/* polyutils.as_series(alist, trim=True) (typed by infer_npseries.c), as
 * Numba 0.68's: a new list of new 1-D C arrays of the result's dtype,
 * one per element of a 1-D array, per row of a 2-D array or per item of
 * a tuple (np.atleast_1d(np.asarray(item)).astype(dtype)); then Numba's
 * min() of their sizes (no array: StopIteration, an empty one:
 * ValueError "Coefficient array is empty"); with trim each array is cut
 * to polyutils.trimseq's length (common/npseries.h). The arrays live in
 * the frame (uf__lower_new_array: out of memory raises). */
#include <stdint.h>

#include "common/npseries.h"
#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_arrmeth.h"
#include "compiler/lower/lower_rtcall.h"

#define B (F->L->b)

/* One call being lowered. */
typedef struct series {
    const uf__type *lt, *at; /* the list and its arrays' types */
    LLVMValueRef list, trim; /* the new list; trim as an i1 */
    LLVMValueRef empty;      /* an i1 slot: an array of size 0 was made */
} series;

/* Array a (a new C array of the result's dtype) cut as trim says, stored
 * as item i. */
static void put(uf__fn *F, series *s, LLVMValueRef i, LLVMValueRef a)
{
    LLVMValueRef n = uf__emit_array_dim(F, a, 0);
    LLVMValueRef was = LLVMBuildLoad2(B, LLVMInt1TypeInContext(F->L->ctx),
                                      s->empty, "");
    LLVMBuildStore(B, LLVMBuildOr(B, was, LLVMBuildICmp(B, LLVMIntEQ, n,
                                                        uf__c_i64(F, 0), ""),
                                  ""),
                   s->empty);
    LLVMValueRef args[3] = {uf__emit_rt_data(F, a), n,
                            uf__c_i32(F, uf_dtype_kind(s->at->dtype) == 'c')};
    LLVMValueRef m = uf__emit_rt_call(F, UF__NP_SERIES_TRIM, uf__ty_i64(F),
                                      args, 3);
    m = LLVMBuildSelect(B, s->trim, m, n, "");
    LLVMValueRef shape = LLVMBuildExtractValue(B, a, 1, "");
    shape = LLVMBuildInsertValue(B, shape, m, 0, "");
    uf__lower_list_set(F, s->list, s->lt, i,
                       LLVMBuildInsertValue(B, a, shape, 1, ""));
}

/* A new 1-element array holding number v of dtype dt. */
static LLVMValueRef one(uf__fn *F, const series *s, LLVMValueRef v,
                        uf_dtype dt)
{
    LLVMValueRef len = uf__c_i64(F, 1), items;
    LLVMValueRef r = uf__arrmeth_new(F, s->at->dtype, 1, &len, 'C', &items);
    if (r)
        uf__emit_elem_store(F, uf__emit_array_data(F, r), s->at->dtype,
                            uf__emit_cast(F, v, dt, s->at->dtype));
    return r;
}

/* Items of a 1-D (each element) or 2-D (each row) array v of type t, in
 * a loop over its first axis. */
static bool from_array(uf__fn *F, series *s, LLVMValueRef v,
                       const uf__type *t)
{
    LLVMValueRef n = uf__emit_array_dim(F, v, 0);
    LLVMValueRef step = uf__emit_array_stride(F, v, t, 0);
    s->list = uf__lower_list_new(F, s->lt, n);
    const uf__type *rowt = NULL;
    LLVMValueRef len = NULL, stride = NULL;
    if (t->ndim == 2) {
        rowt = uf__type_array(F->tf->km->tc, t->dtype, 1, 'A', F->err);
        if (!rowt)
            return false;
        len = uf__emit_array_dim(F, v, 1);
        stride = uf__emit_array_stride(F, v, t, 1);
    }
    LLVMTypeRef i64 = uf__ty_i64(F);
    LLVMValueRef slot = uf__fn_alloca(F, i64, "series.i");
    LLVMBuildStore(B, uf__c_i64(F, 0), slot);
    LLVMBasicBlockRef head = uf__fn_block(F, "series.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "series.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "series.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, i64, slot, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef off = LLVMBuildMul(B, i, step, "");
    LLVMValueRef p = LLVMBuildGEP2(B, LLVMInt8TypeInContext(F->L->ctx),
                                   uf__emit_array_data(F, v), &off, 1, "");
    LLVMValueRef a;
    if (rowt) {
        LLVMValueRef row = uf__build_array(F->L, p, &len, &stride, 1);
        a = uf__arrmeth_copy(F, row, rowt, s->at);
    } else {
        a = one(F, s, uf__emit_elem_load(F, p, t->dtype), t->dtype);
    }
    if (!a)
        return false;
    put(F, s, i, a);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, uf__c_i64(F, 1), ""), slot);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, n, uf__c_i64(F, 0), ""),
                    UF__JIT_STOP_ITERATION);
    return true;
}

/* Items of tuple v of type t: numbers and arrays of at most 1 dimension. */
static bool from_tuple(uf__fn *F, series *s, LLVMValueRef v,
                       const uf__type *t)
{
    s->list = uf__lower_list_new(F, s->lt, uf__c_i64(F, t->n));
    for (int i = 0; i < t->n; i++) {
        const uf__type *it = t->elts[i];
        LLVMValueRef x = LLVMBuildExtractValue(B, v, (unsigned)i, "");
        LLVMValueRef a = it->kind == UF__T_ARRAY
                             ? uf__arrmeth_copy(F, x, it, s->at)
                             : one(F, s, x, it->dtype);
        if (!a)
            return false;
        put(F, s, uf__c_i64(F, i), a);
    }
    return true;
}

LLVMValueRef uf__lower_as_series(uf__fn *F, const uf__expr *e)
{
    series s = {.lt = uf__lower_info(F, e)->type};
    s.at = s.lt->elts[0];
    const uf__expr *ax = uf__call_arg(e, 0, "alist");
    const uf__expr *tx = uf__call_arg(e, 1, "trim");
    const uf__type *t = uf__lower_info(F, ax)->type;
    LLVMValueRef v = uf__lower_expr(F, ax);
    if (!v)
        return NULL;
    s.trim = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0);
    if (tx && !(s.trim = uf__lower_expr(F, tx)))
        return NULL;
    s.empty = uf__fn_alloca(F, LLVMInt1TypeInContext(F->L->ctx),
                            "series.empty");
    LLVMBuildStore(B, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0),
                   s.empty);
    if (!(t->kind == UF__T_ARRAY ? from_array(F, &s, v, t)
                                 : from_tuple(F, &s, v, t)))
        return NULL;
    uf__fn_raise_if(F, LLVMBuildLoad2(B, LLVMInt1TypeInContext(F->L->ctx),
                                      s.empty, ""),
                    UF__JIT_POLY_EMPTY);
    return s.list;
}
