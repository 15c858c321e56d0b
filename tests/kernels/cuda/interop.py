# Kernels of the CUDA Array Interface tests (tests/test_interop_cai.c): a
# ufunc run on imported arrays, a kernel that only reads its first array
# and one that writes its argument (refused on read-only imports), and a
# slow producer that keeps its stream busy for the stream-ordering tests.
from numba import cuda, vectorize


@vectorize(['float64(float64)', 'int32(int32)'])
def affine(x):
    return x * 3 + 1


@cuda.jit('void(float64[:], float64[:])')
def copy_into(src, dst):
    i = cuda.grid(1)
    if i < dst.shape[0]:
        dst[i] = src[i]


@cuda.jit('void(float64[:])')
def bump(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] += 1.0


@cuda.jit('void(float64[:], int64)')
def spin(out, n):
    # one thread's chain of dependent steps: nothing can fold or overlap it
    x = 0.0
    for k in range(n):
        x = x * 0.5 + 1.0
    out[0] = x
