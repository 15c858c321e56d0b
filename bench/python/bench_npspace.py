#!/usr/bin/env python3
"""np.logspace, np.geomspace and np.kaiser inside njit functions (issue
18) side by side with Numba in one process: np.logspace(0, 10, 10**6),
np.geomspace(1, 1e10, 10**6) and its complex form, np.kaiser(10**6, 14.0).
Every contender runs the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arguments, alternating rounds; the
table gives the best time of each and ufjit / Numba (below 1: ufjit
faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npspace.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def logspace(a, b, n):
    return np.logspace(a, b, n)


@njit
def geomspace(a, b, n):
    return np.geomspace(a, b, n)


@njit
def kaiser(m, beta):
    return np.kaiser(m, beta)
'''


def main():
    n = 10**6
    cases = [("np.logspace(0, 10, 1e6)", "logspace", (0.0, 10.0, n)),
             ("np.geomspace(1, 1e10, 1e6)", "geomspace", (1.0, 1e10, n)),
             ("np.geomspace(1j, 1e10j, 1e6)", "geomspace", (1j, 1e10j, n)),
             ("np.kaiser(1e6, 14.0)", "kaiser", (n, 14.0))]

    def same(w, g, k):
        # float64 interiors within a few ulps (libmvec pow), the rest equal
        return np.allclose(w, g, rtol=1e-15, atol=0, equal_nan=True)

    pairbench.report(pairbench.run(SRC, "sp", cases, same, number=5))


if __name__ == "__main__":
    main()
