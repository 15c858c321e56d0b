/* np.dot / `@` / a.dot(b) with a 2-D operand (typed by infer_npreduce.c):
 * the sizes checked as Numba's dot_2_mm / dot_2_mv / dot_2_vm check them,
 * a new C-contiguous result (lower_alloc.c), filled by the runtime's
 * blocked product (common/matmul.c), which takes any strides: a vector
 * operand is a matrix of one row or one column. Host targets only. */
#include "common/error_internal.h"
#include "common/matmul.h"
#include "compiler/lower/lower_npreduce.h"

#define B (F->L->b)

static const char *runtime_name(uf_dtype dt)
{
    switch (dt) {
    case UF_FLOAT32:
        return UF__RT_MATMUL_F32;
    case UF_FLOAT64:
        return UF__RT_MATMUL_F64;
    case UF_COMPLEX64:
        return UF__RT_MATMUL_C64;
    case UF_COMPLEX128:
        return UF__RT_MATMUL_C128;
    default:
        return NULL;
    }
}

LLVMValueRef uf__npr_matmul(uf__fn *F, const uf__expr *e,
                            const uf__npr_arr *X, const uf__npr_arr *Y)
{
    const char *fn = runtime_name(X->dt);
    if (F->L->cg->sreg != NULL || fn == NULL || X->dt != Y->dt) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s", "a matrix product allocates an array, which "
                         "CUDA kernels cannot do");
        return NULL;
    }
    LLVMValueRef zero = uf__npr_c64(F, 0), one = uf__npr_c64(F, 1);
    /* c (m x n) = a (m x k) b (k x n), strides in bytes */
    LLVMValueRef m, n, k, ars, acs, brs, bcs, shape[2], ksize;
    int nd, status;
    if (X->nd == 2 && Y->nd == 2) {
        m = X->shape[0], k = X->shape[1], n = Y->shape[1];
        ars = X->strides[0], acs = X->strides[1];
        brs = Y->strides[0], bcs = Y->strides[1];
        shape[0] = m, shape[1] = n, nd = 2;
        ksize = Y->shape[0], status = UF__JIT_DOT_SHAPE_MM;
    } else if (X->nd == 2) { /* matrix * vector: b one column */
        m = X->shape[0], k = X->shape[1], n = one;
        ars = X->strides[0], acs = X->strides[1];
        brs = Y->strides[0], bcs = zero;
        shape[0] = m, nd = 1;
        ksize = Y->shape[0], status = UF__JIT_DOT_SHAPE_MV;
    } else { /* vector * matrix: a one row */
        m = one, k = X->shape[0], n = Y->shape[1];
        ars = zero, acs = X->strides[0];
        brs = Y->strides[0], bcs = Y->strides[1];
        shape[0] = n, nd = 1;
        ksize = Y->shape[0], status = UF__JIT_DOT_SHAPE_VM;
    }
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, k, ksize, ""), status);
    /* where nothing may raise (NumPy's error model), the smaller size */
    k = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, k, ksize, ""), k,
                        ksize, "k");
    LLVMValueRef count;
    LLVMValueRef arr = uf__lower_new_array(F, X->dt, nd, shape, &count);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    LLVMValueRef args[10] = {
        m, n, k,
        LLVMBuildPointerCast(B, X->data, i8p, ""), ars, acs,
        LLVMBuildPointerCast(B, Y->data, i8p, ""), brs, bcs,
        LLVMBuildPointerCast(B, uf__emit_array_data(F, arr), i8p, "")};
    LLVMTypeRef pt[10];
    for (int i = 0; i < 10; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
    LLVMTypeRef fty = LLVMFunctionType(i32, pt, 10, 0);
    LLVMValueRef callee = F->L->cg->helper(F->L, fn, fty);
    F->L->uses_runtime = true;
    LLVMValueRef rc = LLVMBuildCall2(B, fty, callee, args, 10, "");
    /* the runtime's packing buffers */
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, rc,
                                     LLVMConstNull(i32), ""), UF__JIT_NOMEM);
    return arr;
}
