/* The JIT entry point of a plain njit function: a C-callable wrapper that
 * reads the arguments from pointers (scalars, arrays described by
 * uf__plain_arg, or a string's uf__ustr pointer), calls the typed function (Python's error model: it may
 * fail with a status) and stores each result where outs[k] points. */
#include <stdio.h>

#include "common/error_internal.h"
#include "compiler/host/jit_plain.h"
#include "common/nrt.h"
#include "common/ustr.h"
#include "compiler/lower/lower_array.h"

/* Whether a dtype is (inside) what a function returns. */
static bool returns_dtype(const uf__type *t)
{
    if (t->kind == UF__T_DTYPE)
        return true;
    for (int k = 0; t->kind == UF__T_TUPLE && k < t->n; k++)
        if (returns_dtype(t->elts[k]))
            return true;
    return false;
}

/* Argument i of the entry as a value of tf->args[i]. */
static LLVMValueRef load_arg(uf__fn *F, LLVMValueRef args, int i,
                             const uf__type *t, uf_dtype in)
{
    uf__lower *L = F->L;
    LLVMBuilderRef b = L->b;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(i8, 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef i64p = LLVMPointerType(i64, 0);
    LLVMValueRef ix = LLVMConstInt(i64, (unsigned long long)i, 0);
    LLVMValueRef p = LLVMBuildLoad2(
        b, i8p, LLVMBuildInBoundsGEP2(b, i8p, args, &ix, 1, ""), "arg");
    if (t->kind == UF__T_SCALAR) {
        LLVMTypeRef mt = uf__lower_mem_dtype(L, in);
        LLVMValueRef v = LLVMBuildLoad2(
            b, mt, LLVMBuildPointerCast(b, p, LLVMPointerType(mt, 0), ""), "");
        LLVMSetAlignment(v, 1); /* a 0-d array's data: any alignment */
        if (in == UF_BOOL)
            v = LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstNull(mt), "");
        return uf__emit_cast(F, v, in, t->dtype);
    }
    if (t->kind == UF__T_USTR) /* args[i] points to the uf__ustr pointer */
        return LLVMBuildLoad2(
            b, i8p, LLVMBuildPointerCast(b, p, LLVMPointerType(i8p, 0), ""),
            "str");
    /* uf__plain_arg: {i8* data, i64* shape, i64* strides} */
    LLVMTypeRef fields[3] = {i8p, i64p, i64p};
    LLVMTypeRef st = LLVMStructTypeInContext(L->ctx, fields, 3, 0);
    LLVMValueRef sp = LLVMBuildPointerCast(b, p, LLVMPointerType(st, 0), "");
    LLVMValueRef d = LLVMBuildLoad2(b, st, sp, "desc");
    LLVMValueRef data = LLVMBuildExtractValue(b, d, 0, "data");
    LLVMValueRef shp = LLVMBuildExtractValue(b, d, 1, "");
    LLVMValueRef str = LLVMBuildExtractValue(b, d, 2, "");
    LLVMValueRef shape[64], strides[64];
    for (int k = 0; k < t->ndim; k++) {
        LLVMValueRef kk = LLVMConstInt(i64, (unsigned long long)k, 0);
        shape[k] = LLVMBuildLoad2(
            b, i64, LLVMBuildInBoundsGEP2(b, i64, shp, &kk, 1, ""), "");
        strides[k] = LLVMBuildLoad2(
            b, i64, LLVMBuildInBoundsGEP2(b, i64, str, &kk, 1, ""), "");
    }
    return uf__build_array(L, data, shape, strides, t->ndim);
}

/* Stores a returned array (type t) and the block it lives in as the
 * uf__plain_array_result outs[k] points to: alone, the returned list's
 * block (uf__nrt_take_returned); in a tuple, the block its data points
 * into (uf__nrt_take_holding, the list dropped after the last). */
