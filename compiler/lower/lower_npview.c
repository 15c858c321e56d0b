/* NumPy's views that reverse, rotate, permute or add axes, typed by
 * infer_npview.c (builtins.h: UF__NPVIEW_MAP). Each result is the
 * argument's array struct (lower_array.h) with a new data pointer, shape
 * and strides: no copy, no loop, no allocation. The data pointer stays
 * inside the base's block (a reversed axis starts at its last element;
 * an empty array is not moved), so the frame's sweep and the return keep
 * that block alive as for a slice (lower_nrt_loop.c).
 *   flip / fliplr / flipud: the axes reversed (a 0-d flip loads its
 *     element);
 *   rot90(m, k): k mod 4 (Python's, so -1 is 3) picks which of the first
 *     two axes are reversed and whether they swap, as Numba's four
 *     branches compose fliplr, flipud and swapaxes;
 *   expand_dims(a, axis): an axis of length 1 inserted (axis normalised
 *     against a.ndim + 1, else Numba's IndexError);
 *   swapaxes, moveaxis (integers), transpose(a, axes): the axes permuted
 *     at run time through selects (no indexed memory), after Numba's
 *     checks in its order;
 *   atleast_1d/2d/3d: axes of length 1 inserted at compile time at
 *     Numba's places (0; 0, 0; 0, 0, 2).
 *   ascontiguousarray / asfortranarray: the argument where its type
 *     promises the layout (a 1-D C or F array both), a 0-d array as a 1-D
 *     view of its element; an 'A' array checked at run time (each axis
 *     longer than 1 at the contiguous stride, or no element), returned
 *     when it passes, else copied; any other a copy (Numba's
 *     _as_layout_array);
 *   roll: a new C array, the flattened elements rotated (memcpy of the
 *     two parts from a C array; else one walk whose destination wraps);
 *   take: a.ravel()[i] read in place (the flat index split per axis),
 *     each index checked as Numba (IndexError: Index out of bounds).
 * An inserted axis gets a stride that keeps a C array C (where Numba
 * writes 0: the value is never used to step). */
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_arrmeth.h"
#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npview.h"

#define B (F->L->b)

typedef struct varr {
    uf_dtype dt;
    int nd;
    LLVMValueRef data;
    LLVMValueRef shape[UF_MAXDIMS + 1], stride[UF_MAXDIMS + 1];
} varr;

static LLVMValueRef c64(uf__fn *F, long long v)
{
    return uf__npr_c64(F, v);
}

static LLVMValueRef fail(uf__fn *F, const uf__expr *e, const char *what)
{
    uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos, "%s",
                     what);
    return NULL;
}

static int load(uf__fn *F, const uf__expr *x, varr *v)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    LLVMValueRef a = uf__lower_expr(F, x);
    if (!a)
        return -1;
    if (!t || t->kind != UF__T_ARRAY)
        return fail(F, x, "a view of something not an array"), -1;
    v->dt = t->dtype;
    v->nd = t->ndim;
    v->data = uf__emit_array_data(F, a);
    for (int k = 0; k < t->ndim; k++) {
        v->shape[k] = uf__emit_array_dim(F, a, k);
        v->stride[k] = uf__emit_array_stride(F, a, t, k);
    }
    return 0;
}

static LLVMValueRef build(uf__fn *F, const varr *v)
{
    return uf__build_array(F->L, v->data, v->shape, v->stride, v->nd);
}

/* An integer operand as i64. */
static LLVMValueRef int64(uf__fn *F, const uf__expr *x)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return NULL;
    return uf__emit_cast(F, v, uf__lower_info(F, x)->type->dtype, UF_INT64);
}

static LLVMValueRef nonempty(uf__fn *F, const varr *v)
{
    LLVMValueRef n = c64(F, 1);
    for (int k = 0; k < v->nd; k++)
        n = LLVMBuildMul(B, n, v->shape[k], "");
    return LLVMBuildICmp(B, LLVMIntSGT, n, c64(F, 0), "nonempty");
}

