# np.logspace, np.geomspace and np.kaiser inside njit functions
# (compiler/types/infer_npspace.c, compiler/lower/lower_npspace.c;
# np.kaiser beside the windows of infer_npsignal.c / lower_npsignal.c),
# checked against Numba by tests/e2e/run_npspace_oracle.py.
import numpy as np
from numba import njit


@njit
def logspace(a, b, n):
    return np.logspace(a, b, n)


@njit
def logspace_default(a, b):
    return np.logspace(a, b)


@njit
def logspace_kw(a, b, n):
    return np.logspace(num=n, stop=b, start=a)


@njit
def logspace_base(a, b):
    return np.logspace(a, b, 5, base=2.0)


@njit
def geomspace(a, b, n):
    return np.geomspace(a, b, n)


@njit
def geomspace_default(a, b):
    return np.geomspace(a, b)


@njit
def geomspace_kw(a, b, n):
    return np.geomspace(a, stop=b, num=n)


@njit
def geomspace_endpoint(a, b):
    return np.geomspace(a, b, 4, endpoint=False)


@njit
def spaces_in_loop(n):
    # fresh arrays in a loop: each freed when the next replaces it
    s = 0.0
    for i in range(1, n):
        x = np.logspace(0.0, i / 4, i)
        g = np.geomspace(-1.0 * i, -8.0 * i, i + 1)
        s += x.sum() + g[-1] + g[0]
    return s


@njit
def kaiser(m, beta):
    return np.kaiser(m, beta)


@njit
def kaiser_kw(m, beta):
    return np.kaiser(beta=beta, M=m)


@njit
def kaiser_in_loop(m):
    s = 0.0
    for i in range(m):
        s += np.kaiser(i, 0.5 * i).sum()
    return s