static void store_array_out(uf__fn *F, LLVMValueRef outs, int k,
                            bool in_tuple, const uf__type *t, LLVMValueRef v)
{
    uf__lower *L = F->L;
    LLVMBuilderRef b = L->b;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef fields[4] = {i8p, i8p, LLVMArrayType(i64, 64),
                             LLVMArrayType(i64, 64)};
    LLVMTypeRef st = LLVMStructTypeInContext(L->ctx, fields, 4, 0);
    LLVMValueRef kx = LLVMConstInt(i64, (unsigned long long)k, 0);
    LLVMValueRef p = LLVMBuildLoad2(
        b, i8p, LLVMBuildInBoundsGEP2(b, i8p, outs, &kx, 1, ""), "out");
    p = LLVMBuildPointerCast(b, p, LLVMPointerType(st, 0), "");
    LLVMValueRef data = uf__emit_array_data(F, v);
    LLVMTypeRef fty = LLVMFunctionType(i8p, in_tuple ? &i8p : NULL,
                                       in_tuple ? 1 : 0, 0);
    LLVMValueRef take = L->cg->helper(
        L, in_tuple ? UF__NRT_TAKE_HOLDING : UF__NRT_TAKE_RETURNED, fty);
    LLVMValueRef mi = LLVMBuildCall2(b, fty, take, &data, in_tuple ? 1 : 0,
                                     "meminfo");
    LLVMBuildStore(b, mi, LLVMBuildStructGEP2(b, st, p, 0, ""));
    LLVMBuildStore(b, data, LLVMBuildStructGEP2(b, st, p, 1, ""));
    for (int d = 0; d < t->ndim; d++) {
        LLVMValueRef ix[2] = {LLVMConstNull(i64),
                              LLVMConstInt(i64, (unsigned long long)d, 0)};
        LLVMBuildStore(b, uf__emit_array_dim(F, v, d),
                       LLVMBuildInBoundsGEP2(b, fields[2],
                                             LLVMBuildStructGEP2(b, st, p, 2,
                                                                 ""),
                                             ix, 2, ""));
        LLVMBuildStore(b, uf__emit_array_stride(F, v, t, d),
                       LLVMBuildInBoundsGEP2(b, fields[3],
                                             LLVMBuildStructGEP2(b, st, p, 3,
                                                                 ""),
                                             ix, 2, ""));
    }
}

/* Stores a returned string (type t: unicode_type, or a literal whose
 * value v means nothing) as a 1-D uint32 array of its code points in the
 * uf__plain_array_result outs[k] points to: its block as for an array
 * (none for a literal, which uf_call then copies out). */