/* Reverses axis k where `when` holds (an i1; NULL: always). */
static void reverse(uf__fn *F, varr *v, int k, LLVMValueRef ne,
                    LLVMValueRef when)
{
    LLVMValueRef off = LLVMBuildMul(
        B, LLVMBuildSub(B, v->shape[k], c64(F, 1), ""), v->stride[k], "");
    LLVMValueRef go = when ? LLVMBuildAnd(B, ne, when, "") : ne;
    v->data = uf__npr_gep(F, v->data,
                          LLVMBuildSelect(B, go, off, c64(F, 0), ""));
    LLVMValueRef neg = LLVMBuildNeg(B, v->stride[k], "");
    v->stride[k] = when ? LLVMBuildSelect(B, when, neg, v->stride[k], "")
                        : neg;
}

/* vals[idx] for 0 <= idx < n by selects (vals[0] elsewhere). */
static LLVMValueRef pick(uf__fn *F, LLVMValueRef const *vals, int n,
                         LLVMValueRef idx)
{
    LLVMValueRef r = vals[0];
    for (int i = 1; i < n; i++)
        r = LLVMBuildSelect(
            B, LLVMBuildICmp(B, LLVMIntEQ, idx, c64(F, i), ""), vals[i], r, "");
    return r;
}

/* v's axes in the order perm[0..nd) (each in [0, nd) where it counts). */
static void permute(uf__fn *F, varr *v, LLVMValueRef const *perm)
{
    LLVMValueRef sh[UF_MAXDIMS], st[UF_MAXDIMS];
    for (int k = 0; k < v->nd; k++) {
        sh[k] = pick(F, v->shape, v->nd, perm[k]);
        st[k] = pick(F, v->stride, v->nd, perm[k]);
    }
    for (int k = 0; k < v->nd; k++) {
        v->shape[k] = sh[k];
        v->stride[k] = st[k];
    }
}

/* ax + nd where negative; `status` raised when outside [0, nd). */
static LLVMValueRef normalize(uf__fn *F, LLVMValueRef ax, int nd, int status)
{
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, ax, c64(F, 0), "");
    ax = LLVMBuildSelect(B, neg, LLVMBuildAdd(B, ax, c64(F, nd), ""), ax, "");
    uf__fn_raise_if(F,
                    LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntSLT, ax, c64(F, 0), ""),
                                LLVMBuildICmp(B, LLVMIntSGE, ax, c64(F, nd), ""),
                                ""),
                    status);
    return ax;
}

/* A stride for a length-1 axis inserted before axis `at` of v (of the
 * axes after it): what a C array of that shape would have there. */
static LLVMValueRef inserted_stride(uf__fn *F, const varr *v, int at)
{
    if (at >= v->nd)
        return c64(F, (long long)uf_dtype_itemsize(v->dt));
    return LLVMBuildMul(B, v->shape[at], v->stride[at], "");
}

/* A length-1 axis at the compile-time position `at`. */
static void insert_axis(uf__fn *F, varr *v, int at)
{
    LLVMValueRef st = inserted_stride(F, v, at);
    for (int k = v->nd; k > at; k--) {
        v->shape[k] = v->shape[k - 1];
        v->stride[k] = v->stride[k - 1];
    }
    v->shape[at] = c64(F, 1);
    v->stride[at] = st;
    v->nd++;
}

