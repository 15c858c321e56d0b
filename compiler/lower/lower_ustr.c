/* Run-time strings (Numba's unicode_type, typed by types/infer_ustr.c): a
 * string value is an i8* to a common/ustr.h uf__ustr {len, hash, code
 * points}. A literal taken as a run-time string is a private constant of
 * the module with that layout (no allocation); a string made at run time
 * (+, *, s[i], s[a:b], str(n), chr) is an NRT block of the frame, kept
 * and freed by the frame/sweep model like an array's (uf__type_holds_
 * array counts a string). len and ord read the header inline; the rest
 * call common/ustr.c. Numba's IndexError / ValueError / TypeError are
 * statuses; out of memory is UF__JIT_NOMEM. Host targets only, refused in
 * a prange body run in parallel (each iteration would allocate into the
 * frame every thread shares). */
#include "common/ustr.h"
#include "common/alloc.h"
#include "compiler/front/source.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_stmt.h"

#define B (F->L->b)

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

static LLVMValueRef call(uf__fn *F, const char *name, LLVMTypeRef ret,
                         LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[12]; /* n <= 12 */
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

/* A new string from helper `name` (the frame first, then args); out of
 * memory raises. */
static LLVMValueRef make(uf__fn *F, const char *name, LLVMValueRef *args,
                         unsigned n)
{
    LLVMValueRef all[8] = {frame(F)};
    for (unsigned i = 0; i < n; i++)
        all[i + 1] = args[i];
    LLVMValueRef s = call(F, name, i8p_t(F), all, n + 1);
    uf__fn_raise_if(F, LLVMBuildIsNull(B, s, ""), UF__JIT_NOMEM);
    return s;
}

/* Decodes one UTF-8 sequence at s (the kernel's source is valid UTF-8):
 * the code point, *k advanced past it. */
static uint32_t utf8_next(const unsigned char *s, size_t n, size_t *k)
{
    unsigned c = s[*k];
    int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    uint32_t v = more == 0 ? c : c & (0x3F >> more);
    (*k)++;
    for (int i = 0; i < more && *k < n; i++, (*k)++)
        v = (v << 6) | (s[*k] & 0x3F);
    return v;
}

LLVMValueRef uf__lower_ustr_literal(uf__fn *F, const char *s, size_t n)
{
    LLVMValueRef stack[64];
    LLVMValueRef *cps = n <= 64 ? stack
                                : uf__calloc(n, sizeof *cps, F->err);
    if (cps == NULL)
        return NULL;
    int64_t len = 0;
    for (size_t k = 0; k < n;)
        cps[len++] = LLVMConstInt(i32_t(F), utf8_next((const unsigned char *)
                                                          s, n, &k), 0);
    LLVMValueRef fields[3] = {c64(F, len), c64(F, -1),
                              LLVMConstArray(i32_t(F), cps, (unsigned)len)};
    if (cps != stack)
        uf__free(cps);
    LLVMValueRef init = LLVMConstStructInContext(F->L->ctx, fields, 3, 0);
    LLVMValueRef g = LLVMAddGlobal(F->L->mod, LLVMTypeOf(init), "ustr.lit");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    LLVMSetAlignment(g, 8);
    return LLVMConstPointerCast(g, i8p_t(F));
}

LLVMValueRef uf__lower_ustr_operand(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    const uf__type *t = in->type;
    if (t != NULL && t->kind == UF__T_STR) {
        if (in->callee != NULL && !uf__lower_expr(F, e))
            return NULL; /* a kernel's call: its effects happen */
        return uf__lower_ustr_literal(F, t->name, (size_t)t->n);
    }
    return uf__lower_expr(F, e);
}

LLVMValueRef uf__emit_ustr_len(uf__fn *F, LLVMValueRef s)
{
    return LLVMBuildLoad2(B, i64_t(F),
                          LLVMBuildPointerCast(B, s,
                                               LLVMPointerType(i64_t(F), 0),
                                               ""),
                          "ustr.len");
}

/* Code point k (i64, in range) of s, as an i32. */
static LLVMValueRef code_point(uf__fn *F, LLVMValueRef s, LLVMValueRef k)
{
    LLVMValueRef off = c64(F, UF__USTR_CP_OFFSET);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), s, &off, 1, "");
    p = LLVMBuildPointerCast(B, p, LLVMPointerType(i32_t(F), 0), "");
    return LLVMBuildLoad2(B, i32_t(F),
                          LLVMBuildInBoundsGEP2(B, i32_t(F), p, &k, 1, ""),
                          "ustr.cp");
}

