#!/usr/bin/env python3
"""np.linalg.eigh, eigvalsh, lstsq, eig and eigvals inside kernels
(tests/kernels/host/nplinalg2.py) against Numba (LAPACK's syevd, gelsd,
geev through SciPy): each case runs through `ufjit call` and through Numba
on the same inputs; dtype and shape must agree exactly, lstsq's rank
exactly. ufjit's algorithms are its own (tridiagonal QL, Golub-Kahan SVD,
Hessenberg QR), so values agree to a stated tolerance, not bit for bit,
with tol = 100 * n * eps of the input's dtype:
  eigenvalues within tol * max(|w|, 1) of LAPACK's (eig's and eigvals'
  compared sorted: the order of a Schur form is the algorithm's own);
  eigenvectors, whose signs (and bases within repeated eigenvalues) are
  free, as NumPy's tests check them: eigh's v orthonormal within tol and
  |a_L v - v w| <= tol * max(|w|, 1) with a_L a's lower triangle mirrored;
  eig's columns of unit length within tol, each column j with
  |a v_j - l_j v_j| <= tol * max(|w|, 1) for l_j its Rayleigh quotient,
  the l_j the eigenvalues; the *_resid / *_orth kernels return such a
  measure computed in the kernel (pairs of w and v together): ufjit's
  must be below tol;
  lstsq's x, residuals and s within 1e3 * n * eps * cond(a) relative to
  their largest magnitude (float32 LAPACK computes in float32, ufjit in
  float64 and rounds).
Where Numba raises, ufjit fails with the same exception; what Numba refuses
while compiling ufjit refuses at the kernel's FILE:LINE:COL (complex
matrices: run_nplinalg_complex_oracle.py).

    run_nplinalg2_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import sys

sys.dont_write_bytecode = True

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import S, V, f4, f8, i8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host",
                    "nplinalg2.py")
inf, nan = np.inf, np.nan


def given(m, dt="f8"):
    return V(dt, np.asarray(m).ravel().tolist(), np.asarray(m).shape)


def sym(n, dt="f8", seed=3, scale=1.0):
    m = np.random.default_rng(seed).uniform(-1, 1, (n, n))
    return given((m + m.T) * scale, dt)


def real_eig(n, dt="f8", seed=5):
    """P diag(d) P^-1 with well separated real d: real eigenvalues."""
    r = np.random.default_rng(seed)
    p = r.uniform(-1, 1, (n, n)) + 2 * np.eye(n)
    d = np.arange(n) * 1.5 - n / 2 + r.uniform(0, 0.3, n)
    return given(p @ np.diag(d) @ np.linalg.inv(p), dt)


def product(m, r, n, seed=7):
    """An m * n matrix of rank r (a product of m * r and r * n)."""
    g = np.random.default_rng(seed)
    return given(g.uniform(-1, 1, (m, r)) @ g.uniform(-1, 1, (r, n)))


def hilbert(n):
    i = np.arange(n)
    return given(1.0 / (i[:, None] + i[None, :] + 1))


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "refused-here" ufjit refuses what Numba computes)."""
    nanm = given([[1.0, nan], [2.0, 3.0]])
    infu = given([[1.0, inf], [2.0, 3.0]])  # inf above the diagonal
    rot = given([[0.0, -1.0], [1.0, 0.0]])
    tri = given([[3.0, 1.0, 2.0], [0.0, -1.0, 5.0], [0.0, 0.0, 2.0]])
    dup = given([[2.0, 0, 0], [0, 2.0, 0], [0, 0, 2.0]])
    rank2 = given([[1.0, 2.0, 3.0], [2.0, 4.0, 6.1], [1.0, 2.0, 2.9],
                   [0.0, 0.0, 1.0], [3.0, 6.0, 9.0]])
    dep = given([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])  # rank 1
    out = []
    for k in ("eigh", "eigvalsh", "eigh_resid", "eigh_orth"):
        out += [
            (k, [sym(1)], None), (k, [sym(2)], None), (k, [sym(5)], None),
            (k, [sym(8, seed=11)], None), (k, [sym(40, seed=2)], None),
            (k, [sym(6, "f4")], None), (k, [sym(7).F], None),
            (k, [sym(12, seed=4).view("::2, ::-2")], None),
            (k, [f8(6, 6)], None),  # not symmetric: the lower triangle
            (k, [f8(5, 5, lo=-1e300, hi=1e300)], None),
            (k, [f8(5, 5, lo=-1e-300, hi=1e-300)], None),
            (k, [dup], None), (k, [given(np.zeros((4, 4)))], None),
            (k, [tri], None),
        ]
    for k in ("eigh", "eigvalsh"):
        out += [
            (k, [f8(0, 0)], None), (k, [f8(0, 0, lo=0, hi=1)], None),
            (k, [f8(2, 3)], "LinAlgError"), (k, [nanm], "LinAlgError"),
            (k, [infu], "LinAlgError"), (k, [f4(3, 2)], "LinAlgError"),
        ]
    out += [
        ("eigh_kw", [sym(4)], None), ("eigh_sum", [sym(6)], None),
        ("eigh_3d", [f8(2, 2, 2)], "TypingError"),
        ("eigh_3d", [f8(4)], "TypingError"),
        ("eigh_int", [i8(3, 3)], "TypingError"),
        ("eigh_two", [sym(3)], "TypingError"),
    ]
    for k in ("eig", "eigvals", "eig_resid"):
        out += [
            (k, [sym(1)], None), (k, [sym(5)], None),
            (k, [sym(9, seed=8)], None), (k, [tri], None), (k, [dup], None),
            (k, [real_eig(4)], None), (k, [real_eig(10, seed=9)], None),
            (k, [real_eig(30, seed=1)], None),
            (k, [real_eig(6, "f4")], None), (k, [real_eig(5).F], None),
            (k, [sym(10, seed=6).view("::-2, ::-2")], None),
            # SciPy's geev returns these scaled by 1e-162 / 1e162 (its
            # dlascl back is lost): NumPy's are the reference
            (k, [sym(5, scale=1e300)], "numpy"),
            (k, [sym(5, scale=1e-300)], "numpy"),
            (k, [given(np.zeros((3, 3)))], None),
            (k, [rot], "ValueError"), (k, [f8(6, 6, lo=-1, hi=1)],
                                       "ValueError"),
            (k, [f8(3, 4)], "LinAlgError"), (k, [nanm], "LinAlgError"),
            (k, [infu], "LinAlgError"),
        ]
    for k in ("eig", "eigvals"):
        out += [(k, [f8(0, 0)], None), (k, [i8(3, 3)], "TypingError")]
    out += [("eigvals_1d", [f8(3)], "TypingError")]
    for k in ("lstsq", "lstsq_x"):
        out += [
            (k, [f8(6, 3), f8(6)], None), (k, [f8(6, 3), f8(6, 2)], None),
            (k, [f8(4, 4), f8(4)], None), (k, [f8(3, 5), f8(3)], None),
            (k, [f8(3, 5), f8(3, 4)], None), (k, [f8(1, 1), f8(1)], None),
            (k, [f8(7, 2).F, f8(7, 3).F], None),
            (k, [f8(8, 6).view("::2, ::-2"), f8(8).view("::-2")], None),
            (k, [f4(6, 3), f4(6)], None), (k, [f4(5, 4), f4(5, 2)], None),
            (k, [rank2, f8(5)], None), (k, [dep, f8(3, 2)], None),
            (k, [f8(40, 12), f8(40, 3)], None),
            (k, [given(np.zeros((3, 2))), f8(3)], None),
            # the QR-reduced paths: tall (Q^T b), wide (LQ), scaled
            (k, [f8(200, 30), f8(200, 2)], None),
            (k, [f8(120, 7).F, f8(120)], None),
            (k, [f8(20, 60), f8(20)], None),
            (k, [f8(9, 31).view("::-1, ::2"), f8(9, 3)], None),
            (k, [f8(9, 4, lo=-1e-300, hi=1e-300), f8(9)], None),
            (k, [f8(4, 9, lo=-1e-300, hi=1e-300), f8(4)], None),
            (k, [f4(50, 6), f4(50, 2)], None), (k, [f4(5, 12), f4(5)], None),
            (k, [hilbert(8), f8(8)], None), (k, [hilbert(6), f8(6)], None),
        ]
    out += [
        # cond 1.6e13: the ranks, not x (either's error is cond * eps)
        ("lstsq_rank", [hilbert(10), f8(10)], None),
        ("lstsq_rank", [hilbert(10).view(":7"), f8(7)], None),
        # rank-deficient products: rcond 1e-10 cuts rounding's values
        ("lstsq_rcond", [product(60, 4, 10), f8(60, 2), S("1e-10")], None),
        ("lstsq_rcond", [product(8, 3, 20), f8(8), S("1e-10")], None),
        ("lstsq_rcond", [product(30, 5, 30), f8(30), S("1e-10")], None),
        ("lstsq_rcond", [hilbert(12), f8(12), S("1e-8")], None),
        ("lstsq_rank", [rank2, f8(5)], None),
        ("lstsq_rank", [f8(4, 6), f8(4)], None),
        ("lstsq_rcond", [rank2, f8(5), S("0.5")], None),
        ("lstsq_rcond", [f8(6, 3), f8(6), S("0.0")], None),
        ("lstsq_rcond", [f8(6, 3), f8(6), S("1e-20")], None),
        ("lstsq_rcond", [f8(6, 3), f8(6), S("int64:2")], None),
        ("lstsq_pos", [dep, f8(3), S("0.1")], None),
        ("lstsq", [f8(0, 3), f8(0)], "LinAlgError"),
        ("lstsq", [f8(3, 0), f8(3)], "LinAlgError"),
        ("lstsq", [f8(3, 2), f8(3, 0)], "LinAlgError"),
        ("lstsq", [f8(4, 2), f8(3)], "LinAlgError"),
        ("lstsq", [f8(4, 2), f8(5, 2)], "LinAlgError"),
        ("lstsq", [nanm, f8(2)], "LinAlgError"),
        ("lstsq", [f8(2, 2), V("f8", [1.0, inf])], "LinAlgError"),
        ("lstsq", [f8(3, 2), V("f8", [1.0, nan])], "LinAlgError"),
        ("lstsq_mixed", [f8(3, 2), f4(3)], "TypingError"),
        ("lstsq_mixed", [i8(3, 2), i8(3)], "TypingError"),
        ("lstsq_3d", [f8(3, 2), f8(3, 2, 2)], "TypingError"),
        ("lstsq_3d", [f8(3), f8(3)], "TypingError"),
    ]
    return out


