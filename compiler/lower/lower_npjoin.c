/* np.concatenate, np.stack, np.hstack, np.vstack (np.row_stack),
 * np.dstack, np.column_stack and np.append, typed by infer_npjoin.c
 * (builtins.h: UF__NPJOIN_MAP), computed as Numba's arrayobj.py computes
 * them, with its errors in its order:
 *   every form is one concatenation along an axis k of views of the
 *     inputs with the same number of dimensions as the result: stack
 *     inserts a unit axis at k into each input (after checking that their
 *     shapes agree: "np.stack(): all input arrays must have the same
 *     shape"); hstack, vstack, dstack and column_stack insert unit axes
 *     where Numba's expand_dims / stack do, at places fixed by ndim;
 *   axis k (concatenate, stack) wraps once when negative and is checked
 *     first (IndexError "np.concatenate(): axis out of bounds"), then the
 *     sizes off the axis, dimension by dimension (ValueError "input sizes
 *     over dimension d do not match");
 *   the result is a new array (uf__arrmeth_new), F when every input is F
 *     (Numba's layout rule): an F result is filled as the C array of the
 *     reversed shape, every input view reversed with it;
 *   each input is copied into its block of the result: when it is
 *     C-contiguous (tested at run time unless its type fixes it) and of
 *     the result's dtype, one memcpy per run of rows that is contiguous
 *     in both (one in all for axis 0); otherwise a loop nest in C order
 *     with the dtype conversion, whose innermost loop gets the unit stride
 *     as a constant when the input has it (it vectorises);
 *   np.append(arr, values) without axis: both flattened in C order
 *     (np.ravel(np.asarray(x))) one after the other into a new 1-D array;
 *     a number or a tuple of numbers stored element by element; with an
 *     integer axis np.concatenate((arr, values), axis);
 *   np.array / np.asarray of a number or nested tuples of numbers: a new
 *     C array of the tuples' shape, the leaves stored in C order;
 *     np.asarray of an array that array, or uf__arrmeth_copy's astype.
 * The calls make their function fallible (lower_fallible.c); were one
 * lowered where nothing may raise, a failed check would give an empty
 * result and copy nothing rather than write out of bounds. */
#include <string.h>

#include "common/alloc.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_arraycall.h"
#include "compiler/lower/lower_arrmeth.h"
#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npjoin.h"

#define B (F->L->b)
#define MAXND UF__NPJOIN_MAXND

/* One input as the concatenation sees it: nd dimensions, those Numba
 * inserts (size 1, stride 0) included. */
typedef struct view {
    LLVMValueRef data;
    LLVMValueRef shape[MAXND], strides[MAXND];
    int nd;
    uf_dtype dt;
} view;

static LLVMValueRef c64(uf__fn *F, long long v)
{
    return uf__npr_c64(F, v);
}

static LLVMValueRef i1(uf__fn *F, int v)
{
    return LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), (unsigned)v, 0);
}

static LLVMValueRef eq(uf__fn *F, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildICmp(B, LLVMIntEQ, a, b, "");
}

static LLVMValueRef fail(uf__fn *F, const uf__expr *e, const char *what)
{
    uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos, "%s",
                     what);
    return NULL;
}

/* v[d] for the run-time index d of nd values (a select chain LLVM folds
 * when d is a constant). */
static LLVMValueRef pick(uf__fn *F, const LLVMValueRef *v, int nd,
                         LLVMValueRef d)
{
    LLVMValueRef r = v[0];
    for (int i = 1; i < nd; i++)
        r = LLVMBuildSelect(B, eq(F, d, c64(F, i)), v[i], r, "");
    return r;
}

/* The array value a of type t as a view. */
static void view_of(uf__fn *F, LLVMValueRef a, const uf__type *t, view *v)
{
    v->data = uf__emit_array_data(F, a);
    v->nd = t->ndim;
    v->dt = t->dtype;
    for (int d = 0; d < t->ndim; d++) {
        v->shape[d] = uf__emit_array_dim(F, a, d);
        v->strides[d] = uf__emit_array_stride(F, a, t, d);
    }
}

