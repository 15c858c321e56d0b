/* The gufunc inner loop around a guvectorize kernel, with the convention
 * of gufunc/gufunc.h:
 *
 *   int loop(void *ctx, char *const *data, const int64_t *dims,
 *            const int64_t *steps, void *aux)
 *
 * Everything that is the same for the whole strip is loaded once at entry:
 * the operands' pointers and steps, the core dimension sizes (a fixed size
 * such as the 3 of "(3),(3)->(3)" is a constant instead, so the kernel's
 * loops over it unroll) and the core steps. Then, once per strip, the core
 * steps are checked: when every array operand is C-contiguous over its core
 * dimensions the loop calls the kernel typed with 'C' arrays (unit inner
 * strides known at compile time: the kernel's own inner loops vectorise),
 * otherwise the kernel typed with 'A' arrays, which reads every stride. So
 * a kernel declared with C arrays but given strided views is still right.
 *
 * Per iteration i each operand k becomes what the kernel expects: an array
 * value (compiler/lower/lower_array.h) over data[k] + i*steps[k] with its core
 * sizes and steps, Numba's one-element 1-d array for a "()" operand, or the
 * plain value loaded from there. A fallible kernel's nonzero status (bounds
 * checks under UFJIT_DEBUG, assert) ends the loop and is returned. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/host/jit_gufunc_spec.h"
#include "compiler/host/llvm_cfg.h"
#include "compiler/lower/lower_array.h"

#define B (g->L->b)

typedef struct gloop {
    uf__lower *L;
    uf__fn *F;
    const uf__gufunc_layout *lay;
    const uf__guvec_arg *args;
    const uf__gufunc_spec *spec; /* NULL: the generic loop */
    int nargs;
    LLVMValueRef *ptr, *step; /* [nargs] strip start and step per operand */
    LLVMValueRef *dim;        /* [lay->ndims] core dimension sizes */
    LLVMValueRef *cstep;      /* [sum of core_ndim] core steps */
} gloop;

static LLVMTypeRef i64_type(gloop *g)
{
    return LLVMInt64TypeInContext(g->L->ctx);
}

static LLVMValueRef i64_const(gloop *g, int64_t v)
{
    return LLVMConstInt(i64_type(g), (unsigned long long)v, 1);
}

static LLVMValueRef load_i64(gloop *g, LLVMValueRef base, int64_t ix,
                             const char *name)
{
    LLVMValueRef i = i64_const(g, ix);
    return LLVMBuildLoad2(
        B, i64_type(g), LLVMBuildInBoundsGEP2(B, i64_type(g), base, &i, 1, ""),
        name);
}

/* The sizes, steps and pointers every iteration uses. */
static void load_strip(gloop *g, LLVMValueRef fn)
{
    const uf__gufunc_layout *lay = g->lay;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(g->L->ctx), 0);
    for (int k = 0; k < g->nargs; k++) {
        LLVMValueRef ix = i64_const(g, k);
        /* a noalias variant's body gets them as its own parameters */
        g->ptr[k] = g->spec && g->spec->noalias
            ? LLVMGetParam(fn, 5 + (unsigned)k)
            : LLVMBuildLoad2(B, i8p,
                             LLVMBuildInBoundsGEP2(B, i8p, LLVMGetParam(fn, 1),
                                                   &ix, 1, ""),
                             "data");
        g->step[k] = load_i64(g, LLVMGetParam(fn, 3), k, "step");
    }
    for (int d = 0; d < lay->ndims; d++) {
        const uf__gufunc_dim *dm = &lay->dims[d];
        g->dim[d] = g->spec ? i64_const(g, g->spec->dim[d])
                    : dm->size > 0 && !dm->flexible
                        ? i64_const(g, dm->size)
                        : load_i64(g, LLVMGetParam(fn, 2), 1 + d, "dim");
    }
    for (int k = 0; k < g->nargs; k++) {
        /* a unit variant's ARRAY operands are C-contiguous: their core
         * steps are the C steps of their sizes (a length-1 dimension's
         * step is never used) */
        bool unit = g->spec && g->spec->unit &&
                    g->args[k].kind == UF__GUVEC_ARRAY;
        int64_t step = (int64_t)uf_dtype_itemsize(g->args[k].dtype);
        for (int j = lay->core_ndim[k] - 1; j >= 0; j--) {
            int c = lay->core_offset[k] + j;
            g->cstep[c] = unit ? i64_const(g, step)
                               : load_i64(g, LLVMGetParam(fn, 3),
                                          g->nargs + c, "cstep");
            if (unit)
                step *= g->spec->dim[lay->dim_ix[c]];
        }
    }
}

