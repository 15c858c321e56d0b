/* glibc's libmvec for the host codegen target (codegen_host.h): which
 * vector variants of libm functions the host has, and the call-site
 * attributes that let LLVM's loop vectoriser call them (or SLEEF's entry
 * point where codegen_host_sleef.c picked it). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "compiler/host/codegen_host.h"

/* Functions with vector variants in libmvec (glibc 2.22: sin cos exp log
 * pow; 2.35: the rest), by their double-precision libm name. */
static const struct {
    const char *name;
    int nargs;
} mvec_funcs[] = {
    {"sin", 1},   {"cos", 1},   {"tan", 1},   {"asin", 1},  {"acos", 1},
    {"atan", 1},  {"atan2", 2}, {"sinh", 1},  {"cosh", 1},  {"tanh", 1},
    {"asinh", 1}, {"acosh", 1}, {"atanh", 1}, {"exp", 1},   {"expm1", 1},
    {"log", 1},   {"log1p", 1}, {"log2", 1},  {"log10", 1}, {"pow", 2},
    {"hypot", 2}, {"erf", 1},   {"erfc", 1},  {"exp2", 1},
};
enum { NMVEC = sizeof mvec_funcs / sizeof mvec_funcs[0] };

/* The four variants: ISA letter, lanes, float suffix, mask bit. */
static const struct {
    char isa;
    int lanes;
    bool f32;
    unsigned char bit;
} mvec_kinds[4] = {
    {'d', 4, false, UF__MVEC_D64},
    {'e', 8, false, UF__MVEC_E64},
    {'d', 8, true, UF__MVEC_D32},
    {'e', 16, true, UF__MVEC_E32},
};

/* "_ZGVeN8vv_pow" */
static void mvec_name(char *buf, size_t size, int func, int kind)
{
    snprintf(buf, size, "_ZGV%cN%d%s_%s%s", mvec_kinds[kind].isa,
             mvec_kinds[kind].lanes, mvec_funcs[func].nargs == 2 ? "vv" : "v",
             mvec_funcs[func].name, mvec_kinds[kind].f32 ? "f" : "");
}

int uf__host_mvec_index(const char *name)
{
    for (int f = 0; f < NMVEC; f++)
        if (strcmp(mvec_funcs[f].name, name) == 0)
            return f;
    return -1;
}

const char *uf__host_mvec_func(int f)
{
    return f >= 0 && f < NMVEC ? mvec_funcs[f].name : NULL;
}

void uf__host_mvec_probe(bool avx2, bool avx512, unsigned char *mask)
{
    _Static_assert((int)NMVEC <= (int)UF__MVEC_NFUNCS, "mvec table too long");
    for (int f = 0; f < UF__MVEC_NFUNCS; f++) {
        mask[f] = 0;
        for (int k = 0; k < 4 && f < NMVEC; k++) {
            if (!(mvec_kinds[k].isa == 'd' ? avx2 : avx512))
                continue;
            char name[64];
            mvec_name(name, sizeof name, f, k);
            if (dlsym(RTLD_DEFAULT, name))
                mask[f] |= mvec_kinds[k].bit;
        }
    }
}

/* Tells the loop vectoriser which libmvec functions compute `call` (a
 * scalar call of libm function `base` on dtype dt) on vectors: the
 * call-site attribute "vector-function-abi-variant" listing
 * _ZGV_LLVM_N8v_llvm.sin.f64(_ZGVeN8v_sin) and friends, with the vector
 * functions declared. */
void uf__host_mvec_annotate(uf__fn *F, LLVMValueRef call, const char *base,
                            uf_dtype dt)
{
    uf__lower *L = F->L;
    const uf__host_vmath *vm = ((const uf__codegen_host *)L->cg)->mvec;
    if (!vm || (dt != UF_FLOAT32 && dt != UF_FLOAT64))
        return;
    int f = uf__host_mvec_index(base);
    if (f < 0 || !vm->mask[f])
        return;
    size_t len;
    const char *scalar = LLVMGetValueName2(LLVMGetCalledValue(call), &len);
    char list[512];
    size_t used = 0;
    list[0] = '\0';
    for (int k = 0; k < 4; k++) {
        if (mvec_kinds[k].f32 != (dt == UF_FLOAT32) ||
            !(vm->mask[f] & mvec_kinds[k].bit))
            continue;
        char vname[64];
        if (vm->sleef[f][k])
            snprintf(vname, sizeof vname, "%s", vm->sleef[f][k]);
        else
            mvec_name(vname, sizeof vname, f, k);
        int nargs = mvec_funcs[f].nargs;
        if (!LLVMGetNamedFunction(L->mod, vname)) {
            LLVMTypeRef vt = LLVMVectorType(uf__lower_dtype(L, dt),
                                            (unsigned)mvec_kinds[k].lanes);
            LLVMTypeRef ps[2] = {vt, vt};
            LLVMValueRef vf = LLVMAddFunction(
                L->mod, vname, LLVMFunctionType(vt, ps, (unsigned)nargs, 0));
            uf__lower_add_attr(L, vf, (int)LLVMAttributeFunctionIndex,
                               "nounwind");
            uf__lower_add_attr(L, vf, (int)LLVMAttributeFunctionIndex,
                               "readnone");
        }
        int w = snprintf(list + used, sizeof list - used,
                         "%s_ZGV_LLVM_N%d%s_%.*s(%s)", used ? "," : "",
                         mvec_kinds[k].lanes, nargs == 2 ? "vv" : "v",
                         (int)len, scalar, vname);
        if (w < 0 || (size_t)w >= sizeof list - used)
            return;
        used += (size_t)w;
    }
    if (!used)
        return;
    static const char key[] = "vector-function-abi-variant";
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                             LLVMCreateStringAttribute(L->ctx, key,
                                                       sizeof key - 1, list,
                                                       (unsigned)used));
}

/* A declaration annotate added: libmvec's or SLEEF's. */
static bool is_vector_math(LLVMValueRef f)
{
    const char *name = LLVMGetValueName(f);
    return strncmp(name, "_ZGV", 4) == 0 || strncmp(name, "Sleef_", 6) == 0;
}

int uf__host_mvec_finish(uf__lower *L, uf_error *err)
{
    int n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(L->mod); f;
         f = LLVMGetNextFunction(f))
        n += is_vector_math(f);
    if (n == 0)
        return 0;
    LLVMValueRef *elts = uf__malloc((size_t)n, sizeof *elts, err);
    if (!elts)
        return UF_ERR_NOMEM;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    int i = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(L->mod); f;
         f = LLVMGetNextFunction(f))
        if (is_vector_math(f))
            elts[i++] = LLVMConstBitCast(f, i8p);
    LLVMValueRef used = LLVMAddGlobal(
        L->mod, LLVMArrayType(i8p, (unsigned)n), "llvm.compiler.used");
    LLVMSetLinkage(used, LLVMAppendingLinkage);
    LLVMSetSection(used, "llvm.metadata");
    LLVMSetInitializer(used, LLVMConstArray(i8p, elts, (unsigned)n));
    uf__free(elts);
    return 0;
}
