/* The CUDA entry around a vectorize kernel (nvvm.h has the parameter
 * ABI): a grid-stride loop over the elements, each one loading the
 * inputs at its address in every operand, calling the kernel lowered by
 * the shared code, converting and storing the results. The same entry
 * serves NVVM and cudasim; only the codegen target (special registers,
 * math) differs. */
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/nvvm/nvvm_internal.h"

#define B (L->b)

typedef struct entry_ctx {
    uf__lower *L;
    uf__fn F;
    const uf__nvvm_variant *v;
    int nin, nout, nops;
    bool tuple_ret, fallible;
    uf_dtype in[UF__LOOP_MAXARGS], res[UF__LOOP_MAXARGS];
    const uf_dtype *out;
    LLVMTypeRef idx; /* i32 or i64 */
    LLVMValueRef kernel;
    LLVMTypeRef kty;
    /* parameters, by role */
    LLVMValueRef n, shape[UF__NVVM_MAXDIM], status;
    LLVMValueRef ptr[UF__LOOP_MAXARGS];    /* or the scalar's value */
    LLVMValueRef stride[UF__LOOP_MAXARGS][UF__NVVM_MAXDIM];
    LLVMValueRef outslot; /* a fallible kernel's result slot */
} entry_ctx;

static uf_dtype op_dtype(const entry_ctx *c, int k)
{
    return k < c->nin ? c->in[k] : c->out[k - c->nin];
}

static bool by_value(const entry_ctx *c, int k)
{
    return k < c->nin && k < 32 && (c->v->scalar_in >> k & 1u);
}

/* The dtypes of tf's arguments and results, or UF_ERR_UNSUPPORTED. */
static int signature_of(entry_ctx *c, const uf__typed_func *tf, uf_error *err)
{
    const uf__type *ret = tf->ret;
    c->nin = tf->nargs;
    c->tuple_ret = ret->kind == UF__T_TUPLE;
    if (c->nin > UF__LOOP_MAXARGS)
        goto unsupported;
    for (int i = 0; i < c->nin; i++) {
        if (tf->args[i]->kind != UF__T_SCALAR)
            goto unsupported;
        c->in[i] = tf->args[i]->dtype;
    }
    if (c->tuple_ret) {
        c->nout = ret->n;
        if (c->nout < 1 || c->nin + c->nout > UF__LOOP_MAXARGS)
            goto unsupported;
        for (int k = 0; k < c->nout; k++) {
            if (ret->elts[k]->kind != UF__T_SCALAR)
                goto unsupported;
            c->res[k] = ret->elts[k]->dtype;
        }
    } else {
        if (ret->kind != UF__T_SCALAR)
            goto unsupported;
        c->nout = 1;
        c->res[0] = ret->dtype;
    }
    c->nops = c->nin + c->nout;
    return 0;
unsupported:
    return uf__error_set(err, UF_ERR_UNSUPPORTED,
                         "kernel '%s': a CUDA ufunc kernel needs scalar "
                         "arguments and a scalar or tuple-of-scalars result",
                         tf->decl ? tf->decl->name : "?");
}

int uf__nvvm_check_variant(const uf__nvvm_variant *v, int nin,
                           uf_error *err)
{
    if (v->layout == UF__NVVM_ND && (v->ndim < 1 || v->ndim > UF__NVVM_MAXDIM))
        return uf__error_set(err, UF_ERR_INVALID,
                             "CUDA kernel variant: ndim %d outside 1..%d",
                             v->ndim, UF__NVVM_MAXDIM);
    if (v->layout > UF__NVVM_ND)
        return uf__error_set(err, UF_ERR_INVALID,
                             "CUDA kernel variant: unknown layout %d",
                             (int)v->layout);
    if (nin < 32 && (v->scalar_in >> nin) != 0)
        return uf__error_set(err, UF_ERR_INVALID,
                             "CUDA kernel variant: scalar_in names an "
                             "operand that is not an input");
    return 0;
}

void uf__nvvm_param(uf__nvvm_kernel *k, LLVMTypeRef *types, LLVMTypeRef t,
                    uint32_t size)
{
    types[k->nparams] = t;
    k->param_sizes[k->nparams++] = size;
}

static bool passed_by_value(const uf__nvvm_variant *v, int op)
{
    return op < 32 && (v->scalar_in >> op & 1u);
}

