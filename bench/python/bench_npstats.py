#!/usr/bin/env python3
"""np.histogram of 10^6 elements inside njit functions (issue 18) side by
side with Numba and NumPy in one process.
ufjit and Numba run the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; NumPy is
the plain np.histogram call. The table gives the best time of each and ufjit / Numba, ufjit / NumPy (below 1:
ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npstats.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def hist(a, bins):
    return np.histogram(a, bins)


@njit
def hist_range(a, bins):
    return np.histogram(a, bins, (-3.0, 3.0))


@njit
def hist_edges(a, edges):
    return np.histogram(a, edges)
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    f = rng.standard_normal(n)
    i = rng.integers(-10**4, 10**4, n)
    edges = np.linspace(-3.0, 3.0, 101)
    cases = [("np.histogram(a, 100) 1e6 float64", "hist", (f, 100),
              lambda a, b: np.histogram(a, b)),
             ("np.histogram(a, 100, (-3, 3)) 1e6 float64", "hist_range",
              (f, 100), lambda a, b: np.histogram(a, b, (-3.0, 3.0))),
             ("np.histogram(a, 100) 1e6 int64", "hist", (i, 100),
              lambda a, b: np.histogram(a, b)),
             ("np.histogram(a, 101 edges) 1e6 float64", "hist_edges",
              (f, edges), lambda a, b: np.histogram(a, b))]

    def same(w, g, k):
        return all(x.dtype == y.dtype and np.array_equal(x, y)
                   for x, y in zip(w, g))

    pairbench.report(pairbench.run(SRC, "hist", cases, same, number=5))


if __name__ == "__main__":
    main()
