# Plain njit functions called through uf_call / `ufjit call` (scalars in,
# scalars or tuples out), with Python's error model; run by
# tests/e2e/run_njit_oracle.py against Numba and by tests/test_plain_call.c.
import math
import numpy as np
from numba import njit, float32, int32


@njit
def div_mod(a, b):
    return a // b, a % b


@njit
def true_div(a, b):
    return a / b


@njit
def int_pow(a, b):
    return a ** b


@njit
def sign(x):
    return np.sign(x)


@njit
def mixed(x, y):
    return int32(x) + int32(y), float32(x) * float32(y), x < y


@njit(['float64(float64, float64)', 'int64(int64, int64)'])
def add_sig(a, b):
    return a + b


@njit
def hyp(x, y):
    return math.sqrt(x * x + y * y)


@njit
def positive(x):
    assert x > 0
    return x


@njit
def range_sum(n, step):
    acc = 0
    for i in range(0, n, step):
        acc += i
    return acc


@njit
def nothing(x):
    pass


@njit
def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps
