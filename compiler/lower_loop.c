/* The elementwise inner loop around a scalar kernel, with the signature of
 * ufunc/loop.h:
 *
 *   int loop(void *ctx, char *const *data, const int64_t *dims,
 *            const int64_t *strides, void *aux)
 *
 * Data pointers and strides are loaded once, then one of three paths runs:
 *   - contiguous: every operand has stride == itemsize. The loop over
 *     typed pointers lives in its own function, `int contig(n, ptrs)`,
 *     which the vectoriser turns into packed code;
 *   - broadcast: inputs contiguous or of stride 0 (a scalar broadcast
 *     against arrays, as in gaussian_pdf(x, 0.0, 1.0)), outputs
 *     contiguous. A runtime helper (uf__rt_broadcast, lower_math.c)
 *     replicates the scalars into small buffers once and runs `contig`
 *     over chunks of that length, so the same vector code serves (in C,
 *     because every loop in the IR costs compile time);
 *   - strided: anything else, one element after the other.
 * Inputs and outputs may be the same array (in-place calls). The first two
 * paths are taken only when no output partially overlaps another operand
 * (being the very same array is fine: element i is read before it is
 * written, within one iteration); then iterations are independent and
 * `contig` says so (llvm.loop.parallel_accesses), so the vectoriser needs
 * no run-time alias checks and in-place calls vectorise too. Any other
 * overlap takes the strided path, whose order is the sequential one. The
 * kernel is inlined into `contig` and into the strided loop
 * (alwaysinline). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>

#include "common/error_internal.h"
#include "compiler/lower.h"

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
static LLVMValueRef tag(loop_ctx *c, LLVMValueRef inst, bool on)
{
    if (on && c->access_group)
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
static void element(loop_ctx *c, LLVMValueRef *addr, bool contig)
{
    uf__lower *L = c->L;
    uf__fn *F = c->F;
    LLVMValueRef args[UF__LOOP_MAXARGS + 1];
    unsigned na = 0;
    if (c->outslot)
        args[na++] = c->outslot;
    for (int k = 0; k < c->nin; k++) {
        LLVMTypeRef mt = mem_type(c, k);
        LLVMValueRef v = tag(c, LLVMBuildLoad2(B, mt, addr[k], ""), contig);
        if (c->in[k] == UF_BOOL) /* any nonzero byte is True */
            v = LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(mt), "");
        args[na++] = v;
    }
    /* the inliner passes the call's access group on to the kernel's
     * memory accesses */
    LLVMValueRef r = tag(c, LLVMBuildCall2(B, c->kty, c->kernel, args, na, ""),
                         contig);
    if (c->fallible) {
        uf__fn_raise_status(F, r);
        r = c->outslot
                ? tag(c,
                      LLVMBuildLoad2(B,
                                     LLVMGetElementType(LLVMTypeOf(c->outslot)),
                                     c->outslot, ""),
                      contig)
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
        tag(c, LLVMBuildStore(B, v, addr[c->nin + j]), contig);
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
static LLVMValueRef loop_id(uf__lower *L, LLVMMetadataRef *props, int n)
{
    LLVMMetadataRef ops[4];
    ops[0] = LLVMTemporaryMDNode(L->ctx, NULL, 0);
    for (int i = 0; i < n; i++)
        ops[i + 1] = props[i];
    LLVMMetadataRef id = LLVMMDNodeInContext2(L->ctx, ops, (size_t)n + 1);
    LLVMMetadataReplaceAllUsesWith(ops[0], id);
    return LLVMMetadataAsValue(L->ctx, id);
}

/* Loops that are not worth vectorising (the strided one: with AVX-512 it
 * would become gathers and scatters behind run-time checks; the buffer
 * fills), and no loop unrolled beyond what the vectoriser interleaves:
 * compile time, for no measurable gain here. */
static LLVMValueRef scalar_md(uf__lower *L)
{
    LLVMMetadataRef p[2] = {
        md_prop(L, "llvm.loop.vectorize.enable",
                LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0)),
        md_prop(L, "llvm.loop.unroll.disable", NULL)};
    return loop_id(L, p, 2);
}

