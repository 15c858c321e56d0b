/* Lowering of typed functions: one LLVM function per specialisation, locals
 * as entry-block allocas (SROA/mem2reg promote them), statements with
 * Python's semantics (tuple unpacking; the loops, for/else and while/else
 * are lower_stmt_loop.c's). */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/host/llvm_fastmath.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_arraycall.h"
#include "compiler/lower/lower_stmt.h"
#include "compiler/types/index_kinds.h"
#include "compiler/types/infer_arrexpr.h"

#define B (F->L->b)

/* ---- types ------------------------------------------------------------ */

LLVMTypeRef uf__lower_dtype(uf__lower *L, uf_dtype dt)
{
    switch (dt) {
    case UF_BOOL:
        return LLVMInt1TypeInContext(L->ctx);
    case UF_FLOAT32:
        return LLVMFloatTypeInContext(L->ctx);
    case UF_FLOAT64:
        return LLVMDoubleTypeInContext(L->ctx);
    case UF_COMPLEX64:
    case UF_COMPLEX128: {
        LLVMTypeRef p = uf__lower_dtype(L, uf__dtype_part(dt));
        LLVMTypeRef parts[2] = {p, p};
        return LLVMStructTypeInContext(L->ctx, parts, 2, 0);
    }
    default:
        return LLVMIntTypeInContext(L->ctx,
                                    (unsigned)uf_dtype_itemsize(dt) * 8);
    }
}

LLVMTypeRef uf__lower_mem_dtype(uf__lower *L, uf_dtype dt)
{
    return dt == UF_BOOL ? LLVMInt8TypeInContext(L->ctx)
                         : uf__lower_dtype(L, dt);
}

LLVMTypeRef uf__lower_type(uf__lower *L, const uf__type *t, uf_error *err)
{
    switch (t->kind) {
    case UF__T_SCALAR:
        return uf__lower_dtype(L, t->dtype);
    case UF__T_NONE:
        return LLVMVoidTypeInContext(L->ctx);
    case UF__T_TUPLE: {
        LLVMTypeRef elts[64];
        if (t->n > 64)
            break;
        for (int i = 0; i < t->n; i++) {
            if (t->elts[i]->kind == UF__T_NONE)
                goto bad;
            if (!(elts[i] = uf__lower_type(L, t->elts[i], err)))
                return NULL;
        }
        return LLVMStructTypeInContext(L->ctx, elts, (unsigned)t->n, 0);
    }
    case UF__T_ARRAY:
        return uf__lower_array_type(L, t->ndim);
    case UF__T_USTR: /* a string's uf__ustr (lower_ustr.c) */
    case UF__T_LIST: /* its header (lower_list.c) */
    case UF__T_DICT: /* its header (lower_dict.c) */
    case UF__T_SET:  /* the same (lower_set.c) */
        return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    case UF__T_DTYPE: /* known at compile time: nothing reads it */
    case UF__T_STR:   /* the same (lower_str.c) */
        return LLVMInt8TypeInContext(L->ctx);
    case UF__T_FUNCTION: /* float, int ... held as values: the same */
        if (uf__type_is_pyclass(t))
            return LLVMInt8TypeInContext(L->ctx);
        break;
    default:
        break;
    }
bad:;
    char buf[96];
    uf__type_str(t, buf, sizeof buf);
    uf__error_set(err, UF_ERR_UNSUPPORTED,
                  "values of type %s are not supported by the CPU lowering "
                  "yet",
                  buf);
    return NULL;
}

bool uf__lower_terminated(uf__fn *F)
{
    return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(B)) != NULL;
}

/* Code after return/break/continue goes to a block nobody jumps to. */
static void reopen(uf__fn *F)
{
    if (uf__lower_terminated(F))
        LLVMPositionBuilderAtEnd(B, uf__fn_block(F, "dead"));
}

int uf__lower_unsupported(uf__fn *F, uf__pos pos, const char *what)
{
    return uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, pos,
                            "%s is not supported by the CPU lowering", what);
}

/* ---- statements ------------------------------------------------------- */

static int lower_block(uf__fn *F, const uf__block *b);

