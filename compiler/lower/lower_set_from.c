/* Sets filled from a range() call or a dict's values() or items() view
 * (set(range(n)), set(d.values()), s.update(d.items()): each value added
 * in order, as Numba's set(iterable) loop adds them), and min(s) / max(s)
 * of a set of tuples or strings (common/set.c's uf__set_minmax picks the
 * slot; its key is loaded here). Typed by types/infer_set.c and
 * infer_arrattr.c. */
#include "common/set.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_set_key.h"

#define B (F->L->b)

typedef struct adder {
    LLVMValueRef s;
    const uf__type *st, *xt;
    int failed; /* an item's key not made: F->err says why */
} adder;

static void add_range_value(uf__fn *F, LLVMValueRef x, void *ud)
{
    adder *A = ud;
    if (uf__lower_set_add_value(F, A->s, A->st, x, A->xt) != 0)
        A->failed = 1;
}

static void add_dict_value(uf__fn *F, LLVMValueRef x, const uf__type *xt,
                           void *ud)
{
    adder *A = ud;
    if (uf__lower_set_add_value(F, A->s, A->st, x, xt) != 0)
        A->failed = 1;
}

int uf__lower_set_add_from(uf__fn *F, LLVMValueRef s, const uf__type *st,
                           const uf__expr *x, const uf__type *xt)
{
    adder A = {s, st, NULL, 0};
    if (xt->kind == UF__T_RANGE) {
        const uf__type *ot = uf__lower_info(F, x)->optype;
        A.xt = uf__type_scalar(F->tf->km->tc, ot ? ot->dtype : UF_INT64);
        if (uf__lower_range_visit(F, x, add_range_value, &A, 0) != 0)
            return F->err->code;
        return A.failed ? F->err->code : 0;
    }
    LLVMValueRef d = uf__lower_expr(F, x); /* a view is its dict */
    if (d == NULL)
        return F->err->code;
    uf__lower_dict_visit(F, d, xt, add_dict_value, &A);
    return A.failed ? F->err->code : 0;
}

/* Bit i set when flattened field i of kt is an unsigned integer. */
static void unsigned_fields(const uf__type *kt, int *n, uint64_t *umask)
{
    if (kt->kind == UF__T_TUPLE) {
        for (int i = 0; i < kt->n; i++)
            unsigned_fields(kt->elts[i], n, umask);
        return;
    }
    char k = kt->kind == UF__T_SCALAR ? uf_dtype_kind(kt->dtype) : 'p';
    if (k == 'u' && *n < 64)
        *umask |= UINT64_C(1) << *n;
    *n += k == 'c' ? 2 : 1;
}

LLVMValueRef uf__lower_set_minmax(uf__fn *F, LLVMValueRef s,
                                  const uf__type *st, bool is_max)
{
    LLVMContextRef c = F->L->ctx;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(c), 0);
    const uf__type *kt = st->elts[0];
    int n = 0;
    uint64_t umask = 0;
    unsigned_fields(kt, &n, &umask);
    LLVMValueRef a[3] = {s, LLVMConstInt(i32, is_max, 0),
                         LLVMConstInt(i64, umask, 0)};
    LLVMTypeRef pt[3] = {i8p, i32, i64};
    LLVMTypeRef fty = LLVMFunctionType(i64, pt, 3, 0);
    LLVMValueRef pos = LLVMBuildCall2(
        B, fty, F->L->cg->helper(F->L, UF__SET_MINMAX, fty), a, 3, "");
    F->L->uses_runtime = true;
    /* Numba's min/max of an empty set: next() of its iterator raises
     * StopIteration; of strings, its unicode comparison asserts first */
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntSLT, pos,
                                     LLVMConstInt(i64, 0, 0), ""),
                    kt->kind == UF__T_USTR ? UF__JIT_SET_MINMAX_STR
                                           : UF__JIT_STOP_ITERATION);
    /* the slot at pos: its fields, then the tag */
    LLVMValueRef slots = LLVMBuildLoad2(
        B, i8p,
        LLVMBuildPointerCast(
            B,
            LLVMBuildInBoundsGEP2(B, LLVMInt8TypeInContext(c), s,
                                  (LLVMValueRef[]){LLVMConstInt(i64, 16, 0)},
                                  1, ""),
            LLVMPointerType(i8p, 0), ""),
        "");
    LLVMValueRef at = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(c), slots,
        (LLVMValueRef[]){LLVMBuildMul(
            B, pos, LLVMConstInt(i64, (unsigned long long)(n + 1) * 8, 0),
            "")},
        1, "");
    return uf__set_key_load(F, at, kt);
}
