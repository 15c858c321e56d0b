/* The elementwise inner loop around a scalar kernel, with the signature of
 * ufunc/loop.h:
 *
 *   int loop(void *ctx, char *const *data, const int64_t *dims,
 *            const int64_t *strides, void *aux)
 *
 * One loop is generated per signature for vectorize ufuncs
 * (uf__lower_loop_contig): `int contig(n, ptrs)` over operands of unit
 * stride, with the kernel inlined, which the vectoriser turns into packed
 * code, run by the C dispatcher uf__rt_loop (targets/cpu/loop_rt.c) with a
 * descriptor (contig, operand counts, itemsizes) as the loop's aux.
 * uf__lower_loop (reductions, tests) adds a scalar strided loop and a
 * one-call `loop` wrapper holding a constant descriptor. uf__rt_loop picks
 * the path from the real strides:
 *   - contiguous: contig over the strip as it is;
 *   - buffered: any other strides (stride-0 scalars, a[::2], negative
 *     strides), the non-contiguous operands gathered into / scattered from
 *     small buffers around contig;
 *   - element by element: when an output partially overlaps another
 *     operand (the order is then the sequential one, as accumulate
 *     needs).
 * Everything but contig is plain C because compile time is what a
 * signature costs: the run-time checks and a second, strided copy of the
 * kernel were most of the optimiser's and code generator's work (bench/
 * bench_compile.c). That strided copy (uf__lower_loop_strided) is compiled
 * later, in a module of its own, by the first call that has strided
 * operands (jit_strided.c). The checks done in C also let contig promise the
 * vectoriser that iterations are independent (llvm.loop.parallel_accesses):
 * no run-time alias checks, and in-place calls vectorise too. A kernel
 * calling vector math gets a blocked contig (lower.h, UF__LOOP_BLOCK): its
 * loop, named "..._blk", runs whole blocks only; uf__rt_loop hands it any
 * strip through uf__rt_blocked, which pads the rest to a block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>

#include "common/error_internal.h"
#include "compiler/host/jit_passes.h"
#include "compiler/lower/lower_loop.h"

#define B (L->b)

typedef struct loop_ctx {
    uf__lower *L;
    uf__fn *F; /* the function being built */
    LLVMValueRef kernel;
    LLVMTypeRef kty;
    bool fallible;
    const uf_dtype *in, *res, *out;
    int nin, nout;
    bool tuple_ret;
    LLVMValueRef outslot;      /* fallible kernels return through this */
    LLVMValueRef access_group; /* contig's accesses, or NULL */
    int64_t block; /* contig runs whole blocks of this many (0: any n) */
    /* contig's element strides (L->contig_strides), NULL: all 1 */
    const int64_t *mult;
} loop_ctx;

static uf_dtype operand_dtype(const loop_ctx *c, int k)
{
    return k < c->nin ? c->in[k] : c->out[k - c->nin];
}

static LLVMTypeRef mem_type(const loop_ctx *c, int k)
{
    return uf__lower_mem_dtype(c->L, operand_dtype(c, k));
}

/* Tags an instruction of `contig` with its access group. */
static LLVMValueRef tag(loop_ctx *c, LLVMValueRef inst)
{
    if (c->access_group)
        LLVMSetMetadata(inst,
                        LLVMGetMDKindIDInContext(c->L->ctx, "llvm.access.group",
                                                 17),
                        c->access_group);
    return inst;
}

/* A fallible kernel's result slot, in the entry block of c->F. */
static void make_outslot(loop_ctx *c)
{
    c->outslot = NULL;
    if (!c->fallible || LLVMCountParamTypes(c->kty) != (unsigned)c->nin + 1)
        return;
    LLVMTypeRef ps[UF__LOOP_MAXARGS + 1];
    LLVMGetParamTypes(c->kty, ps);
    c->outslot = uf__fn_alloca(c->F, LLVMGetElementType(ps[0]), "res");
}

/* One element: load the inputs at `addr`, call, convert, store. A
 * fallible kernel's nonzero status is returned from c->F. */
