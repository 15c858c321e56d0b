#!/usr/bin/env python3
"""np.isclose, np.allclose, np.array_equal, np.nan_to_num and np.sinc
inside njit functions (issue 18) side by side with Numba in one process:
each of two 10**6 float64 arrays (1% NaN / inf in nan_to_num's), and a
scalar np.isclose in a loop over them. Every contender runs the same kernel
source (`from numba import` swapped for `from ufjit import`) on the same
arrays, alternating rounds; the table gives the best time of each and
ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_nppred.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def isclose(a, b):
    return np.isclose(a, b)


@njit
def allclose(a, b):
    return np.allclose(a, b)


@njit
def array_equal(a, b):
    return np.array_equal(a, b)


@njit
def nan_to_num(a):
    return np.nan_to_num(a)


@njit
def sinc(a):
    return np.sinc(a)


@njit
def count_close(a, b):
    n = 0
    for i in range(a.shape[0]):
        n += np.isclose(a[i], b[i], 1e-3)
    return n
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    x = rng.standard_normal(n)
    y = x + rng.standard_normal(n) * 1e-6
    z = x.copy()
    s = x.copy()
    pick = rng.random(n)
    s[pick < 0.01] = np.nan
    s[(pick >= 0.01) & (pick < 0.015)] = np.inf
    cases = [("np.isclose f64 1e6", "isclose", (x, y)),
             ("np.allclose f64 1e6 (all close)", "allclose", (x, z)),
             ("np.array_equal f64 1e6 (equal)", "array_equal", (x, z)),
             ("np.nan_to_num f64 1e6 (1.5% NaN/inf)", "nan_to_num", (s,)),
             ("np.sinc f64 1e6", "sinc", (x,)),
             ("np.isclose of numbers, 1e6 in a loop", "count_close",
              (x, y))]

    def same(w, g, k):
        return np.allclose(w, g, rtol=1e-6, equal_nan=True)

    pairbench.report(pairbench.run(SRC, "np", cases, same))


if __name__ == "__main__":
    main()
