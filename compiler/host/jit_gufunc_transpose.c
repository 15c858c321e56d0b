/* Row accumulators in vector lanes (jit_gufunc_transpose.h).
 *
 * A jammed matvec row loop keeps K scalar sums, each a chain of dependent
 * adds: on an AMD Zen 4 64x64 x 1e4 float64 it runs at about half of
 * STREAM's bandwidth, bound by its 2 loads, mul and add per element. The
 * sums cannot be split (Numba's order of adds is the result), but K rows
 * can share instructions: W columns of W rows loaded as W vectors,
 * transposed in registers (log2 W rounds of two-input shuffles), then per
 * column one vector mul by the column's x broadcast and one vector add
 * per W rows, lane k adding row k's product in the column order. Measured
 * in C on Zen 4 (64x64 x 1e4, cache-resident): 9.0 ms scalar, 2.4 ms
 * transposed by 8 (zmm), 3.0 by 4 (ymm, 4 groups); streaming from memory
 * it needs prefetches (prefetch_ahead), else its 8 row streams run
 * slower than the scalar loop's one (20.5 ms against 14.3).
 *
 * The rewrite matches the loop after LLVM's pipeline, exactly: anything
 * else in the loop (a store, a call, another operation, flags we cannot
 * see) leaves it alone. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "compiler/host/jit_gufunc_transpose.h"

#define MAXACC 64   /* rows summed side by side */
#define MAXMEMO 256 /* instructions cloned per address */

typedef struct pattern {
    LLVMBasicBlockRef head, pre, exit;
    LLVMValueRef term, iv, iv_next, start, n;
    int nacc;
    LLVMValueRef acc[MAXACC], init[MAXACC], upd[MAXACC], prod[MAXACC],
        row[MAXACC];
    LLVMValueRef x; /* the load every product shares */
    bool acc_first; /* fadd(acc, prod), else fadd(prod, acc) */
    bool row_first; /* fmul(row, x), else fmul(x, row) */
    LLVMTypeRef elt;
    int64_t esize;
    int width;
} pattern;

static bool in_block(LLVMValueRef v, LLVMBasicBlockRef bb)
{
    return LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == bb;
}

static bool is_op(LLVMValueRef v, LLVMOpcode op)
{
    return LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == op;
}

static bool const_int(LLVMValueRef v, int64_t *c)
{
    if (!LLVMIsAConstantInt(v) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
        return false;
    *c = LLVMConstIntGetSExtValue(v);
    return true;
}

/* An fadd/fmul with no fast-math flags: the LLVM-C API of LLVM 14 cannot
 * read them, its text can ("fadd double", not "fadd contract double"). */
static bool plain_fp(LLVMValueRef v, const char *op)
{
    char *s = LLVMPrintValueToString(v);
    const char *p = strstr(s, op);
    bool ok = false;
    if (p != NULL) {
        p += strlen(op);
        ok = strncmp(p, " double ", 8) == 0 || strncmp(p, " float ", 7) == 0;
    }
    LLVMDisposeMessage(s);
    return ok;
}

static bool single_use(LLVMValueRef v)
{
    LLVMUseRef u = LLVMGetFirstUse(v);
    return u != NULL && LLVMGetNextUse(u) == NULL;
}

/* Address arithmetic wraps, as the machine's: no signed overflow here. */
static int64_t wrap(uint64_t v)
{
    return (int64_t)v;
}

/* The coefficient of the loop's counter in the integer or address value
 * `v` (bytes per step for an address): through add, sub, shl and mul by a
 * constant, one-index GEPs and bitcasts; values defined outside the loop
 * count 0. False: something else in the loop. */
static bool coefficient(LLVMTargetDataRef td, const pattern *p,
                        LLVMValueRef v, int64_t *c, int depth)
{
    int64_t a, b, k;
    if (v == p->iv) {
        *c = 1;
        return true;
    }
    if (!in_block(v, p->head)) {
        *c = 0;
        return true;
    }
    if (depth > 12)
        return false;
    LLVMValueRef x = LLVMGetNumOperands(v) > 0 ? LLVMGetOperand(v, 0) : NULL;
    LLVMValueRef y = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd:
    case LLVMSub:
        if (!coefficient(td, p, x, &a, depth + 1) ||
            !coefficient(td, p, y, &b, depth + 1))
            return false;
        *c = LLVMGetInstructionOpcode(v) == LLVMAdd
                 ? wrap((uint64_t)a + (uint64_t)b)
                 : wrap((uint64_t)a - (uint64_t)b);
        return true;
    case LLVMShl:
        if (!const_int(y, &k) || k < 0 || k > 16 ||
            !coefficient(td, p, x, &a, depth + 1))
            return false;
        *c = wrap((uint64_t)a << k);
        return true;
    case LLVMMul:
        if (const_int(y, &k) && coefficient(td, p, x, &a, depth + 1)) {
            *c = wrap((uint64_t)a * (uint64_t)k);
            return true;
        }
        return false;
    case LLVMBitCast:
        return coefficient(td, p, x, c, depth + 1);
    case LLVMGetElementPtr:
        if (LLVMGetNumOperands(v) != 2 ||
            !coefficient(td, p, x, &a, depth + 1) ||
            !coefficient(td, p, y, &b, depth + 1))
            return false;
        *c = wrap((uint64_t)a +
                  (uint64_t)b * LLVMABISizeOfType(
                                    td, LLVMGetGEPSourceElementType(v)));
        return true;
    default:
        return false;
    }
}

