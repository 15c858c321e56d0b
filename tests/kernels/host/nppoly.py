# numpy.polynomial.polynomial's polyadd, polysub, polymul, polydiv,
# polyval, polyint and polyutils.trimseq inside njit functions
# (compiler/types/infer_nppoly.c, compiler/lower/lower_nppoly.c, the
# runtime common/nppoly.c), checked against Numba by
# tests/e2e/run_nppoly_oracle.py.
import numpy as np
import numpy.polynomial.polynomial as PP
from numba import njit
from numpy.polynomial import polynomial as P
from numpy.polynomial import polyutils as pu
from numpy.polynomial.polynomial import polyval


@njit
def polyadd(a, b):
    return P.polyadd(a, b)


@njit
def polysub(a, b):
    return P.polysub(a, b)


@njit
def polymul(a, b):
    return P.polymul(a, b)


@njit
def polydiv(a, b):
    return P.polydiv(a, b)


@njit
def polydiv_quo(a, b):
    q, r = P.polydiv(a, b)
    return q


@njit
def polydiv_rem(a, b):
    q, r = P.polydiv(a, b)
    return r


@njit
def polyadd_np(a, b):
    return np.polynomial.polynomial.polyadd(a, b)


@njit
def polysub_kw(a, b):
    return PP.polysub(c2=b, c1=a)


@njit
def polyadd_tuple(a):
    return P.polyadd(a, (1, 2.5, 0))


@njit
def polyadd_tuple_c(a):
    return P.polyadd((1, 2j), a)


@njit
def polymul_tuples(x):
    return P.polymul((1, 2, 3), (x, 1.0))


@njit
def polydiv_tuples(x):
    q, r = P.polydiv((1, 2, 3), (x, 2j))
    return q + r[0]


@njit
def polyval(x, c):
    return P.polyval(x, c)


@njit
def polyval_false(x, c):
    return P.polyval(x, c, False)


@njit
def polyval_kw(x, c):
    return P.polyval(c=c, x=x, tensor=False)


@njit
def polyval_true(x, c):
    return P.polyval(x, c, tensor=True)


@njit
def polyval_imported(x, c):
    return polyval(x, c)


@njit
def polyval_tuple_x(c):
    return P.polyval((1.0, 2, -0.5), c)


@njit
def polyval_tuple_c(x):
    return P.polyval(x, (1, 2.0, 3))


@njit
def polyval_loop(xs, c):
    s = 0.0
    for i in range(xs.shape[0]):
        s += P.polyval(xs[i], c)
    return s


@njit
def polyval_tensor_var(x, c, t):
    return P.polyval(x, c, t)


@njit
def polyint(c):
    return P.polyint(c)


@njit
def polyint_m(c, m):
    return P.polyint(c, m)


@njit
def polyint_kw(c):
    return P.polyint(c, m=3)


@njit
def polyint_tuple(x):
    return P.polyint((1, x, 3))


@njit
def polyint_float_m(c):
    return P.polyint(c, 1.0)


@njit
def polyint_bool_m(c):
    return P.polyint(c, True)


@njit
def trimseq(a):
    return pu.trimseq(a)


@njit
def trimseq_view(a):
    return pu.trimseq(a[::2])


@njit
def trimseq_write(a):
    t = pu.trimseq(a)
    t[0] = 42
    return a


@njit
def trimseq_tuple(x):
    return pu.trimseq((x, 0.0))


@njit
def as_series(a, b):
    return pu.as_series((a, b))


@njit
def polynomial_class(a):
    return P.Polynomial(a)


# a.ctypes.data (numba/np/arrayobj.py array_ctypes_data): an address as
# uintp; the oracle compares what does not depend on where a lives
@njit
def ctypes_gap(a):
    return a[2:].ctypes.data - a.ctypes.data


@njit
def ctypes_aligned(a):
    return a.ctypes.data % a.itemsize == 0


@njit
def ctypes_same(a):
    b = a[:]
    return a.ctypes.data == b.ctypes.data


@njit
def roots(p):
    return np.roots(p)
