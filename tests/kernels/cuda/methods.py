# ufunc methods of vectorize kernels on the CUDA targets
# (tests/test_cuda_accumulate.c, tests/test_cuda_reduce_out.c): NumPy's
# add, multiply, maximum and subtract as binary kernels, run on cudasim
# (and a GPU) against expectations computed in the tests and the cpu
# target's bits.
import numpy as np
from numba import vectorize


@vectorize(['int32(int32, int32)', 'int64(int64, int64)',
            'float32(float32, float32)', 'float64(float64, float64)'],
           identity=0)
def vadd(a, b):
    return a + b


# no int32 loop: int32 host inputs are cast, int32 device ones refused
@vectorize(['int64(int64, int64)', 'float64(float64, float64)'], identity=1)
def vmul(a, b):
    return a * b


# NaN-propagating, as np.maximum
@vectorize(['int64(int64, int64)', 'float32(float32, float32)',
            'float64(float64, float64)'])
def vmax(a, b):
    return np.maximum(a, b)


# no identity, not associative: accumulate must run in order
@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def vsub(a, b):
    return a - b
