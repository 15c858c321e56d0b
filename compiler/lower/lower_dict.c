/* Dicts (Numba's DictType of numbers and strings, values also tuples of
 * numbers, arrays, typed lists and dicts, typed by types/infer_dict.c;
 * how a value sits in its entry: lower_dict_value.c): a
 * dict value is the data pointer of an NRT block holding common/dict.h's
 * header, owned as a list's is (lower_alloc.c counts it as an array
 * whose data pointer is the header). Every lookup and store is one call
 * of common/dict.c with the key widened to 64 bits, which returns the
 * value's address; the value is read or written inline. A string key or
 * value is its uf__ustr pointer; the dict is then handed to the frame's
 * sweeps and returns marked (uf__list_push_root), which keep the blocks
 * of its strings while it is reachable. An array value is stored whole
 * ({data, shape, strides}, as a list's array item: common/list_items.h)
 * and owns no reference: its block stays in the frame that made it, kept
 * by the same marked roots (the data pointer is the value's first word,
 * as a string value's pointer is), so d[k] is the same buffer every time
 * and a view of it outlives the dict. Host targets only, and outside
 * prange bodies. */
#include <stddef.h>

#include "common/dict.h"
#include "common/error_internal.h"
#include "common/list_items.h"
#include "common/ustr.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_dict_value.h"
#include "compiler/lower/lower_set_key.h"
#include "compiler/lower/lower_stmt.h"

#define B (F->L->b)

_Static_assert(offsetof(uf__dict, esize) == 48 &&
                   offsetof(uf__dict, kind) == 56 &&
                   offsetof(uf__dict, used) == 8 &&
                   offsetof(uf__dict, entries) == 16,
               "lower_dict.c reads these header fields inline");

enum { OFF_SIZE = 0, OFF_ENTRIES = 16 };

static LLVMTypeRef i64_t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMTypeRef i8p_t(uf__fn *F)
{
    return LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
}

static LLVMValueRef c64(uf__fn *F, int64_t v)
{
    return LLVMConstInt(i64_t(F), (unsigned long long)v, 1);
}

static LLVMValueRef undef_i1(uf__fn *F)
{
    return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
}

static LLVMValueRef call(uf__fn *F, const char *name, LLVMTypeRef ret,
                         LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[8]; /* n <= 8 */
    for (unsigned i = 0; i < n; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, n, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    F->L->uses_runtime = true;
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

static int refuse_here(uf__fn *F, const uf__expr *e)
{
    if (F->L->cg->sreg != NULL)
        return uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src,
                                e->pos, "%s", "dicts are not supported in "
                                "CUDA kernels");
    if (F->in_prange)
        return uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src,
                                e->pos, "%s", "dicts cannot be used in a "
                                "prange body run in parallel (Numba's typed "
                                "dict is not thread-safe): fill the dict "
                                "in a range loop");
    return 0;
}

static uf_dtype key_dt(const uf__type *dt)
{
    return dt->elts[0]->dtype;
}

static uf_dtype val_dt(const uf__type *dt)
{
    return dt->elts[1]->dtype;
}

static bool str_keys(const uf__type *dt)
{
    return dt->elts[0]->kind == UF__T_USTR;
}

static bool float_keys(const uf__type *dt)
{
    return !str_keys(dt) && dt->elts[0]->kind == UF__T_SCALAR &&
           uf_dtype_kind(key_dt(dt)) == 'f';
}

/* Whether dt's keys (complex numbers, tuples) are fields passed by
 * address (lower_set_key.c's layout, common/dict.h's WIDE). */
static bool wide_keys(const uf__type *dt)
{
    return dt->n == 2 && !str_keys(dt) && !uf__set_key_narrow(dt->elts[0]);
}

/* The 8-byte fields of dt's keys (1 but wide) and which are doubles. */
static int32_t key_fields(const uf__type *dt, uint64_t *fmask)
{
    int32_t nf = 1;
    *fmask = 0;
    if (wide_keys(dt))
        uf__set_key_kind(dt->elts[0], &nf, fmask);
    return nf;
}

/* common/dict.h's kind of dict type dt's keys. */
static int key_kind(const uf__type *dt)
{
    return dt->n == 0 ? UF__DICT_BITS
           : str_keys(dt) ? UF__DICT_USTR
           : wide_keys(dt) ? UF__DICT_WIDE
           : float_keys(dt) ? UF__DICT_FLOAT : UF__DICT_BITS;
}

/* 16 bytes of key and hash, then the value rounded up to 8, then a wide
 * key's other fields. */
static int64_t esize(const uf__type *dt)
{
    uint64_t fmask;
    int64_t v = uf__dict_vsize(dt->elts[1]);
    return UF__DICT_VALUE_OFF + (v + 7) / 8 * 8 +
           8 * ((int64_t)key_fields(dt, &fmask) - 1);
}

static LLVMValueRef field_ptr(uf__fn *F, LLVMValueRef p, int64_t off)
{
    return LLVMBuildInBoundsGEP2(B, LLVMInt8TypeInContext(F->L->ctx), p,
                                 (LLVMValueRef[]){c64(F, off)}, 1, "");
}

/* Key v (of type `from`) as the dict's key type, then as the 64 bits
 * common/dict.c compares: an integer widened, a float as a double, a
 * string's pointer. */
