#!/usr/bin/env python3
"""np.convolve and np.correlate inside njit functions (issue 18) side by
side with Numba in one process: float64 signals of 10**5 elements with a
31-tap filter and of 10**4 with 10**3 taps (np.convolve 'full', np.correlate
'valid' and 'same'), and an int32 pair. Every contender runs the same
kernel source (`from numba import` swapped for `from ufjit import`) on the
same arrays, alternating rounds; the table gives the best time of each and
ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npsignal.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def convolve(a, v):
    return np.convolve(a, v)


@njit
def correlate(a, v):
    return np.correlate(a, v)


@njit
def correlate_same(a, v):
    return np.correlate(a, v, "same")
'''


def main():
    rng = np.random.default_rng(18)
    a5, v31 = rng.standard_normal(10**5), rng.standard_normal(31)
    a4, v3 = rng.standard_normal(10**4), rng.standard_normal(10**3)
    i5 = rng.integers(-100, 100, 10**5).astype(np.int32)
    i31 = rng.integers(-100, 100, 31).astype(np.int32)
    cases = [("np.convolve f64 1e5 x 31", "convolve", (a5, v31)),
             ("np.correlate f64 1e5 x 31 valid", "correlate", (a5, v31)),
             ("np.convolve f64 1e4 x 1e3", "convolve", (a4, v3)),
             ("np.correlate f64 1e4 x 1e3 same", "correlate_same", (a4, v3)),
             ("np.convolve i32 1e5 x 31", "convolve", (i5, i31))]

    def same(w, g, k):
        return w.dtype == g.dtype and np.allclose(w, g, rtol=1e-9)

    pairbench.report(pairbench.run(SRC, "sg", cases, same, number=5, rounds=3))


if __name__ == "__main__":
    main()
