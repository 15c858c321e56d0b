/* Sets (Numba's set of numbers, typed by types/infer_set.c): a set value
 * is the data pointer of an NRT block holding common/set.h's header,
 * owned as a dict's is.
 * Every add, lookup and removal is one call of common/set.c with the key
 * converted to the set's type and widened to 64 bits (bools, integers,
 * floats), or flattened into 8-byte fields passed by address (complex
 * numbers, tuples, strings: lower_set_key.c); set(x) and
 * s.update(x) of an array, a list or a tuple add x's items in a loop
 * here; the operators are one call each. Host targets only, and outside
 * prange bodies. */
#include <stddef.h>

#include "common/error_internal.h"
#include "common/set.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_set_key.h"
#include "compiler/lower/lower_stmt.h"

#define B (F->L->b)

_Static_assert(offsetof(uf__set, kind) == 56 &&
                   offsetof(uf__set, nslots) == 8 &&
                   offsetof(uf__set, slots) == 16 &&
                   offsetof(uf__set, shift) == 40 &&
                   offsetof(uf__set, nfields) == 44 &&
                   offsetof(uf__set, fmask) == 48,
               "lower_set.c reads these header fields inline");

enum {
    OFF_NSLOTS = 8, OFF_SLOTS = 16, OFF_SHIFT = 40, OFF_NFIELDS = 44,
    OFF_FMASK = 48, OFF_KIND = 56
};

static LLVMTypeRef i64_t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMTypeRef i32_t(uf__fn *F)
{
    return LLVMInt32TypeInContext(F->L->ctx);
}

static LLVMTypeRef i8p_t(uf__fn *F)
{
    return LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
}

static LLVMValueRef c64(uf__fn *F, int64_t v)
{
    return LLVMConstInt(i64_t(F), (unsigned long long)v, 1);
}

static LLVMValueRef c32(uf__fn *F, int32_t v)
{
    return LLVMConstInt(i32_t(F), (unsigned long long)v, 1);
}

static LLVMValueRef none_value(uf__fn *F)
{
    return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
}

static LLVMValueRef call(uf__fn *F, const char *name, LLVMTypeRef ret,
                         LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[4]; /* n <= 4 */
    for (unsigned i = 0; i < n; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, n, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    F->L->uses_runtime = true;
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

static LLVMValueRef frame(uf__fn *F)
{
    return LLVMBuildPointerCast(B, uf__lower_frame_slot(F),
                                LLVMPointerType(i8p_t(F), 0), "");
}

static int refuse_here(uf__fn *F, const uf__expr *e)
{
    if (F->L->cg->sreg != NULL)
        return uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src,
                                e->pos, "%s", "sets are not supported in "
                                "CUDA kernels");
    if (F->in_prange)
        return uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src,
                                e->pos, "%s", "sets cannot be used in a "
                                "prange body run in parallel (Numba's set is "
                                "not thread-safe): fill the set in a range "
                                "loop");
    return 0;
}

static uf_dtype key_dt(const uf__type *st)
{
    return st->elts[0]->dtype;
}

static bool float_keys(const uf__type *st)
{
    return st->n == 1 && st->elts[0]->kind == UF__T_SCALAR &&
           uf_dtype_kind(key_dt(st)) == 'f';
}

/* Whether st's keys are one 64-bit word (else passed by address). */
static bool narrow(const uf__type *st)
{
    return st->n == 0 || uf__set_key_narrow(st->elts[0]);
}

static int32_t kind_of(const uf__type *st)
{
    int32_t nf;
    uint64_t fmask;
    return st->n ? uf__set_key_kind(st->elts[0], &nf, &fmask) : UF__SET_BITS;
}

/* The bytes of one slot of st: its key's fields and the tag. */
static int64_t stride_of(const uf__type *st)
{
    int32_t nf;
    uint64_t fmask;
    if (st->n == 0)
        return UF__SET_SLOT;
    uf__set_key_kind(st->elts[0], &nf, &fmask);
    return ((int64_t)nf + 1) * 8;
}

/* v (of dtype `from`) as the set's key type, then as the 64 bits
 * common/set.c compares: an integer widened, a float as a double. */
static LLVMValueRef key_bits(uf__fn *F, LLVMValueRef v, uf_dtype from,
                             const uf__type *st)
{
    v = uf__emit_cast(F, v, from, key_dt(st));
    if (float_keys(st))
        return LLVMBuildBitCast(
            B, uf__emit_cast(F, v, key_dt(st), UF_FLOAT64), i64_t(F), "");
    return uf__emit_cast(F, v, key_dt(st), UF_INT64);
}

