#!/usr/bin/env python3
"""try/except inside njit functions (issue 18) side by side with Numba in
one process: a loop over 10**6 float64 with a try inside it that never
raises, the same loop without the try, and a loop of integer divisions
whose try catches the ZeroDivisionError of one element in 1000 (and
the same with no zero divisor, with and without the try). Every
contender runs the same kernel source (`from numba import` swapped for
`from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_try.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def sum_try(a):
    s = 0.0
    for i in range(a.shape[0]):
        try:
            s += a[i] * 2.0
        except Exception:
            s = -1.0
    return s


@njit
def sum_plain(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * 2.0
    return s


@njit
def div_try(a, d):
    s = 0
    for i in range(a.shape[0]):
        try:
            s += a[i] // d[i]
        except Exception:
            s -= 1
    return s


@njit
def div_plain(a, d):
    s = 0
    for i in range(a.shape[0]):
        s += a[i] // d[i]
    return s
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    g = rng.standard_normal(n)
    a = rng.integers(-10**6, 10**6, n)
    d = rng.integers(1, 100, n)
    nz = d.copy()
    d[::1000] = 0
    cases = [("loop with try, nothing raises f64 1e6", "sum_try", (g,)),
             ("the same loop without try f64 1e6", "sum_plain", (g,)),
             ("i64 // with try, 0.1% ZeroDivisionError", "div_try",
              (a, d)),
             ("i64 // with try, nothing raises", "div_try", (a, nz)),
             ("the same // loop without try", "div_plain", (a, nz))]

    def same(w, g, k):
        return np.allclose(w, g, rtol=1e-9)

    pairbench.report(pairbench.run(SRC, "tr", cases, same))


if __name__ == "__main__":
    main()
