/* The CUDA entry around a cuda.jit kernel (nvvm.h, "The cuda.jit kernel
 * ABI"): every thread builds the kernel's array arguments from the
 * launch's parameters and calls the kernel body once, the body lowered by
 * the shared code (its cuda.threadIdx/.grid/.syncthreads through the
 * codegen target's hooks). The same entry serves NVVM and cudasim. */
#include <string.h>

#include "common/error_internal.h"
#include "compiler/lower/lower_array.h"
#include "compiler/nvvm/nvvm_internal.h"

#define B (L->b)
#define MAXPARAMS                                                          \
    (int)(sizeof((uf__nvvm_kernel *)0)->param_sizes /                      \
          sizeof((uf__nvvm_kernel *)0)->param_sizes[0])

static int check_args(const uf__typed_func *tf, const char *kname,
                      uf_error *err)
{
    int n = 2; /* the dynamic shared bytes, the status word */
    for (int i = 0; i < tf->nargs; i++) {
        const uf__type *t = tf->args[i];
        if (t->kind == UF__T_ARRAY)
            n += 1 + 2 * t->ndim;
        else if (t->kind == UF__T_SCALAR)
            n++;
        else {
            char ts[64];
            uf__type_str(t, ts, sizeof ts);
            return uf__error_set(err, UF_ERR_UNSUPPORTED,
                                 "kernel '%s': argument %d is %s: a CUDA "
                                 "kernel takes arrays and scalars",
                                 kname, i + 1, ts);
        }
    }
    if (n > MAXPARAMS)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "kernel '%s': its arguments need %d launch "
                             "parameters, at most %d are passed", kname, n,
                             MAXPARAMS);
    if (tf->ret->kind != UF__T_NONE)
        return uf__error_set(err, UF_ERR_INVALID,
                             "kernel '%s' returns a value", kname);
    return 0;
}

/* The entry's parameters (nvvm.h) and, per argument, the first one's
 * index into first[]. */
static LLVMValueRef build_entry(uf__lower *L, const uf__typed_func *tf,
                                bool fallible, uf__nvvm_kernel *k,
                                unsigned *first)
{
    LLVMContextRef ctx = L->ctx;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef types[MAXPARAMS];
    k->nparams = 0;
    for (int i = 0; i < tf->nargs; i++) {
        const uf__type *t = tf->args[i];
        first[i] = (unsigned)k->nparams;
        if (t->kind == UF__T_SCALAR) {
            uf__nvvm_param(k, types, uf__lower_mem_dtype(L, t->dtype),
                           (uint32_t)uf_dtype_itemsize(t->dtype));
            continue;
        }
        uf__nvvm_param(k, types, i8p, 8);
        for (int d = 0; d < 2 * t->ndim; d++)
            uf__nvvm_param(k, types, i64, 8);
    }
    uf__nvvm_param(k, types, LLVMInt32TypeInContext(ctx), 4);
    k->has_status = fallible;
    if (fallible)
        uf__nvvm_param(k, types, i8p, 8);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), types,
                                       (unsigned)k->nparams, 0);
    LLVMValueRef fn = LLVMAddFunction(L->mod, k->name, fty);
    uf__lower_target_attrs(L, fn);
    return fn;
}

/* Argument i as the kernel takes it. */
static LLVMValueRef argument(uf__lower *L, const uf__type *t,
                             LLVMValueRef fn, unsigned p)
{
    LLVMValueRef v = LLVMGetParam(fn, p);
    if (t->kind == UF__T_SCALAR) {
        if (t->dtype == UF_BOOL) /* any nonzero byte is True */
            v = LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)),
                              "");
        return v;
    }
    LLVMValueRef shape[UF_MAXDIMS], strides[UF_MAXDIMS];
    for (int d = 0; d < t->ndim; d++) {
        shape[d] = LLVMGetParam(fn, p + 1 + (unsigned)d);
        strides[d] = LLVMGetParam(fn, p + 1 + (unsigned)(t->ndim + d));
    }
    return uf__build_array(L, v, shape, strides, t->ndim);
}

int uf__nvvm_lower_cukernel(uf__lower *L, const uf__nvvm_spec *spec,
                            uf__nvvm_kernel *k, uf_error *err)
{
    const uf__typed_func *tf = spec->tf;
    const char *kname = tf->decl ? tf->decl->name : "?";
    int rc = check_args(tf, kname, err);
    if (rc != 0)
        return rc;
    bool fallible;
    LLVMValueRef kernel = uf__lower_func(L, tf, &fallible, err);
    if (!kernel)
        return err->code;
    if ((rc = uf__nvvm_refused(L, kname, err)) != 0)
        return rc;
    unsigned first[UF__TUPLE_MAX];
    if (tf->nargs > UF__TUPLE_MAX)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "kernel '%s': more than %d arguments", kname,
                             UF__TUPLE_MAX);
    LLVMValueRef fn = build_entry(L, tf, fallible, k, first);
    uf__fn F;
    uf__fn_begin(&F, L, fn, false, true, err);
    unsigned dyn = (unsigned)k->nparams - (fallible ? 2 : 1);
    LLVMValueRef status = fallible ? LLVMGetParam(fn, dyn + 1) : NULL;
    if (status) /* the status pointer for the functions the kernel calls */
        LLVMBuildStore(B, status, uf__nvvm_status_slot(L));
    if (((const uf__codegen_nvvm *)L->cg)->dyn_used) /* the block's slot */
        LLVMBuildStore(B,
                       LLVMBuildZExt(B, LLVMGetParam(fn, dyn),
                                     LLVMInt64TypeInContext(L->ctx), ""),
                       L->cg->shared_dynamic_size(L));
    LLVMValueRef args[UF__TUPLE_MAX];
    for (int i = 0; i < tf->nargs; i++)
        args[i] = argument(L, tf->args[i], fn, first[i]);
    LLVMValueRef r = LLVMBuildCall2(B, LLVMGlobalGetValueType(kernel), kernel,
                                    args, (unsigned)tf->nargs, "");
    if (fallible)
        uf__nvvm_fail_on_status(L, &F, r, status);
    LLVMBuildRetVoid(B);
    uf__fn_end(&F);
    return uf__nvvm_finish_entry(L, fn, k, err);
}
