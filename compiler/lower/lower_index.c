/* Indexing in generated code: a[i, j] reads and writes through the real
 * strides (the itemsize as a constant where the layout fixes it),
 * a[i] of an n-d array gives a view, negative indices wrap as in Python,
 * and t[k] of a homogeneous tuple takes a run-time k.
 *
 * Bounds checking (uf__lower_boundscheck): every index is compared with
 * its axis after wrapping; out of range, the codegen target's error sink
 * reports the index, axis, size, kernel and line (codegen.h: index_error)
 * and the function returns UF__JIT_INDEX, which its caller turns into the
 * IndexError. Without it indices are not checked (as Numba). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/lower/lower_array.h"
#include "compiler/types/index_kinds.h"

#define B (F->L->b)

/* The most indices one subscript takes (UF_MAXDIMS). */
#define MAXIDX 64

bool uf__lower_boundscheck(const uf__typed_func *tf)
{
    if (tf != NULL && tf->decl != NULL && tf->decl->boundscheck)
        return true;
    const char *v = getenv("UFJIT_DEBUG");
    return v != NULL && *v != '\0' && strcmp(v, "0") != 0;
}

/* When checking: idx (wrapped, i64) must be below size (unsigned compare,
 * so what stays negative fails too); `orig` is the index as written. */
static void check_bound(uf__fn *F, uf__pos pos, LLVMValueRef orig, bool uns,
                        LLVMValueRef idx, LLVMValueRef size, int axis)
{
    if (!F->fallible || !F->tf || !uf__lower_boundscheck(F->tf))
        return;
    LLVMValueRef bad = LLVMBuildICmp(B, LLVMIntUGE, idx, size, "oob");
    LLVMBasicBlockRef raise = uf__fn_block(F, "index.error");
    LLVMBasicBlockRef ok = uf__fn_block(F, "index.ok");
    LLVMBuildCondBr(B, bad, raise, ok);
    LLVMPositionBuilderAtEnd(B, raise);
    /* the codegen target's error sink reports it, the status raises it */
    uf__index_report r = {
        .kernel = F->tf->decl->name, .file = F->tf->km->src->name,
        .line = pos.line, .index = orig, .is_unsigned = uns, .axis = axis,
        .size = size};
    F->L->cg->index_error(F, &r);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
    LLVMBuildRet(B, LLVMConstInt(i32, UF__JIT_INDEX, 0));
    LLVMPositionBuilderAtEnd(B, ok);
}

/* ---- array indexing ---------------------------------------------------------- */

static LLVMValueRef fail_at(uf__fn *F, uf__pos pos, int code, const char *what)
{
    uf__source_error(F->err, code, F->tf->km->src, pos, "%s", what);
    return NULL;
}

/* The index values of a subscript (a[i, j] or a[t] with a tuple t), each
 * with its dtype: returns how many, or -1 with F->err set. */
static int index_values(uf__fn *F, const uf__expr *e, LLVMValueRef *v,
                        uf_dtype *dt)
{
    int n = e->u.subscript.nindex;
    uf__expr *const *ix = e->u.subscript.index;
    const uf__type *t0 = n == 1 ? uf__lower_info(F, ix[0])->type : NULL;
    if (t0 && t0->kind == UF__T_TUPLE) {
        if (t0->n > MAXIDX)
            return fail_at(F, e->pos, UF_ERR_UNSUPPORTED, "too many "
                           "indices"), -1;
        LLVMValueRef tv = uf__lower_expr(F, ix[0]);
        if (!tv)
            return -1;
        for (int k = 0; k < t0->n; k++) {
            if (t0->elts[k]->kind != UF__T_SCALAR)
                return fail_at(F, ix[0]->pos, UF_ERR_TYPING, "array indices "
                               "must be integers"), -1;
            v[k] = LLVMBuildExtractValue(B, tv, (unsigned)k, "");
            dt[k] = t0->elts[k]->dtype;
        }
        return t0->n;
    }
    if (n > MAXIDX)
        return fail_at(F, e->pos, UF_ERR_UNSUPPORTED, "too many indices"), -1;
    for (int k = 0; k < n; k++) {
        const uf__type *t = uf__lower_info(F, ix[k])->type;
        if (!uf__is_0d_int_index(t) &&
            (!t || t->kind != UF__T_SCALAR ||
             !(uf__dtype_is_int(t->dtype) || t->dtype == UF_BOOL)))
            return fail_at(F, ix[k]->pos, UF_ERR_UNSUPPORTED, "this array "
                           "index is not supported by the CPU lowering "
                           "(index with integers)"), -1;
        if (!(v[k] = uf__lower_int_index(F, ix[k], &dt[k])))
            return -1;
    }
    return n;
}