static void element(loop_ctx *c, LLVMValueRef *addr)
{
    uf__lower *L = c->L;
    uf__fn *F = c->F;
    LLVMValueRef args[UF__LOOP_MAXARGS + 1];
    unsigned na = 0;
    if (c->outslot)
        args[na++] = c->outslot;
    for (int k = 0; k < c->nin; k++) {
        LLVMTypeRef mt = mem_type(c, k);
        LLVMValueRef v = tag(c, LLVMBuildLoad2(B, mt, addr[k], ""));
        if (c->in[k] == UF_BOOL) /* any nonzero byte is True */
            v = LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(mt), "");
        args[na++] = v;
    }
    /* the inliner passes the call's access group on to the kernel's
     * memory accesses */
    LLVMValueRef r = tag(c, LLVMBuildCall2(B, c->kty, c->kernel, args, na, ""));
    if (c->fallible) {
        uf__fn_raise_status(F, r);
        r = c->outslot
                ? tag(c, LLVMBuildLoad2(
                             B, LLVMGetElementType(LLVMTypeOf(c->outslot)),
                             c->outslot, ""))
                : NULL;
    }
    for (int j = 0; j < c->nout; j++) {
        LLVMValueRef v = (c->nout > 1 || c->tuple_ret)
                             ? LLVMBuildExtractValue(B, r, (unsigned)j, "")
                             : r;
        uf_dtype od = c->out[j];
        v = uf__emit_cast(F, v, c->res[j], od);
        if (od == UF_BOOL)
            v = LLVMBuildZExt(B, v, uf__lower_mem_dtype(L, od), "");
        tag(c, LLVMBuildStore(B, v, addr[c->nin + j]));
    }
}

/* ---- loop metadata ------------------------------------------------------ */

/* A metadata node {!"name"} or {!"name", value}. */
static LLVMMetadataRef md_prop(uf__lower *L, const char *name,
                               LLVMValueRef value)
{
    LLVMMetadataRef p[2] = {LLVMMDStringInContext2(L->ctx, name, strlen(name)),
                            value ? LLVMValueAsMetadata(value) : NULL};
    return LLVMMDNodeInContext2(L->ctx, p, value ? 2 : 1);
}

/* A loop ID: a distinct node listing itself first, then the properties.
 * The C API makes only uniqued nodes; a temporary first operand replaced
 * by the node itself turns it into a distinct self-referencing one. */
#define LOOP_ID_MAXPROPS 7
static LLVMValueRef loop_id(uf__lower *L, LLVMMetadataRef *props, int n)
{
    LLVMMetadataRef ops[LOOP_ID_MAXPROPS + 1];
    if (n > LOOP_ID_MAXPROPS)
        n = LOOP_ID_MAXPROPS;
    ops[0] = LLVMTemporaryMDNode(L->ctx, NULL, 0);
    for (int i = 0; i < n; i++)
        ops[i + 1] = props[i];
    LLVMMetadataRef id = LLVMMDNodeInContext2(L->ctx, ops, (size_t)n + 1);
    LLVMMetadataReplaceAllUsesWith(ops[0], id);
    return LLVMMetadataAsValue(L->ctx, id);
}

/* contig's loop: parallel_accesses (no iteration depends on another,
 * checked at run time before contig is called) when there is an access
 * group. */
static LLVMValueRef contig_md(uf__lower *L, LLVMValueRef group,
                              bool blocked, bool strided)
{
    LLVMMetadataRef p[LOOP_ID_MAXPROPS];
    int n = 0;
    p[n++] = md_prop(L, "llvm.loop.unroll.disable", NULL);
    /* constant strides (c->mult): the cost model prices the shuffles of
     * strided loads above the scalar loop, which memory-bound streaming
     * calls do not care about (jit_nontemporal.h) */
    if (strided)
        p[n++] = md_prop(L, "llvm.loop.vectorize.enable",
                         LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0));
    /* a blocked loop's vector step must divide the block: one vector per
     * step (the kernels blocked are vector math calls, which interleaving
     * does not speed up) */
    if (blocked)
        p[n++] = md_prop(L, "llvm.loop.interleave.count",
                         LLVMConstInt(LLVMInt32TypeInContext(L->ctx), 1, 0));
    if (group) {
        const char *k = "llvm.loop.parallel_accesses";
        LLVMMetadataRef q[2] = {LLVMMDStringInContext2(L->ctx, k, strlen(k)),
                                LLVMValueAsMetadata(group)};
        p[n++] = LLVMMDNodeInContext2(L->ctx, q, 2);
    }
    return loop_id(L, p, n);
}

