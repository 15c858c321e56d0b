/* The CUDA entry of a reduction (nvvm.h, "The reduction kernel ABI"):
 * one kernel, three modes, around a binary kernel f(a, b) lowered by the
 * shared code. TREE reduces rows in fixed chunks, each block one chunk in
 * shared memory, in exactly the pairwise order of the CPU target's tree
 * (compiler/host/jit_reduce.h), so that cpu, cudasim and a GPU give the
 * same bits on any grid. FOLD combines, one thread per output, a start
 * value with segments left to right (the CPU's order along axes it does
 * not reduce by the tree, and the start value applied last). SCAN is
 * uf_accumulate: one thread per line, in order (the CPU's bits; a line
 * is as slow as one thread walking it, fine when there are thousands of
 * lines, poor for one long 1-D accumulate: a parallel scan would change
 * the order of float operations).
 *
 * The tree inside a chunk: thread t is lane t % 8 of leaf t / 8 (leaves of
 * UF__REDUCE_BLOCK elements, the CPU's blocks): it folds x[j], x[j+8], ...
 * as one of the CPU's eight accumulators; then shared-memory levels
 * s = 1, 2, 4, ... combine sh[t] with sh[t + s] when t % 2s == 0 and the
 * right one exists. Levels 1-4 are the CPU's lane tree, the leaf's
 * remainder is folded in after them, and the later levels are the CPU's
 * block tree (a right operand missing at a level is carried up unchanged,
 * which is the CPU's split after the largest power of two). Chunks are a
 * power of two of leaves, so the partials of a row, reduced again in
 * chunks of 256 the same way, give the CPU's tree over the whole row.
 * Every level goes through shared memory; warp shuffles (the codegen
 * target's warp hook, on cudasim too since nvvm_warp.c) could replace the
 * last five levels on a GPU, kept in the same order. */
#include <stdio.h>

#include "common/error_internal.h"
#include "compiler/host/jit_reduce.h"
#include "compiler/nvvm/nvvm_internal.h"

#define B (c->L->b)

typedef struct rctx {
    uf__lower *L;
    uf__fn F;
    LLVMValueRef kernel;
    LLVMTypeRef kty;
    uf_dtype acc, ret;
    LLVMTypeRef ssa, mem, i8, i8p, i32, i64;
    /* parameters */
    LLVMValueRef mode, src, dst, init, dims, nk, nr, count, n, stride,
        rowstep, flag;
    LLVMValueRef sh; /* the block's shared array (TREE) */
} rctx;

static LLVMValueRef k64(rctx *c, int64_t v)
{
    return LLVMConstInt(c->i64, (unsigned long long)v, 1);
}

static LLVMValueRef at(rctx *c, LLVMValueRef base, LLVMValueRef off)
{
    LLVMValueRef p = LLVMBuildGEP2(B, c->i8, base, &off, 1, "");
    return LLVMBuildBitCast(B, p, LLVMPointerType(c->mem, 0), "");
}

static LLVMValueRef load(rctx *c, LLVMValueRef base, LLVMValueRef off)
{
    LLVMValueRef v = LLVMBuildLoad2(B, c->mem, at(c, base, off), "");
    if (c->acc == UF_BOOL) /* any nonzero byte is True */
        v = LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(c->mem), "");
    return v;
}

static void store(rctx *c, LLVMValueRef v, LLVMValueRef base,
                  LLVMValueRef off)
{
    if (c->acc == UF_BOOL)
        v = LLVMBuildZExt(B, v, c->mem, "");
    LLVMBuildStore(B, v, at(c, base, off));
}

/* f(a, b) as the accumulator type */
static LLVMValueRef apply(rctx *c, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef args[2] = {a, b};
    LLVMValueRef r = LLVMBuildCall2(B, c->kty, c->kernel, args, 2, "");
    return uf__emit_cast(&c->F, r, c->ret, c->acc);
}

