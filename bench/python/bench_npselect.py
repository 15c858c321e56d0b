#!/usr/bin/env python3
"""np.median, np.nanmedian and np.percentile of 10^6 elements inside njit
functions (issue 18) side by side with Numba and NumPy in one process.
ufjit and Numba run the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; NumPy is
the plain np.median / np.nanmedian / np.percentile call. Each call copies
the array (all three do: the selection reorders its copy). The table
gives the best time of each and ufjit / Numba, ufjit / NumPy (below 1:
ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npselect.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def median(a):
    return np.median(a)


@njit
def nanmedian(a):
    return np.nanmedian(a)


@njit
def quartiles(a):
    return np.percentile(a, (25.0, 50.0, 75.0))
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    f = rng.standard_normal(n)
    fnan = f.copy()
    fnan[rng.random(n) < 0.1] = np.nan
    i = rng.integers(-10**9, 10**9, n)
    cases = [("np.median 1e6 float64", "median", f, np.median),
             ("np.median 1e6 float64 (10^6 + 1)", "median",
              np.append(f, 0.5), np.median),
             ("np.median 1e6 int64", "median", i, np.median),
             ("np.nanmedian 1e6 float64, 10% NaN", "nanmedian", fnan,
              np.nanmedian),
             ("np.percentile(a, (25, 50, 75)) 1e6 float64", "quartiles", f,
              lambda a: np.percentile(a, (25.0, 50.0, 75.0)))]

    def same(w, g, k):
        w, g = np.asarray(w), np.asarray(g)
        return w.dtype == g.dtype and np.array_equal(w, g)

    pairbench.report(pairbench.run(SRC, "sel", cases, same, number=5))


if __name__ == "__main__":
    main()
