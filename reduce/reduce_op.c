/* A kernel's compiled reduction ops, one per accumulator dtype, kept on
 * the uf_func (f->reducer) and built on first use under the context lock:
 * loop type resolution, typing the kernel on (T, T), recognising what it
 * computes, and compiling its reduction loops (compiler/host/jit_reduce.c) or
 * loading them from the disk cache (cache=True, UFJIT_CACHE_DIR). */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/cache/disk_cache.h"
#include "compiler/module.h"
#include "reduce/reduce.h"

/* NAME expressions naming the kernel's two parameters, in either order. */
static bool both_params(const uf__kernel_decl *decl, const uf__expr *x,
                        const uf__expr *y)
{
    const uf__param *p = decl->def->u.funcdef.params;
    if (x->kind != UF__EX_NAME || y->kind != UF__EX_NAME ||
        decl->def->u.funcdef.nparams != 2)
        return false;
    const char *a = x->u.name.id, *b = y->u.name.id;
    return (strcmp(a, p[0].name) == 0 && strcmp(b, p[1].name) == 0) ||
           (strcmp(a, p[1].name) == 0 && strcmp(b, p[0].name) == 0);
}

uf__reduce_kind uf__reduce_classify(const uf__kernel_decl *decl,
                                    const uf__typed_func *tf)
{
    const uf__block *body = &decl->def->u.funcdef.body;
    const uf__stmt *ret = NULL;
    for (int i = 0; i < body->n; i++) {
        const uf__stmt *s = body->stmts[i];
        if (s->kind == UF__ST_EXPR && s->u.expr.value->kind == UF__EX_STR)
            continue; /* a docstring */
        if (ret != NULL || s->kind != UF__ST_RETURN)
            return UF__RK_OTHER;
        ret = s;
    }
    const uf__expr *e = ret ? ret->u.ret.value : NULL;
    if (e == NULL)
        return UF__RK_OTHER;
    if (e->kind == UF__EX_BINARY &&
        both_params(decl, e->u.binary.left, e->u.binary.right)) {
        switch (e->u.binary.op) {
        case UF__OP_ADD: return UF__RK_ADD;
        case UF__OP_MUL: return UF__RK_MUL;
        case UF__OP_BITAND:
        case UF__OP_BITOR:
        case UF__OP_BITXOR: return UF__RK_BITWISE;
        default: return UF__RK_OTHER;
        }
    }
    if (e->kind == UF__EX_CALL && e->u.call.nargs == 2 &&
        e->u.call.nkw == 0 &&
        both_params(decl, e->u.call.args[0], e->u.call.args[1])) {
        switch (uf__tf_info(tf, e)->builtin) {
        case UF__BI_MIN:
        case UF__BI_NP_MINIMUM:
        case UF__BI_NP_FMIN: return UF__RK_MIN;
        case UF__BI_MAX:
        case UF__BI_NP_MAXIMUM:
        case UF__BI_NP_FMAX: return UF__RK_MAX;
        default: break;
        }
    }
    return UF__RK_OTHER;
}

/* Whether our loops may reassociate an op that NumPy would run in order:
 * exact for integer sums, products, bitwise ops, min and max (integer
 * arithmetic wraps, which is associative); for float and complex sums
 * the pairwise order is NumPy's own (np.add is pairwise). */
static bool may_reassociate(uf__reduce_kind kind, uf_dtype t)
{
    bool integral = t == UF_BOOL || uf__dtype_is_int(t);
    if (kind == UF__RK_ADD)
        return true;
    return integral && kind != UF__RK_OTHER;
}

/* The accumulator dtype of a vectorize kernel for inputs of dtype `in`:
 * the output type of the loop a call on (in, in) picks, which must take
 * that same type for both inputs (else the loop for (out, out) is tried,
 * as a lazy kernel compiles one). */
static int vectorize_type(uf_func *f, uf_dtype in, uf_dtype *t,
                          uf_error *err)
{
    if (f->nin != 2)
        return uf__error_set(err, UF_ERR_VALUE,
                             "'%s': reduce only supported for binary "
                             "functions", f->decl->name);
    uf__ufunc_loop loop;
    uf_dtype pair[2] = {in, in};
    for (int attempt = 0; attempt < 2; attempt++) {
        if (f->ops->loop(f, pair, &loop, err) != 0)
            return err->code;
        if (f->nout != 1)
            return uf__error_set(err, UF_ERR_VALUE,
                                 "'%s': reduce only supported for functions "
                                 "returning a single value", f->decl->name);
        *t = loop.types[2];
        if (loop.types[0] == *t && loop.types[1] == *t)
            return 0;
        pair[0] = pair[1] = *t;
    }
    return uf__error_set(err, UF_ERR_TYPE,
                         "reduction operation '%s' needs a loop whose inputs "
                         "and output have one type; for %s inputs it has "
                         "(%s, %s) -> %s", f->decl->name, uf_dtype_name(in),
                         uf_dtype_name(loop.types[0]),
                         uf_dtype_name(loop.types[1]),
                         uf_dtype_name(loop.types[2]));
}