/* contig's loop: parallel_accesses (no iteration depends on another,
 * checked at run time before contig is called) when there is an access
 * group. */
static LLVMValueRef contig_md(uf__lower *L, LLVMValueRef group)
{
    LLVMMetadataRef p[3];
    int n = 0;
    p[n++] = md_prop(L, "llvm.loop.unroll.disable", NULL);
    if (getenv("EXP_IC"))
        p[n++] = md_prop(L, "llvm.loop.interleave.count", LLVMConstInt(LLVMInt32TypeInContext(L->ctx), (unsigned)atoi(getenv("EXP_IC")), 0));
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

/* ---- loops ---------------------------------------------------------------- */

/* for (i = 0; i < n; i++) body(i), rotated (guard, then do-while) as the
 * vectoriser likes it. `body` emits one iteration at the builder. */
typedef void (*iter_fn)(loop_ctx *c, LLVMValueRef i, void *ud);

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
    LLVMPositionBuilderAtEnd(B, bb);
    LLVMValueRef i = LLVMBuildPhi(B, i64, "i");
    body(c, i, ud);
    LLVMValueRef next = LLVMBuildAdd(B, i, LLVMConstInt(i64, 1, 0), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMValueRef br = LLVMBuildCondBr(
        B, LLVMBuildICmp(B, LLVMIntSLT, next, n, ""), bb, exit);
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(L->ctx, "llvm.loop", 9), md);
    LLVMValueRef in_v[2] = {LLVMConstNull(i64), next};
    LLVMBasicBlockRef in_b[2] = {pre, latch};
    LLVMAddIncoming(i, in_v, in_b, 2);
}

static void contig_iter(loop_ctx *c, LLVMValueRef i, void *ud)
{
    LLVMValueRef *base = ud, addr[UF__LOOP_MAXARGS];
    for (int k = 0; k < c->nin + c->nout; k++)
        addr[k] = LLVMBuildInBoundsGEP2(c->L->b, mem_type(c, k), base[k], &i, 1,
                                        "");
    element(c, addr, true);
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
    element(c, addr, false);
}

/* i32 contig(i64 n, i8 **ptrs): the contiguous loop over the operands
 * ptrs[0..nin+nout). Not inlined into its caller, and called back by the
 * broadcast helper, so it is vectorised once. */
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
    counted_loop(c, LLVMGetParam(fn, 0), "contig",
                 contig_md(L, c->access_group), contig_iter, base, exit);
    LLVMPositionBuilderAtEnd(B, exit);
    LLVMBuildRet(B, LLVMConstNull(i32));
    uf__fn_end(&F);
    return fn;
}

/* The broadcast path: uf__rt_broadcast(contig, n, data, strides, nin,
 * nargs, itemsizes) runs contig over chunks, the stride-0 inputs
 * replicated into buffers. */
static LLVMValueRef call_broadcast(loop_ctx *c, LLVMValueRef contig,
                                   LLVMValueRef n, LLVMValueRef data,
                                   LLVMValueRef strides)
{
    uf__lower *L = c->L;
    int nargs = c->nin + c->nout;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i64p = LLVMPointerType(i64, 0);
    LLVMTypeRef fp[7] = {i8p, i64, LLVMPointerType(i8p, 0), i64p, i64, i64,
                         i64p};
    LLVMTypeRef fty = LLVMFunctionType(i32, fp, 7, 0);
    LLVMValueRef helper = LLVMGetNamedFunction(L->mod, "uf__rt_broadcast");
    if (!helper) {
        helper = LLVMAddFunction(L->mod, "uf__rt_broadcast", fty);
        uf__lower_add_attr(L, helper, (int)LLVMAttributeFunctionIndex,
                           "nounwind");
    }
    LLVMValueRef sizes[UF__LOOP_MAXARGS];
    for (int k = 0; k < nargs; k++)
        sizes[k] = LLVMConstInt(i64, uf_dtype_itemsize(operand_dtype(c, k)), 0);
    LLVMValueRef table = LLVMAddGlobal(L->mod, LLVMArrayType(i64, (unsigned)nargs),
                                       "itemsizes");
    LLVMSetInitializer(table, LLVMConstArray(i64, sizes, (unsigned)nargs));
    LLVMSetGlobalConstant(table, 1);
    LLVMSetLinkage(table, LLVMPrivateLinkage);
    LLVMValueRef args[7] = {
        LLVMBuildBitCast(B, contig, i8p, ""), n, data, strides,
        LLVMConstInt(i64, (unsigned)c->nin, 0),
        LLVMConstInt(i64, (unsigned)nargs, 0),
        LLVMBuildBitCast(B, table, i64p, "")};
    return LLVMBuildCall2(B, fty, helper, args, 7, "");
}

