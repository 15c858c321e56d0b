# Matrix products inside kernels (issue 18): np.dot, `@` and a.dot() with
# 2-D operands (matrix * matrix, matrix * vector, vector * matrix), whose
# results are new arrays. Run against Numba (which calls BLAS through
# SciPy) by tests/e2e/run_npaxis_oracle.py; host targets only, hence not
# in tests/kernels/ itself (CUDA kernels cannot allocate).
import numpy as np
from numba import njit, guvectorize


@njit
def dot(a, b):
    return np.dot(a, b)


@njit
def matmul(a, b):
    return a @ b


@njit
def meth(a, b):
    return a.dot(b)


@njit
def gram(a):
    return a.T @ a


@njit
def chain(a, b):
    return (a @ b) @ b.T


@njit
def strided(a, b):
    return a[::2, 1:] @ b[1:, ::-1]


@njit
def in_loop(a, b, n):
    s = 0.0
    for i in range(n):
        c = np.dot(a, b)
        s += c[0, 0] + i
    return s


@njit
def int_dot(a, b):
    return np.dot(a, b)


@guvectorize(['void(float64[:,:], float64[:,:], float64[:,:])'],
             '(m,k),(k,n)->(m,n)')
def gu_matmul(a, b, out):
    out[:] = a @ b
