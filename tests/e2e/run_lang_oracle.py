#!/usr/bin/env python3
"""Python statements inside kernels (tests/kernels/host/lang.py: raise,
`in`) against Numba: each case runs through `ufjit call` and through Numba on the same
inputs. Results must have Numba's dtype, shape and values; where Numba
raises, ufjit fails with the same exception class and Numba's str() of
it ("ValueError: ('too big', 3, 1.5, True)"); a form ufjit refuses while
Numba runs it (a documented difference) must be refused at the kernel's
FILE:LINE:COL with the expected words.

    run_lang_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import subprocess
import sys
import tempfile
import warnings

sys.dont_write_bytecode = True

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import S, V, f8, i8  # noqa: E402
from oracle_record import Record  # noqa: E402
from oracle_util import (as_array, lazy_load, materialise,  # noqa: E402
                         options, run_ufjit, run_ufjit_outs)

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "lang.py")

RAISES = "raises"
NO_RESULT = {"raise_unconditional"}  # returns None: no -o file


def cases():
    """(kernel, inputs, expectation): None returns as Numba, RAISES raises
    as Numba, ("refused", words) refused by ufjit at FILE:LINE:COL."""
    return [
        ("raise_value", [S("-2")], None),
        ("raise_value", [S("3")], RAISES),
        ("raise_value", [S("2.5")], RAISES),
        ("raise_bare_class", [S("1")], RAISES),
        ("raise_bare_class", [S("0")], None),
        ("raise_no_args", [S("1.0")], RAISES),
        ("raise_args", [S("1")], None),
        ("raise_args", [S("3")], RAISES),
        ("raise_args", [S("2")], RAISES),
        ("raise_args", [S("int8:-100")], None),
        ("raise_args", [S("uint16:9")], RAISES),
        ("raise_args", [S("float32:2.5")], RAISES),
        ("raise_key", [S("1")], RAISES),
        ("raise_int_arg", [S("-7")], RAISES),
        ("raise_int_arg", [S("int32:-2147483648")], RAISES),
        ("raise_int_arg", [S("uint64:5")], None),
        ("raise_int_arg", [S("5")], None),
        ("raise_float_forms", [S("0.1")], RAISES),
        ("raise_float_forms", [S("-1e-300")], RAISES),
        ("raise_float_forms", [S("1e22")], RAISES),
        ("raise_float_forms", [S("nan")], RAISES),
        ("raise_float_forms", [S("0.0")], None),
        ("raise_quotes", [S("true")], RAISES),
        ("raise_quotes", [S("false")], None),
        ("raise_assertion", [S("3")], RAISES),
        ("raise_assertion", [S("4")], None),
        ("raise_in_loop", [f8(6, lo=0, hi=5)], None),
        ("raise_in_loop", [V("f8", [1.0, 2.0, -1.0, 3.0])], RAISES),
        ("raise_in_loop", [f8(0)], None),
        ("raise_in_loop", [f8(7, lo=-5, hi=-1).view("::-2")], RAISES),
        ("raise_unconditional", [S("4")], RAISES),
        ("raise_caller", [S("3")], None),
        ("raise_caller", [S("10")], RAISES),
        ("raise_caller", [S("30")], RAISES),
        ("raise_prange", [f8(1000, lo=0, hi=100)], None),
        ("raise_prange", [V("f8", [1.0] * 500 + [101.0] + [2.0] * 600)],
         RAISES),
        ("raise_array_arg", [f8(3)],
         ("refused", "only string literals, integers, floats")),
        ("raise_complex_arg", [S("1.0")],
         ("refused", "only string literals, integers, floats")),
        ("raise_variable", [S("1")],
         ("refused", "name 'ValueError' is not defined")),
        # x in array / tuple: == in Numba's comparison type, NaN in nothing
        ("contains", [S("3"), i8(7, lo=0, hi=5)], None),
        ("contains", [S("3"), V("i8", [1, 2, 3])], None),
        ("contains", [S("3.5"), V("i8", [1, 2, 3])], None),
        ("contains", [S("3.0"), V("i4", [1, 2, 3])], None),
        ("contains", [S("nan"), V("f8", [1.0, np.nan])], None),
        ("contains", [S("-0.0"), V("f8", [1.0, 0.0])], None),
        ("contains", [S("2"), f8(0)], None),
        ("contains", [S("5"), V("i8", [0, 1, 2, 3, 4, 5], (2, 3))], None),
        ("contains", [S("5"), V("i8", [0, 1, 2, 3, 4, 5], (2, 3)).F], None),
        ("contains", [S("4"), V("i8", [0, 1, 2, 3, 4, 5], (2, 3))
                      .view("::-1, ::2")], None),
        ("contains", [S("1"), V("i8", [0, 1, 2, 3, 4, 5], (2, 3))
                      .view("::-1, ::2")], None),
        ("contains", [S("uint64:3"), V("i8", [-1, 3])], None),
        ("contains", [S("true"), V("b1", [False, True])], None),
        ("contains", [S("1+0j"), V("f4", [0.0, 1.0])], None),
        ("contains", [S("2"), V("c16", [1 + 1j, 2 + 0j])], None),
        ("contains", [S("int8:-1"), V("u1", [255, 1])], None),
        ("not_contains", [S("3"), V("i8", [1, 2, 3])], None),
        ("not_contains", [S("9"), f8(3, 4)], None),
        ("contains_tuple", [S("2.5")], None),
        ("contains_tuple", [S("2")], None),
        ("contains_tuple", [S("3")], None),
        ("contains_int_tuple", [S("8"), S("4")], None),
        ("contains_int_tuple", [S("7"), S("4")], None),
        ("contains_int_tuple", [S("4.0"), S("int16:4")], "TypingError"),
        ("contains_branch", [V("i8", [1, 3, 5, 7, 9, 11])], None),
        ("contains_branch", [f8(4, 4, lo=0, hi=12)], None),
        ("contains_mixed_tuple", [S("1")], "TypingError"),
        # print: the lines Numba's print writes (checked by printed())
        ("print_values", [S("3.0"), S("4")], None),
        ("print_values", [S("-2.5e-7"), S("int8:-1")], None),
        ("contains_array_key", [f8(3)], ("refused", "No implementation of "
                                         "function contains")),
    ]


def numba_result(fn, vals, r):
    """Numba's result as an array of the dtype Numba typed it with."""
    try:
        sig = fn.overloads[tuple(fn.typeof_pyval(v) for v in vals)].signature
        rt = sig.return_type
        if not hasattr(rt, "ndim"):
            return np.array(r, dtype=np.dtype(str(rt)))
    except (KeyError, TypeError):
        pass
    return as_array(r)


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind in "fc":  # prange sums add in another order
        return np.allclose(got, want, rtol=1e-12, atol=0, equal_nan=True)
    return np.array_equal(got, want)