static void store_string_out(uf__fn *F, LLVMValueRef outs, int k,
                             bool in_tuple, const uf__type *t,
                             LLVMValueRef v)
{
    uf__lower *L = F->L;
    LLVMBuilderRef b = L->b;
    if (t->kind == UF__T_STR)
        v = uf__lower_ustr_literal(F, t->name, (size_t)t->n);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(i8, 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef fields[4] = {i8p, i8p, LLVMArrayType(i64, 64),
                             LLVMArrayType(i64, 64)};
    LLVMTypeRef st = LLVMStructTypeInContext(L->ctx, fields, 4, 0);
    LLVMValueRef kx = LLVMConstInt(i64, (unsigned long long)k, 0);
    LLVMValueRef p = LLVMBuildLoad2(
        b, i8p, LLVMBuildInBoundsGEP2(b, i8p, outs, &kx, 1, ""), "out");
    p = LLVMBuildPointerCast(b, p, LLVMPointerType(st, 0), "");
    LLVMTypeRef fty = LLVMFunctionType(i8p, in_tuple ? &i8p : NULL,
                                       in_tuple ? 1 : 0, 0);
    LLVMValueRef take = L->cg->helper(
        L, in_tuple ? UF__NRT_TAKE_HOLDING : UF__NRT_TAKE_RETURNED, fty);
    LLVMValueRef mi = LLVMBuildCall2(b, fty, take, &v, in_tuple ? 1 : 0,
                                     "meminfo");
    LLVMValueRef off = LLVMConstInt(i64, UF__USTR_CP_OFFSET, 0);
    LLVMValueRef zero = LLVMConstNull(i64);
    LLVMValueRef ix[2] = {zero, zero};
    LLVMBuildStore(b, mi, LLVMBuildStructGEP2(b, st, p, 0, ""));
    LLVMBuildStore(b, LLVMBuildInBoundsGEP2(b, i8, v, &off, 1, ""),
                   LLVMBuildStructGEP2(b, st, p, 1, ""));
    LLVMBuildStore(b, uf__emit_ustr_len(F, v),
                   LLVMBuildInBoundsGEP2(b, fields[2],
                                         LLVMBuildStructGEP2(b, st, p, 2, ""),
                                         ix, 2, ""));
    LLVMBuildStore(b, LLVMConstInt(i64, 4, 0),
                   LLVMBuildInBoundsGEP2(b, fields[3],
                                         LLVMBuildStructGEP2(b, st, p, 3, ""),
                                         ix, 2, ""));
}

/* Stores result value v (of dtype dt) where outs[k] points. */
static void store_out(uf__fn *F, LLVMValueRef outs, int k, uf_dtype dt,
                      LLVMValueRef v)
{
    LLVMBuilderRef b = F->L->b;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    LLVMValueRef ix = LLVMConstInt(LLVMInt64TypeInContext(F->L->ctx),
                                   (unsigned long long)k, 0);
    LLVMValueRef p = LLVMBuildLoad2(
        b, i8p, LLVMBuildInBoundsGEP2(b, i8p, outs, &ix, 1, ""), "out");
    uf__emit_elem_store(F, p, dt, v);
}

/* Stores the elements of tuple v (type t) from outs[*k] on, a nested
 * tuple's depth first (uf__plain_results's order). */
static void store_tuple_out(uf__fn *F, LLVMValueRef outs, int *k,
                            const uf__type *t, LLVMValueRef v)
{
    for (int i = 0; i < t->n; i++) {
        LLVMValueRef e = LLVMBuildExtractValue(F->L->b, v, (unsigned)i, "");
        const uf__type *et = t->elts[i];
        if (et->kind == UF__T_TUPLE)
            store_tuple_out(F, outs, k, et, e);
        else if (et->kind == UF__T_ARRAY)
            store_array_out(F, outs, (*k)++, true, et, e);
        else if (et->kind == UF__T_USTR || et->kind == UF__T_STR)
            store_string_out(F, outs, (*k)++, true, et, e);
        else
            store_out(F, outs, (*k)++, et->dtype, e);
    }
}

static int build_entry(uf__lower *L, const uf__typed_func *tf,
                       const uf_dtype *in, LLVMValueRef callee, bool fallible,
                       const char *name, uf_error *err)
{
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef params[2] = {LLVMPointerType(i8p, 0), LLVMPointerType(i8p, 0)};
    LLVMValueRef fn = LLVMAddFunction(L->mod, name,
                                      LLVMFunctionType(i32, params, 2, 0));
    uf__lower_target_attrs(L, fn);
    uf__fn F;
    uf__fn_begin(&F, L, fn, true, false, err);
    F.tf = tf;
    LLVMValueRef argv[66];
    unsigned na = 0;
    LLVMValueRef out = NULL;
    LLVMTypeRef rty = NULL;
    if (tf->ret->kind != UF__T_NONE) {
        if (!(rty = uf__lower_type(L, tf->ret, err)))
            goto fail;
        if (fallible) {
            out = uf__fn_alloca(&F, rty, "ret");
            argv[na++] = out;
        }
    }
    for (int i = 0; i < tf->nargs; i++)
        argv[na++] = load_arg(&F, LLVMGetParam(fn, 0), i, tf->args[i], in[i]);
    LLVMValueRef r = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(callee),
                                    callee, argv, na, "");
    if (fallible) {
        uf__fn_raise_status(&F, r);
        r = out ? LLVMBuildLoad2(L->b, rty, out, "") : NULL;
    }
    LLVMValueRef outs = LLVMGetParam(fn, 1);
    if (tf->ret->kind == UF__T_USTR || tf->ret->kind == UF__T_STR) {
        store_string_out(&F, outs, 0, false, tf->ret, r);
    } else if (tf->ret->kind == UF__T_ARRAY) {
        store_array_out(&F, outs, 0, false, tf->ret, r);
    } else if (tf->ret->kind == UF__T_SCALAR) {
        store_out(&F, outs, 0, tf->ret->dtype, r);
    } else if (tf->ret->kind == UF__T_TUPLE) {
        int k = 0;
        store_tuple_out(&F, outs, &k, tf->ret, r);
        if (uf__type_holds_array(tf->ret)) {
            LLVMTypeRef fty = LLVMFunctionType(
                LLVMVoidTypeInContext(L->ctx), NULL, 0, 0);
            LLVMBuildCall2(L->b, fty,
                           L->cg->helper(L, UF__NRT_DROP_RETURNED, fty),
                           NULL, 0, "");
        }
    }
    LLVMBuildRet(L->b, LLVMConstNull(i32));
    uf__fn_end(&F);
    return 0;

fail:
    uf__fn_end(&F);
    return err->code;
}