/* Whether every ARRAY operand is C-contiguous over its core dimensions
 * (NumPy's relaxed rule: a length-1 dimension's step does not matter). */
static LLVMValueRef all_c_contiguous(gloop *g)
{
    const uf__gufunc_layout *lay = g->lay;
    LLVMValueRef ok = LLVMConstInt(LLVMInt1TypeInContext(g->L->ctx), 1, 0);
    for (int k = 0; k < g->nargs; k++) {
        if (g->args[k].kind != UF__GUVEC_ARRAY)
            continue;
        LLVMValueRef expect = i64_const(
            g, (int64_t)uf_dtype_itemsize(g->args[k].dtype));
        for (int j = lay->core_ndim[k] - 1; j >= 0; j--) {
            int c = lay->core_offset[k] + j;
            LLVMValueRef d = g->dim[lay->dim_ix[c]];
            LLVMValueRef good = LLVMBuildOr(
                B, LLVMBuildICmp(B, LLVMIntEQ, d, i64_const(g, 1), ""),
                LLVMBuildICmp(B, LLVMIntEQ, g->cstep[c], expect, ""), "");
            ok = LLVMBuildAnd(B, ok, good, "");
            expect = LLVMBuildMul(B, expect, d, "");
        }
    }
    return ok;
}

LLVMValueRef uf__lower_gufunc_operand(uf__lower *L, const uf__guvec_arg *arg,
                                      LLVMValueRef p,
                                      const LLVMValueRef *shape,
                                      const LLVMValueRef *strides, int nd)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    uf_dtype dt = arg->dtype;
    switch (arg->kind) {
    case UF__GUVEC_SCALAR: {
        LLVMTypeRef mt = uf__lower_mem_dtype(L, dt);
        LLVMValueRef v = LLVMBuildLoad2(
            L->b, mt, LLVMBuildBitCast(L->b, p, LLVMPointerType(mt, 0), ""),
            "");
        if (dt == UF_BOOL) /* any nonzero byte is True */
            v = LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstNull(mt), "");
        return v;
    }
    case UF__GUVEC_ELEM: {
        LLVMValueRef one = LLVMConstInt(i64, 1, 0);
        LLVMValueRef isz = LLVMConstInt(i64, uf_dtype_itemsize(dt), 0);
        return uf__build_array(L, p, &one, &isz, 1);
    }
    case UF__GUVEC_ARRAY:
        break;
    }
    return uf__build_array(L, p, shape, strides, nd);
}

/* One operand of iteration i as the kernel takes it. */
static LLVMValueRef operand(gloop *g, int k, LLVMValueRef i)
{
    uf__lower *L = g->L;
    const uf__gufunc_layout *lay = g->lay;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMValueRef off = LLVMBuildMul(B, i, g->step[k], "");
    LLVMValueRef p = LLVMBuildGEP2(B, i8, g->ptr[k], &off, 1, "");
    LLVMValueRef shape[UF_MAXDIMS], strides[UF_MAXDIMS];
    int nd = lay->core_ndim[k];
    for (int j = 0; j < nd; j++) {
        int c = lay->core_offset[k] + j;
        shape[j] = g->dim[lay->dim_ix[c]];
        strides[j] = g->cstep[c];
    }
    return uf__lower_gufunc_operand(L, &g->args[k], p, shape, strides, nd);
}

/* for (i = 0; i < n; i++) kernel(operands of i), rotated as the
 * vectoriser likes it; entered only with n > 0. */
