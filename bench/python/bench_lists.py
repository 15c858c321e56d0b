#!/usr/bin/env python3
"""Python lists inside njit functions (issue 18) side by side with Numba
in one process: 10**6 float64 appended to `l = []` then np.array(l); the
sum of such a list by sum(l) and by a for loop; a list comprehension over
an array of 10**6; l.sort() of a list of 10**6 floats; 256,000 new arrays
(np.zeros(3) + i, or np.empty(3) with one item set) appended to a list,
then summed; 10**5 (int, float) tuples appended, then l.sort(). Every
contender runs the same kernel source (`from numba import` swapped for
`from ufjit import`) on the same inputs,
alternating rounds; the table gives the best time of each and ufjit /
Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_lists.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def append_array(n):
    l = []
    for i in range(n):
        l.append(i * 0.5)
    return np.array(l)


@njit
def append_sum(n):
    l = []
    for i in range(n):
        l.append(i * 0.5)
    return sum(l)


@njit
def append_loop(n):
    l = []
    for i in range(n):
        l.append(i * 0.5)
    s = 0.0
    for v in l:
        s += v
    return s


@njit
def comprehension(a):
    return np.array([x * 2.0 for x in a if x > 0])


@njit
def append_arrays(n):
    l = []
    for i in range(n):
        l.append(np.zeros(3) + i)
    s = 0.0
    for x in l:
        s += x[0]
    return s


@njit
def append_empty(n):
    l = []
    for i in range(n):
        x = np.empty(3)
        x[0] = i
        l.append(x)
    s = 0.0
    for x in l:
        s += x[0]
    return s


@njit
def sort_tuples(n):
    l = []
    for i in range(n):
        l.append(((i * 7919) % 1000, i * 0.5))
    l.sort()
    return l[0][1] + l[n // 2][1] + l[n - 1][1]


@njit
def sort_list(a):
    l = list(a)
    l.sort()
    return np.array(l)
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    a = rng.standard_normal(n)
    cases = [("append 1e6 f64, np.array(l)", "append_array", (n,)),
             ("append 1e6 f64, sum(l)", "append_sum", (n,)),
             ("append 1e6 f64, for v in l", "append_loop", (n,)),
             ("[x * 2 for x in a if x > 0], 1e6", "comprehension", (a,)),
             ("list(a).sort() of 1e6 f64", "sort_list", (a,)),
             ("append 256k np.zeros(3) + i", "append_arrays", (256000,)),
             ("append 256k np.empty(3)", "append_empty", (256000,)),
             ("append 1e5 tuples, l.sort()", "sort_tuples", (10**5,))]

    def same(w, g, k):
        return np.allclose(w, g, rtol=1e-12)

    pairbench.report(pairbench.run(SRC, "lists", cases, same, number=5))


if __name__ == "__main__":
    main()
