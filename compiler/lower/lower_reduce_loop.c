/* The reduction loops of compiler/host/jit_reduce.h in LLVM IR, around one
 * binary kernel inlined into each of them:
 *
 *   i32 combine(i8 *acc, i8 *b)                    *acc = f(*acc, *b)
 *   i32 seq(i8 *acc, i8 *x, i64 n, i64 stride)     left to right
 *   i32 tree(i8 *res, i8 *x, i64 n)                the pairwise tree over
 *                                                   contiguous elements
 *   i32 rows(i8 *out, i8 *x, i64 n, i64 rs)        UF__REDUCE_ROWS rows
 *                                                   into contiguous out
 *
 * The tree's blocks are reduced by `leaf`, whose main loop carries eight
 * independent accumulators over consecutive elements: once the kernel is
 * inlined, the SLP vectoriser turns the eight updates into one vector
 * operation (<8 x double> with AVX-512), which is what makes a sum run at
 * memory speed while keeping NumPy's pairwise order exactly. Blocks are
 * merged through a small stack, as a binary counter: after block b the
 * top entries are merged once per trailing zero bit of b + 1, and what is
 * left is folded from the top at the end.
 *
 * Values live in allocas (promoted to registers by SROA), which keeps the
 * IR simple where a fallible kernel's status checks split the blocks. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "common/error_internal.h"
#include "compiler/host/jit_reduce.h"

#define B (c->L->b)
#define STACK_DEPTH 66 /* one entry per bit of a block count, plus one */

typedef struct rctx {
    uf__lower *L;
    uf__fn *F;
    LLVMValueRef kernel;
    LLVMTypeRef kty;
    bool fallible;
    uf_dtype acc, ret;
    LLVMTypeRef ssa, mem; /* T as a value and in memory */
    LLVMTypeRef i1, i8p, i32, i64;
    LLVMValueRef outslot; /* the fallible kernel's result */
} rctx;

static LLVMValueRef k64(rctx *c, int64_t v)
{
    return LLVMConstInt(c->i64, (unsigned long long)v, 1);
}

/* Element at byte offset `off` from `base` (an i8*). */
static LLVMValueRef elem_ptr(rctx *c, LLVMValueRef base, LLVMValueRef off)
{
    LLVMValueRef p = LLVMBuildGEP2(B, LLVMInt8TypeInContext(c->L->ctx), base,
                                   &off, 1, "");
    return LLVMBuildBitCast(B, p, LLVMPointerType(c->mem, 0), "");
}

static LLVMValueRef load_elem(rctx *c, LLVMValueRef ptr)
{
    LLVMValueRef v = LLVMBuildLoad2(B, c->mem, ptr, "");
    if (c->acc == UF_BOOL) /* any nonzero byte is True */
        v = LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(c->mem), "");
    return v;
}

static void store_elem(rctx *c, LLVMValueRef v, LLVMValueRef ptr)
{
    if (c->acc == UF_BOOL)
        v = LLVMBuildZExt(B, v, c->mem, "");
    LLVMBuildStore(B, v, ptr);
}

/* f(a, b) converted to T; a fallible kernel's nonzero status is returned
 * from the function being built. */
static LLVMValueRef apply(rctx *c, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef args[3];
    unsigned n = 0;
    if (c->outslot)
        args[n++] = c->outslot;
    args[n++] = a;
    args[n++] = b;
    LLVMValueRef r = LLVMBuildCall2(B, c->kty, c->kernel, args, n, "");
    if (c->fallible) {
        uf__fn_raise_status(c->F, r);
        LLVMTypeRef rt = LLVMGetElementType(LLVMTypeOf(c->outslot));
        r = LLVMBuildLoad2(B, rt, c->outslot, "");
    }
    return uf__emit_cast(c->F, r, c->ret, c->acc);
}