int uf__lower_find_var(uf__fn *F, const char *name)
{
    for (int i = 0; i < F->tf->nvars; i++)
        if (strcmp(F->tf->vars[i].name, name) == 0)
            return i;
    return -1;
}

static int store_var(uf__fn *F, const uf__expr *target, LLVMValueRef v,
                     const uf__type *vt)
{
    int idx = uf__lower_find_var(F, target->u.name.id);
    if (idx < 0 || !F->vars[idx])
        return uf__lower_unsupported(F, target->pos, "assigning this variable");
    LLVMValueRef c = uf__emit_convert(F, v, vt, F->tf->vars[idx].type);
    if (!c)
        return F->err->code;
    LLVMBuildStore(B, c, F->vars[idx]);
    return 0;
}

/* a = v, (a, b) = v, (a, (b, c)) = v */
static int assign_to(uf__fn *F, const uf__expr *t, LLVMValueRef v,
                     const uf__type *vt)
{
    switch (t->kind) {
    case UF__EX_NAME:
        return store_var(F, t, v, vt);
    case UF__EX_TUPLE:
    case UF__EX_LIST:
        if (vt->kind != UF__T_TUPLE || vt->n != t->u.seq.n)
            return uf__lower_unsupported(F, t->pos, "this unpacking");
        for (int i = 0; i < t->u.seq.n; i++) {
            LLVMValueRef e = LLVMBuildExtractValue(B, v, (unsigned)i, "");
            int rc = assign_to(F, t->u.seq.elts[i], e, vt->elts[i]);
            if (rc != 0)
                return rc;
        }
        return 0;
    case UF__EX_SUBSCRIPT: {
        const uf__type *bt = uf__lower_info(F, t->u.subscript.value)->type;
        if (bt && bt->kind == UF__T_LIST) /* lower_list.c */
            return uf__lower_list_store(F, t, v, vt);
        if (bt && bt->kind == UF__T_DICT) /* lower_dict.c */
            return uf__lower_dict_store(F, t, v, vt);
        return uf__lower_index_store(F, t, v, vt);
    }
    default:
        return uf__lower_unsupported(F, t->pos, "this assignment target");
    }
}

/* The array an assignment or augmented assignment stores into with an
 * array expression (infer_arrexpr.c), or NULL when it does not. */
static const uf__type *arrexpr_target(uf__fn *F, const uf__expr *t,
                                      const uf__expr *value, bool aug)
{
    const uf__type *tt = uf__lower_info(F, t)->type;
    if (!tt || tt->kind != UF__T_ARRAY)
        return NULL;
    if (aug)
        return t->kind == UF__EX_NAME || t->kind == UF__EX_SUBSCRIPT ? tt
                                                                     : NULL;
    if (t->kind == UF__EX_SUBSCRIPT && uf__subscript_is_fancy(F->tf, t))
        return NULL; /* a[idx] = x * w: a new array, then stored */
    return t->kind == UF__EX_SUBSCRIPT && uf__is_arrexpr(F->tf, value) ? tt
                                                                        : NULL;
}

static int lower_assign(uf__fn *F, const uf__stmt *s)
{
    const uf__type *at;
    const uf__expr *ve = s->u.assign.value;
    if (uf__is_inplace_array_op(F->tf, ve)) { /* a += v on a name */
        at = uf__lower_info(F, ve->u.binary.left)->type;
        LLVMValueRef a = uf__lower_expr(F, ve->u.binary.left);
        if (!a)
            return F->err->code;
        int rc = uf__lower_arrexpr_into(F, s->pos, a, at, ve->u.binary.right,
                                        (int)ve->u.binary.op);
        for (int i = 0; rc == 0 && i < s->u.assign.ntargets; i++)
            rc = assign_to(F, s->u.assign.targets[i], a, at);
        return rc;
    }
    if (s->u.assign.ntargets == 1 &&
        (at = arrexpr_target(F, s->u.assign.targets[0], s->u.assign.value,
                             false))) { /* out[:] = x * w + b */
        LLVMValueRef dst = uf__lower_expr(F, s->u.assign.targets[0]);
        if (!dst)
            return F->err->code;
        return uf__lower_arrexpr_into(F, s->pos, dst, at, s->u.assign.value,
                                      -1);
    }
    LLVMValueRef v = uf__lower_expr(F, s->u.assign.value);
    if (!v)
        return F->err->code;
    const uf__type *vt = uf__lower_info(F, s->u.assign.value)->type;
    for (int i = 0; i < s->u.assign.ntargets; i++) {
        int rc = assign_to(F, s->u.assign.targets[i], v, vt);
        if (rc != 0)
            return rc;
    }
    return 0;
}

