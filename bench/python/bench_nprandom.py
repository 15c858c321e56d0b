#!/usr/bin/env python3
"""np.random inside njit functions (issue 18) side by side with Numba in
one process: np.random.random(10**6) (one fill), a loop of 10**6
np.random.normal() calls (one draw a call: Numba inlines its generator,
ufjit calls its runtime), np.random.randint(0, 1000, 10**6) and
np.random.shuffle of 10**6 int64. Each kernel seeds first, so both sides
must return the same bits. Every contender runs the same kernel source
(`from numba import` swapped for `from ufjit import`), alternating rounds;
the table gives the best time of each and ufjit / Numba (below 1: ufjit
faster).
usage: PYTHONPATH=build/python python3 bench/python/bench_nprandom.py"""
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
def random_fill(n):
    np.random.seed(1)
    return np.random.random(n)


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
    n = 10**6
    perm = np.arange(n)
    cases = [("np.random.random(10**6)", "random_fill", (n,)),
             ("10**6 np.random.normal() in a loop", "normal_loop", (n,)),
             ("np.random.randint(0, 1000, 10**6)", "randint_fill", (n,)),
             ("np.random.shuffle 10**6 int64", "shuffle", (perm,))]
    with tempfile.TemporaryDirectory() as d:
        uj, nb = load("nr_ufjit", True, d), load("nr_numba", False, d)
        rows = []
        for label, k, a in cases:
            fu, fn = getattr(uj, k), getattr(nb, k)
            fresh = [np.copy(x) if isinstance(x, np.ndarray) else x
                     for x in a]
            want = fn(*fresh)
            fresh = [np.copy(x) if isinstance(x, np.ndarray) else x
                     for x in a]
            got = fu(*fresh)
            if not np.array_equal(np.asarray(want), np.asarray(got)):
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