static void strip_loop(gloop *g, LLVMValueRef kernel, bool fallible,
                       LLVMValueRef n, LLVMBasicBlockRef exit,
                       const char *name)
{
    LLVMTypeRef i64 = i64_type(g);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef bb = uf__fn_block(g->F, name);
    LLVMBuildBr(B, bb);
    LLVMPositionBuilderAtEnd(B, bb);
    LLVMValueRef i = LLVMBuildPhi(B, i64, "i");
    LLVMValueRef args[UF__LOOP_MAXARGS];
    for (int k = 0; k < g->nargs; k++)
        args[k] = operand(g, k, i);
    LLVMValueRef r = LLVMBuildCall2(B, LLVMGlobalGetValueType(kernel), kernel,
                                    args, (unsigned)g->nargs, "");
    if (fallible)
        uf__fn_raise_status(g->F, r);
    LLVMValueRef next = LLVMBuildAdd(B, i, LLVMConstInt(i64, 1, 0), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, next, n, ""), bb, exit);
    LLVMValueRef in_v[2] = {LLVMConstNull(i64), next};
    LLVMBasicBlockRef in_b[2] = {pre, latch};
    LLVMAddIncoming(i, in_v, in_b, 2);
}

/* For a variant whose operands share no memory: `fn` becomes a wrapper
 * calling (always inlined) a body that takes the operands' pointers as
 * noalias parameters after fn's own, so that LLVM knows that a store
 * through one operand never changes what another reads (the SLP
 * vectoriser may then keep a matmul's row of C in registers and reorder
 * loads of B past stores to C). Returns the body, for the loop. */
static LLVMValueRef noalias_body(gloop *g, LLVMValueRef fn, const char *name)
{
    uf__lower *L = g->L;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef params[5 + UF__LOOP_MAXARGS];
    LLVMValueRef args[5 + UF__LOOP_MAXARGS];
    unsigned np = 5 + (unsigned)g->nargs;
    LLVMGetParamTypes(LLVMGlobalGetValueType(fn), params);
    for (int k = 0; k < g->nargs; k++)
        params[5 + k] = i8p;
    char bname[96];
    snprintf(bname, sizeof bname, "%s.body", name);
    LLVMValueRef body = LLVMAddFunction(L->mod, bname,
                                        LLVMFunctionType(i32, params, np, 0));
    LLVMSetLinkage(body, LLVMInternalLinkage);
    uf__lower_target_attrs(L, body);
    uf__lower_add_attr(L, body, -1, "alwaysinline");
    for (unsigned p = 2; p <= 4; p++) {
        uf__lower_add_attr(L, body, (int)p, "noalias");
        uf__lower_add_attr(L, body, (int)p, "nocapture");
        uf__lower_add_attr(L, body, (int)p, "readonly");
    }
    for (unsigned p = 6; p <= np; p++) {
        uf__lower_add_attr(L, body, (int)p, "noalias");
        uf__lower_add_attr(L, body, (int)p, "nocapture");
    }
    LLVMBasicBlockRef entry =
        LLVMAppendBasicBlockInContext(L->ctx, fn, "entry");
    LLVMPositionBuilderAtEnd(B, entry);
    for (unsigned p = 0; p < 5; p++)
        args[p] = LLVMGetParam(fn, p);
    for (int k = 0; k < g->nargs; k++) {
        LLVMValueRef ix = i64_const(g, k);
        args[5 + k] = LLVMBuildLoad2(
            B, i8p, LLVMBuildInBoundsGEP2(B, i8p, LLVMGetParam(fn, 1), &ix,
                                          1, ""),
            "data");
    }
    LLVMBuildRet(B, LLVMBuildCall2(B, LLVMGlobalGetValueType(body), body,
                                   args, np, ""));
    return body;
}

