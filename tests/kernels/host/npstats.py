# np.histogram inside kernels, checked against Numba by
# tests/e2e/run_npstats_oracle.py (line:col of the refused lines are in its
# cases: keep them in place).
import numpy as np
from numba import njit


@njit
def hist(a):
    return np.histogram(a)


@njit
def hist_bins(a, bins):
    return np.histogram(a, bins)


@njit
def hist_range(a, bins, lo, hi):
    return np.histogram(a, bins, (lo, hi))


@njit
def hist_kw(a):
    h, e = np.histogram(a, range=(-1.0, 2), bins=4)
    h2, e2 = np.histogram(bins=np.array((0.0, 0.5, 1.0)), a=a)
    return h, e, h2, e2, h.sum() + h2.sum()


@njit
def hist_none(a, bins):
    return np.histogram(a, bins, None)


@njit
def hist_loop(a):
    # counts of every row, the range given: one call per row
    out = np.zeros((a.shape[0], 5), np.int64)
    for i in range(a.shape[0]):
        h, e = np.histogram(a[i], 5, (0.0, 1.0))
        out[i] = h
    return out


@njit
def hist_f32_range(a):
    return np.histogram(a, 3, (np.float32(0.1), np.float32(3.0)))


@njit
def hist_complex(a):
    return np.histogram(a, 3)


@njit
def hist_float_bins(a):
    return np.histogram(a, 3.0)


@njit
def hist_tuple_bins(a):
    return np.histogram(a, (0.0, 1.0, 2.0))


@njit
def hist_range_array(a):
    return np.histogram(a, 3, np.array((0.0, 1.0)))


@njit
def cov(m):
    return np.cov(m)


@njit
def cov_y(m, y, rowvar):
    return np.cov(m, y, rowvar)


@njit
def cov_ddof(m, ddof):
    return np.cov(m, ddof=ddof)


@njit
def cov_bias(m, bias):
    return np.cov(m, bias=bias)


@njit
def cov_all(m, y):
    return np.cov(m, y=y, rowvar=False, bias=True, ddof=None)


@njit
def corrcoef(x):
    return np.corrcoef(x)


@njit
def corrcoef_y(x, y, rowvar):
    return np.corrcoef(x, y, rowvar)


@njit
def cov_3d(m):
    return np.cov(m)


@njit
def cov_tuple(m):
    return np.cov((1.0, 2.0, 4.0))


@njit
def cov_ddof_str(m):
    return np.cov(m, ddof=1j)