/* if (cond) { then(c, ud) } at the builder */
static void when(rctx *c, LLVMValueRef cond,
                 void (*then)(rctx *c, void *ud), void *ud)
{
    LLVMBasicBlockRef yes = uf__fn_block(&c->F, "then");
    LLVMBasicBlockRef done = uf__fn_block(&c->F, "endif");
    LLVMBuildCondBr(B, cond, yes, done);
    LLVMPositionBuilderAtEnd(B, yes);
    then(c, ud);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
}

/* for (*ip = from; *ip < to; *ip += step) body(c, i, ud) */
static void loop(rctx *c, LLVMValueRef from, LLVMValueRef to, LLVMValueRef step,
                 void (*body)(rctx *c, LLVMValueRef i, void *ud), void *ud)
{
    LLVMValueRef ip = uf__fn_alloca(&c->F, c->i64, "ip");
    LLVMBuildStore(B, from, ip);
    LLVMBasicBlockRef hdr = uf__fn_block(&c->F, "loop");
    LLVMBasicBlockRef bb = uf__fn_block(&c->F, "loop.body");
    LLVMBasicBlockRef done = uf__fn_block(&c->F, "loop.done");
    LLVMBuildBr(B, hdr);
    LLVMPositionBuilderAtEnd(B, hdr);
    LLVMValueRef i = LLVMBuildLoad2(B, c->i64, ip, "i");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, to, ""), bb, done);
    LLVMPositionBuilderAtEnd(B, bb);
    body(c, i, ud);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, step, ""), ip);
    /* not unrolled: the copies' 64-bit indexes cost registers (int sums
     * of contiguous rows: 32 -> 22; the general kernel 56 -> 48) and
     * occupancy hides the latency (numba-cuda's loop is not unrolled
     * either) */
    LLVMValueRef back = LLVMBuildBr(B, hdr);
    LLVMSetMetadata(back, LLVMGetMDKindIDInContext(c->L->ctx, "llvm.loop", 9),
                    uf__nvvm_no_unroll_id(c->L->ctx));
    LLVMPositionBuilderAtEnd(B, done);
}

/* The byte offset of C-order index i over the dims triples
 * dims[from..from+nd) (n, s_in, s_out): the input's, and the output's
 * into *oo when not NULL. */
typedef struct dims_ud {
    LLVMValueRef from, rem, oi, oo; /* allocas but `from` */
} dims_ud;

static LLVMValueRef dim_word(rctx *c, LLVMValueRef d, int w)
{
    LLVMValueRef ix = LLVMBuildAdd(B, LLVMBuildMul(B, d, k64(c, 3), ""),
                                   k64(c, w), "");
    LLVMValueRef p = LLVMBuildGEP2(B, c->i64,
                                   LLVMBuildBitCast(B, c->dims,
                                                    LLVMPointerType(c->i64, 0),
                                                    ""),
                                   &ix, 1, "");
    return LLVMBuildLoad2(B, c->i64, p, "");
}

static void dims_body(rctx *c, LLVMValueRef k, void *v)
{
    dims_ud *u = v;
    /* innermost first: dim from + nd - 1 - k, walked as k counts up */
    LLVMValueRef d = LLVMBuildSub(B, u->from, k, "");
    LLVMValueRef n = dim_word(c, d, 0);
    LLVMValueRef rem = LLVMBuildLoad2(B, c->i64, u->rem, "");
    LLVMValueRef id = LLVMBuildURem(B, rem, n, "");
    LLVMBuildStore(B, LLVMBuildUDiv(B, rem, n, ""), u->rem);
    LLVMValueRef oi = LLVMBuildLoad2(B, c->i64, u->oi, "");
    LLVMBuildStore(B, LLVMBuildAdd(B, oi, LLVMBuildMul(B, id, dim_word(c, d, 1),
                                                       ""), ""), u->oi);
    if (u->oo) {
        LLVMValueRef oo = LLVMBuildLoad2(B, c->i64, u->oo, "");
        LLVMBuildStore(B, LLVMBuildAdd(B, oo, LLVMBuildMul(B, id,
                                                           dim_word(c, d, 2),
                                                           ""), ""), u->oo);
    }
}