LLVMValueRef uf__lower_int_index(uf__fn *F, const uf__expr *x, uf_dtype *dt)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return NULL;
    *dt = t->dtype;
    if (t->kind != UF__T_ARRAY) /* a number */
        return v;
    /* a 0-d array: its one element, at its data pointer */
    return uf__emit_elem_load(F, uf__emit_array_data(F, v), t->dtype);
}

/* The index on axis k as i64: negative values wrap (signed dtypes only),
 * then checked when asked. */
static LLVMValueRef axis_index(uf__fn *F, uf__pos pos, LLVMValueRef a, int k,
                               LLVMValueRef v, uf_dtype dt)
{
    bool sgn = uf__dtype_is_signed(dt);
    LLVMValueRef orig = uf__emit_cast(F, v, dt, sgn ? UF_INT64 : UF_UINT64);
    LLVMValueRef dim = uf__emit_array_dim(F, a, k);
    LLVMValueRef idx = orig;
    if (sgn) {
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, orig,
                                         LLVMConstNull(LLVMTypeOf(orig)), "");
        idx = LLVMBuildSelect(B, neg, LLVMBuildAdd(B, orig, dim, ""), orig,
                              "idx");
    }
    check_bound(F, pos, orig, !sgn, idx, dim, k);
    return idx;
}

/* a[...] of a subscript expression: the array value, its type, the byte
 * address of the indexed position and how many axes were indexed. */
typedef struct indexed {
    LLVMValueRef arr;
    const uf__type *t;
    LLVMValueRef ptr;
    int n;
} indexed;

static int index_address(uf__fn *F, const uf__expr *e, indexed *x)
{
    const uf__expr *base = e->u.subscript.value;
    x->t = uf__lower_info(F, base)->type;
    if (!x->t || x->t->kind != UF__T_ARRAY)
        return fail_at(F, e->pos, UF_ERR_UNSUPPORTED, "indexing this value "
                       "is not supported by the CPU lowering"), -1;
    if (!(x->arr = uf__lower_expr(F, base)))
        return -1;
    LLVMValueRef v[MAXIDX];
    uf_dtype dt[MAXIDX];
    int n = index_values(F, e, v, dt);
    if (n < 0)
        return -1;
    if (n > x->t->ndim)
        return fail_at(F, e->pos, UF_ERR_TYPING, "too many indices for the "
                       "array"), -1;
    LLVMValueRef off = NULL;
    for (int k = 0; k < n; k++) {
        LLVMValueRef idx = axis_index(F, e->pos, x->arr, k, v[k], dt[k]);
        LLVMValueRef term = LLVMBuildNSWMul(
            B, idx, uf__emit_array_stride(F, x->arr, x->t, k), "");
        off = off ? LLVMBuildNSWAdd(B, off, term, "") : term;
    }
    x->ptr = uf__emit_array_data(F, x->arr);
    if (off)
        x->ptr = LLVMBuildInBoundsGEP2(B, LLVMInt8TypeInContext(F->L->ctx),
                                       x->ptr, &off, 1, "at");
    x->n = n;
    return 0;
}