LLVMValueRef uf__lower_augop(uf__fn *F, const uf__stmt *s, LLVMValueRef x,
                             const uf__type *xt)
{
    const uf__expr *ve = s->u.augassign.value;
    const uf__type *vt = uf__lower_info(F, ve)->type;
    const uf__type *optype = NULL;
    const uf__type *rt = NULL;
    if (xt && xt->kind == UF__T_SCALAR && vt && vt->kind == UF__T_SCALAR)
        rt = uf__type_binop(F->tf->km->tc, s->u.augassign.op, xt, vt,
                            &optype);
    if (!rt || !optype) {
        uf__lower_unsupported(F, s->pos, "this augmented assignment");
        return NULL;
    }
    LLVMValueRef v = uf__lower_expr(F, ve);
    if (!v)
        return NULL;
    LLVMValueRef r;
    uf_dtype od = optype->dtype, rd = rt->dtype;
    if (s->u.augassign.op == UF__OP_POW && uf__dtype_is_int(vt->dtype) &&
        !uf__dtype_is_int(od)) {
        r = uf__emit_pow_int(F, od, uf__emit_cast(F, x, xt->dtype, od),
                             vt->dtype, v);
        rd = od;
    } else {
        r = uf__emit_binop(F, s->u.augassign.op, od,
                           uf__emit_cast(F, x, xt->dtype, od),
                           uf__emit_cast(F, v, vt->dtype, od));
        if (!r)
            return NULL;
        if (s->u.augassign.op == UF__OP_DIV && !uf__dtype_is_float(od) &&
            !uf__dtype_is_complex(od))
            rd = UF_FLOAT64;
        else if (od == UF_BOOL && s->u.augassign.op != UF__OP_BITAND &&
                 s->u.augassign.op != UF__OP_BITOR &&
                 s->u.augassign.op != UF__OP_BITXOR)
            rd = UF_INT64;
        else
            rd = od;
    }
    return uf__emit_cast(F, r, rd, xt->dtype);
}

/* x op= v: Numba types it as x = x op v with the operator's template;
 * a[i] op= v reads and writes the element once (lower_index.c). */
static int lower_augassign(uf__fn *F, const uf__stmt *s)
{
    const uf__expr *t = s->u.augassign.target;
    const uf__type *at = arrexpr_target(F, t, s->u.augassign.value, true);
    if (at && t->kind == UF__EX_SUBSCRIPT && uf__subscript_is_fancy(F->tf, t))
        return uf__lower_fancy_augassign(F, s, at); /* a[idx] += v */
    if (at) { /* a += v, a[1:] += a[:-1] */
        LLVMValueRef dst = uf__lower_expr(F, t);
        if (!dst)
            return F->err->code;
        return uf__lower_arrexpr_into(F, s->pos, dst, at,
                                      s->u.augassign.value,
                                      (int)s->u.augassign.op);
    }
    if (t->kind == UF__EX_SUBSCRIPT &&
        uf__lower_info(F, t->u.subscript.value)->type->kind == UF__T_DICT)
        return uf__lower_dict_augassign(F, s); /* lower_dict.c */
    if (t->kind == UF__EX_SUBSCRIPT)
        return uf__lower_index_augassign(F, s);
    if (t->kind != UF__EX_NAME)
        return uf__lower_unsupported(F, t->pos, "augmented assignment to this target");
    int idx = uf__lower_find_var(F, t->u.name.id);
    if (idx < 0 || !F->vars[idx])
        return uf__lower_unsupported(F, t->pos, "assigning this variable");
    const uf__type *xt = F->tf->vars[idx].type;
    if (xt->kind == UF__T_SET) /* s |= t ...: lower_set.c */
        return uf__lower_set_augassign(F, s, idx);
    if (xt->kind == UF__T_LIST) /* l += m, l *= n: lower_list_ops.c */
        return uf__lower_list_augassign(F, s);
    if (xt->kind == UF__T_USTR) /* s += t, s *= n: lower_ustr.c */
        return uf__lower_ustr_augassign(F, s, F->vars[idx]);
    if (xt->kind != UF__T_SCALAR)
        return uf__lower_unsupported(F, s->pos, "this augmented assignment");
    LLVMValueRef x = LLVMBuildLoad2(B, uf__lower_dtype(F->L, xt->dtype),
                                    F->vars[idx], "");
    LLVMValueRef r = uf__lower_augop(F, s, x, xt);
    if (!r)
        return F->err->code;
    LLVMBuildStore(B, r, F->vars[idx]);
    return 0;
}

