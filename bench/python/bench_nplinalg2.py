#!/usr/bin/env python3
"""np.linalg.eigh, eigvalsh, eig and lstsq inside njit functions (issue
18; ufjit's own algorithms, common/nplinalg_eig.c and nplinalg_svd.c,
against Numba's LAPACK syevd / geev / gelsd through SciPy) side by side in
one process, on float64 matrices of 64 x 64 and 256 x 256 (eig: 64 and
128 with real eigenvalues; lstsq: 256 x 64 and 1024 x 64): eigenvalues
(eig's sorted) and lstsq's x compared to 1e-8 relative; eigh computes the
vectors too. Every contender runs the same
kernel source (`from numba import` swapped for `from ufjit import`) on the
same arrays, alternating rounds; the table gives the best time of each and
ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_nplinalg2.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def eigh_w(a):
    return np.linalg.eigh(a)[0]


@njit
def eigvalsh(a):
    return np.linalg.eigvalsh(a)


@njit
def eig_w(a):
    return np.sort(np.linalg.eig(a)[0])


@njit
def lstsq_x(a, b):
    return np.linalg.lstsq(a, b)[0]
'''


def main():
    rng = np.random.default_rng(18)
    cases = []
    for n in (64, 256):
        m = rng.standard_normal((n, n))
        cases += [(f"np.linalg.eigh {n}x{n}", "eigh_w", (m + m.T,)),
                  (f"np.linalg.eigvalsh {n}x{n}", "eigvalsh", (m + m.T,))]
    for n in (64, 128):
        p = rng.standard_normal((n, n)) + 4 * np.eye(n)
        a = p @ np.diag(np.arange(n) - n / 2.0) @ np.linalg.inv(p)
        cases.append((f"np.linalg.eig {n}x{n}", "eig_w", (a,)))
    for m in (256, 1024):
        cases.append((f"np.linalg.lstsq {m}x64", "lstsq_x",
                      (rng.standard_normal((m, 64)),
                       rng.standard_normal(m))))

    def same(w, g, k):
        return np.allclose(w, g, rtol=1e-8, atol=1e-8 * np.abs(w).max())

    pairbench.report(pairbench.run(SRC, "la2", cases, same, number=3,
                                   rounds=3, repeat=2))


if __name__ == "__main__":
    main()
