#!/usr/bin/env python3
"""np.linalg.svd, qr, cholesky and matrix_power inside njit functions
(issue 18; ufjit's own algorithms, common/nplinalg_*.c, against Numba's
LAPACK through SciPy) side by side in one process, on float64 matrices of
64 x 64 and 256 x 256: the singular values of svd (compared to 1e-8
relative), and qr / cholesky / matrix_power. Every contender runs the same
kernel source (`from numba import` swapped for `from ufjit import`) on the
same arrays, alternating rounds; the table gives the best time of each and
ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_nplinalg.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def svd_s(a):
    return np.linalg.svd(a)[1]


@njit
def qr_r(a):
    return np.abs(np.linalg.qr(a)[1])


@njit
def cholesky(a):
    return np.linalg.cholesky(a)


@njit
def power(a):
    return np.linalg.matrix_power(a, 9)
'''


def main():
    rng = np.random.default_rng(18)
    cases = []
    for n in (64, 256):
        m = rng.standard_normal((n, n))
        spd = m @ m.T + n * np.eye(n)
        cases += [(f"np.linalg.svd {n}x{n}", "svd_s", (m,)),
                  (f"np.linalg.qr {n}x{n}", "qr_r", (m,)),
                  (f"np.linalg.cholesky {n}x{n}", "cholesky", (spd,)),
                  (f"np.linalg.matrix_power(a, 9) {n}x{n}", "power",
                   (m / n,))]

    def same(w, g, k):
        return np.allclose(w, g, rtol=1e-8, atol=1e-8 * np.abs(w).max())

    pairbench.report(pairbench.run(SRC, "la", cases, same, number=3, repeat=2))


if __name__ == "__main__":
    main()