static void dim_offsets(rctx *c, LLVMValueRef i, LLVMValueRef from,
                        LLVMValueRef nd, LLVMValueRef *oi, LLVMValueRef *oo)
{
    dims_ud u = {LLVMBuildSub(B, LLVMBuildAdd(B, from, nd, ""), k64(c, 1), ""),
                 uf__fn_alloca(&c->F, c->i64, "rem"),
                 uf__fn_alloca(&c->F, c->i64, "oi"),
                 oo ? uf__fn_alloca(&c->F, c->i64, "oo") : NULL};
    LLVMBuildStore(B, i, u.rem);
    LLVMBuildStore(B, k64(c, 0), u.oi);
    if (oo)
        LLVMBuildStore(B, k64(c, 0), u.oo);
    loop(c, k64(c, 0), nd, k64(c, 1), dims_body, &u);
    *oi = LLVMBuildLoad2(B, c->i64, u.oi, "");
    if (oo)
        *oo = LLVMBuildLoad2(B, c->i64, u.oo, "");
}

/* ---- FOLD ------------------------------------------------------------- */

typedef struct fold_ud {
    LLVMValueRef base, acc; /* the output's segments, the accumulator */
} fold_ud;

static void fold_body(rctx *c, LLVMValueRef r, void *v)
{
    fold_ud *u = v;
    LLVMValueRef off, nk = LLVMBuildSExt(B, c->nk, c->i64, "");
    dim_offsets(c, r, nk, LLVMBuildSExt(B, c->nr, c->i64, ""), &off, NULL);
    LLVMValueRef a = LLVMBuildLoad2(B, c->ssa, u->acc, "");
    LLVMBuildStore(B, apply(c, a, load(c, u->base, off)), u->acc);
}

static void fold_each(void *ctx, LLVMValueRef m)
{
    rctx *c = ctx;
    LLVMValueRef oi, oo;
    dim_offsets(c, m, k64(c, 0), LLVMBuildSExt(B, c->nk, c->i64, ""), &oi,
                &oo);
    fold_ud u = {NULL, uf__fn_alloca(&c->F, c->ssa, "acc")};
    u.base = LLVMBuildGEP2(
        B, c->i8, c->src,
        (LLVMValueRef[]){LLVMBuildAdd(B, oi, LLVMBuildMul(B, m, c->rowstep,
                                                          ""), "")},
        1, "");
    /* the start: init[0] (flag 0), the output's own value (1), or the
     * segments' first element (2) */
    for (int f = 0; f < 3; f++) {
        LLVMBasicBlockRef yes = uf__fn_block(&c->F, "start");
        LLVMBasicBlockRef next = uf__fn_block(&c->F, "start.next");
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, c->flag,
                                         LLVMConstInt(c->i32, (unsigned)f, 0),
                                         ""),
                        yes, next);
        LLVMPositionBuilderAtEnd(B, yes);
        LLVMValueRef v = f == 0   ? load(c, c->init, k64(c, 0))
                         : f == 1 ? load(c, c->dst, oo)
                                  : load(c, u.base, k64(c, 0));
        LLVMBuildStore(B, v, u.acc);
        LLVMBuildBr(B, next);
        LLVMPositionBuilderAtEnd(B, next);
    }
    loop(c, k64(c, 0), c->n, k64(c, 1), fold_body, &u);
    store(c, LLVMBuildLoad2(B, c->ssa, u.acc, ""), c->dst, oo);
}

/* ---- SCAN ------------------------------------------------------------- */

typedef struct scan_ud {
    LLVMValueRef in, out, acc; /* the line's input and output, the acc */
} scan_ud;

static void scan_body(rctx *c, LLVMValueRef q, void *v)
{
    scan_ud *u = v;
    LLVMValueRef a = LLVMBuildLoad2(B, c->ssa, u->acc, "");
    LLVMValueRef r = apply(c, a, load(c, u->in, LLVMBuildMul(B, q, c->stride,
                                                             "")));
    LLVMBuildStore(B, r, u->acc);
    store(c, r, u->out, LLVMBuildMul(B, q, c->rowstep, ""));
}

