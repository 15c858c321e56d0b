#!/usr/bin/env python3
"""Array methods inside njit functions (issue 18) side by side with Numba in
one process: np.sort of 10**6 float64 (random, with NaNs), int64 and complex128, a.copy()
of 10**6 float64 (C and a reversed view), np.cumsum, np.argsort. Every
contender runs the same kernel source (`from numba import` swapped for
`from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_arrmeth.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def sort(a):
    return np.sort(a)


@njit
def copy(a):
    return a.copy()


@njit
def cumsum(a):
    return np.cumsum(a)


@njit
def argsort(a):
    return np.argsort(a)
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    f = rng.standard_normal(n)
    f[rng.random(n) < 0.01] = np.nan
    i = rng.integers(-10**12, 10**12, n)
    c = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    c[rng.random(n) < 0.01] = complex(np.nan, 1.0)
    cases = [("np.sort f64 1e6 (1% NaN)", "sort", f),
             ("np.sort i64 1e6", "sort", i),
             ("np.sort c16 1e6 (1% NaN)", "sort", c),
             ("np.argsort f64 1e6", "argsort", f),
             ("a.copy() f64 1e6", "copy", f),
             ("a.copy() f64 1e6 [::-1]", "copy", f[::-1]),
             ("np.cumsum f64 1e6", "cumsum", f)]

    def same(w, g, k):
        return np.array_equal(w, g, equal_nan=True) or k == "argsort"

    pairbench.report(pairbench.run(SRC, "am", cases, same,
                                   number=lambda k: 3 if "sort" in k else 20))


if __name__ == "__main__":
    main()
