/* numba.cuda.random's draws in kernels (typed in
 * compiler/types/infer_cuda_random.c), computed as numba-cuda's random.py
 * computes them so that a seed gives the same streams: xoroshiro128+ on
 * the state states[index] = (s0, s1) of the (n, 2) uint64 array, the
 * uint64 made a float64 in [0, 1) from its top 53 bits, a float32 by
 * rounding that float64, and a normal by Box-Muller on two float32
 * uniforms (numba-cuda's normal_float64 draws float32 uniforms too and
 * takes their log in float32), keeping only the cosine half. The math
 * goes through the codegen target (libdevice on NVVM, libm on cudasim).
 * xoroshiro128p_jump (2**64 draws ahead: xoroshiro's jump polynomial over
 * 128 steps, a loop) and init_xoroshiro128p_state (SplitMix64 of a seed)
 * are the same steps as the host's launch/random_states.c.
 * Rotations are written as shifts: libnvvm reads no funnel-shift
 * intrinsic, and the backends find the rotate themselves. */
#include "common/error_internal.h"
#include "compiler/lower/lower.h"
#include "compiler/types/infer_internal.h"

#define B (F->L->b)

/* numba-cuda's TWO_PI_FLOAT32 / TWO_PI_FLOAT64: 2 * math.pi, as float32
 * (rounded from the double) and as float64. */
#define TWO_PI 6.283185307179586

typedef struct state {
    LLVMValueRef s0, s1; /* i8* addresses of states[index, 0] and [.., 1] */
} state;

static LLVMValueRef u64c(uf__fn *F, unsigned long long v)
{
    return LLVMConstInt(LLVMInt64TypeInContext(F->L->ctx), v, 0);
}

/* The addresses of states[index]'s two words (numba-cuda: int64(index),
 * then states[index], which wraps a negative index). */
static int state_at(uf__fn *F, const uf__expr *e, state *st)
{
    const uf__expr *sx = e->u.call.args[0], *ix = e->u.call.args[1];
    const uf__type *t = uf__lower_info(F, sx)->type;
    const uf__type *it = uf__lower_info(F, ix)->type;
    LLVMValueRef a = uf__lower_expr(F, sx);
    LLVMValueRef i = a ? uf__lower_expr(F, ix) : NULL;
    if (i == NULL)
        return -1;
    i = uf__emit_cast(F, i, it->dtype, UF_INT64);
    i = uf__emit_axis_index(F, e->pos, a, 0, i, UF_INT64);
    /* the second column exists (checked only where bounds are) */
    uf__emit_axis_index(F, e->pos, a, 1, u64c(F, 1), UF_INT64);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMValueRef off = LLVMBuildNSWMul(
        B, i, uf__emit_array_stride(F, a, t, 0), "");
    st->s0 = LLVMBuildInBoundsGEP2(B, i8, uf__emit_array_data(F, a), &off, 1,
                                   "s0");
    LLVMValueRef col = uf__emit_array_stride(F, a, t, 1);
    st->s1 = LLVMBuildInBoundsGEP2(B, i8, st->s0, &col, 1, "s1");
    return 0;
}

static LLVMValueRef rotl(uf__fn *F, LLVMValueRef x, unsigned k)
{
    return LLVMBuildOr(B, LLVMBuildShl(B, x, u64c(F, k), ""),
                       LLVMBuildLShr(B, x, u64c(F, 64 - k), ""), "rotl");
}

/* xoroshiro128p_next: the uint64 s0 + s1, and the state advanced. */
static LLVMValueRef next(uf__fn *F, const state *st)
{
    LLVMValueRef s0 = uf__emit_elem_load(F, st->s0, UF_UINT64);
    LLVMValueRef s1 = uf__emit_elem_load(F, st->s1, UF_UINT64);
    LLVMValueRef result = LLVMBuildAdd(B, s0, s1, "draw");
    s1 = LLVMBuildXor(B, s1, s0, "");
    LLVMValueRef n0 = LLVMBuildXor(
        B, LLVMBuildXor(B, rotl(F, s0, 55), s1, ""),
        LLVMBuildShl(B, s1, u64c(F, 14), ""), "");
    uf__emit_elem_store(F, st->s0, UF_UINT64, n0);
    uf__emit_elem_store(F, st->s1, UF_UINT64, rotl(F, s1, 36));
    return result;
}