static LLVMValueRef key_bits(uf__fn *F, LLVMValueRef v, const uf__type *from,
                             const uf__type *dt)
{
    if (wide_keys(dt)) { /* its fields in a stack buffer, by address */
        v = uf__emit_convert(F, v, from, dt->elts[0]);
        return v ? uf__set_key_store(F, v, dt->elts[0]) : NULL;
    }
    if (str_keys(dt)) {
        v = uf__emit_convert(F, v, from, dt->elts[0]);
        return v ? LLVMBuildPtrToInt(B, v, i64_t(F), "") : NULL;
    }
    v = uf__emit_cast(F, v, from->dtype, key_dt(dt));
    if (float_keys(dt))
        return LLVMBuildBitCast(
            B, uf__emit_cast(F, v, key_dt(dt), UF_FLOAT64), i64_t(F), "");
    return uf__emit_cast(F, v, key_dt(dt), UF_INT64);
}

/* The key bits k back as the key type. */
static LLVMValueRef key_value(uf__fn *F, LLVMValueRef k, const uf__type *dt)
{
    if (wide_keys(dt))
        return uf__set_key_load(F, k, dt->elts[0]);
    if (str_keys(dt))
        return LLVMBuildIntToPtr(B, k, i8p_t(F), "");
    if (float_keys(dt))
        return uf__emit_cast(
            F, LLVMBuildBitCast(B, k, LLVMDoubleTypeInContext(F->L->ctx), ""),
            UF_FLOAT64, key_dt(dt));
    return uf__emit_cast(F, k, UF_INT64, key_dt(dt));
}

static LLVMValueRef lower_key(uf__fn *F, const uf__expr *x,
                              const uf__type *dt)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    return v ? key_bits(F, v, uf__lower_info(F, x)->type, dt) : NULL;
}

static LLVMValueRef lower_value(uf__fn *F, const uf__expr *x,
                                const uf__type *dt)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    return v ? uf__emit_convert(F, v, uf__lower_info(F, x)->type, dt->elts[1])
             : NULL;
}

/* Whether key k (key_bits) is a wide key's address. */
static bool by_addr(LLVMValueRef k)
{
    return LLVMGetTypeKind(LLVMTypeOf(k)) == LLVMPointerTypeKind;
}

static LLVMValueRef find(uf__fn *F, LLVMValueRef d, LLVMValueRef k)
{
    LLVMValueRef a[2] = {d, k};
    return call(F, by_addr(k) ? UF__DICT_FIND_KEY : UF__DICT_FIND, i8p_t(F),
                a, 2);
}

static LLVMValueRef delete(uf__fn *F, LLVMValueRef d, LLVMValueRef k,
                           LLVMValueRef out)
{
    LLVMValueRef a[3] = {d, k, out};
    return call(F, by_addr(k) ? UF__DICT_DELETE_KEY : UF__DICT_DELETE,
                LLVMInt32TypeInContext(F->L->ctx), a, 3);
}

/* The value slot of key k, made when absent; out of memory raises. */
static LLVMValueRef insert(uf__fn *F, LLVMValueRef d, LLVMValueRef k)
{
    LLVMValueRef a[2] = {d, k};
    LLVMValueRef p = call(F, by_addr(k) ? UF__DICT_INSERT_KEY
                                        : UF__DICT_INSERT,
                          i8p_t(F), a, 2);
    uf__fn_raise_if(F, LLVMBuildIsNull(B, p, ""), UF__JIT_NOMEM);
    return p;
}

/* dict.h's esize, kind, nfields and fmask, at offsets 48, 56, 60, 64. */
enum { OFF_ESIZE = 48, OFF_KIND = 56, OFF_NFIELDS = 60, OFF_FMASK = 64 };

static LLVMValueRef field(uf__fn *F, LLVMValueRef d, int off, LLVMTypeRef ty)
{
    LLVMValueRef p = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), d,
        (LLVMValueRef[]){c64(F, off)}, 1, "");
    return LLVMBuildPointerCast(B, p, LLVMPointerType(ty, 0), "");
}

/* The empty dict of `{}`, made before its store gave it types: dt's
 * entry size and key kind set in its header. */
LLVMValueRef uf__lower_dict_convert(uf__fn *F, LLVMValueRef d,
                                    const uf__type *from, const uf__type *to)
{
    if (from->n == 2 || to->n == 0)
        return d;
    LLVMBuildStore(B, c64(F, esize(to)), field(F, d, OFF_ESIZE, i64_t(F)));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
    LLVMBuildStore(B, LLVMConstInt(i32, (unsigned)key_kind(to), 0),
                   field(F, d, OFF_KIND, i32));
    uint64_t fmask;
    LLVMBuildStore(B, LLVMConstInt(i32, (unsigned)key_fields(to, &fmask), 0),
                   field(F, d, OFF_NFIELDS, i32));
    LLVMBuildStore(B, LLVMConstInt(i64_t(F), fmask, 0),
                   field(F, d, OFF_FMASK, i64_t(F)));
    return d;
}