LLVMValueRef uf__lower_ustr_char_at(uf__fn *F, LLVMValueRef s,
                                    LLVMValueRef k)
{
    LLVMValueRef c = LLVMBuildZExt(B, code_point(F, s, k), i64_t(F), "");
    return make(F, UF__USTR_CHAR, &c, 1);
}

/* An integer operand (index, bound, count) as an i64. */
static LLVMValueRef int_operand(uf__fn *F, const uf__expr *x)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return NULL;
    return uf__emit_cast(F, v, uf__lower_info(F, x)->type->dtype, UF_INT64);
}

static bool is_string_expr(uf__fn *F, const uf__expr *x)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    return t && (t->kind == UF__T_STR || t->kind == UF__T_USTR);
}

static LLVMValueRef repeat(uf__fn *F, const uf__expr *a, const uf__expr *b)
{
    if (!is_string_expr(F, a)) { /* n * s */
        const uf__expr *t = a;
        a = b, b = t;
    }
    LLVMValueRef args[2] = {uf__lower_ustr_operand(F, a), NULL};
    if (!args[0] || !(args[1] = int_operand(F, b)))
        return NULL;
    return make(F, UF__USTR_REPEAT, args, 2);
}

/* s in (t, u, ...): == with each item, as Numba's tuple contains. */
static LLVMValueRef in_tuple(uf__fn *F, const uf__expr *e, LLVMValueRef a)
{
    const uf__expr *tx = e->u.compare.operands[1];
    const uf__type *tt = uf__lower_info(F, tx)->type;
    LLVMValueRef tv = uf__lower_expr(F, tx);
    if (!tv)
        return NULL;
    LLVMValueRef any = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    for (int k = 0; k < tt->n; k++) {
        const uf__type *et = tt->elts[k];
        LLVMValueRef item =
            et->kind == UF__T_STR
                ? uf__lower_ustr_literal(F, et->name, (size_t)et->n)
                : LLVMBuildExtractValue(B, tv, (unsigned)k, "");
        if (!item)
            return NULL;
        LLVMValueRef args[2] = {a, item};
        LLVMValueRef c = call(F, UF__USTR_CMP, i32_t(F), args, 2);
        any = LLVMBuildOr(B, any,
                          LLVMBuildICmp(B, LLVMIntEQ, c,
                                        LLVMConstNull(i32_t(F)), ""),
                          "");
    }
    return e->u.compare.ops[0] == UF__CMP_IN ? any : LLVMBuildNot(B, any, "");
}

static LLVMValueRef compare(uf__fn *F, const uf__expr *e, bool contains)
{
    const uf__type *bt = uf__lower_info(F, e->u.compare.operands[1])->type;
    if (contains && bt->kind == UF__T_TUPLE) {
        LLVMValueRef s = uf__lower_ustr_operand(F, e->u.compare.operands[0]);
        return s ? in_tuple(F, e, s) : NULL;
    }
    LLVMValueRef a = uf__lower_ustr_operand(F, e->u.compare.operands[0]);
    LLVMValueRef b = a ? uf__lower_ustr_operand(F, e->u.compare.operands[1])
                       : NULL;
    if (!b)
        return NULL;
    uf__cmpop op = e->u.compare.ops[0];
    if (contains) { /* a in b: b's first match of a */
        LLVMValueRef args[2] = {b, a};
        LLVMValueRef at = call(F, UF__USTR_FIND, i64_t(F), args, 2);
        return LLVMBuildICmp(B, op == UF__CMP_IN ? LLVMIntSGE : LLVMIntSLT,
                             at, c64(F, 0), "");
    }
    LLVMValueRef args[2] = {a, b};
    LLVMValueRef c = call(F, UF__USTR_CMP, i32_t(F), args, 2);
    LLVMIntPredicate p = op == UF__CMP_EQ   ? LLVMIntEQ
                         : op == UF__CMP_NE ? LLVMIntNE
                         : op == UF__CMP_LT ? LLVMIntSLT
                         : op == UF__CMP_LE ? LLVMIntSLE
                         : op == UF__CMP_GT ? LLVMIntSGT
                                            : LLVMIntSGE;
    return LLVMBuildICmp(B, p, c, LLVMConstNull(i32_t(F)), "");
}