void uf__nvvm_loop_params(uf__lower *L, uf__nvvm_kernel *k,
                          LLVMTypeRef *types, const uf__nvvm_variant *v,
                          int nd, LLVMTypeRef idx, const uf_dtype *dt,
                          int nops)
{
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    uint32_t isz = v->index32 ? 4 : 8;
    uf__nvvm_param(k, types, idx, isz);
    if (v->layout == UF__NVVM_ND)
        for (int d = 0; d < nd; d++)
            uf__nvvm_param(k, types, idx, isz);
    for (int op = 0; op < nops; op++) {
        if (passed_by_value(v, op)) {
            uf__nvvm_param(k, types, uf__lower_mem_dtype(L, dt[op]),
                           (uint32_t)uf_dtype_itemsize(dt[op]));
            continue;
        }
        uf__nvvm_param(k, types, i8p, 8);
        for (int d = 0; d < nd; d++)
            uf__nvvm_param(k, types, idx, isz);
    }
}

unsigned uf__nvvm_loop_args(LLVMValueRef fn, const uf__nvvm_variant *v,
                            int nd, int nops, LLVMValueRef *n,
                            LLVMValueRef *shape, LLVMValueRef *ptr,
                            LLVMValueRef (*stride)[UF__NVVM_MAXDIM])
{
    unsigned p = 0;
    *n = LLVMGetParam(fn, p++);
    if (v->layout == UF__NVVM_ND)
        for (int d = 0; d < nd; d++)
            shape[d] = LLVMGetParam(fn, p++);
    for (int op = 0; op < nops; op++) {
        ptr[op] = LLVMGetParam(fn, p++);
        if (!passed_by_value(v, op))
            for (int d = 0; d < nd; d++)
                stride[op][d] = LLVMGetParam(fn, p++);
    }
    return p;
}

static LLVMValueRef build_entry(entry_ctx *c, uf__nvvm_kernel *k)
{
    uf__lower *L = c->L;
    LLVMContextRef ctx = L->ctx;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    int nd = c->v->layout == UF__NVVM_ND ? c->v->ndim
             : c->v->layout == UF__NVVM_STRIDED ? 1
                                                : 0;
    LLVMTypeRef types[sizeof k->param_sizes / sizeof k->param_sizes[0]];
    uf_dtype dts[UF__LOOP_MAXARGS];
    for (int op = 0; op < c->nops; op++)
        dts[op] = op_dtype(c, op);
    k->nparams = 0;
    uf__nvvm_loop_params(L, k, types, c->v, nd, c->idx, dts, c->nops);
    k->has_status = c->fallible;
    if (c->fallible)
        uf__nvvm_param(k, types, i8p, 8);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), types,
                                       (unsigned)k->nparams, 0);
    LLVMValueRef fn = LLVMAddFunction(L->mod, k->name, fty);
    uf__lower_target_attrs(L, fn);

    /* the parameters by role */
    unsigned p = uf__nvvm_loop_args(fn, c->v, nd, c->nops, &c->n, c->shape,
                                    c->ptr, c->stride);
    c->status = c->fallible ? LLVMGetParam(fn, p++) : NULL;
    return fn;
}

/* blockIdx.x * blockDim.x + threadIdx.x, and the grid's thread count,
 * in the index type (64-bit products: a large grid overflows 32 bits) */
static void thread_range(uf__lower *L, LLVMTypeRef idx, bool index32,
                         LLVMValueRef *first, LLVMValueRef *step)
{
    const uf__codegen_target *cg = L->cg;
    LLVMValueRef tid = cg->sreg(L, UF__SREG_TID_X);
    LLVMValueRef ntid = cg->sreg(L, UF__SREG_NTID_X);
    LLVMValueRef ctaid = cg->sreg(L, UF__SREG_CTAID_X);
    LLVMValueRef nctaid = cg->sreg(L, UF__SREG_NCTAID_X);
    if (!index32) {
        tid = LLVMBuildZExt(B, tid, idx, "");
        ntid = LLVMBuildZExt(B, ntid, idx, "");
        ctaid = LLVMBuildZExt(B, ctaid, idx, "");
        nctaid = LLVMBuildZExt(B, nctaid, idx, "");
    }
    *first = LLVMBuildNUWAdd(B, LLVMBuildNUWMul(B, ctaid, ntid, ""), tid, "i0");
    *step = LLVMBuildNUWMul(B, ntid, nctaid, "step");
}