def tol_of(vals):
    a = np.asarray(vals[0])
    n = max(a.shape[-1], 1) if a.ndim else 1
    return 100 * n * np.finfo(a.dtype if a.dtype.kind == "f"
                              else np.float64).eps


def lower_sym(a):
    a = np.asarray(a, dtype=np.float64)
    return np.tril(a) + np.tril(a, -1).T


def close(got, want, tol):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    scale = max(np.abs(want).max(initial=0.0), 1e-300)
    return bool(np.all(np.abs(got - want) <= tol * scale))


def same(got, want, kernel, vals):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    tol = tol_of(vals)
    if kernel in ("eigh_resid", "eigh_orth", "eig_resid"):
        return bool(got <= tol)
    if kernel == "lstsq_rank" or got.dtype.kind == "i":
        return bool(np.array_equal(got, want))
    a = np.asarray(vals[0], dtype=np.float64)
    if kernel.startswith("lstsq"):
        cond = np.linalg.cond(a) if a.size and np.all(np.isfinite(a)) \
            else 1.0
        rel = 10 * tol * min(max(cond, 1.0), 1e6)
        return close(got, want, rel)
    if got.ndim == 0:  # eigh_sum
        return close(got, want, tol)
    if got.ndim == 1:  # eigenvalues
        if kernel.startswith("eigh") or kernel == "eigvalsh":
            return close(got, want, tol)
        return close(np.sort(got), np.sort(want), tol)
    v = got.astype(np.float64)
    n = v.shape[0]
    if n == 0:
        return True
    if kernel.startswith("eigh"):
        s = lower_sym(a)
        w = np.linalg.eigvalsh(s)
        scale = max(np.abs(w).max(), 1.0) if n else 1.0
        scale = max(scale, np.abs(s).max())
        return bool(np.abs(v.T @ v - np.eye(n)).max() <= tol and
                    np.abs(s @ v - v * w).max() <= tol * scale)
    # eig's vectors
    w = np.sort(np.linalg.eigvals(a).real)
    scale = max(np.abs(w).max(), np.abs(a).max(), 1.0)
    lam = np.array([v[:, j] @ a @ v[:, j] / (v[:, j] @ v[:, j])
                    for j in range(n)])
    norms = np.sqrt((v * v).sum(axis=0))
    return bool(np.all(np.abs(norms - 1) <= tol) and
                np.abs(a @ v - v * lam).max() <= tol * scale and
                close(np.sort(lam), w, tol))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "nplinalg2", same)


if __name__ == "__main__":
    sys.exit(main())
