# np.interp inside kernels, checked against Numba by
# tests/e2e/run_npnum_oracle.py (line:col of the refused lines are in its
# cases: keep them in place).
import numpy as np
from numba import guvectorize, njit


@njit
def interp(x, xp, fp):
    return np.interp(x, xp, fp)


@njit
def interp_kw(x, xp, fp):
    return np.interp(fp=fp, x=x, xp=xp)


@njit
def interp_tuple_table(x):
    return np.interp(x, (0.0, 1.0, 2.5, 4.0, 4.5, 7.0), (1, 3, 2, 0, -1, 5))


@njit
def interp_tuple_x(xp, fp):
    return np.interp((0.5, 1.5, -1.0, 9.0, 2), xp, fp)


@njit
def interp_points(x, xp, fp):
    # one number at a time: the table is read on every call
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = np.interp(x[i], xp, fp)
    return out


@njit
def interp_expr(x, xp, fp):
    return np.interp(x * 2.0, xp, fp + 1.0) + np.interp(x[0], xp, fp)


@guvectorize(['void(float64[:], float64[:], float64[:], float64[:])'],
             '(n),(m),(m)->(n)')
def gu_interp(x, xp, fp, out):
    out[:] = np.interp(x, xp, fp)


@njit
def interp_left(x, xp, fp):
    return np.interp(x, xp, fp, left=0.0)


@njit
def interp_period(x, xp, fp):
    return np.interp(x, xp, fp, 0.0, 1.0)


@njit
def interp_2d_table(x, xp, fp):
    return np.interp(x, xp, fp)


@njit
def digitize(x, bins):
    return np.digitize(x, bins)


@njit
def digitize_right(x, bins, right):
    return np.digitize(x, bins, right)


@njit
def digitize_kw(x, bins):
    return (np.digitize(x, bins=bins, right=True),
            np.digitize(x, (4.0, 2.0, 2.0, -1.0)),
            np.digitize((0.5, 3.0, -2.0), bins))


@njit
def digitize_points(x, bins):
    out = np.empty(x.shape[0], np.int64)
    for i in range(x.shape[0]):
        out[i] = np.digitize(x[i], bins) + np.digitize(x[i], bins, True)
    return out


@njit
def bincount(a):
    return np.bincount(a)


@njit
def bincount_w(a, w):
    return np.bincount(a, w)


@njit
def bincount_min(a, m):
    return np.bincount(a, minlength=m)


@njit
def bincount_all(a, w, m):
    return (np.bincount(a, weights=w, minlength=m), np.bincount(a, None, m),
            np.bincount((3, 1, 1, 0)), np.bincount(a[::-1] * 2))
