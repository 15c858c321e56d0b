#!/usr/bin/env python3
"""Run-time strings inside njit functions (issue 18) side by side with
Numba in one process: a loop building a string by `s += str(i % 10) +
','` over 10**4 pieces, s[i] and `for c in s` over it, and replace /
count / find / upper on a 40,000-character string, and ten rounds of
','.join(s.split()) over 10**4 words. Every contender runs the same kernel source (`from
numba import` swapped for `from ufjit import`) on the same arguments,
alternating rounds; the table gives the best time of each and ufjit /
Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_ustr.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def build(n):
    s = ''
    for i in range(n):
        s += str(i % 10) + ','
    return len(s)


@njit
def chars(n):
    s = 'abcdefghij' * (n // 10)
    h = 0
    for c in s:
        h = h * 31 + ord(c)
    for i in range(len(s)):
        h += ord(s[i])
    return h


@njit
def roundtrip(n):
    s = ''
    for i in range(n):
        s += str(i % 97) + ' '
    t = s
    for k in range(10):
        t = ','.join(t.split())
        t = t.replace(',', ' ')
    return len(t)


@njit
def methods(n):
    s = 'abc,def;' * (n // 8)
    t = s.replace(',', ', ').upper()
    return t.count('DEF') + t.find(';ABC', n // 2) + len(t)
'''


def main():
    n = np.int64(10**4)
    m = np.int64(40000)
    cases = [("s += str(i) + ',' x 1e4", "build", (n,)),
             ("for c in s / s[i], 4e4 chars", "chars", (m,)),
             ("replace/upper/count/find 4e4", "methods", (m,)),
             ("split/join round trip x10, 1e4 words", "roundtrip", (n,))]

    def same(w, g, k):
        return np.array_equal(np.asarray(w), np.asarray(g))

    pairbench.report(pairbench.run(SRC, "us", cases, same))


if __name__ == "__main__":
    main()
