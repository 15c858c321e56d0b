#!/usr/bin/env python3
"""np.interp, np.digitize and np.bincount inside njit functions (issue 18)
side by side with Numba in one process: np.interp of 10**6 float64
points, random and sorted, on a 1000-point table (slopes cached), 100
points on a 10**5-point table (no cache), and complex fp; np.digitize of
10**6 points on 100 bins; np.bincount of 10**6 ints with weights. Every contender runs the same kernel source (`from numba
import` swapped for `from ufjit import`) on the same arrays, alternating
rounds; the table gives the best time of each and ufjit / Numba (below 1:
ufjit faster). Results must be equal bit for bit.
usage: PYTHONPATH=build/python python3 bench/python/bench_npnum.py"""
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
def interp(x, xp, fp):
    return np.interp(x, xp, fp)


@njit
def digitize(x, bins):
    return np.digitize(x, bins)


@njit
def bincount(a, w):
    return np.bincount(a, w)
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
    xp = np.sort(rng.uniform(0, 100, 1000))
    fp = rng.standard_normal(1000)
    x = rng.uniform(-1, 101, n)
    xs = np.sort(x)
    xp5 = np.sort(rng.uniform(0, 100, 10**5))
    fp5 = rng.standard_normal(10**5)
    cases = [("np.interp 1e6 random x, 1000-point table", "interp",
              (x, xp, fp)),
             ("np.interp 1e6 sorted x, 1000-point table", "interp",
              (xs, xp, fp)),
             ("np.interp 100 x, 1e5-point table", "interp",
              (x[:100], xp5, fp5)),
             ("np.interp 1e6 random x, complex fp", "interp",
              (x, xp, fp + 1j * fp[::-1])),
             ("np.digitize 1e6 random x, 100 bins", "digitize",
              (x, np.sort(rng.uniform(0, 100, 100)))),
             ("np.bincount 1e6 ints < 1000, float64 weights", "bincount",
              (rng.integers(0, 1000, n), x))]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("nn_ufjit", True, d), load("nn_numba", False, d)
        rows = []
        for label, k, a in cases:
            fu, fn = getattr(uj, k), getattr(nb, k)
            want, got = fn(*a), fu(*a)
            if want.tobytes() != got.tobytes():
                sys.exit(f"{label}: ufjit's result differs from Numba's")
            best = {"ufjit": 1e9, "numba": 1e9}
            for _ in range(5):  # alternate the contenders
                for who, fun in (("ufjit", fu), ("numba", fn)):
                    t = min(timeit.repeat(lambda: fun(*a), number=5,
                                          repeat=3)) / 5
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