static bool address_op(LLVMValueRef v)
{
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMShl:
    case LLVMMul:
    case LLVMBitCast:
        return true;
    case LLVMGetElementPtr:
        return LLVMGetNumOperands(v) == 2;
    default:
        return false;
    }
}

static bool plain_load(LLVMValueRef v, const pattern *p)
{
    return LLVMIsALoadInst(v) && in_block(v, p->head) &&
           !LLVMGetVolatile(v) &&
           LLVMGetOrdering(v) == LLVMAtomicOrderingNotAtomic &&
           LLVMTypeOf(v) == p->elt;
}

/* Whether every instruction of the loop is one the pattern names (or
 * address arithmetic), and only the sums and the counter are used after
 * it. */
static bool only_pattern(const pattern *p)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(p->head); i;
         i = LLVMGetNextInstruction(i)) {
        bool named = i == p->term || i == p->iv || i == p->iv_next ||
                     i == p->x || i == LLVMGetCondition(p->term);
        bool escapes_ok = i == p->iv_next;
        for (int k = 0; k < p->nacc && !named; k++) {
            named = i == p->acc[k] || i == p->upd[k] || i == p->prod[k] ||
                    i == p->row[k];
            escapes_ok = i == p->upd[k];
        }
        if (!named && !address_op(i))
            return false;
        if (escapes_ok)
            continue;
        for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u))
            if (!in_block(LLVMGetUser(u), p->head))
                return false;
    }
    return true;
}

/* The counter: j = phi [j0, pre], [j + 1, loop], leaving when j + 1 == n
 * (n defined before the loop). */
static bool match_counter(pattern *p)
{
    LLVMValueRef next = p->iv_next;
    int64_t one;
    if (!is_op(next, LLVMAdd) || !in_block(next, p->head) ||
        LLVMGetOperand(next, 0) != p->iv ||
        !const_int(LLVMGetOperand(next, 1), &one) || one != 1)
        return false;
    LLVMValueRef cond = LLVMGetCondition(p->term);
    if (!LLVMIsAICmpInst(cond) || !in_block(cond, p->head) ||
        !single_use(cond))
        return false;
    LLVMValueRef a = LLVMGetOperand(cond, 0), b = LLVMGetOperand(cond, 1);
    p->n = a == next ? b : b == next ? a : NULL;
    if (p->n == NULL || in_block(p->n, p->head))
        return false;
    LLVMIntPredicate pred = LLVMGetICmpPredicate(cond);
    LLVMBasicBlockRef on_true = LLVMGetSuccessor(p->term, 0);
    return (pred == LLVMIntEQ && on_true == p->exit) ||
           (pred == LLVMIntNE && on_true == p->head);
}

