# numpy.polynomial.polyutils.as_series inside kernels, checked against
# Numba by tests/e2e/run_npseries_oracle.py (line:col of the refused lines
# are in its cases: keep them in place). Its list cannot leave a kernel:
# the kernels pack the arrays into one (each array's size, then it).
import numpy as np
from numba import njit
from numpy.polynomial import polyutils as pu


@njit
def pack(s):
    n = len(s)
    for x in s:
        n += x.size
    out = np.zeros(n, dtype=s[0].dtype)
    k = 0
    for x in s:
        out[k] = x.size
        out[k + 1:k + 1 + x.size] = x
        k += 1 + x.size
    return out


@njit
def series(a):
    return pack(pu.as_series(a))


@njit
def series_trim(a, t):
    return pack(pu.as_series(a, t))


@njit
def series_kw(a, t):
    return pack(pu.as_series(trim=t, alist=a))


@njit
def series_tuple(a, b):
    return pack(pu.as_series((a, b, 0.0, 2)))


@njit
def series_tuple1(a):
    return pack(pu.as_series((a,), False))


@njit
def series_3d(a):
    return pu.as_series(a.reshape(1, 1, -1))[0]


@njit
def series_int_trim(a):
    return pu.as_series(a, 1)[0]


@njit
def series_number(x):
    return pu.as_series(x)[0]
