#!/usr/bin/env python3
"""np.concatenate / np.vstack / np.hstack inside njit functions (issue 18)
side by side with Numba in one process: np.concatenate of two 10**6
float64 arrays (one memcpy each), of a float64 and an int32 array (the
converting loop), np.hstack of two 1000 x 1000 arrays (a memcpy per row),
and 1000 calls of np.vstack of two rows of 8 float64 inside one kernel
(the per-call cost: allocation, checks, copies). Every contender runs the
same kernel source (`from numba import` swapped for `from ufjit import`)
on the same arrays, alternating rounds; the table gives the best time of
each and ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npjoin.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def cat(a, b):
    return np.concatenate((a, b))


@njit
def hstack(a, b):
    return np.hstack((a, b))


@njit
def vstack_rows(a, b):
    s = 0.0
    for i in range(1000):
        r = np.vstack((a, b))
        s += r[1, i % 8]
    return s
'''


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    f, g = rng.standard_normal(n), rng.standard_normal(n)
    i = rng.integers(-99, 99, n).astype(np.int32)
    m1, m2 = rng.standard_normal((1000, 1000)), rng.standard_normal((1000,
                                                                      1000))
    r1, r2 = rng.standard_normal(8), rng.standard_normal(8)
    cases = [("np.concatenate 2 x f64 1e6", "cat", (f, g)),
             ("np.concatenate f64 1e6 + i32 1e6", "cat", (f, i)),
             ("np.hstack 2 x f64 1000x1000", "hstack", (m1, m2)),
             ("1000 x np.vstack of 2 rows of 8 f64", "vstack_rows",
              (r1, r2))]

    def same(w, g, k):
        return np.array_equal(w, g)

    pairbench.report(pairbench.run(SRC, "nj", cases, same))


if __name__ == "__main__":
    main()
