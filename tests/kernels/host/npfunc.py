# np.ediff1d, np.trapezoid inside njit functions
# (compiler/types/infer_npfunc.c, compiler/lower/lower_npfunc.c, the
# runtime common/npfunc.c), checked against Numba by
# tests/e2e/run_npfunc_oracle.py.
import numpy as np
from numba import njit


@njit
def ediff1d(a):
    return np.ediff1d(a)


@njit
def ediff1d_end(a, e):
    return np.ediff1d(a, e)


@njit
def ediff1d_both(a, e, b):
    return np.ediff1d(a, to_end=e, to_begin=b)


@njit
def ediff1d_begin(a, b):
    return np.ediff1d(a, None, b)


@njit
def ediff1d_lit(a):
    return np.ediff1d(a, to_end=(1, 2), to_begin=7)


@njit
def ediff1d_float_lit(a):
    return np.ediff1d(a, 7.5)


@njit
def ediff1d_tuple(a):
    return np.ediff1d((3, 1, 4, 1, 5))


@njit
def ediff1d_bools(a):
    return np.ediff1d((True, False, False, True))


@njit
def ediff1d_in_loop(a):
    s = 0.0
    for i in range(4):
        d = np.ediff1d(a[i:], to_begin=a[i])
        for j in range(d.size):
            s = s * 0.5 + d[j]
    return s


@njit
def trapezoid(y):
    return np.trapezoid(y)


@njit
def trapezoid_x(y, x):
    return np.trapezoid(y, x)


@njit
def trapezoid_dx(y, dx):
    return np.trapezoid(y, dx=dx)


@njit
def trapezoid_x_dx(y, x, dx):
    return np.trapezoid(y, x, dx)


@njit
def trapezoid_x_none(y):
    return np.trapezoid(y, x=None, dx=0.5)


@njit
def trapezoid_kw(y, x):
    return np.trapezoid(x=x, y=y)


@njit
def trapezoid_tuple(y):
    return np.trapezoid((1.0, 2.0, 4.0), dx=y)


@njit
def trapezoid_dx_array(y):
    return np.trapezoid(y, dx=y[:-1])


@njit
def trapezoid_in_loop(y):
    s = 0.0
    for i in range(5):
        s += np.trapezoid(y[i:], dx=0.25)
    return s
