#!/usr/bin/env python3
"""np.linalg.norm, det, slogdet, inv, solve, cholesky, qr, matrix_power,
svd, cond, matrix_rank and pinv inside kernels
(tests/kernels/host/nplinalg.py) against Numba: each case runs through
`ufjit call` and through Numba on the same inputs. Numba's np.linalg needs
SciPy's LAPACK; where SciPy is missing (Numba raises ImportError) the
reference is the kernel's Python function run by NumPy, cast to the dtype
Numba's typing gives (numba/np/linalg.py), with Numba's own value where it
differs from NumPy's (the overflow-free 2-norm, NaN in max/min norms, the
norms of empty arrays). Floats agree to a stated tolerance, not bit for
bit: ufjit's LU, QR, Cholesky and (Golub-Kahan) SVD are its own, so rtol =
1000 * n * eps for the factorisations (random matrices, their conditioning
included; SVD factors compared through u @ diag(s) @ vh, whose columns'
signs are free) and 4 * n * eps for the norms; NaN equal to NaN. Where Numba raises, ufjit fails with the same exception; what Numba
refuses while compiling ufjit refuses at the kernel's FILE:LINE:COL;
"ufjit:NAME" marks a documented ufjit limitation (Numba computes it).

    run_nplinalg_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import sys
import tempfile
import warnings

sys.dont_write_bytecode = True

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import S, V, c16, f4, f8, i8  # noqa: E402
from oracle_record import Record  # noqa: E402
from oracle_util import (as_array, lazy_load, materialise,  # noqa: E402
                         options, run_ufjit)

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host",
                    "nplinalg.py")
inf, nan = np.inf, np.nan


def spd(n, dt="f8", seed=7):
    """A symmetric positive definite n * n matrix of given values."""
    m = np.random.default_rng(seed).uniform(-1, 1, (n, n))
    return V(dt, (m @ m.T + n * np.eye(n)).ravel().tolist(), (n, n))


def product(m, r, n, seed=7):
    """An m * n matrix of rank r (a product of m * r and r * n)."""
    g = np.random.default_rng(seed)
    return V("f8", (g.uniform(-1, 1, (m, r)) @
                    g.uniform(-1, 1, (r, n))).ravel().tolist(), (m, n))


def spectrum(m, n, sig, dt="f8", seed=11):
    """An m * n matrix Q1 diag(sig) Q2^T of prescribed singular values
    (Q1, Q2 random orthogonal): graded, repeated, rank-deficient."""
    g = np.random.default_rng(seed)
    q1 = np.linalg.qr(g.standard_normal((m, m)))[0]
    q2 = np.linalg.qr(g.standard_normal((n, n)))[0]
    k = min(m, n)
    a = (q1[:, :k] * np.asarray(sig, dtype=float)) @ q2[:, :k].T
    return V(dt, a.ravel().tolist(), (m, n))


def hilbert(n):
    i = np.arange(n)
    return V("f8", (1.0 / (i[:, None] + i[None, :] + 1)).ravel().tolist(),
             (n, n))


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "ufjit:NAME" ufjit raises NAME where Numba computes, and
    optionally Numba's value where NumPy's differs)."""
    sing = V("f8", [1.0, 2.0, 2.0, 4.0], (2, 2))
    nanm = V("f8", [1.0, nan, 2.0, 3.0], (2, 2))
    infm = V("f8", [1.0, 2.0, inf, 3.0], (2, 2))
    return [
        # norm, ord None: vectors, matrices (Frobenius), layouts, empty
        ("norm", [f8(7)], None), ("norm", [f4(9)], None),
        ("norm", [f8(0)], None), ("norm", [f4(0)], None),
        ("norm", [f8(3, 4)], None), ("norm", [f8(3, 4).F], None),
        ("norm", [f8(5, 6).view("::-1, ::2")], None),
        ("norm", [f4(4, 5)], None), ("norm", [f8(0, 3)], None),
        ("norm", [f8(9).view("::-2")], None),
        ("norm", [V("f8", [1e300, 1e300])], None, np.sqrt(2) * 1e300),
        ("norm", [V("f8", [1e-300, -1e-300])], None, np.sqrt(2) * 1e-300),
        ("norm", [V("f8", [1e300, 1e300, 1e300, 1e300], (2, 2))], None,
         2e300),
        ("norm", [V("f8", [1.0, nan, 2.0])], None),
        ("norm", [V("f8", [1.0, inf, 2.0])], None),
        ("norm", [V("f4", [3e38, 3e38])], None, np.float32(4.2426405e38)),
        ("norm_none", [f8(3, 3)], None), ("norm_none", [f4(5)], None),
        # vector ords
        *[("norm_ord", [f8(6), S(o)], None)
          for o in ("1", "2", "inf", "-inf", "0", "3", "0.5", "-1",
                    "int32:2", "true")],
        ("norm_ord", [f4(6), S("1")], None),
        ("norm_ord", [f4(6), S("inf")], None),
        ("norm_ord", [V("f8", [0.0, 3.0, 0.0, -4.0]), S("0")], None),
        ("norm_ord", [V("f8", [1.0, nan, -2.0]), S("inf")], None, 2.0),
        ("norm_ord", [V("f8", [nan, 1.0, -2.0]), S("inf")], None),
        ("norm_ord", [V("f8", [1.0, nan, -2.0]), S("-inf")], None, 1.0),
        ("norm_ord", [f8(0), S("inf")], None, 0.0),
        ("norm_ord", [f8(0), S("3")], None, 0.0),
        ("norm_kw", [f8(5), S("1")], None),
        # matrix ords
        *[("norm_ord", [f8(4, 5), S(o)], None)
          for o in ("1", "-1", "inf", "-inf")],
        ("norm_ord", [f4(3, 3).F, S("inf")], None),
        ("norm_ord", [f8(6, 5).view("::2, ::-1"), S("1")], None),
        ("norm_ord", [f8(0, 3), S("inf")], None, 0.0),
        ("norm_ord", [f8(3, 4), S("3")], "ValueError"),
        ("norm_inf", [f8(3, 4)], None), ("norm_inf", [f8(7)], None),
        ("norm_rows", [f8(5, 7)], None),
        ("norm_axis", [f8(3, 4)], "TypingError"),
        ("norm_int", [i8(4)], "TypingError"),
        ("norm_3d", [f8(2, 2, 2)], "TypingError"),
        # det / slogdet
        ("det", [f8(4, 4)], None), ("det", [f4(5, 5)], None),
        ("det", [f8(6, 6).F], None), ("det", [f8(6, 6).view("::2, ::-2")],
                                      None),
        ("det", [f8(1, 1)], None), ("det", [f8(40, 40)], None),
        ("det", [f8(0, 0)], None, 1.0), ("det", [sing], None),
        ("det", [f8(2, 3)], "LinAlgError"), ("det", [nanm], "LinAlgError"),
        ("det", [infm], "LinAlgError"),
        ("det_alias", [f8(3, 3)], None),
        ("slogdet_sign", [f8(5, 5)], None), ("slogdet_log", [f8(5, 5)], None),
        ("slogdet_sign", [f4(4, 4)], None), ("slogdet_log", [f4(4, 4)], None),
        ("slogdet_sign", [sing], None), ("slogdet_log", [sing], None),
        ("slogdet_sign", [f8(0, 0)], None), ("slogdet_log", [f8(0, 0)], None),
        ("slogdet_log", [f8(3, 2)], "LinAlgError"),
        ("slogdet_log", [nanm], "LinAlgError"),
        ("det_1d", [f8(3)], "TypingError"),
        ("det_int", [i8(2, 2)], "TypingError"),
        ("det", [c16(2, 2)], None),
        # inv
        ("inv", [f8(5, 5)], None), ("inv", [f4(4, 4)], None),
        ("inv", [f8(5, 5).F], None), ("inv", [f8(8, 8).view("::2, ::-2")],
                                      None),
        ("inv", [f8(30, 30)], None), ("inv", [f8(1, 1)], None),
        ("inv", [f8(0, 0)], None),
        ("inv", [sing], "LinAlgError"), ("inv", [nanm], "LinAlgError"),
        ("inv", [f8(2, 3)], "LinAlgError"),
        ("inv_check", [f8(20, 20)], None),
        ("inv_scalar", [S("2.0")], "TypingError"),
        # solve
        ("solve", [f8(4, 4), f8(4)], None),
        ("solve", [f8(4, 4), f8(4, 3)], None),
        ("solve", [f4(5, 5), f4(5, 2)], None),
        ("solve", [f8(4, 4).F, f8(4, 3).F], None),
        ("solve", [f8(6, 6).view("::-2, ::2"), f8(6).view("::2")], None),
        ("solve", [f8(25, 25), f8(25, 4)], None),
        ("solve", [f8(0, 0), f8(0)], None),
        ("solve", [f8(0, 0), f8(0, 2)], None),
        ("solve", [f8(3, 3), f8(4)], "LinAlgError"),
        ("solve", [sing, f8(2)], "LinAlgError"),
        ("solve", [f8(2, 2), V("f8", [1.0, nan])], "LinAlgError"),
        ("solve", [nanm, f8(2)], "LinAlgError"),
        ("solve_kw", [f8(3, 3), f8(3)], None),
        ("solve_mixed", [f8(2, 2), f4(2)], "TypingError"),
        # cholesky: the lower factor; only the lower triangle is read
        ("cholesky", [spd(4)], None), ("cholesky", [spd(6, "f4")], None),
        ("cholesky", [spd(5).F], None), ("cholesky", [spd(1)], None),
        ("cholesky", [spd(40)], None), ("cholesky_check", [spd(30)], None),
        ("cholesky", [spd(8).view("::-1, ::-1")], None),
        ("cholesky", [V("f8", [4.0, 99.0, 2.0, 5.0], (2, 2))], None),
        ("cholesky", [f8(0, 0)], None),
        ("cholesky", [V("f8", [1.0, 2.0, 2.0, 1.0], (2, 2))], "LinAlgError"),
        ("cholesky", [V("f8", [-1.0, 0.0, 0.0, 1.0], (2, 2))],
         "LinAlgError"),
        ("cholesky", [V("f8", [0.0, 0.0, 0.0, 0.0], (2, 2))], "LinAlgError"),
        ("cholesky", [V("f8", [4.0, 0.0, nan, 5.0], (2, 2))], None),
        ("cholesky", [V("f8", [4.0, 0.0, 1.0, nan], (2, 2))], None),
        ("cholesky", [V("f8", [inf, 0.0, 1.0, 5.0], (2, 2))], None),
        ("cholesky", [V("f8", [4.0, 0.0, inf, 5.0], (2, 2))], "LinAlgError"),
        ("cholesky", [f8(2, 3)], "LinAlgError"),
        ("cholesky_int", [i8(2, 2)], "TypingError"),
        ("cholesky", [f8(3)], "TypingError"),
        ("cholesky", [V("c16", [2.0, 0.0, 0.0, 2.0], (2, 2))],
         None),
        # qr: reduced, LAPACK's signs
        *[(k, [a], None) for k in ("qr_q", "qr_r", "qr_check")
          for a in (f8(4, 4), f8(6, 3), f8(3, 6), f4(5, 4), f8(5, 5).F,
                    f8(8, 6).view("::-2, ::2"), f8(1, 1), f8(1, 4),
                    f8(4, 1), f8(40, 30))],
        ("qr_r", [V("f8", [0.0] * 6, (3, 2))], None),
        ("qr_q", [V("f8", [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], (3, 2))], None),
        ("qr_q", [f8(0, 3)], "LinAlgError"), ("qr_r", [f8(3, 0)],
                                               "LinAlgError"),
        ("qr_q", [nanm], "LinAlgError"), ("qr_r", [infm], "LinAlgError"),
        ("qr_1d", [f8(3)], "TypingError"),
        ("qr_q", [c16(2, 2)], None),
        # matrix_power: Numba's products, inv for negative powers
        *[("matrix_power", [f8(5, 5, lo=-1, hi=1), S(p)], None)
          for p in ("0", "1", "2", "3", "4", "5", "7", "13", "-1", "-3",
                    "int32:6", "uint8:9")],
        ("matrix_power", [f4(4, 4, lo=-1, hi=1), S("6")], None),
        ("matrix_power", [f8(6, 6, lo=-1, hi=1).F, S("5")], None),
        ("matrix_power", [f8(6, 6, lo=-1, hi=1).view("::-1, ::-1"), S("3")],
         None),
        ("matrix_power", [f8(2, 3), S("0")], None),
        ("matrix_power", [f8(0, 0), S("3")], None),
        ("matrix_power", [f8(0, 0), S("-2")], None),
        ("matrix_power", [f8(2, 3), S("2")], "ValueError"),
        ("matrix_power", [sing, S("-2")], "LinAlgError"),
        ("matrix_power", [nanm, S("-1")], "LinAlgError"),
        ("matrix_power", [nanm, S("2")], None),
        ("matrix_power_kw", [f8(3, 3), S("3")], None),
        ("matrix_power", [f8(3, 3), S("true")], "TypingError"),
        ("matrix_power_float", [f8(3, 3)], "TypingError"),
        ("matrix_power", [i8(3, 3), S("2")], "TypingError"),
        # svd: singular values directly, the factors by reconstruction
        *[(k, [a], None) for k in ("svd_s", "svd_check", "svd_reduced")
          for a in (f8(4, 4), f8(7, 3), f8(3, 7), f4(5, 4), f8(5, 5).F,
                    f8(8, 6).view("::-2, ::2"), f8(1, 1), f8(1, 5),
                    f8(5, 1), f8(40, 30), f8(20, 33), sing,
                    V("f8", [0.0] * 6, (2, 3)),
                    V("f8", [1e300, 2e300, -1e300, 5e299], (2, 2)),
                    V("f8", [1e-300, 2e-300, -1e-300, 5e-301], (2, 2)),
                    # the QR-reduced SVD: tall, wide, rank-deficient,
                    # ill-conditioned
                    f8(200, 12), f8(12, 150).view("::-1, :"),
                    product(30, 5, 20), product(8, 3, 40), hilbert(10),
                    hilbert(12),
                    # Golub-Kahan: graded (diag(10^-k) rotated),
                    # repeated, rank-deficient spectra, float32
                    spectrum(8, 8, [10.0 ** -k for k in range(8)]),
                    spectrum(12, 9, [10.0 ** (-2 * k) for k in range(9)]),
                    spectrum(6, 10, [10.0 ** -k for k in range(6)]),
                    spectrum(9, 9, [3.0] * 4 + [1.0] * 5),
                    spectrum(7, 5, [2.0] * 5), spectrum(5, 8, [2.0] * 5),
                    spectrum(10, 10, [5.0, 4, 3, 2, 1] + [0.0] * 5),
                    spectrum(9, 6, [10.0 ** -k for k in range(6)], "f4"),
                    spectrum(6, 6, [3.0] * 3 + [1.0] * 3, "f4"),
                    f4(1, 7), f4(7, 1), f4(20, 11), f4(11, 20),
                    f8(130, 129), f8(64, 64).F)],
        *[("svd_orth", [a, S(f)], None)
          for a in (f8(60, 5), f8(5, 60), product(30, 5, 20), hilbert(9))
          for f in ("true", "false")],
        *[("matrix_rank", [a], None)
          for a in (product(30, 5, 20), product(8, 3, 40), hilbert(10),
                    spectrum(10, 10, [5.0, 4, 3, 2, 1] + [0.0] * 5),
                    spectrum(12, 9, [10.0 ** (-2 * k) for k in range(9)]))],
        *[("svd_orth", [a, S(f)], None)
          for a in (spectrum(9, 9, [3.0] * 4 + [1.0] * 5),
                    spectrum(10, 10, [5.0, 4, 3, 2, 1] + [0.0] * 5),
                    spectrum(12, 9, [10.0 ** (-2 * k) for k in range(9)]),
                    f4(9, 4), f4(4, 9))
          for f in ("true", "false")],
        # the largest value only: the smallest, 1e-7 here, has an
        # absolute error of eps |a| (LAPACK's too), not 4 n eps relative
        ("norm_ord", [spectrum(8, 8, [10.0 ** -k for k in range(8)]),
                      S("2")], None),
        *[(k, [spectrum(7, 5, [10.0 ** -k for k in range(5)])], None)
          for k in ("pinv", "pinv_check")],
        *[(k, [a], "LinAlgError") for k in ("svd_s", "svd_reduced")
          for a in (f8(0, 4), f8(4, 0))],
        ("cond", [f8(300, 7)], None), ("cond", [f8(7, 300)], None),
        *[("svd_orth", [a, S(f)], None)
          for a in (f8(6, 4), f8(4, 6), f8(5, 5), sing,
                    V("f8", [0.0] * 6, (3, 2)))
          for f in ("true", "false", "0", "2")],
        ("svd_s", [f8(0, 3)], "LinAlgError"),
        ("svd_check", [nanm], "LinAlgError"),
        ("svd_s", [infm], "LinAlgError"),
        ("svd_int", [i8(3, 3)], "TypingError"),
        # the matrix 2-norms: largest / smallest singular value
        *[("norm_ord", [a, S(o)], None) for o in ("2", "-2", "int8:-2")
          for a in (f8(5, 3), f8(3, 5), f4(4, 4), f8(12, 12).F)],
        # singular: the zero singular value is 0.0 here, LAPACK's 2e-16
        # (both rounding of |a| ~ 5: an absolute, not relative, bound)
        ("norm_ord", [sing, S("2")], None),
        ("norm_ord", [nanm, S("2")], "LinAlgError"),
        ("norm_2_matrix", [f8(3, 4)], None),
        # cond: singular values for None / 2 / -2, else norm * norm(inv)
        *[("cond", [a], None) for a in (f8(4, 4), f8(5, 3), f8(3, 5),
                                        f4(4, 4), f8(6, 6).F)],
        *[("cond_p", [f8(5, 5), S(p)], None)
          for p in ("2", "-2", "1", "-1", "inf", "-inf", "int32:2")],
        ("cond_p", [f4(4, 4), S("1")], None),
        ("cond", [V("f8", [0.0] * 4, (2, 2))], None),
        ("cond_p", [V("f8", [0.0] * 4, (2, 2)), S("-2")], None),
        ("cond_p", [f8(3, 4), S("1")], "LinAlgError"),
        ("cond_p", [f8(3, 3), S("3")], "ValueError"),
        ("cond_p", [sing, S("1")], "LinAlgError"),
        ("cond", [nanm], "LinAlgError"), ("cond", [f8(0, 2)], "LinAlgError"),
        ("cond", [f8(3)], "TypingError"),
        # matrix_rank
        *[("matrix_rank", [a], None)
          for a in (f8(4, 4), f8(6, 3), f8(3, 6), f4(5, 5), sing,
                    V("f8", [0.0] * 6, (2, 3)), f8(5),
                    V("f8", [0.0, 0.0, 1e-300], (3,)), V("f8", [0.0] * 3),
                    f8(0))],
        ("matrix_rank_tol", [V("f8", [1.0, 0, 0, 0, 1e-3, 0, 0, 0, 1e-9],
                               (3, 3)), S("1e-6")], None),
        ("matrix_rank_tol", [f8(4, 4), S("100")], None),
        ("matrix_rank", [nanm], "LinAlgError"),
        ("matrix_rank", [i8(3, 3)], "TypingError"),
        # pinv
        *[(k, [a], None) for k in ("pinv", "pinv_check")
          for a in (f8(4, 4), f8(6, 3), f8(3, 6), f4(5, 4), sing,
                    f8(7, 7).view("::-1, ::2"), V("f8", [0.0] * 6, (2, 3)))],
        ("pinv", [f8(0, 3)], None), ("pinv", [f8(2, 0)], None),
        ("pinv_rcond", [V("f8", [1.0, 0, 0, 1e-10], (2, 2)), S("1e-6")],
         None),
        # rcond >= 1: Numba's cut leaves s[0] v0 u0^T, s[0] not inverted
        ("pinv_rcond", [V("f8", [3.0, 0, 0, -4], (2, 2)), S("2.0")], None),
        ("pinv_rcond", [f8(5, 3), S("1.0")], None),
        ("pinv_rcond", [f4(3, 4), S("3.0")], None),
        ("pinv", [nanm], "LinAlgError"),
        ("pinv", [f8(3)], "TypingError"),
    ]


