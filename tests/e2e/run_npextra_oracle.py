#!/usr/bin/env python3
"""np.nanargmin / np.nanargmax, np.count_nonzero and np.ptp inside kernels
(tests/kernels/host/npextra.py) against Numba: each case runs through
`ufjit call` and through Numba on the same inputs; dtype, shape and value
must match exactly (these reductions do not add floats in another order),
and where Numba raises ufjit must fail with the same exception
(TypingError: refused at compile time at the file's FILE:LINE:COL).

    run_npextra_oracle.py UFJIT [-k TEXT] [-v]
`ufjit call` passes a 0-d .npy as a number, so 0-d arrays are checked by
tests/test_npextra.c instead.
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
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
from corpus import (S, V, b1, c8, c16, f4, f8, i1, i4, i8,  # noqa: E402
                    u1, u8)
from oracle_record import Record  # noqa: E402
from oracle_util import (as_array, lazy_load, materialise,  # noqa: E402
                         options, run_ufjit)

KERNEL = os.path.join(os.path.dirname(HERE), "kernels", "host",
                      "npextra.py")
NAN, INF = float("nan"), float("inf")


def cases():
    """(kernel, inputs[, expected exception | "numpy"])."""
    c = []
    # every dtype Numba takes, whole arrays, views, specials
    for a in (f8(37, special=True), f4(5, 7, special=True), i1(4, 6),
              u8(30, lo=0, hi=1000), b1(9), i8(6, 5).F,
              f8(9, 8).view("::-2, 1::3"), f8(7, special=True).view("::-1"),
              V("f8", [NAN, INF, 3.0]), V("f8", [1.0, NAN, INF]),
              V("f8", [NAN, INF]), V("f8", [NAN, -INF, -INF]),
              f8(200)):
        c += [("nanargmin", [a]), ("nanargmax", [a])]
    c += [("nanargmin", [V("f8", [NAN, NAN])], "ValueError"),
          ("nanargmax", [f8(2, 3).view("::1, 0:0")], "ValueError"),
          ("nanargmin", [i4(0)], "ValueError"),
          ("nanargmin", [c16(3)], "TypingError"),
          ("nanargmin_tuple", [f8(2, 3)], "TypingError"),
          ("nanargmin_out", [f8(3)], "TypingError"),
          ("nanargmin_none", [f8(3, 4, special=True)]),
          ("nanargmax_kw_a", [i4(3, 4)])]
    for a in (f8(5, 6, special=True), i4(3, 4, 5), u1(4, 3).F, b1(4, 4),
              f8(9, 8).view("::-1, ::2")):
        for k in ("0", "-1"):
            c += [("nanargmin_axis", [a, S(k)]),
                  ("nanargmax_axis_pos", [a, S(k)])]
    c += [("nanargmin_axis", [f8(7, special=True), S("0")]),
          ("nanargmin_axis", [V("f8", [1.0, NAN, NAN, NAN], (2, 2)),
                              S("1")], "ValueError"),
          ("nanargmin_axis", [f8(3, 4), S("2")], "ValueError"),
          ("nanargmin_axis", [f8(3, 0), S("1")], "ZeroDivisionError"),
          ("nanargmin_axis", [f8(3, 4), S("true")], "TypingError")]
    # count_nonzero
    for a in (f8(6, 7, special=True), V("f8", [0.0, -0.0, NAN, 1.0]),
              i1(50, lo=-1, hi=2), u8(4, 5, lo=0, hi=2), b1(3, 5).F,
              c8(6, lo=-1, hi=1),
              V("c16", [0j, complex(0, NAN), 1j, complex(-0.0, 0.0)]),
              i4(9, 8, lo=0, hi=2).view("::-2, 1::3"), f8(0, 3),
              f4(300, lo=-1, hi=1)):
        c.append(("count", [a]))
    for a in (f8(5, 6, special=True), i4(3, 4, 5, lo=0, hi=2),
              b1(4, 3).F, f8(0, 3), i8(9, 8, lo=0, hi=2).view("::-1, ::3")):
        for k in ("0", "-1"):
            c.append(("count_axis", [a, S(k)]))
    c += [("count_axis", [f8(7, lo=0, hi=2), S("0")]),
          ("count_axis_pos", [f4(4, 40, lo=-1, hi=1), S("1")]),
          ("count_axis", [f8(3, 4), S("2")], "AxisError"),
          ("count_axis", [c16(3, 2), S("0")], "TypingError"),
          ("count_tuple", [i4(3, 4, 2, lo=0, hi=2)]),
          ("count_tuple", [f8(3, 4, lo=0, hi=2)]),
          ("count_none", [f8(3, 4, lo=0, hi=2)]),
          ("count_expr", [f8(4, 5)]),
          ("count_number", [S("3.0")], "TypingError"),
          ("count_float_axis", [f8(3, 2)], "TypingError")]
    # ptp
    for a in (f8(37), f4(5, 7), i1(6, lo=-128, hi=128),
              V("i1", [-128, 127]), V("i8", [-2**63, 2**63 - 1]),
              u1(9, lo=0, hi=256), V("u8", [0, 2**64 - 1]), i4(4, 5).F,
              c16(7), V("c16", [1 + 5j, 1 + 2j, 9j]),
              V("c16", [1, complex(NAN, 1), 3]),
              V("c16", [1, complex(NAN, NAN), complex(NAN, 1)]),
              V("c8", [1, complex(1, NAN), 3]),
              f8(8, special=True), V("f8", [1.0, INF]), V("f8", [INF, INF]),
              V("f8", [-INF, -INF, -INF]), f8(9, 8).view("::-2, 1::3"),
              f8(301)):
        c.append(("ptp", [a]))
    c += [("ptp", [f8(0)], "ValueError"),
          # Numba checks len(a) only and reads past a (3, 0) array: NumPy's
          ("ptp", [f8(3, 0)], "numpy"),
          ("ptp", [b1(3)], "TypingError"),
          ("ptp", [S("2.5")]), ("ptp", [S("nan")]), ("ptp", [S("7")]),
          ("ptp", [S("true")]), ("ptp", [S("uint8:3")]),
          ("ptp", [S("(1+2j)")]),
          ("ptp_kw_a", [i8(5)]), ("ptp_rows", [f8(4, 6)]),
          ("ptp_axis", [f8(3)], "TypingError")]
    return c


def numba_scalar_dtype(fn, vals):
    """The dtype of the number Numba's fn returned for vals, or None."""
    try:
        import numba
        from numba.np.numpy_support import as_dtype
        key = tuple(numba.typeof(v) for v in vals)
        rt = fn.overloads[key].signature.return_type
        if isinstance(rt, (numba.types.Number, numba.types.Boolean)):
            return as_dtype(rt)
    except Exception:  # noqa: BLE001
        pass
    return None