static LLVMValueRef new_dict(uf__fn *F, const uf__type *dt)
{
    uint64_t fmask;
    int32_t nf = key_fields(dt, &fmask);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
    LLVMValueRef a[5] = {
        LLVMBuildPointerCast(B, uf__lower_frame_slot(F),
                             LLVMPointerType(i8p_t(F), 0), ""),
        c64(F, dt->n ? esize(dt) : UF__DICT_VALUE_OFF),
        LLVMConstInt(i32, (unsigned)key_kind(dt), 0),
        LLVMConstInt(i32, (unsigned)nf, 0), LLVMConstInt(i64_t(F), fmask, 0)};
    LLVMValueRef d = call(F, UF__DICT_NEW_KEYED, i8p_t(F), a, 5);
    uf__fn_raise_if(F, LLVMBuildIsNull(B, d, ""), UF__JIT_NOMEM);
    return d;
}

/* dict() and {k0: v0, ...}: the pairs evaluated before the dict is made,
 * then stored in order (a repeated key keeps its first place and its
 * last value, as Python's). */
static LLVMValueRef lower_new(uf__fn *F, const uf__expr *e,
                              const uf__type *dt)
{
    int n = e->u.call.nargs;
    if (n > 2 * UF__TUPLE_MAX) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "dict literals of more than %d items are not "
                         "supported", UF__TUPLE_MAX);
        return NULL;
    }
    LLVMValueRef v[2 * UF__TUPLE_MAX];
    for (int i = 0; i < n; i++) {
        const uf__expr *x = e->u.call.args[i];
        v[i] = i % 2 == 0 ? lower_key(F, x, dt) : lower_value(F, x, dt);
        if (v[i] == NULL)
            return NULL;
    }
    LLVMValueRef d = new_dict(F, dt);
    for (int i = 0; i < n; i += 2)
        uf__dict_vstore(F, insert(F, d, v[i]), dt->elts[1], v[i + 1]);
    return d;
}

LLVMValueRef uf__lower_dict_index(uf__fn *F, const uf__expr *e)
{
    const uf__type *dt = uf__lower_info(F, e->u.subscript.value)->type;
    if (refuse_here(F, e) != 0)
        return NULL;
    LLVMValueRef d = uf__lower_expr(F, e->u.subscript.value);
    const uf__expr *kx = e->u.subscript.index[0];
    const uf__type *kt = uf__lower_info(F, kx)->type;
    LLVMValueRef kv = d ? uf__lower_expr(F, kx) : NULL;
    LLVMValueRef k = kv ? key_bits(F, kv, kt, dt) : NULL;
    if (k == NULL)
        return NULL;
    LLVMValueRef p = find(F, d, k);
    if (kt->kind == UF__T_STR) { /* a literal: the string made */
        kv = key_value(F, k, dt);
        kt = dt->elts[0];
    }
    /* Numba raises KeyError(k) of the key as given, not as converted */
    uf__lower_raise_key_if(F, LLVMBuildIsNull(B, p, ""), kv, kt,
                           UF__JIT_DICT_KEY);
    return uf__dict_vload(F, p, dt->elts[1]);
}

int uf__lower_dict_store(uf__fn *F, const uf__expr *t, LLVMValueRef v,
                         const uf__type *vt)
{
    const uf__type *dt = uf__lower_info(F, t->u.subscript.value)->type;
    if (refuse_here(F, t) != 0)
        return F->err->code;
    LLVMValueRef d = uf__lower_expr(F, t->u.subscript.value);
    LLVMValueRef k = d ? lower_key(F, t->u.subscript.index[0], dt) : NULL;
    if (k == NULL)
        return F->err->code;
    if (!(v = uf__emit_convert(F, v, vt, dt->elts[1])))
        return F->err->code;
    uf__dict_vstore(F, insert(F, d, k), dt->elts[1], v);
    return 0;
}

LLVMValueRef uf__lower_dict_contains(uf__fn *F, const uf__expr *e)
{
    const uf__expr *ce = e->u.compare.operands[1];
    const uf__type *dt = uf__lower_info(F, ce)->type;
    if (refuse_here(F, e) != 0)
        return NULL;
    if (dt->n == 0) { /* a dict of no types yet is empty */
        if (!uf__lower_expr(F, e->u.compare.operands[0]) ||
            !uf__lower_expr(F, ce))
            return NULL;
        return LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx),
                            e->u.compare.ops[0] == UF__CMP_NOTIN, 0);
    }
    LLVMValueRef k = lower_key(F, e->u.compare.operands[0], dt);
    LLVMValueRef d = k ? uf__lower_expr(F, ce) : NULL;
    if (d == NULL)
        return NULL;
    LLVMValueRef found = LLVMBuildIsNotNull(B, find(F, d, k), "");
    if (e->u.compare.ops[0] == UF__CMP_NOTIN)
        found = LLVMBuildNot(B, found, "");
    return found;
}

/* d.get(k, default), d.setdefault(k, v): the value, or v (stored by
 * setdefault) when k is absent, as e's type (get: the value's and the
 * default's unified). */