def numba_dtype(kernel, vals):
    """The dtype of Numba's result (numba/np/linalg.py's typing)."""
    a = vals[0]
    if kernel in ("norm", "norm_none") and a.ndim == 1:
        return a.dtype
    if kernel.startswith(("inv", "solve", "cholesky", "qr",
                          "matrix_power", "svd", "pinv")):
        return a.dtype
    if kernel.startswith("matrix_rank"):
        return np.dtype(np.int64)
        return a.dtype
    return np.dtype(np.float64)


def reference(fn, kernel, vals, raises):
    """Numba's result, or without SciPy NumPy's in Numba's dtype: None
    where the case says Numba raises (NumPy does not check as Numba
    does: finite matrices, ndim, dtypes)."""
    try:
        r = fn(*vals)
    except ImportError as e:
        if "scipy" not in str(e):
            raise
        if raises:
            return None, False
        with np.errstate(all="ignore"):
            r = fn.py_func(*vals)
        return np.asarray(r).astype(numba_dtype(kernel, vals)), False
    if kernel.startswith("norm") and vals[0].ndim == 1 and \
            vals[0].strides[0] < 0:
        # Numba's accident: it hands BLAS nrm2 the negative stride, which
        # reads other elements (9.0 where NumPy gives 12.85 for
        # arange(1., 10.)[::-2]); ufjit gives NumPy's
        with np.errstate(all="ignore"):
            r = fn.py_func(*vals)
    if kernel.startswith("norm"):  # a float32 result boxes as a float
        return np.asarray(r).astype(numba_dtype(kernel, vals)), True
    return as_array(r), True