static LLVMValueRef key_value(uf__fn *F, LLVMValueRef k, const uf__type *st)
{
    if (float_keys(st))
        return uf__emit_cast(
            F, LLVMBuildBitCast(B, k, LLVMDoubleTypeInContext(F->L->ctx), ""),
            UF_FLOAT64, key_dt(st));
    return uf__emit_cast(F, k, UF_INT64, key_dt(st));
}

/* v (of type `from`) as st's key: its 64 bits (a narrow key), else the
 * address of its fields; NULL on an error. */
static LLVMValueRef key_of(uf__fn *F, LLVMValueRef v, const uf__type *from,
                           const uf__type *st)
{
    if (narrow(st))
        return key_bits(F, v, from->dtype, st);
    v = uf__emit_convert(F, v, from, st->elts[0]);
    return v ? uf__set_key_store(F, v, st->elts[0]) : NULL;
}

static LLVMValueRef lower_key(uf__fn *F, const uf__expr *x,
                              const uf__type *st)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    return v ? key_of(F, v, uf__lower_info(F, x)->type, st) : NULL;
}

/* The function of common/set.c taking a key as st's keys are passed. */
static const char *by_key(const uf__type *st, const char *narrow_fn,
                          const char *wide_fn)
{
    return narrow(st) ? narrow_fn : wide_fn;
}

/* Adds key k (key_of); out of memory raises. */
static void add(uf__fn *F, LLVMValueRef s, LLVMValueRef k,
                const uf__type *st)
{
    LLVMValueRef a[2] = {s, k};
    LLVMValueRef rc = call(F, by_key(st, UF__SET_ADD, UF__SET_ADD_KEY),
                           i32_t(F), a, 2);
    uf__fn_raise_if(F, LLVMBuildIsNotNull(B, rc, ""), UF__JIT_NOMEM);
}

int uf__lower_set_add_value(uf__fn *F, LLVMValueRef s, const uf__type *st,
                            LLVMValueRef v, const uf__type *vt)
{
    LLVMValueRef k = key_of(F, v, vt, st);
    if (k == NULL)
        return -1;
    add(F, s, k, st);
    return 0;
}

static LLVMValueRef new_set(uf__fn *F, const uf__type *st)
{
    int32_t nf = 1;
    uint64_t fmask = 0;
    int32_t kind = st->n ? uf__set_key_kind(st->elts[0], &nf, &fmask)
                         : UF__SET_BITS;
    LLVMValueRef a[4] = {frame(F), c32(F, kind), c32(F, nf),
                         LLVMConstInt(i64_t(F), fmask, 0)};
    LLVMValueRef s = call(F, UF__SET_NEW_KEYED, i8p_t(F), a, 4);
    uf__fn_raise_if(F, LLVMBuildIsNull(B, s, ""), UF__JIT_NOMEM);
    return s;
}

static LLVMValueRef field(uf__fn *F, LLVMValueRef s, int off, LLVMTypeRef ty)
{
    LLVMValueRef p = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), s,
        (LLVMValueRef[]){c64(F, off)}, 1, "");
    return LLVMBuildPointerCast(B, p, LLVMPointerType(ty, 0), "");
}

/* A set of type `from` seen as `to`: set() given its key kind by its
 * first add, a set of integers widened to floats (a new set, as Numba's
 * unification casts the value), else the same set. */
LLVMValueRef uf__lower_set_convert(uf__fn *F, LLVMValueRef s,
                                   const uf__type *from, const uf__type *to)
{
    if (to->n == 0 || from == to)
        return s;
    if (from->n == 0) {
        int32_t nf;
        uint64_t fmask;
        uf__set_key_kind(to->elts[0], &nf, &fmask);
        LLVMBuildStore(B, c32(F, kind_of(to)), field(F, s, OFF_KIND,
                                                     i32_t(F)));
        LLVMBuildStore(B, c32(F, nf), field(F, s, OFF_NFIELDS, i32_t(F)));
        LLVMBuildStore(B, LLVMConstInt(i64_t(F), fmask, 0),
                       field(F, s, OFF_FMASK, i64_t(F)));
        return s;
    }
    if (!narrow(from) || !narrow(to))
        return s; /* one key type (infer_set.c) */
    if (float_keys(from) || !float_keys(to))
        return s; /* the same 64 bits */
    LLVMValueRef a[3] = {frame(F), s,
                         c32(F, uf_dtype_kind(key_dt(from)) == 'u')};
    LLVMValueRef w = call(F, UF__SET_WIDEN, i8p_t(F), a, 3);
    uf__fn_raise_if(F, LLVMBuildIsNull(B, w, ""), UF__JIT_NOMEM);
    return w;
}

typedef void (*each_fn)(uf__fn *F, LLVMValueRef i, void *ud);