/* acc_k = phi [a_k, pre], [acc_k + row_k * x, loop] for every k, one x. */
static bool match_sums(pattern *p)
{
    int xpos = -1;
    for (int pos = 0; pos < 2 && xpos < 0; pos++) {
        bool same = true;
        for (int k = 1; k < p->nacc && same; k++)
            same = LLVMGetOperand(p->prod[k], (unsigned)pos) ==
                   LLVMGetOperand(p->prod[0], (unsigned)pos);
        if (same)
            xpos = pos;
    }
    if (xpos < 0)
        return false;
    p->row_first = xpos == 1;
    p->x = LLVMGetOperand(p->prod[0], (unsigned)xpos);
    if (!plain_load(p->x, p))
        return false;
    for (int k = 0; k < p->nacc; k++) {
        p->row[k] = LLVMGetOperand(p->prod[k], (unsigned)(1 - xpos));
        if (!plain_load(p->row[k], p) || p->row[k] == p->x)
            return false;
        for (int i = 0; i < k; i++)
            if (p->row[i] == p->row[k])
                return false;
    }
    return true;
}

static bool match(LLVMTargetDataRef td, LLVMBasicBlockRef bb, int bytes,
                  pattern *p)
{
    memset(p, 0, sizeof *p);
    p->head = bb;
    p->term = LLVMGetBasicBlockTerminator(bb);
    if (p->term == NULL || !LLVMIsABranchInst(p->term) ||
        !LLVMIsConditional(p->term))
        return false;
    LLVMBasicBlockRef s0 = LLVMGetSuccessor(p->term, 0),
                      s1 = LLVMGetSuccessor(p->term, 1);
    if ((s0 == bb) == (s1 == bb))
        return false;
    p->exit = s0 == bb ? s1 : s0;
    /* two edges into the loop: its own and the preheader's */
    int uses = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u;
         u = LLVMGetNextUse(u))
        uses++;
    if (uses != 2)
        return false;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i);
         i = LLVMGetNextInstruction(i)) {
        if (LLVMCountIncoming(i) != 2)
            return false;
        int self = LLVMGetIncomingBlock(i, 0) == bb ? 0 : 1;
        LLVMBasicBlockRef pre = LLVMGetIncomingBlock(i, (unsigned)(1 - self));
        if (LLVMGetIncomingBlock(i, (unsigned)self) != bb || pre == bb ||
            (p->pre != NULL && pre != p->pre))
            return false;
        p->pre = pre;
        LLVMValueRef from_pre = LLVMGetIncomingValue(i, (unsigned)(1 - self)),
                     from_loop = LLVMGetIncomingValue(i, (unsigned)self);
        LLVMTypeKind kind = LLVMGetTypeKind(LLVMTypeOf(i));
        if (kind == LLVMIntegerTypeKind && p->iv == NULL) {
            p->iv = i;
            p->start = from_pre;
            p->iv_next = from_loop;
        } else if ((kind == LLVMDoubleTypeKind || kind == LLVMFloatTypeKind) &&
                   p->nacc < MAXACC &&
                   (p->elt == NULL || p->elt == LLVMTypeOf(i))) {
            p->elt = LLVMTypeOf(i);
            p->acc[p->nacc] = i;
            p->init[p->nacc] = from_pre;
            p->upd[p->nacc++] = from_loop;
        } else {
            return false;
        }
    }
    if (p->iv == NULL || p->nacc == 0 || p->exit == p->pre ||
        !match_counter(p))
        return false;
    /* the preheader's branch reaches the loop once */
    LLVMValueRef pt = LLVMGetBasicBlockTerminator(p->pre);
    if (pt == NULL || !LLVMIsABranchInst(pt))
        return false;
    int edges = 0;
    for (unsigned s = 0; s < LLVMGetNumSuccessors(pt); s++)
        edges += LLVMGetSuccessor(pt, s) == bb;
    if (edges != 1)
        return false;
    p->esize = (int64_t)LLVMABISizeOfType(td, p->elt);
    p->width = (int)(bytes / p->esize);
    if (p->width < 2 || p->nacc % p->width != 0)
        return false;
    /* known too short for one block: nothing to gain */
    int64_t n, j0;
    if (const_int(p->n, &n) && const_int(p->start, &j0) &&
        n - j0 < p->width)
        return false;
    for (int k = 0; k < p->nacc; k++) {
        LLVMValueRef u = p->upd[k];
        if (!is_op(u, LLVMFAdd) || !in_block(u, bb) || !plain_fp(u, "fadd"))
            return false;
        bool first = LLVMGetOperand(u, 0) == p->acc[k];
        if (k > 0 && first != p->acc_first)
            return false;
        p->acc_first = first;
        p->prod[k] = LLVMGetOperand(u, first ? 1 : 0);
        if (LLVMGetOperand(u, first ? 0 : 1) != p->acc[k] ||
            !is_op(p->prod[k], LLVMFMul) || !in_block(p->prod[k], bb) ||
            !single_use(p->prod[k]) || !plain_fp(p->prod[k], "fmul") ||
            !single_use(p->acc[k]))
            return false;
        /* the sum's only use in the loop is its phi */
        for (LLVMUseRef use = LLVMGetFirstUse(u); use;
             use = LLVMGetNextUse(use))
            if (in_block(LLVMGetUser(use), bb) &&
                LLVMGetUser(use) != p->acc[k])
                return false;
    }
    if (!match_sums(p) || !only_pattern(p))
        return false;
    /* each row's W columns contiguous: its address steps by one element */
    for (int k = 0; k < p->nacc; k++) {
        int64_t c;
        if (!coefficient(td, p, LLVMGetOperand(p->row[k], 0), &c, 0) ||
            c != p->esize)
            return false;
    }
    int64_t c;
    return coefficient(td, p, LLVMGetOperand(p->x, 0), &c, 0);
}