/* expand_dims at the run-time axis ax (already in [0, nd]). */
static void expand(uf__fn *F, varr *v, LLVMValueRef ax)
{
    LLVMValueRef sh[UF_MAXDIMS + 1], st[UF_MAXDIMS + 1];
    LLVMValueRef ins_st[UF_MAXDIMS + 1];
    for (int at = 0; at <= v->nd; at++)
        ins_st[at] = inserted_stride(F, v, at);
    LLVMValueRef newst = pick(F, ins_st, v->nd + 1, ax);
    for (int k = 0; k <= v->nd; k++) {
        LLVMValueRef kk = c64(F, k);
        LLVMValueRef before = LLVMBuildICmp(B, LLVMIntSLT, kk, ax, "");
        LLVMValueRef here = LLVMBuildICmp(B, LLVMIntEQ, kk, ax, "");
        /* k < ax: axis k; k > ax: axis k - 1 */
        LLVMValueRef s0 = k < v->nd ? v->shape[k] : c64(F, 1);
        LLVMValueRef t0 = k < v->nd ? v->stride[k] : newst;
        LLVMValueRef s1 = k > 0 ? v->shape[k - 1] : c64(F, 1);
        LLVMValueRef t1 = k > 0 ? v->stride[k - 1] : newst;
        sh[k] = LLVMBuildSelect(B, here, c64(F, 1),
                                LLVMBuildSelect(B, before, s0, s1, ""), "");
        st[k] = LLVMBuildSelect(B, here, newst,
                                LLVMBuildSelect(B, before, t0, t1, ""), "");
    }
    v->nd++;
    for (int k = 0; k < v->nd; k++) {
        v->shape[k] = sh[k];
        v->stride[k] = st[k];
    }
}

static void rot90(uf__fn *F, varr *v, LLVMValueRef k)
{
    LLVMValueRef r = LLVMBuildSRem(B, k, c64(F, 4), "");
    r = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, r, c64(F, 0), ""),
                        LLVMBuildAdd(B, r, c64(F, 4), ""), r, "k");
    LLVMValueRef is[4];
    for (int i = 0; i < 4; i++)
        is[i] = LLVMBuildICmp(B, LLVMIntEQ, r, c64(F, i), "");
    LLVMValueRef ne = nonempty(F, v);
    /* k = 1: fliplr then swap; 2: both flipped; 3: swap then fliplr,
     * i.e. axis 0 flipped, then swapped */
    reverse(F, v, 0, ne, LLVMBuildOr(B, is[2], is[3], ""));
    reverse(F, v, 1, ne, LLVMBuildOr(B, is[1], is[2], ""));
    LLVMValueRef swap = LLVMBuildOr(B, is[1], is[3], "");
    LLVMValueRef s0 = v->shape[0], s1 = v->shape[1];
    LLVMValueRef t0 = v->stride[0], t1 = v->stride[1];
    v->shape[0] = LLVMBuildSelect(B, swap, s1, s0, "");
    v->shape[1] = LLVMBuildSelect(B, swap, s0, s1, "");
    v->stride[0] = LLVMBuildSelect(B, swap, t1, t0, "");
    v->stride[1] = LLVMBuildSelect(B, swap, t0, t1, "");
}

/* np.moveaxis(a, src, dst) of integers: src taken out of 0..nd-1 and put
 * back at dst. */
static void moveaxis(uf__fn *F, varr *v, LLVMValueRef src, LLVMValueRef dst)
{
    LLVMValueRef perm[UF_MAXDIMS];
    for (int k = 0; k < v->nd; k++) {
        LLVMValueRef kk = c64(F, k);
        LLVMValueRef j = LLVMBuildSelect(
            B, LLVMBuildICmp(B, LLVMIntSLT, kk, dst, ""), kk, c64(F, k - 1),
            "");
        LLVMValueRef o = LLVMBuildSelect(
            B, LLVMBuildICmp(B, LLVMIntSLT, j, src, ""), j,
            LLVMBuildAdd(B, j, c64(F, 1), ""), "");
        perm[k] = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, kk, dst, ""),
                                  src, o, "");
    }
    permute(F, v, perm);
}

/* transpose by axes r[0..nd): Numba's permute_arrays, which checks the
 * raw values for repeats, then each against the bounds. */