/* body(i) for i in [0, n). */
static void count(uf__fn *F, LLVMValueRef n, each_fn body, void *ud)
{
    LLVMValueRef slot = uf__fn_alloca(F, i64_t(F), "set.i");
    LLVMBuildStore(B, c64(F, 0), slot);
    LLVMBasicBlockRef head = uf__fn_block(F, "set.head");
    LLVMBasicBlockRef loop = uf__fn_block(F, "set.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "set.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, i64_t(F), slot, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), loop, done);
    LLVMPositionBuilderAtEnd(B, loop);
    body(F, i, ud);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, c64(F, 1), ""), slot);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
}

typedef struct add_src {
    LLVMValueRef s, data, stride; /* data: an array's or a list's items */
    uf_dtype from;
    const uf__type *st;
    const uf__type *ft; /* the item's type (NULL: a number of `from`) */
    const uf__type *lt; /* the list's type, or NULL for an array */
} add_src;

static void add_one(uf__fn *F, LLVMValueRef i, void *ud)
{
    const add_src *X = ud;
    LLVMValueRef off = LLVMBuildMul(B, i, X->stride, "");
    LLVMValueRef p = LLVMBuildGEP2(B, LLVMInt8TypeInContext(F->L->ctx),
                                   X->data, &off, 1, "");
    if (narrow(X->st)) {
        add(F, X->s, key_bits(F, uf__emit_elem_load(F, p, X->from), X->from,
                              X->st), X->st);
        return;
    }
    LLVMValueRef v = X->lt ? uf__list_item_load(F, p, X->lt)
                           : uf__emit_elem_load(F, p, X->from);
    LLVMValueRef k = v ? key_of(F, v, X->ft, X->st) : NULL;
    if (k != NULL)
        add(F, X->s, k, X->st);
}

/* The items of x (a 1-D array, a list, a tuple or a set, typed xt) added
 * to s (of type st); 0 or the error code. */
static int add_all(uf__fn *F, LLVMValueRef s, const uf__type *st,
                   const uf__expr *x, const uf__type *xt)
{
    if (xt->kind == UF__T_RANGE ||
        (xt->kind == UF__T_DICT && (xt->layout == 'v' || xt->layout == 'i')))
        return uf__lower_set_add_from(F, s, st, x, xt); /* lower_set_from.c */
    LLVMValueRef v = uf__lower_expr(F, x);
    if (v == NULL)
        return F->err->code;
    if (xt->kind == UF__T_TUPLE) {
        for (int i = 0; i < xt->n; i++) {
            LLVMValueRef k = key_of(
                F, LLVMBuildExtractValue(B, v, (unsigned)i, ""),
                xt->elts[i], st);
            if (k == NULL)
                return F->err->code;
            add(F, s, k, st);
        }
        return 0;
    }
    if (xt->kind == UF__T_DICT) { /* set(d), set(d.keys()) */
        LLVMValueRef a[2] = {s, v};
        LLVMValueRef rc = call(F, UF__SET_ADD_DICT_KEYS, i32_t(F), a, 2);
        uf__fn_raise_if(F, LLVMBuildIsNotNull(B, rc, ""), UF__JIT_NOMEM);
        return 0;
    }
    if (xt->kind == UF__T_SET) {
        v = uf__lower_set_convert(F, v, xt, st);
        LLVMValueRef a[2] = {s, v};
        LLVMValueRef rc = call(F, UF__SET_UPDATE, i32_t(F), a, 2);
        uf__fn_raise_if(F, LLVMBuildIsNotNull(B, rc, ""), UF__JIT_NOMEM);
        return 0;
    }
    add_src X = {s, NULL, NULL, UF_BOOL, st, NULL, NULL};
    LLVMValueRef n;
    if (xt->kind == UF__T_LIST) {
        X.from = xt->elts[0]->dtype;
        X.ft = xt->elts[0];
        X.lt = xt;
        X.data = uf__emit_list_items(F, v);
        X.stride = c64(F, uf__list_itemsize(xt));
        n = uf__emit_list_len(F, v);
    } else {
        X.from = xt->dtype;
        X.ft = uf__type_scalar(F->tf->km->tc, xt->dtype);
        X.data = uf__emit_array_data(F, v);
        X.stride = uf__emit_array_stride(F, v, xt, 0);
        n = uf__emit_array_dim(F, v, 0);
    }
    count(F, n, add_one, &X);
    return 0;
}

/* set(), set(x), {a, b, ...}: a literal's items evaluated first, then
 * added in order. */