/* ---- the rewrite -------------------------------------------------------- */

typedef struct memo {
    int n;
    LLVMValueRef from[MAXMEMO], to[MAXMEMO];
} memo;

/* `v` (an address in the loop) recomputed at the builder for the counter
 * value `j` (instructions of the loop cloned, operands remapped). */
static LLVMValueRef clone_at(LLVMBuilderRef B, const pattern *p, memo *m,
                             LLVMValueRef v, LLVMValueRef j)
{
    if (v == p->iv)
        return j;
    if (!in_block(v, p->head))
        return v;
    for (int i = 0; i < m->n; i++)
        if (m->from[i] == v)
            return m->to[i];
    int nops = LLVMGetNumOperands(v);
    LLVMValueRef ops[2] = {NULL, NULL};
    for (int k = 0; k < nops && k < 2; k++)
        ops[k] = clone_at(B, p, m, LLVMGetOperand(v, (unsigned)k), j);
    LLVMValueRef c = LLVMInstructionClone(v);
    for (int k = 0; k < nops && k < 2; k++)
        LLVMSetOperand(c, (unsigned)k, ops[k]);
    LLVMInsertIntoBuilder(B, c);
    if (m->n < MAXMEMO) {
        m->from[m->n] = v;
        m->to[m->n++] = c;
    }
    return c;
}

/* v[0..w) rows of a w x w block, in place into its columns: round b pairs
 * the vectors b apart and swaps their b-element blocks across. */
static void transpose(LLVMBuilderRef B, LLVMContextRef ctx, LLVMValueRef *v,
                      int w)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef lo[MAXACC], hi[MAXACC];
    for (int b = 1; b < w; b *= 2) {
        for (int e = 0; e < w; e++) {
            lo[e] = LLVMConstInt(i32, (unsigned)(e & b ? w + e - b : e), 0);
            hi[e] = LLVMConstInt(i32, (unsigned)(e & b ? w + e : e + b), 0);
        }
        LLVMValueRef mlo = LLVMConstVector(lo, (unsigned)w),
                     mhi = LLVMConstVector(hi, (unsigned)w);
        for (int q = 0; q < w; q++) {
            if (q & b)
                continue;
            LLVMValueRef x = v[q], y = v[q + b];
            v[q] = LLVMBuildShuffleVector(B, x, y, mlo, "tr.lo");
            v[q + b] = LLVMBuildShuffleVector(B, x, y, mhi, "tr.hi");
        }
    }
}

/* Replaces phi `old` of block `bb` by one whose incoming block `from` is
 * `to` with the value `val` (others kept); returns the new phi. */
static LLVMValueRef rebuild_phi(LLVMBuilderRef B, LLVMValueRef old,
                                LLVMBasicBlockRef from, LLVMBasicBlockRef to,
                                LLVMValueRef val)
{
    LLVMPositionBuilderBefore(B, old);
    LLVMValueRef phi = LLVMBuildPhi(B, LLVMTypeOf(old), "");
    for (unsigned i = 0; i < LLVMCountIncoming(old); i++) {
        LLVMBasicBlockRef bb = LLVMGetIncomingBlock(old, i);
        LLVMValueRef v = LLVMGetIncomingValue(old, i);
        if (bb == from) {
            bb = to;
            v = val;
        }
        LLVMAddIncoming(phi, &v, &bb, 1);
    }
    LLVMReplaceAllUsesWith(old, phi);
    LLVMInstructionEraseFromParent(old);
    return phi;
}