LLVMValueRef uf__lower_element_address(uf__fn *F, uf__pos pos,
                                       LLVMValueRef arr, const uf__type *t,
                                       LLVMValueRef *idx, const uf_dtype *dt)
{
    LLVMValueRef off = NULL;
    for (int k = 0; k < t->ndim; k++) {
        LLVMValueRef i = axis_index(F, pos, arr, k, idx[k], dt[k]);
        LLVMValueRef term = LLVMBuildNSWMul(
            B, i, uf__emit_array_stride(F, arr, t, k), "");
        off = off ? LLVMBuildNSWAdd(B, off, term, "") : term;
    }
    LLVMValueRef p = uf__emit_array_data(F, arr);
    return off ? LLVMBuildInBoundsGEP2(B, LLVMInt8TypeInContext(F->L->ctx),
                                       p, &off, 1, "at")
               : p;
}

/* t[k] of a homogeneous tuple with a run-time k: through a stack copy.
 * Out of range (unchecked) reads element 0 rather than outside. */
static LLVMValueRef tuple_index(uf__fn *F, const uf__expr *e,
                                const uf__type *bt)
{
    const uf__expr *ix = e->u.subscript.index[0];
    const uf__type *it = uf__lower_info(F, ix)->type;
    if (bt->n < 1 || e->u.subscript.nindex != 1 || !it ||
        it->kind != UF__T_SCALAR || !uf__dtype_is_int(it->dtype))
        return fail_at(F, e->pos, UF_ERR_UNSUPPORTED, "indexing this tuple "
                       "is not supported by the CPU lowering");
    for (int i = 1; i < bt->n; i++)
        if (bt->elts[i] != bt->elts[0])
            return fail_at(F, ix->pos, UF_ERR_TYPING, "a tuple of mixed "
                           "types can only be indexed with a literal "
                           "integer");
    LLVMTypeRef et = uf__lower_type(F->L, bt->elts[0], F->err);
    if (!et)
        return NULL;
    LLVMValueRef tv = uf__lower_expr(F, e->u.subscript.value);
    LLVMValueRef iv = tv ? uf__lower_expr(F, ix) : NULL;
    if (!iv)
        return NULL;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMTypeRef aty = LLVMArrayType(et, (unsigned)bt->n);
    LLVMValueRef buf = uf__fn_alloca(F, aty, "tuple");
    for (int i = 0; i < bt->n; i++) {
        LLVMValueRef gi[2] = {LLVMConstNull(i64),
                              LLVMConstInt(i64, (unsigned long long)i, 0)};
        LLVMBuildStore(B, LLVMBuildExtractValue(B, tv, (unsigned)i, ""),
                       LLVMBuildInBoundsGEP2(B, aty, buf, gi, 2, ""));
    }
    bool sgn = uf__dtype_is_signed(it->dtype);
    LLVMValueRef orig = uf__emit_cast(F, iv, it->dtype,
                                      sgn ? UF_INT64 : UF_UINT64);
    LLVMValueRef size = LLVMConstInt(i64, (unsigned long long)bt->n, 0);
    LLVMValueRef idx = orig;
    if (sgn)
        idx = LLVMBuildSelect(
            B, LLVMBuildICmp(B, LLVMIntSLT, orig, LLVMConstNull(i64), ""),
            LLVMBuildAdd(B, orig, size, ""), orig, "");
    check_bound(F, e->pos, orig, !sgn, idx, size, -1);
    idx = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGE, idx, size, ""),
                          LLVMConstNull(i64), idx, "");
    LLVMValueRef gi[2] = {LLVMConstNull(i64), idx};
    LLVMValueRef r = LLVMBuildLoad2(
        B, et, LLVMBuildInBoundsGEP2(B, aty, buf, gi, 2, ""), "");
    return uf__emit_convert(F, r, bt->elts[0], uf__lower_info(F, e)->type);
}

