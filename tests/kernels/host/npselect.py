# np.median, np.nanmedian, np.percentile, np.nanpercentile, np.quantile,
# np.nanquantile inside kernels, checked against Numba by
# tests/e2e/run_npselect_oracle.py (line:col of the refused lines are in
# its cases: keep them in place).
import numpy as np
from numba import guvectorize, njit


@njit
def med(a):
    return np.median(a)


@njit
def nanmed(a):
    return np.nanmedian(a)


@njit
def all_stats(a):
    return (np.median(a), np.nanmedian(a), np.percentile(a, 30.0),
            np.nanpercentile(a, 30), np.quantile(a, 0.25),
            np.nanquantile(a, 0.75), np.percentile(a, (0, 100, 37.5)),
            np.nanpercentile(a, (0.0, 100.0, 50, 99.9)))


@njit
def pct(a, q):
    return np.percentile(a, q)


@njit
def nanpct(a, q):
    return np.nanpercentile(a, q)


@njit
def qtl(a, q):
    return np.quantile(a, q)


@njit
def nanqtl(a, q):
    return np.nanquantile(a, q)


@njit
def pct_tuple(a):
    return np.percentile(a, (12.5, 50, 0, 100, True))


@njit
def pct_kw(a, q):
    return np.percentile(a=a, q=q) + np.quantile(a, q=q / 100.0)


@njit
def pct_of_number(x):
    return np.percentile(x, 50), np.nanquantile((x, 1, 2.5), (0.5, 1.0))


@njit
def med_in_loop(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += np.median(a[i]) + np.nanmedian(a[i, ::-1])
    return s


@njit
def med_of_expr(a):
    return np.median(a * 2 + 1)


@guvectorize(['void(float64[:], float64[:])'], '(n)->()')
def gu_median(x, out):
    out[0] = np.median(x) + np.percentile(x, 75)


@njit
def med_rows(a):
    m = np.empty(a.shape[0])
    nm = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        m[i] = np.median(a[i])
        nm[i] = np.nanmedian(a[i])
    return m, nm


@njit
def pct_rows(a, q):
    out = np.empty((a.shape[0], q.size))
    for i in range(a.shape[0]):
        out[i, :] = np.percentile(a[i], q)
    return out, np.nanpercentile(a[0], q)


@njit
def stats_0d(x):
    a = np.full((), x)
    return np.median(a), np.percentile(a, 20), np.quantile(a, np.full((), 0.5))


@njit
def med_axis(a):
    return np.median(a, axis=0)


@njit
def pct_axis(a):
    return np.percentile(a, 50, 0)


@njit
def med_list(a):
    return np.percentile(a, [10, 20])


@njit
def med_number(x):
    return np.median(x)