static void transpose_axes(uf__fn *F, varr *v, LLVMValueRef *r)
{
    int nd = v->nd;
    LLVMValueRef rep = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    for (int i = 0; i < nd; i++)
        for (int j = i + 1; j < nd; j++)
            rep = LLVMBuildOr(B, rep,
                              LLVMBuildICmp(B, LLVMIntEQ, r[i], r[j], ""), "");
    uf__fn_raise_if(F, rep, UF__JIT_TRANSPOSE_REPEAT);
    LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    for (int i = 0; i < nd; i++) {
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, r[i], c64(F, 0), "");
        bad = LLVMBuildOr(
            B, bad,
            LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntSGE, r[i], c64(F, nd), ""),
                        LLVMBuildICmp(B, LLVMIntSLT, r[i], c64(F, -nd), ""),
                        ""),
            "");
        r[i] = LLVMBuildSelect(B, neg, LLVMBuildAdd(B, r[i], c64(F, nd), ""),
                               r[i], "");
    }
    uf__fn_raise_if(F, bad, UF__JIT_TRANSPOSE_AXIS);
    permute(F, v, r);
}

static LLVMValueRef lower_transpose(uf__fn *F, const uf__expr **x, int n,
                                    varr *v)
{
    LLVMValueRef r[UF_MAXDIMS];
    const uf__type *t = n == 2 && x[1] ? uf__lower_info(F, x[1])->type : NULL;
    if ((n == 2 && !x[1]) || (t && t->kind == UF__T_NONE)) {
        /* a.T; np.permute_dims(a) */
        for (int k = 0; k < v->nd; k++)
            r[k] = c64(F, v->nd - 1 - k);
        permute(F, v, r);
        return build(F, v);
    }
    if (t && t->kind == UF__T_TUPLE) {
        LLVMValueRef tv = uf__lower_expr(F, x[1]);
        if (!tv)
            return NULL;
        if (t->n != v->nd)
            return fail(F, x[1], "transpose's axes");
        for (int k = 0; k < t->n; k++)
            r[k] = uf__emit_cast(F, LLVMBuildExtractValue(B, tv, (unsigned)k, ""),
                                 t->elts[k]->dtype, UF_INT64);
    } else {
        if (n - 1 != v->nd)
            return fail(F, x[0], "transpose's axes");
        for (int k = 1; k < n; k++)
            if (!(r[k - 1] = int64(F, x[k])))
                return NULL;
    }
    transpose_axes(F, v, r);
    return build(F, v);
}

static LLVMValueRef atleast(uf__fn *F, const uf__expr *e, uf__builtin b,
                            const uf__expr **x, int n)
{
    static const int places[3][3] = {{0}, {0, 0}, {0, 0, 2}};
    int min = (int)(b - UF__BI_NP_ATLEAST_1D) + 1;
    LLVMValueRef vals[UF__NPVIEW_MAXARGS];
    for (int i = 0; i < n; i++) {
        varr v;
        if (load(F, x[i], &v) < 0)
            return NULL;
        for (int k = 0; k < min; k++)
            if (v.nd < k + 1)
                insert_axis(F, &v, places[min - 1][k]);
        vals[i] = build(F, &v);
    }
    if (n == 1)
        return vals[0];
    const uf__type *rt = uf__lower_info(F, e)->type;
    LLVMTypeRef ty = uf__lower_type(F->L, rt, F->err);
    if (!ty)
        return NULL;
    LLVMValueRef r = LLVMGetUndef(ty);
    for (int i = 0; i < n; i++)
        r = LLVMBuildInsertValue(B, r, vals[i], (unsigned)i, "");
    return r;
}

/* Whether v's elements lie in `layout` order ('C' or 'F') at its
 * strides (an empty array does). */
static LLVMValueRef contiguous(uf__fn *F, const varr *v, char layout)
{
    LLVMValueRef ok = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0);
    LLVMValueRef want = c64(F, (long long)uf_dtype_itemsize(v->dt));
    for (int i = 0; i < v->nd; i++) {
        int k = layout == 'C' ? v->nd - 1 - i : i;
        LLVMValueRef one = LLVMBuildICmp(B, LLVMIntSLE, v->shape[k], c64(F, 1),
                                         "");
        LLVMValueRef at = LLVMBuildICmp(B, LLVMIntEQ, v->stride[k], want, "");
        ok = LLVMBuildAnd(B, ok, LLVMBuildOr(B, one, at, ""), "");
        want = LLVMBuildMul(B, want, v->shape[k], "");
    }
    return LLVMBuildOr(B, ok, LLVMBuildNot(B, nonempty(F, v), ""), "");
}

