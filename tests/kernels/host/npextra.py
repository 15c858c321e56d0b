# np.nanargmin / np.nanargmax, np.count_nonzero and np.ptp inside kernels
# (issue 18), every argument form Numba 0.68 accepts and some it refuses.
# Run against Numba by tests/e2e/run_npextra_oracle.py; host targets only
# (the axis forms make new arrays).
import numpy as np
from numba import njit


@njit
def nanargmin(a):
    return np.nanargmin(a)


@njit
def nanargmax(a):
    return np.nanargmax(a)


@njit
def nanargmin_axis(a, k):
    return np.nanargmin(a, axis=k)


@njit
def nanargmax_axis_pos(a, k):
    return np.nanargmax(a, k)


@njit
def nanargmin_none(a):
    return np.nanargmin(a, axis=None)


@njit
def nanargmax_kw_a(a):
    return np.nanargmax(a=a)


@njit
def nanargmin_tuple(a):
    return np.nanargmin(a, axis=(0,))


@njit
def nanargmin_out(a):
    return np.nanargmin(a, out=None)


@njit
def count(a):
    return np.count_nonzero(a)


@njit
def count_axis(a, k):
    return np.count_nonzero(a, axis=k)


@njit
def count_axis_pos(a, k):
    return np.count_nonzero(a, k)


@njit
def count_tuple(a):
    return np.count_nonzero(a, axis=(0, 1))


@njit
def count_none(a):
    return np.count_nonzero(a, axis=None)


@njit
def count_expr(a):
    return np.count_nonzero(a > 0)


@njit
def count_number(x):
    return np.count_nonzero(x)


@njit
def count_float_axis(a):
    return np.count_nonzero(a, 1.0)


@njit
def ptp(a):
    return np.ptp(a)


@njit
def ptp_kw_a(a):
    return np.ptp(a=a)


@njit
def ptp_axis(a):
    return np.ptp(a, 0)


@njit
def ptp_rows(a):
    # a reduction inside a loop, of a row view
    s = 0.0
    for i in range(a.shape[0]):
        s += np.ptp(a[i])
    return s
