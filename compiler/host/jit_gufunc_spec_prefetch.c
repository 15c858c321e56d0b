/* Software prefetches in the innermost loops of a specialised gufunc loop
 * (jit_gufunc_spec.h). A matvec 64x64 streams 32 KiB of matrix per
 * iteration through a loop whose rows wait on their add chains, and the
 * hardware prefetcher alone leaves it waiting on memory: 1e4 x 64 x 64
 * float64 took 24.7 ms on 2 threads (STREAM's limit about 16), 17.2 ms
 * with these prefetches; 49 -> 33.5 ms on 1 thread. LLVM 14's
 * loop-data-prefetch does nothing on x86 (no cache line size there), so
 * this file runs the optimisation itself, unrolls innermost loops whose
 * trip reads less than a cache line of a stream, and adds before the
 * loads of each innermost loop a prefetch of the same stream some bytes
 * ahead, one per line a trip starts. Streams are told apart by address
 * (base + sum of scale * term + constant, through GEPs, add, or, shl,
 * mul); a load whose address is the same every trip gets none.
 * Prefetches never fault and change no result. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/host/jit_gufunc_spec.h"
#include "compiler/host/llvm_cfg.h"

/* ---- the prefetches -------------------------------------------------- */

static bool defined_in(LLVMValueRef v, const uf__cfg *g, const bool *in)
{
    if (!LLVMIsAInstruction(v))
        return false;
    int b = uf__cfg_block(g, LLVMGetInstructionParent(v));
    return b >= 0 && in[b];
}

/* An address as base + sum of scale * term + c (bytes): the unrolled
 * and jammed copies of a loop's loads share base and terms and differ in
 * c. Recognised: add, `or` with a constant (unrolled copies of an aligned
 * index: a heuristic, a prefetch needs no exactness), shl and mul by a
 * constant; anything else is a term. */
#define MAXTERMS 4
typedef struct addr {
    LLVMValueRef base, load;
    int64_t size; /* bytes the load reads */
    int nterms;
    LLVMValueRef term[MAXTERMS];
    int64_t scale[MAXTERMS];
    int64_t c;
} addr;