static LLVMValueRef lower_get(uf__fn *F, const uf__expr *e, LLVMValueRef d,
                              const uf__type *dt, bool store)
{
    const uf__type *rt = uf__lower_info(F, e)->type, *vt = dt->elts[1];
    const uf__expr *x = e->u.call.args[1];
    LLVMValueRef k = lower_key(F, e->u.call.args[0], dt);
    LLVMValueRef dv = k ? uf__lower_expr(F, x) : NULL;
    if (dv == NULL)
        return NULL;
    const uf__type *xt = uf__lower_info(F, x)->type;
    LLVMValueRef sv = uf__emit_convert(F, dv, xt, vt); /* stored */
    if (!sv || !(dv = uf__emit_convert(F, dv, xt, rt)))
        return NULL;
    LLVMTypeRef vty = LLVMTypeOf(dv);
    LLVMValueRef slot = uf__fn_alloca(F, vty, "dict.get");
    LLVMBuildStore(B, dv, slot);
    LLVMValueRef p = find(F, d, k);
    LLVMBasicBlockRef hit = uf__fn_block(F, "dict.hit");
    LLVMBasicBlockRef miss = uf__fn_block(F, "dict.miss");
    LLVMBasicBlockRef done = uf__fn_block(F, "dict.got");
    LLVMBuildCondBr(B, LLVMBuildIsNull(B, p, ""), miss, hit);
    LLVMPositionBuilderAtEnd(B, hit);
    LLVMValueRef got = uf__dict_vload(F, p, vt);
    if (!got || !(got = uf__emit_convert(F, got, vt, rt)))
        return NULL;
    LLVMBuildStore(B, got, slot);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, miss);
    if (store)
        uf__dict_vstore(F, insert(F, d, k), vt, sv);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return LLVMBuildLoad2(B, vty, slot, "");
}

/* d.pop(k[, default]): KeyError without a default when k is absent. */
static LLVMValueRef lower_pop(uf__fn *F, const uf__expr *e, LLVMValueRef d,
                              const uf__type *dt)
{
    const uf__type *rt = uf__lower_info(F, e)->type, *vt = dt->elts[1];
    LLVMValueRef k = lower_key(F, e->u.call.args[0], dt);
    LLVMValueRef dv = NULL;
    if (k == NULL || (e->u.call.nargs == 2 &&
                      !(dv = uf__lower_expr(F, e->u.call.args[1]))))
        return NULL;
    LLVMValueRef outp = uf__dict_value_buf(F, dt);
    LLVMValueRef rc = delete(F, d, k, outp);
    LLVMValueRef absent = LLVMBuildIsNull(B, rc, "");
    if (dv == NULL) {
        uf__fn_raise_if(F, absent, UF__JIT_DICT_KEY);
        return uf__dict_vload(F, outp, vt);
    }
    dv = uf__emit_convert(F, dv, uf__lower_info(F, e->u.call.args[1])->type,
                          rt);
    LLVMValueRef got = uf__dict_vload(F, outp, vt);
    if (!dv || !got || !(got = uf__emit_convert(F, got, vt, rt)))
        return NULL;
    return LLVMBuildSelect(B, absent, dv, got, "");
}

/* d.popitem(): the last item inserted, KeyError when d is empty. */
static LLVMValueRef lower_popitem(uf__fn *F, const uf__expr *e,
                                  LLVMValueRef d, const uf__type *dt)
{
    uint64_t fmask;
    int32_t nf = key_fields(dt, &fmask);
    LLVMValueRef kslot = LLVMBuildPointerCast(
        B, uf__fn_alloca(F, LLVMArrayType(i64_t(F), (unsigned)nf), "dict.key"),
        LLVMPointerType(i64_t(F), 0), "");
    LLVMValueRef outp = uf__dict_value_buf(F, dt);
    LLVMValueRef a[3] = {d, wide_keys(dt) ? LLVMBuildPointerCast(B, kslot,
                                                                 i8p_t(F), "")
                                          : kslot,
                         outp};
    LLVMValueRef rc = call(F, wide_keys(dt) ? UF__DICT_POPITEM_KEY
                                            : UF__DICT_POPITEM,
                           LLVMInt32TypeInContext(F->L->ctx), a, 3);
    uf__fn_raise_if(F, LLVMBuildIsNull(B, rc, ""), UF__JIT_DICT_POPITEM);
    const uf__type *tt = uf__lower_info(F, e)->type;
    LLVMTypeRef ty = uf__lower_type(F->L, tt, F->err);
    if (ty == NULL)
        return NULL;
    LLVMValueRef r = LLVMGetUndef(ty);
    LLVMValueRef k = wide_keys(dt)
                         ? key_value(F, LLVMBuildPointerCast(B, kslot, i8p_t(F),
                                                             ""),
                                     dt)
                         : key_value(F, LLVMBuildLoad2(B, i64_t(F), kslot, ""),
                                     dt);
    if (k == NULL)
        return NULL;
    r = LLVMBuildInsertValue(B, r, k, 0, "");
    LLVMValueRef v = uf__dict_vload(F, outp, dt->elts[1]);
    return v ? LLVMBuildInsertValue(B, r, v, 1, "") : NULL;
}

/* The entry at position pos of dict d of type dt. */
static LLVMValueRef entry_at(uf__fn *F, LLVMValueRef d, const uf__type *dt,
                             LLVMValueRef pos)
{
    LLVMValueRef entries = LLVMBuildLoad2(
        B, i8p_t(F), field(F, d, OFF_ENTRIES, i8p_t(F)), "");
    return LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), entries,
        (LLVMValueRef[]){LLVMBuildMul(B, pos, c64(F, esize(dt)), "")}, 1, "");
}