/* A new array of type rt (0-d or 1-D) holding the numbers vals[0..n). */
static LLVMValueRef from_numbers(uf__fn *F, const uf__type *rt,
                                 LLVMValueRef const *vals,
                                 const uf_dtype *dts, int n)
{
    LLVMValueRef len = c64(F, n), cnt;
    LLVMValueRef r = uf__arrmeth_new(F, rt->dtype, rt->ndim, &len,
                                     rt->layout, &cnt);
    if (!r)
        return NULL;
    LLVMValueRef p = uf__emit_array_data(F, r);
    long long isz = (long long)uf_dtype_itemsize(rt->dtype);
    for (int i = 0; i < n; i++)
        uf__emit_elem_store(F, uf__npr_gep(F, p, c64(F, i * isz)), rt->dtype,
                            uf__emit_cast(F, vals[i], dts[i], rt->dtype));
    return r;
}

static LLVMValueRef asarray(uf__fn *F, const uf__expr *e, uf__builtin b,
                            const uf__expr *x)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    const uf__type *at = uf__lower_info(F, x)->type;
    if (at->kind == UF__T_SCALAR) {
        LLVMValueRef v = uf__lower_expr(F, x);
        return v ? from_numbers(F, rt, &v, &at->dtype, 1) : NULL;
    }
    LLVMValueRef a = uf__lower_expr(F, x);
    if (!a)
        return NULL;
    if (at->ndim == 0) { /* a 1-D view of the element */
        LLVMValueRef one = c64(F, 1);
        LLVMValueRef st = c64(F, (long long)uf_dtype_itemsize(at->dtype));
        return uf__build_array(F->L, uf__emit_array_data(F, a), &one, &st, 1);
    }
    if (at->layout == rt->layout ||
        (at->ndim == 1 && (at->layout == 'C' || at->layout == 'F')))
        return a;
    if (at->layout != 'A')
        return uf__arrmeth_copy(F, a, at, rt);
    varr v;
    v.dt = at->dtype;
    v.nd = at->ndim;
    for (int k = 0; k < at->ndim; k++) {
        v.shape[k] = uf__emit_array_dim(F, a, k);
        v.stride[k] = uf__emit_array_stride(F, a, at, k);
    }
    LLVMBasicBlockRef keep = uf__fn_block(F, "as_layout.keep");
    LLVMBasicBlockRef copy = uf__fn_block(F, "as_layout.copy");
    LLVMBasicBlockRef done = uf__fn_block(F, "as_layout.done");
    LLVMBuildCondBr(B, contiguous(F, &v, rt->layout), keep, copy);
    LLVMPositionBuilderAtEnd(B, copy);
    LLVMValueRef c = uf__arrmeth_copy(F, a, at, rt);
    if (!c)
        return NULL;
    LLVMBasicBlockRef from_copy = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, keep);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef phi = LLVMBuildPhi(B, LLVMTypeOf(a), "as_layout");
    LLVMValueRef vals[2] = {a, c};
    LLVMBasicBlockRef from[2] = {keep, from_copy};
    LLVMAddIncoming(phi, vals, from, 2);
    return phi;
}

/* One element of np.roll: *dp = *sp, dp wrapped back by the array's
 * bytes once it passes its end. */
typedef struct roll_elem {
    uf_dtype dt;
    LLVMValueRef end, bytes; /* i64 addresses */
} roll_elem;