static LLVMValueRef lower_new(uf__fn *F, const uf__expr *e,
                              const uf__type *st)
{
    int n = e->u.call.nargs;
    if (!e->u.call.starred) {
        LLVMValueRef s = new_set(F, st);
        if (n == 1 && add_all(F, s, st, e->u.call.args[0],
                              uf__lower_info(F, e)->optype) != 0)
            return NULL;
        return s;
    }
    if (n > UF__TUPLE_MAX) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "set literals of more than %d items are not "
                         "supported", UF__TUPLE_MAX);
        return NULL;
    }
    LLVMValueRef v[UF__TUPLE_MAX];
    for (int i = 0; i < n; i++)
        if (!(v[i] = lower_key(F, e->u.call.args[i], st)))
            return NULL;
    LLVMValueRef s = new_set(F, st);
    for (int i = 0; i < n; i++)
        add(F, s, v[i], st);
    return s;
}

static int32_t op_code(int op)
{
    return op == UF__OP_BITOR    ? UF__SET_OR
           : op == UF__OP_BITAND ? UF__SET_AND
           : op == UF__OP_SUB    ? UF__SET_SUB
                                 : UF__SET_XOR;
}

static LLVMValueRef new_op(uf__fn *F, LLVMValueRef a, LLVMValueRef b,
                           int32_t op)
{
    LLVMValueRef x[4] = {frame(F), a, b, c32(F, op)};
    LLVMValueRef r = call(F, UF__SET_OP, i8p_t(F), x, 4);
    uf__fn_raise_if(F, LLVMBuildIsNull(B, r, ""), UF__JIT_NOMEM);
    return r;
}

static void in_place(uf__fn *F, LLVMValueRef a, LLVMValueRef b, int32_t op)
{
    LLVMValueRef x[3] = {a, b, c32(F, op)};
    LLVMValueRef rc = call(F, UF__SET_IOP, i32_t(F), x, 3);
    uf__fn_raise_if(F, LLVMBuildIsNotNull(B, rc, ""), UF__JIT_NOMEM);
}

static LLVMValueRef compare(uf__fn *F, LLVMValueRef a, LLVMValueRef b,
                            int32_t op)
{
    LLVMValueRef x[3] = {a, b, c32(F, op)};
    return LLVMBuildIsNotNull(B, call(F, UF__SET_CMP, i32_t(F), x, 3), "");
}

static LLVMValueRef lower_method(uf__fn *F, const uf__expr *e,
                                 LLVMValueRef s, const uf__type *st,
                                 uf__builtin b)
{
    const uf__expr *x = e->u.call.nargs ? e->u.call.args[0] : NULL;
    LLVMValueRef k, o;
    switch (b) {
    case UF__BI_SET_ADD:
        if (!(k = lower_key(F, x, st)))
            return NULL;
        add(F, s, k, st);
        return none_value(F);
    case UF__BI_SET_DISCARD:
    case UF__BI_SET_REMOVE: {
        if (!(k = lower_key(F, x, st)))
            return NULL;
        LLVMValueRef a[2] = {s, k};
        LLVMValueRef rc = call(
            F, by_key(st, UF__SET_DISCARD, UF__SET_DISCARD_KEY), i32_t(F), a,
            2);
        if (b == UF__BI_SET_REMOVE)
            uf__fn_raise_if(F, LLVMBuildIsNull(B, rc, ""),
                            UF__JIT_SET_REMOVE);
        return none_value(F);
    }
    case UF__BI_SET_POP: {
        if (!narrow(st)) {
            int32_t nf;
            uint64_t fmask;
            uf__set_key_kind(st->elts[0], &nf, &fmask);
            LLVMValueRef buf = LLVMBuildPointerCast(
                B,
                uf__fn_alloca(F, LLVMArrayType(i64_t(F), (unsigned)nf),
                              "set.key"),
                i8p_t(F), "");
            LLVMValueRef a[2] = {s, buf};
            LLVMValueRef rc = call(F, UF__SET_POP_KEY, i32_t(F), a, 2);
            uf__fn_raise_if(F, LLVMBuildIsNull(B, rc, ""), UF__JIT_SET_POP);
            return uf__set_key_load(F, buf, st->elts[0]);
        }
        LLVMValueRef slot = uf__fn_alloca(F, i64_t(F), "set.key");
        LLVMValueRef a[2] = {s, slot};
        LLVMValueRef rc = call(F, UF__SET_POP, i32_t(F), a, 2);
        uf__fn_raise_if(F, LLVMBuildIsNull(B, rc, ""), UF__JIT_SET_POP);
        return key_value(F, LLVMBuildLoad2(B, i64_t(F), slot, ""), st);
    }
    case UF__BI_SET_CLEAR:
        call(F, UF__SET_CLEAR, LLVMVoidTypeInContext(F->L->ctx), &s, 1);
        return none_value(F);
    case UF__BI_SET_COPY: {
        LLVMValueRef a[2] = {frame(F), s};
        LLVMValueRef c = call(F, UF__SET_COPY, i8p_t(F), a, 2);
        uf__fn_raise_if(F, LLVMBuildIsNull(B, c, ""), UF__JIT_NOMEM);
        return c;
    }
    case UF__BI_SET_UPDATE:
        if (add_all(F, s, st, x, uf__lower_info(F, e)->optype) != 0)
            return NULL;
        return none_value(F);
    default:
        break;
    }
    if (!(o = uf__lower_expr(F, x)))
        return NULL;
    switch (b) {
    case UF__BI_SET_UNION:
        return new_op(F, s, o, UF__SET_OR);
    case UF__BI_SET_INTERSECTION:
        return new_op(F, s, o, UF__SET_AND);
    case UF__BI_SET_DIFFERENCE:
        return new_op(F, s, o, UF__SET_SUB);
    case UF__BI_SET_SYMDIFF:
        return new_op(F, s, o, UF__SET_XOR);
    case UF__BI_SET_INTERSECTION_UPDATE:
        in_place(F, s, o, UF__SET_AND);
        return none_value(F);
    case UF__BI_SET_DIFFERENCE_UPDATE:
        in_place(F, s, o, UF__SET_SUB);
        return none_value(F);
    case UF__BI_SET_SYMDIFF_UPDATE:
        in_place(F, s, o, UF__SET_XOR);
        return none_value(F);
    case UF__BI_SET_ISSUBSET:
        return compare(F, s, o, UF__SET_LE);
    case UF__BI_SET_ISSUPERSET:
        return compare(F, s, o, UF__SET_GE);
    default:
        return compare(F, s, o, UF__SET_DISJOINT);
    }
}