void uf__nvvm_nd_offsets(uf__lower *L, LLVMValueRef i, int ndim,
                         const LLVMValueRef *shape,
                         LLVMValueRef (*strides)[UF__NVVM_MAXDIM],
                         const bool *skip, int nops, LLVMValueRef *off)
{
    /* the C-order multi-index of i, last axis fastest */
    for (int op = 0; op < nops; op++)
        off[op] = LLVMConstNull(LLVMTypeOf(i));
    LLVMValueRef rem = i;
    for (int d = ndim - 1; d >= 0; d--) {
        LLVMValueRef id = rem;
        if (d > 0) {
            id = LLVMBuildURem(B, rem, shape[d], "");
            rem = LLVMBuildUDiv(B, rem, shape[d], "");
        }
        for (int op = 0; op < nops; op++)
            if (!skip[op])
                off[op] = LLVMBuildAdd(
                    B, off[op], LLVMBuildMul(B, id, strides[op][d], ""), "");
    }
}

/* The address of element i in operands [from, to) (addr[op], typed
 * pointers to the operand's in-memory type); by-value inputs get NULL. */
static void addresses(entry_ctx *c, LLVMValueRef i, int from, int to,
                      LLVMValueRef *addr)
{
    uf__lower *L = c->L;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMValueRef off[UF__LOOP_MAXARGS];
    if (c->v->layout == UF__NVVM_ND) {
        bool skip[UF__LOOP_MAXARGS];
        for (int op = 0; op < c->nops; op++)
            skip[op] = by_value(c, op) || op < from || op >= to;
        uf__nvvm_nd_offsets(L, i, c->v->ndim, c->shape, c->stride, skip,
                            c->nops, off);
    }
    for (int op = from; op < to; op++) {
        addr[op] = NULL;
        if (by_value(c, op))
            continue;
        LLVMTypeRef mt = uf__lower_mem_dtype(L, op_dtype(c, op));
        LLVMTypeRef mp = LLVMPointerType(mt, 0);
        if (c->v->layout == UF__NVVM_CONTIG) {
            LLVMValueRef base = LLVMBuildBitCast(B, c->ptr[op], mp, "");
            addr[op] = LLVMBuildInBoundsGEP2(B, mt, base, &i, 1, "");
            continue;
        }
        LLVMValueRef o = c->v->layout == UF__NVVM_STRIDED
                             ? LLVMBuildMul(B, i, c->stride[op][0], "")
                             : off[op];
        LLVMValueRef p = LLVMBuildGEP2(B, i8, c->ptr[op], &o, 1, "");
        addr[op] = LLVMBuildBitCast(B, p, mp, "");
    }
}

/* One element: inputs, the kernel's call, results converted and stored;
 * a failing kernel's status claims the status word and ends the thread. */
static void element(entry_ctx *c, LLVMValueRef i, LLVMValueRef outslot)
{
    uf__lower *L = c->L;
    uf__fn *F = &c->F;
    LLVMValueRef addr[UF__LOOP_MAXARGS], args[UF__LOOP_MAXARGS + 1];
    addresses(c, i, 0, c->nin, addr);
    unsigned na = 0;
    if (outslot)
        args[na++] = outslot;
    for (int k = 0; k < c->nin; k++) {
        LLVMTypeRef mt = uf__lower_mem_dtype(L, c->in[k]);
        LLVMValueRef v = addr[k] ? LLVMBuildLoad2(B, mt, addr[k], "")
                                 : c->ptr[k];
        if (c->in[k] == UF_BOOL) /* any nonzero byte is True */
            v = LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(mt), "");
        args[na++] = v;
    }
    LLVMValueRef r = LLVMBuildCall2(B, c->kty, c->kernel, args, na, "");
    if (c->fallible) {
        uf__nvvm_fail_on_status(L, F, r, c->status);
        LLVMTypeRef ps[UF__LOOP_MAXARGS + 1];
        LLVMGetParamTypes(c->kty, ps);
        r = LLVMBuildLoad2(B, LLVMGetElementType(ps[0]), outslot, "");
    }
    /* the outputs' addresses after the call: only i lives across the
     * kernel's body for them (libnvvm, 32-bit indexes: 1-2 registers
     * fewer on rel_diff, gaussian_pdf, sine) */
    addresses(c, i, c->nin, c->nops, addr);
    for (int j = 0; j < c->nout; j++) {
        LLVMValueRef v = (c->nout > 1 || c->tuple_ret)
                             ? LLVMBuildExtractValue(B, r, (unsigned)j, "")
                             : r;
        uf_dtype od = c->out[j];
        v = uf__emit_cast(F, v, c->res[j], od);
        if (od == UF_BOOL)
            v = LLVMBuildZExt(B, v, uf__lower_mem_dtype(L, od), "");
        LLVMBuildStore(B, v, addr[c->nin + j]);
    }
}

