#!/usr/bin/env python3
"""NumPy reductions inside kernels (tests/kernels/np_reductions.py)
against Numba: every case runs through `ufjit call` and through Numba on
the same inputs; dtypes must be the same, integers, booleans, indices,
min/max and NaN positions equal, floats equal within a tolerance (ufjit's
sums add in another order than Numba's plain loop: several vector
accumulators, closer to NumPy's pairwise sum). Where Numba raises, ufjit
must fail with the same exception and message. The constructs ufjit
refuses on purpose (tests/kernels/np_reductions_errors.py) must fail with
the construct named at its FILE:LINE:COL.

    run_npreduce_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import importlib.util
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
from corpus import (S, V, b1, c8, c16, f4, f8, i1, i2, i4, i8,  # noqa: E402
                    u1, u4, u8)
from oracle_record import Record  # noqa: E402
from oracle_util import (lazy_load, load_outputs, materialise,  # noqa: E402
                         options, run_ufjit_outs)

KERNELS = os.path.join(os.path.dirname(HERE), "kernels")
FILE = os.path.join(KERNELS, "np_reductions.py")
ERRFILE = os.path.join(KERNELS, "np_reductions_errors.py")
DOTFILE = os.path.join(KERNELS, "np_reductions_dot.py")
DOTS = ("dots", "gu_dot")


def numpy_dots(x, y):
    """NumPy's answers for np_reductions_dot.py where Numba lacks SciPy."""
    return (np.dot(x, y), x @ y, np.vdot(x, y), x.dot(y))


def numpy_gu_dot(x, y):
    return np.einsum("...n,...n->...", x, y)


def cases():
    r = []
    # every dtype, whole, strided, reversed, 2-D C/F/non-contiguous, 0-d
    for mk in (b1, i1, u1, i2, i4, u4, i8, u8, f4, f8):
        r += [("funcs", [mk(37)]), ("methods", [mk(6, 7)]),
              ("funcs", [mk(5, 9).F]), ("methods", [mk(40).view("::-3")]),
              ("funcs", [mk(3, 8).view("::-1, 1::2")]),
              ("nans", [mk(11)]), ("funcs", [mk(1)]),
              ("funcs", [mk(2, 3, 4).view("1:, ::-1, ::2")])]
    for mk in (f4, f8):
        r += [("funcs", [mk(50, special=True)]),
              ("methods", [mk(7, 9, special=True).F]),
              ("nans", [mk(33, special=True)]),
              ("nans", [mk(6, 5, special=True).view("::-1, ::2")]),
              ("nans", [V(np.dtype(mk().dtype).name, [np.nan] * 4)]),
              ("nans", [V(np.dtype(mk().dtype).name, [np.nan, 2, np.nan,
                                                       -1])]),
              ("funcs", [V(np.dtype(mk().dtype).name, [3, np.nan, 1,
                                                        np.nan])]),
              ("funcs", [V(np.dtype(mk().dtype).name, [np.inf, -np.inf,
                                                        np.inf])]),
              ("sums", [mk(1000, lo=0, hi=1)]),
              ("sums", [mk(1001, lo=-1e6, hi=1e6)]),
              ("sums", [mk(64, 33).view(":, 1:")]),
              ("dots", [mk(100), mk(100)]),
              ("dots", [mk(37).view("::-1"), mk(74).view("::2")]),
              ("dots", [mk(0), mk(0)]), ("dots", [mk(5), mk(6)],
                                          "ValueError"),
              ("trans", [mk(3, 4)]), ("trans", [mk(5, 2).F]),
              ("trans", [mk(6, 7).view("::-2, 1:")]),
              ("on_views", [mk(4, 5)]), ("on_views", [mk(6, 7).F])]
    for mk in (c8, c16):
        r += [("cplx", [mk(21)]), ("cplx", [mk(4, 6).view("::-1, ::2")]),
              ("dots", [mk(19), mk(19)]),
              ("cplx", [V(np.dtype(mk().dtype).name,
                          [1 + 2j, np.nan, 1 + 1j, complex(np.nan, 3)])])]
    r += [
        # int64 overflow wraps as NumPy's accumulator does
        ("funcs", [V("i8", [2**62, 2**62, 2**62, 5])]),
        ("methods", [V("u8", [2**63, 2**63, 7])]),
        ("sums", [V("i4", [2**31 - 1] * 5)]),
        ("funcs", [V("b1", [True, True, False])]),
        ("funcs", [V("i4", [5, -3, -3, 9, 9])]),
        ("methods", [V("b1", [False, False])]),
        ("scalars", [S("2.5")]), ("scalars", [S("int32:0")]),
        ("scalars", [S("true")]),
        ("only_min", [f8(0)], "ValueError"),
        ("only_min", [f8(3, 0)], "ValueError"),
        ("only_argmax", [i4(0)], "ValueError"),
        ("only_nanmax", [f4(0)], "ValueError"),
        ("only_var", [f8(0)], "ZeroDivisionError"),
        ("only_min", [i8(1)]),
    ]
    gu = [
        ("gu_rowsum", [f8(7, 300)]), ("gu_rowsum", [f8(2, 5, 9).F]),
        ("gu_rowsum", [i4(4, 70)]), ("gu_rowsum", [f8(3, 0)]),
        ("gu_rowsum", [f8(6, 40).view("::-1, ::3")]),
        ("gu_range", [f4(5, 17, special=True)]),
        ("gu_min", [f8(3, 4)]), ("gu_dot", [f8(3, 50), f8(50)]),
        ("gu_dot", [f8(4, 9).view("::-1, ::2"), f8(5)]),
    ]
    out = []
    seen = {}
    for kind, lst in (("njit", r), ("gu", gu)):
        for c in lst:
            seen[c[0]] = seen.get(c[0], 0) + 1
            out.append((kind, f"{c[0]}#{seen[c[0]]}", c[0], c[1],
                        c[2] if len(c) > 2 else None))
    return out