/* A loop over the live entries of a dict in order: walk_begin leaves
 * the builder in the body with w->pos the entry's position; the body
 * reads the entries pointer again at each entry (d.update(d) stores into
 * the dict walked); walk_next ends the body, walk_end the loop (the
 * builder after it); a body may branch to w->done itself. */
typedef struct walk {
    LLVMBasicBlockRef hdr, done;
    LLVMValueRef slot, pos;
} walk;

static void walk_begin(uf__fn *F, LLVMValueRef d, walk *w)
{
    LLVMTypeRef i64 = i64_t(F);
    w->slot = uf__fn_alloca(F, i64, "dict.pos");
    LLVMBuildStore(B, c64(F, 0), w->slot);
    LLVMBasicBlockRef hdr = w->hdr = uf__fn_block(F, "dwalk.cond");
    LLVMBasicBlockRef body = uf__fn_block(F, "dwalk.body");
    w->done = uf__fn_block(F, "dwalk.end");
    LLVMBuildBr(B, hdr);
    LLVMPositionBuilderAtEnd(B, hdr);
    LLVMValueRef a[2] = {d, LLVMBuildLoad2(B, i64, w->slot, "")};
    w->pos = call(F, UF__DICT_NEXT, i64, a, 2);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGE, w->pos, c64(F, 0), ""),
                    body, w->done);
    LLVMPositionBuilderAtEnd(B, body);
}

static void walk_end(uf__fn *F, walk *w)
{
    LLVMBuildStore(B, LLVMBuildAdd(B, w->pos, c64(F, 1), ""), w->slot);
    LLVMBuildBr(B, w->hdr);
    LLVMPositionBuilderAtEnd(B, w->done);
}

/* The word at p + off. */
static LLVMValueRef word_at(uf__fn *F, LLVMValueRef p, int64_t off)
{
    return LLVMBuildLoad2(B, i64_t(F),
                          LLVMBuildPointerCast(B, field_ptr(F, p, off),
                                               LLVMPointerType(i64_t(F), 0),
                                               ""),
                          "");
}

/* The key of an entry of a dict of type dt, as the key type: a wide
 * key's fields gathered from the entry's two places (common/dict.h). */
static LLVMValueRef entry_key(uf__fn *F, LLVMValueRef entry,
                              const uf__type *dt)
{
    if (!wide_keys(dt))
        return key_value(F, word_at(F, entry, UF__DICT_KEY_OFF), dt);
    uint64_t fmask;
    int32_t nf = key_fields(dt, &fmask);
    LLVMTypeRef at = LLVMArrayType(i64_t(F), (unsigned)nf);
    LLVMValueRef buf = LLVMBuildPointerCast(
        B, uf__fn_alloca(F, at, "dict.wkey"), LLVMPointerType(i64_t(F), 0),
        "");
    int64_t es = esize(dt);
    for (int32_t i = 0; i < nf; i++) {
        LLVMValueRef w = word_at(F, entry, i == 0 ? UF__DICT_KEY_OFF
                                                  : es - 8 * (nf - i));
        LLVMBuildStore(B, w, LLVMBuildInBoundsGEP2(B, i64_t(F), buf,
                                                   (LLVMValueRef[]){
                                                       c64(F, i)},
                                                   1, ""));
    }
    return key_value(F, LLVMBuildPointerCast(B, buf, i8p_t(F), ""), dt);
}

/* d.update(o): Numba's `for k, v in o.items(): d[k] = v`, each key and
 * value converted to d's types. */
static LLVMValueRef lower_update(uf__fn *F, const uf__expr *e,
                                 LLVMValueRef d, const uf__type *dt)
{
    const uf__expr *x = e->u.call.args[0];
    const uf__type *ot = uf__lower_info(F, x)->type;
    LLVMValueRef o = uf__lower_expr(F, x);
    if (o == NULL)
        return NULL;
    if (ot->n == 0) /* an empty dict of no types: nothing to store */
        return undef_i1(F);
    walk w;
    walk_begin(F, o, &w);
    LLVMValueRef entry = entry_at(F, o, ot, w.pos);
    LLVMValueRef kv = entry_key(F, entry, ot);
    LLVMValueRef k = kv ? key_bits(F, kv, ot->elts[0], dt) : NULL;
    if (k == NULL)
        return NULL;
    LLVMValueRef vp = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), entry,
        (LLVMValueRef[]){c64(F, UF__DICT_VALUE_OFF)}, 1, "");
    LLVMValueRef v = uf__dict_vload(F, vp, ot->elts[1]);
    if (!v || !(v = uf__emit_convert(F, v, ot->elts[1], dt->elts[1])))
        return NULL;
    uf__dict_vstore(F, insert(F, d, k), dt->elts[1], v);
    walk_end(F, &w);
    return undef_i1(F);
}


