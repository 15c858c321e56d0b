#!/usr/bin/env python3
"""Typed dicts inside njit functions (issue 18) side by side with Numba in
one process: the counting loop d[k] = d.get(k, 0) + 1 over 10**6 int64
keys (10**3 and 10**5 distinct: hits in a small table, a table that grows
past the caches), `k in d` lookups, and a dict of float keys filled then
walked with items(). Every contender runs the same kernel source (`from
numba import` swapped for `from ufjit import`) on the same arrays,
alternating rounds; the table gives the best time of each and ufjit /
Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_dict.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def count(a):
    d = {a[0]: 0}
    for k in a:
        d[k] = d.get(k, 0) + 1
    return len(d), d[a[0]]


@njit
def member(a, b):
    d = {}
    for k in a:
        d[k] = 1
    n = 0
    for k in b:
        if k in d:
            n += 1
    return n


@njit
def walk(x):
    d = {}
    for i in range(x.shape[0]):
        d[x[i]] = i
    s = 0.0
    for k, v in d.items():
        s += k * v
    return s
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    small = rng.integers(0, 10**3, n)
    large = rng.integers(0, 10**5, n)
    probe = rng.integers(0, 2 * 10**5, n)
    x = rng.standard_normal(10**5)
    cases = [("d[k] = d.get(k, 0) + 1, 1e6 keys, 1e3 distinct", "count",
              (small,)),
             ("d[k] = d.get(k, 0) + 1, 1e6 keys, 1e5 distinct", "count",
              (large,)),
             ("k in d, 1e6 lookups in 1e5 keys", "member", (large, probe)),
             ("1e5 float keys filled, items() walked", "walk", (x,))]

    def same(w, g, k):
        return np.allclose(np.asarray(w, dtype=float),
                           np.asarray(g, dtype=float), rtol=1e-9)

    pairbench.report(pairbench.run(SRC, "dc", cases, same))


if __name__ == "__main__":
    main()