def run_case(opt, mod, rec, tmp, cid, kernel, inputs, expect):
    vals, args = materialise(cid, inputs, tmp)

    def reference():
        probs, want, mark = [], None, None
        try:
            fn = getattr(mod(), kernel)
            want = numba_result(fn, vals, fn(*vals))
            if expect == RAISES:
                probs.append("Numba does not raise")
        except Exception as e:  # noqa: BLE001
            text = str(e)
            mark = f"{type(e).__name__}: {text}" if text else \
                f"{type(e).__name__} (in"
            if expect is None:
                probs.append(f"Numba raises {mark}")
            if expect == "TypingError":
                mark = type(e).__name__
        return want, mark, probs
    want, mark, probs = rec.answer(rec.key(kernel, expect, vals), vals,
                                   reference)
    probs = list(probs)
    if kernel in NO_RESULT:
        p, _, cmd = run_ufjit_outs(opt.ufjit, FILE, kernel, args, 0, tmp,
                                   cid)
    else:
        p, out, cmd = run_ufjit(opt.ufjit, FILE, kernel, args, tmp, cid)
    if expect == "TypingError":
        if p.returncode != 1 or f"{FILE}:" not in p.stderr:
            probs.append(f"ufjit did not refuse: exit {p.returncode} "
                         f"{p.stderr.strip()}")
        if mark is None or not mark.startswith("TypingError"):
            probs.append(f"Numba does not refuse: {mark}")
    elif isinstance(expect, tuple):
        if p.returncode != 1 or f"{FILE}:" not in p.stderr or \
                expect[1] not in p.stderr:
            probs.append(f"ufjit did not refuse ({expect[1]}): exit "
                         f"{p.returncode} {p.stderr.strip()}")
    elif expect == RAISES:
        if p.returncode != 1 or mark is None or mark not in p.stderr:
            probs.append(f"ufjit did not raise {mark}: exit "
                         f"{p.returncode} {p.stderr.strip()}\n  {cmd}")
    elif p.returncode != 0:
        probs.append(f"ufjit exited {p.returncode}: {p.stderr.strip()}\n"
                     f"  {cmd}")
    elif kernel.startswith("print") and \
            not printed(rec, kernel, vals, p.stdout)[0]:
        probs.append(f"ufjit printed {p.stdout!r}, Numba "
                     f"{printed(rec, kernel, vals, p.stdout)[1]!r}")
    elif want is not None:
        got = np.load(out)
        if not same(got, want):
            probs.append(f"ufjit {got.dtype} {got!r}, Numba {want.dtype} "
                         f"{want!r}\n  {cmd}")
    return probs


def printed(rec, kernel, vals, stdout):
    """Whether ufjit printed Numba's lines (its stdout less the line about
    the output file): Numba runs in a child process so that its C-level
    prints are captured."""
    code = ("import sys, numpy as np; sys.path.insert(0, sys.argv[1]); "
            "import lang; getattr(lang, sys.argv[2])(*eval(sys.argv[3]))")
    key = rec.key(kernel, "printed", vals)
    numba_out = rec.get(key)
    if numba_out is None:
        numba_out = subprocess.run(
            [sys.executable, "-c", code, os.path.dirname(FILE), kernel,
             repr(list(vals))], capture_output=True, text=True,
            timeout=300).stdout
        rec.put(key, numba_out)
    mine = "".join(line + "\n" for line in stdout.splitlines()
                   if ".out0.npy: " not in line)
    return numba_out == mine, numba_out, mine


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    mod, rec = lazy_load(FILE), Record(FILE)
    fails = n = 0
    warnings.simplefilter("ignore")
    seen = {}
    with tempfile.TemporaryDirectory(prefix="ufjit-lang-") as tmp:
        for kernel, inputs, expect in cases():
            seen[kernel] = seen.get(kernel, 0) + 1
            cid = f"{kernel}#{seen[kernel]}"
            if opt.filter not in cid:
                continue
            n += 1
            probs = run_case(opt, mod, rec, tmp, cid, kernel, inputs,
                             expect)
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs))
            elif opt.verbose:
                print(f"ok   {cid}")
    rec.close()
    print(f"{n - fails}/{n} lang cases agree with Numba")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