void uf__nvvm_fail_on_status(uf__lower *L, uf__fn *F, LLVMValueRef r,
                             LLVMValueRef status)
{
    LLVMBasicBlockRef fail = uf__fn_block(F, "fail");
    LLVMBasicBlockRef ok = uf__fn_block(F, "ok");
    LLVMBuildCondBr(B,
                    LLVMBuildICmp(B, LLVMIntNE, r,
                                  LLVMConstNull(LLVMTypeOf(r)), ""),
                    fail, ok);
    LLVMPositionBuilderAtEnd(B, fail);
    /* an IndexError's and a shape ValueError's reports are written where
     * they were detected (the error sinks); other statuses (assert) here */
    LLVMBasicBlockRef claim = uf__fn_block(F, "claim");
    LLVMBasicBlockRef write = uf__fn_block(F, "write");
    LLVMBasicBlockRef stop = uf__fn_block(F, "stop");
    static const int reported[] = {UF__JIT_INDEX, UF__JIT_BCAST_SHAPES,
                                   UF__JIT_SLICE_SHAPE};
    LLVMValueRef sw = LLVMBuildSwitch(B, r, claim, 3);
    for (int k = 0; k < 3; k++)
        LLVMAddCase(sw, LLVMConstInt(LLVMTypeOf(r), (unsigned)reported[k], 0),
                    stop);
    LLVMPositionBuilderAtEnd(B, claim);
    LLVMBuildCondBr(B, uf__nvvm_claim_status(L, status), write, stop);
    LLVMPositionBuilderAtEnd(B, write);
    uf__nvvm_store_code(L, status, r);
    LLVMBuildBr(B, stop);
    LLVMPositionBuilderAtEnd(B, stop);
    LLVMBuildRetVoid(B);
    LLVMPositionBuilderAtEnd(B, ok);
}

void uf__nvvm_grid_loop(uf__lower *L, uf__fn *F, LLVMTypeRef idx,
                        bool index32, LLVMValueRef n, LLVMValueRef status,
                        void (*each)(void *ctx, LLVMValueRef i),
                        void *ctx)
{
    if (status) /* the status pointer for the functions this one calls */
        LLVMBuildStore(B, status, uf__nvvm_status_slot(L));
    LLVMValueRef first, step;
    thread_range(L, idx, index32, &first, &step);
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef head = uf__fn_block(F, "head");
    LLVMBasicBlockRef body = uf__fn_block(F, "body");
    LLVMBasicBlockRef exit = uf__fn_block(F, "exit");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildPhi(B, idx, "i");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), body, exit);
    LLVMPositionBuilderAtEnd(B, body);
    each(ctx, i);
    LLVMValueRef next = LLVMBuildAdd(B, i, step, "i.next");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, head);
    LLVMValueRef inc[2] = {first, next};
    LLVMBasicBlockRef from[2] = {entry, latch};
    LLVMAddIncoming(i, inc, from, 2);
    LLVMPositionBuilderAtEnd(B, exit);
    LLVMBuildRetVoid(B);
}

static void element_cb(void *ctx, LLVMValueRef i)
{
    entry_ctx *c = ctx;
    element(c, i, c->outslot);
}

/* for (i = first; i < n; i += step) element(i) */
static int build_body(entry_ctx *c, LLVMValueRef fn, uf_error *err)
{
    uf__lower *L = c->L;
    uf__fn *F = &c->F;
    uf__fn_begin(F, L, fn, false, true, err);
    c->outslot = NULL;
    if (c->fallible) {
        LLVMTypeRef ps[UF__LOOP_MAXARGS + 1];
        LLVMGetParamTypes(c->kty, ps);
        c->outslot = uf__fn_alloca(F, LLVMGetElementType(ps[0]), "res");
    }
    uf__nvvm_grid_loop(L, F, c->idx, c->v->index32, c->n, c->status,
                       element_cb, c);
    uf__fn_end(F);
    return 0;
}

