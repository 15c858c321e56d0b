# NumPy reductions, dot products and the array attributes that need no
# allocation inside kernels (issue 18): np.sum ... np.nanstd as functions
# and methods, np.dot/np.vdot/@ of 1-D arrays, np.transpose/.T,
# .itemsize/.nbytes. Run against Numba by tests/e2e/run_npreduce_oracle.py
# (njit and guvectorize), and through the C API by tests/test_npreduce.c.
# The dot products are in np_reductions_dot.py (Numba's need SciPy).
import numpy as np
from numba import njit, guvectorize


@njit
def funcs(a):
    return (np.sum(a), np.prod(a), np.min(a), np.max(a), np.amin(a),
            np.amax(a), np.mean(a), np.var(a), np.std(a), np.argmin(a),
            np.argmax(a), np.all(a), np.any(a))


@njit
def methods(a):
    return (a.sum(), a.prod(), a.min(), a.max(), a.mean(), a.var(), a.std(),
            a.argmin(), a.argmax(), a.all(), a.any())


@njit
def nans(a):
    return (np.nansum(a), np.nanprod(a), np.nanmin(a), np.nanmax(a),
            np.nanmean(a), np.nanvar(a), np.nanstd(a))


@njit
def cplx(a):
    return (np.sum(a), a.prod(), np.min(a), a.max(), np.mean(a), a.var(),
            np.std(a), np.all(a), a.any(), np.nansum(a), np.nanmean(a),
            np.nanmax(a))


@njit
def sums(a):
    return np.sum(a), a.mean(), np.nansum(a)


@njit
def trans(a):
    t = a.T
    u = np.transpose(a)
    s = 0.0
    for i in range(t.shape[0]):
        for j in range(t.shape[1]):
            s = s * 1.5 + t[i, j] + u[i, j] * (i + 2 * j + 1)
    return (t.shape[0], t.shape[1], t.strides[0], t.strides[1], s,
            a.itemsize, a.nbytes, t.sum(), a.transpose().argmax())


@njit
def on_views(a):
    r = a[::-1, 1::2]
    c = a[:, 0]
    return (r.sum(), r.argmin(), r.max(), c.mean(), a[1].prod(),
            np.sum(a[::2, ::-3]), a.T[1:].argmax())


@njit
def scalars(x):
    return np.min(x), np.amax(x), np.all(x), np.any(x)


@njit
def only_min(a):
    return np.min(a)


@njit
def only_argmax(a):
    return a.argmax()


@njit
def only_nanmax(a):
    return np.nanmax(a)


@njit
def only_var(a):
    return a.var()


@guvectorize(["void(float64[:,:], float64[:])", "void(int32[:,:], int64[:])"],
             "(m,n)->(m)")
def gu_rowsum(a, out):
    for i in range(a.shape[0]):
        out[i] = np.sum(a[i, :])


@guvectorize(["void(float32[:], float32[:])"], "(n)->()")
def gu_range(x, out):
    out[0] = x.max() - x.min() + np.float32(x.argmax())


@guvectorize(["void(float64[:], float64[:])"], "(n)->()")
def gu_min(x, out):
    out[0] = np.min(x)
