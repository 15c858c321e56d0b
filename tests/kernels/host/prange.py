# prange in njit(parallel=True) functions, checked against Numba's
# parallel=True by tests/e2e/run_prange_oracle.py (floating sums within a
# tolerance: Numba's depend on its threads, ufjit's on the trip count).
import numpy as np
import numba
import numba as nb
from numba import njit, prange


@njit(parallel=True)
def psum(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


@njit(parallel=True)
def pdot(a, b):
    s = 0.0
    for i in nb.prange(len(a)):
        s = s + a[i] * b[i]
    return s


@njit(parallel=True)
def pminmax(a):
    lo = np.inf
    hi = -np.inf
    for i in numba.prange(a.shape[0]):
        lo = min(lo, a[i])
        hi = max(a[i], hi)
    return lo, hi


@njit(parallel=True)
def pint(a):
    s = 7
    d = 0
    p = 1
    for i in prange(a.shape[0]):
        s += a[i]
        d -= a[i] * 3
        p *= a[i] % 5 + 1
    return s, d, p


@njit(parallel=True)
def pf32(a):
    s = np.float32(0)
    for i in prange(a.shape[0]):
        s += a[i]
    return s


@njit(parallel=True)
def rows(m):
    out = np.empty(m.shape[0])
    for i in prange(m.shape[0]):
        acc = 0.0
        for j in range(m.shape[1]):
            acc += m[i, j]
        out[i] = acc
    return out


@njit(parallel=True)
def total2d(m):
    t = 0.0
    for i in prange(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] > 0:
                t += m[i, j]
    return t


@njit(parallel=True)
def nested(m):
    t = 0
    for i in prange(m.shape[0]):
        for j in prange(m.shape[1]):
            t += m[i, j] * (i + j)
    return t


@njit(parallel=True)
def steps_up(a, start, stop):
    s = 0
    for i in prange(start, stop, 7):
        s += a[i] * i
    return s


@njit(parallel=True)
def steps_down(a, start, stop):
    s = 0
    for i in prange(start, stop, -3):
        s += a[i] * i
    return s


@njit(parallel=True)
def steps_back(a):
    s = 0.0
    for i in prange(a.shape[0] - 1, -1, -1):
        s += a[i] * i
    return s


@njit
def serial(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


@njit(parallel=False)
def serial2(a):
    s = 0
    for i in prange(a.shape[0]):
        s += a[i] * i
    return s


@njit(parallel=True)
def scaled(a, k):
    out = np.empty_like(a)
    for i in prange(a.shape[0]):
        out[i] = a[i] * k
        out[i] += 1.0
    return out


@njit(parallel=True)
def zdiv(a, d):
    s = 0
    for i in prange(a.shape[0]):
        s += a[i] // d
    return s


# whole-array expressions of a parallel=True function: split over the
# threads when large (lower_arrexpr.c)
@njit(parallel=True)
def hyp(m, v):
    return np.sqrt(m * m + v * v) - 1.0


@njit(parallel=True)
def race(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s = a[i]
    return s