/* A new function `i32 name(params...)` with its body started in *F. */
static LLVMValueRef begin_fn(rctx *c, uf__fn *F, const char *name,
                             LLVMTypeRef *params, unsigned np, bool external,
                             uf_error *err)
{
    uf__lower *L = c->L;
    LLVMValueRef fn = LLVMAddFunction(L->mod, name,
                                      LLVMFunctionType(c->i32, params, np, 0));
    if (!external)
        LLVMSetLinkage(fn, LLVMInternalLinkage);
    uf__lower_target_attrs(L, fn);
    uf__fn_begin(F, L, fn, true, true, err);
    c->F = F;
    c->outslot = NULL;
    if (c->fallible) {
        LLVMTypeRef ps[3];
        LLVMGetParamTypes(c->kty, ps);
        c->outslot = uf__fn_alloca(F, LLVMGetElementType(ps[0]), "res");
    }
    return fn;
}

/* while (i < n) { body(i); i += step } with i in an alloca starting at
 * the value it holds; body may leave the builder in another block. */
typedef void (*body_fn)(rctx *c, LLVMValueRef i, void *ud);

static void while_lt(rctx *c, LLVMValueRef ip, LLVMValueRef n, int64_t step,
                     body_fn body, void *ud, const char *name,
                     LLVMValueRef md)
{
    uf__fn *F = c->F;
    LLVMBasicBlockRef hdr = uf__fn_block(F, name);
    LLVMBasicBlockRef bb = uf__fn_block(F, "body");
    LLVMBasicBlockRef done = uf__fn_block(F, "done");
    LLVMBuildBr(B, hdr);
    LLVMPositionBuilderAtEnd(B, hdr);
    LLVMValueRef i = LLVMBuildLoad2(B, c->i64, ip, "i");
    /* i + step <= n, written so that it cannot overflow */
    LLVMValueRef lim = step > 1 ? LLVMBuildSub(B, n, k64(c, step - 1), "") : n;
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, lim, ""), bb, done);
    LLVMPositionBuilderAtEnd(B, bb);
    body(c, i, ud);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, k64(c, step), ""), ip);
    LLVMValueRef br = LLVMBuildBr(B, hdr);
    if (md)
        LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c->L->ctx, "llvm.loop", 9),
                        md);
    LLVMPositionBuilderAtEnd(B, done);
}

/* A metadata node {!"name"} or {!"name", value}. */
static LLVMMetadataRef md_prop(uf__lower *L, const char *name,
                               LLVMValueRef value)
{
    LLVMMetadataRef p[2] = {LLVMMDStringInContext2(L->ctx, name, strlen(name)),
                            value ? LLVMValueAsMetadata(value) : NULL};
    return LLVMMDNodeInContext2(L->ctx, p, value ? 2 : 1);
}

/* Loops that stay scalar and rolled: left-to-right ones (nothing to
 * vectorise without reassociating) and the block loop; compile time. */
static LLVMValueRef scalar_md(rctx *c)
{
    uf__lower *L = c->L;
    LLVMMetadataRef ops[3];
    ops[0] = LLVMTemporaryMDNode(L->ctx, NULL, 0);
    ops[1] = md_prop(L, "llvm.loop.unroll.disable", NULL);
    ops[2] = md_prop(L, "llvm.loop.vectorize.enable",
                     LLVMConstInt(c->i1, 0, 0));
    LLVMMetadataRef id = LLVMMDNodeInContext2(L->ctx, ops, 3);
    LLVMMetadataReplaceAllUsesWith(ops[0], id);
    return LLVMMetadataAsValue(L->ctx, id);
}

/* The lanes loop's ID: vectorised at exactly UF__REDUCE_LANES lanes, one
 * vector per iteration, never unrolled (unrolled, it would be left to the
 * SLP vectoriser, which splits it into narrow pieces). A distinct node
 * listing itself first: the temporary first operand replaced by the node
 * itself. */
