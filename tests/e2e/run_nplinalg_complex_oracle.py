#!/usr/bin/env python3
"""np.linalg of complex64 / complex128 matrices inside kernels
(tests/kernels/host/nplinalg_complex.py) against Numba (LAPACK's c* / z*
routines through SciPy): each case runs through `ufjit call` and through
Numba on the same inputs; dtype and shape must agree; values within
tol = 8 n eps cond(a) of the largest magnitude of Numba's result (det:
of |det|; slogdet's log|det| within tol absolutely, its sign within
tol), eps a's precision, cond a's 1-norm condition number (LU results
agree with LAPACK's to rounding, not bit for bit). Where Numba raises,
ufjit fails with the same exception; what Numba refuses compiling ufjit
refuses at the kernel's FILE:LINE:COL.

    run_nplinalg_complex_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, c8, c16, f8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host",
                    "nplinalg_complex.py")
inf, nan = np.inf, np.nan


def cm(n, dt="c16", seed=7, scale=1.0):
    """A random complex n * n matrix of given values."""
    g = np.random.default_rng(seed)
    m = (g.uniform(-1, 1, (n, n)) + 1j * g.uniform(-1, 1, (n, n))) * scale
    return V(dt, m.ravel().tolist(), (n, n))


def hpd(n, dt="c16", seed=7, upper=None):
    """A Hermitian positive definite n * n matrix of given values (its
    upper triangle replaced by `upper` when given: not read)."""
    g = np.random.default_rng(seed)
    m = g.uniform(-1, 1, (n, n)) + 1j * g.uniform(-1, 1, (n, n))
    h = m @ m.conj().T + n * np.eye(n)
    if upper is not None:
        h[np.triu_indices(n, 1)] = upper
    return V(dt, h.ravel().tolist(), (n, n))


def chilbert(n, dt="c16"):
    """Hilbert's matrix times a unit phase per row (cond ~ Hilbert's)."""
    i = np.arange(n)
    h = 1.0 / (i[:, None] + i[None, :] + 1) * np.exp(1j * i)[:, None]
    return V(dt, h.ravel().tolist(), (n, n))


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "TypingError" Numba's typing fails and ufjit refuses)."""
    sing = V("c16", [1 + 1j, 2 + 2j, 2 + 2j, 4 + 4j], (2, 2))
    nanm = V("c16", [1, complex(nan, 0), 2, 3], (2, 2))
    infm = V("c16", [1, 2, complex(0, inf), 3], (2, 2))
    nan8 = V("c8", [1, 2, complex(1, nan), 3], (2, 2))
    out = []
    mats = [c16(1, 1), c16(2, 2), c16(3, 3), c16(7, 7), c16(5, 5).F,
            c16(8, 16).view("::-1, ::2"), c16(18, 9).view("1::2, ::-1"),
            cm(64), cm(130, seed=3), chilbert(6), cm(20, scale=1e-200),
            cm(12, scale=1e200), c8(1, 1), c8(4, 4), c8(6, 6).F,
            c8(16, 8).view("::-2, ::-1"), cm(50, "c8"), chilbert(4, "c8"),
            V("c16", [1j, 0, 0, 0, 0, 2, 0, 3j, 0], (3, 3)),
            V("c8", [0, 2 - 1j, 3, 0], (2, 2))]
    sizes = [1, 2, 3, 7, 5, 8, 9, 64, 130, 6, 20, 12, 1, 4, 6, 8, 50, 4]
    for k in ("det", "slogdet", "slogdet_sign", "inv"):
        out += [(k, [m], None) for m in mats]
        out += [(k, [c16(0, 0)], None), (k, [c8(0, 0)], None),
                (k, [nanm], "LinAlgError"), (k, [infm], "LinAlgError"),
                (k, [nan8], "LinAlgError"), (k, [c16(2, 3)], "LinAlgError"),
                (k, [c16(4)], "TypingError")]
        out += [(k, [sing], "LinAlgError" if k == "inv" else None),
                (k, [V("c8", [0, 0, 0, 0], (2, 2))],
                 "LinAlgError" if k == "inv" else None)]
    for k in ("solve", "solve_kw"):
        out += [(k, [m, c16(n)], None) for m, n in zip(mats[:12], sizes)]
        out += [(k, [m, c8(n, 3)], None)
                for m, n in zip(mats[12:18], sizes[12:])]
        out += [(k, [c16(5, 5), c16(5, 3)], None),
                (k, [c16(6, 6), c16(6, 8).view("::-1, ::2")], None),
                (k, [c16(4, 4), c16(8).view("::2")], None),
                (k, [cm(80), c16(80, 5)], None),
                (k, [c16(0, 0), c16(0)], None),
                (k, [c16(3, 3), c16(3, 0)], None),
                (k, [sing, c16(2)], "LinAlgError"),
                (k, [nanm, c16(2)], "LinAlgError"),
                (k, [c16(2, 2), V("c16", [1, complex(inf, 0)])],
                 "LinAlgError"),
                (k, [c16(3, 3), c16(4)], "LinAlgError"),
                (k, [c16(3, 3), c8(3)], "TypingError"),
                (k, [c8(3, 3), c16(3, 2)], "TypingError")]
    out += [("solve_mixed", [c16(3, 3), f8(3)], "TypingError")]
    for p in ("0", "1", "2", "3", "5", "8", "13", "-1", "-2", "-3", "-7"):
        out += [("matrix_power", [m, S(p)], None)
                for m in (c16(3, 3), c16(6, 6).view("::-1, :"), c8(4, 4),
                          cm(20, scale=0.3), c16(1, 1), c16(0, 0))]
    out += [("matrix_power", [c16(2, 3), S("0")], None),
            ("matrix_power", [c16(2, 3), S("2")], "ValueError"),
            ("matrix_power", [c16(2, 3), S("-1")], "ValueError"),
            ("matrix_power", [sing, S("-1")], "LinAlgError"),
            ("matrix_power", [nanm, S("-2")], "LinAlgError"),
            ("matrix_power", [nanm, S("2")], None),
            ("matrix_power", [c16(3, 3), S("1.5")], "TypingError"),
            ("det_in_loop", [c16(6, 6)], None),
            ("det_in_loop", [c8(5, 5)], None),
            ("inv_check", [c16(10, 10)], None),
            ("inv_check", [cm(40)], None),
            ("det_1d", [c16(4)], "TypingError")]
    # norm: vectors (every ord), matrices (None, 1, -1, inf, -inf)
    vecs = [c16(7), c8(9), c16(0), c8(0), c16(12).view("::3"),
            V("c16", [3 + 4j, 0, -1j, 0, 2]), V("c8", [1e10 + 1e10j, 1e10]),
            V("c16", [1e300 + 1e300j, -1e300j]), V("c16", [1e-300j, 3e-300]),
            V("c16", [1, complex(nan, 1), 2]), V("c16", [complex(0, inf), 1]),
            V("c8", [complex(inf, nan), 1])]
    matsn = [c16(3, 4), c16(4, 3).F, c16(6, 8).view("::-1, ::2"),
             c8(5, 5), c16(0, 3), c8(2, 0), V("c16", [1e300j, 1e300, 0, 1],
                                                 (2, 2)),
             V("c16", [1, complex(nan, 0), 2, 3], (2, 2))]
    out += [("norm", [v], None) for v in vecs + matsn]
    for o in ("inf", "-inf", "0", "1", "2", "3", "0.5", "-1.0", "-2.5"):
        out += [("norm_ord", [v, S(o)], None) for v in vecs]
    for o in ("inf", "-inf", "1", "-1"):
        out += [("norm_ord", [m, S(o)], None) for m in matsn]
    out += [("norm_ord", [c16(3, 3), S("3")], "ValueError"),
            ("norm_ord", [c16(3, 3), S("0")], "ValueError"),
            ("norm_ord", [c16(3, 3), S("2")], None),
            ("norm_ord", [c8(3, 3), S("-2")], None),
            ("norm_ord", [c16(7, 4), S("2")], None),
            ("norm_ord", [c16(4, 9).F, S("-2")], None),
            ("norm_ord", [chilbert(6), S("-2")], None),
            ("norm_ord", [V("c16", [1, complex(nan, 0), 2, 3], (2, 2)),
                          S("2")], "LinAlgError"),
            ("norm_ord", [c16(3), S("1j")], "refused-here"),
            ("norm_ord", [c16(2, 2, 2), S("1")], "TypingError"),
            ("norm_kw", [c8(6)], None), ("norm_kw", [c16(3, 5)], None)]
    # cholesky: Hermitian positive definite, the lower triangle read
    for m in (hpd(1), hpd(2), hpd(5), hpd(9, "c8"), hpd(40), hpd(100, seed=2),
              hpd(6, upper=nan), hpd(4, upper=1e300j), c16(0, 0), c8(0, 0),
              V("c16", [4, 0, 2j, 5], (2, 2)),
              V("c16", [4 + 3j, 0, 2j, 5 - 1j], (2, 2))):
        out += [("cholesky", [m], None), ("cholesky_check", [m], None)]
    out += [("cholesky", [V("c16", [1, 0, 2, 1], (2, 2))], "LinAlgError"),
            ("cholesky", [V("c16", [-1, 0, 0, 1], (2, 2))], "LinAlgError"),
            ("cholesky", [V("c8", [0, 0, 0, 0], (2, 2))], "LinAlgError"),
            ("cholesky", [V("c16", [4, 0, complex(nan, 0), 5], (2, 2))],
             None),
            ("cholesky", [c16(2, 3)], "LinAlgError"),
            ("cholesky", [c16(3)], "TypingError")]
    # qr: q and r against Numba's element by element (zgeqrf's signs)
    for m in (c16(1, 1), c16(3, 3), c16(6, 4), c16(4, 6), c16(9, 9).F,
              c16(10, 16).view("::-1, ::2"), c8(5, 5), c8(7, 3), cm(40),
              c16(60, 12), V("c16", [1j, 2, 3j, 4], (2, 2)),
              V("c16", [2j, 0, 0, 0, -1, 5, 0, 0, 3j], (3, 3)),
              V("c16", [1, 1, 1, 1], (2, 2)), V("c8", [0, 0, 0, 0], (2, 2)),
              V("c16", [1e300, 1e300j, 1, 2], (2, 2))):
        out += [("qr", [m], None), ("qr_check", [m], None)]
    out += [("qr", [c16(0, 3)], "LinAlgError"),
            ("qr", [V("c16", [1, complex(0, nan)], (1, 2))], "LinAlgError"),
            ("qr", [c16(4)], "TypingError")]
    # eigh / eigvalsh: eigenvalues against Numba's, vectors up to phase
    g = np.random.default_rng(5)
    q, _ = np.linalg.qr(g.uniform(-1, 1, (6, 6)) + 1j * g.uniform(-1, 1, (6, 6)))
    rep = q @ np.diag([1, 1, 1, 2, 2, -3.0]) @ q.conj().T  # repeated
    rep = V("c16", rep.ravel().tolist(), (6, 6))
    # close eigenvalues, where the vectors are ill-determined but must
    # still be orthonormal to n eps (the old real 2n embedding's were
    # only to eps |a| / gap): I plus a tiny Hermitian perturbation, a
    # cluster 1e-9 wide beside well separated ones, a 2 x 2 split by
    # 1e-14, I itself, and rep's exact repeats in complex64
    def near_i(n, tiny, dt="c16", seed=11):
        g = np.random.default_rng(seed)
        m = g.uniform(-1, 1, (n, n)) + 1j * g.uniform(-1, 1, (n, n))
        h = np.eye(n) + tiny * (m + m.conj().T)
        return V(dt, h.ravel().tolist(), (n, n))

    def cluster(n, dt="c16", seed=13):
        g = np.random.default_rng(seed)
        q, _ = np.linalg.qr(g.uniform(-1, 1, (n, n)) +
                            1j * g.uniform(-1, 1, (n, n)))
        w = np.concatenate([1 + 1e-9 * np.arange(n // 2),
                            np.linspace(-5, 7, n - n // 2)])
        h = q @ np.diag(w) @ q.conj().T
        return V(dt, h.ravel().tolist(), (n, n))
    clusters = (near_i(6, 1e-12), near_i(30, 1e-10), near_i(50, 1e-15),
                near_i(16, 1e-6, "c8"), cluster(10), cluster(41),
                V("c16", [1, 0, 1e-14j, 1], (2, 2)),
                V("c16", np.eye(5).ravel().tolist(), (5, 5)),
                V("c8", rep.values, (6, 6)))
    for m in (hpd(1), hpd(2), hpd(5), hpd(8, "c8"), hpd(40), hpd(70, seed=3),
              hpd(64, seed=1), hpd(80, seed=2), hpd(80, "c8", seed=4),
              cm(7), cm(9, "c8"), c16(10, 10).F, c16(12, 12).view("::2, ::-2"),
              V("c16", [2, 0, 1j, 2], (2, 2)),
              V("c16", [1 + 5j, 0, 0, 1 - 5j], (2, 2)), rep,
              V("c16", [0] * 9, (3, 3)), cm(5, scale=1e200),
              cm(5, scale=1e-200), c16(0, 0), c8(0, 0),
              V("c16", [complex(3, 7)], (1, 1)), *clusters):
        out += [("eigvalsh", [m], None), ("eigh_w", [m], None),
                ("eigh_check", [m], None)]
    for k in ("eigvalsh", "eigh_w"):
        out += [(k, [c16(2, 3)], "LinAlgError"),
                (k, [hpd(6, upper=nan)], "LinAlgError"),
                (k, [V("c16", [1, complex(0, inf), 0, 1], (2, 2))],
                 "LinAlgError"),
                (k, [c16(4)], "TypingError")]
    # cond, matrix_rank: through the singular values of the real
    # [[A, -B], [B, A]] (each twice)
    def rank(m, r, n, dt="c16", seed=7):
        g = np.random.default_rng(seed)
        x = ((g.uniform(-1, 1, (m, r)) + 1j * g.uniform(-1, 1, (m, r))) @
             (g.uniform(-1, 1, (r, n)) + 1j * g.uniform(-1, 1, (r, n))))
        return V(dt, x.ravel().tolist(), (m, n))
    for m in (c16(1, 1), c16(4, 4), c16(6, 3), c16(3, 7).F, c8(5, 5),
              cm(30), chilbert(5), rank(6, 2, 6), rank(8, 3, 5),
              rank(5, 1, 9, "c8"), c16(8, 12).view("::-1, ::2")):
        out += [("cond", [m], None), ("matrix_rank", [m], None)]
        out += [("cond_p", [m, S(p)], None) for p in ("2", "-2")]
    for m in (c16(4, 4), c8(5, 5), cm(20), chilbert(4)):
        out += [("cond_p", [m, S(p)], None)
                for p in ("1", "-1", "inf", "-inf")]
    out += [("matrix_rank_tol", [rank(6, 2, 6), S("1e-3")], None),
            ("matrix_rank_tol", [c16(5, 5), S("100.0")], None),
            ("matrix_rank", [c16(5)], None),
            ("matrix_rank", [V("c16", [0, 0, 1e-300j])], None),
            ("matrix_rank", [V("c8", [0, 0])], None),
            ("matrix_rank", [c16(0, 3)], "LinAlgError"),
            ("cond", [c16(0, 0)], "LinAlgError"),
            ("cond", [V("c16", [1, 2, complex(3, inf), 4], (2, 2))],
             "LinAlgError"),
            ("matrix_rank", [V("c16", [1, 2, complex(3, nan), 4], (2, 2))],
             "LinAlgError"),
            ("cond_p", [c16(2, 3), S("1")], "LinAlgError"),
            ("cond_p", [sing, S("1")], "LinAlgError"),
            ("cond", [c16(4)], "TypingError")]
    # svd: s against Numba's, u and vh orthonormal, u s vh against a
    zero = V("c16", [0] * 6, (3, 2))
    svdm = [c16(1, 1), c16(4, 4), c16(6, 3), c16(3, 7).F, c8(5, 5),
            c8(7, 4), cm(30), chilbert(5), rank(6, 2, 6), rank(8, 3, 5),
            rank(5, 1, 9, "c8"), c16(8, 12).view("::-1, ::2"), zero,
            cm(6, scale=1e200), cm(5, scale=1e-200), c16(40, 9),
            V("c16", [1j, 0, 0, 1j], (2, 2)), rep]
    for m in svdm:
        out += [("svd", [m], None), ("svd_s", [m], None)]
        out += [(k, [m, S(f)], None) for k in ("svd_kw", "svd_check")
                for f in ("true", "false")]
    out += [("svd", [c16(0, 3)], "LinAlgError"),
            ("svd", [c8(2, 0)], "LinAlgError"),
            ("svd", [nanm], "LinAlgError"), ("svd", [infm], "LinAlgError"),
            ("svd_s", [nan8], "LinAlgError"),
            ("svd_kw", [c16(3, 4), S("0")], None),
            ("svd_kw", [c16(4, 3), S("2")], None),
            ("svd", [c16(4)], "TypingError")]
    # pinv: to cond(a) n eps of its largest element
    full = [m for i, m in enumerate(svdm) if i not in (8, 9, 10)]
    for m in full + [c16(0, 3), c8(2, 0)]:  # rank(): its zeros at the cut
        out += [("pinv", [m], None)]
    out += [("pinv_rcond", [m, S(r)], None)
            for m in (rank(6, 2, 6), chilbert(5), c16(5, 3), cm(8, "c8"))
            for r in ("1e-3", "0.5", "2.0")]
    out += [("pinv_rcond", [m, S("0.0")], None)
            for m in (chilbert(5), c16(5, 3), cm(8, "c8"))]
    out += [("pinv", [nanm], "LinAlgError"), ("pinv", [infm], "LinAlgError"),
            ("pinv", [c16(4)], "TypingError")]
    # lstsq: x, residuals (the parts' float), rank, s
    for a, b in ((c16(6, 3), c16(6)), (c16(6, 3), c16(6, 2)),
                 (c16(4, 4), c16(4)), (c16(3, 5), c16(3)),
                 (c16(3, 5), c16(3, 4)), (c8(7, 4), c8(7)),
                 (c8(4, 6), c8(4, 2)), (chilbert(6), c16(6)),
                 (cm(30), c16(30, 2)), (c16(10, 4).F, c16(10).view("::-1")),
                 (c16(12, 8).view("::2, ::-2"), c16(6, 2)),
                 (zero, c16(3)), (cm(5, scale=1e200), c16(5))):
        out += [("lstsq", [a, b], None)]
    out += [("lstsq_rcond", [m, b, S(r)], None)
            for m, b in ((rank(8, 3, 5), c16(8)), (rank(6, 2, 9), c16(6, 3)),
                         (rank(7, 2, 4, "c8"), c8(7)))
            for r in ("1e-3", "0.5", "1e-10")
            if r != "1e-10" or m.dtype != np.complex64]  # its zeros ~1e-7
    out += [("lstsq_rcond", [c16(7, 4), c16(7), S(r)], None)
            for r in ("0.0", "-1.0", "0.9", "1.5", "int64:2")]
    out += [("lstsq", [c16(0, 3), c16(0)], "LinAlgError"),
            ("lstsq", [c16(3, 2), c16(3, 0)], "LinAlgError"),
            ("lstsq", [c16(4, 2), c16(3)], "LinAlgError"),
            ("lstsq", [nanm, c16(2)], "LinAlgError"),
            ("lstsq", [c16(2, 2), V("c16", [1, complex(inf, 0)])],
             "LinAlgError"),
            ("lstsq", [c8(3, 2), V("c8", [1, complex(0, nan), 2])],
             "LinAlgError"),
            ("lstsq_mixed", [c16(3, 2), c8(3)], "TypingError"),
            ("lstsq_mixed", [c16(3, 2), f8(3)], "TypingError"),
            ("lstsq", [c16(3, 2, 2), c16(3)], "TypingError")]
    # eig / eigvals: eigenvalues against Numba's as a set, vectors by
    # a v - v w and their norms
    g = np.random.default_rng(9)
    p = g.uniform(-1, 1, (5, 5)) + 1j * g.uniform(-1, 1, (5, 5))
    diag = p @ np.diag([1, 2j, -3, 1 + 1j, 0.5]) @ np.linalg.inv(p)
    diag = V("c16", diag.ravel().tolist(), (5, 5))
    jordan = V("c16", [2j, 1, 0, 2j], (2, 2))
    perm = V("c16", [0, 0, 1, 1, 0, 0, 0, 1, 0], (3, 3))
    for m in (c16(1, 1), c16(2, 2), c16(4, 4), c16(7, 7), c16(5, 5).F,
              c16(12, 12).view("::2, ::-2"), cm(30), cm(64, seed=4),
              c8(3, 3), c8(6, 6), cm(20, "c8"), diag, jordan, perm, rep,
              hpd(6), V("c16", [0] * 9, (3, 3)),
              V("c16", [1, 2, 3, 0, 4j, 5, 0, 0, 6], (3, 3)),
              c16(0, 0), c8(0, 0)):
        out += [("eig", [m], None), ("eigvals", [m], None),
                ("eig_check", [m], None)]
    # |a| near 1e+-200: SciPy's zgeev (Numba's) returns eigenvalues scaled
    # by 1e-+62 there (NumPy's are ufjit's: test_nplinalg_complex checks
    # them), so only the vectors' invariants
    out += [("eig_check", [cm(6, scale=x)], None) for x in (1e200, 1e-200)]
    for k in ("eig", "eigvals"):
        out += [(k, [c16(2, 3)], "LinAlgError"), (k, [nanm], "LinAlgError"),
                (k, [infm], "LinAlgError"), (k, [nan8], "LinAlgError")]
    out += [("eig_1d", [c16(4)], "TypingError")]
    return out


def tolerance(kernel, vals):
    a = np.asarray(vals[0])
    n = max(a.shape[0], 1)
    eps = np.finfo(np.float32 if a.dtype == np.complex64
                   else np.float64).eps
    with np.errstate(all="ignore"):
        c = np.linalg.cond(a.astype(np.complex128), 1) \
            if a.size and a.shape[0] == a.shape[1] else 1.0
    if kernel == "matrix_power":
        p = abs(int(vals[1]))
        c = c ** max(p, 1) if int(vals[1]) < 0 else 1.0
        return 8 * n * eps * max(p, 1) * (c if np.isfinite(c) else 1e300)
    if kernel == "qr":  # Householder: backward stable, factors to cond
        a = np.asarray(vals[0])
        with np.errstate(all="ignore"):
            s = np.linalg.svd(a.astype(np.complex128), compute_uv=False)
        c = s[0] / s[-1] if s[-1] > 0 else np.inf
        n = max(a.shape)
    if not np.isfinite(c):
        c = 1.0 / eps
    return 8 * n * eps * max(c, 1.0)


def orthonormal(x, t):
    """x's columns, or its rows, orthonormal to t."""
    x = x.astype(np.complex128)
    c = np.abs(x.conj().T @ x - np.eye(x.shape[1])).max()
    r = np.abs(x @ x.conj().T - np.eye(x.shape[0])).max()
    return bool(min(c, r) <= t)


def matched(got, want, t):
    """The multisets got and want the same within t: each of want's
    nearest unused element of got."""
    left = list(got.astype(np.complex128))
    for w in want.astype(np.complex128):
        j = int(np.argmin([abs(g - w) for g in left]))
        if abs(left[j] - w) > t:
            return False
        left.pop(j)
    return True


def same_svd_eig(got, want, kernel, vals):
    """svd, pinv, lstsq, eig, eigvals (dtype and shape already equal): s,
    ranks and residuals against Numba's; singular and eigenvectors by
    their invariants (their phases are free)."""
    a = np.asarray(vals[0]).astype(np.complex128)
    eps = np.finfo(np.float32 if np.asarray(vals[0]).dtype == np.complex64
                   else np.float64).eps
    n = max(max(a.shape), 1)
    big = np.abs(a).max(initial=0.0)
    if got.dtype.kind == "i" or got.ndim == 0:  # lstsq's rank
        return bool(np.array_equal(got, want))
    if kernel.startswith("eig"):
        if got.ndim == 1:  # the eigenvalues, in Schur orders of their own
            # a random matrix's eigenvalues: conditioned to ~ 1e3
            return matched(got, want, 1e3 * n * eps * max(big, 1e-300))
        for k in range(got.shape[1]):  # zgeev's: a largest one real
            m = np.abs(got[:, k])
            top = m >= m.max() * (1 - 64 * n * eps)
            if not np.any(top & (got[:, k].imag == 0) & (got[:, k].real > 0)):
                return False
        return True
    s = np.linalg.svd(a, compute_uv=False) if a.size else np.zeros(0)
    s0 = s[0] if s.size else 0.0
    if got.dtype.kind == "f":  # s, or lstsq's residuals
        t = 64 * n * eps * max(s0, 1e-300)
        if kernel.startswith("lstsq"):  # either: |b|^2 scales residuals
            b = np.asarray(vals[1]).astype(np.complex128)
            t = max(t, 64 * n * eps * np.abs(b).max() ** 2 * b.shape[0])
        return bool(np.all(np.abs(got - want) <= t))
    if kernel == "svd_check":  # u s vh against Numba's: both a
        return bool(np.abs(got - want).max() <= 64 * n * eps * s0)
    if kernel.startswith("svd"):  # u or vh
        return orthonormal(got, 64 * n * eps)
    # pinv, lstsq's x: to cond(a) n eps (within the cut's rank)
    r = np.sum(s > s0 * 1e-12) if s.size else 0
    c = s[0] / s[r - 1] if r else 1.0
    scale = max(np.abs(want).max(initial=0.0), 1e-300)
    return bool(np.abs(got - want).max(initial=0.0) <=
                256 * n * eps * max(c, 1.0) * scale)


def same(got, want, kernel, vals):
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.size == 0:
        return True
    if kernel == "inv_check":  # a @ inv(a) - I: small
        return bool(np.max(np.abs(got)) <= tolerance("inv", vals))
    if kernel == "qr_check":  # backward error and orthonormality
        eps = np.finfo(np.float32 if np.asarray(vals[0]).dtype ==
                       np.complex64 else np.float64).eps
        return bool(got <= 16 * max(np.asarray(vals[0]).shape) * eps)
    if kernel in ("eigh_check", "eig_check"):  # backward error, norms
        a = np.asarray(vals[0])
        eps = np.finfo(np.float32 if a.dtype == np.complex64
                       else np.float64).eps
        return bool(got <= 32 * max(a.shape[0], 1) * eps)
    if kernel in ("eigvalsh", "eigh_w"):  # to n eps of the largest |w|
        a = np.asarray(vals[0])
        eps = np.finfo(np.float32 if a.dtype == np.complex64
                       else np.float64).eps
        big = np.max(np.abs(want), initial=0.0)
        return bool(np.all(np.abs(got - want) <= 32 * a.shape[0] * eps *
                           big))
    if kernel == "cholesky_check":  # L L^H - a: Numba's to 16 n eps
        a = np.asarray(vals[0])
        eps = np.finfo(np.float32 if a.dtype == np.complex64
                       else np.float64).eps
        big = np.max(np.abs(np.tril(a)), initial=0.0)
        return bool(np.all(np.abs(got - want) <= 16 * a.shape[0] * eps *
                           big))
    if kernel.startswith(("svd", "pinv", "lstsq", "eig")):
        return same_svd_eig(got, want, kernel, vals)
    if kernel.startswith("matrix_rank"):
        return bool(np.array_equal(got, want))
    if kernel.startswith("cond"):  # s[0] / s[-1]: each s to n eps s[0]
        a = np.asarray(vals[0])
        eps = np.finfo(np.float32 if a.dtype == np.complex64
                       else np.float64).eps
        t = 64 * max(a.shape) * eps
        return bool(np.allclose(got, want, rtol=t * max(float(want), 1.0),
                                atol=t))
    if kernel.startswith("norm"):  # Numba's loops: a few eps
        eps = np.finfo(np.float32 if np.asarray(vals[0]).dtype.itemsize
                       == 8 else np.float64).eps
        a = np.asarray(vals[0])
        n = max(a.size, 1)
        # ord -2 of a matrix: its smallest singular value, to n eps |a|
        atol = 0.0 if a.ndim == 1 or len(vals) < 2 or float(vals[1]) != -2 \
            else 64 * n * eps * np.linalg.norm(a.astype(np.complex128))
        return bool(np.allclose(got, want, rtol=4 * n * eps, atol=atol,
                                equal_nan=True))
    tol = tolerance(kernel, vals)
    fin = np.isfinite(want)
    if not np.array_equal(fin, np.isfinite(got)):
        return False
    if kernel == "slogdet" and got.dtype == np.float64:  # log|det|
        return bool(np.all((got == want) | (np.abs(got - want) <= tol)))
    if kernel == "slogdet_sign" or (kernel == "slogdet" and
                                    got.dtype.kind == "c"):
        return bool(np.all(np.abs(got - want) <= tol))
    big = np.max(np.abs(want[fin]), initial=0.0)
    err = np.abs(got[fin].astype(np.complex128) - want[fin])
    return bool(np.all(err <= tol * big)) and \
        np.array_equal(got[~fin], want[~fin], equal_nan=True)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "nplinalg_complex", same)


if __name__ == "__main__":
    sys.exit(main())
