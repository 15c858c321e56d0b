# Module-level NumPy arrays read by kernels (tests/test_garrays.c): each
# is built by ufjit when the file is scanned, bit for bit as NumPy builds
# it, and frozen into the kernels as a readonly array, as Numba does.
import math

import numpy as np
from numba import njit, vectorize, float32

SCALE = 0.5
N = 6

F32 = np.array([[1.5, -2.0, 3.25], [0.1, 1e-3, 7]], dtype=np.float32)
MIXED = np.array([1, 2.5, True])          # float64 by discovery
INTS = np.array([[1, -2], [3, 40000]])     # int64
U8 = np.array([1, 2, 255], dtype=np.uint8)
BOOLS = np.array([True, False, True])
CPLX = np.array([1 + 2j, -0.5j, 3])
TUP = np.array(((1, 2, 3), (4, 5, N)), dtype=np.int16)
AR1 = np.arange(N)
AR2 = np.arange(0.1, 1.0, 0.1)
AR3 = np.arange(10, 1, -3, dtype=np.float32)
AR4 = np.arange(1, 2, 0.1, dtype=np.float32)
LIN = np.linspace(0.0, 1.0, 7)
LIN2 = np.linspace(-1, 2.5, 5, endpoint=False, dtype=np.float32)
LIN3 = np.linspace(0, 10, 4, dtype=np.int32)
ZER = np.zeros((2, 3), dtype=np.int32)
ONE = np.ones(4)
EMP = np.empty(3, dtype=np.float32)
FUL = np.full((2, 2), 2.5)
FUL2 = np.full(3, 7, dtype=np.uint16)
EYE = np.eye(3)
EYE2 = np.eye(3, 4, k=1, dtype=np.int8)
RS = np.arange(12).reshape(3, 4)
RS2 = np.arange(12.0).reshape((2, -1))
AST = (np.arange(6) * 1.7).astype(np.float32)
NEG = -F32
ARITH = F32 * 2 + 1
ARITH2 = INTS / 4 - SCALE
BCAST = RS + np.arange(4)
POW = AR1 ** 2
CPY = LIN.copy()
SUB = F32 - np.float32(0.1)
WEAK = U8 + 1


@njit
def total():
    s = 0.0
    for i in range(F32.shape[0]):
        for j in range(F32.shape[1]):
            s += F32[i, j]
    return s + F32.size + F32.ndim + len(F32)


@njit
def pick(i, j):
    return RS[i, j] + INTS[i % 2, j % 2] + POW[i] + EYE2[i, j]


@njit
def row_sum(i):
    r = ARITH[i]        # a readonly view
    s = 0.0
    for v in r:
        s += v
    return s


@njit
def helper(a, i):
    return a[i] * 2


@njit
def via_helper(i):
    return helper(LIN, i)


@vectorize(['float32(int32)', 'float64(int64)'])
def table(i):
    return LIN[i % 7] + AST[i % 6]