void uf__lower_dict_visit(uf__fn *F, LLVMValueRef d, const uf__type *dt,
                          uf__dict_visit_fn fn, void *ud)
{
    if (dt->n != 2) /* a dict of no types yet: empty */
        return;
    const uf__type *xt = dt->elts[0];
    LLVMTypeRef ty = NULL;
    if (dt->layout == 'i') { /* (key, value) */
        xt = uf__type_tuple(F->tf->km->tc, 2, dt->elts, F->err);
        if (xt == NULL || !(ty = uf__lower_type(F->L, xt, F->err)))
            return;
    }
    walk w;
    walk_begin(F, d, &w);
    LLVMValueRef entry = entry_at(F, d, dt, w.pos);
    LLVMValueRef k = entry_key(F, entry, dt), x = k;
    if (k == NULL)
        return;
    if (dt->layout == 'v' || dt->layout == 'i') {
        LLVMValueRef v = uf__dict_vload(F, field_ptr(F, entry, UF__DICT_VALUE_OFF),
                               dt->elts[1]);
        if (v == NULL)
            return;
        x = v;
        if (dt->layout == 'v')
            xt = dt->elts[1];
        else
            x = LLVMBuildInsertValue(
                B, LLVMBuildInsertValue(B, LLVMGetUndef(ty), k, 0, ""), v, 1,
                "");
    }
    fn(F, x, xt, ud);
    walk_end(F, &w);
}

typedef struct to_items {
    LLVMValueRef islot, items;
    const uf__type *lt;
} to_items;

static void store_item(uf__fn *F, LLVMValueRef x, const uf__type *xt,
                       void *ud)
{
    const to_items *T = ud;
    if (!(x = uf__emit_convert(F, x, xt, T->lt->elts[0])))
        return;
    LLVMValueRef i = LLVMBuildLoad2(B, i64_t(F), T->islot, "");
    LLVMValueRef at = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), T->items,
        (LLVMValueRef[]){LLVMBuildMul(B, i, c64(F, uf__list_itemsize(T->lt)),
                                      "")},
        1, "");
    uf__list_item_store(F, at, T->lt, x);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, c64(F, 1), ""), T->islot);
}

void uf__lower_dict_to_items(uf__fn *F, LLVMValueRef d, const uf__type *dt,
                             LLVMValueRef items, const uf__type *lt)
{
    to_items T = {uf__fn_alloca(F, i64_t(F), "dict.i"), items, lt};
    LLVMBuildStore(B, c64(F, 0), T.islot);
    uf__lower_dict_visit(F, d, dt, store_item, &T);
}

LLVMValueRef uf__lower_dict_compare(uf__fn *F, const uf__expr *e)
{
    if (refuse_here(F, e) != 0)
        return NULL;
    const uf__expr *x[2] = {e->u.compare.operands[0],
                            e->u.compare.operands[1]};
    const uf__type *t[2];
    LLVMValueRef v[2];
    for (int k = 0; k < 2; k++) {
        t[k] = uf__lower_info(F, x[k])->type;
        if (!(v[k] = uf__lower_expr(F, x[k])))
            return NULL;
    }
    uf_dtype od = uf__lower_info(F, e)->optype->dtype; /* numbers */
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    LLVMValueRef res = uf__fn_alloca(F, i1, "dict.eq");
    LLVMValueRef same = LLVMBuildICmp(B, LLVMIntEQ, uf__emit_list_len(F, v[0]),
                                      uf__emit_list_len(F, v[1]), "");
    LLVMBuildStore(B, same, res);
    LLVMBasicBlockRef scan = uf__fn_block(F, "dict.scan");
    LLVMBasicBlockRef out = uf__fn_block(F, "dict.cmp");
    LLVMBuildCondBr(B, same, scan, out);
    LLVMPositionBuilderAtEnd(B, scan);
    walk w;
    walk_begin(F, v[0], &w);
    LLVMValueRef entry = entry_at(F, v[0], t[0], w.pos);
    /* Numba's _cast of the key to the other's key type */
    LLVMValueRef kb = key_bits(F, entry_key(F, entry, t[0]), t[0]->elts[0],
                               t[1]);
    if (kb == NULL)
        return NULL;
    LLVMValueRef p = find(F, v[1], kb);
    LLVMBasicBlockRef found = uf__fn_block(F, "dict.found");
    LLVMBasicBlockRef differ = uf__fn_block(F, "dict.differ");
    LLVMBuildCondBr(B, LLVMBuildIsNull(B, p, ""), differ, found);
    LLVMPositionBuilderAtEnd(B, found);
    LLVMValueRef vp = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), entry,
        (LLVMValueRef[]){c64(F, UF__DICT_VALUE_OFF)}, 1, "");
    LLVMValueRef eq;
    if (uf__lower_info(F, e)->optype->kind == UF__T_USTR) {
        LLVMValueRef s[2] = {uf__dict_vload(F, vp, t[0]->elts[1]),
                             uf__dict_vload(F, p, t[1]->elts[1])};
        eq = LLVMBuildICmp(
            B, LLVMIntEQ,
            call(F, UF__USTR_CMP, LLVMInt32TypeInContext(F->L->ctx), s, 2),
            LLVMConstInt(LLVMInt32TypeInContext(F->L->ctx), 0, 0), "");
    } else {
        LLVMValueRef va = uf__emit_cast(
            F, uf__emit_elem_load(F, vp, val_dt(t[0])), val_dt(t[0]), od);
        LLVMValueRef vb = uf__emit_cast(
            F, uf__emit_elem_load(F, p, val_dt(t[1])), val_dt(t[1]), od);
        eq = uf__emit_cmp(F, UF__CMP_EQ, od, va, vb);
    }
    LLVMBasicBlockRef next = uf__fn_block(F, "dict.next");
    LLVMBuildCondBr(B, eq, next, differ);
    LLVMPositionBuilderAtEnd(B, differ);
    LLVMBuildStore(B, LLVMConstInt(i1, 0, 0), res);
    LLVMBuildBr(B, out);
    LLVMPositionBuilderAtEnd(B, next);
    walk_end(F, &w);
    LLVMBuildBr(B, out);
    LLVMPositionBuilderAtEnd(B, out);
    LLVMValueRef r = LLVMBuildLoad2(B, i1, res, "");
    return e->u.compare.ops[0] == UF__CMP_NE ? LLVMBuildNot(B, r, "") : r;
}