/* uint64_to_unit_float64: (x >> 11) * 2**-53, exact */
static LLVMValueRef uniform64(uf__fn *F, const state *st)
{
    LLVMValueRef top = LLVMBuildLShr(B, next(F, st), u64c(F, 11), "");
    LLVMValueRef d = LLVMBuildUIToFP(B, top, uf__lower_dtype(F->L, UF_FLOAT64),
                                     "");
    return LLVMBuildFMul(B, d, uf__emit_const_float(F, UF_FLOAT64,
                                                    0x1p-53), "uniform");
}

/* uint64_to_unit_float32: that float64 rounded (it may round to 1.0) */
static LLVMValueRef uniform32(uf__fn *F, const state *st)
{
    return LLVMBuildFPTrunc(B, uniform64(F, st),
                            uf__lower_dtype(F->L, UF_FLOAT32), "uniform");
}

static LLVMValueRef math1(uf__fn *F, const char *name, LLVMValueRef x)
{
    return uf__emit_mathfn(F, name, &x, 1);
}

/* Box-Muller's z0 = sqrt(-2 log u1) cos(2 pi u2) in dtype dt, from float32
 * uniforms u1 and u2 and float32 log(u1) (numba types math.log of a
 * float32 as float32). */
static LLVMValueRef normal(uf__fn *F, const state *st, uf_dtype dt)
{
    LLVMValueRef u1 = uniform32(F, st); /* u1 first: two draws in order */
    LLVMValueRef u2 = uniform32(F, st);
    LLVMValueRef lg = math1(F, "log", u1);
    if (dt == UF_FLOAT64) {
        LLVMTypeRef d = uf__lower_dtype(F->L, UF_FLOAT64);
        lg = LLVMBuildFPExt(B, lg, d, "");
        u2 = LLVMBuildFPExt(B, u2, d, "");
    }
    double two_pi = dt == UF_FLOAT32 ? (double)(float)TWO_PI : TWO_PI;
    LLVMValueRef r = math1(F, "sqrt", LLVMBuildFMul(
        B, uf__emit_const_float(F, dt, -2.0), lg, ""));
    LLVMValueRef c = math1(F, "cos", LLVMBuildFMul(
        B, uf__emit_const_float(F, dt, two_pi), u2, ""));
    return LLVMBuildFMul(B, r, c, "normal");
}

/* xoroshiro128p_jump: the xor of the states met at the polynomial's set
 * bits, over 128 steps (a mask, not a branch, per bit) */
static void jump(uf__fn *F, const state *st)
{
    LLVMContextRef ctx = F->L->ctx;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef loop = uf__fn_block(F, "jump");
    LLVMBasicBlockRef done = uf__fn_block(F, "jump.done");
    LLVMBuildBr(B, loop);
    LLVMPositionBuilderAtEnd(B, loop);
    LLVMValueRef i = LLVMBuildPhi(B, i64, "bit");
    LLVMValueRef a0 = LLVMBuildPhi(B, i64, "j0");
    LLVMValueRef a1 = LLVMBuildPhi(B, i64, "j1");
    LLVMValueRef word = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntULT, i, u64c(F, 64), ""),
        u64c(F, 0xBEAC0467EBA5FACBull), u64c(F, 0xD86B048B86AA9922ull), "");
    LLVMValueRef bit = LLVMBuildAnd(
        B, LLVMBuildLShr(B, word, LLVMBuildAnd(B, i, u64c(F, 63), ""), ""),
        u64c(F, 1), "");
    LLVMValueRef mask = LLVMBuildNeg(B, bit, "");
    LLVMValueRef n0 = LLVMBuildXor(
        B, a0,
        LLVMBuildAnd(B, uf__emit_elem_load(F, st->s0, UF_UINT64), mask, ""),
        "");
    LLVMValueRef n1 = LLVMBuildXor(
        B, a1,
        LLVMBuildAnd(B, uf__emit_elem_load(F, st->s1, UF_UINT64), mask, ""),
        "");
    next(F, st);
    LLVMValueRef in = LLVMBuildAdd(B, i, u64c(F, 1), "");
    LLVMBasicBlockRef end = LLVMGetInsertBlock(B);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, in, u64c(F, 128), ""),
                    loop, done);
    LLVMValueRef zero = u64c(F, 0);
    LLVMValueRef vi[2] = {zero, in}, v0[2] = {zero, n0}, v1[2] = {zero, n1};
    LLVMBasicBlockRef from[2] = {pre, end};
    LLVMAddIncoming(i, vi, from, 2);
    LLVMAddIncoming(a0, v0, from, 2);
    LLVMAddIncoming(a1, v1, from, 2);
    LLVMPositionBuilderAtEnd(B, done);
    uf__emit_elem_store(F, st->s0, UF_UINT64, n0);
    uf__emit_elem_store(F, st->s1, UF_UINT64, n1);
}

