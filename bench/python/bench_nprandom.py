#!/usr/bin/env python3
"""np.random inside njit functions (issue 18) side by side with Numba in
one process: np.random.random(10**6) (one fill), loops of 10**6
np.random.random() calls (drawn inline by both) and np.random.normal()
calls (Numba inlines its generator, ufjit calls its runtime), np.random.randint(0, 1000, 10**6) and
np.random.shuffle of 10**6 int64. Each kernel seeds first, so both sides
must return the same bits. Every contender runs the same kernel source
(`from numba import` swapped for `from ufjit import`), alternating rounds;
the table gives the best time of each and ufjit / Numba (below 1: ufjit
faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_nprandom.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def random_fill(n):
    np.random.seed(1)
    return np.random.random(n)


@njit
def random_loop(n):
    np.random.seed(1)
    s = 0.0
    for i in range(n):
        s += np.random.random()
    return s


@njit
def normal_loop(n):
    np.random.seed(1)
    s = 0.0
    for i in range(n):
        s += np.random.normal()
    return s


@njit
def randint_fill(n):
    np.random.seed(1)
    return np.random.randint(0, 1000, n)


@njit
def shuffle(a):
    np.random.seed(1)
    np.random.shuffle(a)
    return a[0]
'''


def main():
    n = 10**6
    perm = np.arange(n)
    cases = [("np.random.random(10**6)", "random_fill", (n,)),
             ("10**6 np.random.random() in a loop", "random_loop", (n,)),
             ("10**6 np.random.normal() in a loop", "normal_loop", (n,)),
             ("np.random.randint(0, 1000, 10**6)", "randint_fill", (n,)),
             ("np.random.shuffle 10**6 int64", "shuffle", (perm,))]

    def same(w, g, k):
        return np.array_equal(np.asarray(w), np.asarray(g))

    def fresh(args):
        return [np.copy(x) if isinstance(x, np.ndarray) else x
                for x in args]

    pairbench.report(pairbench.run(SRC, "nr", cases, same, number=5,
                                   fresh=fresh))


if __name__ == "__main__":
    main()