/* s[i]: Python's negative indices, IndexError past either end. */
static LLVMValueRef get_item(uf__fn *F, const uf__expr *e)
{
    LLVMValueRef s = uf__lower_ustr_operand(F, e->u.subscript.value);
    LLVMValueRef i = s ? int_operand(F, e->u.subscript.index[0]) : NULL;
    if (!i)
        return NULL;
    LLVMValueRef n = uf__emit_ustr_len(F, s);
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, i, c64(F, 0), "");
    i = LLVMBuildSelect(B, neg, LLVMBuildAdd(B, i, n, ""), i, "");
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntUGE, i, n, ""),
                    UF__JIT_USTR_INDEX);
    return uf__lower_ustr_char_at(F, s, i);
}

/* s[a:b:c]: None bounds as flags; a zero step is Numba's ValueError. */
static LLVMValueRef slice(uf__fn *F, const uf__expr *e)
{
    LLVMValueRef s = uf__lower_ustr_operand(F, e->u.subscript.value);
    if (!s)
        return NULL;
    const uf__expr *x = e->u.subscript.index[0];
    const uf__expr *part[3] = {x->u.slice.lower, x->u.slice.upper,
                               x->u.slice.step};
    LLVMValueRef args[5] = {s};
    int none = 0;
    for (int k = 0; k < 3; k++) {
        if (part[k] == NULL || part[k]->kind == UF__EX_NONE) {
            none |= 1 << k;
            args[k + 1] = c64(F, 0);
        } else if (!(args[k + 1] = int_operand(F, part[k]))) {
            return NULL;
        }
    }
    if (!(none & 4))
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, args[3], c64(F, 0),
                                         ""),
                        UF__JIT_USTR_STEP);
    args[4] = LLVMConstInt(i32_t(F), (unsigned)none, 0);
    return make(F, UF__USTR_SLICE, args, 5);
}

/* str(x) of an integer, a bool or a string. */
static LLVMValueRef to_str(uf__fn *F, const uf__expr *x)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    if (t->kind == UF__T_STR || t->kind == UF__T_USTR)
        return uf__lower_ustr_operand(F, x);
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return NULL;
    if (t->dtype == UF_BOOL) {
        LLVMValueRef yes = uf__lower_ustr_literal(F, "True", 4);
        LLVMValueRef no = uf__lower_ustr_literal(F, "False", 5);
        return yes && no ? LLVMBuildSelect(B, v, yes, no, "") : NULL;
    }
    bool u = uf_dtype_kind(t->dtype) == 'u';
    LLVMValueRef args[2] = {
        uf__emit_cast(F, v, t->dtype, u ? UF_UINT64 : UF_INT64),
        LLVMConstInt(i32_t(F), u, 0)};
    return make(F, UF__USTR_FROM_INT, args, 2);
}

static LLVMValueRef ord(uf__fn *F, const uf__expr *x)
{
    LLVMValueRef s = uf__lower_ustr_operand(F, x);
    if (!s)
        return NULL;
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, uf__emit_ustr_len(F, s),
                                     c64(F, 1), ""),
                    UF__JIT_USTR_ORD);
    return LLVMBuildZExt(B, code_point(F, s, c64(F, 0)), i64_t(F), "");
}

static LLVMValueRef chr(uf__fn *F, const uf__expr *x)
{
    LLVMValueRef c = int_operand(F, x);
    if (!c)
        return NULL;
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntUGT, c, c64(F, 0x10FFFF), ""),
                    UF__JIT_USTR_CHR);
    return make(F, UF__USTR_CHAR, &c, 1);
}

/* s.upper() ... (common/ustr_meth.c): string arguments in the a, b
 * slots (None: NULL), integers in i, j, in the order written; the
 * helper's code raised as Numba's exception. */
