# NumPy's matrix constructors and diagonals inside njit functions
# (compiler/types/infer_npmatrix.c, compiler/lower/lower_npmatrix.c),
# checked against Numba by tests/e2e/run_npmatrix_oracle.py.
import numpy as np
from numba import njit


@njit
def eye(n):
    return np.eye(n)


@njit
def eye_nmk(n, m, k):
    return np.eye(n, m, k)


@njit
def eye_dtype(n, k):
    return np.eye(n, k=k, dtype=np.int8)


@njit
def eye_none(n):
    return np.eye(n, None, -1, np.complex64)


@njit
def eye_like(a, n):
    return np.eye(n, M=3, dtype=a.dtype)


@njit
def eye_bool_k(n):
    return np.eye(n, 4, True, np.bool_)


@njit
def eye_pyfloat(n):
    return np.eye(n, dtype=float)


@njit
def eye_float_n(x):
    return np.eye(x)


@njit
def identity(n):
    return np.identity(n)


@njit
def identity_dtype(n):
    return np.identity(n, np.uint16)


@njit
def identity_str(n):
    return np.identity(n, 'f4')


@njit
def identity_pyint(n):
    return np.identity(n, int)


@njit
def diag(v):
    return np.diag(v)


@njit
def diag_k(v, k):
    return np.diag(v, k)


@njit
def diag_kw(v, k):
    return np.diag(v=v, k=k)


@njit
def diag_view(v, k):
    return np.diag(v[::-1, ::2], k)


@njit
def diag_float_k(v):
    return np.diag(v, 1.0)


@njit
def diagflat(v, k):
    return np.diagflat(v, k)


@njit
def diagflat1(v):
    return np.diagflat(v)


@njit
def diagflat_bool_k(v):
    return np.diagflat(v, True)


@njit
def trace(a):
    return np.trace(a)


@njit
def trace_k(a, k):
    return np.trace(a, offset=k)


@njit
def trace_view(a, k):
    return np.trace(a[::-1, 1:], k)


@njit
def fill(a, val):
    b = a.copy()
    np.fill_diagonal(b, val)
    return b


@njit
def fill_wrap(a, val):
    b = a.copy()
    np.fill_diagonal(b, val, True)
    return b


@njit
def fill_view(a, val):
    b = a.copy()
    np.fill_diagonal(b[::2, ::-1], val, wrap=True)
    return b


@njit
def fill_complex(a):
    np.fill_diagonal(a, 1j)
    return a


@njit
def tril(m):
    return np.tril(m)


@njit
def tril_k(m, k):
    return np.tril(m, k)


@njit
def triu(m):
    return np.triu(m)


@njit
def triu_k(m, k):
    return np.triu(m, k=k)


@njit
def triu_view(m, k):
    return np.triu(m[..., ::-1], k)


@njit
def tril_bool_k(m):
    return np.tril(m, True)


@njit
def outer(a, b):
    return np.outer(a, b)


@njit
def outer_out(a, b):
    return np.outer(a, b, np.empty((a.size, b.size)))


@njit
def kron(a, b):
    return np.kron(a, b)


@njit
def kron_view(a, b):
    return np.kron(a[:, ::2], b)


@njit
def vander(x):
    return np.vander(x)


@njit
def vander_n(x, n):
    return np.vander(x, n)


@njit
def vander_inc(x, n):
    return np.vander(x, N=n, increasing=True)


@njit
def vander_float_n(x):
    return np.vander(x, 2.0)


@njit
def in_loop(n):
    t = 0.0
    for i in range(n):
        e = np.eye(i + 1, dtype=np.float64)
        t += np.trace(e + np.outer(np.arange(i + 1.0), np.ones(i + 1)))
        t += np.tril(e, -1).sum() + np.diag(np.diag(e)).sum()
    return t


@njit
def tril_indices(n, k):
    r, c = np.tril_indices(n, k)
    return r * 1000 + c


@njit
def tril_indices_m(n, k, m):
    r, c = np.tril_indices(n, k, m)
    return r * 1000 + c


@njit
def triu_indices(n, k, m):
    r, c = np.triu_indices(n, k=k, m=m)
    return r * 1000 + c


@njit
def triu_indices1(n):
    return np.triu_indices(n)[1]


@njit
def tril_indices_from(a, k):
    r, c = np.tril_indices_from(a, k)
    return r * 1000 + c


@njit
def triu_indices_from(a, k):
    r, c = np.triu_indices_from(a, k)
    return r * 1000 + c


@njit
def triu_indices_from0(a):
    return np.triu_indices_from(a)[0]


@njit
def tril_indices_bool_k(n):
    return np.tril_indices(n, True)[0]


@njit
def tri(n):
    return np.tri(n)


@njit
def tri_nmk(n, m, k):
    return np.tri(n, m, k)


@njit
def tri_kw(n, k):
    return np.tri(n, k=k, M=None)


@njit
def tri_float_k(n):
    return np.tri(n, n, 1.5)
