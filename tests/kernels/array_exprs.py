# Whole-array expressions inside kernels (issue 18): operators, comparisons,
# bitwise operators and NumPy ufuncs on arrays and views, np.where,
# np.clip, broadcasting, stored into existing memory (out[:] = ...,
# out[1:-1] = ..., a[i, :] = ..., out[...] = ...) and augmented
# assignment on arrays and views (overlapping included). Run against Numba
# by tests/e2e/run_arrexpr_oracle.py; through the C API by
# tests/test_array_exprs.c. array_exprs_errors.py: what stays refused.
import numpy as np
from numba import njit, guvectorize


@njit
def d1(v):
    s = 0.0
    for k in range(v.shape[0]):
        s += v[k] * (k + 1)
    return s


@guvectorize(['void(float64[:], float64[:], float64, float64[:])'],
             '(n),(n),()->(n)')
def axpb(x, w, b, out):
    out[:] = x * w + b


@guvectorize(['void(float32[:], int32[:], float32[:])',
              'void(int32[:], float32[:], float64[:])',
              'void(int64[:], int64[:], int64[:])',
              'void(int32[:], int32[:], int32[:])',
              'void(uint8[:], uint8[:], uint8[:])'], '(n),(n)->(n)')
def mixed(x, y, out):
    out[:] = x + y * x - y


@guvectorize(['void(int64[:], int64[:], int64[:], int64[:])',
              'void(float64[:], float64[:], float64[:], float64[:])'],
             '(n),(n)->(n),(n)')
def divmod_(a, b, q, r):
    q[:] = a // b
    r[:] = a % b


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->(n)')
def true_div(a, b, out):
    out[:] = a / b - (-a) ** 2


@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')
def central(a, out):
    out[:] = 0.0
    out[1:-1] = (a[2:] - a[:-2]) * 0.5


@guvectorize(['void(float64[:], float64[:])',
              'void(int32[:], int32[:])'], '(n)->(n)')
def prefix_pairs(a, out):
    out[:] = a
    out[1:] += out[:-1]


@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')
def fold(a, out):
    out[:] = a
    out[:] += out[::-1]
    out[:-1] *= out[1:]


@guvectorize(['void(float64[:], float64[:], float64[:], bool_[:])',
              'void(int64[:], float64[:], float64[:], bool_[:])'],
             '(n),(n)->(n),(n)')
def ufuncs(x, y, out, mask):
    out[:] = np.sqrt(np.abs(x)) + np.maximum(x, y) - np.minimum(x, 0.5) + \
        np.where(x > y, x, y * 2.0) + np.clip(y, -1.0, 1.0) + \
        np.floor(y) + np.fmax(x, y)
    mask[:] = (x < y) | ~(x == y) & (y >= 0.0) ^ np.isnan(y)


@guvectorize(['void(float64[:], float64[:], float64[:], float64[:])'],
             '(n),(n)->(n),(n)')
def nan_rules(x, y, mx, cl):
    mx[:] = np.maximum(x, y) + np.minimum(y, x) * 0.0
    cl[:] = np.clip(x, -2.0, 3.0)


@guvectorize(['void(int64[:], int64[:], int64[:])',
              'void(int8[:], int8[:], int8[:])',
              'void(uint16[:], uint16[:], uint16[:])'], '(n),(n)->(n)')
def bits(a, b, out):
    out[:] = (a & b) | (a ^ ~b) - (a << 1) + (b >> 2)


@guvectorize(['void(float64[:,:], float64[:], float64[:,:])'],
             '(m,n),(n)->(m,n)')
def rows(m, v, out):
    out[:, :] = m * v - 1.0
    out[0, :] = v * 2.0
    out[-1] = -v


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(m)->(n)')
def bcast(x, y, out):
    out[:] = x + y


@guvectorize(['void(float64[:,:], float64[:], float64[:,:])'],
             '(m,n),(k)->(m,n)')
def colvec(m, c, out):
    out[...] = m * 1.0
    out[:, :] -= c[:1]


@guvectorize(['void(int64[:], int64[:], int32[:])'], '(n),(n)->(n)')
def narrow(a, b, out):
    out[:] = a * b


@njit
def aug_whole(a, b):
    a += b
    a -= 1.0
    a *= 2.0
    a /= 4.0
    return d1(a)


@njit
def aug_views(a):
    a[1:] += a[:-1]
    a[::-1] -= a[::-1] * 0.5
    a[:-1] -= a[1:]
    return d1(a)


@njit
def into_row(m, v, i):
    m[i, :] = np.where(v > 0.0, v, -v) * 10.0 + m[i, :]
    m[:, 0] = m[:, 1] - m[:, 2]
    s = 0.0
    for r in range(m.shape[0]):
        s += d1(m[r]) * (r + 1)
    return s


@njit
def zero_d(a, s):
    a[:] = a * s + s
    return d1(a)


# Array expressions not stored into an array: each is a new array,
# allocated inside the kernel (lower_arrexpr.c's value form), as Numba does.
@njit
def bound(a):
    c = a + 1.0
    return c[0] + c[-1]


@njit
def returned(a):
    return a * 2.0 - a[::-1]


@njit
def helper_len(v):
    return v.shape[0] + v[0]


@njit
def passed(a):
    return helper_len(a - 1.0)


@njit
def indexed(a):
    return (a + 1.0)[1:].sum()


@njit
def outer_diff(a, b):
    return a[:, None] - b[None, :]


@njit
def in_loop(a):
    s = 0.0
    for k in range(3):
        t = np.sqrt(a * a) * k
        s += t.sum()
    return s