static LLVMValueRef lanes_md(rctx *c)
{
    uf__lower *L = c->L;
    LLVMMetadataRef ops[6];
    ops[0] = LLVMTemporaryMDNode(L->ctx, NULL, 0);
    ops[1] = md_prop(L, "llvm.loop.unroll.disable", NULL);
    ops[2] = md_prop(L, "llvm.loop.vectorize.enable",
                     LLVMConstInt(c->i1, 1, 0));
    ops[3] = md_prop(L, "llvm.loop.vectorize.width",
                     LLVMConstInt(c->i32, UF__REDUCE_LANES, 0));
    ops[4] = md_prop(L, "llvm.loop.interleave.count",
                     LLVMConstInt(c->i32, 1, 0));
    /* the vector loop (one iteration) may then be unrolled away, which
     * lets SROA keep the accumulators in a register */
    const char *fu = "llvm.loop.vectorize.followup_vectorized";
    LLVMMetadataRef follow[2] = {
        LLVMMDStringInContext2(L->ctx, fu, strlen(fu)),
        md_prop(L, "llvm.loop.unroll.full", NULL)};
    ops[5] = LLVMMDNodeInContext2(L->ctx, follow, 2);
    LLVMMetadataRef id = LLVMMDNodeInContext2(L->ctx, ops, 6);
    LLVMMetadataReplaceAllUsesWith(ops[0], id);
    return LLVMMetadataAsValue(L->ctx, id);
}

/* ---- combine and seq ------------------------------------------------- */

static int emit_combine(rctx *c, const char *name, uf_error *err)
{
    uf__fn F;
    LLVMTypeRef ps[2] = {c->i8p, c->i8p};
    LLVMValueRef fn = begin_fn(c, &F, name, ps, 2, true, err);
    LLVMValueRef ap = LLVMBuildBitCast(B, LLVMGetParam(fn, 0),
                                       LLVMPointerType(c->mem, 0), "");
    LLVMValueRef bp = LLVMBuildBitCast(B, LLVMGetParam(fn, 1),
                                       LLVMPointerType(c->mem, 0), "");
    LLVMValueRef r = apply(c, load_elem(c, ap), load_elem(c, bp));
    store_elem(c, r, ap);
    LLVMBuildRet(B, LLVMConstNull(c->i32));
    uf__fn_end(&F);
    return 0;
}

typedef struct seq_ud {
    LLVMValueRef x, stride, a; /* a: the accumulator's alloca */
} seq_ud;

static void seq_body(rctx *c, LLVMValueRef i, void *ud)
{
    seq_ud *s = ud;
    LLVMValueRef v = load_elem(c, elem_ptr(c, s->x,
                                           LLVMBuildMul(B, i, s->stride, "")));
    LLVMValueRef a = LLVMBuildLoad2(B, c->ssa, s->a, "");
    LLVMBuildStore(B, apply(c, a, v), s->a);
}

static int emit_seq(rctx *c, const char *name, uf_error *err)
{
    uf__fn F;
    LLVMTypeRef ps[4] = {c->i8p, c->i8p, c->i64, c->i64};
    LLVMValueRef fn = begin_fn(c, &F, name, ps, 4, true, err);
    LLVMValueRef accp = LLVMBuildBitCast(B, LLVMGetParam(fn, 0),
                                         LLVMPointerType(c->mem, 0), "");
    seq_ud s = {LLVMGetParam(fn, 1), LLVMGetParam(fn, 3),
                uf__fn_alloca(&F, c->ssa, "a")};
    LLVMValueRef ip = uf__fn_alloca(&F, c->i64, "ip");
    LLVMBuildStore(B, load_elem(c, accp), s.a);
    LLVMBuildStore(B, k64(c, 0), ip);
    while_lt(c, ip, LLVMGetParam(fn, 2), 1, seq_body, &s, "seq", scalar_md(c));
    store_elem(c, LLVMBuildLoad2(B, c->ssa, s.a, ""), accp);
    LLVMBuildRet(B, LLVMConstNull(c->i32));
    uf__fn_end(&F);
    return 0;
}

/* ---- rows: an outer axis reduced, UF__REDUCE_ROWS rows per pass ------ */

typedef struct rows_ud {
    LLVMValueRef out, x[UF__REDUCE_ROWS]; /* typed T* */
} rows_ud;

/* out[j] = f(...f(f(out[j], x0[j]), x1[j])..., x{R-1}[j]): the order of R
 * passes of the binary loop, with out[j] kept in a register between rows */