static int lower_return(uf__fn *F, const uf__stmt *s)
{
    const uf__type *ret = F->tf->ret;
    const uf__expr *e = s->u.ret.value;
    LLVMValueRef v = NULL;
    if (e && e->kind != UF__EX_NONE) {
        if (!(v = uf__lower_expr(F, e)))
            return F->err->code;
        if (!(v = uf__emit_convert(F, v, uf__lower_info(F, e)->type, ret)))
            return F->err->code;
    }
    if (ret->kind == UF__T_NONE)
        v = NULL;
    else if (!v) /* inference let a bare return through: return zero */
        v = LLVMConstNull(LLVMGetReturnType(LLVMGlobalGetValueType(F->fn)));
    if (F->fallible) {
        if (v)
            LLVMBuildStore(B, v, F->out);
        LLVMBuildRet(B, LLVMConstNull(LLVMInt32TypeInContext(F->L->ctx)));
    } else if (v) {
        LLVMBuildRet(B, v);
    } else {
        LLVMBuildRetVoid(B);
    }
    return 0;
}

LLVMValueRef uf__lower_truth_of(uf__fn *F, const uf__expr *e)
{
    LLVMValueRef v = uf__lower_expr(F, e);
    if (!v)
        return NULL;
    const uf__type *t = uf__lower_info(F, e)->type;
    if (t && t->kind == UF__T_STR) /* known: true when not empty */
        return LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), t->n > 0, 0);
    if (t && t->kind == UF__T_USTR) /* true when not empty */
        return LLVMBuildICmp(B, LLVMIntNE, uf__emit_ustr_len(F, v),
                             LLVMConstNull(LLVMInt64TypeInContext(F->L->ctx)),
                             "");
    if (t && (t->kind == UF__T_LIST || t->kind == UF__T_DICT ||
              t->kind == UF__T_SET)) /* a list, a set,
                                       a dict: true when not empty */
        return LLVMBuildICmp(B, LLVMIntNE, uf__emit_list_len(F, v),
                             LLVMConstNull(LLVMInt64TypeInContext(F->L->ctx)),
                             "");
    if (!t || t->kind != UF__T_SCALAR) {
        uf__lower_unsupported(F, e->pos, "the truth value of this expression");
        return NULL;
    }
    return uf__emit_truth(F, v, t->dtype);
}

/* A condition decided by branch pruning (infer_prune.c): only its tests
 * that still run are evaluated, the value is not needed. */
int uf__lower_decided(uf__fn *F, const uf__expr *cond)
{
    if (uf__cond_runs(cond) && !uf__lower_truth_of(F, cond))
        return F->err->code;
    return 0;
}