/* The compilation behind uf__jit_plain and uf__jit_plain_obj: with
 * `stem`, the entry is named by it (its name into `symbol`) and the
 * object file returned. */
static int compile(uf__jit *jit, const uf__typed_func *tf,
                   const uf_dtype *in, const char *stem, uf__plain_entry *fn,
                   char *symbol, size_t symcap, uf__jit_listing *listing,
                   char **obj, size_t *objlen, uf_error *err)
{
    const uf__type *res[UF__TUPLE_MAX];
    if (listing)
        listing->llvm_ir = listing->asm_text = NULL;
    if (uf__plain_results(tf->ret, res, UF__TUPLE_MAX) < 0) {
        char buf[128];
        uf__type_str(tf->ret, buf, sizeof buf);
        if (returns_dtype(tf->ret))
            return uf__source_error(err, UF_ERR_UNSUPPORTED, tf->km->src,
                                    tf->decl->def->pos, "'%s' returns %s: "
                                    "a dtype cannot come back through "
                                    "uf_call (Numba boxes it as a NumPy "
                                    "dtype object); return an array of "
                                    "that dtype, or pass the dtype to "
                                    "another kernel of the file",
                                    tf->decl->name, buf);
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "'%s' returns %s: a function called through "
                             "uf_call may return None, a number, an array "
                             "or a tuple of numbers, arrays and such "
                             "tuples (%d values at most)", tf->decl->name,
                             buf, UF__TUPLE_MAX);
    }
    if (tf->nargs > 64)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "'%s': too many arguments", tf->decl->name);
    for (int i = 0; i < tf->nargs; i++)
        if (tf->args[i]->kind != UF__T_SCALAR &&
            tf->args[i]->kind != UF__T_ARRAY &&
            tf->args[i]->kind != UF__T_USTR)
            return uf__error_set(err, UF_ERR_UNSUPPORTED,
                                 "'%s': argument %d must be a number, an "
                                 "array or a string", tf->decl->name, i + 1);
    uf__lower L;
    if (uf__jit_begin(jit, &L, err) != 0)
        return err->code;
    if (stem)
        uf__jit_disk_prefix(jit, &L, stem);
    snprintf(symbol, symcap, "%s_entry", L.prefix);
    bool fallible;
    LLVMValueRef callee = uf__lower_func(&L, tf, &fallible, err);
    if (!callee ||
        build_entry(&L, tf, in, callee, fallible, symbol, err) != 0) {
        uf__jit_abort(&L);
        return err->code;
    }
    const char *names[1] = {symbol};
    void *addr = NULL;
    int rc = stem ? uf__jit_finish_obj(jit, &L, names, &addr, 1, obj, objlen,
                                       err)
                  : uf__jit_finish(jit, &L, names, &addr, 1, listing, err);
    if (rc != 0)
        return err->code;
    *fn = (uf__plain_entry)(uintptr_t)addr;
    return 0;
}

int uf__jit_plain(uf__jit *jit, const uf__typed_func *tf, const uf_dtype *in,
                  uf__plain_entry *fn, uf__jit_listing *listing,
                  uf_error *err)
{
    char name[64];
    return compile(jit, tf, in, NULL, fn, name, sizeof name, listing, NULL,
                   NULL, err);
}

int uf__jit_plain_obj(uf__jit *jit, const uf__typed_func *tf,
                      const uf_dtype *in, const char *stem,
                      uf__plain_entry *fn, char *symbol, size_t symcap,
                      char **obj, size_t *objlen, uf_error *err)
{
    *obj = NULL;
    return compile(jit, tf, in, stem, fn, symbol, symcap, NULL, obj, objlen,
                   err);
}