static bool const_of(LLVMValueRef v, int64_t *c)
{
    if (!LLVMIsAConstantInt(v) ||
        LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
        return false;
    *c = LLVMConstIntGetSExtValue(v);
    return true;
}

/* Address arithmetic wraps (as the machine's): no signed overflow here. */
static int64_t wadd(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t wsub(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}

static int64_t wmul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

static bool linear(LLVMValueRef v, int64_t scale, addr *a, int depth)
{
    int64_t c;
    if (const_of(v, &c)) {
        a->c = wadd(a->c, wmul(scale, c));
        return true;
    }
    if (depth < 6 && LLVMIsABinaryOperator(v)) {
        LLVMValueRef x = LLVMGetOperand(v, 0), y = LLVMGetOperand(v, 1);
        switch (LLVMGetInstructionOpcode(v)) {
        case LLVMAdd:
            return linear(x, scale, a, depth + 1) &&
                   linear(y, scale, a, depth + 1);
        case LLVMOr:
            if (const_of(y, &c))
                return linear(x, scale, a, depth + 1) &&
                       linear(y, scale, a, depth + 1);
            break;
        case LLVMShl:
            if (const_of(y, &c) && c >= 0 && c < 32)
                return linear(x, wmul(scale, (int64_t)1 << c), a,
                              depth + 1);
            break;
        case LLVMMul:
            if (const_of(y, &c))
                return linear(x, wmul(scale, c), a, depth + 1);
            break;
        default:
            break;
        }
    }
    for (int k = 0; k < a->nterms; k++)
        if (a->term[k] == v) {
            a->scale[k] = wadd(a->scale[k], scale);
            return true;
        }
    if (a->nterms == MAXTERMS)
        return false;
    a->term[a->nterms] = v;
    a->scale[a->nterms++] = scale;
    return true;
}

static LLVMValueRef strip_casts(LLVMValueRef v)
{
    while (LLVMIsABitCastInst(v))
        v = LLVMGetOperand(v, 0);
    return v;
}

/* Through chains of one-index GEPs (an unrolled copy's address is often
 * a GEP of the first copy's). */
static void split_address(LLVMTargetDataRef td, LLVMValueRef v, addr *a)
{
    v = strip_casts(v);
    *a = (addr){.base = v};
    addr t = {0};
    for (int depth = 0; depth < 4 && LLVMIsAGetElementPtrInst(v) &&
                        LLVMGetNumOperands(v) == 2;
         depth++) {
        int64_t size = (int64_t)LLVMABISizeOfType(
            td, LLVMGetGEPSourceElementType(v));
        if (!linear(LLVMGetOperand(v, 1), size, &t, 0))
            return;
        v = strip_casts(LLVMGetOperand(v, 0));
        t.base = v;
        *a = t;
    }
}

static bool same_stream(const addr *a, const addr *b)
{
    if (a->base != b->base || a->nterms != b->nterms)
        return false;
    for (int k = 0; k < a->nterms; k++) {
        int j = 0;
        while (j < b->nterms && !(b->term[j] == a->term[k] &&
                                  b->scale[j] == a->scale[k]))
            j++;
        if (j == b->nterms)
            return false;
    }
    return true;
}

/* The constant step of `v` if it is a counter of the loop `in` (a phi
 * adding a constant to itself), else 0. */
static int64_t counter_step(LLVMValueRef v, const uf__cfg *g, const bool *in)
{
    if (!LLVMIsAPHINode(v))
        return 0;
    for (unsigned k = 0; k < LLVMCountIncoming(v); k++) {
        LLVMValueRef x = LLVMGetIncomingValue(v, k);
        int64_t c;
        if (defined_in(x, g, in) && LLVMIsABinaryOperator(x) &&
            LLVMGetInstructionOpcode(x) == LLVMAdd &&
            LLVMGetOperand(x, 0) == v && const_of(LLVMGetOperand(x, 1), &c))
            return c;
    }
    return 0;
}

/* Whether the address `a` (of a load in the loop `in`) may differ from
 * one trip to the next: false when its base and terms are all defined
 * outside the loop, or are counters of it whose steps cancel out. */
static bool advances(const addr *a, const uf__cfg *g, const bool *in)
{
    if (defined_in(a->base, g, in))
        return true;
    int64_t step = 0;
    for (int k = 0; k < a->nterms; k++) {
        if (!defined_in(a->term[k], g, in))
            continue;
        int64_t c = counter_step(a->term[k], g, in);
        if (c == 0)
            return true; /* not a counter we know */
        step = wadd(step, wmul(c, a->scale[k]));
    }
    return step != 0;
}

#define MAXLOADS 256
#define LINE 64

static int by_c(const void *x, const void *y)
{
    const addr *a = x, *b = y;
    return a->c < b->c ? -1 : a->c > b->c;
}

/* The loads of the loop `in` whose addresses are defined in it, sorted
 * by stream (same_stream), then by offset; returns how many (at most
 * MAXLOADS), with size[i] the bytes load i reads. */
static int collect(LLVMModuleRef mod, const uf__cfg *g, const bool *in,
                   addr *ld)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(mod);
    int n = 0;
    for (int b = 0; b < g->n; b++) {
        if (!in[b])
            continue;
        for (LLVMValueRef ins = LLVMGetFirstInstruction(g->bb[b]);
             ins && n < MAXLOADS; ins = LLVMGetNextInstruction(ins)) {
            if (!LLVMIsALoadInst(ins) ||
                !defined_in(LLVMGetOperand(ins, 0), g, in))
                continue;
            addr a;
            split_address(td, LLVMGetOperand(ins, 0), &a);
            if (!advances(&a, g, in))
                continue; /* the same address every trip */
            a.load = ins;
            a.size = (int64_t)LLVMABISizeOfType(td, LLVMTypeOf(ins));
            /* insertion after the last load of the same stream */
            int at = n;
            for (int k = 0; k < n; k++)
                if (same_stream(&ld[k], &a))
                    at = k + 1;
            memmove(ld + at + 1, ld + at, (size_t)(n - at) * sizeof *ld);
            ld[at] = a;
            n++;
        }
    }
    for (int i = 0; i < n;) {
        int j = i + 1;
        while (j < n && same_stream(&ld[i], &ld[j]))
            j++;
        qsort(ld + i, (size_t)(j - i), sizeof *ld, by_c);
        i = j;
    }
    return n;
}

/* first[0..m): the loads (of ld, as collect sorts them) that start a
 * cache line of their stream: a stream's first, then each at least a line
 * after the last one started; returns m. `cover` gets the most bytes the
 * loads of one such line read (at most LINE). */
static int lines(const addr *ld, int n, int *first, int64_t *cover)
{
    int m = 0;
    *cover = 0;
    for (int i = 0; i < n; i++) {
        bool start = i == 0 || !same_stream(&ld[i - 1], &ld[i]) ||
                     wsub(ld[i].c, ld[first[m - 1]].c) >= LINE;
        if (start)
            first[m++] = i;
        int64_t c = wsub(wadd(ld[i].c, ld[i].size), ld[first[m - 1]].c);
        if (c > *cover)
            *cover = c > LINE ? LINE : c;
    }
    return m;
}

/* How many times to unroll the loop `in` so that a trip reads a cache
 * line of its streams (1: it does already, or reads none). */
static int unroll_count(LLVMModuleRef mod, const uf__cfg *g, const bool *in,
                        int most)
{
    uf_error err;
    addr *ld = uf__calloc(MAXLOADS + 1, sizeof *ld, &err);
    int *first = uf__calloc(MAXLOADS, sizeof *first, &err);
    int64_t cover = LINE;
    if (ld != NULL && first != NULL) {
        int n = collect(mod, g, in, ld);
        if (n > 0)
            lines(ld, n, first, &cover);
    }
    uf__free(ld);
    uf__free(first);
    int u = 1;
    while (u < most && cover > 0 && cover * u * 2 <= LINE)
        u *= 2;
    return u;
}

/* Prefetches for the loads of the loop `in` whose addresses are defined
 * in it, `distance` bytes ahead, one per line each trip starts. */
static void prefetch_loop(LLVMModuleRef mod, const uf__cfg *g, const bool *in,
                          int64_t distance)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx),
                i8p = LLVMPointerType(i8, 0),
                i32 = LLVMInt32TypeInContext(ctx),
                i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef pt[4] = {i8p, i32, i32, i32};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), pt, 4, 0);
    uf_error err;
    addr *ld = uf__calloc(MAXLOADS + 1, sizeof *ld, &err);
    int *first = uf__calloc(MAXLOADS, sizeof *first, &err);
    int n, m;
    int64_t cover;
    if (ld == NULL || first == NULL || (n = collect(mod, g, in, ld)) == 0)
        goto done;
    m = lines(ld, n, first, &cover);
    LLVMValueRef pf = LLVMGetNamedFunction(mod, "llvm.prefetch.p0i8");
    if (pf == NULL)
        pf = LLVMAddFunction(mod, "llvm.prefetch.p0i8", fty);
    LLVMBuilderRef B = LLVMCreateBuilderInContext(ctx);
    for (int k = 0; k < m; k++) {
        LLVMValueRef load = ld[first[k]].load;
        LLVMPositionBuilderBefore(B, load);
        LLVMValueRef p = LLVMBuildBitCast(B, LLVMGetOperand(load, 0), i8p,
                                          "");
        LLVMValueRef o = LLVMConstInt(i64, (unsigned long long)distance, 1);
        LLVMValueRef a[4] = {LLVMBuildGEP2(B, i8, p, &o, 1, "pf"),
                             LLVMConstInt(i32, 0, 0), /* read */
                             LLVMConstInt(i32, 3, 0), /* keep: t0 */
                             LLVMConstInt(i32, 1, 0)}; /* data */
        LLVMBuildCall2(B, fty, pf, a, 4, "");
    }
    LLVMDisposeBuilder(B);
