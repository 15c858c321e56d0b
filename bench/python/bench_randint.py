#!/usr/bin/env python3
"""np.random.randint inside njit functions (issue 18) side by side with
Numba in one process: 10**6 scalar calls in a loop (one draw a call) over
a small range (0, 1000) and a huge one (-2**61, 2**61), with int64 and
int32 bounds, and the size= form over both ranges. Each kernel seeds
first, so both sides must return the same values (the stream is Numba's:
masked rejection on the Mersenne Twister). The table gives the best time
of each and ufjit / Numba (below 1: ufjit faster); the machine is shared,
so read the ratios, not the times.
usage: PYTHONPATH=build/python python3 bench/python/bench_randint.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def loop_small(n):
    np.random.seed(1)
    s = 0
    for i in range(n):
        s += np.random.randint(0, 1000)
    return s


@njit
def loop_huge(n):
    np.random.seed(1)
    s = 0
    for i in range(n):
        s ^= np.random.randint(-2**61, 2**61)
    return s


@njit
def loop_i32(n):
    np.random.seed(1)
    lo = np.int32(-5)
    hi = np.int32(70000)
    s = 0
    for i in range(n):
        s += np.random.randint(lo, hi)
    return s


@njit
def fill_small(n):
    np.random.seed(1)
    return np.random.randint(0, 1000, n)


@njit
def fill_huge(n):
    np.random.seed(1)
    return np.random.randint(-2**61, 2**61, n)
'''


def main():
    n = 10**6
    cases = [("10**6 randint(0, 1000) in a loop", "loop_small", (n,)),
             ("10**6 randint(-2**61, 2**61) in a loop", "loop_huge", (n,)),
             ("10**6 randint(int32, int32) in a loop", "loop_i32", (n,)),
             ("randint(0, 1000, 10**6)", "fill_small", (n,)),
             ("randint(-2**61, 2**61, 10**6)", "fill_huge", (n,))]

    def same(w, g, k):
        return np.array_equal(np.asarray(w), np.asarray(g))

    pairbench.report(pairbench.run(SRC, "ri", cases, same, number=5))


if __name__ == "__main__":
    main()
