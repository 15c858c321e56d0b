#!/usr/bin/env python3
"""np.flip, np.rot90, np.swapaxes, np.roll and np.ascontiguousarray inside njit
functions (issue 18) side by side with Numba in one process: the sum of
np.flip of 10**6 float64 (a reversed view summed), of np.rot90 of a
1000 x 1000 array summed in a loop nest, np.roll of 10**6 float64 (C and
reversed), and np.ascontiguousarray of a
transposed 1000 x 1000 array (a copy). Every contender runs the same
kernel source (`from numba import` swapped for `from ufjit import`) on the
same arrays, alternating rounds; the table gives the best time of each and
ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npview.py"""
import importlib.util
import os
import pathlib
import sys
import tempfile
import timeit

import numpy as np

SRC = '''import numpy as np
from numba import njit


@njit
def flip_sum(a):
    return np.flip(a).sum()


@njit
def flip_loop(a):
    v = np.flip(a)
    s = 0.0
    for i in range(v.shape[0]):
        s += v[i] * (i & 7)
    return s


@njit
def rot90_loop(a):
    v = np.rot90(a)
    s = 0.0
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            s += v[i, j] * j
    return s


@njit
def roll(a):
    return np.roll(a, 12345)


@njit
def roll_view(a):
    return np.roll(a[::-1], 12345)


@njit
def contig_sum(a):
    return np.ascontiguousarray(np.swapaxes(a, 0, 1))[0, 0]
'''


def load(name, swap, where):
    text = SRC.replace("from numba import", "from ufjit import") if swap \
        else SRC
    path = pathlib.Path(where) / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    rng = np.random.default_rng(18)
    n = 10**6
    g = rng.standard_normal(n)
    m = rng.standard_normal((1000, 1000))
    cases = [("np.flip(a).sum() f64 1e6", "flip_sum", (g,)),
             ("loop over np.flip(a) f64 1e6", "flip_loop", (g,)),
             ("loop nest over np.rot90(a) 1000x1000", "rot90_loop", (m,)),
             ("np.roll(a, 12345) f64 1e6", "roll", (g,)),
             ("np.roll(a[::-1], 12345) f64 1e6", "roll_view", (g,)),
             ("np.ascontiguousarray(np.swapaxes(a)) 1000x1000",
              "contig_sum", (m,))]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("nv_ufjit", True, d), load("nv_numba", False, d)
        rows = []
        for label, k, a in cases:
            fu, fn = getattr(uj, k), getattr(nb, k)
            want, got = fn(*a), fu(*a)
            if not np.allclose(want, got, rtol=1e-9):
                sys.exit(f"{label}: ufjit's result differs from Numba's")
            best = {"ufjit": 1e9, "numba": 1e9}
            for _ in range(5):  # alternate the contenders
                for who, fun in (("ufjit", fu), ("numba", fn)):
                    t = min(timeit.repeat(lambda: fun(*a), number=20,
                                          repeat=3)) / 20
                    best[who] = min(best[who], t)
            rows.append((label, best["ufjit"], best["numba"]))
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), "
          f"{os.cpu_count()} CPUs\n")
    print("| case | ufjit ms | Numba ms | ufjit / Numba |")
    print("|---|---:|---:|---:|")
    for label, u, b in rows:
        print(f"| {label} | {u * 1e3:.3f} | {b * 1e3:.3f} | {u / b:.2f} |")


if __name__ == "__main__":
    main()
