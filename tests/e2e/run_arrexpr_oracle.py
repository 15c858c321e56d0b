#!/usr/bin/env python3
"""Whole-array expressions inside kernels (tests/kernels/array_exprs.py)
against Numba and NumPy: every case runs through `ufjit call` and through
Numba on the same inputs, outputs compared bit for bit (dtype, shape,
bytes); where Numba raises, ufjit must fail with the same exception.
Cases marked "numpy" store into memory that an operand overlaps
(a[1:] += a[:-1]): there the answer is NumPy's, which copies the
overlapping operand first, and Numba (which updates in place as it goes)
is not the oracle; the kernel's own Python runs under NumPy instead. The
refusals (tests/kernels/array_exprs_errors.py) must name the construct at
its FILE:LINE:COL. The machinery is run_slicing_oracle.py's.

    run_arrexpr_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import argparse
import os
import sys
import tempfile
import warnings

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_slicing_oracle as so  # noqa: E402  (exits 77 without NumPy)
from oracle_record import Record  # noqa: E402
from oracle_util import (lazy_load, load_outputs, materialise,  # noqa: E402
                         run_ufjit_outs)
from corpus import S, Arr, f4, f8, i4, i8  # noqa: E402

np = so.np
KERNELS = os.path.join(os.path.dirname(HERE), "kernels")
FILE = os.path.join(KERNELS, "array_exprs.py")
ERRFILE = os.path.join(KERNELS, "array_exprs_errors.py")


def sp(*shape):
    return Arr("float64", shape, -4, 4, special=True)


def cases():
    x, w = f8(7), f8(7)
    gu = [
        ("axpb", [x, w, S("1.5")]), ("axpb", [f8(0), f8(0), S("2.0")]),
        ("axpb", [x.view("::-1"), w.view("::1"), S("-3")]),
        ("axpb", [f8(4, 7), w, S("0.5")]),
        ("axpb", [f8(9).view("::2"), f8(10).view("-1:4:-1"), S("1")]),
        ("axpb", [sp(20), sp(20), S("1e308")]),
        ("mixed", [f4(6), i4(6)]), ("mixed", [i4(6), f4(6)]),
        ("mixed", [Arr("int64", (5,), values=[2**62, -2**63, 7, -1, 3]),
                   Arr("int64", (5,), values=[4, -1, 9, 2**40, -3])]),
        ("mixed", [Arr("int32", (4,), values=[2**31 - 1, -2**31, 5, 0]),
                   Arr("int32", (4,), values=[2, 3, -7, 1])]),
        ("mixed", [Arr("uint8", (4,), values=[250, 3, 0, 17]),
                   Arr("uint8", (4,), values=[9, 255, 1, 16])]),
        ("divmod_", [Arr("int64", (6,), values=[7, -7, 5, 0, -9, 2**63 - 1]),
                     Arr("int64", (6,), values=[2, 2, 0, 0, -4, -1])]),
        ("divmod_", [Arr("float64", (5,), values=[7.5, -7, 5, 0, -np.inf]),
                     Arr("float64", (5,), values=[2, 2, 0, 0, 3])]),
        ("true_div", [sp(16), sp(16)]),
        ("central", [f8(9)]), ("central", [f8(2)]), ("central", [f8(1)]),
        ("central", [f8(12).view("::-3")]),
        ("ufuncs", [sp(24), sp(24)]), ("ufuncs", [i8(9), f8(9)]),
        ("nan_rules", [sp(30), sp(30)]),
        ("bits", [i8(8), i8(8)]),
        ("bits", [Arr("int8", (6,), values=[127, -128, 5, -1, 0, 64]),
                  Arr("int8", (6,), values=[1, 3, -7, 127, -128, 2])]),
        ("bits", [Arr("uint16", (4,), values=[65535, 0, 3, 40000]),
                  Arr("uint16", (4,), values=[1, 65535, 8, 2])]),
        ("rows", [f8(3, 4), f8(4)]), ("rows", [f8(3, 4).F, f8(4)]),
        ("rows", [f8(5, 6).view("::-2, 1::2"), f8(3)]),
        ("rows", [f8(2, 3, 4), f8(4)]),
        ("bcast", [f8(5), f8(1)]), ("bcast", [f8(5), f8(5)]),
        ("bcast", [f8(5), f8(3)], "ValueError"),
        ("colvec", [f8(3, 4), f8(2)]),
        ("narrow", [Arr("int64", (3,), values=[2**40, 3, -5]),
                    Arr("int64", (3,), values=[2**10, 3, 7])]),
        ("prefix_pairs", [f8(6)], "numpy"),
        ("prefix_pairs", [i4(5)], "numpy"),
        ("prefix_pairs", [f8(11).view("::-2")], "numpy"),
        ("fold", [f8(7)], "numpy"), ("fold", [f8(1)], "numpy"),
    ]
    nj = [
        ("aug_whole", [f8(6), f8(6)]), ("aug_whole", [f8(6), f8(1)]),
        ("aug_whole", [f8(9).view("::-2"), f8(5)]),
        ("aug_views", [f8(8)], "numpy"), ("aug_views", [f8(3)], "numpy"),
        ("into_row", [f8(3, 4), f8(4), S("1")]),
        ("into_row", [f8(4, 3).F, f8(3), S("-1")]),
        ("zero_d", [f8(5), Arr("float64", (), values=2.5)]),
        ("zero_d", [f8(0), Arr("float64", (), values=2.5)]),
        ("bound", [f8(5)]), ("returned", [f8(6)]), ("returned", [f8(0)]),
        ("returned", [f8(9).view("::-2")]),
        ("passed", [f8(4)]), ("indexed", [f8(5)]),
        ("outer_diff", [f8(3), f8(4)]), ("outer_diff", [f8(0), f8(2)]),
        ("in_loop", [sp(7)]),
    ]
    out, seen = [], {}
    for kind, lst in (("gu", gu), ("njit", nj)):
        for c in lst:
            seen[c[0]] = seen.get(c[0], 0) + 1
            flag = c[2] if len(c) > 2 else None
            out.append((kind, f"{c[0]}#{seen[c[0]]}", c[0], c[1], flag))
    return out


REFUSED = [
    ("narrowing", "cannot cast the result float64 back to the array's "
     "int64", (10, 5)),
]


def numba_result(mod, kind, kernel, vals):
    """Numba's outputs: a gufunc's each (several outputs come as a tuple),
    an njit function's digest."""
    if kind != "gu":
        return so.numba_result(mod, kind, kernel, vals)
    try:
        out = getattr(mod, kernel)(*vals)
    except Exception as e:  # noqa: BLE001
        return "raised", type(e).__name__
    return "ok", [np.asarray(o) for o in
                  (out if isinstance(out, tuple) else (out,))]