/* One line of an accumulate, left to right (the CPU's order: each
 * output is f(previous output, element)). */
static void scan_each(void *ctx, LLVMValueRef m)
{
    rctx *c = ctx;
    LLVMValueRef oi, oo;
    dim_offsets(c, m, k64(c, 0), LLVMBuildSExt(B, c->nk, c->i64, ""), &oi,
                &oo);
    scan_ud u = {LLVMBuildGEP2(B, c->i8, c->src, &oi, 1, ""),
                 LLVMBuildGEP2(B, c->i8, c->dst, &oo, 1, ""),
                 uf__fn_alloca(&c->F, c->ssa, "acc")};
    LLVMValueRef first = load(c, u.in, k64(c, 0));
    LLVMBuildStore(B, first, u.acc);
    store(c, first, u.out, k64(c, 0));
    loop(c, k64(c, 1), c->n, k64(c, 1), scan_body, &u);
}

/* ---- TREE ------------------------------------------------------------- */

typedef struct tree_ud {
    LLVMValueRef tid, base, start, P, lastL, nleaves, v, a, j, ls, task;
} tree_ud;

static LLVMValueRef sh_at(rctx *c, LLVMValueRef i)
{
    LLVMValueRef off = LLVMBuildMul(
        B, i, k64(c, (int64_t)uf_dtype_itemsize(c->acc)), "");
    return off;
}

static LLVMValueRef elem_off(rctx *c, LLVMValueRef i)
{
    return LLVMBuildMul(B, i, c->stride, "");
}

static LLVMValueRef min64(rctx *c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, a, b, ""), a, b,
                           "");
}

/* v = f(v, x[ls + i + j]) : a lane's step */
static void lane_step(rctx *c, LLVMValueRef i, void *ud)
{
    tree_ud *u = ud;
    LLVMValueRef ix = LLVMBuildAdd(B, LLVMBuildAdd(B, u->ls, i, ""), u->j, "");
    LLVMValueRef v = LLVMBuildLoad2(B, c->ssa, u->v, "");
    LLVMBuildStore(B, apply(c, v, load(c, u->base, elem_off(c, ix))), u->v);
}

/* a leaf of fewer than 8: x[ls], then left to right */
static void seq_step(rctx *c, LLVMValueRef i, void *ud)
{
    tree_ud *u = ud;
    LLVMValueRef ix = LLVMBuildAdd(B, u->ls, i, "");
    LLVMValueRef v = LLVMBuildLoad2(B, c->ssa, u->v, "");
    LLVMBuildStore(B, apply(c, v, load(c, u->base, elem_off(c, ix))), u->v);
}

/* A full leaf: the lane's 16 elements loaded before they are folded, in
 * lane_step's order. The loop, which waits for each load, kept one load
 * in flight per thread, too few to cover the memory's latency: a 10**8
 * float64 sum ran at 2 TB/s on an H200 (CUB: 4.4). */
#define LEAF_LOADS (UF__REDUCE_BLOCK / UF__REDUCE_LANES)

static void full_leaf(rctx *c, tree_ud *u)
{
    LLVMValueRef x[LEAF_LOADS], v, first = LLVMBuildAdd(B, u->ls, u->j, "");
    for (int k = 0; k < LEAF_LOADS; k++) {
        LLVMValueRef at = k64(c, (int64_t)k * UF__REDUCE_LANES);
        x[k] = load(c, u->base, elem_off(c, LLVMBuildAdd(B, first, at, "")));
    }
    v = x[0];
    for (int k = 1; k < LEAF_LOADS; k++)
        v = apply(c, v, x[k]);
    LLVMBuildStore(B, v, u->v);
}