/* A unit axis inserted at the run-time position k in [0, nd]. */
static void insert_axis(uf__fn *F, view *v, LLVMValueRef k)
{
    LLVMValueRef sh[MAXND], st[MAXND];
    for (int d = 0; d <= v->nd; d++) {
        LLVMValueRef at = eq(F, k, c64(F, d));
        LLVMValueRef before = LLVMBuildICmp(B, LLVMIntSGT, k, c64(F, d), "");
        LLVMValueRef s1 = d >= 1 ? v->shape[d - 1] : c64(F, 1);
        LLVMValueRef t1 = d >= 1 ? v->strides[d - 1] : c64(F, 0);
        LLVMValueRef s0 = d < v->nd ? v->shape[d] : c64(F, 1);
        LLVMValueRef t0 = d < v->nd ? v->strides[d] : c64(F, 0);
        sh[d] = LLVMBuildSelect(B, before, s0,
                                LLVMBuildSelect(B, at, c64(F, 1), s1, ""),
                                "");
        st[d] = LLVMBuildSelect(B, before, t0,
                                LLVMBuildSelect(B, at, c64(F, 0), t1, ""),
                                "");
    }
    v->nd++;
    memcpy(v->shape, sh, sizeof(LLVMValueRef) * (size_t)v->nd);
    memcpy(v->strides, st, sizeof(LLVMValueRef) * (size_t)v->nd);
}

static void insert_at(uf__fn *F, view *v, int k)
{
    insert_axis(F, v, c64(F, k));
}

static void reverse(LLVMValueRef *x, int n)
{
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        LLVMValueRef t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

/* ---- the copy of one input -------------------------------------------- */

typedef struct copy {
    const view *v;
    const LLVMValueRef *dstr; /* the result's strides on v's axes */
    LLVMValueRef sstr[MAXND]; /* v's, the innermost maybe a constant */
    uf_dtype to;
} copy;

/* The elements of v in C order from sp into dp, converted. */
static void nest(uf__fn *F, const copy *c, int d, LLVMValueRef sp,
                 LLVMValueRef dp)
{
    if (d == c->v->nd) {
        LLVMValueRef x = uf__emit_elem_load(F, sp, c->v->dt);
        uf__emit_elem_store(F, dp, c->to,
                            uf__emit_cast(F, x, c->v->dt, c->to));
        return;
    }
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, c64(F, 0), c->v->shape[d]);
    nest(F, c, d + 1,
         uf__npr_gep(F, sp, LLVMBuildMul(B, l.i, c->sstr[d], "")),
         uf__npr_gep(F, dp, LLVMBuildMul(B, l.i, c->dstr[d], "")));
    uf__npr_loop_close(F, &l, 1);
}

/* nest() with the innermost source stride the element's size as a
 * constant where the run-time stride is that (a contiguous row). */
static void nest_fast(uf__fn *F, copy *c, LLVMValueRef dst)
{
    const view *v = c->v;
    memcpy(c->sstr, v->strides, sizeof(LLVMValueRef) * (size_t)v->nd);
    if (v->nd == 0 || LLVMIsAConstantInt(v->strides[v->nd - 1])) {
        nest(F, c, 0, v->data, dst);
        return;
    }
    LLVMValueRef isz = c64(F, (long long)uf_dtype_itemsize(v->dt));
    LLVMBasicBlockRef unit = uf__fn_block(F, "join.unit");
    LLVMBasicBlockRef any = uf__fn_block(F, "join.strided");
    LLVMBasicBlockRef done = uf__fn_block(F, "join.nestdone");
    LLVMBuildCondBr(B, eq(F, v->strides[v->nd - 1], isz), unit, any);
    LLVMPositionBuilderAtEnd(B, unit);
    c->sstr[v->nd - 1] = isz;
    nest(F, c, 0, v->data, dst);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, any);
    c->sstr[v->nd - 1] = v->strides[v->nd - 1];
    nest(F, c, 0, v->data, dst);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
}

