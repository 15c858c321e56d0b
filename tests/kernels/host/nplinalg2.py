# np.linalg.eigh, eigvalsh, lstsq, eig and eigvals inside njit functions
# (compiler/types/infer_nplinalg.c, compiler/lower/lower_nplinalg.c,
# common/nplinalg_eig.c, common/nplinalg_svd.c), checked by
# tests/e2e/run_nplinalg2_oracle.py.
import numpy as np
from numba import njit
from numpy import linalg


@njit
def eigh(a):
    return np.linalg.eigh(a)


@njit
def eigh_kw(a):
    return linalg.eigh(a=a)


@njit
def eigvalsh(a):
    return np.linalg.eigvalsh(a)


@njit
def eigh_resid(a):
    # max |a_sym @ v - v * w| over max(|w|, 1): the pairs' agreement
    w, v = np.linalg.eigh(a)
    s = np.tril(a) + np.tril(a, -1).T
    return np.abs(s @ v - v * w).max() / max(np.abs(w).max(), 1.0)


@njit
def eigh_orth(a):
    # max |v.T @ v - I|
    w, v = np.linalg.eigh(a)
    return np.abs(v.T @ v - np.eye(a.shape[0])).max()


@njit
def eigh_sum(a):
    # a number from the values and vectors in a loop (hot-loop use)
    t = 0.0
    for k in range(3):
        w, v = np.linalg.eigh(a + k)
        t += w.sum() + np.abs(v).sum()
    return t


@njit
def eigh_3d(a):
    return np.linalg.eigh(a)


@njit
def eigh_int(a):
    return np.linalg.eigh(a)


@njit
def eigh_two(a):
    return np.linalg.eigh(a, "L")


@njit
def eig(a):
    return np.linalg.eig(a)


@njit
def eigvals(a):
    return np.linalg.eigvals(a)


@njit
def eig_resid(a):
    # max |a @ v - v * w| over max(|w|, 1), and the columns' unit norms
    w, v = np.linalg.eig(a)
    r = np.abs(a @ v - v * w).max() / max(np.abs(w).max(), 1.0)
    for j in range(v.shape[1]):
        r = max(r, abs(np.sqrt((v[:, j] ** 2).sum()) - 1.0))
    return r


@njit
def eigvals_1d(a):
    return np.linalg.eigvals(a)


@njit
def lstsq(a, b):
    return np.linalg.lstsq(a, b)


@njit
def lstsq_rcond(a, b, r):
    return np.linalg.lstsq(a, b, rcond=r)


@njit
def lstsq_pos(a, b, r):
    return np.linalg.lstsq(a, b, r)


@njit
def lstsq_x(a, b):
    x, res, rank, s = np.linalg.lstsq(a, b)
    return x


@njit
def lstsq_rank(a, b):
    return np.linalg.lstsq(a, b)[2]


@njit
def lstsq_mixed(a, b):
    return np.linalg.lstsq(a, b)


@njit
def lstsq_3d(a, b):
    return np.linalg.lstsq(a, b)
