# np.shape, np.size, np.isscalar, np.iscomplexobj, np.isrealobj,
# np.isclose, np.allclose, np.array_equal, np.isneginf, np.isposinf,
# np.iscomplex, np.isreal, np.nan_to_num, np.sinc and np.angle inside njit
# functions (compiler/types/infer_nppred.c, compiler/lower/lower_nppred.c),
# checked against Numba by tests/e2e/run_nppred_oracle.py.
import numpy as np
from numba import njit


@njit
def shape2(a):
    s = np.shape(a)
    return s[0] * 1000 + s[1]


@njit
def shape_len(x):
    return len(np.shape(x))


@njit
def shape_tuple(x):
    return np.shape((x, x, 2.0))[0]


@njit
def size(a):
    return np.size(a)


@njit
def size_tuple(x):
    return np.size((x, 1, 2, 3))


@njit
def preds(x):
    return (np.isscalar(x) * 1 + np.iscomplexobj(x) * 2 +
            np.isrealobj(x) * 4)


@njit
def preds_tuple(x):
    t = (1, x)
    return np.isscalar(t) * 1 + np.iscomplexobj(t) * 2 + np.isrealobj(t) * 4


@njit
def shape_bad(x):
    return np.shape(np)


@njit
def isclose(a, b):
    return np.isclose(a, b)


@njit
def isclose_tol(a, b, rtol, atol, eq):
    return np.isclose(a, b, rtol, atol, eq)


@njit
def isclose_kw(a, b):
    return np.isclose(a, b, atol=0.5, equal_nan=True)


@njit
def isclose_expr(a, b):
    return np.isclose(a * 2.0, b + b) & (a > 0)


@njit
def isclose_into(a, b, out):
    out[:] = np.isclose(a, b, rtol=0.0)
    return out


@njit
def isclose_int_rtol(a, b):
    return np.isclose(a, b, 1)


@njit
def allclose(a, b):
    return np.allclose(a, b)


@njit
def allclose_tol(a, b, rtol, atol, eq):
    return np.allclose(a, b, rtol, atol, eq)


@njit
def array_equal(a, b):
    return np.array_equal(a, b)


@njit
def array_equal_expr(a, b):
    return np.array_equal(a + 1, b + 1)


@njit
def isneginf(x):
    return np.isneginf(x)


@njit
def isposinf(x):
    return np.isposinf(x)


@njit
def isneginf_out(x, out):
    return np.isneginf(x, out)


@njit
def iscomplex(x):
    return np.iscomplex(x)


@njit
def isreal(x):
    return np.isreal(x)


@njit
def nan_to_num(x):
    return np.nan_to_num(x)


@njit
def nan_to_num_kw(x, n, p, m):
    return np.nan_to_num(x, nan=n, posinf=p, neginf=m)


@njit
def nan_to_num_copy(x):
    return np.nan_to_num(x, copy=False)


@njit
def nan_to_num_same(x):
    y = np.nan_to_num(x)
    y[0] = 7
    return x


@njit
def sinc(x):
    return np.sinc(x)


@njit
def angle(z):
    return np.angle(z)


@njit
def angle_deg(z, deg):
    return np.angle(z, deg)


@njit
def angle_kw(z):
    return np.angle(z, deg=True)


@njit
def chkfinite(a):
    return np.asarray_chkfinite(a)


@njit
def chkfinite_same(a):
    b = np.asarray_chkfinite(a)
    b[0] = 5
    return a


@njit
def chkfinite_dtype(a):
    return np.asarray_chkfinite(a, np.float32)


@njit
def divmod_q(x, y):
    return np.divmod(x, y)[0]


@njit
def divmod_r(x, y):
    q, r = np.divmod(x, y)
    return r


@njit
def divmod_expr(x, y):
    q, r = np.divmod(x * 2, y)
    return q * y + r - x * 2