/* i1: v's elements lie in C order one after the other. */
static LLVMValueRef c_contiguous(uf__fn *F, const view *v)
{
    LLVMValueRef ok = i1(F, 1);
    LLVMValueRef want = c64(F, (long long)uf_dtype_itemsize(v->dt));
    for (int d = v->nd - 1; d >= 0; d--) {
        ok = LLVMBuildAnd(B, ok,
                          LLVMBuildOr(B, eq(F, v->shape[d], c64(F, 1)),
                                      eq(F, v->strides[d], want), ""),
                          "");
        want = LLVMBuildMul(B, want, v->shape[d], "");
    }
    return ok;
}

/* v into dst, the result's C-contiguous block whose strides on v's axes
 * are dstr, v being joined along axis k (so that the part of each row of
 * v from axis k on is contiguous in the result too). */
static void copy_view(uf__fn *F, const view *v, LLVMValueRef dst,
                      const LLVMValueRef *dstr, LLVMValueRef k, uf_dtype to)
{
    copy c = {.v = v, .dstr = dstr, .to = to};
    if (v->dt != to) {
        nest_fast(F, &c, dst);
        return;
    }
    /* rows: the axes before k; each row's axes k.. are contiguous */
    LLVMValueRef rows = c64(F, 1);
    LLVMValueRef inner = c64(F, (long long)uf_dtype_itemsize(to));
    for (int d = 0; d < v->nd; d++) {
        LLVMValueRef before = LLVMBuildICmp(B, LLVMIntSGT, k, c64(F, d), "");
        rows = LLVMBuildMul(B, rows,
                            LLVMBuildSelect(B, before, v->shape[d], c64(F, 1),
                                            ""),
                            "");
        inner = LLVMBuildMul(B, inner,
                             LLVMBuildSelect(B, before, c64(F, 1),
                                             v->shape[d], ""),
                             "");
    }
    /* the result's bytes from one row to the next: its stride on k - 1 */
    LLVMValueRef pitch =
        v->nd ? LLVMBuildSelect(
                    B, LLVMBuildICmp(B, LLVMIntSGT, k, c64(F, 0), ""),
                    pick(F, dstr, v->nd,
                         LLVMBuildSub(B, k, c64(F, 1), "")),
                    c64(F, 0), "")
              : c64(F, 0);
    /* memcpy pays for rows of some length; short ones take the nest */
    LLVMValueRef fast =
        LLVMBuildAnd(B, c_contiguous(F, v),
                     LLVMBuildICmp(B, LLVMIntSGE, inner, c64(F, 64), ""), "");
    LLVMBasicBlockRef bmem = uf__fn_block(F, "join.memcpy");
    LLVMBasicBlockRef bnest = uf__fn_block(F, "join.nest");
    LLVMBasicBlockRef done = uf__fn_block(F, "join.copied");
    LLVMBuildCondBr(B, fast, bmem, bnest);
    LLVMPositionBuilderAtEnd(B, bmem);
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, c64(F, 0), rows);
    LLVMBuildMemCpy(B, uf__npr_gep(F, dst, LLVMBuildMul(B, l.i, pitch, "")),
                    1, uf__npr_gep(F, v->data, LLVMBuildMul(B, l.i, inner, "")),
                    1, inner);
    uf__npr_loop_close(F, &l, 1);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, bnest);
    nest_fast(F, &c, dst);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
}

/* ---- the concatenation ------------------------------------------------ */

typedef struct join {
    view *v;     /* m inputs of nd axes each */
    int m, nd;
    LLVMValueRef k; /* the axis, in [0, nd) where nothing failed */
    LLVMValueRef bad; /* i1: a check failed (only where nothing raises) */
    const uf__type *rt;
} join;

