#!/usr/bin/env python3
"""Array parts and the builtins min/max/sum inside njit functions (issue 18)
side by side with Numba in one process: sum(a), min(a) of 10**6 float64 and
int64 (C and a reversed view), a.conj() and a.imag.sum() of 10**6
complex128, np.zeros(n, a.dtype) through a dtype variable. Every
contender runs the same kernel source (`from numba import` swapped for
`from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_arrattr.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def bsum(a):
    return sum(a)


@njit
def bmin(a):
    return min(a)


@njit
def conj(a):
    return a.conj()


@njit
def imag_sum(a):
    return a.imag.sum()


@njit
def zeros_of(a):
    d = a.dtype
    return np.zeros(a.shape[0], d)
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    f = rng.standard_normal(n)
    i = rng.integers(-10**12, 10**12, n)
    z = f + 1j * rng.standard_normal(n)
    cases = [("sum(a) f64 1e6", "bsum", f), ("sum(a) i64 1e6", "bsum", i),
             ("sum(a) f64 1e6 [::-1]", "bsum", f[::-1]),
             ("min(a) f64 1e6", "bmin", f), ("min(a) i64 1e6", "bmin", i),
             ("a.conj() c128 1e6", "conj", z),
             ("a.imag.sum() c128 1e6", "imag_sum", z),
             ("np.zeros(n, a.dtype) f64 1e6", "zeros_of", f)]

    def same(w, g, k):
        # np.sum: 4 accumulators, not 1
        return np.array_equal(w, g, equal_nan=True) or k == "imag_sum"

    pairbench.report(pairbench.run(SRC, "aa", cases, same))


if __name__ == "__main__":
    main()