static int lower_if(uf__fn *F, const uf__stmt *s)
{
    if (s->u.if_.is_try)
        return uf__lower_try(F, s);
    /* a pruned branch was not typed: only the live one is lowered */
    signed char t = uf__lower_info(F, s->u.if_.cond)->truth;
    if (t != 0) {
        int rc = uf__lower_decided(F, s->u.if_.cond);
        return rc != 0 ? rc
                       : lower_block(F, t > 0 ? &s->u.if_.body
                                              : &s->u.if_.orelse);
    }
    LLVMValueRef c = uf__lower_truth_of(F, s->u.if_.cond);
    if (!c)
        return F->err->code;
    LLVMBasicBlockRef then = uf__fn_block(F, "if.then");
    LLVMBasicBlockRef els = uf__fn_block(F, "if.else");
    LLVMBasicBlockRef end = uf__fn_block(F, "if.end");
    LLVMBuildCondBr(B, c, then, els);
    LLVMPositionBuilderAtEnd(B, then);
    int rc = lower_block(F, &s->u.if_.body);
    if (rc != 0)
        return rc;
    if (!uf__lower_terminated(F))
        LLVMBuildBr(B, end);
    LLVMPositionBuilderAtEnd(B, els);
    if ((rc = lower_block(F, &s->u.if_.orelse)) != 0)
        return rc;
    if (!uf__lower_terminated(F))
        LLVMBuildBr(B, end);
    LLVMPositionBuilderAtEnd(B, end);
    return 0;
}

int uf__lower_block(uf__fn *F, const uf__block *b)
{
    return lower_block(F, b);
}

static int lower_stmt(uf__fn *F, const uf__stmt *s)
{
    reopen(F);
    switch (s->kind) {
    case UF__ST_PASS:
        return 0;
    case UF__ST_EXPR: {
        const uf__expr *e = s->u.expr.value;
        /* docstrings and other bare constants do nothing */
        if (e->kind == UF__EX_STR || e->kind == UF__EX_INT ||
            e->kind == UF__EX_FLOAT || e->kind == UF__EX_NONE ||
            e->kind == UF__EX_ELLIPSIS)
            return 0;
        return uf__lower_expr(F, e) ? 0 : F->err->code;
    }
    case UF__ST_ASSIGN:
        if (uf__arraycall_init(F, s)) /* l = [] filled as an array */
            return 0;
        return lower_assign(F, s);
    case UF__ST_AUGASSIGN:
        return lower_augassign(F, s);
    case UF__ST_IF:
        return lower_if(F, s);
    case UF__ST_WHILE:
        return uf__lower_while(F, s);
    case UF__ST_FOR:
        return uf__lower_for(F, s);
    case UF__ST_BREAK:
    case UF__ST_CONTINUE:
        if (F->nloops == 0)
            return uf__lower_unsupported(F, s->pos, "break/continue outside a loop");
        LLVMBuildBr(B, s->kind == UF__ST_BREAK ? F->loops[F->nloops - 1].brk
                                               : F->loops[F->nloops - 1].cont);
        return 0;
    case UF__ST_RETURN:
        return lower_return(F, s);
    case UF__ST_ASSERT: {
        /* checked, as Numba does (also in vectorize kernels, which makes
         * them fallible): the status carries the line */
        LLVMValueRef c = uf__lower_truth_of(F, s->u.assert_.test);
        if (!c)
            return F->err->code;
        uf__fn_raise_if(F, LLVMBuildNot(B, c, ""), UF__JIT_ASSERT + s->pos.line);
        return 0;
    }
    case UF__ST_RAISE:
        return uf__lower_raise(F, s);
    case UF__ST_IMPORT:
    case UF__ST_IMPORTFROM:
        return uf__lower_unsupported(F, s->pos, "an import inside a kernel");
    case UF__ST_FUNCDEF:
        return uf__lower_unsupported(F, s->pos, "a nested function");
    }
    return uf__lower_unsupported(F, s->pos, "this statement");
}

static int lower_block(uf__fn *F, const uf__block *b)
{
    int rc0 = uf__arraycall_scan(F, b); /* lower_arraycall.c */
    if (rc0 != 0)
        return rc0;
    for (int i = 0; i < b->n; i++) {
        int rc = lower_stmt(F, b->stmts[i]);
        if (rc != 0)
            return rc;
        /* dead code after it was not typed (infer.c) */
        if (!uf__stmt_falls_through(F->tf, b->stmts[i]))
            break;
    }
    return 0;
}

/* ---- functions ---------------------------------------------------------- */

