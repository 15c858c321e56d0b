#!/usr/bin/env python3
"""np.convolve and np.correlate inside njit functions (issue 18) side by
side with Numba in one process: float64 signals of 10**5 elements with a
31-tap filter and of 10**4 with 10**3 taps (np.convolve 'full', np.correlate
'valid' and 'same'), and an int32 pair. Every contender runs the same
kernel source (`from numba import` swapped for `from ufjit import`) on the
same arrays, alternating rounds; the table gives the best time of each and
ufjit / Numba (below 1: ufjit faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_npsignal.py"""
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
def convolve(a, v):
    return np.convolve(a, v)


@njit
def correlate(a, v):
    return np.correlate(a, v)


@njit
def correlate_same(a, v):
    return np.correlate(a, v, "same")
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
    a5, v31 = rng.standard_normal(10**5), rng.standard_normal(31)
    a4, v3 = rng.standard_normal(10**4), rng.standard_normal(10**3)
    i5 = rng.integers(-100, 100, 10**5).astype(np.int32)
    i31 = rng.integers(-100, 100, 31).astype(np.int32)
    cases = [("np.convolve f64 1e5 x 31", "convolve", (a5, v31)),
             ("np.correlate f64 1e5 x 31 valid", "correlate", (a5, v31)),
             ("np.convolve f64 1e4 x 1e3", "convolve", (a4, v3)),
             ("np.correlate f64 1e4 x 1e3 same", "correlate_same", (a4, v3)),
             ("np.convolve i32 1e5 x 31", "convolve", (i5, i31))]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("sg_ufjit", True, d), load("sg_numba", False, d)
        rows = []
        for label, k, a in cases:
            fu, fn = getattr(uj, k), getattr(nb, k)
            want, got = fn(*a), fu(*a)
            if want.dtype != got.dtype or not np.allclose(want, got,
                                                          rtol=1e-9):
                sys.exit(f"{label}: ufjit's result differs from Numba's")
            best = {"ufjit": 1e9, "numba": 1e9}
            for _ in range(3):  # alternate the contenders
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
