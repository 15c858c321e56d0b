#!/usr/bin/env python3
"""np.cross, np.unwrap and np.select inside njit functions (issue 18) side
by side with Numba in one process: np.cross of two (10**6, 3) float64
arrays and of a (10**6, 3) array with one 3-vector, np.unwrap of 10**6
float64 phases and of a 1000 x 1000 array, np.select of three conditions
over 10**6 float64. Every contender runs the same kernel source (`from
numba import` swapped for `from ufjit import`) on the same arrays,
alternating rounds; the table gives the best time of each and ufjit /
Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npcross.py

At 94182de on the shared 2-CPU machine (load 13.6, ratios only, one
run): cross 0.25, cross with one 3-vector 0.09, unwrap 1e6 0.22,
unwrap 1000x1000 0.24, select 0.93."""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def cross(a, b):
    return np.cross(a, b)


@njit
def unwrap(p):
    return np.unwrap(p)


@njit
def select(a):
    return np.select([a < -1.0, a > 1.0, a == 0.0], [a * 2, a - 1, a + 7],
                     -1.5)
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    a = rng.standard_normal((n, 3))
    b = rng.standard_normal((n, 3))
    p = np.cumsum(rng.standard_normal(n))
    m = np.cumsum(rng.standard_normal((1000, 1000)), axis=1)
    g = rng.standard_normal(n)
    cases = [("np.cross (1e6, 3) f64", "cross", (a, b)),
             ("np.cross (1e6, 3) x (3,) f64", "cross", (a, b[0])),
             ("np.unwrap f64 1e6", "unwrap", (p,)),
             ("np.unwrap f64 1000x1000", "unwrap", (m,)),
             ("np.select 3 cases f64 1e6", "select", (g,))]

    def same(w, g, k):
        return np.array_equal(w, g, equal_nan=True)

    pairbench.report(pairbench.run(SRC, "nx", cases, same))


if __name__ == "__main__":
    main()