/* The present thread's value of a leaf chunk into sh[tid]. */
static void leaf_value(rctx *c, void *ud)
{
    tree_ud *u = ud;
    LLVMValueRef b = LLVMBuildLShr(B, u->tid, k64(c, 3), "");
    u->j = LLVMBuildAnd(B, u->tid, k64(c, 7), "");
    u->ls = LLVMBuildAdd(B, u->start,
                         LLVMBuildMul(B, b, k64(c, UF__REDUCE_BLOCK), ""), "");
    LLVMValueRef len = min64(c, k64(c, UF__REDUCE_BLOCK),
                             LLVMBuildSub(B, c->n, u->ls, ""));
    LLVMBasicBlockRef wide = uf__fn_block(&c->F, "wide");
    LLVMBasicBlockRef narrow = uf__fn_block(&c->F, "narrow");
    LLVMBasicBlockRef done = uf__fn_block(&c->F, "leaf.done");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGE, len,
                                     k64(c, UF__REDUCE_LANES), ""),
                    wide, narrow);
    LLVMPositionBuilderAtEnd(B, wide);
    LLVMBasicBlockRef full = uf__fn_block(&c->F, "leaf.full");
    LLVMBasicBlockRef part = uf__fn_block(&c->F, "leaf.part");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, len,
                                     k64(c, UF__REDUCE_BLOCK), ""),
                    full, part);
    LLVMPositionBuilderAtEnd(B, full);
    full_leaf(c, u);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, part);
    LLVMBuildStore(B, load(c, u->base,
                           elem_off(c, LLVMBuildAdd(B, u->ls, u->j, ""))),
                   u->v);
    /* i + 8 <= len */
    loop(c, k64(c, UF__REDUCE_LANES),
         LLVMBuildSub(B, len, k64(c, UF__REDUCE_LANES - 1), ""),
         k64(c, UF__REDUCE_LANES), lane_step, u);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, narrow);
    LLVMBuildStore(B, load(c, u->base, elem_off(c, u->ls)), u->v);
    loop(c, k64(c, 1), len, k64(c, 1), seq_step, u);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    store(c, LLVMBuildLoad2(B, c->ssa, u->v, ""), c->sh, sh_at(c, u->tid));
}

static void partial_value(rctx *c, void *ud)
{
    tree_ud *u = ud;
    LLVMValueRef ix = LLVMBuildAdd(B, u->start, u->tid, "");
    store(c, load(c, u->base, elem_off(c, ix)), c->sh, sh_at(c, u->tid));
}

typedef struct level_ud {
    tree_ud *u;
    int64_t s;
} level_ud;

static void level_combine(rctx *c, void *ud)
{
    level_ud *l = ud;
    LLVMValueRef t = l->u->tid;
    LLVMValueRef a = load(c, c->sh, sh_at(c, t));
    LLVMValueRef b = load(c, c->sh,
                          sh_at(c, LLVMBuildAdd(B, t, k64(c, l->s), "")));
    store(c, apply(c, a, b), c->sh, sh_at(c, t));
}

/* sh[t] = f(sh[t], sh[t + s]) where t % 2s == 0 and t + s < P; then a
 * barrier */
static void level(rctx *c, tree_ud *u, int64_t s)
{
    LLVMValueRef left = LLVMBuildICmp(
        B, LLVMIntEQ, LLVMBuildAnd(B, u->tid, k64(c, 2 * s - 1), ""),
        k64(c, 0), "");
    LLVMValueRef right = LLVMBuildICmp(
        B, LLVMIntSLT, LLVMBuildAdd(B, u->tid, k64(c, s), ""), u->P, "");
    level_ud l = {u, s};
    when(c, LLVMBuildAnd(B, left, right, ""), level_combine, &l);
    c->L->cg->syncthreads(c->L);
}

static void rest_step(rctx *c, LLVMValueRef i, void *ud)
{
    tree_ud *u = ud;
    LLVMValueRef ix = LLVMBuildAdd(B, u->ls, i, "");
    LLVMValueRef a = LLVMBuildLoad2(B, c->ssa, u->a, "");
    LLVMBuildStore(B, apply(c, a, load(c, u->base, elem_off(c, ix))), u->a);
}

/* The last leaf's elements past its lanes, left to right after its lane
 * tree (the CPU's remainder loop). */