def tolerance(kernel, vals):
    n = max([max(v.shape, default=1) for v in vals
             if isinstance(v, np.ndarray)] + [1])
    eps = np.finfo(np.float32 if vals[0].dtype == np.float32
                   else np.float64).eps
    return (4 if kernel.startswith("norm") else 1000) * n * eps


def same(got, want, rtol):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.size == 0:
        return True
    big = np.max(np.abs(want[np.isfinite(want)]), initial=0.0)
    return np.allclose(got, want, rtol=rtol, atol=rtol * big,
                       equal_nan=True) and \
        np.array_equal(np.isinf(got), np.isinf(want))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    mod, rec = lazy_load(FILE), Record(FILE)
    fails = n = fallback = 0
    warnings.simplefilter("ignore")
    seen = {}
    with tempfile.TemporaryDirectory(prefix="ufjit-nplinalg-") as tmp:
        for kernel, inputs, raises, *value in cases():
            seen[kernel] = seen.get(kernel, 0) + 1
            cid = f"{kernel}#{seen[kernel]}"
            if opt.filter not in cid:
                continue
            n += 1
            vals, args = materialise(cid, inputs, tmp)
            probs, want = [], None
            ours = raises[6:] if raises and raises.startswith("ufjit:") \
                else None

            def answer():
                try:
                    return reference(getattr(mod(), kernel), kernel, vals,
                                     raises) + (None, "")
                except Exception as e:  # noqa: BLE001
                    return None, True, type(e).__name__, str(e)
            want, real, name, msg = rec.answer(
                rec.key(kernel, raises, vals), vals, answer)
            if name is None:
                fallback += not real
                if value:
                    want = np.asarray(value[0], dtype=want.dtype)
                if raises and not ours and real:
                    probs.append("Numba does not raise")
            elif name == "ImportError":
                pass  # Numba cannot type it without SciPy
            elif name != raises:
                probs.append(f"Numba raises {name}: {msg}, the case "
                             f"expects {raises}")
            p, out, cmd = run_ufjit(opt.ufjit, FILE, kernel, args, tmp, cid)
            if ours == "refused" or raises == "TypingError":
                if p.returncode != 1 or f"{FILE}:" not in p.stderr:
                    probs.append(f"ufjit did not refuse it at FILE:LINE:COL"
                                 f": exit {p.returncode} {p.stderr.strip()}")
            elif raises:
                mark = f"{ours or raises}:"
                if p.returncode != 1 or mark not in p.stderr:
                    probs.append(f"ufjit did not raise {ours or raises}: "
                                 f"exit {p.returncode} {p.stderr.strip()}")
            elif p.returncode != 0:
                probs.append(f"ufjit exited {p.returncode}: "
                             f"{p.stderr.strip()}\n  {cmd}")
            elif want is not None:
                got = np.load(out)
                if not same(got, want, tolerance(kernel, vals)):
                    probs.append(f"ufjit {got.dtype} {got!r}, Numba "
                                 f"{want.dtype} {want!r}\n  {cmd}")
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs))
            elif opt.verbose:
                print(f"ok   {cid}")
    how = (f" ({fallback} through NumPy in Numba's types: no SciPy for "
           f"Numba's LAPACK)" if fallback else "")
    rec.close()
    print(f"{n - fails}/{n} nplinalg cases agree with Numba{how}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