def numpy_result(mod, kind, kernel, vals, like):
    """The kernel's own Python under NumPy (core dimensions only)."""
    fn = getattr(mod, kernel)
    py = fn.py_func if kind == "njit" else fn._dispatcher.py_func
    vals = [np.array(v, copy=True) if isinstance(v, np.ndarray) else v
            for v in vals]
    if kind == "njit":
        return [np.asarray(py(*vals), dtype=np.float64)]
    outs = [np.zeros_like(o) for o in like]
    py(*vals, *outs)
    return outs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ufjit")
    ap.add_argument("-k", dest="filter", default="")
    ap.add_argument("-v", dest="verbose", action="store_true")
    opt = ap.parse_args()
    try:
        import numba  # noqa: F401
    except ImportError:
        print("SKIP: numba is not installed")
        return 77
    warnings.simplefilter("ignore")
    mod, rec = lazy_load(FILE), Record(FILE)
    fails = n = 0
    with tempfile.TemporaryDirectory(prefix="ufjit-arrexpr-") as tmp:
        for kind, cid, kernel, inputs, flag in cases():
            if opt.filter not in cid:
                continue
            n += 1
            raises = flag if flag not in (None, "numpy") else None
            vals, args = materialise(cid, inputs, tmp)

            def reference():
                what, res = numba_result(mod(), kind, kernel, vals)
                if what == "ok" and flag == "numpy":
                    fresh, _ = materialise(cid, inputs, tmp)
                    with np.errstate(all="ignore"):
                        res = numpy_result(mod(), kind, kernel, fresh, res)
                return what, res
            what, res = rec.answer(rec.key(kernel, (kind, flag), vals), vals,
                                   reference)
            probs = []
            if what == "raised" and raises != res:
                probs.append(f"Numba raises {res}, the case expects "
                             f"{raises}")
            if what == "ok" and raises:
                probs.append("Numba does not raise")
            nout = len(res) if what == "ok" else 1
            vals, args = materialise(cid, inputs, tmp)
            p, outs, cmd = run_ufjit_outs(opt.ufjit, FILE, kernel, args,
                                          nout, tmp, cid)
            if raises:
                if p.returncode != 1 or f"{raises}:" not in p.stderr:
                    probs.append(f"ufjit did not raise {raises}: exit "
                                 f"{p.returncode} {p.stderr.strip()}")
            elif p.returncode != 0:
                probs.append(f"ufjit exited {p.returncode}: "
                             f"{p.stderr.strip()}")
            else:
                for k, (g, want) in enumerate(zip(load_outputs(outs),
                                                  res)):
                    if not so.same(g, want):
                        probs.append(f"output {k}: ufjit {g.dtype} {g!r}, "
                                     f"{'NumPy' if flag else 'Numba'} "
                                     f"{want.dtype} {want!r}")
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs) + f"\n  {cmd}")
            elif opt.verbose:
                print(f"ok   {cid}")
        xf = os.path.join(tmp, "x.npy")
        np.save(xf, np.arange(5.0))
        xi = os.path.join(tmp, "xi.npy")
        np.save(xi, np.arange(5))
        for kernel, frag, (line, col) in REFUSED:
            if opt.filter not in kernel:
                continue
            n += 1
            arg = xi if kernel == "narrowing" else xf
            p, _, cmd = run_ufjit_outs(opt.ufjit, ERRFILE, kernel, [arg], 1,
                                       tmp, kernel)
            where = f"{ERRFILE}:{line}:{col}:"
            if p.returncode != 1 or frag not in p.stderr or \
                    where not in p.stderr:
                fails += 1
                print(f"FAIL refused {kernel}: exit {p.returncode}, want "
                      f"{where} {frag!r}; got {p.stderr.strip()}\n  {cmd}")
            elif opt.verbose:
                print(f"ok   refused {kernel}")
    rec.close()
    print(f"{n - fails}/{n} array expression cases agree with Numba/NumPy")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