static void rows_body(rctx *c, LLVMValueRef j, void *ud)
{
    rows_ud *u = ud;
    LLVMValueRef op = LLVMBuildInBoundsGEP2(B, c->mem, u->out, &j, 1, "");
    LLVMValueRef a = load_elem(c, op);
    for (int r = 0; r < UF__REDUCE_ROWS; r++) {
        LLVMValueRef xp = LLVMBuildInBoundsGEP2(B, c->mem, u->x[r], &j, 1, "");
        a = apply(c, a, load_elem(c, xp));
    }
    store_elem(c, a, op);
}

/* Vectorised across j (out and the rows never overlap: noalias), never
 * unrolled: compile time. */
static LLVMValueRef rows_md(rctx *c)
{
    uf__lower *L = c->L;
    LLVMMetadataRef ops[3];
    ops[0] = LLVMTemporaryMDNode(L->ctx, NULL, 0);
    ops[1] = md_prop(L, "llvm.loop.unroll.disable", NULL);
    ops[2] = md_prop(L, "llvm.loop.vectorize.enable",
                     LLVMConstInt(c->i1, 1, 0));
    LLVMMetadataRef id = LLVMMDNodeInContext2(L->ctx, ops, 3);
    LLVMMetadataReplaceAllUsesWith(ops[0], id);
    return LLVMMetadataAsValue(L->ctx, id);
}

static int emit_rows(rctx *c, const char *name, uf_error *err)
{
    uf__fn F;
    LLVMTypeRef ps[4] = {c->i8p, c->i8p, c->i64, c->i64};
    LLVMValueRef fn = begin_fn(c, &F, name, ps, 4, true, err);
    unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
    for (unsigned k = 1; k <= 2; k++)
        LLVMAddAttributeAtIndex(
            fn, k, LLVMCreateEnumAttribute(c->L->ctx, noalias, 0));
    LLVMTypeRef tp = LLVMPointerType(c->mem, 0);
    rows_ud u = {LLVMBuildBitCast(B, LLVMGetParam(fn, 0), tp, ""), {0}};
    for (int r = 0; r < UF__REDUCE_ROWS; r++) {
        LLVMValueRef off = LLVMBuildMul(B, LLVMGetParam(fn, 3), k64(c, r), "");
        u.x[r] = elem_ptr(c, LLVMGetParam(fn, 1), off);
    }
    LLVMValueRef jp = uf__fn_alloca(&F, c->i64, "jp");
    LLVMBuildStore(B, k64(c, 0), jp);
    while_lt(c, jp, LLVMGetParam(fn, 2), 1, rows_body, &u, "rows",
             c->fallible ? NULL : rows_md(c));
    LLVMBuildRet(B, LLVMConstNull(c->i32));
    uf__fn_end(&F);
    return 0;
}

/* ---- the pairwise tree ----------------------------------------------- */

/* x[i] of a leaf: typed indexing when contiguous (so that the vectoriser
 * sees consecutive loads), byte strides otherwise. */
typedef struct leaf_ud {
    bool contig;
    LLVMValueRef x, stride;
    LLVMValueRef r; /* [UF__REDUCE_LANES x T] alloca: the accumulators */
    LLVMTypeRef rty;
    LLVMValueRef a;
    LLVMValueRef base; /* the lanes loop's first element */
} leaf_ud;

static LLVMValueRef leaf_load(rctx *c, leaf_ud *u, LLVMValueRef i)
{
    if (u->contig) {
        LLVMValueRef p = LLVMBuildInBoundsGEP2(B, c->mem, u->x, &i, 1, "");
        return load_elem(c, p);
    }
    return load_elem(c, elem_ptr(c, u->x, LLVMBuildMul(B, i, u->stride, "")));
}

static LLVMValueRef lane(rctx *c, leaf_ud *u, LLVMValueRef j)
{
    LLVMValueRef ix[2] = {k64(c, 0), j};
    return LLVMBuildInBoundsGEP2(B, u->rty, u->r, ix, 2, "");
}

/* r[j] = f(r[j], x[base + j]) */
static void lane_body(rctx *c, LLVMValueRef j, void *ud)
{
    leaf_ud *u = ud;
    LLVMValueRef v = leaf_load(c, u, LLVMBuildAdd(B, u->base, j, ""));
    LLVMValueRef rp = lane(c, u, j);
    store_elem(c, apply(c, load_elem(c, rp), v), rp);
}