/* An access group is a distinct metadata node without operands, which the
 * C API cannot make directly: it comes from parsing a one-line module in
 * the same context (metadata nodes belong to the context, not to the
 * module). NULL when that fails: contig then stays unannotated and the
 * vectoriser falls back on its own run-time checks. */
static LLVMValueRef make_access_group(uf__lower *L)
{
    static const char text[] = "!0 = distinct !{}\n!uf.ag = !{!0}\n";
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        text, sizeof text - 1, "access-group");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(L->ctx, buf, &m, &msg)) {
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMValueRef ag = NULL;
    if (LLVMGetNamedMetadataNumOperands(m, "uf.ag") == 1)
        LLVMGetNamedMetadataOperands(m, "uf.ag", &ag);
    LLVMDisposeModule(m);
    return ag;
}

LLVMValueRef uf__parallel_loop_md(uf__lower *L, LLVMValueRef *group)
{
    *group = make_access_group(L);
    return *group ? contig_md(L, *group, false, false) : NULL;
}

/* ---- loops ---------------------------------------------------------------- */

/* for (i = 0; i < n; i++) body(i), rotated (guard, then do-while) as the
 * vectoriser likes it. `body` emits one iteration at the builder. */
typedef void (*iter_fn)(loop_ctx *c, LLVMValueRef i, void *ud);

/* The loop block `bb`, entered from `pre` (whose terminator is built):
 * i from 0, body(i), then i + 1 (nuw when `nuw`) and back to bb while
 * `pred`(i + 1, bound), else to `exit`. */
static void loop_block(loop_ctx *c, LLVMBasicBlockRef pre,
                       LLVMBasicBlockRef bb, LLVMValueRef bound,
                       LLVMIntPredicate pred, bool nuw, LLVMValueRef md,
                       iter_fn body, void *ud, LLVMBasicBlockRef exit)
{
    uf__lower *L = c->L;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMPositionBuilderAtEnd(B, bb);
    LLVMValueRef i = LLVMBuildPhi(B, i64, "i");
    body(c, i, ud);
    LLVMValueRef one = LLVMConstInt(i64, 1, 0);
    LLVMValueRef next = nuw ? LLVMBuildNUWAdd(B, i, one, "")
                            : LLVMBuildAdd(B, i, one, "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMValueRef br = LLVMBuildCondBr(
        B, LLVMBuildICmp(B, pred, next, bound, ""), bb, exit);
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(L->ctx, "llvm.loop", 9), md);
    LLVMValueRef in_v[2] = {LLVMConstNull(i64), next};
    LLVMBasicBlockRef in_b[2] = {pre, latch};
    LLVMAddIncoming(i, in_v, in_b, 2);
}

static void counted_loop(loop_ctx *c, LLVMValueRef n, const char *name,
                         LLVMValueRef md, iter_fn body, void *ud,
                         LLVMBasicBlockRef exit)
{
    uf__lower *L = c->L;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef bb = uf__fn_block(c->F, name);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGT, n, LLVMConstNull(i64), ""),
                    bb, exit);
    loop_block(c, pre, bb, n, LLVMIntSLT, false, md, body, ud, exit);
}

/* for (i = 0; i != (n & -block); i++) body(i), for n >= block: the loop
 * of a blocked contig. Its trip count is a multiple of the block and not
 * zero (an assumption), so after vectorising by a factor dividing the
 * block, the vectoriser's remainder paths fold away. */
