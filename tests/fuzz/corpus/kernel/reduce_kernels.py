# Binary kernels for ufjit's reductions (reduce, accumulate, outer) and the
# seeds' @cuda.reduce kernel; Numba runs the same file as the oracle
# (tests/e2e/run_reduce_oracle.py).
import math
import numpy as np
from numba import cuda, vectorize


# identity=0 / 1: NumPy's Zero and One, reorderable, empty reductions legal
# (not named add/multiply: NumPy's reduce upcasts small integers for ufuncs
# of those names)
@vectorize(['int8(int8, int8)', 'int32(int32, int32)', 'int64(int64, int64)',
            'uint8(uint8, uint8)', 'float32(float32, float32)',
            'float64(float64, float64)', 'complex128(complex128, complex128)'],
           identity=0)
def vadd(a, b):
    return a + b


@vectorize(['int32(int32, int32)', 'int64(int64, int64)',
            'float64(float64, float64)'], identity=1)
def vmul(a, b):
    return a * b


# no identity (None): one axis at most, empty input is an error
@vectorize(['int32(int32, int32)', 'int64(int64, int64)',
            'float64(float64, float64)'])
def add_noid(a, b):
    return a + b


# Python's max: the NaN-asymmetric one; declared reorderable
@vectorize(['int16(int16, int16)', 'int64(int64, int64)',
            'float64(float64, float64)'], identity='reorderable')
def pymax(a, b):
    return max(a, b)


@vectorize(['int64(int64, int64)', 'float64(float64, float64)'],
           identity='reorderable')
def pymin(a, b):
    return min(a, b)


# NumPy's maximum/minimum: NaN in either operand propagates
@vectorize(['float32(float32, float32)', 'float64(float64, float64)'],
           identity='reorderable')
def nanmax(a, b):
    return a if (a >= b or a != a) else b


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'],
           identity='reorderable')
def nanmin(a, b):
    return a if (a <= b or a != a) else b


# not associative: the order NumPy uses (left to right) shows
@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def sub(a, b):
    return a - b


@vectorize(['int64(int64, int64)'], identity=None)
def first_digit(a, b):
    return a * 10 + b


# lazy: compiled for the input types on first use
@vectorize
def lazy_add(a, b):
    return a + b


@vectorize(['float64(float64)'])
def unary(a):
    return -a


@vectorize(['float64(float64, float64)'])
def hyp(a, b):
    return math.sqrt(a * a + b * b)


# the seeds' reduction (session 003)
@cuda.reduce
def sum_reduce(a, b):
    return a + b


@cuda.reduce
def max_reduce(a, b):
    return max(a, b)


@cuda.reduce
def min_reduce(a, b):
    return min(a, b)


@cuda.reduce
def prod_reduce(a, b):
    return a * b


# a kernel that can fail: AssertionError from inside a reduction
@cuda.reduce
def checked_sum(a, b):
    assert b >= 0
    return a + b
