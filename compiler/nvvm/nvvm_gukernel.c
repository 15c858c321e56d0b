/* The CUDA entry around a guvectorize kernel (nvvm.h, "The guvectorize
 * kernel ABI"): a grid-stride loop over the loop space, each element
 * giving the kernel its operands' core views exactly as the host gufunc
 * loop does (uf__lower_gufunc_operand), the kernel itself lowered by the
 * shared code. The same entry serves NVVM and cudasim. */
#include <string.h>

#include "common/error_internal.h"
#include "compiler/host/jit_gufunc_spec.h"
#include "compiler/nvvm/nvvm_internal.h"

#define B (L->b)

typedef struct gu_ctx {
    uf__lower *L;
    uf__fn F;
    const uf__nvvm_spec *sp;
    const uf__gufunc_layout *lay;
    const uf__nvvm_variant *v;
    bool fallible;
    LLVMTypeRef idx; /* i32 or i64 */
    LLVMValueRef kernel;
    /* parameters, by role */
    LLVMValueRef n, shape[UF__NVVM_MAXDIM], status;
    LLVMValueRef ptr[UF__LOOP_MAXARGS]; /* or the scalar's value */
    LLVMValueRef stride[UF__LOOP_MAXARGS][UF__NVVM_MAXDIM];
    LLVMValueRef dim[UF__NVVM_MAXCORE];   /* per layout dimension */
    LLVMValueRef cstep[UF__NVVM_MAXCORE]; /* per core axis (dim_ix) */
} gu_ctx;

static bool by_value(const gu_ctx *c, int k)
{
    return k < 32 && (c->v->scalar_in >> k & 1u);
}

/* A layout dimension the kernel gets as a constant (as on the host). */
static bool fixed_dim(const uf__gufunc_dim *d)
{
    return d->size > 0 && !d->flexible;
}

static int check_spec(const gu_ctx *c, uf_error *err)
{
    const uf__gufunc_layout *lay = c->lay;
    const uf__typed_func *tf = c->sp->tf;
    const char *kname = tf->decl ? tf->decl->name : "?";
    if (c->v->layout == UF__NVVM_CONTIG)
        return uf__error_set(err, UF_ERR_INVALID,
                             "CUDA guvectorize kernel '%s': variant CONTIG "
                             "is for vectorize kernels (use STRIDED or ND)",
                             kname);
    int rc = uf__nvvm_check_variant(c->v, lay->nin, err);
    if (rc != 0)
        return rc;
    if (tf->nargs != lay->nargs || lay->nargs > UF__LOOP_MAXARGS ||
        tf->ret->kind != UF__T_NONE)
        return uf__error_set(err, UF_ERR_INVALID,
                             "CUDA guvectorize kernel '%s': typed for %d "
                             "arguments (and a result?), its layout has %d "
                             "operands", kname, tf->nargs, lay->nargs);
    int nfree = 0, ncore = 0;
    for (int d = 0; d < lay->ndims; d++)
        nfree += !fixed_dim(&lay->dims[d]);
    for (int k = 0; k < lay->nargs; k++) {
        if (by_value(c, k) && c->sp->args[k].kind != UF__GUVEC_SCALAR)
            return uf__error_set(err, UF_ERR_INVALID,
                                 "CUDA guvectorize kernel '%s': operand %d "
                                 "passed by value is not a \"()\" input",
                                 kname, k + 1);
        if (lay->core_ndim[k] > UF_MAXDIMS)
            return uf__error_set(err, UF_ERR_UNSUPPORTED,
                                 "kernel '%s': operand %d has %d core "
                                 "dimensions: at most %d", kname, k + 1,
                                 lay->core_ndim[k], UF_MAXDIMS);
        ncore += lay->core_ndim[k];
    }
    if (nfree + ncore > UF__NVVM_MAXCORE)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "kernel '%s': the CUDA target passes at most "
                             "%d core sizes and strides, its layout '%s' "
                             "needs %d", kname, UF__NVVM_MAXCORE, lay->text,
                             nfree + ncore);
    return 0;
}

