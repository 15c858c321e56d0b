#!/usr/bin/env python3
"""np.partition / np.argpartition inside njit functions (issue 18) side by
side with Numba in one process: 10**6 float64 at the median, with 1% NaN,
several kths, argpartition, the rows of a 1000 x 1000 array, and a hot
loop partitioning 10**4 short rows (64 elements) one call each. Both run
Numba's quickselect, so the results are the same element for element.
Every contender runs the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_nppart.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def part(a, k):
    return np.partition(a, k)


@njit
def argpart(a, k):
    return np.argpartition(a, k)


@njit
def part3(a):
    n = a.shape[-1]
    return np.partition(a, (n // 4, n // 2, -n // 4))


@njit
def rows(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += np.partition(a[i], 32)[32]
    return s
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    g = rng.standard_normal(n)
    f = g.copy()
    f[rng.random(n) < 0.01] = np.nan
    m = rng.standard_normal((1000, 1000))
    s = rng.standard_normal((10**4, 64))
    cases = [("np.partition f64 1e6, kth n/2", "part", (g, n // 2)),
             ("np.partition f64 1e6 (1% NaN)", "part", (f, n // 2)),
             ("np.argpartition f64 1e6", "argpart", (g, n // 2)),
             ("np.partition 3 kths f64 1e6", "part3", (g,)),
             ("np.partition 1000x1000 rows", "part", (m, 500)),
             ("10^4 calls on rows of 64", "rows", (s,))]

    def same(w, g, k):
        return np.array_equal(w, g, equal_nan=True)

    pairbench.report(pairbench.run(SRC, "npp", cases, same, number=5))


if __name__ == "__main__":
    main()