static LLVMValueRef method(uf__fn *F, const uf__expr *e, uf__builtin b)
{
    LLVMValueRef s = uf__lower_ustr_operand(F, e->u.call.func->u.attr.value);
    if (!s)
        return NULL;
    LLVMValueRef str[2] = {LLVMConstNull(i8p_t(F)), LLVMConstNull(i8p_t(F))};
    LLVMValueRef num[2] = {c64(F, 0), c64(F, 0)};
    int ns = 0, ni = 0;
    for (int k = 0; k < e->u.call.nargs; k++) {
        const uf__expr *x = e->u.call.args[k];
        const uf__type *t = uf__lower_info(F, x)->type;
        if (t->kind == UF__T_NONE) {
            ns++;
        } else if (t->kind == UF__T_STR || t->kind == UF__T_USTR) {
            if (!(str[ns++] = uf__lower_ustr_operand(F, x)))
                return NULL;
        } else if (!(num[ni++] = int_operand(F, x))) {
            return NULL;
        }
    }
    LLVMValueRef out = uf__fn_alloca(F, i64_t(F), "ustr.out");
    LLVMValueRef args[9] = {
        frame(F), LLVMConstInt(i32_t(F), (unsigned)(b - UF__BI_USTR_UPPER), 0),
        s, str[0], str[1], num[0], num[1],
        LLVMConstInt(i32_t(F), (1u << ni) - 1, 0), out};
    LLVMValueRef rc = call(F, UF__USTR_METH, i32_t(F), args, 9);
    static const int status[][2] = {
        {UF__USTR_NOMEM, UF__JIT_NOMEM},
        {UF__USTR_NOTFOUND, UF__JIT_USTR_NOTFOUND},
        {UF__USTR_FILL, UF__JIT_USTR_FILL}};
    for (int k = 0; k < 3; k++)
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, rc,
                                         LLVMConstInt(i32_t(F),
                                                      (unsigned)status[k][0],
                                                      0),
                                         ""),
                        status[k][1]);
    LLVMValueRef v = LLVMBuildLoad2(B, i64_t(F), out, "");
    const uf__type *rt = uf__lower_info(F, e)->type;
    if (rt->kind == UF__T_USTR)
        return LLVMBuildIntToPtr(B, v, i8p_t(F), "");
    if (rt->dtype == UF_BOOL)
        return LLVMBuildICmp(B, LLVMIntNE, v, c64(F, 0), "");
    if (rt->dtype == UF_UINT32) /* isascii */
        return LLVMBuildTrunc(B, v, i32_t(F), "");
    return v;
}

/* The helper's status: out of memory and an empty separator raise. */
static void raise_parts(uf__fn *F, LLVMValueRef rc)
{
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, rc,
                                     LLVMConstInt(i32_t(F), UF__USTR_NOMEM,
                                                  0), ""),
                    UF__JIT_NOMEM);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, rc,
                                     LLVMConstInt(i32_t(F),
                                                  UF__USTR_EMPTYSEP, 0),
                                     ""),
                    UF__JIT_USTR_EMPTYSEP);
}

/* s.splitlines(keepends) (a list), s.partition(sep) / rpartition (a
 * tuple of three strings) (common/ustr_parts.c). */
static LLVMValueRef parts(uf__fn *F, const uf__expr *e, uf__builtin b,
                          LLVMValueRef s)
{
    const uf__expr *const *x = (const uf__expr *const *)e->u.call.args;
    if (b == UF__BI_USTR_SPLITLINES) {
        LLVMValueRef keep = c64(F, 0);
        if (e->u.call.nargs > 0 && !(keep = int_operand(F, x[0])))
            return NULL;
        LLVMValueRef out = uf__fn_alloca(F, i8p_t(F), "ustr.list");
        LLVMValueRef args[4] = {frame(F), s, keep, out};
        raise_parts(F, call(F, UF__USTR_SPLITLINES, i32_t(F), args, 4));
        return LLVMBuildLoad2(B, i8p_t(F), out, "");
    }
    LLVMValueRef sep = uf__lower_ustr_operand(F, x[0]);
    const uf__type *rt = uf__lower_info(F, e)->type;
    LLVMTypeRef ty = sep ? uf__lower_type(F->L, rt, F->err) : NULL;
    if (!ty)
        return NULL;
    LLVMTypeRef arr = LLVMArrayType(i8p_t(F), 3);
    LLVMValueRef out = uf__fn_alloca(F, arr, "ustr.parts");
    LLVMValueRef args[5] = {
        frame(F), s, sep,
        LLVMConstInt(i32_t(F), b == UF__BI_USTR_RPARTITION, 0),
        LLVMBuildPointerCast(B, out, LLVMPointerType(i8p_t(F), 0), "")};
    raise_parts(F, call(F, UF__USTR_PARTITION, i32_t(F), args, 5));
    LLVMValueRef r = LLVMGetUndef(ty);
    for (unsigned k = 0; k < 3; k++) {
        LLVMValueRef idx[2] = {LLVMConstInt(i32_t(F), 0, 0),
                               LLVMConstInt(i32_t(F), k, 0)};
        LLVMValueRef at = LLVMBuildInBoundsGEP2(B, arr, out, idx, 2, "");
        r = LLVMBuildInsertValue(B, r, LLVMBuildLoad2(B, i8p_t(F), at, ""),
                                 k, "");
    }
    return r;
}

