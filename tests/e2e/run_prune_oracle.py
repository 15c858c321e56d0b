#!/usr/bin/env python3
"""Branch pruning against Numba (compiler/types/infer_prune.c).

Every kernel of tests/kernels/prune.py runs through `ufjit call` and
through Numba (the file imported as written) on the same input; outputs
must agree in dtype and bit for bit. Then each source in REFUSED, a
kernel whose dead-looking branch Numba does NOT prune (so it types it and
fails), must fail under Numba and under `ufjit call` too, ufjit's message
holding the case's fragment at the case's line.

    run_prune_oracle.py UFJIT [-v]

Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import warnings
import oracle_util  # noqa: E402

sys.dont_write_bytecode = True  # nothing written into the source tree

try:
    import numpy as np
    import numba  # noqa: F401
except ImportError as e:
    print(f"SKIP: {e.name} is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL_FILE = os.path.join(os.path.dirname(HERE), "kernels", "prune.py")
X = np.array([-1.0, 0.0, 1.0, 2.0, 0.5, -3.25])

HEADER = ("from numba import vectorize\n"
          "DEBUG = False\nON = True\nK = 5\n"
          "@vectorize(['float64(float64)'])\n")

# (name, body, fragment of ufjit's message, line of the error in the file
# HEADER + body). Numba refuses each: the test is not a constant to it.
TUPLE = "Can't unify return type"
REFUSED = [
    ("neg_const", "def f(x):\n    if -K > 0:\n        return (x, x)\n"
     "    return x\n", TUPLE, 9),
    ("bool_call", "def f(x):\n    if bool(DEBUG):\n        return (x, x)\n"
     "    return x\n", TUPLE, 9),
    ("not_stored", "def f(x):\n    c = not ON\n    if c:\n"
     "        return (x, x)\n    return x\n", TUPLE, 10),
    ("phi", "def f(x):\n    n = 1\n    if x > 0:\n        n = 2\n"
     "    if n > 5:\n        return (x, x)\n    return x\n", TUPLE, 12),
    ("branch_def", "def f(x):\n    flag = False\n    if x > 0:\n"
     "        flag = True\n    if flag:\n        return (x, x)\n"
     "    return x\n", TUPLE, 12),
    ("loop_phi", "def f(x):\n    n = 0\n    for i in range(3):\n"
     "        if n > 5:\n            return (x, x)\n        n = 1\n"
     "    return x\n", TUPLE, 12),
    ("augassign", "def f(x):\n    n = 1\n    n += 1\n    if n > 5:\n"
     "        return (x, x)\n    return x\n", TUPLE, 11),
    ("unpacked", "def f(x):\n    a, b = 1, 2\n    if a > 5:\n"
     "        return (x, x)\n    return x\n", TUPLE, 10),
    # pruned by the first round, too late for the last one (as Numba)
    ("two_rounds", "def f(x):\n    n = 1\n    if DEBUG:\n        n = 2\n"
     "    m = 0\n    if n > 1:\n        m = 5\n    if m > 1:\n"
     "        return (x, x)\n    return x\n", TUPLE, 15),
    ("unbound", "def f(x):\n    if DEBUG:\n        y = 1.0\n    return y\n",
     "local variable 'y' is referenced before assignment", 9),
    ("live_branch", "def f(x):\n    if ON:\n        return (x, x)\n"
     "    return x\n", "cannot be converted to the declared return type",
     8),
]


def load_numba_module(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return oracle_util.load(path)


def kernel_names(path):
    names, deco = [], False
    with open(path) as f:
        for line in f:
            if line.startswith("@"):
                deco = True
            elif line.startswith("def ") and deco:
                names.append(line[4:line.index("(")])
                deco = False
    return names


def run_ufjit(ufjit, path, name, inp, tmp):
    out = os.path.join(tmp, name + ".out.npy")
    p = subprocess.run([ufjit, "call", path, name, inp, "-o", out],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()
    return np.load(out), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ufjit")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    failures = 0
    mod = load_numba_module(KERNEL_FILE)
    with tempfile.TemporaryDirectory() as tmp:
        inp = os.path.join(tmp, "x.npy")
        np.save(inp, X)
        names = kernel_names(KERNEL_FILE)
        for name in names:
            want = getattr(mod, name)(X)
            got, msg = run_ufjit(args.ufjit, KERNEL_FILE, name, inp, tmp)
            ok = (got is not None and got.dtype == want.dtype and
                  got.shape == want.shape and
                  got.tobytes() == want.tobytes())
            if not ok:
                failures += 1
                shown = repr(got) if got is not None else msg
                print(f"FAIL prune.{name}: Numba {want!r}, ufjit {shown}")
            elif args.v:
                print(f"ok   prune.{name}")
        for name, body, fragment, line in REFUSED:
            src = HEADER + body
            path = os.path.join(tmp, name + ".py")
            with open(path, "w") as f:
                f.write(src)
            try:
                g = {}
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    exec(compile(src, path, "exec"), g)
                    g["f"](X)
                numba_refused = False
            except Exception:  # noqa: BLE001 (any compile error)
                numba_refused = True
            got, msg = run_ufjit(args.ufjit, path, "f", inp, tmp)
            where = f"{path}:{line}:"
            problems = []
            if not numba_refused:
                problems.append("Numba compiled it (the case is wrong)")
            if got is not None:
                problems.append("ufjit compiled it")
            elif fragment not in msg or where not in msg:
                problems.append(f"ufjit said: {msg}")
            if problems:
                failures += 1
                print(f"FAIL refused.{name}: " + "; ".join(problems))
            elif args.v:
                print(f"ok   refused.{name}")
    total = len(kernel_names(KERNEL_FILE)) + len(REFUSED)
    print(f"{total - failures}/{total} pruning cases agree with Numba "
          f"{numba.__version__}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
