#!/usr/bin/env python3
"""for loops over np.ndindex, np.ndenumerate and np.nditer inside njit
functions (issue 18) side by side with Numba in one process: the sum of a
1000 x 1000 float64 array over `np.ndindex(a.shape)`, over
`np.ndenumerate(a)`, over `np.nditer(a)`, and the plain double loop
`for i in range(n): for j in range(m)` for reference (ufjit lowers the
ndindex loop to that nest). Every contender runs the same kernel source
(`from numba import` swapped for `from ufjit import`) on the same array,
alternating rounds; the table gives the best time of each and
ufjit / Numba (below 1: ufjit faster), and ufjit's ndindex sum over its
own double loop.
usage: PYTHONPATH=build/python python3 bench/python/bench_npiter.py"""

import numpy as np

import pairbench

SRC = '''import numpy as np
from numba import njit


@njit
def nd_sum(a):
    s = 0.0
    for idx in np.ndindex(a.shape):
        s += a[idx]
    return s


@njit
def loops_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    return s


@njit
def en_sum(a):
    s = 0.0
    for idx, v in np.ndenumerate(a):
        s += v
    return s


@njit
def it_sum(a):
    s = 0.0
    for x in np.nditer(a):
        s += x[()]
    return s
'''


def main():
    rng = np.random.default_rng(18)
    m = rng.standard_normal((1000, 1000))
    cases = [("np.ndindex sum 1000x1000", "nd_sum", (m,)),
             ("double range loop sum 1000x1000", "loops_sum", (m,)),
             ("np.ndenumerate sum 1000x1000", "en_sum", (m,)),
             ("np.nditer sum 1000x1000", "it_sum", (m,))]

    def same(w, g, k):
        return w == g

    rows = pairbench.run(SRC, "ni", cases, same, number=10)
    pairbench.report(rows)
    print("\nufjit ndindex / ufjit double loop: "
          f"{rows[0][1] / rows[1][1]:.2f}")


if __name__ == "__main__":
    main()
