#!/usr/bin/env python3
"""Sums and cumulative sums over axes, and np.round into out=, inside njit
functions (issue 18) side by side with Numba in one process: np.sum over
axis 0 of a C float64 matrix into float32 (dtype=), over a tuple of axes,
np.cumsum over axis 0 and over the last axis, np.round(a, 2, out). Every
contender runs the same kernel source (`from numba import` swapped for
`from ufjit import`) on the same arrays, alternating rounds; the table
gives the best time of each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npaxis.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def colsum32(a):
    return np.sum(a, axis=0, dtype=np.float32)


@njit
def sum02(a):
    return np.sum(a, axis=(0, 2))


@njit
def cumsum0(a):
    return np.cumsum(a, axis=0)


@njit
def cumsum1(a):
    return np.cumsum(a, axis=1)


@njit
def round_out(a, o):
    return np.round(a, 2, o)
'''


def main():
    rng = np.random.default_rng(18)
    m = rng.standard_normal((1000, 1000))
    t3 = rng.standard_normal((100, 100, 100))
    out = np.empty_like(m)
    cases = [("np.sum(axis=0, dtype=f4) 1000x1000", "colsum32", (m,)),
             ("np.sum(axis=(0, 2)) 100^3", "sum02", (t3,)),
             ("np.cumsum(axis=0) 1000x1000", "cumsum0", (m,)),
             ("np.cumsum(axis=1) 1000x1000", "cumsum1", (m,)),
             ("np.round(a, 2, out) 1000x1000", "round_out", (m, out))]

    def same(w, g, k):
        f32 = w.dtype == np.float32
        return w.dtype == g.dtype and np.allclose(
            w, g, rtol=1e-5 if f32 else 1e-12, atol=1e-3 if f32 else 1e-9)

    pairbench.report(pairbench.run(SRC, "ax", cases, same, number=10))


if __name__ == "__main__":
    main()
