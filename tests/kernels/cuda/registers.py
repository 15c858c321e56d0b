# Register caps (seed 003, "Limiting register usage"): the same kernel
# without and with cuda.jit's max_registers=. Each runs unchanged under
# numba-cuda.
from numba import cuda


@cuda.jit('void(float64[:], int64[:], int64)')
def add_constant_uncapped(x, y, a):
    a = y[0]
    b = 2.0
    c = y[1] / 6
    d = y[2] % 8
    e = y[3] * y[4]
    for i in range(a):
        a += 2
        b -= c
        e *= d
        x[0] += a * b + c * d - e


@cuda.jit('void(float64[:], int64[:], int64)', max_registers=24)
def add_constant_capped(x, y, a):
    a = y[0]
    b = 2.0
    c = y[1] / 6
    d = y[2] % 8
    e = y[3] * y[4]
    for i in range(a):
        a += 2
        b -= c
        e *= d
        x[0] += a * b + c * d - e


@cuda.jit('void(float64[:])', max_registers=None)
def no_cap(x):
    x[0] = 1.0