/* sep.join(l), s.split(sep, maxsplit), s.rsplit(...) (common/ustr_meth.c,
 * ustr_parts.c); the others of parts(). */
static LLVMValueRef join_split(uf__fn *F, const uf__expr *e, uf__builtin b)
{
    LLVMValueRef s = uf__lower_ustr_operand(F, e->u.call.func->u.attr.value);
    if (!s)
        return NULL;
    if (b != UF__BI_USTR_JOIN && b != UF__BI_USTR_SPLIT &&
        b != UF__BI_USTR_RSPLIT)
        return parts(F, e, b, s);
    if (b == UF__BI_USTR_JOIN) {
        LLVMValueRef args[2] = {s, uf__lower_expr(F, e->u.call.args[0])};
        return args[1] ? make(F, UF__USTR_JOIN, args, 2) : NULL;
    }
    LLVMValueRef sep = LLVMConstNull(i8p_t(F)), most = c64(F, -1);
    const uf__expr *const *x = (const uf__expr *const *)e->u.call.args;
    if (e->u.call.nargs > 0 &&
        uf__lower_info(F, x[0])->type->kind != UF__T_NONE &&
        !(sep = uf__lower_ustr_operand(F, x[0])))
        return NULL;
    if (e->u.call.nargs > 1 && !(most = int_operand(F, x[1])))
        return NULL;
    LLVMValueRef out = uf__fn_alloca(F, i8p_t(F), "ustr.list");
    LLVMValueRef args[5] = {frame(F), s, sep, most, out};
    raise_parts(F, call(F, b == UF__BI_USTR_SPLIT ? UF__USTR_SPLIT
                                                  : UF__USTR_RSPLIT,
                        i32_t(F), args, 5));
    return LLVMBuildLoad2(B, i8p_t(F), out, "");
}

/* Strings are made on the host only, and not where threads share the
 * frame: NULL with the error, else 0. */
static int refuse_here(uf__fn *F, const uf__expr *e)
{
    if (F->L->cg->sreg != NULL)
        return uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src,
                                e->pos, "%s", "strings made at run time are "
                                "not supported in CUDA kernels");
    if (F->in_prange)
        return uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src,
                                e->pos, "%s", "strings cannot be made in a "
                                "prange body run in parallel (each "
                                "iteration would allocate into the frame the "
                                "threads share): make them outside the "
                                "prange loop");
    return 0;
}