/* Uses of `v` outside block `bb` (and other than `keep`) now use `to`. */
static void replace_outside(LLVMValueRef v, LLVMBasicBlockRef bb,
                            LLVMValueRef keep, LLVMValueRef to)
{
    LLVMUseRef u = LLVMGetFirstUse(v);
    while (u) {
        LLVMUseRef next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        if (user != keep && !in_block(user, bb))
            for (int i = 0; i < LLVMGetNumOperands(user); i++)
                if (LLVMGetOperand(user, (unsigned)i) == v)
                    LLVMSetOperand(user, (unsigned)i, to);
        u = next;
    }
}

/* A prefetch of the line `distance` bytes after the address `a`. */
static void prefetch_at(LLVMBuilderRef B, LLVMContextRef ctx, LLVMValueRef a,
                        int64_t distance)
{
    LLVMModuleRef mod = LLVMGetGlobalParent(
        LLVMGetBasicBlockParent(LLVMGetInsertBlock(B)));
    LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), i8p = LLVMPointerType(i8, 0),
                i32 = LLVMInt32TypeInContext(ctx),
                i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef pt[4] = {i8p, i32, i32, i32};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), pt, 4, 0);
    LLVMValueRef pf = LLVMGetNamedFunction(mod, "llvm.prefetch.p0i8");
    if (pf == NULL)
        pf = LLVMAddFunction(mod, "llvm.prefetch.p0i8", fty);
    LLVMValueRef o = LLVMConstInt(i64, (unsigned long long)distance, 1);
    LLVMValueRef p = LLVMBuildBitCast(B, a, i8p, "");
    LLVMValueRef args[4] = {LLVMBuildGEP2(B, i8, p, &o, 1, "tr.pf"),
                            LLVMConstInt(i32, 0, 0), /* read */
                            LLVMConstInt(i32, 3, 0), /* to L1 */
                            LLVMConstInt(i32, 1, 0)}; /* data */
    LLVMBuildCall2(B, fty, pf, args, 4, "");
}

/* Prefetches for the block at column jv of the K rows read from `row0`
 * (row 0's address there): a matrix's rows follow each other, so the K
 * rows are one run of memory read in n / W blocks of K * W elements; each
 * block prefetches the next K * W elements of the run, `distance` bytes
 * ahead, in address order. Measured on Zen 4 in C on the same arrays
 * (64x64 x 1e4 float64, CPU time under load 8): 9.4-9.7 ms so, 10.8-11.1
 * with one prefetch per row line (the loads' order), 11.4-12.1 the scalar
 * loop. With other shapes the prefetches are only useless. */
static void prefetch_ahead(LLVMBuilderRef B, LLVMContextRef ctx,
                           const pattern *p, LLVMValueRef row0,
                           LLVMValueRef jv, int64_t distance)
{
    LLVMTypeRef i64 = LLVMTypeOf(jv), i8 = LLVMInt8TypeInContext(ctx);
    /* row0 + jv * (K - 1) * size: the run's position, K elements a column */
    LLVMValueRef skew = LLVMBuildMul(
        B, jv,
        LLVMConstInt(i64, (unsigned long long)((p->nacc - 1) * p->esize), 0),
        "");
    LLVMValueRef at = LLVMBuildGEP2(
        B, i8, LLVMBuildBitCast(B, row0, LLVMPointerType(i8, 0), ""), &skew,
        1, "");
    int64_t bytes = (int64_t)p->nacc * p->width * p->esize;
    for (int64_t off = 0; off < bytes; off += 64)
        prefetch_at(B, ctx, at, distance + off);
}