LLVMValueRef uf__lower_dict_call(uf__fn *F, const uf__expr *e)
{
    uf__builtin b = uf__lower_info(F, e)->builtin;
    if (refuse_here(F, e) != 0)
        return NULL;
    if (b == UF__BI_DICT_NEW)
        return lower_new(F, e, uf__lower_info(F, e)->type);
    const uf__expr *recv = e->u.call.func->u.attr.value;
    const uf__type *dt = uf__lower_info(F, recv)->type;
    LLVMValueRef d = uf__lower_expr(F, recv);
    if (!d)
        return NULL;
    switch (b) {
    case UF__BI_DICT_GET:
    case UF__BI_DICT_SETDEFAULT:
        return lower_get(F, e, d, dt, b == UF__BI_DICT_SETDEFAULT);
    case UF__BI_DICT_POP:
        return lower_pop(F, e, d, dt);
    case UF__BI_DICT_DELITEM: { /* `del d[k]`: KeyError when absent */
        LLVMValueRef k = lower_key(F, e->u.call.args[0], dt);
        if (k == NULL)
            return NULL;
        LLVMValueRef rc = delete(F, d, k, LLVMConstNull(i8p_t(F)));
        uf__fn_raise_if(F, LLVMBuildIsNull(B, rc, ""), UF__JIT_DICT_KEY);
        return undef_i1(F);
    }
    case UF__BI_DICT_POPITEM:
        return lower_popitem(F, e, d, dt);
    case UF__BI_DICT_UPDATE:
        return lower_update(F, e, d, dt);
    case UF__BI_DICT_CLEAR:
        if (dt->n == 2)
            call(F, UF__DICT_CLEAR, LLVMVoidTypeInContext(F->L->ctx), &d, 1);
        return undef_i1(F);
    case UF__BI_DICT_COPY: {
        LLVMValueRef a[2] = {
            LLVMBuildPointerCast(B, uf__lower_frame_slot(F),
                                 LLVMPointerType(i8p_t(F), 0), ""),
            d};
        LLVMValueRef c = call(F, UF__DICT_COPY, i8p_t(F), a, 2);
        uf__fn_raise_if(F, LLVMBuildIsNull(B, c, ""), UF__JIT_NOMEM);
        return c;
    }
    default: /* keys(), values(), items(): the dict, walked by a loop */
        return d;
    }
}

/* for x in d / d.keys() / d.values() / d.items(): the entries in
 * insertion order, each position found by common/dict.c's next; as
 * Numba's iterator, the loop ends (without an error) once the body has
 * changed the dict's size. */
