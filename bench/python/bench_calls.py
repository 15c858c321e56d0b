#!/usr/bin/env python3
"""The Python package's call costs, side by side with Numba and NumPy in
one run (issue 17's goals), printed as a Markdown table with ratios:
  - a ufunc on 10 float64 elements with out=, and allocating its output;
  - a gufunc on 10 rows of 10;
  - 10**7 elements (the C call's cost dominates);
  - `import ufjit` plus the first compile and call, in fresh processes.
usage: PYTHONPATH=build/python python3 bench/python/bench_calls.py"""
import importlib.util
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import timeit

import numpy as np

HERE = pathlib.Path(__file__).parent


def load(name, swap, where):
    text = (HERE / "kernels.py").read_text()
    if swap:
        text = text.replace("from numba import", "from ufjit import")
    path = pathlib.Path(where) / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def per_call(f, number):
    return min(timeit.repeat(f, number=number, repeat=7)) / number


def first_call_ms(kernel_dir, module, runs=5):
    code = ("import time; t0 = time.perf_counter(); import {lib}; "
            "import numpy as np, sys; sys.path.insert(0, {d!r}); "
            "import {m}; {m}.hyp(np.ones(3), np.ones(3)); "
            "print((time.perf_counter() - t0) * 1e3)")
    out = {}
    for lib, m in (("ufjit", module[0]), ("numba", module[1])):
        times = []
        for _ in range(runs):
            r = subprocess.run([sys.executable, "-c", code.format(
                lib=lib, d=str(kernel_dir), m=m)], capture_output=True,
                text=True, env=dict(os.environ, NUMBA_CACHE_DIR="/nonexistent"))
            if r.returncode != 0:
                raise SystemExit(r.stderr)
            times.append(float(r.stdout))
        out[lib] = statistics.median(times)
    return out


def main():
    with tempfile.TemporaryDirectory() as d:
        uf = load("k_ufjit", True, d)
        nb = load("k_numba", False, d)
        rows = []
        a, b, out = np.ones(10), np.ones(10), np.empty(10)
        for f in (uf.hyp, nb.hyp):
            f(a, b, out=out)
        rows.append(("ufunc, 10 elements, out=",
                     per_call(lambda: uf.hyp(a, b, out=out), 100000),
                     per_call(lambda: nb.hyp(a, b, out=out), 100000),
                     per_call(lambda: np.hypot(a, b, out=out), 100000)))
        rows.append(("ufunc, 10 elements, allocating",
                     per_call(lambda: uf.hyp(a, b), 100000),
                     per_call(lambda: nb.hyp(a, b), 100000),
                     per_call(lambda: np.hypot(a, b), 100000)))
        m, o = np.ones((10, 10)), np.empty(10)
        uf.total(m, o)
        nb.total(m, o)
        rows.append(("gufunc (n)->(), 10 x 10, out given",
                     per_call(lambda: uf.total(m, o), 50000),
                     per_call(lambda: nb.total(m, o), 50000),
                     per_call(lambda: np.sum(m, axis=1, out=o), 50000)))
        big = np.random.default_rng(0).random(10**7)
        bo = np.empty_like(big)
        rows.append(("ufunc, 10**7 elements, out=",
                     per_call(lambda: uf.hyp(big, big, out=bo), 10),
                     per_call(lambda: nb.hyp(big, big, out=bo), 10),
                     per_call(lambda: np.hypot(big, big, out=bo), 10)))
        first = first_call_ms(d, ("k_ufjit", "k_numba"))
    print("| case | ufjit | Numba | NumPy | ufjit / Numba |")
    print("|---|---|---|---|---|")
    for name, u, n, p in rows:
        scale, unit = (1e6, "us") if u < 1e-3 else (1e3, "ms")
        print(f"| {name} | {u * scale:.3f} {unit} | {n * scale:.3f} {unit} "
              f"| {p * scale:.3f} {unit} | {u / n:.2f} |")
    print(f"| import + first compile + call (fresh process, median of 5) "
          f"| {first['ufjit']:.0f} ms | {first['numba']:.0f} ms | - | "
          f"{first['ufjit'] / first['numba']:.2f} |")


if __name__ == "__main__":
    main()