static void rewrite(LLVMContextRef ctx, const pattern *p, int64_t prefetch)
{
    int w = p->width, groups = p->nacc / w;
    LLVMTypeRef i64 = LLVMTypeOf(p->iv);
    LLVMTypeRef vt = LLVMVectorType(p->elt, (unsigned)w);
    LLVMTypeRef vpt = LLVMPointerType(vt, 0);
    LLVMValueRef W = LLVMConstInt(i64, (unsigned)w, 0);
    LLVMBuilderRef B = LLVMCreateBuilderInContext(ctx);
    LLVMBasicBlockRef H = p->head;
    LLVMBasicBlockRef check = LLVMInsertBasicBlockInContext(ctx, H, "tr.check"),
                      body = LLVMInsertBasicBlockInContext(ctx, H, "tr.body"),
                      end = LLVMInsertBasicBlockInContext(ctx, H, "tr.end"),
                      rest = LLVMInsertBasicBlockInContext(ctx, H, "tr.rest"),
                      join = LLVMInsertBasicBlockInContext(ctx, p->exit,
                                                           "tr.join");
    LLVMValueRef pt = LLVMGetBasicBlockTerminator(p->pre);
    for (unsigned s = 0; s < LLVMGetNumSuccessors(pt); s++)
        if (LLVMGetSuccessor(pt, s) == H)
            LLVMSetSuccessor(pt, s, check);

    /* check: enough columns for one block? */
    LLVMPositionBuilderAtEnd(B, check);
    LLVMValueRef left = LLVMBuildSub(B, p->n, p->start, "tr.left");
    LLVMValueRef init[MAXACC];
    for (int g = 0; g < groups; g++) {
        init[g] = LLVMGetUndef(vt);
        for (int l = 0; l < w; l++)
            init[g] = LLVMBuildInsertElement(
                B, init[g], p->init[g * w + l],
                LLVMConstInt(LLVMInt32TypeInContext(ctx), (unsigned)l, 0),
                "");
    }
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGE, left, W, ""), body,
                    rest);

    /* body: one block of w columns */
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef jv = LLVMBuildPhi(B, i64, "tr.j"), acc[MAXACC];
    for (int g = 0; g < groups; g++)
        acc[g] = LLVMBuildPhi(B, vt, "tr.acc");
    LLVMValueRef phis[MAXACC];
    memcpy(phis, acc, (size_t)groups * sizeof *acc);
    memo *m = calloc(1, sizeof *m);
    LLVMValueRef rows[MAXACC], xs[MAXACC];
    for (int k = 0; k < p->nacc; k++) {
        LLVMValueRef a = clone_at(B, p, m, LLVMGetOperand(p->row[k], 0), jv);
        if (k == 0 && prefetch > 0)
            prefetch_ahead(B, ctx, p, a, jv, prefetch);
        rows[k] = LLVMBuildLoad2(B, vt, LLVMBuildBitCast(B, a, vpt, ""),
                                 "tr.row");
        LLVMSetAlignment(rows[k], LLVMGetAlignment(p->row[k]));
    }
    LLVMValueRef zeros = LLVMConstNull(
        LLVMVectorType(LLVMInt32TypeInContext(ctx), (unsigned)w));
    for (int t = 0; t < w; t++) {
        LLVMValueRef jt = t == 0 ? jv
                                 : LLVMBuildAdd(B, jv,
                                                LLVMConstInt(i64, (unsigned)t,
                                                             0),
                                                "");
        m->n = 0; /* another counter value: clone afresh */
        LLVMValueRef a = clone_at(B, p, m, LLVMGetOperand(p->x, 0), jt);
        LLVMValueRef s = LLVMBuildLoad2(B, p->elt, a, "tr.x");
        LLVMSetAlignment(s, LLVMGetAlignment(p->x));
        s = LLVMBuildInsertElement(B, LLVMGetUndef(vt), s,
                                   LLVMConstNull(LLVMInt32TypeInContext(ctx)),
                                   "");
        xs[t] = LLVMBuildShuffleVector(B, s, LLVMGetUndef(vt), zeros, "");
    }
    free(m);
    for (int g = 0; g < groups; g++)
        transpose(B, ctx, rows + g * w, w);
    for (int t = 0; t < w; t++)
        for (int g = 0; g < groups; g++) {
            LLVMValueRef col = rows[g * w + t];
            LLVMValueRef prod = p->row_first
                                    ? LLVMBuildFMul(B, col, xs[t], "")
                                    : LLVMBuildFMul(B, xs[t], col, "");
            acc[g] = p->acc_first ? LLVMBuildFAdd(B, acc[g], prod, "")
                                  : LLVMBuildFAdd(B, prod, acc[g], "");
        }
    LLVMValueRef jnext = LLVMBuildAdd(B, jv, W, "tr.next");
    LLVMValueRef more = LLVMBuildICmp(
        B, LLVMIntSGE, LLVMBuildSub(B, p->n, jnext, ""), W, "");
    LLVMBuildCondBr(B, more, body, end);
    LLVMValueRef in[2] = {p->start, jnext};
    LLVMBasicBlockRef from[2] = {check, body};
    LLVMAddIncoming(jv, in, from, 2);
    for (int g = 0; g < groups; g++) {
        LLVMValueRef ai[2] = {init[g], acc[g]};
        LLVMAddIncoming(phis[g], ai, from, 2);
    }

    /* end: the sums back in scalars; done, or the rest column by column */
    LLVMPositionBuilderAtEnd(B, end);
    LLVMValueRef sums[MAXACC];
    for (int k = 0; k < p->nacc; k++)
        sums[k] = LLVMBuildExtractElement(
            B, acc[k / w],
            LLVMConstInt(LLVMInt32TypeInContext(ctx), (unsigned)(k % w), 0),
            "tr.sum");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, jnext, p->n, ""), join,
                    rest);

    /* rest: the original loop from where the blocks stopped */
    LLVMPositionBuilderAtEnd(B, rest);
    LLVMBasicBlockRef rfrom[2] = {check, end};
    LLVMValueRef jr = LLVMBuildPhi(B, i64, "tr.j0"), ar[MAXACC];
    LLVMValueRef jin[2] = {p->start, jnext};
    LLVMAddIncoming(jr, jin, rfrom, 2);
    for (int k = 0; k < p->nacc; k++) {
        ar[k] = LLVMBuildPhi(B, p->elt, "tr.a0");
        LLVMValueRef ain[2] = {p->init[k], sums[k]};
        LLVMAddIncoming(ar[k], ain, rfrom, 2);
    }
    LLVMBuildBr(B, H);
    rebuild_phi(B, p->iv, p->pre, rest, jr);
    for (int k = 0; k < p->nacc; k++)
        rebuild_phi(B, p->acc[k], p->pre, rest, ar[k]);

    /* join: the loop's results from either way out */
    for (unsigned s = 0; s < LLVMGetNumSuccessors(p->term); s++)
        if (LLVMGetSuccessor(p->term, s) == p->exit)
            LLVMSetSuccessor(p->term, s, join);
    LLVMPositionBuilderAtEnd(B, join);
    LLVMBasicBlockRef jfrom[2] = {H, end};
    LLVMValueRef outv[MAXACC + 1], outp[MAXACC + 1];
    int nout = 0;
    outv[nout] = p->iv_next;
    outp[nout] = jnext;
    nout++;
    for (int k = 0; k < p->nacc; k++) {
        outv[nout] = p->upd[k];
        outp[nout++] = sums[k];
    }
    for (int o = 0; o < nout; o++) {
        LLVMValueRef phi = LLVMBuildPhi(B, LLVMTypeOf(outv[o]), "tr.out");
        LLVMValueRef v2[2] = {outv[o], outp[o]};
        LLVMAddIncoming(phi, v2, jfrom, 2);
        outp[o] = phi;
    }
    LLVMBuildBr(B, p->exit);
    /* the exit's phis now come from join */
    for (LLVMValueRef i = LLVMGetFirstInstruction(p->exit);
         i && LLVMIsAPHINode(i);) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        for (unsigned e = 0; e < LLVMCountIncoming(i); e++) {
            if (LLVMGetIncomingBlock(i, e) != H)
                continue;
            LLVMValueRef v = LLVMGetIncomingValue(i, e);
            for (int o = 0; o < nout; o++)
                if (outv[o] == v)
                    v = outp[o];
            rebuild_phi(B, i, H, join, v);
            break;
        }
        i = next;
    }
    for (int o = 0; o < nout; o++)
        replace_outside(outv[o], H, outp[o], outp[o]);
    LLVMDisposeBuilder(B);
}

int uf__gufunc_transpose(LLVMModuleRef mod, LLVMValueRef fn,
                         int vector_bytes, int64_t prefetch)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(mod);
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    pattern *p = malloc(sizeof *p);
    int done = 0;
    if (p == NULL)
        return 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        if (match(td, bb, vector_bytes, p)) {
            rewrite(ctx, p, prefetch);
            done++;
        }
    free(p);
    return done;
}
