#!/usr/bin/env python3
"""guvectorize kernels under Numba and through `ufjit call`, compared.

    run_gufunc_oracle.py UFJIT [--kernels DIR] [-v]

- Every case of tests/gen/guvectorize_cases.py on tests/kernels/gufuncs.py
  (the kernels Numba accepts) runs through Numba's own guvectorize (the
  file imported as a module; outputs allocated by Numba) and through
  `ufjit call` with one -o per output of the layout; dtypes, shapes and
  values must agree exactly (the inputs keep every sum exact). Kernels
  without signatures are left out: Numba cannot call them without the
  outputs.
- Every kernel of tests/kernels/gufuncs_errors.py is defined on its own
  under Numba (Numba raises at decoration) and called through ufjit, which
  must exit 1 with Numba's message, except where DIFFERS says why ours is
  another one.
Exit status: 0 all agree, 1 a difference, 77 NumPy or Numba is missing.
"""
import argparse
import ast
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import warnings
import oracle_util  # noqa: E402

sys.dont_write_bytecode = True

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)
try:
    import numba  # noqa: F401
except ImportError:
    print("SKIP: numba is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)

# Errors where ufjit's message is not Numba's, and why.
DIFFERS = {
    # Numba: "invalid number of args: expected 3, got 2"
    "layout_arity": "takes 3 arguments but its layout",
    # Numba: a typing error, "No conversion from float64 to none"
    "returns_value": "guvectorized functions cannot return values",
    # Numba: "No conversion from none to float64" (the kernel returns None)
    "return_type": "guvectorized functions cannot return values",
    # Numba accepts it and leaves the output unwritten
    "scalar_output": "scalar type float64 given for output argument #2",
}


# Cases where Numba's answer is wrong: a kernel declared with C-contiguous
# arrays (float64[:, ::1]) given strided or F-ordered data reads it as if
# it were packed. ufjit checks the strides; these compare with NumPy.
NUMBA_WRONG = {"matvec_c_strided", "matvec_c_F"}

# Known differences, each to be fixed where it is said (reported).
KNOWN = {}


def load(path):
    return oracle_util.load(path)


def ufjit_arg(spec, path):
    """The command-line argument for an input spec of the generator."""
    if not hasattr(spec, "shape"):
        return f"{spec.dtype}:{spec.v!r}"
    b = gen.base(spec.dtype, spec.seed, spec.shape, spec.order)
    np.save(path, b)
    if spec.index:
        return f"{path}[{spec.index}]"
    return path


def call(ufjit, argv):
    p = subprocess.run([ufjit, "call", *argv], capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check_cases(ufjit, kernels, tmp, verbose):
    mod = load(os.path.join(kernels, "gufuncs.py"))
    bad = 0
    for cid, file, kernel, ins, ref in gen.CASES:
        fn = getattr(mod, kernel, None) if file == "gufuncs.py" else None
        if fn is None or kernel.startswith("lazy"):
            continue
        values = [s.value() for s in ins]
        with np.errstate(all="ignore"):
            want = (ref if cid in NUMBA_WRONG else fn)(*values)
        want = want if isinstance(want, tuple) else (want,)
        args = [ufjit_arg(s, os.path.join(tmp, f"{cid}_in{j}.npy"))
                for j, s in enumerate(ins)]
        outs = [os.path.join(tmp, f"{cid}_out{k}.npy")
                for k in range(len(want))]
        argv = [os.path.join(kernels, file), kernel, *args]
        for o in outs:
            argv += ["-o", o]
        rc, _, err = call(ufjit, argv)
        problems = []
        if rc != 0:
            problems.append(f"ufjit exited {rc}: {err.strip()}")
        else:
            for k, (o, w) in enumerate(zip(outs, want)):
                got, w = np.load(o), np.asarray(w)
                if got.dtype != w.dtype or got.shape != w.shape:
                    problems.append(f"output {k}: {got.dtype}{got.shape}, "
                                    f"Numba {w.dtype}{w.shape}")
                elif not np.array_equal(got, w, equal_nan=True):
                    problems.append(f"output {k}: {got!r} != Numba {w!r}")
        if problems and cid in KNOWN:
            print(f"KNOWN {cid}: {KNOWN[cid]}: " + "; ".join(problems))
        elif problems:
            bad += 1
            print(f"FAIL {cid}: " + "; ".join(problems))
        elif cid in KNOWN:
            bad += 1
            print(f"FAIL {cid}: agrees now: remove it from KNOWN")
        elif verbose:
            print(f"ok   {cid}" + (" (NumPy: Numba is wrong here)"
                                   if cid in NUMBA_WRONG else ""))
    return bad


def numba_error(source, node):
    """Numba's exception when the kernel is defined on its own."""
    deco_line = node.decorator_list[0].lineno
    lines = source.splitlines()
    seg = "\n".join(lines[deco_line - 1:node.end_lineno])
    code = "from numba import float64, guvectorize\n" + seg + "\n"
    try:
        exec(compile(code, "<kernel>", "exec"), {})
    except Exception as e:
        return re.sub(r"\x1b\[[0-9;]*m", "", str(e)).strip()
    return None


def check_errors(ufjit, kernels, verbose):
    path = os.path.join(kernels, "gufuncs_errors.py")
    with open(path) as f:
        source = f.read()
    bad = 0
    x = np.zeros(3)
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        name = node.name
        nb = numba_error(source, node)
        expect = DIFFERS.get(name, nb)
        if expect is None:
            bad += 1
            print(f"FAIL {name}: Numba accepts it and DIFFERS has no entry")
            continue
        if name not in DIFFERS and nb is None:
            bad += 1
            print(f"FAIL {name}: Numba accepts it")
            continue
        expect = expect.splitlines()[0]
        # as many inputs as ufjit's arity says; ufjit fails before reading
        # the output names
        nin = None
        for n in range(0, 4):
            files = []
            for j in range(n):
                p = os.path.join(tmpdir, f"{name}_{j}.npy")
                np.save(p, x)
                files.append(p)
            rc, out, err = call(ufjit, [path, name, *files, "-o",
                                        os.path.join(tmpdir, "o.npy")])
            if "inputs, " not in err and "input, " not in err:
                nin = n
                break
        if nin is None or rc != 1 or expect not in err or out:
            bad += 1
            print(f"FAIL {name}: ufjit exit {rc}: {err.strip()!r}; "
                  f"expected {expect!r}")
        elif verbose:
            print(f"ok   {name}: {expect}")
    return bad


def main():
    global gen, tmpdir
    ap = argparse.ArgumentParser()
    ap.add_argument("ufjit")
    ap.add_argument("--kernels", default=os.path.join(TESTS, "kernels"))
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    warnings.simplefilter("ignore")
    spec = importlib.util.spec_from_file_location(
        "guvectorize_cases", os.path.join(TESTS, "gen", "guvectorize_cases.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = tmp
        bad = check_cases(a.ufjit, a.kernels, tmp, a.v)
        bad += check_errors(a.ufjit, a.kernels, a.v)
    print(f"{'FAILED' if bad else 'passed'}: {bad} difference(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
