#!/usr/bin/env python3
"""np.repeat, np.resize, np.broadcast_to and np.trim_zeros inside njit
functions (issue 18) side by side with Numba in one process: np.repeat of
10**6 float64 by 3 and by a count per element, np.resize of 10**6 float64
to 2.5 * 10**6, a loop over np.broadcast_to of a 1000-row onto 1000 x 1000,
and np.trim_zeros of 10**6 float64 with 10**5 zeros at each end, summed.
Every contender runs the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npshape.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def repeat3(a):
    return np.repeat(a, 3)


@njit
def repeat_each(a, r):
    return np.repeat(a, r)


@njit
def resize(a):
    return np.resize(a, 2500000)


@njit
def bcast_loop(a):
    v = np.broadcast_to(a, (1000, a.shape[0]))
    s = 0.0
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            s += v[i, j] * i
    return s


@njit
def trim_sum(a):
    return np.trim_zeros(a).sum()
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    g = rng.standard_normal(n)
    r = rng.integers(0, 5, n)
    row = rng.standard_normal(1000)
    z = g.copy()
    z[:10**5] = 0.0
    z[-10**5:] = 0.0
    cases = [("np.repeat(a, 3) f64 1e6", "repeat3", (g,)),
             ("np.repeat(a, counts 0..4) f64 1e6", "repeat_each", (g, r)),
             ("np.resize(a, 2.5e6) f64 1e6", "resize", (g,)),
             ("loop over np.broadcast_to(row, (1000, 1000))", "bcast_loop",
              (row,)),
             ("np.trim_zeros(a).sum() f64 1e6", "trim_sum", (z,))]

    def same(w, g, k):
        return np.allclose(w, g, rtol=1e-9)

    pairbench.report(pairbench.run(SRC, "ns", cases, same))


if __name__ == "__main__":
    main()
