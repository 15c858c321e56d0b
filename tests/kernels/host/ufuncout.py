# NumPy ufuncs given their output arrays positionally (np.add(x, y, out),
# as Numba takes them) inside kernels (compiler/types/infer_arrexpr.c
# uf__infer_ufunc_out, compiler/lower/lower_arrexpr.c uf__lower_ufunc_out),
# checked against Numba by tests/e2e/run_ufuncout_oracle.py.
import numpy as np
from numba import njit, guvectorize


@njit
def add_out(x, y, o):
    r = np.add(x, y, o)
    return r


@njit
def alias(x, o):
    r = np.multiply(x, 2.0, o)
    r[0] = -1.0
    return o


@njit
def sqrt_out(x, o):
    np.sqrt(x, o)
    return o


@njit
def in_place(x):
    np.negative(x, x)
    return x


@njit
def overlap(x):
    np.add(x[:-1], x[1:], x[1:])
    return x


@njit
def less_out(x, y, o):
    np.less(x, y, o)
    return o


@njit
def scalars_out(a, b, o):
    np.power(a, b, o)
    return o


@njit
def divmod_out(x, y, q, r):
    a, b = np.divmod(x, y, q, r)
    return a, b


@njit
def chained(x, o):
    return np.add(np.multiply(x, 2.0, o), 1.0, o)


@njit
def operand(x, o):
    return np.subtract(x, 1.0, o) * 3.0


@njit
def in_loop(x, o):
    s = 0.0
    for i in range(x.shape[0]):
        np.exp(x[i], o)
        s += o[0]
    return s


@njit
def out_kw(x, o):
    return np.add(x, 1.0, out=o)


@njit
def out_scalar(x, o):
    return np.add(x, 1.0, o)


@njit
def modf_out(x, a, b):
    return np.modf(x, a, b)


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->(n)',
             target='cpu')
def gu_mul(x, w, out):
    np.multiply(x, w, out)


@njit
def divmod_alias(x, y, r):
    np.divmod(x, y, x, r)
    return x, r