def agree(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind not in "fc":
        return got.tobytes() == want.tobytes()
    return bool(np.array_equal(got, want, equal_nan=True))


def reference(kernel, fn, vals, expect):
    """(want, problems): Numba's result (NumPy's for "numpy" cases)."""
    raises = None if expect == "numpy" else expect
    try:
        if expect == "numpy":
            try:
                getattr(np, kernel)(*vals)
            except Exception as e:  # noqa: BLE001
                return type(e).__name__, []
            return None, ["NumPy does not raise"]
        want = as_array(fn(*vals))
        if want.ndim == 0:
            dt = numba_scalar_dtype(fn, vals)
            if dt is not None:
                want = want.astype(dt)
        return want, ["Numba does not raise"] if raises else []
    except Exception as e:  # noqa: BLE001
        if type(e).__name__ != raises:
            return None, [f"Numba raises {type(e).__name__}: {e}"[:300] +
                          f", the case expects {raises}"]
        return None, []


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    mod, rec = lazy_load(KERNEL), Record(KERNEL)
    warnings.simplefilter("ignore")
    n = fails = 0
    seen = {}
    with tempfile.TemporaryDirectory(prefix="ufjit-npextra-") as tmp:
        for c in cases():
            kernel, inputs = c[0], c[1]
            expect = c[2] if len(c) > 2 else None
            seen[kernel] = seen.get(kernel, 0) + 1
            cid = f"{kernel}#{seen[kernel]}"
            if opt.filter not in cid:
                continue
            n += 1
            vals, args = materialise(cid, inputs, tmp)
            want, probs = rec.answer(
                rec.key(kernel, expect, vals), vals,
                lambda: reference(kernel, getattr(mod(), kernel), vals,
                                  expect))
            probs = list(probs)
            if isinstance(want, str):  # the exception NumPy raises
                expect, want = want, None
            p, out, cmd = run_ufjit(opt.ufjit, KERNEL, kernel, args, tmp,
                                    cid)
            if expect and expect != "numpy":
                mark = f"{KERNEL}:" if expect == "TypingError" else \
                    f"{expect}:"
                if p.returncode != 1 or mark not in p.stderr:
                    probs.append(f"ufjit did not raise {expect}: exit "
                                 f"{p.returncode} {p.stderr.strip()}")
            elif p.returncode != 0:
                probs.append(f"ufjit exited {p.returncode}: "
                             f"{p.stderr.strip()}")
            elif want is not None:
                got = np.load(out)
                if not agree(got, want):
                    probs.append(f"ufjit {got.dtype} {got.shape} {got!r}, "
                                 f"Numba {want.dtype} {want.shape} "
                                 f"{want!r}")
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs) + f"\n  {cmd}")
            elif opt.verbose:
                print(f"ok   {cid}")
    rec.close()
    print(f"{n - fails}/{n} npextra cases agree with Numba")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