static int remember(uf__lower *L, const uf__typed_func *tf, LLVMValueRef fn,
                    bool fallible, uf_error *err)
{
    if (L->nfns == L->capfns) {
        int cap = L->capfns ? 2 * L->capfns : 8;
        uf__lower_entry *n = uf__realloc(L->fns, (size_t)cap, sizeof *n, err);
        if (!n)
            return UF_ERR_NOMEM;
        L->fns = n;
        L->capfns = cap;
    }
    L->fns[L->nfns++] = (uf__lower_entry){tf, fn, fallible, 0};
    return 0;
}

/* Declares the function: `T f(args)` or `i32 f(T *out, args)`. */
static LLVMValueRef declare_func(uf__lower *L, const uf__typed_func *tf,
                                 bool fallible, uf_error *err)
{
    LLVMTypeRef ret = uf__lower_type(L, tf->ret, err);
    if (!ret)
        return NULL;
    LLVMTypeRef params[66];
    unsigned np = 0;
    if (tf->nargs > 64) {
        uf__error_set(err, UF_ERR_UNSUPPORTED, "kernel '%s': too many arguments",
                      tf->decl->name);
        return NULL;
    }
    bool has_out = fallible && tf->ret->kind != UF__T_NONE;
    if (has_out)
        params[np++] = LLVMPointerType(ret, 0);
    for (int i = 0; i < tf->nargs; i++)
        if (!(params[np++] = uf__lower_type(L, tf->args[i], err)))
            return NULL;
    LLVMTypeRef fty = LLVMFunctionType(
        fallible ? LLVMInt32TypeInContext(L->ctx) : ret, params, np, 0);
    char name[256];
    snprintf(name, sizeof name, "%s_%s_%d", L->prefix,
             tf->symbol ? tf->symbol : tf->decl->name, L->seq++);
    LLVMValueRef fn = LLVMAddFunction(L->mod, name, fty);
    uf__lower_kernel_attrs(L, fn);
    if (has_out) {
        uf__lower_add_attr(L, fn, 1, "noalias");
        uf__lower_add_attr(L, fn, 1, "nocapture");
    }
    return fn;
}

static int lower_body(uf__lower *L, const uf__typed_func *tf, LLVMValueRef fn,
                      bool fallible, uf_error *err)
{
    uf__fn F;
    uf__fn_begin(&F, L, fn, fallible, tf->numpy_error_model, err);
    F.tf = tf;
    int rc = 0;
    unsigned p0 = fallible && tf->ret->kind != UF__T_NONE ? 1 : 0;
    if (p0)
        F.out = LLVMGetParam(fn, 0);
    if (tf->nvars > 0 &&
        !(F.vars = uf__calloc((size_t)tf->nvars, sizeof *F.vars, err))) {
        rc = UF_ERR_NOMEM;
        goto done;
    }
    for (int i = 0; i < tf->nvars; i++) {
        const uf__type *t = tf->vars[i].type;
        if (!t || (t->kind != UF__T_SCALAR && t->kind != UF__T_TUPLE &&
                   t->kind != UF__T_ARRAY && t->kind != UF__T_DTYPE &&
                   t->kind != UF__T_LIST && t->kind != UF__T_STR &&
                   t->kind != UF__T_DICT && t->kind != UF__T_USTR &&
                   t->kind != UF__T_SET &&
                   !uf__type_is_pyclass(t)))
            continue; /* modules, ranges...: never loaded as values */
        LLVMTypeRef ty = uf__lower_type(L, t, err);
        if (!ty) {
            rc = err->code;
            goto done;
        }
        F.vars[i] = uf__fn_alloca(&F, ty, tf->vars[i].name);
        /* unbound locals read as zero rather than undef */
        LLVMBuildStore(L->b, LLVMConstNull(ty), F.vars[i]);
    }
    for (int i = 0; i < tf->nvars; i++) {
        int a = tf->vars[i].arg;
        if (a < 0 || a >= tf->nargs || !F.vars[i])
            continue;
        LLVMValueRef v = uf__emit_convert(&F, LLVMGetParam(fn, p0 + (unsigned)a),
                                          tf->args[a], tf->vars[i].type);
        if (!v) {
            rc = err->code;
            goto done;
        }
        LLVMBuildStore(L->b, v, F.vars[i]);
    }
    if ((rc = lower_block(&F, &tf->decl->def->u.funcdef.body)) != 0)
        goto done;
    /* falling off the end returns None; where the function returns a
     * value, typing saw every live path return it, so the end is dead
     * (after `while True: return 1`) and returning None there would
     * store a None into the value's slot */
    bool none_ret = tf->ret == NULL || tf->ret->kind == UF__T_NONE;
    if (!uf__lower_terminated(&F)) {
        uf__stmt ret = {.kind = UF__ST_RETURN};
        if (none_ret)
            rc = lower_return(&F, &ret);
        else
            LLVMBuildUnreachable(L->b);
    }
    /* dead blocks opened after a return need a terminator too */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && rc == 0;
         bb = LLVMGetNextBasicBlock(bb)) {
        if (!LLVMGetBasicBlockTerminator(bb)) {
            uf__stmt ret = {.kind = UF__ST_RETURN};
            LLVMPositionBuilderAtEnd(L->b, bb);
            if (none_ret)
                rc = lower_return(&F, &ret);
            else
                LLVMBuildUnreachable(L->b);
        }
    }
    if (rc == 0)
        rc = uf__lower_alloc_finish(&F); /* frees what it allocated */
    /* fastmath=True: LLVM's fast flags on this function's float
     * operations (callees have their own decorator's) */
    if (rc == 0 && tf->decl->fastmath)
        uf__llvm_fastmath_function(fn, UF__FMF_FAST);