LLVMValueRef uf__lower_loop(uf__lower *L, LLVMValueRef kernel, bool fallible,
                            const uf_dtype *in, int nin, const uf_dtype *res,
                            int nout, bool tuple_ret, const uf_dtype *out,
                            const char *name, uf_error *err)
{
    int nargs = nin + nout;
    if (nout < 1 || nargs > UF__LOOP_MAXARGS) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "a ufunc loop takes 1 to %d operands, not %d",
                      UF__LOOP_MAXARGS, nargs);
        return NULL;
    }
    loop_ctx c = {
        .L = L, .kernel = kernel, .kty = LLVMGlobalGetValueType(kernel),
        .fallible = fallible, .in = in, .res = res, .out = out, .nin = nin,
        .nout = nout, .tuple_ret = tuple_ret,
    };
    /* runtime helpers write through pointers to the kernel's own stack
     * slots, which all iterations share once inlined; a fallible kernel's
     * result slot is shared too (and its early exit keeps the loop scalar
     * anyway): no parallel claim for those */
    if (!L->uses_runtime && !fallible)
        c.access_group = make_access_group(L);
    char cname[96];
    snprintf(cname, sizeof cname, "%s_contig", name);
    LLVMValueRef contig = build_contig(&c, cname, err);

    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef i64p = LLVMPointerType(i64, 0);
    LLVMTypeRef params[5] = {i8p, LLVMPointerType(i8p, 0), i64p, i64p, i8p};
    LLVMValueRef fn = LLVMAddFunction(L->mod, name,
                                      LLVMFunctionType(i32, params, 5, 0));
    uf__lower_target_attrs(L, fn);
    /* data, dims and strides are only read, and nothing the loop writes
     * (the operands' elements) lives in those arrays: noalias is true for
     * them. The element pointers loaded from `data` may alias each other
     * (in-place calls): they get no such promise (see the top). */
    for (int p = 2; p <= 4; p++) {
        uf__lower_add_attr(L, fn, p, "noalias");
        uf__lower_add_attr(L, fn, p, "nocapture");
        uf__lower_add_attr(L, fn, p, "readonly");
    }

    uf__fn F;
    uf__fn_begin(&F, L, fn, false, true, err);
    c.F = &F;
    make_outslot(&c);
    LLVMValueRef ptr[UF__LOOP_MAXARGS], stride[UF__LOOP_MAXARGS];
    LLVMValueRef data = LLVMGetParam(fn, 1);
    LLVMValueRef n = LLVMBuildLoad2(B, i64, LLVMGetParam(fn, 2), "n");
    LLVMValueRef zero = LLVMConstNull(i64);
    LLVMValueRef all_contig = NULL, bcast = NULL;
    LLVMValueRef lo[UF__LOOP_MAXARGS], hi[UF__LOOP_MAXARGS];
    for (int k = 0; k < nargs; k++) {
        LLVMValueRef ix = LLVMConstInt(i64, (unsigned long long)k, 0);
        ptr[k] = LLVMBuildLoad2(
            B, i8p, LLVMBuildInBoundsGEP2(B, i8p, data, &ix, 1, ""), "");
        stride[k] = LLVMBuildLoad2(
            B, i64,
            LLVMBuildInBoundsGEP2(B, i64, LLVMGetParam(fn, 3), &ix, 1, ""), "");
        LLVMValueRef isz = LLVMConstInt(i64, uf_dtype_itemsize(
                                                 operand_dtype(&c, k)), 0);
        LLVMValueRef unit = LLVMBuildICmp(B, LLVMIntEQ, stride[k], isz, "");
        LLVMValueRef s0 = LLVMBuildICmp(B, LLVMIntEQ, stride[k], zero, "");
        all_contig = all_contig ? LLVMBuildAnd(B, all_contig, unit, "") : unit;
        LLVMValueRef ok = k < nin ? LLVMBuildOr(B, unit, s0, "") : unit;
        bcast = bcast ? LLVMBuildAnd(B, bcast, ok, "") : ok;
        /* the bytes an operand spans on the first two paths */
        lo[k] = LLVMBuildPtrToInt(B, ptr[k], i64, "");
        hi[k] = LLVMBuildAdd(
            B, lo[k], LLVMBuildSelect(B, s0, isz, LLVMBuildMul(B, n, isz, ""), ""),
            "");
    }
    /* every output is the same array as another operand, or disjoint from
     * it */
    LLVMValueRef indep = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0);
    for (int k = nin; k < nargs; k++) {
        for (int j = 0; j < nargs; j++) {
            if (j == k)
                continue;
            LLVMValueRef same = LLVMBuildAnd(
                B, LLVMBuildICmp(B, LLVMIntEQ, lo[k], lo[j], ""),
                LLVMBuildICmp(B, LLVMIntEQ, stride[k], stride[j], ""), "");
            LLVMValueRef apart = LLVMBuildOr(
                B, LLVMBuildICmp(B, LLVMIntULE, hi[k], lo[j], ""),
                LLVMBuildICmp(B, LLVMIntULE, hi[j], lo[k], ""), "");
            indep = LLVMBuildAnd(B, indep, LLVMBuildOr(B, same, apart, ""), "");
        }
    }
    LLVMBasicBlockRef exit = uf__fn_block(&F, "exit");
    LLVMBasicBlockRef cbb = uf__fn_block(&F, "contiguous");
    LLVMBasicBlockRef other = uf__fn_block(&F, "not.contiguous");
    LLVMBasicBlockRef spre = uf__fn_block(&F, "strided.pre");
    LLVMValueRef pos = LLVMBuildICmp(B, LLVMIntSGT, n, zero, "");
    LLVMBuildCondBr(B, LLVMBuildAnd(B, all_contig, indep, ""), cbb, other);

    LLVMPositionBuilderAtEnd(B, cbb);
    LLVMValueRef cargs[2] = {n, data};
    LLVMBuildRet(B, LLVMBuildCall2(B, LLVMGlobalGetValueType(contig), contig,
                                   cargs, 2, ""));

    LLVMPositionBuilderAtEnd(B, other);
    if (nin <= UF__BCAST_MAXIN) {
        LLVMBasicBlockRef bbb = uf__fn_block(&F, "broadcast");
        LLVMBuildCondBr(B, LLVMBuildAnd(B, LLVMBuildAnd(B, bcast, indep, ""),
                                        pos, ""),
                        bbb, spre);
        LLVMPositionBuilderAtEnd(B, bbb);
        LLVMBuildRet(B, call_broadcast(&c, contig, n, data,
                                       LLVMGetParam(fn, 3)));
    } else {
        LLVMBuildBr(B, spre);
    }

    LLVMPositionBuilderAtEnd(B, spre);
    strided_ud s = {ptr, stride};
    counted_loop(&c, n, "strided", scalar_md(L), strided_iter, &s, exit);
    LLVMPositionBuilderAtEnd(B, exit);
    LLVMBuildRet(B, LLVMConstNull(i32));
    uf__fn_end(&F);
    return fn;
}