REFUSED = [
    # kernel, input, fragment, (line, col)
    # np.sum, np.argmin and np.argmax take an axis (run_npaxis_oracle.py);
    # the others do not, in Numba either
    ("axis_mean", "x", "No implementation of np.mean() with an axis",
     (9, 12)),
    ("vdot2d", "m", "only 1-D arrays are supported", (14, 12)),
    ("int_dot", "xi", "only supported on float and complex arrays", (19, 12)),
    ("cplx_argmin", "xc", "complex numbers are not ordered", (24, 12)),
    # a.flat of a strided array is indexed and iterated, not returned
    ("flat_iter", "m", "cannot return array.flat(array(float64, 2d, A))",
     (29, 12)),
    # a.dtype is a value now (infer_arrattr.c); returning it is refused
    ("dtype_attr", "x", "a dtype cannot come back through uf_call",
     (33, 1)),
]


def same(got, want, eps_in):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind not in "fc":
        return got.tobytes() == want.tobytes()
    # another order of additions: a few ulps, of the result or of the
    # inputs when they are less precise (var of float32 is a float64
    # computed from a float32 mean)
    eps = max(np.finfo(got.dtype).eps, eps_in)
    g, w = got.astype(np.complex128), want.astype(np.complex128)
    scale = np.maximum(np.nan_to_num(np.abs(w), posinf=1), 1)
    for p, q in ((g.real, w.real), (g.imag, w.imag)):
        if not np.array_equal(np.isnan(p), np.isnan(q)):
            return False
        ok = np.isnan(p) | (p == q) | (np.abs(p - q) <= 64 * eps * scale)
        if not ok.all():
            return False
    return True


def result_dtypes(fn, vals):
    """The dtypes of Numba's results for these arguments (from the typed
    signature: a Python float may stand for a float32, an int for a
    bool)."""
    import numba
    from numba.np.numpy_support import as_dtype
    want = tuple(numba.typeof(v) for v in vals)
    for sig in getattr(fn, "nopython_signatures", []):
        if tuple(sig.args) == want:
            rt = sig.return_type
            elts = list(rt) if isinstance(rt, numba.types.BaseTuple) \
                else [rt]
            return [as_dtype(t) for t in elts]
    return None


def numba_result(mod, kind, kernel, vals):
    fn = getattr(mod, kernel)
    warnings.simplefilter("ignore")
    try:
        out = fn(*vals)
    except Exception as e:  # noqa: BLE001
        return "raised", f"{type(e).__name__}: {e}"
    if kind == "gu":
        return "ok", [np.asarray(out)]
    outs = out if isinstance(out, tuple) else (out,)
    dts = result_dtypes(fn, vals)
    flat = []
    for k, o in enumerate(outs):
        dt = dts[k] if dts else np.asarray(o).dtype
        flat.append(np.array(o, dtype=dt))
    return "ok", flat