/* Numba's _normalize_axis of the i64 k against nd axes. */
static LLVMValueRef norm_axis(uf__fn *F, join *J, LLVMValueRef k, int nd,
                              int status)
{
    LLVMValueRef kn = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntSLT, k, c64(F, 0), ""),
        LLVMBuildAdd(B, k, c64(F, nd), ""), k, "axis");
    LLVMValueRef out =
        LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntSLT, kn, c64(F, 0), ""),
                    LLVMBuildICmp(B, LLVMIntSGE, kn, c64(F, nd), ""), "");
    uf__fn_raise_if(F, out, status);
    J->bad = LLVMBuildOr(B, J->bad, out, "");
    return LLVMBuildSelect(B, out, c64(F, 0), kn, "");
}

/* np.stack's check: every input of the first one's shape. */
static void same_shapes(uf__fn *F, join *J)
{
    LLVMValueRef differ = i1(F, 0);
    for (int i = 1; i < J->m; i++)
        for (int d = 0; d < J->v[0].nd; d++)
            differ = LLVMBuildOr(
                B, differ,
                LLVMBuildICmp(B, LLVMIntNE, J->v[i].shape[d],
                              J->v[0].shape[d], ""),
                "");
    uf__fn_raise_if(F, differ, UF__JIT_STACK_SHAPE);
    J->bad = LLVMBuildOr(B, J->bad, differ, "");
}

/* np.concatenate's check: the sizes off axis k agree, dimension by
 * dimension. */
static void same_sizes(uf__fn *F, join *J)
{
    for (int d = 0; d < J->nd; d++) {
        LLVMValueRef differ = i1(F, 0);
        for (int i = 1; i < J->m; i++)
            differ = LLVMBuildOr(
                B, differ,
                LLVMBuildICmp(B, LLVMIntNE, J->v[i].shape[d],
                              J->v[0].shape[d], ""),
                "");
        differ = LLVMBuildAnd(
            B, differ, LLVMBuildICmp(B, LLVMIntNE, J->k, c64(F, d), ""), "");
        uf__fn_raise_if(F, differ, UF__JIT_CONCAT_SIZES + d);
        J->bad = LLVMBuildOr(B, J->bad, differ, "");
    }
}

/* The new array: the inputs one after the other along J->k. */
static LLVMValueRef concat(uf__fn *F, join *J)
{
    int nd = J->nd;
    uf_dtype to = J->rt->dtype;
    LLVMValueRef shape[MAXND], n;
    for (int d = 0; d < nd; d++) {
        LLVMValueRef sum = c64(F, 0);
        for (int i = 0; i < J->m; i++)
            sum = LLVMBuildAdd(B, sum, J->v[i].shape[d], "");
        shape[d] = LLVMBuildSelect(B, eq(F, J->k, c64(F, d)), sum,
                                   J->v[0].shape[d], "");
    }
    shape[0] = LLVMBuildSelect(B, J->bad, c64(F, 0), shape[0], "");
    bool fo = J->rt->layout == 'F' && nd > 1;
    LLVMValueRef res = uf__arrmeth_new(F, to, nd, shape, fo ? 'F' : 'C', &n);
    LLVMValueRef k = J->k;
    if (fo) { /* the C array of the reversed shape, the inputs reversed */
        reverse(shape, nd);
        for (int i = 0; i < J->m; i++) {
            reverse(J->v[i].shape, nd);
            reverse(J->v[i].strides, nd);
        }
        k = LLVMBuildSub(B, c64(F, nd - 1), k, "");
    }
    LLVMValueRef dstr[MAXND];
    LLVMValueRef s = c64(F, (long long)uf_dtype_itemsize(to));
    for (int d = nd - 1; d >= 0; d--) {
        dstr[d] = s;
        s = LLVMBuildMul(B, s, shape[d], "");
    }
    LLVMBasicBlockRef work = uf__fn_block(F, "join.work");
    LLVMBasicBlockRef done = uf__fn_block(F, "join.done");
    LLVMBuildCondBr(B, J->bad, done, work);
    LLVMPositionBuilderAtEnd(B, work);
    LLVMValueRef out = uf__emit_array_data(F, res);
    LLVMValueRef step = pick(F, dstr, nd, k), at = c64(F, 0);
    for (int i = 0; i < J->m; i++) {
        copy_view(F, &J->v[i],
                  uf__npr_gep(F, out, LLVMBuildMul(B, at, step, "")), dstr,
                  k, to);
        at = LLVMBuildAdd(B, at, pick(F, J->v[i].shape, nd, k), "");
    }
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return res;
}

