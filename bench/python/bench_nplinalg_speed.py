#!/usr/bin/env python3
"""The speed of ufjit's own linear-algebra solvers (issue 18, session 20:
common/nplinalg_lstsq.c's QR-reduced lstsq, nplinalg_svd.c's SVD: Jacobi
then, Golub-Kahan since session 27)
against Numba's LAPACK gelsd / gesdd through SciPy, side by side in one
process, on float64 matrices: lstsq square 8, 64, 256 and tall 1000 x 50
(x compared to 1e-8 relative), svd's singular values of 8, 64, 256 square
and 1000 x 50 (1e-10 relative; np.linalg.svd's default full_matrices, so
u is 1000 x 1000 there). Every contender runs the same kernel
source (`from numba import` swapped for `from ufjit import`) on the same
arrays, alternating rounds; the table gives the best time of each and
ufjit / Numba (below 1: ufjit faster). Time with OPENBLAS_NUM_THREADS=1
(Numba's LAPACK single-threaded, as ufjit's solvers are).
usage: PYTHONPATH=build/python python3 bench/python/bench_nplinalg_speed.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def lstsq_x(a, b):
    return np.linalg.lstsq(a, b)[0]


@njit
def svd_s(a):
    return np.linalg.svd(a)[1]
'''


def main():
    rng = np.random.default_rng(20)
    cases = []
    for m, n in ((8, 8), (64, 64), (256, 256), (1000, 50)):
        a = rng.standard_normal((m, n))
        cases.append((f"np.linalg.lstsq {m}x{n}", "lstsq_x",
                      (a, rng.standard_normal(m))))
    for m, n in ((8, 8), (64, 64), (256, 256), (1000, 50)):
        cases.append((f"np.linalg.svd {m}x{n}", "svd_s",
                      (rng.standard_normal((m, n)),)))

    def same(w, g, k):
        # square random matrices' condition numbers reach 1e3-1e4
        tol = 1e-10 if k == "svd_s" else 1e-8
        return np.allclose(w, g, rtol=tol, atol=tol * np.abs(w).max())

    # few calls: 256 x 256 takes a quarter of a second a call, and the
    # shared machine is loaded
    pairbench.report(pairbench.run(SRC, "las", cases, same, number=1,
                                   rounds=2, repeat=2))


if __name__ == "__main__":
    main()
