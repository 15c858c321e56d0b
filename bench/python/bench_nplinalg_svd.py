#!/usr/bin/env python3
"""The real SVD's speed (issue 18, session 27: common/nplinalg_gk.c's
Golub-Kahan bidiagonalisation + nplinalg_bdsqr.c's bidiagonal QR)
against NumPy's LAPACK (dgesdd; gelsd for lstsq) in one process, on
float64 matrices: np.linalg.svd with full_matrices=False, cond (the
singular values alone, as compute_uv=False: Numba has no compute_uv),
and lstsq with one right-hand side, at n = 8, 32, 128,
256 square and 512 x 64 tall. Times are CPU time (time.process_time),
the best of N calls, so that a loaded machine's waits are not counted;
run with OPENBLAS_NUM_THREADS=1 (NumPy's LAPACK single-threaded, as
ufjit's solvers are). The results are checked against NumPy's first
(singular values to 1e-10 relative to s[0]).
usage: OPENBLAS_NUM_THREADS=1 PYTHONPATH=build/python \\
    python3 bench/python/bench_nplinalg_svd.py [N]"""

import sys
import time

import numpy as np

from ufjit import njit


@njit
def svd_uv(a):
    return np.linalg.svd(a, full_matrices=False)


@njit
def cond(a):
    # the singular values alone (Numba's svd has no compute_uv)
    return np.linalg.cond(a)


@njit
def lstsq_x(a, b):
    return np.linalg.lstsq(a, b)[0]


def best(fun, args, n):
    """CPU seconds of the fastest of n calls."""
    t = float("inf")
    for _ in range(n):
        t0 = time.process_time()
        fun(*args)
        t = min(t, time.process_time() - t0)
    return t


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    rng = np.random.default_rng(27)
    print(f"{'case':<26}{'ufjit ms':>10}{'NumPy ms':>10}{'ratio':>8}")
    for m, n in ((8, 8), (32, 32), (128, 128), (256, 256), (512, 64)):
        a = rng.standard_normal((m, n))
        b = rng.standard_normal(m)
        want = np.linalg.svd(a, compute_uv=False)
        u, s, vh = svd_uv(a)
        assert np.allclose(s, want, rtol=0, atol=1e-10 * want[0])
        assert np.allclose((u * s) @ vh, a, atol=1e-10 * want[0])
        assert np.isclose(cond(a), want[0] / want[-1], rtol=1e-8)
        xw = np.linalg.lstsq(a, b, rcond=None)[0]
        assert np.allclose(lstsq_x(a, b), xw, rtol=1e-8,
                           atol=1e-8 * np.abs(xw).max())
        k = max(3, reps * 8 // max(m, n) if max(m, n) > 64 else reps)
        for label, uf, npf, args in (
                ("svd", svd_uv,
                 lambda x: np.linalg.svd(x, full_matrices=False), (a,)),
                ("cond (values only)", cond, np.linalg.cond, (a,)),
                ("lstsq", lstsq_x,
                 lambda x, y: np.linalg.lstsq(x, y, rcond=None), (a, b))):
            tu, tn = best(uf, args, k), best(npf, args, k)
            print(f"{label + f' {m}x{n}':<26}{tu * 1e3:>10.3f}"
                  f"{tn * 1e3:>10.3f}{tu / tn:>8.2f}")


if __name__ == "__main__":
    main()