/* The i64 value of axis expression x (absent: 0). */
static LLVMValueRef axis_value(uf__fn *F, const uf__expr *x)
{
    if (x == NULL)
        return c64(F, 0);
    LLVMValueRef v = uf__lower_expr(F, x);
    return v ? uf__emit_cast(F, v, uf__lower_info(F, x)->type->dtype,
                             UF_INT64)
             : NULL;
}

/* The inputs of the tuple expression x into J (J->v allocated). */
static int load_tuple(uf__fn *F, const uf__expr *x, join *J)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    if (!t || t->kind != UF__T_TUPLE || t->n < 1) {
        fail(F, x, "np.concatenate() of an untyped tuple");
        return -1;
    }
    LLVMValueRef tv = uf__lower_expr(F, x);
    if (!tv)
        return -1;
    J->m = t->n;
    J->v = uf__calloc((size_t)t->n, sizeof *J->v, F->err);
    if (!J->v)
        return -1;
    for (int i = 0; i < t->n; i++)
        view_of(F, LLVMBuildExtractValue(B, tv, (unsigned)i, ""), t->elts[i],
                &J->v[i]);
    return 0;
}

/* hstack, vstack, dstack, column_stack: the unit axes Numba inserts and
 * the axis it concatenates along, by the inputs' ndim n. */
static void stack_form(uf__fn *F, uf__builtin b, join *J)
{
    int n = J->v[0].nd, k = 0;
    bool vst = b == UF__BI_NP_VSTACK || b == UF__BI_NP_ROW_STACK;
    bool dst = b == UF__BI_NP_DSTACK;
    /* Numba stacks these (np.stack's shape check, on the inputs' own
     * axes); the others it concatenates */
    bool stack = (vst && n == 1) || (dst && (n == 1 || n == 2));
    if (stack)
        same_shapes(F, J);
    for (int i = 0; i < J->m; i++) {
        view *v = &J->v[i];
        if (b == UF__BI_NP_HSTACK) { /* 0-d: np.stack(axis=0) */
            if (n == 0)
                insert_at(F, v, 0);
        } else if (vst) { /* 0-d: (1, 1); 1-d: np.stack(axis=0) */
            if (n < 2)
                insert_at(F, v, 0);
            if (n < 1)
                insert_at(F, v, 1);
        } else if (dst) { /* (1, 1, 1), (1, n, 1), (a, b, 1) */
            if (n < 2)
                insert_at(F, v, 0);
            if (n < 1)
                insert_at(F, v, 1);
            if (n < 3)
                insert_at(F, v, 2);
        } else if (v->nd == 1) { /* column_stack: a 1-d array a column */
            insert_at(F, v, 1);
        }
    }
    if (b == UF__BI_NP_HSTACK)
        k = n >= 2 ? 1 : 0; /* 1-d arrays along their axis 0 */
    else if (dst)
        k = 2;
    else if (!vst)
        k = 1; /* column_stack */
    J->k = c64(F, k);
    if (!stack)
        same_sizes(F, J);
}

/* np.append(arr, values) without axis: both flattened, one after the
 * other. */
