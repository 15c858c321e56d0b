# np.linalg of complex64 / complex128 matrices inside njit functions
# (compiler/types/infer_nplinalg.c, compiler/lower/lower_nplinalg.c,
# common/nplinalg_complex.c), checked by
# tests/e2e/run_nplinalg_complex_oracle.py.
import numpy as np
from numba import njit


@njit
def det(a):
    return np.linalg.det(a)


@njit
def slogdet(a):
    return np.linalg.slogdet(a)


@njit
def slogdet_sign(a):
    return np.linalg.slogdet(a)[0]


@njit
def inv(a):
    return np.linalg.inv(a)


@njit
def solve(a, b):
    return np.linalg.solve(a, b)


@njit
def solve_kw(a, b):
    return np.linalg.solve(a=a, b=b)


@njit
def matrix_power(a, n):
    return np.linalg.matrix_power(a, n)


@njit
def det_in_loop(a):
    # the determinants of the leading k x k blocks, summed
    s = 0j
    for k in range(a.shape[0] + 1):
        s += np.linalg.det(a[:k, :k])
    return s


@njit
def inv_check(a):
    # a @ inv(a) - I, through the kernel's own products
    x = np.linalg.inv(a)
    n = a.shape[0]
    r = np.zeros((n, n), dtype=a.dtype)
    for i in range(n):
        for j in range(n):
            s = 0j
            for k in range(n):
                s += a[i, k] * x[k, j]
            r[i, j] = s - (1.0 if i == j else 0.0)
    return r


@njit
def solve_mixed(a, b):
    # complex a and real b: Numba requires one dtype
    return np.linalg.solve(a, b)


@njit
def det_1d(a):
    return np.linalg.det(a)


@njit
def norm(x):
    return np.linalg.norm(x)


@njit
def norm_ord(x, o):
    return np.linalg.norm(x, o)


@njit
def norm_kw(x):
    return np.linalg.norm(x=x, ord=np.inf)


@njit
def cholesky(a):
    return np.linalg.cholesky(a)


@njit
def cholesky_check(a):
    # L @ L^H - a over the lower triangle, by the kernel's own loops
    lo = np.linalg.cholesky(a)
    n = a.shape[0]
    r = np.zeros((n, n), dtype=a.dtype)
    for i in range(n):
        for j in range(i + 1):
            s = 0j
            for k in range(n):
                s += lo[i, k] * np.conj(lo[j, k])
            r[i, j] = s - a[i, j]
    return r


@njit
def qr(a):
    return np.linalg.qr(a)


@njit
def qr_check(a):
    # q @ r - a, and q^H q - I, by the kernel's own loops
    q, r = np.linalg.qr(a)
    m, n = a.shape
    k = min(m, n)
    d = np.zeros((m, n), dtype=a.dtype)
    for i in range(m):
        for j in range(n):
            s = 0j
            for t in range(k):
                s += q[i, t] * r[t, j]
            d[i, j] = s - a[i, j]
    o = np.zeros((k, k), dtype=a.dtype)
    for i in range(k):
        for j in range(k):
            s = 0j
            for t in range(m):
                s += np.conj(q[t, i]) * q[t, j]
            o[i, j] = s - (1.0 if i == j else 0.0)
    return np.abs(d).max() / max(np.abs(a).max(), 1e-300), np.abs(o).max()


@njit
def eigvalsh(a):
    return np.linalg.eigvalsh(a)


@njit
def eigh_w(a):
    return np.linalg.eigh(a)[0]


@njit
def eigh_check(a):
    # the vectors up to their phase: |a v - v w| / |a| and |v^H v - I|,
    # a's upper triangle taken from its lower one (what eigh reads)
    w, v = np.linalg.eigh(a)
    n = a.shape[0]
    res = 0.0
    orth = 0.0
    big = 1e-300
    for i in range(n):
        for j in range(n):
            big = max(big, abs(a[i, j]))
    for k in range(n):
        for i in range(n):
            s = 0j
            for j in range(n):
                h = a[i, j] if j <= i else np.conj(a[j, i])
                if i == j:
                    h = h.real + 0j
                s += h * v[j, k]
            res = max(res, abs(s - v[i, k] * w[k]))
        for m in range(n):
            s = 0j
            for i in range(n):
                s += np.conj(v[i, k]) * v[i, m]
            orth = max(orth, abs(s - (1.0 if k == m else 0.0)))
    return res / big, orth


@njit
def cond(a):
    return np.linalg.cond(a)


@njit
def cond_p(a, p):
    return np.linalg.cond(a, p)


@njit
def matrix_rank(a):
    return np.linalg.matrix_rank(a)


@njit
def matrix_rank_tol(a, t):
    return np.linalg.matrix_rank(a, t)


@njit
def svd(a):
    return np.linalg.svd(a)


@njit
def svd_kw(a, f):
    return np.linalg.svd(a, full_matrices=f)


@njit
def svd_check(a, f):
    # u[:, :k] diag(s) vh[:k] is a whatever the phases of the vectors
    u, s, vh = np.linalg.svd(a, f)
    m, n = a.shape
    k = min(m, n)
    r = np.zeros((m, n), dtype=a.dtype)
    for i in range(m):
        for j in range(n):
            acc = 0j
            for t in range(k):
                acc += u[i, t] * s[t] * vh[t, j]
            r[i, j] = acc
    return r


@njit
def svd_s(a):
    return np.linalg.svd(a, False)[1]


@njit
def pinv(a):
    return np.linalg.pinv(a)


@njit
def pinv_rcond(a, r):
    return np.linalg.pinv(a, rcond=r)


@njit
def lstsq(a, b):
    return np.linalg.lstsq(a, b)


@njit
def lstsq_rcond(a, b, r):
    return np.linalg.lstsq(a, b, r)


@njit
def lstsq_mixed(a, b):
    return np.linalg.lstsq(a, b)


@njit
def eig(a):
    return np.linalg.eig(a)


@njit
def eigvals(a):
    return np.linalg.eigvals(a)


@njit
def eig_check(a):
    # the vectors up to their phase: |a v - v w| / |a|, | |v_k| - 1 |
    w, v = np.linalg.eig(a)
    n = a.shape[0]
    res = 0.0
    unit = 0.0
    big = 1e-300
    for i in range(n):
        for j in range(n):
            big = max(big, abs(a[i, j]))
    for k in range(n):
        nn = 0.0
        for i in range(n):
            s = 0j
            for j in range(n):
                s += a[i, j] * v[j, k]
            res = max(res, abs(s - v[i, k] * w[k]))
            nn += abs(v[i, k]) ** 2
        unit = max(unit, abs(np.sqrt(nn) - 1.0))
    return res / big, unit


@njit
def eig_1d(a):
    return np.linalg.eigvals(a)