static void blocked_loop(loop_ctx *c, LLVMValueRef n, const char *name,
                         LLVMValueRef md, iter_fn body, void *ud,
                         LLVMBasicBlockRef exit)
{
    uf__lower *L = c->L;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef whole = LLVMBuildAnd(
        B, n, LLVMConstInt(i64, (unsigned long long)-c->block, 1), "whole");
    LLVMTypeRef i1 = LLVMInt1TypeInContext(L->ctx);
    LLVMTypeRef aty = LLVMFunctionType(LLVMVoidTypeInContext(L->ctx), &i1, 1,
                                       0);
    LLVMValueRef assume = LLVMGetIntrinsicDeclaration(
        L->mod, LLVMLookupIntrinsicID("llvm.assume", 11), NULL, 0);
    LLVMValueRef nz = LLVMBuildICmp(B, LLVMIntNE, whole, LLVMConstNull(i64), "");
    LLVMBuildCall2(B, aty, assume, &nz, 1, "");
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef bb = uf__fn_block(c->F, name);
    LLVMBuildBr(B, bb);
    loop_block(c, pre, bb, whole, LLVMIntNE, true, md, body, ud, exit);
}

static void contig_iter(loop_ctx *c, LLVMValueRef i, void *ud)
{
    LLVMValueRef *base = ud, addr[UF__LOOP_MAXARGS];
    for (int k = 0; k < c->nin + c->nout; k++) {
        LLVMValueRef ix = i;
        if (c->mult && c->mult[k] != 1)
            ix = LLVMBuildNSWMul(
                c->L->b, i,
                LLVMConstInt(LLVMTypeOf(i), (unsigned long long)c->mult[k], 1),
                "");
        addr[k] = LLVMBuildInBoundsGEP2(c->L->b, mem_type(c, k), base[k], &ix,
                                        1, "");
    }
    element(c, addr);
}

/* i32 contig(i64 n, i8 **ptrs): the contiguous loop over the operands
 * ptrs[0..nin+nout), which uf__rt_loop calls on whole strips, on chunks of
 * buffers and (without a strided loop) on single elements. */
static LLVMValueRef build_contig(loop_ctx *c, const char *name,
                                 uf_error *err)
{
    uf__lower *L = c->L;
    int nargs = c->nin + c->nout;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef params[2] = {i64, LLVMPointerType(i8p, 0)};
    LLVMValueRef fn = LLVMAddFunction(L->mod, name,
                                      LLVMFunctionType(i32, params, 2, 0));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    uf__lower_target_attrs(L, fn);
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, "noinline");
    /* the pointer array is only read and nothing else touches it */
    uf__lower_add_attr(L, fn, 2, "noalias");
    uf__lower_add_attr(L, fn, 2, "nocapture");
    uf__lower_add_attr(L, fn, 2, "readonly");

    uf__fn F;
    uf__fn_begin(&F, L, fn, false, true, err);
    c->F = &F;
    make_outslot(c);
    LLVMValueRef base[UF__LOOP_MAXARGS];
    for (int k = 0; k < nargs; k++) {
        LLVMValueRef ix = LLVMConstInt(i64, (unsigned long long)k, 0);
        LLVMValueRef p = LLVMBuildLoad2(
            B, i8p, LLVMBuildInBoundsGEP2(B, i8p, LLVMGetParam(fn, 1), &ix, 1, ""),
            "");
        base[k] = LLVMBuildBitCast(B, p, LLVMPointerType(mem_type(c, k), 0), "");
    }
    LLVMBasicBlockRef exit = uf__fn_block(&F, "exit");
    LLVMValueRef md = contig_md(L, c->access_group, c->block > 0,
                                c->mult != NULL);
    (c->block > 0 ? blocked_loop : counted_loop)(
        c, LLVMGetParam(fn, 0), "contig", md, contig_iter, base, exit);
    LLVMPositionBuilderAtEnd(B, exit);
    LLVMBuildRet(B, LLVMConstNull(i32));
    uf__fn_end(&F);
    return fn;
}

/* The strided loop's: not worth vectorising (gathers and scatters behind
 * run-time checks), nor unrolling. */
static LLVMValueRef scalar_md(uf__lower *L)
{
    LLVMMetadataRef p[2] = {
        md_prop(L, "llvm.loop.vectorize.enable",
                LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0)),
        md_prop(L, "llvm.loop.unroll.disable", NULL)};
    return loop_id(L, p, 2);
}

typedef struct strided_ud {
    LLVMValueRef *base, *stride;
} strided_ud;