/* One step of eight elements: an inner loop over the lanes that the loop
 * vectoriser turns into one vector operation, whatever the kernel is
 * (as it vectorises a ufunc's contiguous loop). */
static void lanes_body(rctx *c, LLVMValueRef i, void *ud)
{
    leaf_ud *u = ud;
    u->base = i;
    LLVMValueRef jp = uf__fn_alloca(c->F, c->i64, "jp");
    LLVMBuildStore(B, k64(c, 0), jp);
    while_lt(c, jp, k64(c, UF__REDUCE_LANES), 1, lane_body, u, "lane",
             u->contig && !c->fallible ? lanes_md(c) : NULL);
}

static void rest_body(rctx *c, LLVMValueRef i, void *ud)
{
    leaf_ud *u = ud;
    LLVMValueRef v = leaf_load(c, u, i);
    LLVMValueRef a = LLVMBuildLoad2(B, c->ssa, u->a, "");
    LLVMBuildStore(B, apply(c, a, v), u->a);
}

/* i32 leaf(T *out, i8 *x, i64 m, i64 stride), 1 <= m <= block: NumPy's
 * pairwise_sum on one block. */
static LLVMValueRef emit_leaf(rctx *c, const char *name, bool contig,
                              uf_error *err)
{
    uf__fn F;
    LLVMTypeRef ps[4] = {LLVMPointerType(c->mem, 0), c->i8p, c->i64, c->i64};
    LLVMValueRef fn = begin_fn(c, &F, name, ps, 4, false, err);
    leaf_ud u = {.contig = contig, .stride = LLVMGetParam(fn, 3)};
    u.x = contig ? LLVMBuildBitCast(B, LLVMGetParam(fn, 1),
                                    LLVMPointerType(c->mem, 0), "")
                 : LLVMGetParam(fn, 1);
    LLVMValueRef m = LLVMGetParam(fn, 2);
    u.rty = LLVMArrayType(c->mem, UF__REDUCE_LANES);
    u.r = uf__fn_alloca(&F, u.rty, "r");
    u.a = uf__fn_alloca(&F, c->ssa, "a");
    LLVMValueRef ip = uf__fn_alloca(&F, c->i64, "ip");

    LLVMBasicBlockRef small = uf__fn_block(&F, "small");
    LLVMBasicBlockRef wide = uf__fn_block(&F, "wide");
    LLVMBasicBlockRef out = uf__fn_block(&F, "out");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, m,
                                     k64(c, UF__REDUCE_LANES), ""),
                    small, wide);

    /* fewer than 8: left to right */
    LLVMPositionBuilderAtEnd(B, small);
    LLVMBuildStore(B, leaf_load(c, &u, k64(c, 0)), u.a);
    LLVMBuildStore(B, k64(c, 1), ip);
    while_lt(c, ip, m, 1, rest_body, &u, "small.loop", scalar_md(c));
    LLVMBuildBr(B, out);

    LLVMPositionBuilderAtEnd(B, wide);
    for (int j = 0; j < UF__REDUCE_LANES; j++)
        store_elem(c, leaf_load(c, &u, k64(c, j)), lane(c, &u, k64(c, j)));
    LLVMBuildStore(B, k64(c, UF__REDUCE_LANES), ip);
    while_lt(c, ip, m, UF__REDUCE_LANES, lanes_body, &u, "lanes", scalar_md(c));
    LLVMValueRef r[UF__REDUCE_LANES];
    for (int j = 0; j < UF__REDUCE_LANES; j++)
        r[j] = load_elem(c, lane(c, &u, k64(c, j)));
    for (int w = 1; w < UF__REDUCE_LANES; w *= 2)
        for (int j = 0; j < UF__REDUCE_LANES; j += 2 * w)
            r[j] = apply(c, r[j], r[j + w]);
    LLVMBuildStore(B, r[0], u.a);
    while_lt(c, ip, m, 1, rest_body, &u, "rest", scalar_md(c));
    LLVMBuildBr(B, out);

    LLVMPositionBuilderAtEnd(B, out);
    store_elem(c, LLVMBuildLoad2(B, c->ssa, u.a, ""), LLVMGetParam(fn, 0));
    LLVMBuildRet(B, LLVMConstNull(c->i32));
    uf__fn_end(&F);
    return fn;
}