done:
    uf__fn_end(&F);
    return rc;
}

static uf__lower_entry *entry_of(uf__lower *L, LLVMValueRef fn)
{
    for (int i = 0; i < L->nfns; i++)
        if (L->fns[i].fn == fn)
            return &L->fns[i];
    return NULL;
}

/* fn's instructions plus, for each call of a kernel, that kernel's inline
 * size: what inlining everything into fn would give. */
static long inline_size(uf__lower *L, LLVMValueRef fn)
{
    const long cap = 1L << 40;
    long n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
             in = LLVMGetNextInstruction(in)) {
            n++;
            if (LLVMGetInstructionOpcode(in) != LLVMCall)
                continue;
            const uf__lower_entry *e = entry_of(L, LLVMGetCalledValue(in));
            if (e != NULL && e->fn != fn)
                n += e->inline_size;
            if (n > cap)
                return cap;
        }
    }
    return n;
}

void uf__lower_inline_budget(uf__lower *L, LLVMValueRef fn)
{
    const uf__lower_entry *e = entry_of(L, fn);
    if (e == NULL || e->inline_size <= UF__INLINE_BUDGET)
        return;
    const char *always = "alwaysinline";
    LLVMRemoveEnumAttributeAtIndex(
        fn, LLVMAttributeFunctionIndex,
        LLVMGetEnumAttributeKindForName(always, strlen(always)));
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, "noinline");
}

LLVMValueRef uf__lower_func(uf__lower *L, const uf__typed_func *tf,
                            bool *fallible, uf_error *err)
{
    for (int i = 0; i < L->nfns; i++) {
        if (L->fns[i].tf == tf) {
            *fallible = L->fns[i].fallible;
            return L->fns[i].fn;
        }
    }
    bool fl = uf__lower_fallible(tf);
    LLVMValueRef fn = declare_func(L, tf, fl, err);
    if (!fn || remember(L, tf, fn, fl, err) != 0)
        return NULL;
    /* callees are lowered while the caller is half built */
    LLVMBasicBlockRef saved = LLVMGetInsertBlock(L->b);
    int rc = lower_body(L, tf, fn, fl, err);
    if (saved)
        LLVMPositionBuilderAtEnd(L->b, saved);
    if (rc != 0)
        return NULL;
    /* L->fns may have moved while the body's callees were added */
    entry_of(L, fn)->inline_size = inline_size(L, fn);
    *fallible = fl;
    return fn;
}