static void leaf_rest(rctx *c, void *ud)
{
    tree_ud *u = ud;
    u->ls = LLVMBuildAdd(
        B, u->start,
        LLVMBuildMul(B, LLVMBuildSub(B, u->nleaves, k64(c, 1), ""),
                     k64(c, UF__REDUCE_BLOCK), ""),
        "");
    LLVMBuildStore(B, load(c, c->sh, sh_at(c, u->tid)), u->a);
    loop(c, LLVMBuildAnd(B, u->lastL, k64(c, ~(int64_t)7), ""), u->lastL,
         k64(c, 1), rest_step, u);
    store(c, LLVMBuildLoad2(B, c->ssa, u->a, ""), c->sh, sh_at(c, u->tid));
}

static void write_partial(rctx *c, void *ud)
{
    tree_ud *u = ud;
    store(c, load(c, c->sh, k64(c, 0)), c->dst, sh_at(c, u->task));
}

static LLVMValueRef is(rctx *c, LLVMIntPredicate p, LLVMValueRef a,
                       LLVMValueRef b)
{
    return LLVMBuildICmp(B, p, a, b, "");
}

/* One task of the block: chunk ch of row r, task = r * nchunks + ch,
 * its partial written to dst[task]. Every thread runs every step (the
 * barriers). */
static void tree_task(rctx *c, LLVMValueRef task, void *ud)
{
    tree_ud *u = ud;
    u->task = task;
    LLVMValueRef leaf = is(c, LLVMIntNE, c->flag, LLVMConstInt(c->i32, 0, 0));
    LLVMValueRef C = LLVMBuildSelect(B, leaf, k64(c, UF__NVVM_REDUCE_LEAF_CHUNK),
                                     k64(c, UF__NVVM_REDUCE_THREADS), "");
    LLVMValueRef nchunks = LLVMBuildUDiv(
        B, LLVMBuildSub(B, LLVMBuildAdd(B, c->n, C, ""), k64(c, 1), ""), C, "");
    LLVMValueRef r = LLVMBuildUDiv(B, task, nchunks, "");
    LLVMValueRef ch = LLVMBuildURem(B, task, nchunks, "");
    LLVMValueRef oi;
    dim_offsets(c, r, k64(c, 0), LLVMBuildSExt(B, c->nk, c->i64, ""), &oi,
                NULL);
    LLVMValueRef off = LLVMBuildAdd(B, oi, LLVMBuildMul(B, r, c->rowstep, ""),
                                    "");
    u->base = LLVMBuildGEP2(B, c->i8, c->src, &off, 1, "");
    u->start = LLVMBuildMul(B, ch, C, "");
    LLVMValueRef cnt = min64(c, C, LLVMBuildSub(B, c->n, u->start, ""));
    u->nleaves = LLVMBuildUDiv(
        B, LLVMBuildAdd(B, cnt, k64(c, UF__REDUCE_BLOCK - 1), ""),
        k64(c, UF__REDUCE_BLOCK), "");
    LLVMValueRef last = LLVMBuildSub(B, u->nleaves, k64(c, 1), "");
    u->lastL = LLVMBuildSub(
        B, cnt, LLVMBuildMul(B, last, k64(c, UF__REDUCE_BLOCK), ""), "");
    LLVMValueRef lanes = LLVMBuildSelect(
        B, is(c, LLVMIntSGE, u->lastL, k64(c, UF__REDUCE_LANES)),
        k64(c, UF__REDUCE_LANES), k64(c, 1), "");
    LLVMValueRef pleaf = LLVMBuildAdd(
        B, LLVMBuildMul(B, last, k64(c, UF__REDUCE_LANES), ""), lanes, "");
    u->P = LLVMBuildSelect(B, leaf, pleaf, cnt, "P");
    LLVMValueRef present = is(c, LLVMIntSLT, u->tid, u->P);
    when(c, LLVMBuildAnd(B, leaf, present, ""), leaf_value, u);
    when(c, LLVMBuildAnd(B, LLVMBuildNot(B, leaf, ""), present, ""),
         partial_value, u);
    c->L->cg->syncthreads(c->L);
    int64_t s = 1;
    for (; s < UF__REDUCE_LANES; s *= 2)
        level(c, u, s);
    LLVMValueRef rest = LLVMBuildAnd(
        B, is(c, LLVMIntSGE, u->lastL, k64(c, UF__REDUCE_LANES)),
        is(c, LLVMIntNE, LLVMBuildAnd(B, u->lastL, k64(c, 7), ""), k64(c, 0)),
        "");
    rest = LLVMBuildAnd(B, rest, leaf, "");
    rest = LLVMBuildAnd(
        B, rest,
        is(c, LLVMIntEQ, u->tid,
           LLVMBuildMul(B, last, k64(c, UF__REDUCE_LANES), "")),
        "");
    when(c, rest, leaf_rest, u);
    c->L->cg->syncthreads(c->L);
    for (; s < UF__NVVM_REDUCE_THREADS; s *= 2)
        level(c, u, s);
    when(c, is(c, LLVMIntEQ, u->tid, k64(c, 0)), write_partial, u);
    c->L->cg->syncthreads(c->L);
}