done:
    uf__free(ld);
    uf__free(first);
}

/* A distinct loop ID {self, {"llvm.loop.unroll.count", n}}. */
static LLVMValueRef unroll_loop_id(LLVMContextRef ctx, int count)
{
    static const char key[] = "llvm.loop.unroll.count";
    LLVMMetadataRef temp = LLVMTemporaryMDNode(ctx, NULL, 0);
    LLVMMetadataRef kv[2] = {
        LLVMMDStringInContext2(ctx, key, sizeof key - 1),
        LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx),
                                         (unsigned long long)count, 0))};
    LLVMMetadataRef ops[2] = {temp, LLVMMDNodeInContext2(ctx, kv, 2)};
    LLVMMetadataRef id = LLVMMDNodeInContext2(ctx, ops, 2);
    LLVMMetadataReplaceAllUsesWith(temp, id);
    return LLVMMetadataAsValue(ctx, id);
}

/* For every innermost loop of `fn`: with unroll > 1 a request to unroll
 * it that many times (on its latch), else its prefetches. */
static void each_innermost(LLVMModuleRef mod, LLVMValueRef fn, int unroll,
                           int64_t distance)
{
    uf_error err;
    uf__cfg g = {0};
    int *head = NULL, *latch = NULL, *stack = NULL, nloops = 0, nedges;
    bool *in = NULL;
    if (!uf__cfg_build(&g, fn, &err))
        goto done;
    nedges = g.pstart[g.n + 1];
    if (!(head = uf__calloc((size_t)nedges + 1, sizeof *head, &err)) ||
        !(latch = uf__calloc((size_t)nedges + 1, sizeof *latch, &err)) ||
        !(stack = uf__calloc((size_t)g.n + 1, sizeof *stack, &err)) ||
        !(in = uf__calloc((size_t)g.n + 1, sizeof *in, &err)))
        goto done; /* out of memory: no prefetches, still right */
    for (int b = 0; b < g.n; b++)
        for (int e = g.pstart[b]; e < g.pstart[b + 1]; e++) {
            int p = g.preds[e]; /* the edge p -> b */
            if (uf__cfg_natural_loop(&g, b, p, in, stack)) {
                head[nloops] = b;
                latch[nloops++] = p;
            }
        }
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    unsigned kind = LLVMGetMDKindIDInContext(ctx, "llvm.loop", 9);
    for (int i = 0; i < nloops; i++) {
        /* a loop with two back edges: once */
        bool again = false;
        for (int j = 0; j < i && !again; j++)
            again = head[j] == head[i];
        uf__cfg_natural_loop(&g, head[i], latch[i], in, stack);
        bool innermost = true;
        for (int j = 0; j < nloops && innermost; j++)
            innermost = head[j] == head[i] || !in[head[j]];
        if (!innermost || again)
            continue;
        int u = unroll > 1 ? unroll_count(mod, &g, in, unroll) : 1;
        if (u > 1)
            LLVMSetMetadata(LLVMGetBasicBlockTerminator(g.bb[latch[i]]),
                            kind, unroll_loop_id(ctx, u));
        else if (unroll <= 1)
            prefetch_loop(mod, &g, in, distance);
    }
done:
    uf__free(head);
    uf__free(latch);
    uf__free(stack);
    uf__free(in);
    uf__cfg_free(&g);
}

/* After the unrolling of innermost loops: their copies' loads share
 * addresses and known offsets again. */
#define UNROLL_PASSES                                                      \
    "function(loop-unroll<O3>,early-cse,instcombine,simplifycfg)"

int uf__jit_gufunc_prefetch(uf__jit *jit, uf__lower *L, const char *passes,
                            const char *entry, int unroll,
                            int64_t distance, uf_error *err)
{
    if (uf__jit_run_passes(jit, L, passes, err) != 0)
        return err->code;
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, entry);
    if (fn == NULL || distance <= 0)
        return 0;
    if (unroll > 1) {
        each_innermost(L->mod, fn, unroll, distance);
        if (uf__jit_run_passes(jit, L, UNROLL_PASSES, err) != 0)
            return err->code;
    }
    each_innermost(L->mod, fn, 0, distance);
    return 0;
}
