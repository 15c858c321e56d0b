#!/usr/bin/env python3
"""np.linalg.det, inv, solve, matrix_power and `@` of complex128 matrices
inside njit functions (issue 18; ufjit's own LU, common/
nplinalg_complex.c, against Numba's LAPACK zgetrf / zgetri / zgesv
through SciPy) side by side in one process, at 8 x 8, 64 x 64 and
256 x 256 (complex64 at 64 x 64): results compared to 1e-8 relative
(complex64: 1e-3). Every contender runs the same kernel source (`from
numba import` swapped for `from ufjit import`) on the same arrays,
alternating rounds; the table gives the best time of each and ufjit /
Numba (below 1: ufjit faster). Set OPENBLAS_NUM_THREADS=1 on a shared
machine.
usage: PYTHONPATH=build/python python3 bench/python/bench_nplinalg_complex.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def det(a):
    return np.linalg.det(a)


@njit
def inv(a):
    return np.linalg.inv(a)


@njit
def solve(a, b):
    return np.linalg.solve(a, b)


@njit
def power(a):
    return np.linalg.matrix_power(a, -3)


@njit
def mm(a, b):
    return a @ b
'''


def main():
    rng = np.random.default_rng(18)
    cases = []
    for n in (8, 64, 256):
        a = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
        a += n * np.eye(n)
        b = rng.standard_normal(n) + 1j * rng.standard_normal(n)
        cases += [(f"det c16 {n}x{n}", "det", (a,)),
                  (f"inv c16 {n}x{n}", "inv", (a,)),
                  (f"solve c16 {n}x{n}", "solve", (a, b)),
                  (f"matrix_power(a, -3) c16 {n}x{n}", "power", (a,)),
                  (f"a @ b c16 {n}x{n}", "mm", (a, a.T.copy()))]
    a = (rng.standard_normal((64, 64)) + 1j * rng.standard_normal((64, 64))
         + 64 * np.eye(64)).astype(np.complex64)
    cases += [("inv c8 64x64", "inv", (a,))]

    def same(w, g, k):
        w, g = np.asarray(w), np.asarray(g)
        rtol = 1e-3 if w.dtype == np.complex64 else 1e-8
        return np.allclose(w, g, rtol=rtol, atol=rtol * np.abs(w).max())

    pairbench.report(pairbench.run(SRC, "lac", cases, same, number=3,
                                   rounds=3, repeat=2))


if __name__ == "__main__":
    main()
