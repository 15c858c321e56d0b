# A kernel file written for Numba: test_numba_swap.py runs it under Numba
# and, with the import line swapped, under ufjit, and compares.
import math
import numpy as np
from numba import vectorize, guvectorize, njit, float32, float64, int32, int64, void
from numba.np.extensions import cross2d

SQRT_2PI = math.sqrt(2 * math.pi)
WEIGHTS = np.array([0.25, 0.5, 0.25])


@vectorize([float64(float64, float64, float64),
            float32(float32, float32, float32)])
def gaussian_pdf(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)


@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def pymod(a, b):
    return a % b


@vectorize
def clip01(x):
    return min(max(x, 0.0), 1.0)


@guvectorize([void(float64[:], float64[:])], '(n)->(n)')
def smooth(a, out):
    n = a.shape[0]
    for i in range(n):
        acc = 0.0
        for k in range(3):
            j = min(max(i + k - 1, 0), n - 1)
            acc += WEIGHTS[k] * a[j]
        out[i] = acc


@guvectorize('int32[:], int32, int32[:]', '(n),()->(n)')
def add_scalar(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] + b


@guvectorize([(float64[:, :], float64[:], float64[:])], '(m,n),(n)->(m)')
def matvec(m, v, out):
    for i in range(m.shape[0]):
        acc = 0.0
        for j in range(m.shape[1]):
            acc += m[i, j] * v[j]
        out[i] = acc


@njit
def norm2(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * a[i]
    return math.sqrt(s)


@njit
def argmax_and_value(a):
    best = 0
    for i in range(1, a.shape[0]):
        if a[i] > a[best]:
            best = i
    return best, a[best]


@njit
def scale_in_place(a, f):
    for i in range(a.shape[0]):
        a[i] *= f


@njit
def cross_rows(a, b):
    return cross2d(a, b)