static LLVMValueRef build_entry(gu_ctx *c, uf__nvvm_kernel *k)
{
    uf__lower *L = c->L;
    const uf__gufunc_layout *lay = c->lay;
    LLVMContextRef ctx = L->ctx;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    int nd = c->v->layout == UF__NVVM_ND ? c->v->ndim : 1;
    LLVMTypeRef types[sizeof k->param_sizes / sizeof k->param_sizes[0]];
    uf_dtype dts[UF__LOOP_MAXARGS];
    for (int op = 0; op < lay->nargs; op++)
        dts[op] = c->sp->args[op].dtype;
    k->nparams = 0;
    uf__nvvm_loop_params(L, k, types, c->v, nd, c->idx, dts, lay->nargs);
    for (int d = 0; d < lay->ndims; d++)
        if (!fixed_dim(&lay->dims[d]))
            uf__nvvm_param(k, types, i64, 8);
    for (int op = 0; op < lay->nargs; op++)
        for (int j = 0; j < lay->core_ndim[op] && !by_value(c, op); j++)
            uf__nvvm_param(k, types, i64, 8);
    k->has_status = c->fallible;
    if (c->fallible)
        uf__nvvm_param(k, types, i8p, 8);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), types,
                                       (unsigned)k->nparams, 0);
    LLVMValueRef fn = LLVMAddFunction(L->mod, k->name, fty);
    uf__lower_target_attrs(L, fn);

    /* the parameters by role */
    unsigned p = uf__nvvm_loop_args(fn, c->v, nd, lay->nargs, &c->n,
                                    c->shape, c->ptr, c->stride);
    for (int d = 0; d < lay->ndims; d++)
        c->dim[d] = fixed_dim(&lay->dims[d])
                        ? LLVMConstInt(i64, (unsigned long long)lay->dims[d].size,
                                       0)
                        : LLVMGetParam(fn, p++);
    for (int op = 0; op < lay->nargs; op++)
        for (int j = 0; j < lay->core_ndim[op] && !by_value(c, op); j++)
            c->cstep[lay->core_offset[op] + j] = LLVMGetParam(fn, p++);
    c->status = c->fallible ? LLVMGetParam(fn, p++) : NULL;
    return fn;
}

/* Loop element i: each operand's core view at its offset, the kernel's
 * call, a failing status reported. */
static void element(void *vctx, LLVMValueRef i)
{
    gu_ctx *c = vctx;
    uf__lower *L = c->L;
    const uf__gufunc_layout *lay = c->lay;
    int nargs = lay->nargs;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMValueRef off[UF__LOOP_MAXARGS], args[UF__LOOP_MAXARGS];
    bool skip[UF__LOOP_MAXARGS];
    for (int op = 0; op < nargs; op++)
        skip[op] = by_value(c, op);
    if (c->v->layout == UF__NVVM_ND)
        uf__nvvm_nd_offsets(L, i, c->v->ndim, c->shape, c->stride, skip,
                            nargs, off);
    for (int op = 0; op < nargs; op++) {
        const uf__guvec_arg *a = &c->sp->args[op];
        if (skip[op]) {
            LLVMValueRef v = c->ptr[op];
            if (a->dtype == UF_BOOL) /* any nonzero byte is True */
                v = LLVMBuildICmp(B, LLVMIntNE, v,
                                  LLVMConstNull(LLVMTypeOf(v)), "");
            args[op] = v;
            continue;
        }
        LLVMValueRef o = c->v->layout == UF__NVVM_ND
                             ? off[op]
                             : LLVMBuildMul(B, i, c->stride[op][0], "");
        LLVMValueRef p = LLVMBuildGEP2(B, i8, c->ptr[op], &o, 1, "");
        LLVMValueRef shape[UF_MAXDIMS], strides[UF_MAXDIMS];
        int nd = lay->core_ndim[op];
        for (int j = 0; j < nd; j++) {
            int cx = lay->core_offset[op] + j;
            shape[j] = c->dim[lay->dim_ix[cx]];
            strides[j] = c->cstep[cx];
        }
        args[op] = uf__lower_gufunc_operand(L, a, p, shape, strides, nd);
    }
    LLVMValueRef r = LLVMBuildCall2(B, LLVMGlobalGetValueType(c->kernel),
                                    c->kernel, args, (unsigned)nargs, "");
    if (c->fallible)
        uf__nvvm_fail_on_status(L, &c->F, r, c->status);
}

int uf__nvvm_lower_gukernel(uf__lower *L, const uf__nvvm_spec *spec,
                            uf__nvvm_kernel *k, uf_error *err)
{
    gu_ctx c;
    memset(&c, 0, sizeof c);
    c.L = L;
    c.sp = spec;
    c.lay = spec->layout;
    c.v = &spec->v;
    int rc = check_spec(&c, err);
    if (rc != 0)
        return rc;
    c.idx = c.v->index32 ? LLVMInt32TypeInContext(L->ctx)
                         : LLVMInt64TypeInContext(L->ctx);
    c.kernel = uf__lower_func(L, spec->tf, &c.fallible, err);
    if (!c.kernel)
        return err->code;
    if ((rc = uf__nvvm_refused(L, spec->tf->decl ? spec->tf->decl->name
                                                 : "?",
                               err)) != 0)
        return rc;
    if (LLVMCountParamTypes(LLVMGlobalGetValueType(c.kernel)) !=
        (unsigned)c.lay->nargs)
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "CUDA guvectorize entry: the kernel does not "
                             "take the %d operands", c.lay->nargs);
    LLVMValueRef fn = build_entry(&c, k);
    uf__fn_begin(&c.F, L, fn, false, true, err);
    uf__nvvm_grid_loop(L, &c.F, c.idx, c.v->index32, c.n, c.status, element,
                       &c);
    uf__fn_end(&c.F);
    return uf__nvvm_finish_entry(L, fn, k, err);
}
