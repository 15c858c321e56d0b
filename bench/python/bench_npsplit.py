#!/usr/bin/env python3
"""np.array_split / np.split inside a hot loop (issue 18) side by side with
Numba in one process: 10**5 splits of a row of a 1000 x 16 array into 4
parts along the last axis, each part summed, and 10**5 splits of a 1-D
array by a tuple of indices, iterating over the parts (Numba's list of
views against ufjit's tuple of views). Every contender runs the same
kernel source (`from numba import` swapped for `from ufjit import`) on the
same arrays, alternating rounds; the table gives the best time of each and
ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npsplit.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def rows(m, reps):
    s = 0.0
    for r in range(reps):
        row = m[r % m.shape[0]]
        k = 1.0
        for p in np.array_split(row, 4):
            s += k * p[0]
            k += 1.0
    return s


@njit
def cuts(a, reps):
    s = 0.0
    for r in range(reps):
        for p in np.split(a, (3, 7, 11)):
            s += p[-1] if p.shape[0] else 0.0
    return s
'''


def main():
    rng = np.random.default_rng(18)
    m = rng.standard_normal((1000, 16))
    a = rng.standard_normal(16)
    reps = np.int64(10**5)
    cases = [("array_split(row, 4) x 1e5", "rows", (m, reps)),
             ("split(a, (3, 7, 11)) x 1e5", "cuts", (a, reps))]

    def same(w, g, k):
        return np.allclose(w, g, rtol=1e-9)

    pairbench.report(pairbench.run(SRC, "sp", cases, same))


if __name__ == "__main__":
    main()
