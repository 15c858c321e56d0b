#!/usr/bin/env python3
"""np.outer, np.eye, np.kron, np.vander, np.tril and np.trace inside njit
functions (issue 18) side by side with Numba in one process: np.outer of
two 1000-vectors, np.eye(1000), np.tril of a 1000 x 1000 array, np.kron of
a 30 x 30 and a 30 x 30 array, np.vander of 1000 points to 100 columns,
np.trace of a 1000 x 1000 array.
Every contender runs the same kernel source (`from numba import` swapped
for `from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npmatrix.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def outer(a, b):
    return np.outer(a, b)


@njit
def eye(n):
    return np.eye(n)


@njit
def tril(a):
    return np.tril(a)


@njit
def kron(a, b):
    return np.kron(a, b)


@njit
def vander(x, n):
    return np.vander(x, n)


@njit
def trace(a):
    return np.trace(a)
'''


def main():
    rng = np.random.default_rng(18)
    x, y = rng.standard_normal(1000), rng.standard_normal(1000)
    m = rng.standard_normal((1000, 1000))
    k = rng.standard_normal((30, 30))
    v = rng.uniform(0.5, 1.5, 1000)
    cases = [("np.outer 1000 x 1000 f64", "outer", (x, y)),
             ("np.eye(1000)", "eye", (1000,)),
             ("np.tril 1000x1000 f64", "tril", (m,)),
             ("np.kron 30x30, 30x30 f64", "kron", (k, k)),
             ("np.vander 1000 points, 100 columns", "vander", (v, 100)),
             ("np.trace 1000x1000 f64", "trace", (m,))]

    def same(w, g, k):
        return np.array_equal(w, g, equal_nan=True)

    pairbench.report(pairbench.run(SRC, "nm", cases, same))


if __name__ == "__main__":
    main()