static void roll_op(uf__fn *F, LLVMValueRef sp, LLVMValueRef dp, void *ud)
{
    const roll_elem *r = ud;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef d = LLVMBuildPtrToInt(B, dp, i64, "");
    d = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGE, d, r->end, ""),
                        LLVMBuildSub(B, d, r->bytes, ""), d, "");
    uf__emit_elem_store(F, LLVMBuildIntToPtr(B, d, LLVMTypeOf(dp), ""),
                        r->dt, uf__emit_elem_load(F, sp, r->dt));
}

/* np.roll(a, shift): out.flat[(i + shift) % size] = a.flat[i] (Python's
 * %): a C array in two copies (the tail first), any other by one walk in
 * C order whose destination wraps. */
static LLVMValueRef roll(uf__fn *F, const uf__expr *e, const uf__expr **x)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    const uf__type *at = uf__lower_info(F, x[0])->type;
    LLVMValueRef a = uf__lower_expr(F, x[0]);
    LLVMValueRef shift = a ? int64(F, x[1]) : NULL;
    if (!shift)
        return NULL;
    if (at->kind == UF__T_SCALAR) /* np.asarray(a) */
        return from_numbers(F, rt, &a, &at->dtype, 1);
    LLVMValueRef shape[UF_MAXDIMS], n;
    for (int k = 0; k < at->ndim; k++)
        shape[k] = uf__emit_array_dim(F, a, k);
    LLVMValueRef out = uf__arrmeth_new(F, rt->dtype, rt->ndim, shape, 'C',
                                       &n);
    if (!out)
        return NULL;
    /* s = shift mod n in [0, n); n == 0 copies nothing */
    LLVMValueRef zero = c64(F, 0);
    LLVMValueRef nz = LLVMBuildICmp(B, LLVMIntEQ, n, zero, "");
    LLVMValueRef safe = LLVMBuildSelect(B, nz, c64(F, 1), n, "");
    LLVMValueRef s = LLVMBuildSRem(B, shift, safe, "");
    s = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, s, zero, ""),
                        LLVMBuildAdd(B, s, safe, ""), s, "shift");
    LLVMValueRef isz = c64(F, (long long)uf_dtype_itemsize(rt->dtype));
    LLVMValueRef od = uf__emit_array_data(F, out);
    LLVMValueRef sbytes = LLVMBuildMul(B, s, isz, "");
    LLVMValueRef nbytes = LLVMBuildMul(B, n, isz, "");
    if (at->layout == 'C' || (at->ndim <= 1 && at->layout == 'F')) {
        LLVMValueRef ad = uf__emit_array_data(F, a);
        LLVMValueRef rest = LLVMBuildSub(B, nbytes, sbytes, "");
        /* out[s:] = a[:n - s]; out[:s] = a[n - s:] */
        LLVMBuildMemCpy(B, uf__npr_gep(F, od, sbytes), 1, ad, 1, rest);
        LLVMBuildMemCpy(B, od, 1, uf__npr_gep(F, ad, rest), 1, sbytes);
        return out;
    }
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    roll_elem r = {rt->dtype,
                   LLVMBuildAdd(B, LLVMBuildPtrToInt(B, od, i64, ""), nbytes,
                                ""),
                   nbytes};
    uf__arrmeth_visit(F, a, at, uf__npr_gep(F, od, sbytes), isz, roll_op, &r);
    return out;
}

/* ---- take -------------------------------------------------------------- */

/* The address of a's element at flat index i (0 <= i < size) in C order. */
static LLVMValueRef flat_addr(uf__fn *F, const varr *v, LLVMValueRef i)
{
    LLVMValueRef off = c64(F, 0), q = i;
    for (int k = v->nd - 1; k >= 0; k--) {
        LLVMValueRef ik = k > 0 ? LLVMBuildSRem(B, q, v->shape[k], "") : q;
        off = LLVMBuildAdd(B, off, LLVMBuildMul(B, ik, v->stride[k], ""), "");
        if (k > 0)
            q = LLVMBuildSDiv(B, q, v->shape[k], "");
    }
    return uf__npr_gep(F, v->data, off);
}

