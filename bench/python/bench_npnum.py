#!/usr/bin/env python3
"""np.interp, np.digitize and np.bincount inside njit functions (issue 18)
side by side with Numba in one process: np.interp of 10**6 float64
points, random and sorted, on a 1000-point table (slopes cached), 100
points on a 10**5-point table (no cache), and complex fp; np.digitize of
10**6 points on 100 bins; np.bincount of 10**6 ints with weights. Every contender runs the same kernel source (`from numba
import` swapped for `from ufjit import`) on the same arrays, alternating
rounds; the table gives the best time of each and ufjit / Numba (below 1:
ufjit faster). Results must be equal bit for bit.
usage: PYTHONPATH=build/python python3 bench/python/bench_npnum.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def interp(x, xp, fp):
    return np.interp(x, xp, fp)


@njit
def digitize(x, bins):
    return np.digitize(x, bins)


@njit
def bincount(a, w):
    return np.bincount(a, w)
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    xp = np.sort(rng.uniform(0, 100, 1000))
    fp = rng.standard_normal(1000)
    x = rng.uniform(-1, 101, n)
    xs = np.sort(x)
    xp5 = np.sort(rng.uniform(0, 100, 10**5))
    fp5 = rng.standard_normal(10**5)
    cases = [("np.interp 1e6 random x, 1000-point table", "interp",
              (x, xp, fp)),
             ("np.interp 1e6 sorted x, 1000-point table", "interp",
              (xs, xp, fp)),
             ("np.interp 100 x, 1e5-point table", "interp",
              (x[:100], xp5, fp5)),
             ("np.interp 1e6 random x, complex fp", "interp",
              (x, xp, fp + 1j * fp[::-1])),
             ("np.digitize 1e6 random x, 100 bins", "digitize",
              (x, np.sort(rng.uniform(0, 100, 100)))),
             ("np.bincount 1e6 ints < 1000, float64 weights", "bincount",
              (rng.integers(0, 1000, n), x))]

    def same(w, g, k):
        return w.tobytes() == g.tobytes()

    pairbench.report(pairbench.run(SRC, "nn", cases, same, number=5))


if __name__ == "__main__":
    main()
