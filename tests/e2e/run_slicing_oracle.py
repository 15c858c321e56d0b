#!/usr/bin/env python3
"""Basic slicing and views inside kernels (tests/kernels/slicing.py)
against Numba: every case runs through `ufjit call` and through Numba on
the same inputs (njit functions return digests of their views, so shapes,
strides, order and every element are compared; guvectorize kernels their
outputs), dtypes and values bit for bit; where Numba raises, ufjit must
fail with the same exception. The constructs ufjit refuses on purpose
(tests/kernels/slicing_errors.py: two array indices, a 2-D mask of a 1-D
array) must fail with the construct named at its FILE:LINE:COL.

    run_slicing_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, f4, f8, i8  # noqa: E402
from oracle_record import Record  # noqa: E402
from oracle_util import (lazy_load, load_outputs, materialise,  # noqa: E402
                         options, run_ufjit_outs)

KERNELS = os.path.join(os.path.dirname(HERE), "kernels")
FILE = os.path.join(KERNELS, "slicing.py")
ERRFILE = os.path.join(KERNELS, "slicing_errors.py")


def cases():
    a10, m34, t234 = f8(10), f8(3, 4), f8(2, 3, 4)
    r = [
        ("rev", [a10]), ("rev", [f8(1)]), ("rev", [a10.view("::-2")]),
        ("sl", [a10, S("8"), S("1"), S("-3")]),
        ("sl", [a10, S("-100"), S("100"), S("3")]),
        ("sl", [a10, S("100"), S("-100"), S("-1")]),
        ("sl", [a10, S("-1"), S("-11"), S("-4")]),
        ("sl", [a10, S("int32:2"), S("uint8:9"), S("int8:2")]),
        ("sl", [a10.view("1::2"), S("0"), S("5"), S("-1")]),
        ("sl", [a10, S("1"), S("5"), S("0")], "ValueError", 2),
        ("sl2", [a10, S("-3"), S("-1")]), ("sl2", [a10, S("7"), S("2")]),
        ("sl2", [f8(0), S("0"), S("3")]),
        ("heads", [a10]), ("heads", [f4(7)]), ("heads", [f8(2)]),
        ("heads", [a10.view("::-1")]),
        ("row_col", [m34, S("1")]), ("row_col", [m34, S("-1")]),
        ("row_col", [m34.F, S("2")]),
        ("row_col", [f8(5, 6).view("::-2, 1::2"), S("0")]),
        ("rows", [m34]), ("rows", [m34.F.view("::-1")]),
        ("sub2", [m34]), ("sub2", [m34.F]), ("sub2", [f8(1, 1)]),
        ("sub2", [f8(4, 5).view(":, ::-1")]),
        ("newaxis", [a10]), ("newaxis", [a10.view("::-1")]),
        ("ellipsis", [m34]), ("ellipsis", [m34.F.view("::-1, ::-1")]),
        ("three", [t234, S("1")]), ("three", [t234.F, S("-2")]),
        ("chain", [a10]), ("chain", [f8(3)]),
        ("attrs", [f8(5, 4)]), ("attrs", [f8(5, 4).F]),
        ("attrs", [i8(6, 3).view("::-1, ::-1")]),
        ("fill", [a10, S("2.5")]), ("fill", [f8(3), S("1.5")]),
        ("fill", [i8(10), S("3")]),
        ("fill_all", [a10.view("::3"), S("-4.0")]),
        ("fill_row", [m34, S("1"), S("9.0")]),
        ("fill_row", [m34.F, S("-3"), S("int32:9")]),
        ("shift_right", [a10]), ("shift_right", [a10.view("::-1")]),
        ("shift_right", [f8(1)]), ("shift_right", [f8(0)]),
        ("shift_left", [a10]), ("shift_left", [a10.view("::2")]),
        ("reverse_in_place", [a10]), ("reverse_in_place", [f8(9)]),
        ("spread", [a10]), ("spread", [f8(11)], "ValueError"),
        ("copy_rows", [m34]), ("copy_rows", [m34.F]),
        ("bcast_row", [m34, f8(4)]), ("bcast_row", [m34, f8(1, 4)]),
        ("bcast_row", [m34, f8(3, 1)]), ("bcast_row", [m34, f8(1)]),
        ("bcast_row", [m34, f8(3)], "ValueError"),
        ("bcast_row", [m34, f8(1, 3, 4)]),
        ("bcast_row", [m34, i8(4)]),
        ("bcast_col", [m34, f8(5)]),
        ("assign_from", [a10, f8(2)]), ("assign_from", [a10, f4(1)]),
        ("assign_from", [a10, f8(3)], "ValueError"),
        ("empty_views", [a10]),
        ("step_var", [a10, S("3")]), ("step_var", [a10, S("-4")]),
        ("step_var", [a10, S("0")], "ValueError"),
    ]
    gu = [
        ("row_dot_rev", [m34]), ("row_dot_rev", [f8(2, 3, 5)]),
        ("row_dot_rev", [f8(4, 3).view("::-1, ::2")]),
        ("gu_shift", [a10]), ("gu_shift", [f8(3, 6).view(":, ::-1")]),
        ("gu_shift", [f8(0)]),
        ("gu_reverse", [a10]), ("gu_reverse", [f8(2, 7)]),
        ("gu_transpose", [m34]), ("gu_transpose", [f8(2, 3, 2).F]),
        ("gu_every", [i8(10), S("3")]), ("gu_every", [i8(10), S("-2")]),
        ("gu_every", [i8(10), S("0")], "ValueError"),
    ]
    out = []
    seen = {}
    for kind, lst in (("njit", r), ("gu", gu)):
        for c in lst:
            seen[c[0]] = seen.get(c[0], 0) + 1
            out.append((kind, f"{c[0]}#{seen[c[0]]}", c[0], c[1],
                        c[2] if len(c) > 2 else None,
                        c[3] if len(c) > 3 else 1))
    return out


REFUSED = [
    # kernel, fragment, (line, col)
    ("fancy", "a boolean array beside another array index is not "
     "supported", (9, 17)),
    ("mask", "a boolean mask of 2 dimensions (array(bool, 2d, C)) must be "
     "the only index and have the array's dimensions", (14, 14)),
    ("two_ellipses", "an index can only have a single ellipsis", (19, 19)),
    ("float_bound", "slice indices must be integers or None, not float64",
     (24, 14)),
    ("too_many", "too many indices for array(float64, 1d, C): 2", (29, 12)),
]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return got.tobytes() == want.tobytes()


def numba_result(mod, kind, kernel, vals):
    fn = getattr(mod, kernel)
    warnings.simplefilter("ignore")
    try:
        out = fn(*vals)
    except Exception as e:  # noqa: BLE001
        return "raised", type(e).__name__
    if kind == "gu":
        return "ok", [np.asarray(out)]
    outs = out if isinstance(out, tuple) else (out,)
    flat = []
    for o in outs:
        if isinstance(o, tuple):
            flat += [np.array(x, dtype=np.int64) for x in o]
        else:
            flat.append(np.array(o, dtype=np.float64 if isinstance(o, float)
                                 else np.int64 if isinstance(o, int)
                                 else np.asarray(o).dtype))
    return "ok", flat


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    mod, rec = lazy_load(FILE), Record(FILE)
    fails = n = 0
    with tempfile.TemporaryDirectory(prefix="ufjit-slicing-") as tmp:
        for kind, cid, kernel, inputs, raises, nraise in cases():
            if opt.filter not in cid:
                continue
            n += 1
            vals, args = materialise(cid, inputs, tmp)
            what, res = rec.answer(
                rec.key(kernel, kind, vals), vals,
                lambda: numba_result(mod(), kind, kernel, vals))
            probs = []
            if what == "raised" and raises != res:
                probs.append(f"Numba raises {res}, the case expects "
                             f"{raises}")
            if what == "ok" and raises:
                probs.append("Numba does not raise")
            nout = len(res) if what == "ok" else nraise
            vals, args = materialise(cid, inputs, tmp)
            p, outs, cmd = run_ufjit_outs(opt.ufjit, FILE, kernel, args, nout,
                                     tmp, cid)
            if raises:
                if p.returncode != 1 or f"{raises}:" not in p.stderr:
                    probs.append(f"ufjit did not raise {raises}: exit "
                                 f"{p.returncode} {p.stderr.strip()}")
            elif p.returncode != 0:
                probs.append(f"ufjit exited {p.returncode}: "
                             f"{p.stderr.strip()}")
            else:
                got = load_outputs(outs)
                for k, (g, w) in enumerate(zip(got, res)):
                    if not same(g, w):
                        probs.append(f"output {k}: ufjit {g.dtype} {g!r}, "
                                     f"Numba {w.dtype} {w!r}")
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs) + f"\n  {cmd}")
            elif opt.verbose:
                print(f"ok   {cid}")
        x = os.path.join(tmp, "x.npy")
        np.save(x, np.arange(5.0))
        np.save(os.path.join(tmp, "xi.npy"), np.arange(2))
        np.save(os.path.join(tmp, "xb.npy"), np.arange(5) > 2)
        for kernel, frag, (line, col) in REFUSED:
            if opt.filter not in kernel:
                continue
            n += 1
            extra = {"fancy": ["xi.npy"], "mask": ["xb.npy"]}.get(kernel, [])
            p, _, cmd = run_ufjit_outs(opt.ufjit, ERRFILE, kernel,
                                  [x] + [os.path.join(tmp, e) for e in extra],
                                  1, tmp, kernel)
            where = f"{ERRFILE}:{line}:{col}:"
            if p.returncode != 1 or frag not in p.stderr or \
                    where not in p.stderr:
                fails += 1
                print(f"FAIL refused {kernel}: exit {p.returncode}, want "
                      f"{where} {frag!r}; got {p.stderr.strip()}\n  {cmd}")
            elif opt.verbose:
                print(f"ok   refused {kernel}")
    rec.close()
    print(f"{n - fails}/{n} slicing cases agree with Numba")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