/* A distinct loop ID {self, {"llvm.loop.unroll_and_jam.count", n}}. */
static LLVMMetadataRef jam_loop_id(uf__lower *L, int count)
{
    static const char key[] = "llvm.loop.unroll_and_jam.count";
    LLVMMetadataRef temp = LLVMTemporaryMDNode(L->ctx, NULL, 0);
    LLVMMetadataRef kv[2] = {
        LLVMMDStringInContext2(L->ctx, key, sizeof key - 1),
        LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(L->ctx),
                                         (unsigned long long)count, 0))};
    LLVMMetadataRef ops[2] = {temp, LLVMMDNodeInContext2(L->ctx, kv, 2)};
    LLVMMetadataRef id = LLVMMDNodeInContext2(L->ctx, ops, 2);
    LLVMMetadataReplaceAllUsesWith(temp, id);
    return id;
}

void uf__lower_gufunc_jam(uf__lower *L, LLVMValueRef kernel, int count)
{
    unsigned kind = LLVMGetMDKindIDInContext(L->ctx, "llvm.loop", 9);
    uf_error err;
    uf__cfg g = {0};
    /* loops: (head, latch) of each back edge, the unconditional branches
     * to an earlier block that close a natural loop */
    int *head = NULL, *latch = NULL, *stack = NULL, nloops = 0;
    bool *in = NULL;
    if (!uf__cfg_build(&g, kernel, &err) ||
        !(head = uf__calloc((size_t)g.n + 1, sizeof *head, &err)) ||
        !(latch = uf__calloc((size_t)g.n + 1, sizeof *latch, &err)) ||
        !(stack = uf__calloc((size_t)g.n + 1, sizeof *stack, &err)) ||
        !(in = uf__calloc((size_t)g.n + 1, sizeof *in, &err)))
        goto done; /* out of memory: no interleaving, still right */
    for (int b = 0; b < g.n; b++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g.bb[b]);
        if (!t || LLVMGetInstructionOpcode(t) != LLVMBr ||
            LLVMIsConditional(t))
            continue;
        int h = uf__cfg_block(&g, LLVMGetSuccessor(t, 0));
        if (h >= 0 && h < b && uf__cfg_natural_loop(&g, h, b, in, stack)) {
            head[nloops] = h;
            latch[nloops++] = b;
        }
    }
    /* only loops around another loop: on an innermost one the request
     * would only stop LLVM from unrolling it */
    for (int i = 0; i < nloops; i++) {
        uf__cfg_natural_loop(&g, head[i], latch[i], in, stack);
        bool outer = false;
        for (int j = 0; j < nloops && !outer; j++)
            outer = j != i && head[j] != head[i] && in[head[j]];
        if (outer)
            LLVMSetMetadata(LLVMGetBasicBlockTerminator(g.bb[latch[i]]),
                            kind,
                            LLVMMetadataAsValue(L->ctx,
                                                jam_loop_id(L, count)));
    }
done:
    uf__free(head);
    uf__free(latch);
    uf__free(stack);
    uf__free(in);
    uf__cfg_free(&g);
}

static bool checked_kernel(uf__lower *L, LLVMValueRef k, int nargs,
                           uf_error *err)
{
    LLVMTypeRef t = LLVMGlobalGetValueType(k);
    LLVMTypeKind rk = LLVMGetTypeKind(LLVMGetReturnType(t));
    if (LLVMCountParamTypes(t) == (unsigned)nargs &&
        (rk == LLVMVoidTypeKind || rk == LLVMIntegerTypeKind))
        return true;
    (void)L;
    uf__error_set(err, UF_ERR_INTERNAL,
                  "gufunc loop: the kernel does not take the %d operands "
                  "as expected", nargs);
    return false;
}