int uf__lower_dict_for(uf__fn *F, const uf__stmt *s, int vi)
{
    const uf__expr *it = s->u.for_.iter;
    const uf__type *dt = uf__lower_info(F, it)->type;
    const uf__type *vt = F->tf->vars[vi].type;
    if (refuse_here(F, it) != 0)
        return F->err->code;
    LLVMValueRef d = uf__lower_expr(F, it);
    if (d == NULL)
        return F->err->code;
    LLVMTypeRef i64 = i64_t(F);
    LLVMValueRef sp = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), d, (LLVMValueRef[]){c64(F, 8)},
        1, "");
    /* dict.h's `used` at offset 8: the positions written so far */
    LLVMValueRef end = LLVMBuildLoad2(
        B, i64, LLVMBuildPointerCast(B, sp, LLVMPointerType(i64, 0), ""),
        "dict.used");
    LLVMValueRef size0 = uf__emit_list_len(F, d); /* size at offset 0 */
    LLVMValueRef posp = uf__fn_alloca(F, i64, "dict.pos");
    LLVMBuildStore(B, c64(F, 0), posp);
    LLVMBasicBlockRef hdr = uf__fn_block(F, "dfor.cond");
    LLVMBasicBlockRef body = uf__fn_block(F, "dfor.body");
    LLVMBasicBlockRef latch = uf__fn_block(F, "dfor.next");
    LLVMBasicBlockRef els = uf__fn_block(F, "dfor.else");
    LLVMBasicBlockRef done = uf__fn_block(F, "dfor.end");
    int rc = uf__nrt_loop_enter(F, s, d, dt);
    if (rc != 0)
        return rc;
    LLVMBuildBr(B, hdr);
    LLVMPositionBuilderAtEnd(B, hdr);
    LLVMValueRef a[2] = {d, LLVMBuildLoad2(B, i64, posp, "")};
    LLVMValueRef pos = call(F, UF__DICT_NEXT, i64, a, 2);
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
    LLVMValueRef ep = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), d,
        (LLVMValueRef[]){c64(F, OFF_ENTRIES)}, 1, "");
    LLVMValueRef entries = LLVMBuildLoad2(
        B, i8p_t(F),
        LLVMBuildPointerCast(B, ep, LLVMPointerType(i8p_t(F), 0), ""), "");
    LLVMValueRef entry = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), entries,
        (LLVMValueRef[]){LLVMBuildMul(B, pos, c64(F, esize(dt)), "")}, 1, "");
    LLVMValueRef key = entry_key(F, entry, dt);
    LLVMValueRef val = uf__dict_vload(F, field_ptr(F, entry, UF__DICT_VALUE_OFF),
                             dt->elts[1]);
    if (val == NULL)
        return F->err->code;
    const uf__type *item = dt->layout == 'v' ? dt->elts[1] : dt->elts[0];
    LLVMValueRef v = dt->layout == 'v' ? val : key;
    if (dt->layout == 'i') {
        item = uf__type_tuple(F->tf->km->tc, 2, dt->elts, F->err);
        LLVMTypeRef ty = item ? uf__lower_type(F->L, item, F->err) : NULL;
        if (ty == NULL)
            return F->err->code;
        v = LLVMBuildInsertValue(B, LLVMGetUndef(ty), key, 0, "");
        v = LLVMBuildInsertValue(B, v, val, 1, "");
    }
    if (!(v = uf__emit_convert(F, v, item, vt)))
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

/* d[k] += s of a string value: a new string (common/ustr.c). */
static LLVMValueRef str_augop(uf__fn *F, const uf__stmt *s, LLVMValueRef x,
                              const uf__type *vt)
{
    const uf__expr *ve = s->u.augassign.value;
    const uf__type *t = uf__lower_info(F, ve)->type;
    if (s->u.augassign.op != UF__OP_ADD ||
        (t->kind != UF__T_STR && t->kind != UF__T_USTR)) {
        uf__lower_unsupported(F, s->pos, "this augmented assignment");
        return NULL;
    }
    LLVMValueRef v = uf__lower_expr(F, ve);
    if (!v || !(v = uf__emit_convert(F, v, t, vt)))
        return NULL;
    LLVMValueRef a[3] = {LLVMBuildPointerCast(B, uf__lower_frame_slot(F),
                                              LLVMPointerType(i8p_t(F), 0),
                                              ""),
                         x, v};
    LLVMValueRef r = call(F, UF__USTR_CONCAT, i8p_t(F), a, 3);
    uf__fn_raise_if(F, LLVMBuildIsNull(B, r, ""), UF__JIT_NOMEM);
    return r;
}

/* d[k] op= v: d[k] read (KeyError when absent), v evaluated and combined,
 * then stored by a second lookup (v may have grown the table). */
int uf__lower_dict_augassign(uf__fn *F, const uf__stmt *s)
{
    const uf__expr *t = s->u.augassign.target;
    const uf__type *dt = uf__lower_info(F, t->u.subscript.value)->type;
    if (refuse_here(F, t) != 0)
        return F->err->code;
    LLVMValueRef d = uf__lower_expr(F, t->u.subscript.value);
    LLVMValueRef k = d ? lower_key(F, t->u.subscript.index[0], dt) : NULL;
    if (k == NULL)
        return F->err->code;
    LLVMValueRef p = find(F, d, k); /* Numba: KeyError(k) */
    uf__lower_raise_key_if(F, LLVMBuildIsNull(B, p, ""), key_value(F, k, dt),
                           dt->elts[0], UF__JIT_DICT_KEY);
    LLVMValueRef x = uf__dict_vload(F, p, dt->elts[1]);
    LLVMValueRef r = x && dt->elts[1]->kind == UF__T_USTR
                         ? str_augop(F, s, x, dt->elts[1])
                     : x ? uf__lower_augop(F, s, x, dt->elts[1])
                         : NULL;
    if (r == NULL)
        return F->err->code;
    uf__dict_vstore(F, insert(F, d, k), dt->elts[1], r);
    return 0;
}

bool uf__dict_fallible(const uf__typed_func *tf, const uf__expr *e)
{
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_dict(uf__tf_info(tf, e)->builtin))
        return true; /* out of memory, KeyError */
    if (e->kind == UF__EX_SUBSCRIPT) {
        const uf__type *bt = uf__tf_info(tf, e->u.subscript.value)->type;
        return bt && bt->kind == UF__T_DICT; /* KeyError, out of memory */
    }
    if (e->kind == UF__EX_COMPARE && e->u.compare.nops == 1 &&
        (e->u.compare.ops[0] == UF__CMP_IN ||
         e->u.compare.ops[0] == UF__CMP_NOTIN)) {
        const uf__type *bt = uf__tf_info(tf, e->u.compare.operands[1])->type;
        return bt && bt->kind == UF__T_DICT;
    }
    return false;
}
