#!/usr/bin/env python3
"""Issue 17's Dask case: 10**8 float64 through a ufunc (kernels.py's hyp)
on a LocalCluster of 2 worker processes, ufjit's and Numba's same kernel
side by side in one run, with the single-process call on NumPy arrays
beside them. Prints a Markdown table.

Each timed run is `hyp(x, x).sum().compute()` on an x already persisted
on the workers (10 chunks of 10**7): the sum keeps 800 MB of results from
travelling to this process, and `x.sum()` alone is timed too, as the floor
of what Dask's scheduling and the extra pass cost.
usage: PYTHONPATH=build/python python3 bench/python/bench_dask.py"""
import os
import pathlib
import sys
import tempfile
import time

import numpy as np

HERE = pathlib.Path(__file__).parent
N = 10**8
CHUNK = 10**7


def best(f, repeat=3):
    f()  # compiles where it runs (the workers) and warms caches
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def write_kernels(d):
    """k_ufjit.py and k_numba.py: kernels.py under each import."""
    text = (HERE / "kernels.py").read_text()
    (d / "k_numba.py").write_text(text)
    (d / "k_ufjit.py").write_text(
        text.replace("from numba import", "from ufjit import"))


def main():
    import dask.array as da
    from distributed import Client, LocalCluster, wait

    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        write_kernels(d)
        # the worker processes import the kernel modules from here
        os.environ["PYTHONPATH"] = os.pathsep.join(
            [str(d)] + [p for p in sys.path if p])
        sys.path.insert(0, str(d))
        import k_numba
        import k_ufjit

        rows = []
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, \
                Client(cluster):
            x = da.random.default_rng(0).random(N, chunks=CHUNK).persist()
            wait(x)
            floor = best(lambda: x.sum().compute())
            dist = {name: best(lambda m=m: m.hyp(x, x).sum().compute())
                    for name, m in (("ufjit", k_ufjit), ("numba", k_numba))}
            check = (k_ufjit.hyp(x, x) - k_numba.hyp(x, x)).max().compute()
            if abs(check) > 1e-12:
                raise SystemExit(f"ufjit and Numba differ by {check}")
        xs = np.random.default_rng(0).random(N)
        out = np.empty_like(xs)
        local = {name: best(lambda m=m: m.hyp(xs, xs, out=out).sum())
                 for name, m in (("ufjit", k_ufjit), ("numba", k_numba))}
        np_time = best(lambda: np.hypot(xs, xs, out=out).sum())

    print("| 10**8 float64, hyp(x, x).sum() | ufjit | Numba | "
          "ufjit / Numba |")
    print("|---|---|---|---|")
    print(f"| Dask, LocalCluster of 2 processes x 1 thread | "
          f"{dist['ufjit'] * 1e3:.0f} ms | {dist['numba'] * 1e3:.0f} ms | "
          f"{dist['ufjit'] / dist['numba']:.2f} |")
    print(f"| one process, NumPy arrays, out= | {local['ufjit'] * 1e3:.0f} ms"
          f" | {local['numba'] * 1e3:.0f} ms | "
          f"{local['ufjit'] / local['numba']:.2f} |")
    print(f"\nDask's floor (x.sum() alone on the cluster): "
          f"{floor * 1e3:.0f} ms; NumPy's np.hypot(x, x, out=).sum() in one "
          f"process: {np_time * 1e3:.0f} ms.")


if __name__ == "__main__":
    main()