LLVMValueRef uf__lower_ustr(uf__fn *F, const uf__expr *e)
{
    uf__builtin b = uf__lower_info(F, e)->builtin;
    const uf__type *rt = uf__lower_info(F, e)->type;
    if (rt && (rt->kind == UF__T_USTR || rt->kind == UF__T_LIST ||
               rt->kind == UF__T_TUPLE) &&
        refuse_here(F, e) != 0)
        return NULL; /* it makes a string */
    if (uf__builtin_is_ustr_meth(b))
        return method(F, e, b);
    if (b >= UF__BI_USTR_JOIN && b <= UF__BI_USTR_RPARTITION)
        return join_split(F, e, b);
    const uf__expr *arg = e->kind == UF__EX_CALL && e->u.call.nargs > 0
                              ? e->u.call.args[0]
                              : NULL;
    switch (b) {
    case UF__BI_USTR_CONCAT: {
        LLVMValueRef args[2] = {uf__lower_ustr_operand(F, e->u.binary.left),
                                NULL};
        if (!args[0] ||
            !(args[1] = uf__lower_ustr_operand(F, e->u.binary.right)))
            return NULL;
        return make(F, UF__USTR_CONCAT, args, 2);
    }
    case UF__BI_USTR_REPEAT:
        return repeat(F, e->u.binary.left, e->u.binary.right);
    case UF__BI_USTR_CMP:
    case UF__BI_USTR_IN:
        return compare(F, e, b == UF__BI_USTR_IN);
    case UF__BI_USTR_INDEX:
        return get_item(F, e);
    case UF__BI_USTR_SLICE:
        return slice(F, e);
    case UF__BI_USTR_LEN: {
        LLVMValueRef s = uf__lower_ustr_operand(F, arg);
        return s ? uf__emit_ustr_len(F, s) : NULL;
    }
    case UF__BI_USTR_NOT: {
        LLVMValueRef s = uf__lower_ustr_operand(F, e->u.unary.operand);
        return s ? LLVMBuildICmp(B, LLVMIntEQ, uf__emit_ustr_len(F, s),
                                 c64(F, 0), "")
                 : NULL;
    }
    case UF__BI_USTR_STR:
        return to_str(F, arg);
    case UF__BI_USTR_ORD:
        return ord(F, arg);
    case UF__BI_USTR_CHR:
        return chr(F, arg);
    default:
        uf__lower_unsupported(F, e->pos, "this string operation");
        return NULL;
    }
}

int uf__lower_ustr_augassign(uf__fn *F, const uf__stmt *s, LLVMValueRef var)
{
    const uf__expr *v = s->u.augassign.value;
    if (refuse_here(F, v) != 0)
        return F->err->code;
    LLVMValueRef args[2] = {LLVMBuildLoad2(B, i8p_t(F), var, ""), NULL};
    bool cat = s->u.augassign.op == UF__OP_ADD;
    args[1] = cat ? uf__lower_ustr_operand(F, v) : int_operand(F, v);
    if (!args[1])
        return F->err->code;
    LLVMBuildStore(B, make(F, cat ? UF__USTR_CONCAT : UF__USTR_REPEAT, args,
                           2),
                   var);
    return 0;
}

bool uf__ustr_fallible(const uf__typed_func *tf, const uf__expr *e)
{
    uf__builtin b = uf__tf_info(tf, e)->builtin;
    return uf__builtin_is_ustr(b) && b != UF__BI_USTR_LEN &&
           b != UF__BI_USTR_NOT && b != UF__BI_USTR_CMP &&
           b != UF__BI_USTR_IN;
}

LLVMValueRef uf__lower_ustr_tuple(uf__fn *F, LLVMValueRef tv,
                                  const uf__type **tt)
{
    const uf__type *t = *tt;
    const uf__type *u = uf__type_ustr(F->tf->km->tc);
    bool strings = t->n > 0, same = true;
    for (int k = 0; k < t->n; k++) {
        strings = strings && (t->elts[k]->kind == UF__T_STR ||
                              t->elts[k] == u);
        same = same && t->elts[k] == u;
    }
    if (!strings || same)
        return tv;
    const uf__type *elts[UF__TUPLE_MAX];
    for (int k = 0; k < t->n; k++)
        elts[k] = u;
    const uf__type *uni = uf__type_tuple(F->tf->km->tc, t->n, elts, F->err);
    LLVMTypeRef ty = uni ? uf__lower_type(F->L, uni, F->err) : NULL;
    if (!ty)
        return NULL;
    LLVMValueRef r = LLVMGetUndef(ty);
    for (int k = 0; k < t->n; k++) {
        const uf__type *et = t->elts[k];
        LLVMValueRef v = et->kind == UF__T_STR
                             ? uf__lower_ustr_literal(F, et->name,
                                                      (size_t)et->n)
                             : LLVMBuildExtractValue(B, tv, (unsigned)k, "");
        if (!v)
            return NULL;
        r = LLVMBuildInsertValue(B, r, v, (unsigned)k, "");
    }
    *tt = uni;
    return r;
}