static void build_tree(rctx *c)
{
    const uf__codegen_target *cg = c->L->cg;
    size_t isz = uf_dtype_itemsize(c->acc);
    c->sh = cg->shared_static(c->L, UF__NVVM_REDUCE_THREADS * isz, 16);
    tree_ud u = {0};
    u.tid = LLVMBuildZExt(B, cg->sreg(c->L, UF__SREG_TID_X), c->i64, "tid");
    u.v = uf__fn_alloca(&c->F, c->ssa, "v");
    u.a = uf__fn_alloca(&c->F, c->ssa, "a");
    LLVMValueRef first = LLVMBuildZExt(B, cg->sreg(c->L, UF__SREG_CTAID_X),
                                       c->i64, "");
    LLVMValueRef step = LLVMBuildZExt(B, cg->sreg(c->L, UF__SREG_NCTAID_X),
                                      c->i64, "");
    /* tasks: rows times chunks (the chunk count as tree_task makes it) */
    LLVMValueRef leaf = is(c, LLVMIntNE, c->flag, LLVMConstInt(c->i32, 0, 0));
    LLVMValueRef C = LLVMBuildSelect(B, leaf, k64(c, UF__NVVM_REDUCE_LEAF_CHUNK),
                                     k64(c, UF__NVVM_REDUCE_THREADS), "");
    LLVMValueRef nchunks = LLVMBuildUDiv(
        B, LLVMBuildSub(B, LLVMBuildAdd(B, c->n, C, ""), k64(c, 1), ""), C, "");
    loop(c, first, LLVMBuildMul(B, c->count, nchunks, ""), step, tree_task, &u);
    LLVMBuildRetVoid(B);
}

/* ---- the entry --------------------------------------------------------- */

static LLVMValueRef build_entry(rctx *c, uf__nvvm_kernel *k, bool contig)
{
    uf__lower *L = c->L;
    LLVMTypeRef types[16];
    k->nparams = 0;
    uf__nvvm_param(k, types, c->i32, 4); /* mode */
    uf__nvvm_param(k, types, c->i8p, 8); /* src */
    uf__nvvm_param(k, types, c->i8p, 8); /* dst */
    uf__nvvm_param(k, types, c->i8p, 8); /* init */
    uf__nvvm_param(k, types, c->i8p, 8); /* dims */
    uf__nvvm_param(k, types, c->i32, 4); /* nk */
    uf__nvvm_param(k, types, c->i32, 4); /* nr */
    for (int i = 0; i < 4; i++)          /* count, n, stride, rowstep */
        uf__nvvm_param(k, types, c->i64, 8);
    uf__nvvm_param(k, types, c->i32, 4); /* flag */
    k->has_status = false;
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(L->ctx), types,
                                       (unsigned)k->nparams, 0);
    LLVMValueRef fn = LLVMAddFunction(L->mod, k->name, fty);
    uf__lower_target_attrs(L, fn);
    LLVMValueRef *slots[] = {&c->mode,  &c->src,   &c->dst,   &c->init,
                             &c->dims,  &c->nk,    &c->nr,    &c->count,
                             &c->n,     &c->stride, &c->rowstep, &c->flag};
    for (unsigned i = 0; i < sizeof slots / sizeof *slots; i++)
        *slots[i] = LLVMGetParam(fn, i);
    if (contig) { /* nvvm.h: TREE over contiguous rows, known at compile
                     time: no dims walk, a constant stride (float64 sum:
                     54 registers -> 22; numba-cuda's cuda.reduce: 28) */
        c->mode = LLVMConstInt(c->i32, UF__NVVM_REDUCE_TREE, 0);
        c->nk = c->nr = LLVMConstInt(c->i32, 0, 0);
        c->stride = LLVMConstInt(c->i64, uf_dtype_itemsize(c->acc), 0);
    }
    return fn;
}

