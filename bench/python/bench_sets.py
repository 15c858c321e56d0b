#!/usr/bin/env python3
"""Sets inside njit functions (issue 18) side by side with Numba in one
process: s.add(k) over 10**6 int64 keys (10**3 and 10**5 distinct), `k in
s` lookups of 10**6 keys in a set of 10**5, set(a) of 10**6 floats, and
s | t of two sets of 10**5. Every contender runs the same kernel source
(`from numba import` swapped for `from ufjit import`) on the same arrays,
alternating rounds; the table gives the best time of each and ufjit /
Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_sets.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def adds(a):
    s = {a[0]}
    for k in a:
        s.add(k)
    return len(s)


@njit
def member(a, b):
    s = {a[0]}
    for k in a:
        s.add(k)
    n = 0
    for k in b:
        if k in s:
            n += 1
    return n


@njit
def build(x):
    return len(set(x))


@njit
def union(a, b):
    return len(set(a) | set(b))
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    small = rng.integers(0, 10**3, n)
    large = rng.integers(0, 10**5, n)
    probe = rng.integers(0, 2 * 10**5, n)
    x = rng.standard_normal(n)
    cases = [("s.add(k), 1e6 keys, 1e3 distinct", "adds", (small,)),
             ("s.add(k), 1e6 keys, 1e5 distinct", "adds", (large,)),
             ("k in s, 1e6 lookups in 1e5 keys", "member", (large, probe)),
             ("set(a) of 1e6 floats", "build", (x,)),
             ("set(a) | set(b), 1e6 keys each", "union", (large, probe))]

    def same(w, g, k):
        return int(w) == int(g)

    pairbench.report(pairbench.run(SRC, "st", cases, same))


if __name__ == "__main__":
    main()