LLVMValueRef uf__lower_set_call(uf__fn *F, const uf__expr *e)
{
    uf__builtin b = uf__lower_info(F, e)->builtin;
    if (refuse_here(F, e) != 0)
        return NULL;
    if (b == UF__BI_SET_NEW)
        return lower_new(F, e, uf__lower_info(F, e)->type);
    const uf__expr *recv = e->u.call.func->u.attr.value;
    const uf__type *st = uf__lower_info(F, recv)->type;
    LLVMValueRef s = uf__lower_expr(F, recv);
    return s ? lower_method(F, e, s, st, b) : NULL;
}

/* Whether key bits k are in s, the probe of common/set.c inlined (a
 * lookup in a hot loop is then no call): the tag is the key (a float's
 * -0.0 as 0.0) times 2^64 / phi, at least 2; the run from the slot its
 * top bits pick ends at an empty slot (tag 0). */
static LLVMValueRef find(uf__fn *F, LLVMValueRef s, LLVMValueRef k,
                         const uf__type *st)
{
    LLVMTypeRef i64 = i64_t(F), i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMValueRef found = uf__fn_alloca(F, LLVMInt1TypeInContext(F->L->ctx),
                                       "set.found");
    LLVMValueRef ip = uf__fn_alloca(F, i64, "set.slot");
    LLVMBasicBlockRef look = uf__fn_block(F, "set.look");
    LLVMBasicBlockRef probe = uf__fn_block(F, "set.probe");
    LLVMBasicBlockRef cmp = uf__fn_block(F, "set.cmp");
    LLVMBasicBlockRef next = uf__fn_block(F, "set.next");
    LLVMBasicBlockRef yes = uf__fn_block(F, "set.yes");
    LLVMBasicBlockRef done = uf__fn_block(F, "set.found");
    LLVMBuildStore(B, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0),
                   found);
    LLVMValueRef size = uf__emit_list_len(F, s);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, size, c64(F, 0), ""),
                    done, look);
    LLVMPositionBuilderAtEnd(B, look);
    LLVMValueRef hk = k;
    if (float_keys(st)) /* -0.0 hashes as 0.0 */
        hk = LLVMBuildSelect(
            B, LLVMBuildICmp(B, LLVMIntEQ, k, c64(F, INT64_MIN), ""),
            c64(F, 0), k, "");
    LLVMValueRef tag = LLVMBuildMul(
        B, hk, LLVMConstInt(i64, UINT64_C(0x9e3779b97f4a7c15), 0), "");
    tag = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntULT, tag, c64(F, 2), ""),
                          LLVMBuildAdd(B, tag, c64(F, 2), ""), tag, "");
    LLVMValueRef mask = LLVMBuildSub(
        B, LLVMBuildLoad2(B, i64, field(F, s, OFF_NSLOTS, i64), ""),
        c64(F, 1), "");
    LLVMValueRef slots = LLVMBuildLoad2(B, i8p_t(F),
                                        field(F, s, OFF_SLOTS, i8p_t(F)), "");
    LLVMValueRef shift = LLVMBuildZExt(
        B, LLVMBuildLoad2(B, i32_t(F), field(F, s, OFF_SHIFT, i32_t(F)), ""),
        i64, "");
    LLVMBuildStore(B, LLVMBuildLShr(B, tag, shift, ""), ip);
    LLVMBuildBr(B, probe);
    LLVMPositionBuilderAtEnd(B, probe);
    LLVMValueRef i = LLVMBuildLoad2(B, i64, ip, "");
    LLVMValueRef at = LLVMBuildInBoundsGEP2(
        B, i8, slots, (LLVMValueRef[]){LLVMBuildShl(B, i, c64(F, 4), "")}, 1,
        "");
    LLVMValueRef tp = LLVMBuildInBoundsGEP2(
        B, i8, at, (LLVMValueRef[]){c64(F, UF__SET_TAG_OFF)}, 1, "");
    LLVMValueRef t = LLVMBuildLoad2(
        B, i64, LLVMBuildPointerCast(B, tp, LLVMPointerType(i64, 0), ""), "");
    LLVMBuildStore(B, LLVMBuildAnd(B, LLVMBuildAdd(B, i, c64(F, 1), ""), mask,
                                   ""),
                   ip);
    LLVMBasicBlockRef tagged = uf__fn_block(F, "set.tagged");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, t, c64(F, 0), ""), done,
                    tagged);
    LLVMPositionBuilderAtEnd(B, tagged);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, t, tag, ""), cmp, next);
    LLVMPositionBuilderAtEnd(B, cmp);
    LLVMValueRef sk = LLVMBuildLoad2(
        B, i64, LLVMBuildPointerCast(B, at, LLVMPointerType(i64, 0), ""), "");
    LLVMValueRef eq;
    if (float_keys(st)) { /* == of doubles: NaN never */
        LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
        eq = LLVMBuildFCmp(B, LLVMRealOEQ, LLVMBuildBitCast(B, sk, f64, ""),
                           LLVMBuildBitCast(B, k, f64, ""), "");
    } else {
        eq = LLVMBuildICmp(B, LLVMIntEQ, sk, k, "");
    }
    LLVMBuildCondBr(B, eq, yes, next);
    LLVMPositionBuilderAtEnd(B, next);
    LLVMBuildBr(B, probe);
    LLVMPositionBuilderAtEnd(B, yes);
    LLVMBuildStore(B, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0),
                   found);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return LLVMBuildLoad2(B, LLVMInt1TypeInContext(F->L->ctx), found, "");
}