static LLVMValueRef append_flat(uf__fn *F, const uf__expr **x,
                                const uf__type *rt)
{
    uf_dtype to = rt->dtype;
    LLVMValueRef val[2], size[2];
    const uf__type *t[2];
    for (int i = 0; i < 2; i++) {
        t[i] = uf__lower_info(F, x[i])->type;
        if (!(val[i] = uf__lower_expr(F, x[i])))
            return NULL;
        if (t[i]->kind == UF__T_ARRAY) {
            size[i] = c64(F, 1);
            for (int d = 0; d < t[i]->ndim; d++)
                size[i] = LLVMBuildMul(
                    B, size[i], uf__emit_array_dim(F, val[i], d), "");
        } else {
            size[i] = c64(F, t[i]->kind == UF__T_TUPLE ? t[i]->n : 1);
        }
    }
    LLVMValueRef total = LLVMBuildAdd(B, size[0], size[1], ""), n;
    LLVMValueRef res = uf__arrmeth_new(F, to, 1, &total, 'C', &n);
    LLVMValueRef out = uf__emit_array_data(F, res);
    LLVMValueRef isz = c64(F, (long long)uf_dtype_itemsize(to));
    LLVMValueRef at = c64(F, 0);
    for (int i = 0; i < 2; i++) {
        LLVMValueRef dst = uf__npr_gep(F, out, LLVMBuildMul(B, at, isz, ""));
        if (t[i]->kind == UF__T_ARRAY) {
            view v;
            view_of(F, val[i], t[i], &v);
            LLVMValueRef dstr[MAXND], s = isz;
            for (int d = v.nd - 1; d >= 0; d--) {
                dstr[d] = s;
                s = LLVMBuildMul(B, s, v.shape[d], "");
            }
            copy_view(F, &v, dst, dstr, c64(F, 0), to);
        } else {
            int ne = t[i]->kind == UF__T_TUPLE ? t[i]->n : 1;
            for (int j = 0; j < ne; j++) {
                const uf__type *et =
                    t[i]->kind == UF__T_TUPLE ? t[i]->elts[j] : t[i];
                LLVMValueRef e = t[i]->kind == UF__T_TUPLE
                                     ? LLVMBuildExtractValue(
                                           B, val[i], (unsigned)j, "")
                                     : val[i];
                uf__emit_elem_store(
                    F, uf__npr_gep(F, dst, c64(F, j * (long long)
                                                      uf_dtype_itemsize(to))),
                    to, uf__emit_cast(F, e, et->dtype, to));
            }
        }
        at = LLVMBuildAdd(B, at, size[i], "");
    }
    return res;
}

/* np.append(arr, values, axis=k): np.concatenate((arr, values), k). */
static int append_axis(uf__fn *F, const uf__expr **x, join *J)
{
    J->m = 2;
    J->v = uf__calloc(2, sizeof *J->v, F->err);
    if (!J->v)
        return -1;
    for (int i = 0; i < 2; i++) {
        LLVMValueRef a = uf__lower_expr(F, x[i]);
        if (!a)
            return -1;
        view_of(F, a, uf__lower_info(F, x[i])->type, &J->v[i]);
    }
    return 0;
}

/* The leaves of the nested tuple value v (type t) in C order into
 * dst, converted to `to`; *k counts the elements stored. */
static void store_leaves(uf__fn *F, LLVMValueRef v, const uf__type *t,
                         LLVMValueRef dst, uf_dtype to, long long *k)
{
    if (t->kind == UF__T_SCALAR) {
        LLVMValueRef at = c64(F, *k * (long long)uf_dtype_itemsize(to));
        uf__emit_elem_store(F, uf__npr_gep(F, dst, at), to,
                            uf__emit_cast(F, v, t->dtype, to));
        ++*k;
        return;
    }
    for (int i = 0; i < t->n; i++)
        store_leaves(F, LLVMBuildExtractValue(B, v, (unsigned)i, ""),
                     t->elts[i], dst, to, k);
}

