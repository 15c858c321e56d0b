#!/usr/bin/env python3
"""np.diff, np.nancumsum / np.nancumprod and np.average inside njit
functions (issue 18) side by side with Numba in one process: np.diff of
10**6 float64 (n=1, n=3) and of a 1000 x 1000 array, np.nancumsum of 10**6
float64 with 1% NaN, np.nancumprod of float32, np.average weighted by an
array of the same shape and by 1-D weights broadcast along the rows.
Every contender runs the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npcum.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def diff(a):
    return np.diff(a)


@njit
def diff3(a):
    return np.diff(a, 3)


@njit
def nancumsum(a):
    return np.nancumsum(a)


@njit
def nancumprod(a):
    return np.nancumprod(a)


@njit
def average_w(a, w):
    return np.average(a, weights=w)
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    f = rng.standard_normal(n)
    f[rng.random(n) < 0.01] = np.nan
    g = rng.standard_normal(n)
    m = rng.standard_normal((1000, 1000))
    p = (1.0 + rng.standard_normal(n).astype(np.float32) * 1e-4)
    w = rng.random(n)
    cases = [("np.diff f64 1e6", "diff", (g,)),
             ("np.diff(a, 3) f64 1e6", "diff3", (g,)),
             ("np.diff f64 1000x1000", "diff", (m,)),
             ("np.nancumsum f64 1e6 (1% NaN)", "nancumsum", (f,)),
             ("np.nancumprod f32 1e6", "nancumprod", (p,)),
             ("np.average(a, weights=w) f64 1e6", "average_w", (g, w)),
             ("np.average 1000x1000, 1-D weights", "average_w",
              (m, w[:1000]))]

    def same(w, g, k):
        return np.allclose(w, g, rtol=1e-6, equal_nan=True)

    pairbench.report(pairbench.run(SRC, "nc", cases, same))


if __name__ == "__main__":
    main()