LLVMValueRef uf__lower_set_contains(uf__fn *F, const uf__expr *e)
{
    const uf__expr *ce = e->u.compare.operands[1];
    const uf__type *st = uf__lower_info(F, ce)->type;
    if (refuse_here(F, e) != 0)
        return NULL;
    LLVMValueRef k = lower_key(F, e->u.compare.operands[0], st);
    LLVMValueRef s = k ? uf__lower_expr(F, ce) : NULL;
    if (s == NULL)
        return NULL;
    LLVMValueRef found;
    if (narrow(st)) {
        found = find(F, s, k, st);
    } else {
        LLVMValueRef a[2] = {s, k};
        found = LLVMBuildIsNotNull(
            B, call(F, UF__SET_CONTAINS_KEY, i32_t(F), a, 2), "");
    }
    if (e->u.compare.ops[0] == UF__CMP_NOTIN)
        found = LLVMBuildNot(B, found, "");
    return found;
}

LLVMValueRef uf__lower_set_binop(uf__fn *F, const uf__expr *e)
{
    if (refuse_here(F, e) != 0)
        return NULL;
    LLVMValueRef a = uf__lower_expr(F, e->u.binary.left);
    LLVMValueRef b = a ? uf__lower_expr(F, e->u.binary.right) : NULL;
    if (b == NULL)
        return NULL;
    int32_t op = op_code((int)e->u.binary.op);
    if (e->u.binary.inplace) {
        in_place(F, a, b, op);
        return a;
    }
    return new_op(F, a, b, op);
}

LLVMValueRef uf__lower_set_compare(uf__fn *F, const uf__expr *e)
{
    if (refuse_here(F, e) != 0)
        return NULL;
    LLVMValueRef a = uf__lower_expr(F, e->u.compare.operands[0]);
    LLVMValueRef b = a ? uf__lower_expr(F, e->u.compare.operands[1]) : NULL;
    if (b == NULL)
        return NULL;
    static const int32_t codes[] = {
        [UF__CMP_EQ] = UF__SET_EQ, [UF__CMP_NE] = UF__SET_NE,
        [UF__CMP_LT] = UF__SET_LT, [UF__CMP_LE] = UF__SET_LE,
        [UF__CMP_GT] = UF__SET_GT, [UF__CMP_GE] = UF__SET_GE};
    return compare(F, a, b, codes[e->u.compare.ops[0]]);
}

