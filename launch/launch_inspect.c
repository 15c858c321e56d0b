/* uf_func_inspect of a cuda.jit kernel (the kernel kind's inspect op):
 * the typed source, the NVVM IR the CUDA backends get (--llvm), and the
 * PTX with ptxas -v's registers, spills and shared memory (--ptx), for a
 * declared signature or one given for a lazy kernel. The PTX is compiled
 * as a launch on a GPU compiles it (fastmath=, max_registers=). A kernel
 * has no host code: --asm is refused. */
#include "common/error_internal.h"
#include "compiler/types/infer.h"
#include "launch/launch.h"
#include "ufunc/inspect.h"

/* what the kernel is typed for: its parameters, nothing returned */
static int check_signature(const uf_func *f, const uf__signature *sig,
                           uf_error *err)
{
    int np = f->decl->def->u.funcdef.nparams;
    if (sig->nargs != np)
        return uf__error_set(err, UF_ERR_INVALID,
                             "kernel '%s' takes %d argument%s, the "
                             "signature gives %d", f->decl->name, np,
                             np == 1 ? "" : "s", sig->nargs);
    if (sig->ret != NULL && sig->ret->kind != UF__T_NONE)
        return uf__error_set(err, UF_ERR_INVALID,
                             "kernel '%s': a kernel returns nothing; write "
                             "its signature as 'void(...)'", f->decl->name);
    return 0;
}

static const uf__typed_func *typed(uf_func *f, const uf__signature *sig,
                                   uf_error *err)
{
    return uf__infer(f->module->km, f->decl, sig->args, sig->nargs, NULL,
                     err);
}

/* --llvm: the NVVM IR module of the kernel */
static int ir_listing(uf_func *f, const uf__typed_func *tf, uf__jit *jit,
                      const uf__signature *sig, uf__jit_listing *listing,
                      uf_error *err)
{
    (void)jit, (void)sig, (void)f;
    uf__nvvm_spec spec = {.tf = tf, .kernel = true};
    listing->llvm_ir = uf__nvvm_ufuncs_ir(&spec, 1, err);
    return listing->llvm_ir != NULL ? 0 : err->code;
}

static int ptx_listing(uf_func *f, const uf__signature *sig, uf__strbuf *out,
                       uf_error *err)
{
    const uf__typed_func *tf = typed(f, sig, err);
    if (tf == NULL)
        return err->code;
    uf__nvvm_spec spec = {.tf = tf, .kernel = true};
    uf__nvvm_options opts = {.fastmath = f->decl->fastmath,
                             .max_registers = f->decl->max_registers};
    if (opts.max_registers > 0)
        uf__strbuf_printf(out, "// max_registers=%d\n", opts.max_registers);
    return uf__inspect_append_ptx_opts(out, &spec, 1, &opts, err);
}

static const uf__inspect_kind inspect_kind = {.check = check_signature,
                                              .no_result = true,
                                              .compile = ir_listing,
                                              .ptx = ptx_listing};

int uf__cuda_kernel_inspect(uf_func *f, const char *sig, unsigned what,
                            uf__strbuf *out, uf_error *err)
{
    if (what & UF_INSPECT_ASM)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "'%s' is a CUDA kernel: it has no host "
                             "assembly; --ptx shows what the GPU runs",
                             f->decl->name);
    return uf__inspect_compiled(f, sig, what, &inspect_kind, out, err);
}
