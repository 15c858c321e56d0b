# Reductions over one axis inside kernels (issue 18): np.sum, np.argmin
# and np.argmax with axis= (and their methods), the axis known or not,
# negative from the end; the other reductions take no axis in Numba and
# are refused. Run against Numba by tests/e2e/run_npaxis_oracle.py; host
# targets only (the results are new arrays).
import numpy as np
from numba import njit, guvectorize


@njit
def sum_axis(a, k):
    return np.sum(a, axis=k)


@njit
def sum_pos(a, k):
    return np.sum(a, k)


@njit
def sum_meth(a, k):
    return a.sum(axis=k)


@njit
def sum_meth_pos(a):
    return a.sum(0)


@njit
def sum_last(a):
    return np.sum(a, axis=-1)


@njit
def sum_of_sums(a):
    r = a.sum(axis=0)
    return r.sum()


@njit
def argmin_axis(a, k):
    return np.argmin(a, axis=k)


@njit
def argmax_meth(a, k):
    return a.argmax(k)


@njit
def min_axis(a):
    return np.min(a, axis=0)


@njit
def mean_axis(a):
    return a.mean(axis=0)


@njit
def float_axis(a):
    return np.sum(a, axis=1.0)


@guvectorize(['void(float64[:,:], float64[:])'], '(m,n)->(n)')
def gu_colsum(a, out):
    out[:] = a.sum(axis=0)