typedef struct tree_ud {
    LLVMValueRef leaf, x, n, stride, stack, top, res, cnt;
    LLVMTypeRef stack_ty;
} tree_ud;

static LLVMValueRef slot(rctx *c, tree_ud *t, LLVMValueRef k)
{
    LLVMValueRef ix[2] = {k64(c, 0), k};
    return LLVMBuildInBoundsGEP2(B, t->stack_ty, t->stack, ix, 2, "");
}

/* Merges the top two entries: stack[top-2] = f(stack[top-2], stack[top-1]). */
static void merge_top(rctx *c, tree_ud *t)
{
    LLVMValueRef top = LLVMBuildLoad2(B, c->i64, t->top, "");
    LLVMValueRef lo = slot(c, t, LLVMBuildSub(B, top, k64(c, 2), ""));
    LLVMValueRef hi = slot(c, t, LLVMBuildSub(B, top, k64(c, 1), ""));
    LLVMValueRef v = apply(c, load_elem(c, lo), load_elem(c, hi));
    store_elem(c, v, lo);
    LLVMBuildStore(B, LLVMBuildSub(B, top, k64(c, 1), ""), t->top);
}

static void block_body(rctx *c, LLVMValueRef b, void *ud)
{
    tree_ud *t = ud;
    uf__fn *F = c->F;
    LLVMValueRef start = LLVMBuildMul(B, b, k64(c, UF__REDUCE_BLOCK), "");
    LLVMValueRef left = LLVMBuildSub(B, t->n, start, "");
    LLVMValueRef big = LLVMBuildICmp(B, LLVMIntSGT, left,
                                     k64(c, UF__REDUCE_BLOCK), "");
    LLVMValueRef m = LLVMBuildSelect(B, big, k64(c, UF__REDUCE_BLOCK), left,
                                     "");
    LLVMValueRef p = LLVMBuildGEP2(
        B, LLVMInt8TypeInContext(c->L->ctx), t->x,
        (LLVMValueRef[]){LLVMBuildMul(B, start, t->stride, "")}, 1, "");
    LLVMValueRef top = LLVMBuildLoad2(B, c->i64, t->top, "");
    LLVMValueRef args[4] = {slot(c, t, top), p, m, t->stride};
    LLVMValueRef st = LLVMBuildCall2(B, LLVMGlobalGetValueType(t->leaf),
                                     t->leaf, args, 4, "");
    uf__fn_raise_status(F, st);
    LLVMBuildStore(B, LLVMBuildAdd(B, top, k64(c, 1), ""), t->top);
    /* one merge per trailing zero bit of b + 1 */
    LLVMBuildStore(B, LLVMBuildAdd(B, b, k64(c, 1), ""), t->cnt);
    LLVMBasicBlockRef hdr = uf__fn_block(F, "carry");
    LLVMBasicBlockRef body = uf__fn_block(F, "merge");
    LLVMBasicBlockRef done = uf__fn_block(F, "carried");
    LLVMBuildBr(B, hdr);
    LLVMPositionBuilderAtEnd(B, hdr);
    LLVMValueRef cnt = LLVMBuildLoad2(B, c->i64, t->cnt, "");
    LLVMValueRef even = LLVMBuildICmp(
        B, LLVMIntEQ, LLVMBuildAnd(B, cnt, k64(c, 1), ""), k64(c, 0), "");
    LLVMBuildCondBr(B, even, body, done);
    LLVMPositionBuilderAtEnd(B, body);
    merge_top(c, t);
    LLVMBuildStore(B, LLVMBuildLShr(B, cnt, k64(c, 1), ""), t->cnt);
    LLVMBuildBr(B, hdr);
    LLVMPositionBuilderAtEnd(B, done);
}