static void strided_iter(loop_ctx *c, LLVMValueRef i, void *ud)
{
    uf__lower *L = c->L;
    strided_ud *s = ud;
    LLVMValueRef addr[UF__LOOP_MAXARGS];
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    for (int k = 0; k < c->nin + c->nout; k++) {
        LLVMValueRef off = LLVMBuildMul(B, i, s->stride[k], "");
        LLVMValueRef p = LLVMBuildGEP2(B, i8, s->base[k], &off, 1, "");
        addr[k] = LLVMBuildBitCast(B, p, LLVMPointerType(mem_type(c, k), 0), "");
    }
    element(c, addr);
}

/* i32 strided(i64 n, i8 **ptrs, i64 *strides): element after element in
 * order, for uf__lower_loop's callers (accumulate runs an output shifted
 * by one element through it): a scalar loop costs a tenth of a call of
 * contig per element there. */
static LLVMValueRef build_strided(loop_ctx *c, const char *name,
                                  uf_error *err)
{
    uf__lower *L = c->L;
    int nargs = c->nin + c->nout;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef params[3] = {i64, LLVMPointerType(i8p, 0),
                             LLVMPointerType(i64, 0)};
    LLVMValueRef fn = LLVMAddFunction(L->mod, name,
                                      LLVMFunctionType(i32, params, 3, 0));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    uf__lower_target_attrs(L, fn);
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, "noinline");
    for (int p = 2; p <= 3; p++) {
        uf__lower_add_attr(L, fn, p, "noalias");
        uf__lower_add_attr(L, fn, p, "nocapture");
        uf__lower_add_attr(L, fn, p, "readonly");
    }
    LLVMValueRef group = c->access_group;
    c->access_group = NULL; /* iterations may depend on each other here */
    uf__fn F;
    uf__fn_begin(&F, L, fn, false, true, err);
    c->F = &F;
    make_outslot(c);
    LLVMValueRef base[UF__LOOP_MAXARGS], stride[UF__LOOP_MAXARGS];
    for (int k = 0; k < nargs; k++) {
        LLVMValueRef ix = LLVMConstInt(i64, (unsigned long long)k, 0);
        base[k] = LLVMBuildLoad2(
            B, i8p, LLVMBuildInBoundsGEP2(B, i8p, LLVMGetParam(fn, 1), &ix, 1, ""),
            "");
        stride[k] = LLVMBuildLoad2(
            B, i64, LLVMBuildInBoundsGEP2(B, i64, LLVMGetParam(fn, 2), &ix, 1, ""),
            "");
    }
    LLVMBasicBlockRef exit = uf__fn_block(&F, "exit");
    strided_ud s = {base, stride};
    counted_loop(c, LLVMGetParam(fn, 0), "strided", scalar_md(L), strided_iter,
                 &s, exit);
    LLVMPositionBuilderAtEnd(B, exit);
    LLVMBuildRet(B, LLVMConstNull(i32));
    uf__fn_end(&F);
    c->access_group = group;
    return fn;
}

/* The loop's descriptor, a private constant { i8* contig, i8* strided,
 * i64 nin, i64 nargs, i64 block, [nargs x i64] itemsize } laid out as
 * uf__loop_desc. */
static LLVMValueRef make_desc(loop_ctx *c, LLVMValueRef contig,
                              LLVMValueRef strided, const char *name)
{
    uf__lower *L = c->L;
    int nargs = c->nin + c->nout;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMValueRef sizes[UF__LOOP_MAXARGS];
    for (int k = 0; k < nargs; k++)
        sizes[k] = LLVMConstInt(i64, uf_dtype_itemsize(operand_dtype(c, k)), 0);
    LLVMValueRef fields[6] = {
        LLVMConstBitCast(contig, i8p), LLVMConstBitCast(strided, i8p),
        LLVMConstInt(i64, (unsigned)c->nin, 0),
        LLVMConstInt(i64, (unsigned)nargs, 0),
        LLVMConstInt(i64, 0, 0), /* never blocked */
        LLVMConstArray(i64, sizes, (unsigned)nargs)};
    LLVMValueRef init = LLVMConstStructInContext(L->ctx, fields, 6, 0);
    char gname[112];
    snprintf(gname, sizeof gname, "%s_desc", name);
    LLVMValueRef g = LLVMAddGlobal(L->mod, LLVMTypeOf(init), gname);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
}

