# Reductions on the CUDA targets (tests/test_cuda_reduce.c): numba-cuda's
# @cuda.reduce kernels and vectorize ufuncs' reduce, run on cudasim (and a
# GPU) against exact values and the cpu target's bits.
from numba import cuda, vectorize


@cuda.reduce
def sum_reduce(a, b):
    return a + b


@cuda.reduce
def prod_reduce(a, b):
    return a * b


@cuda.reduce
def min_reduce(a, b):
    return min(a, b)


@cuda.reduce
def max_reduce(a, b):
    return max(a, b)


@cuda.reduce
def and_reduce(a, b):
    return a & b


@cuda.reduce
def or_reduce(a, b):
    return a | b


@cuda.reduce
def xor_reduce(a, b):
    return a ^ b


# not associative: its value depends on the tree, which must be the cpu's
@cuda.reduce
def lopsided(a, b):
    return a + 2 * b


@vectorize(['int32(int32, int32)', 'int64(int64, int64)',
            'float32(float32, float32)', 'float64(float64, float64)'],
           identity=0)
def vadd(a, b):
    return a + b


@vectorize(['int64(int64, int64)', 'float64(float64, float64)'], identity=1)
def vmul(a, b):
    return a * b


# no identity: empty reductions are errors; a float one must run in order
@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def vsub(a, b):
    return a - b
