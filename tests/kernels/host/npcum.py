# np.nancumsum, np.nancumprod, np.diff and np.average inside njit
# functions (compiler/types/infer_npcum.c, compiler/lower/lower_npcum.c),
# checked against Numba by tests/e2e/run_npcum_oracle.py.
import numpy as np
from numba import njit


@njit
def nancumsum(a):
    return np.nancumsum(a)


@njit
def nancumprod(a):
    return np.nancumprod(a)


@njit
def nancumsum_kw(a):
    return np.nancumsum(a=a)


@njit
def nancumsum_axis(a):
    return np.nancumsum(a, axis=0)


@njit
def nancumsum_scalar(x):
    return np.nancumsum(x)


@njit
def diff1(a):
    return np.diff(a)


@njit
def diffn(a, n):
    return np.diff(a, n)


@njit
def diff_kw(a, n):
    return np.diff(a=a, n=n)


@njit
def diff_view(a):
    return np.diff(a[:, ::2])


@njit
def diff_float_n(a):
    return np.diff(a, 1.0)


@njit
def diff_axis(a):
    return np.diff(a, axis=0)


@njit
def diff_in_loop(a, k):
    s = 0.0
    for i in range(k):
        s += np.diff(a, 2)[0, 0]
    return s


@njit
def average(a):
    return np.average(a)


@njit
def average_w(a, w):
    return np.average(a, weights=w)


@njit
def average_pos(a, w):
    return np.average(a, None, w)


@njit
def average_none(a):
    return np.average(a, axis=None, weights=None)


@njit
def average_axis(a):
    return np.average(a, axis=0)


@njit
def average_scalar(x):
    return np.average(x)


@njit
def average_returned(a):
    return np.average(a, returned=True)


@njit
def nancumsum_0d(x):
    return np.nancumsum(np.full((), x))


@njit
def diff_0d(x):
    return np.diff(np.full((), x))