/* s |= t, s &= t, s -= t, s ^= t: s changed in place (variable vi). */
int uf__lower_set_augassign(uf__fn *F, const uf__stmt *s, int vi)
{
    if (refuse_here(F, s->u.augassign.target) != 0)
        return F->err->code;
    LLVMValueRef a = LLVMBuildLoad2(B, i8p_t(F), F->vars[vi], "");
    LLVMValueRef b = uf__lower_expr(F, s->u.augassign.value);
    if (b == NULL)
        return F->err->code;
    in_place(F, a, b, op_code((int)s->u.augassign.op));
    return 0;
}

/* for x in s: the slots in order, each live one found by common/set.c's
 * next; the loop ends (without an error) once the body
 * has changed the set's size (Numba's loop walks its hash table and
 * raises nothing either). */
int uf__lower_set_for(uf__fn *F, const uf__stmt *s, int vi)
{
    const uf__expr *it = s->u.for_.iter;
    const uf__type *st = uf__lower_info(F, it)->type;
    const uf__type *vt = F->tf->vars[vi].type;
    if (refuse_here(F, it) != 0)
        return F->err->code;
    LLVMValueRef d = uf__lower_expr(F, it);
    if (d == NULL)
        return F->err->code;
    LLVMTypeRef i64 = i64_t(F);
    LLVMValueRef end = LLVMBuildLoad2(B, i64, field(F, d, OFF_NSLOTS, i64),
                                      "set.nslots");
    LLVMValueRef size0 = uf__emit_list_len(F, d); /* size at offset 0 */
    LLVMValueRef posp = uf__fn_alloca(F, i64, "set.pos");
    LLVMBuildStore(B, c64(F, 0), posp);
    LLVMBasicBlockRef hdr = uf__fn_block(F, "sfor.cond");
    LLVMBasicBlockRef body = uf__fn_block(F, "sfor.body");
    LLVMBasicBlockRef latch = uf__fn_block(F, "sfor.next");
    LLVMBasicBlockRef els = uf__fn_block(F, "sfor.else");
    LLVMBasicBlockRef done = uf__fn_block(F, "sfor.end");
    int rc = uf__nrt_loop_enter(F, s, d, st);
    if (rc != 0)
        return rc;
    LLVMBuildBr(B, hdr);
    LLVMPositionBuilderAtEnd(B, hdr);
    LLVMValueRef a[2] = {d, LLVMBuildLoad2(B, i64, posp, "")};
    LLVMValueRef pos = call(F, UF__SET_NEXT, i64, a, 2);
    LLVMValueRef more = LLVMBuildAnd(
        B, LLVMBuildICmp(B, LLVMIntSGE, pos, c64(F, 0), ""),
        LLVMBuildICmp(B, LLVMIntSLT, pos, end, ""), "");
    more = LLVMBuildAnd(B, more,
                        LLVMBuildICmp(B, LLVMIntEQ, uf__emit_list_len(F, d),
                                      size0, ""),
                        "");
    LLVMBuildCondBr(B, more, body, els);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMBuildStore(B, LLVMBuildAdd(B, pos, c64(F, 1), ""), posp);
    LLVMValueRef entries = LLVMBuildLoad2(
        B, i8p_t(F), field(F, d, OFF_SLOTS, i8p_t(F)), "");
    LLVMValueRef entry = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), entries,
        (LLVMValueRef[]){LLVMBuildMul(B, pos, c64(F, stride_of(st)),
                                      "")},
        1, "");
    LLVMValueRef key =
        narrow(st)
            ? key_value(F,
                        LLVMBuildLoad2(B, i64,
                                       LLVMBuildPointerCast(
                                           B, entry, LLVMPointerType(i64, 0),
                                           ""),
                                       ""),
                        st)
            : uf__set_key_load(F, entry, st->elts[0]);
    if (key == NULL)
        return F->err->code;
    LLVMValueRef v = uf__emit_convert(F, key, st->elts[0], vt);
    if (v == NULL)
        return F->err->code;
    LLVMBuildStore(B, v, F->vars[vi]);
    if ((rc = uf__lower_push_loop(F, done, latch)) != 0)
        return rc;
    rc = uf__lower_block(F, &s->u.for_.body);
    F->nloops--;
    if (rc != 0)
        return rc;
    if (!uf__lower_terminated(F))
        LLVMBuildBr(B, latch);
    uf__nrt_loop_latch(F, latch);
    uf__nrt_loop_leave(F);
    LLVMPositionBuilderAtEnd(B, latch);
    LLVMBuildBr(B, hdr);
    LLVMPositionBuilderAtEnd(B, els);
    if ((rc = uf__lower_block(F, &s->u.for_.orelse)) != 0)
        return rc;
    if (!uf__lower_terminated(F))
        LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return 0;
}

/* The key at slot address `at` stored as item *jp of dst (then *jp
 * counted): a complex number as an array's or a list's dtype `to`, a
 * tuple or a string as a list's item. */
