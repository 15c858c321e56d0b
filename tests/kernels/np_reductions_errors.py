# What stays refused among NumPy's reductions inside kernels, each with the
# construct named at its FILE:LINE:COL (tests/e2e/run_npreduce_oracle.py).
import numpy as np
from numba import njit


@njit
def axis_mean(a):
    return np.mean(a, 0)


@njit
def vdot2d(a):
    return np.vdot(a, a)


@njit
def int_dot(a):
    return np.dot(a, a)


@njit
def cplx_argmin(a):
    return np.argmin(a)


@njit
def flat_iter(a):
    return a[:, ::2].flat


@njit
def dtype_attr(a):
    return a.dtype