LLVMValueRef uf__lower_gufunc_loop_spec(uf__lower *L, LLVMValueRef kc,
                                        bool kc_fallible, LLVMValueRef ka,
                                        bool ka_fallible,
                                        const uf__gufunc_layout *lay,
                                        const uf__guvec_arg *args,
                                        const uf__gufunc_spec *spec,
                                        const char *name, uf_error *err)
{
    int nargs = lay->nargs;
    if (nargs > UF__LOOP_MAXARGS) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "a gufunc loop takes at most %d operands, not %d",
                      UF__LOOP_MAXARGS, nargs);
        return NULL;
    }
    for (int k = 0; k < nargs; k++)
        if (lay->core_ndim[k] > UF_MAXDIMS) {
            uf__error_set(err, UF_ERR_UNSUPPORTED,
                          "operand %d has %d core dimensions: at most %d",
                          k + 1, lay->core_ndim[k], UF_MAXDIMS);
            return NULL;
        }
    if (spec && (spec->ndims != lay->ndims ||
                 spec->ndims > UF__GUFUNC_SPEC_MAXDIMS)) {
        uf__error_set(err, UF_ERR_INTERNAL,
                      "gufunc loop: a variant for %d dimensions of a layout "
                      "with %d", spec->ndims, lay->ndims);
        return NULL;
    }
    if (!checked_kernel(L, ka, nargs, err) ||
        (kc && !checked_kernel(L, kc, nargs, err)))
        return NULL;
    int ncore = 0;
    for (int k = 0; k < nargs; k++)
        ncore += lay->core_ndim[k];

    gloop g0 = {.L = L, .lay = lay, .args = args, .spec = spec,
                .nargs = nargs}, *g = &g0;
    size_t nv = (size_t)(2 * nargs + lay->ndims + ncore) + 1;
    LLVMValueRef *vals = uf__calloc(nv, sizeof *vals, err);
    if (!vals)
        return NULL;
    g->ptr = vals;
    g->step = vals + nargs;
    g->dim = vals + 2 * nargs;
    g->cstep = vals + 2 * nargs + lay->ndims;

    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i64p = LLVMPointerType(LLVMInt64TypeInContext(L->ctx), 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef params[5] = {i8p, LLVMPointerType(i8p, 0), i64p, i64p, i8p};
    LLVMValueRef fn = LLVMAddFunction(L->mod, name,
                                      LLVMFunctionType(i32, params, 5, 0));
    uf__lower_target_attrs(L, fn);
    /* data, dims and steps are only read, and nothing the loop writes
     * lives in them; the operands' pointers may alias each other */
    for (int p = 2; p <= 4; p++) {
        uf__lower_add_attr(L, fn, p, "noalias");
        uf__lower_add_attr(L, fn, p, "nocapture");
        uf__lower_add_attr(L, fn, p, "readonly");
    }

    if (spec && spec->noalias)
        fn = noalias_body(g, fn, name);

    uf__fn F;
    uf__fn_begin(&F, L, fn, true, true, err);
    g->F = &F;
    LLVMValueRef n = load_i64(g, LLVMGetParam(fn, 2), 0, "n");
    load_strip(g, fn);
    LLVMBasicBlockRef exit = uf__fn_block(&F, "exit");
    LLVMBasicBlockRef run = uf__fn_block(&F, "run");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGT, n, i64_const(g, 0), ""),
                    run, exit);
    LLVMPositionBuilderAtEnd(B, run);
    if (spec && spec->unit && kc) {
        /* the caller chose the variant by the call's steps */
        strip_loop(g, kc, kc_fallible, n, exit, "contiguous");
    } else if (spec) {
        strip_loop(g, ka, ka_fallible, n, exit, "strided");
    } else if (kc) {
        LLVMBasicBlockRef cbb = uf__fn_block(&F, "contiguous.pre");
        LLVMBasicBlockRef abb = uf__fn_block(&F, "strided.pre");
        LLVMBuildCondBr(B, all_c_contiguous(g), cbb, abb);
        LLVMPositionBuilderAtEnd(B, cbb);
        strip_loop(g, kc, kc_fallible, n, exit, "contiguous");
        LLVMPositionBuilderAtEnd(B, abb);
        strip_loop(g, ka, ka_fallible, n, exit, "strided");
    } else {
        strip_loop(g, ka, ka_fallible, n, exit, "strided");
    }
    LLVMPositionBuilderAtEnd(B, exit);
    LLVMBuildRet(B, LLVMConstNull(i32));
    uf__fn_end(&F);
    uf__free(vals);
    return LLVMGetNamedFunction(L->mod, name);
}