/* a.ravel()[i] after Numba's check (i > size - 1 or i < -size:
 * IndexError); where nothing may raise, element 0's address is read. */
static LLVMValueRef take_one(uf__fn *F, const varr *v, LLVMValueRef size,
                             LLVMValueRef i)
{
    LLVMValueRef bad = LLVMBuildOr(
        B, LLVMBuildICmp(B, LLVMIntSGT, i, LLVMBuildSub(B, size, c64(F, 1), ""),
                         ""),
        LLVMBuildICmp(B, LLVMIntSLT, i, LLVMBuildNeg(B, size, ""), ""), "");
    uf__fn_raise_if(F, bad, UF__JIT_TAKE_INDEX);
    i = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, i, c64(F, 0), ""),
                        LLVMBuildAdd(B, i, size, ""), i, "");
    i = LLVMBuildSelect(B, bad, c64(F, 0), i, "");
    return uf__emit_elem_load(F, flat_addr(F, v, i), v->dt);
}

typedef struct take_elem {
    const varr *a;
    LLVMValueRef size;
    uf_dtype it; /* the indices' dtype */
} take_elem;

static void take_op(uf__fn *F, LLVMValueRef sp, LLVMValueRef dp, void *ud)
{
    const take_elem *t = ud;
    LLVMValueRef i = uf__emit_cast(F, uf__emit_elem_load(F, sp, t->it), t->it,
                                   UF_INT64);
    uf__emit_elem_store(F, dp, t->a->dt, take_one(F, t->a, t->size, i));
}

static LLVMValueRef take(uf__fn *F, const uf__expr *e, const uf__expr **x)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    const uf__type *it = uf__lower_info(F, x[1])->type;
    varr v;
    if (load(F, x[0], &v) < 0)
        return NULL;
    LLVMValueRef size = c64(F, 1);
    for (int k = 0; k < v.nd; k++)
        size = LLVMBuildMul(B, size, v.shape[k], "");
    LLVMValueRef iv = uf__lower_expr(F, x[1]);
    if (!iv)
        return NULL;
    if (it->kind == UF__T_SCALAR)
        return take_one(F, &v, size, uf__emit_cast(F, iv, it->dtype, UF_INT64));
    LLVMValueRef isz = c64(F, (long long)uf_dtype_itemsize(rt->dtype)), n;
    if (it->kind == UF__T_TUPLE) {
        LLVMValueRef len = c64(F, it->n);
        LLVMValueRef out = uf__arrmeth_new(F, rt->dtype, 1, &len, 'C', &n);
        if (!out)
            return NULL;
        LLVMValueRef od = uf__emit_array_data(F, out);
        for (int k = 0; k < it->n; k++) {
            LLVMValueRef i = uf__emit_cast(
                F, LLVMBuildExtractValue(B, iv, (unsigned)k, ""),
                it->elts[k]->dtype, UF_INT64);
            uf__emit_elem_store(F, uf__npr_gep(F, od, LLVMBuildMul(B, c64(F, k), isz, "")),
                                rt->dtype, take_one(F, &v, size, i));
        }
        return out;
    }
    LLVMValueRef shape[UF_MAXDIMS];
    for (int k = 0; k < it->ndim; k++)
        shape[k] = uf__emit_array_dim(F, iv, k);
    LLVMValueRef out = uf__arrmeth_new(F, rt->dtype, rt->ndim, shape, 'C', &n);
    if (!out)
        return NULL;
    take_elem t = {&v, size, it->dtype};
    uf__arrmeth_visit(F, iv, it, uf__emit_array_data(F, out), isz, take_op,
                      &t);
    return out;
}