/* !nvvm.annotations = !{!{fn, !"kernel", i32 1}} */
static void annotate_kernel(uf__lower *L, LLVMValueRef fn)
{
    LLVMValueRef ops[3] = {
        fn, LLVMMDStringInContext(L->ctx, "kernel", 6),
        LLVMConstInt(LLVMInt32TypeInContext(L->ctx), 1, 0)};
    LLVMAddNamedMetadataOperand(L->mod, "nvvm.annotations",
                                LLVMMDNodeInContext(L->ctx, ops, 3));
}

/* cudasim's host entry `void NAME__sim(void **params)`: each parameter
 * loaded through params[i], as cuLaunchKernel passes them. */
static void build_sim_entry(uf__lower *L, LLVMValueRef entry,
                            const uf__nvvm_kernel *k)
{
    LLVMContextRef ctx = L->ctx;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    LLVMTypeRef i8pp = LLVMPointerType(i8p, 0);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), &i8pp, 1, 0);
    char name[80];
    snprintf(name, sizeof name, "%s__sim", k->name);
    LLVMValueRef fn = LLVMAddFunction(L->mod, name, fty);
    LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
    LLVMTypeRef ety = LLVMGlobalGetValueType(entry);
    LLVMTypeRef types[sizeof k->param_sizes / sizeof k->param_sizes[0]];
    LLVMValueRef args[sizeof k->param_sizes / sizeof k->param_sizes[0]];
    LLVMGetParamTypes(ety, types);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    for (int p = 0; p < k->nparams; p++) {
        LLVMValueRef ix = LLVMConstInt(i64, (unsigned long long)p, 0);
        LLVMValueRef slot = LLVMBuildGEP2(B, i8p, LLVMGetParam(fn, 0), &ix, 1,
                                          "");
        LLVMValueRef at = LLVMBuildLoad2(B, i8p, slot, "");
        at = LLVMBuildBitCast(B, at, LLVMPointerType(types[p], 0), "");
        args[p] = LLVMBuildLoad2(B, types[p], at, "");
    }
    LLVMBuildCall2(B, ety, entry, args, (unsigned)k->nparams, "");
    LLVMBuildRetVoid(B);
}

int uf__nvvm_finish_entry(uf__lower *L, LLVMValueRef fn, uf__nvvm_kernel *k,
                          uf_error *err)
{
    const uf__codegen_nvvm *g = (const uf__codegen_nvvm *)L->cg;
    k->shared_bytes = uf__nvvm_shared_finish(L);
    if (g->sim) {
        LLVMSetLinkage(fn, LLVMInternalLinkage);
        build_sim_entry(L, fn, k);
    } else {
        annotate_kernel(L, fn);
    }
    if (L->cg->finish_module)
        return L->cg->finish_module(L, err);
    return 0;
}

int uf__nvvm_lower_kernel(uf__lower *L, const uf__nvvm_spec *spec,
                          uf__nvvm_kernel *k, uf_error *err)
{
    if (spec->kernel)
        return uf__nvvm_lower_cukernel(L, spec, k, err);
    if (spec->reduce)
        return uf__nvvm_lower_reduce(L, spec, k, err);
    if (spec->layout)
        return uf__nvvm_lower_gukernel(L, spec, k, err);
    const uf__typed_func *tf = spec->tf;
    entry_ctx c;
    memset(&c, 0, sizeof c);
    c.L = L;
    c.v = &spec->v;
    c.out = spec->out_types;
    const char *kname = tf->decl ? tf->decl->name : "?";
    int rc = signature_of(&c, tf, err);
    if (rc == 0)
        rc = uf__nvvm_check_variant(c.v, c.nin, err);
    if (rc != 0)
        return rc;
    c.idx = c.v->index32 ? LLVMInt32TypeInContext(L->ctx)
                         : LLVMInt64TypeInContext(L->ctx);
    c.kernel = uf__lower_func(L, tf, &c.fallible, err);
    if (!c.kernel)
        return err->code;
    if ((rc = uf__nvvm_refused(L, kname, err)) != 0)
        return rc;
    c.kty = LLVMGlobalGetValueType(c.kernel);
    LLVMValueRef fn = build_entry(&c, k);
    if ((rc = build_body(&c, fn, err)) != 0)
        return rc;
    return uf__nvvm_finish_entry(L, fn, k, err);
}