/* The block loop of the tree, for one leaf (contiguous or strided). */
static void emit_blocks(rctx *c, tree_ud *t)
{
    LLVMValueRef bp = uf__fn_alloca(c->F, c->i64, "bp");
    LLVMBuildStore(B, k64(c, 0), bp);
    LLVMBuildStore(B, k64(c, 0), t->top);
    LLVMValueRef nb = LLVMBuildUDiv(
        B, LLVMBuildAdd(B, t->n, k64(c, UF__REDUCE_BLOCK - 1), ""),
        k64(c, UF__REDUCE_BLOCK), "nb");
    while_lt(c, bp, nb, 1, block_body, t, "blocks", scalar_md(c));
    /* fold what is left: a = stack[top-1]; a = f(stack[k], a) downwards */
    uf__fn *F = c->F;
    LLVMBasicBlockRef hdr = uf__fn_block(F, "fold");
    LLVMBasicBlockRef body = uf__fn_block(F, "fold.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "folded");
    LLVMBuildBr(B, hdr);
    LLVMPositionBuilderAtEnd(B, hdr);
    LLVMValueRef top = LLVMBuildLoad2(B, c->i64, t->top, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGT, top, k64(c, 1), ""), body,
                    done);
    LLVMPositionBuilderAtEnd(B, body);
    merge_top(c, t);
    LLVMBuildBr(B, hdr);
    LLVMPositionBuilderAtEnd(B, done);
    store_elem(c, load_elem(c, slot(c, t, k64(c, 0))), t->res);
}

static int emit_tree(rctx *c, const char *prefix, uf_error *err)
{
    char name[96];
    snprintf(name, sizeof name, "%s_leaf", prefix);
    LLVMValueRef leaf = emit_leaf(c, name, true, err);

    uf__fn F;
    LLVMTypeRef ps[3] = {c->i8p, c->i8p, c->i64};
    snprintf(name, sizeof name, "%s_tree", prefix);
    LLVMValueRef fn = begin_fn(c, &F, name, ps, 3, true, err);
    tree_ud t = {
        .leaf = leaf, .x = LLVMGetParam(fn, 1), .n = LLVMGetParam(fn, 2),
        .stride = k64(c, (int64_t)uf_dtype_itemsize(c->acc)),
        .stack_ty = LLVMArrayType(c->mem, STACK_DEPTH),
    };
    t.res = LLVMBuildBitCast(B, LLVMGetParam(fn, 0),
                             LLVMPointerType(c->mem, 0), "");
    t.stack = uf__fn_alloca(&F, t.stack_ty, "stack");
    t.top = uf__fn_alloca(&F, c->i64, "top");
    t.cnt = uf__fn_alloca(&F, c->i64, "cnt");
    emit_blocks(c, &t);
    LLVMBuildRet(B, LLVMConstNull(c->i32));
    uf__fn_end(&F);
    return 0;
}

int uf__lower_reduce_loops(uf__lower *L, LLVMValueRef kernel, bool fallible,
                           uf_dtype acc, uf_dtype ret, bool tree,
                           const char *prefix, uf_error *err)
{
    rctx c = {
        .L = L, .kernel = kernel, .kty = LLVMGlobalGetValueType(kernel),
        .fallible = fallible, .acc = acc, .ret = ret,
        .ssa = uf__lower_dtype(L, acc), .mem = uf__lower_mem_dtype(L, acc),
        .i1 = LLVMInt1TypeInContext(L->ctx),
        .i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0),
        .i32 = LLVMInt32TypeInContext(L->ctx),
        .i64 = LLVMInt64TypeInContext(L->ctx),
    };
    char name[96];
    snprintf(name, sizeof name, "%s_combine", prefix);
    if (emit_combine(&c, name, err) != 0)
        return err->code;
    snprintf(name, sizeof name, "%s_seq", prefix);
    if (emit_seq(&c, name, err) != 0)
        return err->code;
    snprintf(name, sizeof name, "%s_rows", prefix);
    if (emit_rows(&c, name, err) != 0)
        return err->code;
    if (tree && emit_tree(&c, prefix, err) != 0)
        return err->code;
    return 0;
}
