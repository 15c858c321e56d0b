# np.linalg.norm, det, slogdet, inv and solve inside njit functions
# (compiler/types/infer_nplinalg.c, compiler/lower/lower_nplinalg.c,
# common/nplinalg.c), checked by tests/e2e/run_nplinalg_oracle.py.
import numpy as np
from numba import njit
from numpy import linalg
from numpy.linalg import det as la_det


@njit
def norm(x):
    return np.linalg.norm(x)


@njit
def norm_ord(x, o):
    return np.linalg.norm(x, o)


@njit
def norm_kw(x, o):
    return np.linalg.norm(x=x, ord=o)


@njit
def norm_none(x):
    return np.linalg.norm(x, None)


@njit
def norm_inf(x):
    return np.linalg.norm(x, np.inf)


@njit
def norm_2_matrix(x):
    return np.linalg.norm(x, 2)


@njit
def norm_axis(x):
    return np.linalg.norm(x, axis=0)


@njit
def norm_int(x):
    return np.linalg.norm(x)


@njit
def norm_3d(x):
    return np.linalg.norm(x)


@njit
def norm_rows(x):
    # a norm per row in a loop: the runtime called from a hot loop
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = np.linalg.norm(x[i])
    return out


@njit
def det(a):
    return np.linalg.det(a)


@njit
def det_alias(a):
    return la_det(a) + linalg.det(a)


@njit
def slogdet_sign(a):
    return np.linalg.slogdet(a)[0]


@njit
def slogdet_log(a):
    s, lg = np.linalg.slogdet(a)
    return lg


@njit
def inv(a):
    return np.linalg.inv(a)


@njit
def inv_check(a):
    # a @ inv(a) is the identity: what an inverse is for
    return np.dot(a, np.linalg.inv(a))


@njit
def solve(a, b):
    return np.linalg.solve(a, b)


@njit
def solve_kw(a, b):
    return np.linalg.solve(b=b, a=a)


@njit
def det_1d(a):
    return np.linalg.det(a)


@njit
def det_int(a):
    return np.linalg.det(a)


@njit
def solve_mixed(a, b):
    return np.linalg.solve(a, b)


@njit
def inv_scalar(x):
    return np.linalg.inv(x)


@njit
def cholesky(a):
    return np.linalg.cholesky(a)


@njit
def cholesky_check(a):
    # L @ L.T is a: what the factor is for
    lo = np.linalg.cholesky(a)
    return np.dot(lo, lo.T)


@njit
def cholesky_int(a):
    return np.linalg.cholesky(a)


@njit
def qr_q(a):
    return np.linalg.qr(a)[0]


@njit
def qr_r(a):
    q, r = np.linalg.qr(a)
    return r


@njit
def qr_check(a):
    # q @ r is a, and q's columns are orthonormal
    q, r = np.linalg.qr(a)
    return np.dot(q, r) + np.dot(q.T, q).sum()


@njit
def qr_1d(a):
    return np.linalg.qr(a)[1]


@njit
def matrix_power(a, n):
    return np.linalg.matrix_power(a, n)


@njit
def matrix_power_kw(a, n):
    return np.linalg.matrix_power(n=n, a=a)


@njit
def matrix_power_float(a):
    return np.linalg.matrix_power(a, 2.0)


@njit
def svd_s(a):
    return np.linalg.svd(a)[1]


@njit
def svd_check(a):
    # u @ diag(s) @ vh is a: the factors compared up to their signs
    u, s, vh = np.linalg.svd(a)
    k = min(a.shape[0], a.shape[1])
    return np.dot(u[:, :k] * s, vh[:k, :])


@njit
def svd_orth(a, full):
    # u and vh orthonormal (full: square), their shapes
    u, s, vh = np.linalg.svd(a, full)
    r = np.dot(u.T, u).sum() + np.dot(vh, vh.T).sum()
    return np.array((r, u.shape[0], u.shape[1], vh.shape[0], vh.shape[1]))


@njit
def svd_reduced(a):
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    return np.dot(u * s, vh)


@njit
def svd_int(a):
    return np.linalg.svd(a)[1]


@njit
def cond(x):
    return np.linalg.cond(x)


@njit
def cond_p(x, p):
    return np.linalg.cond(x, p)


@njit
def matrix_rank(a):
    return np.linalg.matrix_rank(a)


@njit
def matrix_rank_tol(a, tol):
    return np.linalg.matrix_rank(a, tol)


@njit
def pinv(a):
    return np.linalg.pinv(a)


@njit
def pinv_rcond(a, r):
    return np.linalg.pinv(a, rcond=r)


@njit
def pinv_check(a):
    # a @ pinv(a) @ a is a
    return np.dot(np.dot(a, np.linalg.pinv(a)), a)