LLVMValueRef uf__lower_npview(uf__fn *F, const uf__expr *e)
{
    uf__builtin b = uf__lower_info(F, e)->builtin;
    const uf__expr *f = e->u.call.func;
    bool method = false;
    if (f->kind == UF__EX_ATTR) {
        const uf__type *rt = uf__lower_info(F, f->u.attr.value)->type;
        method = rt && rt->kind == UF__T_ARRAY;
    }
    const uf__expr *x[UF__NPVIEW_MAXARGS];
    const uf__keyword *kw;
    int n = uf__npview_bind(e, b, method, x, &kw);
    if (n < 0)
        return fail(F, e, "a view's arguments");
    if (b >= UF__BI_NP_ATLEAST_1D && b <= UF__BI_NP_ATLEAST_3D)
        return atleast(F, e, b, x, n);
    if (b == UF__BI_NP_ASCONTIGUOUSARRAY || b == UF__BI_NP_ASFORTRANARRAY)
        return asarray(F, e, b, x[0]);
    if (b == UF__BI_NP_ROLL)
        return roll(F, e, x);
    if (b == UF__BI_NP_TAKE)
        return take(F, e, x);
    varr v;
    if (load(F, x[0], &v) < 0)
        return NULL;
    LLVMValueRef ne, p, q;
    switch (b) {
    case UF__BI_NP_FLIP:
        if (v.nd == 0)
            return uf__emit_elem_load(F, v.data, v.dt);
        ne = nonempty(F, &v);
        for (int k = 0; k < v.nd; k++)
            reverse(F, &v, k, ne, NULL);
        return build(F, &v);
    case UF__BI_NP_FLIPLR:
    case UF__BI_NP_FLIPUD:
        reverse(F, &v, b == UF__BI_NP_FLIPLR ? 1 : 0, nonempty(F, &v), NULL);
        return build(F, &v);
    case UF__BI_NP_ROT90:
        p = x[1] ? int64(F, x[1]) : c64(F, 1);
        if (!p)
            return NULL;
        rot90(F, &v, p);
        return build(F, &v);
    case UF__BI_NP_EXPAND_DIMS:
        if (!(p = int64(F, x[1])))
            return NULL;
        expand(F, &v, normalize(F, p, v.nd + 1, UF__JIT_EXPAND_AXIS));
        return build(F, &v);
    case UF__BI_NP_SWAPAXES: {
        if (!(p = int64(F, x[1])) || !(q = int64(F, x[2])))
            return NULL;
        p = normalize(F, p, v.nd, UF__JIT_SWAP_AXIS1);
        q = normalize(F, q, v.nd, UF__JIT_SWAP_AXIS2);
        LLVMValueRef perm[UF_MAXDIMS];
        for (int k = 0; k < v.nd; k++) {
            LLVMValueRef kk = c64(F, k);
            perm[k] = LLVMBuildSelect(
                B, LLVMBuildICmp(B, LLVMIntEQ, kk, p, ""), q,
                LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, kk, q, ""), p,
                                kk, ""),
                "");
        }
        permute(F, &v, perm);
        return build(F, &v);
    }
    case UF__BI_NP_MOVEAXIS:
        if (!(p = int64(F, x[1])) || !(q = int64(F, x[2])))
            return NULL;
        p = normalize(F, p, v.nd, UF__JIT_MOVE_SOURCE);
        q = normalize(F, q, v.nd, UF__JIT_MOVE_DEST);
        moveaxis(F, &v, p, q);
        return build(F, &v);
    case UF__BI_NP_PERMUTE_DIMS:
    case UF__BI_NP_TRANSPOSE_AXES:
        return lower_transpose(F, x, n, &v);
    default:
        return fail(F, e, "not a NumPy view");
    }
}

/* Which calls may raise (lower_fallible.c): those with axes checked at
 * run time, and the conversions that may copy (out of memory). */
bool uf__npview_fallible(uf__builtin b)
{
    return b == UF__BI_NP_EXPAND_DIMS || b == UF__BI_NP_SWAPAXES ||
           (b >= UF__BI_NP_ASCONTIGUOUSARRAY && b <= UF__BI_NP_TAKE) ||
           b == UF__BI_NP_MOVEAXIS || b == UF__BI_NP_PERMUTE_DIMS ||
           b == UF__BI_NP_TRANSPOSE_AXES;
}
