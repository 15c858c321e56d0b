#!/usr/bin/env python3
"""np.nonzero, np.flatnonzero, np.argwhere, np.extract and np.unique
inside njit functions (issue 18) side by side with Numba in one process:
np.nonzero of 10**6 bools (10% true) and of a 1000 x 1000 float64 array,
np.flatnonzero and np.extract of the same bools, np.argwhere of the 2-D
array, np.unique of 10**6 int64 (values below 10**5) and of float64.
Every contender runs the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npfind.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def nonzero(a):
    return np.nonzero(a)


@njit
def flatnonzero(a):
    return np.flatnonzero(a)


@njit
def argwhere(a):
    return np.argwhere(a)


@njit
def extract(c, a):
    return np.extract(c, a)


@njit
def unique(a):
    return np.unique(a)
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    b = rng.random(n) < 0.1
    m = np.where(rng.random((1000, 1000)) < 0.1, 1.0, 0.0)
    g = rng.standard_normal(n)
    i = rng.integers(0, 10**5, n)
    cases = [("np.nonzero bool 1e6 (10% true)", "nonzero", (b,)),
             ("np.nonzero f64 1000x1000 (10%)", "nonzero", (m,)),
             ("np.flatnonzero bool 1e6", "flatnonzero", (b,)),
             ("np.argwhere f64 1000x1000", "argwhere", (m,)),
             ("np.extract(bool 1e6, f64 1e6)", "extract", (b, g)),
             ("np.unique int64 1e6 (< 1e5)", "unique", (i,)),
             ("np.unique f64 1e6", "unique", (g,))]

    def same(w, g, k):
        if isinstance(w, list):  # np.nonzero's tuple
            w, g = np.stack(w), np.stack(g)
        return np.array_equal(w, g)

    pairbench.report(pairbench.run(SRC, "nf", cases, same))


if __name__ == "__main__":
    main()
