/* The cmath runtime helpers for the CUDA targets, as IR. On the host,
 * cmath.sqrt, cmath.exp, cmath.rect and complex ** complex call C
 * functions of the process (targets/cpu/cpu_runtime.c: NumPy's npy_csqrt,
 * Numba's cexp/rect special cases, CPython's _Py_c_pow); a GPU cannot
 * call those, so the CUDA codegen targets define functions of the same
 * names and types in the module, the same algorithms written with selects
 * (every branch computed, the C's branch chosen: nothing on a GPU traps),
 * their math going through the target's own (libdevice on NVVM, the
 * host's libm on cudasim, which therefore gives the CPU's bits).
 *
 * Each helper takes the complex128 `z` (two doubles) in and out, and cpow
 * also `w` in, as lower_math.c's call_rt passes them. */
#include <math.h>
#include <string.h>

#include "common/loop.h"
#include "compiler/nvvm/nvvm_internal.h"

/* A helper's body under construction: F for the target's math hook, the
 * builder positioned in the helper. */
typedef struct cm {
    uf__fn F;
    LLVMBuilderRef b;
    LLVMTypeRef f64;
} cm;

static LLVMValueRef num(cm *c, double v)
{
    return LLVMConstReal(c->f64, v);
}

static LLVMValueRef fn1(cm *c, const char *name, LLVMValueRef x)
{
    return c->F.L->cg->math(&c->F, name, UF_FLOAT64, &x, 1);
}

static LLVMValueRef fn2(cm *c, const char *name, LLVMValueRef x,
                        LLVMValueRef y)
{
    LLVMValueRef a[2] = {x, y};
    return c->F.L->cg->math(&c->F, name, UF_FLOAT64, a, 2);
}

#define ADD(x, y) LLVMBuildFAdd(c->b, x, y, "")
#define SUB(x, y) LLVMBuildFSub(c->b, x, y, "")
#define MUL(x, y) LLVMBuildFMul(c->b, x, y, "")
#define DIV(x, y) LLVMBuildFDiv(c->b, x, y, "")
#define CMP(p, x, y) LLVMBuildFCmp(c->b, LLVMReal##p, x, y, "")
#define SEL(k, x, y) LLVMBuildSelect(c->b, k, x, y, "")
#define AND(x, y) LLVMBuildAnd(c->b, x, y, "")
#define OR(x, y) LLVMBuildOr(c->b, x, y, "")
#define NOT(x) LLVMBuildNot(c->b, x, "")

static LLVMValueRef is_nan(cm *c, LLVMValueRef x)
{
    return CMP(UNO, x, x);
}

static LLVMValueRef is_inf(cm *c, LLVMValueRef x)
{
    return CMP(OEQ, fn1(c, "fabs", x), num(c, INFINITY));
}

static LLVMValueRef is_finite(cm *c, LLVMValueRef x)
{
    return CMP(ONE, fn1(c, "fabs", x), num(c, INFINITY));
}

/* a result pair chosen by k */
typedef struct pair {
    LLVMValueRef re, im;
} pair;

static pair choose(cm *c, LLVMValueRef k, pair x, pair y)
{
    return (pair){SEL(k, x.re, y.re), SEL(k, x.im, y.im)};
}

/* cmath.sqrt: npy_csqrt (rt_csqrt's comments say why both parts are
 * doubled after the scaling) */
static pair csqrt_ir(cm *c, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef zero = num(c, 0.0);
    LLVMValueRef thres =
        num(c, 1.7976931348623157e308 / (1.0 + 1.4142135623730951));
    LLVMValueRef scale = OR(CMP(OGE, fn1(c, "fabs", a), thres),
                            CMP(OGE, fn1(c, "fabs", b), thres));
    LLVMValueRef sa = SEL(scale, MUL(a, num(c, 0.25)), a);
    LLVMValueRef sb = SEL(scale, MUL(b, num(c, 0.25)), b);
    LLVMValueRef h = fn2(c, "hypot", sa, sb);
    LLVMValueRef tp = fn1(c, "sqrt", MUL(ADD(sa, h), num(c, 0.5)));
    LLVMValueRef tn = fn1(c, "sqrt", MUL(ADD(SUB(zero, sa), h),
                                          num(c, 0.5)));
    LLVMValueRef pos = CMP(OGE, sa, zero);
    pair g = choose(c, pos,
                    (pair){tp, DIV(sb, MUL(num(c, 2.0), tp))},
                    (pair){DIV(fn1(c, "fabs", sb), MUL(num(c, 2.0), tn)),
                           fn2(c, "copysign", tn, sb)});
    g = choose(c, scale, (pair){MUL(g.re, num(c, 2.0)),
                                MUL(g.im, num(c, 2.0))}, g);
    LLVMValueRef bb = SUB(b, b);
    pair inf = choose(c, CMP(OLT, a, zero),
                      (pair){fn1(c, "fabs", bb), fn2(c, "copysign", a, b)},
                      (pair){a, fn2(c, "copysign", bb, b)});
    g = choose(c, is_inf(c, a), inf, g);
    g = choose(c, is_nan(c, a), (pair){a, a}, g);
    LLVMValueRef first = OR(AND(CMP(OEQ, a, zero), CMP(OEQ, b, zero)),
                            is_inf(c, b));
    return choose(c, first, (pair){fn1(c, "fabs", b), b}, g);
}