/* ---- blocked contig -------------------------------------------------- */

#define BLOCK_MAXFUNCS 64

/* 1 when `fn` or a function it calls calls vector math (a call site
 * naming libmvec variants, lower_math.c), 0 when none does, -1 when one
 * of them has a loop of its own (the outer loop would then stay scalar
 * and a padded block would only add work) or there are too many. */
static int vector_math(LLVMValueRef fn, LLVMValueRef *seen, int *nseen)
{
    static const char key[] = "vector-function-abi-variant";
    for (int i = 0; i < *nseen; i++)
        if (seen[i] == fn)
            return 0;
    if (*nseen == BLOCK_MAXFUNCS || uf__fn_back_edges(fn) != 0)
        return -1;
    seen[(*nseen)++] = fn;
    int found = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
             in = LLVMGetNextInstruction(in)) {
            if (!LLVMIsACallInst(in))
                continue;
            if (LLVMGetCallSiteStringAttribute(in, LLVMAttributeFunctionIndex,
                                               key, sizeof key - 1))
                found = 1;
            LLVMValueRef callee = LLVMGetCalledValue(in);
            if (callee && LLVMIsAFunction(callee) &&
                !LLVMIsDeclaration(callee)) {
                int r = vector_math(callee, seen, nseen);
                if (r < 0)
                    return -1;
                found |= r;
            }
        }
    return found;
}

/* Kernels worth a blocked contig: loop-free ones calling vector math.
 * Their vector epilogue and scalar remainder (scalar libm calls between
 * spills of every vector register) were about half of the code generator's
 * work per signature (polar_distance float32); the remainder of a strip
 * instead runs through the vector body on a padded block (measured: level
 * with the scalar remainder on 10 elements, 1000 too; a 1-element call
 * 30-150 ns slower, a whole vector computed), and every element gets the
 * vector function's bits wherever it sits. Cheap kernels keep the
 * remainder: copying a short strip into a block would cost them more than
 * computing it. */
static bool wants_block(LLVMValueRef kernel)
{
    LLVMValueRef seen[BLOCK_MAXFUNCS];
    int nseen = 0;
    return vector_math(kernel, seen, &nseen) > 0;
}

/* What both entry points share: the operand checks and contig, blocked
 * when `blockable` and the kernel wants it. */
static LLVMValueRef contig_loop(loop_ctx *c, uf__lower *L, LLVMValueRef kernel,
                                bool fallible, const uf_dtype *in, int nin,
                                const uf_dtype *res, int nout, bool tuple_ret,
                                const uf_dtype *out, const char *name,
                                bool blockable, uf_error *err)
{
    int nargs = nin + nout;
    if (nout < 1 || nargs > UF__LOOP_MAXARGS) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "a ufunc loop takes 1 to %d operands, not %d",
                      UF__LOOP_MAXARGS, nargs);
        return NULL;
    }
    *c = (loop_ctx){
        .L = L, .kernel = kernel, .kty = LLVMGlobalGetValueType(kernel),
        .fallible = fallible, .in = in, .res = res, .out = out, .nin = nin,
        .nout = nout, .tuple_ret = tuple_ret, .mult = L->contig_strides,
    };
    /* runtime helpers write through pointers to the kernel's own stack
     * slots, which all iterations share once inlined; a fallible kernel's
     * result slot is shared too (and its early exit keeps the loop scalar
     * anyway): no parallel claim for those */
    if (!L->uses_runtime && !fallible)
        c->access_group = make_access_group(L);
    if (blockable && c->access_group && wants_block(kernel)) {
        /* the vectoriser's factor (one 512-bit vector of the narrowest
         * operand) must divide the block: 8 doubles leave no remainder of
         * 1000 elements, as there was none without blocks */
        uf_dtype types[UF__LOOP_MAXARGS];
        for (int k = 0; k < nargs; k++)
            types[k] = operand_dtype(c, k);
        c->block = uf__loop_block(types, nargs);
        char bname[112];
        snprintf(bname, sizeof bname, "%s_blk", name);
        return build_contig(c, bname, err);
    }
    return build_contig(c, name, err);
}