static void store_wide(uf__fn *F, LLVMValueRef at, const uf__type *st,
                       LLVMValueRef dst, LLVMValueRef jp, int64_t itemsize,
                       uf_dtype to)
{
    const uf__type *kt = st->elts[0];
    LLVMValueRef k = uf__set_key_load(F, at, kt);
    if (k == NULL)
        return;
    LLVMValueRef j = LLVMBuildLoad2(B, i64_t(F), jp, "");
    LLVMValueRef p = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), dst,
        (LLVMValueRef[]){LLVMBuildMul(B, j, c64(F, itemsize), "")}, 1, "");
    if (kt->kind == UF__T_SCALAR) {
        uf__emit_elem_store(F, p, to, uf__emit_cast(F, k, kt->dtype, to));
    } else {
        const uf__type *lt = uf__type_list(F->tf->km->tc, kt, F->err);
        if (lt == NULL)
            return;
        uf__list_item_store(F, p, lt, k);
    }
    LLVMBuildStore(B, LLVMBuildAdd(B, j, c64(F, 1), ""), jp);
}

void uf__lower_set_items(uf__fn *F, LLVMValueRef s, const uf__type *st,
                         LLVMValueRef dst, int64_t itemsize, uf_dtype to)
{
    LLVMTypeRef i64 = i64_t(F), i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMValueRef n = LLVMBuildLoad2(B, i64, field(F, s, OFF_NSLOTS, i64), "");
    LLVMValueRef slots = LLVMBuildLoad2(B, i8p_t(F),
                                        field(F, s, OFF_SLOTS, i8p_t(F)), "");
    LLVMValueRef ip = uf__fn_alloca(F, i64, "set.i");
    LLVMValueRef jp = uf__fn_alloca(F, i64, "set.j");
    LLVMBuildStore(B, c64(F, 0), ip);
    LLVMBuildStore(B, c64(F, 0), jp);
    LLVMBasicBlockRef head = uf__fn_block(F, "set.items");
    LLVMBasicBlockRef body = uf__fn_block(F, "set.item");
    LLVMBasicBlockRef live = uf__fn_block(F, "set.live");
    LLVMBasicBlockRef next = uf__fn_block(F, "set.inext");
    LLVMBasicBlockRef done = uf__fn_block(F, "set.idone");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, i64, ip, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    int64_t stride = stride_of(st);
    LLVMValueRef at = LLVMBuildInBoundsGEP2(
        B, i8, slots, (LLVMValueRef[]){LLVMBuildMul(B, i, c64(F, stride), "")},
        1, "");
    LLVMValueRef tp = LLVMBuildInBoundsGEP2(
        B, i8, at, (LLVMValueRef[]){c64(F, stride - 8)}, 1, "");
    LLVMValueRef t = LLVMBuildLoad2(
        B, i64, LLVMBuildPointerCast(B, tp, LLVMPointerType(i64, 0), ""), "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntUGE, t, c64(F, 2), ""), live,
                    next);
    LLVMPositionBuilderAtEnd(B, live);
    if (!narrow(st)) {
        store_wide(F, at, st, dst, jp, itemsize, to);
        LLVMBuildBr(B, next);
        LLVMPositionBuilderAtEnd(B, next);
        LLVMBuildStore(B, LLVMBuildAdd(B, i, c64(F, 1), ""), ip);
        LLVMBuildBr(B, head);
        LLVMPositionBuilderAtEnd(B, done);
        return;
    }
    LLVMValueRef k = key_value(
        F,
        LLVMBuildLoad2(B, i64,
                       LLVMBuildPointerCast(B, at, LLVMPointerType(i64, 0),
                                            ""),
                       ""),
        st);
    LLVMValueRef j = LLVMBuildLoad2(B, i64, jp, "");
    LLVMValueRef p = LLVMBuildInBoundsGEP2(
        B, i8, dst, (LLVMValueRef[]){LLVMBuildMul(B, j, c64(F, itemsize), "")},
        1, "");
    uf__emit_elem_store(F, p, to, uf__emit_cast(F, k, key_dt(st), to));
    LLVMBuildStore(B, LLVMBuildAdd(B, j, c64(F, 1), ""), jp);
    LLVMBuildBr(B, next);
    LLVMPositionBuilderAtEnd(B, next);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, c64(F, 1), ""), ip);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
}

bool uf__set_fallible(const uf__typed_func *tf, const uf__expr *e)
{
    /* a set made, grown or widened: out of memory; remove, pop: KeyError */
    const uf__type *t = uf__tf_info(tf, e)->type;
    return (t && t->kind == UF__T_SET) ||
           (e->kind == UF__EX_CALL &&
            uf__builtin_is_set(uf__tf_info(tf, e)->builtin));
}
