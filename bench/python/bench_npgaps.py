#!/usr/bin/env python3
"""Small forms of issue 18 side by side with Numba in one process:
numba.np.extensions.cross2d of two (10**6, 2) float64 arrays, of a
(10**6, 2) array with one 2-vector, and of two 2-vectors in a loop of
10**5 calls (a 0-d result each), and a 0-d integer array as an index in
a loop (s += a[k] with k = np.array(i), 10**5 times). Every contender
runs the same kernel source (`from numba import` swapped for `from ufjit
import`) on the same arrays, alternating rounds; the table gives the best
time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npgaps.py

At aefc525 on the shared 2-CPU machine (load 9-11, ratios only, two runs,
noisy): cross2d (1e6, 2) 1.24 / 1.16, (1e6, 2) x (2,) 1.55 / 1.21,
2-vectors in a loop 0.26 / 0.32, a[np.array(i)] in a loop 0.95 / 1.77
(an NRT allocation per iteration on both sides)."""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit
from numba.np.extensions import cross2d


@njit
def c2d(a, b):
    return cross2d(a, b)


@njit
def c2d_loop(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += cross2d(a[i], b)[()]
    return s


@njit
def zd_loop(a):
    s = 0.0
    for i in range(a.shape[0]):
        k = np.array(i)
        s += a[k]
    return s
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    a = rng.standard_normal((n, 2))
    b = rng.standard_normal((n, 2))
    cases = [("cross2d (1e6, 2) f64", "c2d", (a, b)),
             ("cross2d (1e6, 2) x (2,) f64", "c2d", (a, b[0])),
             ("cross2d 2-vectors x 1e5 (loop)", "c2d_loop",
              (a[:10**5], b[0])),
             ("a[np.array(i)] x 1e5 (loop)", "zd_loop", (a[:10**5, 0],))]

    def same(w, g, k):
        return np.array_equal(np.asarray(w), np.asarray(g), equal_nan=True)

    pairbench.report(pairbench.run(SRC, "gp", cases, same))


if __name__ == "__main__":
    main()