static const uf__reduce_op *find(const uf_func *f, uf_dtype t)
{
    for (const uf__reduce_op *op = f->reducer ? f->reducer->ops : NULL; op;
         op = op->next)
        if (op->type == t)
            return op;
    return NULL;
}

/* op->fns for `tf`: loaded from the disk cache when there (nothing
 * compiled), else compiled and stored there when one applies. */
static int compile_fns(uf_func *f, uf__jit *jit, const uf__typed_func *tf,
                       bool vec, uf__reduce_op *op, uf_error *err)
{
    bool tree = op->reassociate;
    int nsyms = tree ? 5 : 4;
    const char *t = uf_dtype_name(op->type);
    char sig[128];
    snprintf(sig, sizeof sig, "%s,%s->%s;tree=%d;rows=%d", t, t,
             vec ? t : "?", tree, UF__REDUCE_ROWS);
    uf__disk_use use;
    uf__disk_use_init(&use, UF__OBJ_REDUCE, f->module->km, f->decl, sig,
                      jit);
    void *addr[UF__JIT_REDUCE_MAXSYMS] = {NULL};
    int rc = 0;
    if (!use.on) {
        rc = uf__jit_reduce(jit, tf, op->type, tree, &op->fns, NULL, err);
        goto done;
    }
    if (uf__disk_use_fetch(&use, jit, nsyms, addr, NULL, 0)) {
        uf__jit_reduce_set(&op->fns, addr, tree);
        goto done;
    }
    char names[UF__JIT_REDUCE_MAXSYMS][UF__JIT_SYMBOL_MAX];
    char *obj = NULL;
    size_t objlen = 0;
    if (uf__jit_reduce_obj(jit, tf, op->type, tree, use.stem, &op->fns,
                           names, &obj, &objlen, err) != 0) {
        rc = err->code;
        if (rc == UF_ERR_INTERNAL) {
            /* the JIT refused the object (its symbols clash with code
             * this context loaded before): compile as without a cache */
            uf_error_clear(err);
            rc = uf__jit_reduce(jit, tf, op->type, tree, &op->fns, NULL,
                                err);
        }
        goto done;
    }
    const char *list[UF__JIT_REDUCE_MAXSYMS] = {names[0], names[1], names[2],
                                                names[3], names[4]};
    uf__disk_use_store(&use, list, nsyms, NULL, 0, obj, objlen);
    uf__free(obj);
done:
    uf__disk_use_release(&use);
    return rc;
}

/* Compiles and appends the op for accumulator type t; ctx lock held. */
static int build(uf_func *f, uf_dtype t, bool reorderable,
                 const uf__reduce_op **out, uf_error *err)
{
    uf__kmodule *km = f->module->km;
    const uf__type *tt = uf__type_scalar(km->tc, t);
    const uf__type *args[2] = {tt, tt};
    bool vec = f->decl->kind == UF__K_VECTORIZE;
    uf__typed_func *tf = uf__infer(km, f->decl, args, 2, vec ? tt : NULL,
                                   err);
    if (tf == NULL)
        return err->code;
    uf__jit *jit = uf__context_jit(f->module->ctx, err);
    if (jit == NULL)
        return err->code;
    if (f->reducer == NULL &&
        !(f->reducer = uf__calloc(1, sizeof *f->reducer, err)))
        return err->code;
    uf__reduce_op *op = uf__calloc(1, sizeof *op, err);
    if (op == NULL)
        return err->code;
    op->name = f->decl->name;
    op->type = t;
    op->kind = uf__reduce_classify(f->decl, tf);
    op->reorderable = reorderable;
    op->reassociate = reorderable || may_reassociate(op->kind, t);
    if (compile_fns(f, jit, tf, vec, op, err) != 0) {
        uf__free(op);
        return err->code;
    }
    op->next = f->reducer->ops;
    f->reducer->ops = op;
    *out = op;
    return 0;
}

int uf__reduce_op_get(uf_func *f, uf_dtype in, const uf__reduce_op **op,
                      uf_error *err)
{
    uf_dtype t = in;
    bool reorderable;
    switch (f->decl->kind) {
    case UF__K_VECTORIZE:
        if (vectorize_type(f, in, &t, err) != 0)
            return err->code;
        /* Numba's identities: 0, 1 and 'reorderable' (NumPy's Zero, One,
         * ReorderableNone) and a literal reorder; None does not */
        reorderable = f->decl->identity != NULL &&
                      strcmp(f->decl->identity, "None") != 0;
        break;
    case UF__K_REDUCE:
        reorderable = true;
        break;
    default:
        return uf__error_set(err, UF_ERR_INVALID,
                             "'%s' is not a vectorize or reduce kernel: it "
                             "has no reduce method", f->decl->name);
    }
    uf_context *ctx = f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    int rc = 0;
    *op = find(f, t);
    if (*op == NULL)
        rc = build(f, t, reorderable, op, err);
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}

void uf__reduce_func_release(uf_func *f)
{
    if (f->reducer == NULL)
        return;
    uf__reduce_op *op = f->reducer->ops;
    while (op != NULL) {
        uf__reduce_op *next = op->next;
        uf__free(op);
        op = next;
    }
    uf__free(f->reducer);
    f->reducer = NULL;
}