LLVMValueRef uf__lower_index(uf__fn *F, const uf__expr *e)
{
    const uf__type *bt = uf__lower_info(F, e->u.subscript.value)->type;
    if (bt && bt->kind == UF__T_TUPLE)
        return tuple_index(F, e, bt);
    if (uf__subscript_is_slicing(F->tf, e))
        return uf__lower_slice(F, e);
    indexed x;
    if (index_address(F, e, &x) < 0)
        return NULL;
    const uf__type *rt = uf__lower_info(F, e)->type;
    if (x.n == x.t->ndim) {
        LLVMValueRef v = uf__emit_elem_load(F, x.ptr, x.t->dtype);
        if (!rt || rt->kind != UF__T_SCALAR)
            return v;
        return uf__emit_cast(F, v, x.t->dtype, rt->dtype);
    }
    /* fewer indices than dimensions: the view of the remaining axes */
    LLVMValueRef shape[MAXIDX], strides[MAXIDX];
    int nd = x.t->ndim - x.n;
    for (int k = 0; k < nd; k++) {
        shape[k] = uf__emit_array_dim(F, x.arr, x.n + k);
        strides[k] = uf__emit_array_stride(F, x.arr, x.t, x.n + k);
    }
    return uf__build_array(F->L, x.ptr, shape, strides, nd);
}

/* The element a store or augmented assignment writes: every axis indexed. */
static int element_address(uf__fn *F, const uf__expr *t, indexed *x)
{
    if (index_address(F, t, x) < 0)
        return -1;
    if (x->n != x->t->ndim)
        return fail_at(F, t->pos, UF_ERR_UNSUPPORTED, "assigning to an "
                       "array slice is not supported: index every "
                       "dimension"), -1;
    return 0;
}

int uf__lower_index_store(uf__fn *F, const uf__expr *target, LLVMValueRef v,
                          const uf__type *vt)
{
    const uf__type *tt = uf__lower_info(F, target)->type;
    if (vt && vt->kind == UF__T_SCALAR && uf__is_flat_subscript(F, target))
        return uf__lower_flat_store(F, target, v, vt); /* lower_flat.c */
    if (vt && tt && tt->kind == UF__T_ARRAY) /* a view: lower_slice.c */
        return uf__lower_slice_store(F, target, v, vt);
    if (!vt || vt->kind != UF__T_SCALAR)
        return fail_at(F, target->pos, UF_ERR_TYPING, "only numbers can be "
                       "stored into array elements"), F->err->code;
    indexed x;
    if (element_address(F, target, &x) < 0)
        return F->err->code;
    uf__emit_elem_store(F, x.ptr, x.t->dtype,
                        uf__emit_cast(F, v, vt->dtype, x.t->dtype));
    return 0;
}

int uf__lower_index_augassign(uf__fn *F, const uf__stmt *s)
{
    const uf__expr *t = s->u.augassign.target;
    indexed x;
    if (uf__is_flat_subscript(F, t)) { /* a.flat[k] += v */
        uf_dtype dt;
        if (!(x.ptr = uf__lower_flat_address(F, t, &dt)))
            return F->err->code;
        x.t = uf__type_array(F->tf->km->tc, dt, 0, 'C', F->err);
        if (!x.t)
            return F->err->code;
    } else if (element_address(F, t, &x) < 0) {
        return F->err->code;
    }
    const uf__type *et = uf__type_scalar(F->tf->km->tc, x.t->dtype);
    LLVMValueRef old = uf__emit_elem_load(F, x.ptr, x.t->dtype);
    LLVMValueRef r = uf__lower_augop(F, s, old, et);
    if (!r)
        return F->err->code;
    uf__emit_elem_store(F, x.ptr, x.t->dtype, r);
    return 0;
}

LLVMValueRef uf__emit_axis_index(uf__fn *F, uf__pos pos, LLVMValueRef a,
                                 int k, LLVMValueRef v, uf_dtype dt)
{
    return axis_index(F, pos, a, k, v, dt);
}