LLVMValueRef uf__lower_loop_contig(uf__lower *L, LLVMValueRef kernel,
                                   bool fallible, const uf_dtype *in,
                                   int nin, const uf_dtype *res, int nout,
                                   bool tuple_ret, const uf_dtype *out,
                                   const char *name, uf_error *err)
{
    loop_ctx c;
    LLVMValueRef fn = contig_loop(&c, L, kernel, fallible, in, nin, res, nout,
                                  tuple_ret, out, name, true, err);
    if (fn)
        LLVMSetLinkage(fn, LLVMExternalLinkage);
    return fn;
}

LLVMValueRef uf__lower_loop_strided(uf__lower *L, LLVMValueRef kernel,
                                    bool fallible, const uf_dtype *in,
                                    int nin, const uf_dtype *res, int nout,
                                    bool tuple_ret, const uf_dtype *out,
                                    const char *name, uf_error *err)
{
    int nargs = nin + nout;
    if (nout < 1 || nargs > UF__LOOP_MAXARGS) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "a ufunc loop takes 1 to %d operands, not %d",
                      UF__LOOP_MAXARGS, nargs);
        return NULL;
    }
    /* scalar and in order, as uf__lower_loop's: vectorised with gathers
     * (parallel accesses claimed) it measured no faster on a[::2] + b[::2]
     * and slower on hypot (bench/bench_strided.c) */
    loop_ctx c = {
        .L = L, .kernel = kernel, .kty = LLVMGlobalGetValueType(kernel),
        .fallible = fallible, .in = in, .res = res, .out = out, .nin = nin,
        .nout = nout, .tuple_ret = tuple_ret,
    };
    LLVMValueRef fn = build_strided(&c, name, err);
    if (fn)
        LLVMSetLinkage(fn, LLVMExternalLinkage);
    return fn;
}

LLVMValueRef uf__lower_loop(uf__lower *L, LLVMValueRef kernel, bool fallible,
                            const uf_dtype *in, int nin, const uf_dtype *res,
                            int nout, bool tuple_ret, const uf_dtype *out,
                            const char *name, uf_error *err)
{
    loop_ctx c;
    char cname[96];
    snprintf(cname, sizeof cname, "%s_contig", name);
    LLVMValueRef contig = contig_loop(&c, L, kernel, fallible, in, nin, res,
                                      nout, tuple_ret, out, cname, false, err);
    if (!contig)
        return NULL;
    snprintf(cname, sizeof cname, "%s_strided", name);
    LLVMValueRef strided = build_strided(&c, cname, err);
    LLVMValueRef desc = make_desc(&c, contig, strided, name);

    /* int name(ctx, data, dims, strides, aux) =
     *     uf__rt_loop(&desc, ctx, data, dims, strides) */
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef i64p = LLVMPointerType(LLVMInt64TypeInContext(L->ctx), 0);
    LLVMTypeRef params[5] = {i8p, LLVMPointerType(i8p, 0), i64p, i64p, i8p};
    LLVMValueRef fn = LLVMAddFunction(L->mod, name,
                                      LLVMFunctionType(i32, params, 5, 0));
    uf__lower_target_attrs(L, fn);
    LLVMTypeRef rparams[5] = {i8p, i8p, LLVMPointerType(i8p, 0), i64p, i64p};
    LLVMTypeRef rty = LLVMFunctionType(i32, rparams, 5, 0);
    LLVMValueRef rt = LLVMGetNamedFunction(L->mod, UF__RT_LOOP);
    if (!rt) {
        rt = LLVMAddFunction(L->mod, UF__RT_LOOP, rty);
        uf__lower_add_attr(L, rt, (int)LLVMAttributeFunctionIndex,
                           "nounwind");
    }
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(L->ctx, fn, "entry");
    LLVMPositionBuilderAtEnd(B, bb);
    LLVMValueRef args[5] = {LLVMBuildBitCast(B, desc, i8p, ""),
                            LLVMGetParam(fn, 0), LLVMGetParam(fn, 1),
                            LLVMGetParam(fn, 2), LLVMGetParam(fn, 3)};
    LLVMValueRef call = LLVMBuildCall2(B, rty, rt, args, 5, "");
    LLVMSetTailCall(call, 1);
    LLVMBuildRet(B, call);
    return fn;
}
