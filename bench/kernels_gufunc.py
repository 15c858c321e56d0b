# Gufunc kernels of the benchmark suite, read by ufjit and by Numba (which
# also re-reads it with target='parallel'). A file of its own so that a
# ufjit that cannot load guvectorize kernels yet loses only these cases.
import numpy as np
from numba import guvectorize


@guvectorize(['void(float64[:,:], float64[:], float64[:])'],
             '(m,n),(n)->(m)', target='cpu')
def matvec(M, v, y):
    for i in range(M.shape[0]):
        acc = 0.0
        for j in range(M.shape[1]):
            acc += M[i, j] * v[j]
        y[i] = acc


@guvectorize(['void(float64[:,:], float64[:,:], float64[:,:])'],
             '(m,n),(n,p)->(m,p)', target='cpu')
def matmul(A, B, C):
    for i in range(A.shape[0]):
        for k in range(B.shape[1]):
            C[i, k] = 0.0
        for j in range(A.shape[1]):
            a = A[i, j]
            for k in range(B.shape[1]):
                C[i, k] += a * B[j, k]


@guvectorize(['void(float64[:], float64, float64[:])'], '(n),()->(n)',
             target='cpu')
def scale(x, c, y):
    for i in range(x.shape[0]):
        y[i] = x[i] * c


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n)->(),()',
             target='cpu')
def max_min(x, hi, lo):
    a = x[0]
    b = x[0]
    for i in range(1, x.shape[0]):
        a = max(a, x[i])
        b = min(b, x[i])
    hi[0] = a
    lo[0] = b


@guvectorize(['void(float64[:,:], float64[:])'], '(m,n)->(m)', target='cpu')
def row_sum(a, out):
    for i in range(a.shape[0]):
        out[i] = np.sum(a[i, :])


# issue 18: a whole-array expression inside a gufunc, fused by ufjit into
# one loop over out (bench case "x*w+b"), against the same element loop
# written by hand (ufjit's way "hand loop") and Numba's guvectorize of
# axpb_expr.
@guvectorize(['void(float64[:], float64[:], float64, float64[:])'],
             '(n),(n),()->(n)', target='cpu')
def axpb_expr(x, w, b, out):
    out[:] = x * w + b


@guvectorize(['void(float64[:], float64[:], float64, float64[:])'],
             '(n),(n),()->(n)', target='cpu')
def axpb_loop(x, w, b, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * w[i] + b


# issue 18: a scratch array made per row (np.empty in the kernel, freed
# when the row's call returns), against Numba's NRT doing the same; and
# the same scratch made in a loop inside one call (freed per iteration).
@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)', target='cpu')
def scratch_rev(x, out):
    n = x.shape[0]
    tmp = np.empty(n)
    for i in range(n):
        tmp[i] = x[i] * 2.0
    for i in range(n):
        out[i] = tmp[n - 1 - i]


@guvectorize(['void(float64[:, :], float64[:])'], '(m,n)->(m)', target='cpu')
def scratch_loop(x, out):
    m, n = x.shape
    for r in range(m):
        tmp = np.empty(n)
        for i in range(n):
            tmp[i] = x[r, i] * 2.0
        out[r] = tmp[n - 1]


# issue 19: the same scratch read whole (an array expression into a row
# of out, then np.sum): still on the stack in ufjit.
@guvectorize(['void(float64[:, :], float64[:, :], float64[:])'],
             '(m,n)->(m,n),(m)', target='cpu')
def scratch_whole(x, y, s):
    m, n = x.shape
    for r in range(m):
        tmp = np.empty(n)
        for i in range(n):
            tmp[i] = x[r, i] * 2.0
        y[r, :] = tmp * tmp + 1.0
        s[r] = np.sum(tmp)


# issue 18: a 2-D np.dot inside a kernel, its result a new array (bench
# cases "np.dot NxN"): ufjit's blocked loop (common/matmul.c) against
# Numba's, which calls SciPy's BLAS (OpenBLAS, one thread here).
@guvectorize(['void(float64[:,:], float64[:,:], float64[:,:])'],
             '(m,k),(k,n)->(m,n)', target='cpu')
def dot2d(a, b, out):
    out[:] = np.dot(a, b)


# issue 18: np.ptp, np.count_nonzero and np.nanargmax of a row inside a
# kernel (bench cases "np.ptp rows" ...), against Numba's
@guvectorize(['void(float64[:,:], float64[:])'], '(m,n)->(m)', target='cpu')
def row_ptp(a, out):
    for i in range(a.shape[0]):
        out[i] = np.ptp(a[i, :])


@guvectorize(['void(float64[:,:], float64[:])'], '(m,n)->(m)', target='cpu')
def row_count_nonzero(a, out):
    for i in range(a.shape[0]):
        out[i] = np.count_nonzero(a[i, :])


@guvectorize(['void(float64[:,:], float64[:])'], '(m,n)->(m)', target='cpu')
def row_nanargmax(a, out):
    for i in range(a.shape[0]):
        out[i] = np.nanargmax(a[i, :])