/* np.array(object, dtype), np.asarray(a, dtype): a new C array of the
 * number or nested tuple; np.asarray of an array that array, or its
 * astype copy when dtype differs. */
static LLVMValueRef lower_array(uf__fn *F, const uf__expr *e,
                                const uf__expr *ox, const uf__type *rt)
{
    const uf__type *t = uf__lower_info(F, ox)->type;
    LLVMValueRef filled = t->kind == UF__T_LIST ? uf__arraycall_result(F, ox)
                                                : NULL;
    if (filled) /* the loop filled the array (lower_arraycall.c) */
        return filled;
    LLVMValueRef v = uf__lower_expr(F, ox);
    if (!v)
        return NULL;
    if (t->kind == UF__T_ARRAY)
        return t == rt ? v : uf__arrmeth_copy(F, v, t, rt);
    if (t->kind == UF__T_LIST) /* a copy of its items (lower_list.c) */
        return uf__lower_list_to_array(F, v, t, rt->dtype);
    int nd;
    int64_t dims[MAXND];
    uf_dtype dt;
    if (!uf__npjoin_nested(t, &nd, dims, &dt) || nd != rt->ndim)
        return fail(F, e, "np.array() of an untyped object");
    LLVMValueRef shape[MAXND], n;
    for (int d = 0; d < nd; d++)
        shape[d] = c64(F, dims[d]);
    LLVMValueRef res = uf__arrmeth_new(F, rt->dtype, nd, shape, 'C', &n);
    long long k = 0;
    store_leaves(F, v, t, uf__emit_array_data(F, res), rt->dtype, &k);
    return res;
}

LLVMValueRef uf__lower_npjoin(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    const uf__type *rt = in->type;
    uf__builtin b = in->builtin;
    const uf__expr *x[3];
    const uf__keyword *kw;
    if (e->kind != UF__EX_CALL || uf__npjoin_bind(e, b, x, &kw) != 0 ||
        x[0] == NULL || rt == NULL || rt->kind != UF__T_ARRAY)
        return fail(F, e, "an untyped NumPy join");
    if (F->L->cg->sreg != NULL) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s() allocates an array on the host, which CUDA "
                         "kernels cannot do", uf__builtin_name(b));
        return NULL;
    }
    if (b == UF__BI_NP_ARRAY || b == UF__BI_NP_ASARRAY)
        return lower_array(F, e, x[0], rt);
    join J = {.nd = rt->ndim, .rt = rt, .bad = i1(F, 0)};
    LLVMValueRef res = NULL;
    if (b == UF__BI_NP_APPEND) {
        const uf__type *at = x[2] ? uf__lower_info(F, x[2])->type : NULL;
        if (at == NULL || at->kind == UF__T_NONE)
            return append_flat(F, x, rt);
        if (append_axis(F, x, &J) != 0)
            goto out;
    } else if (load_tuple(F, x[0], &J) != 0) {
        goto out;
    }
    if (b == UF__BI_NP_CONCATENATE || b == UF__BI_NP_APPEND ||
        b == UF__BI_NP_STACK) {
        LLVMValueRef k = axis_value(F, x[b == UF__BI_NP_APPEND ? 2 : 1]);
        if (!k)
            goto out;
        if (b == UF__BI_NP_STACK) {
            J.k = norm_axis(F, &J, k, J.nd, UF__JIT_STACK_AXIS);
            same_shapes(F, &J);
            for (int i = 0; i < J.m; i++)
                insert_axis(F, &J.v[i], J.k);
        } else {
            J.k = norm_axis(F, &J, k, J.nd, UF__JIT_CONCAT_AXIS);
            same_sizes(F, &J);
        }
    } else {
        stack_form(F, b, &J);
    }
    res = concat(F, &J);
out:
    uf__free(J.v);
    return res;
}