/* init_xoroshiro128p_state: SplitMix64 of the seed in both words */
static void init_state(uf__fn *F, const state *st, LLVMValueRef seed)
{
    LLVMValueRef z = LLVMBuildAdd(B, seed, u64c(F, 0x9E3779B97F4A7C15ull), "");
    z = LLVMBuildMul(B, LLVMBuildXor(B, z, LLVMBuildLShr(B, z, u64c(F, 30), ""),
                                     ""),
                     u64c(F, 0xBF58476D1CE4E5B9ull), "");
    z = LLVMBuildMul(B, LLVMBuildXor(B, z, LLVMBuildLShr(B, z, u64c(F, 27), ""),
                                     ""),
                     u64c(F, 0x94D049BB133111EBull), "");
    z = LLVMBuildXor(B, z, LLVMBuildLShr(B, z, u64c(F, 31), ""), "splitmix");
    uf__emit_elem_store(F, st->s0, UF_UINT64, z);
    uf__emit_elem_store(F, st->s1, UF_UINT64, z);
}

/* numba-cuda's uint64(seed) */
static LLVMValueRef seed_arg(uf__fn *F, const uf__expr *x)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    return v ? uf__emit_cast(F, v, uf__lower_info(F, x)->type->dtype,
                             UF_UINT64)
             : NULL;
}

LLVMValueRef uf__lower_cuda_random(uf__fn *F, const uf__expr *e)
{
    uf__builtin b = uf__lower_info(F, e)->builtin;
    state st;
    int nargs = b == UF__BI_CUDA_RANDOM_INIT_STATE ? 3 : 2;
    if (e->kind != UF__EX_CALL || e->u.call.nargs != nargs) {
        uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos,
                         "%s", "a numba.cuda.random call not typed as one");
        return NULL;
    }
    if (state_at(F, e, &st) < 0)
        return NULL;
    switch (b) {
    case UF__BI_CUDA_RANDOM_NEXT: return next(F, &st);
    case UF__BI_CUDA_RANDOM_UNIFORM_F32: return uniform32(F, &st);
    case UF__BI_CUDA_RANDOM_UNIFORM_F64: return uniform64(F, &st);
    case UF__BI_CUDA_RANDOM_NORMAL_F32: return normal(F, &st, UF_FLOAT32);
    case UF__BI_CUDA_RANDOM_NORMAL_F64: return normal(F, &st, UF_FLOAT64);
    case UF__BI_CUDA_RANDOM_JUMP:
        jump(F, &st);
        return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx)); /* None */
    case UF__BI_CUDA_RANDOM_INIT_STATE: {
        LLVMValueRef seed = seed_arg(F, e->u.call.args[2]);
        if (seed == NULL)
            return NULL;
        init_state(F, &st, seed);
        return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
    }
    default:
        uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos,
                         "%s() has no lowering", uf__builtin_name(b));
        return NULL;
    }
}
