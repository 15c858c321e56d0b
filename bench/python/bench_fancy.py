#!/usr/bin/env python3
"""Advanced indexing inside njit functions (issue 18) side by side with
Numba in one process: a[a > 0] of 10**6 float64 (half selected), a[idx]
gathering 10**6 float64 at random int64 indices, a[mask] = 0 and
a[idx] = v over the same sizes, a 1000 x 1000 array's a[:, idx] and
a[i, j] / a[i, j] = v with two arrays of 10**6 random indices.
Every contender runs the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_fancy.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def positive(a):
    return a[a > 0]


@njit
def masked(a, m):
    return a[m]


@njit
def take(a, idx):
    return a[idx]


@njit
def cols(a, idx):
    return a[:, idx]


@njit
def zero_masked(a, m):
    a[m] = 0.0
    return a


@njit
def put(a, idx, v):
    a[idx] = v
    return a


@njit
def pairs(a, i, j):
    return a[i, j]


@njit
def put_pairs(a, i, j, v):
    a[i, j] = v
    return a
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    g = rng.standard_normal(n)
    m = g > 0
    idx = rng.integers(-n, n, n)
    v = rng.standard_normal(n)
    sq = rng.standard_normal((1000, 1000))
    cidx = rng.integers(0, 1000, 500)
    pi = rng.integers(0, 1000, n)
    pj = rng.integers(-1000, 1000, n)
    cases = [("a[a > 0] f64 1e6", "positive", (g,)),
             ("a[mask] f64 1e6 (mask given)", "masked", (g, m)),
             ("a[idx] f64 1e6 gather", "take", (g, idx)),
             ("a[:, idx] 1000x1000, 500 columns", "cols", (sq, cidx)),
             ("a[mask] = 0 f64 1e6", "zero_masked", (g.copy(), m)),
             ("a[idx] = v f64 1e6", "put", (g.copy(), idx, v)),
             ("a[i, j] 1000x1000, 1e6 pairs", "pairs", (sq, pi, pj)),
             ("a[i, j] = v 1000x1000, 1e6 pairs", "put_pairs",
              (sq.copy(), pi, pj, v))]

    def same(w, g, k):
        return np.allclose(w, g, rtol=1e-6, equal_nan=True)

    pairbench.report(pairbench.run(SRC, "fy", cases, same))


if __name__ == "__main__":
    main()
