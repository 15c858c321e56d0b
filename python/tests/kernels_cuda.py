# numba.cuda kernels for test_cuda.py, written as for numba-cuda.
import numpy as np
from ufjit import cuda, vectorize, float32, float64


@cuda.jit(device=True)
def sq(x):
    return x * x


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = a * sq(x[i]) + y[i]


@cuda.jit
def block_sum(x, out):
    tmp = cuda.shared.array(128, float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tmp[t] = x[i] if i < x.shape[0] else 0.0
    cuda.syncthreads()
    s = 64
    while s > 0:
        if t < s:
            tmp[t] += tmp[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(out, 0, tmp[0])


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'],
           target='cuda')
def vadd(a, b):
    return a + b


@cuda.reduce
def csum(a, b):
    return a + b