/* cmath.exp with Numba's special cases */
static pair cexp_ir(cm *c, LLVMValueRef x, LLVMValueRef y)
{
    LLVMValueRef zero = num(c, 0.0), nan = num(c, NAN);
    LLVMValueRef r = fn1(c, "exp", x);
    LLVMValueRef cy = fn1(c, "cos", y), sy = fn1(c, "sin", y);
    pair gen = {MUL(r, cy), MUL(r, sy)};
    LLVMValueRef fy = is_finite(c, y);
    pair finite_x = choose(c, fy, gen, (pair){nan, nan});
    pair nan_x = {x, SEL(CMP(UNE, y, zero), x, y)};
    pair pinf_x = choose(c, fy,
                         (pair){SEL(CMP(UNE, cy, zero), MUL(cy, x), cy),
                                SEL(CMP(UNE, sy, zero), MUL(sy, x), sy)},
                         (pair){x, nan});
    pair ninf_x = choose(c, fy, gen, (pair){zero, zero});
    pair inf_x = choose(c, CMP(OGT, x, zero), pinf_x, ninf_x);
    return choose(c, is_finite(c, x), finite_x,
                  choose(c, is_nan(c, x), nan_x, inf_x));
}

/* cmath.rect(r, phi) with Numba's handling of infinities */
static pair crect_ir(cm *c, LLVMValueRef r, LLVMValueRef phi)
{
    LLVMValueRef zero = num(c, 0.0);
    LLVMValueRef re = fn1(c, "cos", phi), im = fn1(c, "sin", phi);
    LLVMValueRef rinf = is_inf(c, r);
    pair g = {SEL(AND(CMP(OEQ, re, zero), rinf), DIV(re, r), MUL(re, r)),
              SEL(AND(CMP(OEQ, im, zero), rinf), DIV(im, r), MUL(im, r))};
    pair odd = choose(c, CMP(OEQ, r, zero),
                      (pair){fn1(c, "fabs", r), zero},
                      choose(c, rinf, (pair){r, phi}, g));
    return choose(c, is_finite(c, phi), g, odd);
}

/* z ** w: CPython's _Py_c_pow as Numba's numba_cpow */
static pair cpow_ir(cm *c, LLVMValueRef ar, LLVMValueRef ai, LLVMValueRef br,
                    LLVMValueRef bi)
{
    LLVMValueRef zero = num(c, 0.0), nan = num(c, NAN);
    LLVMValueRef vabs = fn2(c, "hypot", ar, ai);
    LLVMValueRef len = fn2(c, "pow", vabs, br);
    LLVMValueRef at = fn2(c, "atan2", ai, ar);
    LLVMValueRef phase = MUL(at, br);
    LLVMValueRef cplx = CMP(UNE, bi, zero);
    len = SEL(cplx, DIV(len, fn1(c, "exp", MUL(at, bi))), len);
    phase = SEL(cplx, ADD(phase, MUL(bi, fn1(c, "log", vabs))), phase);
    pair g = {MUL(len, fn1(c, "cos", phase)), MUL(len, fn1(c, "sin", phase))};
    LLVMValueRef zpow = OR(cplx, CMP(OLT, br, zero));
    pair at_zero = choose(c, zpow, (pair){nan, nan}, (pair){zero, zero});
    g = choose(c, AND(CMP(OEQ, ar, zero), CMP(OEQ, ai, zero)), at_zero, g);
    LLVMValueRef one = num(c, 1.0);
    return choose(c, AND(CMP(OEQ, br, zero), CMP(OEQ, bi, zero)),
                  (pair){one, zero}, g);
}

static LLVMValueRef part(cm *c, LLVMValueRef p, unsigned k)
{
    LLVMValueRef ix = LLVMConstInt(LLVMInt64TypeInContext(c->F.L->ctx), k, 0);
    return LLVMBuildGEP2(c->b, c->f64, p, &ix, 1, "");
}

static LLVMValueRef load(cm *c, LLVMValueRef p, unsigned k)
{
    return LLVMBuildLoad2(c->b, c->f64, part(c, p, k), "");
}

LLVMValueRef uf__nvvm_cmath_helper(uf__lower *L, const char *name,
                                   LLVMTypeRef fty)
{
    enum { SQRT, EXP, RECT, POW } which;
    if (strcmp(name, UF__RT_CSQRT) == 0)
        which = SQRT;
    else if (strcmp(name, UF__RT_CEXP) == 0)
        which = EXP;
    else if (strcmp(name, UF__RT_CRECT) == 0)
        which = RECT;
    else if (strcmp(name, UF__RT_CPOW) == 0)
        which = POW;
    else
        return NULL;
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
    if (fn)
        return fn;
    fn = LLVMAddFunction(L->mod, name, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, "nounwind");
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex,
                       "alwaysinline");
    /* the math hook builds with L->b: a builder of the helper's meanwhile */
    LLVMBuilderRef caller = L->b;
    cm c;
    memset(&c, 0, sizeof c);
    c.F.L = L;
    c.b = L->b = LLVMCreateBuilderInContext(L->ctx);
    c.f64 = LLVMDoubleTypeInContext(L->ctx);
    LLVMPositionBuilderAtEnd(c.b,
                             LLVMAppendBasicBlockInContext(L->ctx, fn, ""));
    LLVMValueRef z = LLVMGetParam(fn, 0);
    LLVMValueRef re = load(&c, z, 0), im = load(&c, z, 1);
    pair r;
    switch (which) {
    case SQRT: r = csqrt_ir(&c, re, im); break;
    case EXP: r = cexp_ir(&c, re, im); break;
    case RECT: r = crect_ir(&c, re, im); break;
    default: {
        LLVMValueRef w = LLVMGetParam(fn, 1);
        r = cpow_ir(&c, re, im, load(&c, w, 0), load(&c, w, 1));
    }
    }
    LLVMBuildStore(c.b, r.re, part(&c, z, 0));
    LLVMBuildStore(c.b, r.im, part(&c, z, 1));
    LLVMBuildRetVoid(c.b);
    LLVMDisposeBuilder(c.b);
    L->b = caller;
    return fn;
}