def main():
    warnings.simplefilter("ignore")
    opt = options(__doc__)
    if opt is None:
        return 77
    mod = lazy_load(FILE)
    recs = {FILE: Record(FILE), DOTFILE: Record(DOTFILE)}
    have_scipy = importlib.util.find_spec("scipy") is not None
    if have_scipy:
        dmod = lazy_load(DOTFILE)
    else:
        print("note: SciPy is not installed (Numba's np.dot needs it): the "
              "dot products are checked against NumPy")
        dots = type("numpy_dots", (), {"dots": staticmethod(numpy_dots),
                                       "gu_dot": staticmethod(numpy_gu_dot)})
        recs[DOTFILE].entries = {}  # NumPy answers here, not Numba's
        recs[DOTFILE].writing = False

        def dmod():
            return dots
    fails = n = 0
    with tempfile.TemporaryDirectory(prefix="ufjit-npreduce-") as tmp:
        for kind, cid, kernel, inputs, raises in cases():
            nraise = 4 if kernel == "dots" else 1
            if opt.filter not in cid:
                continue
            n += 1
            path = DOTFILE if kernel in DOTS else FILE
            vals, args = materialise(cid, inputs, tmp)
            rec = recs[path]
            what, res = rec.answer(
                rec.key(kernel, kind, vals), vals,
                lambda: numba_result((dmod if kernel in DOTS else mod)(),
                                     kind, kernel, vals))
            if what == "raised" and kernel in DOTS and not have_scipy and \
                    raises:
                res = f"{raises}: incompatible array sizes for np.dot(a, b)"\
                      " (vector * vector)"
            probs = []
            if what == "raised" and not res.startswith(f"{raises}:"):
                probs.append(f"Numba raises {res}, the case expects "
                             f"{raises}")
            if what == "ok" and raises:
                probs.append("Numba does not raise")
            nout = len(res) if what == "ok" else nraise
            vals, args = materialise(cid, inputs, tmp)
            p, outs, cmd = run_ufjit_outs(opt.ufjit, path, kernel, args, nout,
                                     tmp, cid)
            if raises:
                want = res if what == "raised" else f"{raises}:"
                if p.returncode != 1 or want not in p.stderr:
                    probs.append(f"ufjit did not raise {raises}: exit "
                                 f"{p.returncode} {p.stderr.strip()}")
            elif p.returncode != 0:
                probs.append(f"ufjit exited {p.returncode}: "
                             f"{p.stderr.strip()}")
            else:
                got = load_outputs(outs)
                eps_in = max([np.finfo(v.dtype).eps for v in vals
                              if isinstance(v, np.ndarray) and
                              v.dtype.kind in "fc"] + [0.0])
                for k, (g, w) in enumerate(zip(got, res)):
                    if not same(g, w, eps_in):
                        probs.append(f"output {k}: ufjit {g.dtype} {g!r}, "
                                     f"Numba {w.dtype} {w!r}")
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs) + f"\n  {cmd}")
            elif opt.verbose:
                print(f"ok   {cid}")
        inputs = {"x": np.arange(5.0), "m": np.ones((2, 2)),
                  "xi": np.arange(4), "xc": np.ones(3, np.complex128)}
        for name, v in inputs.items():
            np.save(os.path.join(tmp, name + ".npy"), v)
        for kernel, arg, frag, (line, col) in REFUSED:
            if opt.filter not in kernel:
                continue
            n += 1
            p, _, cmd = run_ufjit_outs(opt.ufjit, ERRFILE, kernel,
                                  [os.path.join(tmp, arg + ".npy")], 1, tmp,
                                  kernel)
            where = f"{ERRFILE}:{line}:{col}:"
            if p.returncode != 1 or frag not in p.stderr or \
                    where not in p.stderr:
                fails += 1
                print(f"FAIL refused {kernel}: exit {p.returncode}, want "
                      f"{where} {frag!r}; got {p.stderr.strip()}\n  {cmd}")
            elif opt.verbose:
                print(f"ok   refused {kernel}")
    for rec in recs.values():
        rec.close()
    print(f"{n - fails}/{n} reduction cases agree with Numba")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