static void fold_cb(void *ctx, LLVMValueRef m)
{
    fold_each(ctx, m);
}

int uf__nvvm_lower_reduce(uf__lower *L, const uf__nvvm_spec *spec,
                          uf__nvvm_kernel *k, uf_error *err)
{
    const uf__typed_func *tf = spec->tf;
    const char *kname = tf->decl ? tf->decl->name : "?";
    if (tf->nargs != 2 || tf->args[0]->kind != UF__T_SCALAR ||
        tf->args[1] != tf->args[0] || tf->ret->kind != UF__T_SCALAR)
        return uf__error_set(err, UF_ERR_TYPING,
                             "'%s' cannot be used as a reduction on CUDA: it "
                             "must take two values of one type and return "
                             "one number", kname);
    rctx *c = &(rctx){0};
    c->L = L;
    c->acc = tf->args[0]->dtype;
    c->ret = tf->ret->dtype;
    c->ssa = uf__lower_dtype(L, c->acc);
    c->mem = uf__lower_mem_dtype(L, c->acc);
    c->i8 = LLVMInt8TypeInContext(L->ctx);
    c->i8p = LLVMPointerType(c->i8, 0);
    c->i32 = LLVMInt32TypeInContext(L->ctx);
    c->i64 = LLVMInt64TypeInContext(L->ctx);
    bool fallible;
    c->kernel = uf__lower_func(L, tf, &fallible, err);
    if (!c->kernel)
        return err->code;
    int rc = uf__nvvm_refused(L, kname, err);
    if (rc != 0)
        return rc;
    if (fallible) /* a thread that stops would leave its block's barriers */
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "reduction '%s' on CUDA: the kernel can fail "
                             "(bounds checks, assert), which a reduction "
                             "on the GPU does not support", kname);
    c->kty = LLVMGlobalGetValueType(c->kernel);
    LLVMValueRef fn = build_entry(c, k, spec->v.layout == UF__NVVM_CONTIG);
    uf__fn_begin(&c->F, L, fn, false, true, err);
    LLVMBasicBlockRef fold = uf__fn_block(&c->F, "fold");
    LLVMBasicBlockRef scan = uf__fn_block(&c->F, "scan");
    LLVMBasicBlockRef tree = uf__fn_block(&c->F, "tree");
    LLVMValueRef sw = LLVMBuildSwitch(B, c->mode, tree, 2);
    LLVMAddCase(sw, LLVMConstInt(c->i32, UF__NVVM_REDUCE_FOLD, 0), fold);
    LLVMAddCase(sw, LLVMConstInt(c->i32, UF__NVVM_REDUCE_SCAN, 0), scan);
    LLVMPositionBuilderAtEnd(B, fold);
    uf__nvvm_grid_loop(L, &c->F, c->i64, false, c->count, NULL, fold_cb, c);
    LLVMPositionBuilderAtEnd(B, scan);
    uf__nvvm_grid_loop(L, &c->F, c->i64, false, c->count, NULL, scan_each,
                       c);
    LLVMPositionBuilderAtEnd(B, tree);
    build_tree(c);
    uf__fn_end(&c->F);
    return uf__nvvm_finish_entry(L, fn, k, err);
}
