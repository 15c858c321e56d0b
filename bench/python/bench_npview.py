#!/usr/bin/env python3
"""np.flip, np.rot90, np.swapaxes, np.roll and np.ascontiguousarray inside njit
functions (issue 18) side by side with Numba in one process: the sum of
np.flip of 10**6 float64 (a reversed view summed), of np.rot90 of a
1000 x 1000 array summed in a loop nest, np.roll of 10**6 float64 (C and
reversed), and np.ascontiguousarray of a
transposed 1000 x 1000 array (a copy). Every contender runs the same
kernel source (`from numba import` swapped for `from ufjit import`) on the
same arrays, alternating rounds; the table gives the best time of each and
ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npview.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def flip_sum(a):
    return np.flip(a).sum()


@njit
def flip_loop(a):
    v = np.flip(a)
    s = 0.0
    for i in range(v.shape[0]):
        s += v[i] * (i & 7)
    return s


@njit
def rot90_loop(a):
    v = np.rot90(a)
    s = 0.0
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            s += v[i, j] * j
    return s


@njit
def roll(a):
    return np.roll(a, 12345)


@njit
def roll_view(a):
    return np.roll(a[::-1], 12345)


@njit
def contig_sum(a):
    return np.ascontiguousarray(np.swapaxes(a, 0, 1))[0, 0]
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    g = rng.standard_normal(n)
    m = rng.standard_normal((1000, 1000))
    cases = [("np.flip(a).sum() f64 1e6", "flip_sum", (g,)),
             ("loop over np.flip(a) f64 1e6", "flip_loop", (g,)),
             ("loop nest over np.rot90(a) 1000x1000", "rot90_loop", (m,)),
             ("np.roll(a, 12345) f64 1e6", "roll", (g,)),
             ("np.roll(a[::-1], 12345) f64 1e6", "roll_view", (g,)),
             ("np.ascontiguousarray(np.swapaxes(a)) 1000x1000",
              "contig_sum", (m,))]

    def same(w, g, k):
        return np.allclose(w, g, rtol=1e-9)

    pairbench.report(pairbench.run(SRC, "nv", cases, same))


if __name__ == "__main__":
    main()
