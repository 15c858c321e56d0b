"""What the bench/python scripts that time ufjit against Numba share: the
kernel source loaded twice (as written, and with `from numba import`
swapped for `from ufjit import`), each case checked for agreement, then
timed in alternating rounds (machine noise hits both alike), and the
table of best times printed.

    rows = pairbench.run(SRC, "nc", cases, same)
    pairbench.report(rows)

cases: (label, kernel, args[, numpy]) with args a tuple or one array and
numpy, when given, NumPy's function of the same arguments (a third
contender: every case then has one). same(want, got, kernel) says whether
Numba's and ufjit's results (copied, tuples as lists) agree; the script
exits when they do not. number: calls per timing, or a function of the
kernel's name. fresh(args), when given, makes the arguments of each check
call (kernels that write into them)."""
import importlib.util
import os
import pathlib
import sys
import tempfile
import timeit

import numpy as np


def load(src, name, swap, where):
    """src as module `name` written under `where`; swap: ufjit's."""
    text = src.replace("from numba import", "from ufjit import") if swap \
        else src
    path = pathlib.Path(where) / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def best_time(fun, args, number, repeat=3):
    """Seconds per call: the best of `repeat` runs of `number` calls."""
    return min(timeit.repeat(lambda: fun(*args), number=number,
                             repeat=repeat)) / number


def _kept(r):
    """A result as it is now (an out= argument is rewritten by the next
    call)."""
    if isinstance(r, tuple):
        return [_kept(x) for x in r]
    return np.copy(r) if isinstance(r, np.ndarray) else r


def run(src, tag, cases, same, number=20, rounds=5, repeat=3, fresh=None):
    """(label, ufjit s, Numba s[, NumPy s]) per case."""
    rows = []
    with tempfile.TemporaryDirectory() as d:
        uj = load(src, f"{tag}_ufjit", True, d)
        nb = load(src, f"{tag}_numba", False, d)
        for case in cases:
            label, k, args = case[:3]
            args = args if isinstance(args, tuple) else (args,)
            n = number(k) if callable(number) else number
            fu, fn = getattr(uj, k), getattr(nb, k)
            want = _kept(fn(*(fresh(args) if fresh else args)))
            got = _kept(fu(*(fresh(args) if fresh else args)))
            if not same(want, got, k):
                sys.exit(f"{label}: ufjit's {got} differs from Numba's "
                         f"{want}")
            who = [("ufjit", fu), ("numba", fn)]
            if len(case) > 3:
                who.append(("numpy", case[3]))
            best = dict.fromkeys([w for w, _ in who], 1e9)
            for _ in range(rounds):  # alternate the contenders
                for w, fun in who:
                    best[w] = min(best[w], best_time(fun, args, n, repeat))
            rows.append((label, *best.values()))
    return rows


def report(rows):
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), "
          f"{os.cpu_count()} CPUs\n")
    if rows and len(rows[0]) == 4:
        print("| case | ufjit ms | Numba ms | NumPy ms | ufjit / Numba | "
              "ufjit / NumPy |")
        print("|---|---:|---:|---:|---:|---:|")
        for label, u, b, p in rows:
            print(f"| {label} | {u * 1e3:.2f} | {b * 1e3:.2f} | "
                  f"{p * 1e3:.2f} | {u / b:.2f} | {u / p:.2f} |")
        return
    print("| case | ufjit ms | Numba ms | ufjit / Numba |")
    print("|---|---:|---:|---:|")
    for label, u, b in rows:
        print(f"| {label} | {u * 1e3:.3f} | {b * 1e3:.3f} | {u / b:.2f} |")
