# Kernels the memory manager tests (tests/test_cuda_emm.c) run through
# each plug-in: a vectorize ufunc (called on device arrays, and reduced)
# and a cuda.jit kernel.
from numba import cuda, vectorize


@vectorize(['float64(float64, float64)', 'int64(int64, int64)'], identity=0)
def vadd(a, b):
    return a + b


@cuda.jit('void(float64, float64[:], float64[:], float64[:])')
def axpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = a * x[i] + y[i]
