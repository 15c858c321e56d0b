#!/usr/bin/env python3
"""Allocation inside kernels (tests/kernels/host/alloc.py) against Numba: every
case runs through `ufjit call` and through Numba on the same inputs;
returned arrays are compared for dtype, shape and bytes, and where Numba
raises, ufjit must fail with the same exception. np.arange and
np.linspace cases are also checked against NumPy itself (Numba's and
NumPy's results agree there). Allocation refused on the CUDA targets must
name the call at its FILE:LINE:COL.

    run_alloc_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, f4, f8, i8, i4  # noqa: E402
from oracle_record import Record  # noqa: E402
from oracle_util import (as_array, lazy_load, materialise,  # noqa: E402
                         options, run_ufjit)

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "alloc.py")


def cases():
    a6 = f8(6)
    njit = [
        ("empty_filled", [S("5")]), ("empty_filled", [S("0")]),
        ("empty_filled", [S("-1")], "ValueError"),
        ("zeros2", [S("2"), S("3")]), ("zeros2", [S("0"), S("3")]),
        ("zeros2", [S("2"), S("-3")], "ValueError"),
        ("ones3", [S("4")]), ("ones3", [S("int32:0")]),
        ("ones_float", [S("3")]), ("zeros0d", []),
        ("full_f", [S("4"), S("2.5")]), ("full_f", [S("3"), S("7")]),
        ("full_f", [S("2"), S("float32:1.5")]),
        ("full_typed", [S("2"), S("3.7")]), ("full_typed", [S("3"), S("-9")]),
        ("full_bool", [S("2")]),
        ("zeros_like", [a6]), ("zeros_like", [i4(3, 2)]),
        ("zeros_like", [f8(0)]), ("zeros_like", [f8(4, 5).view("::-1, 1::2")]),
        ("ones_like", [f4(3)]), ("ones_like", [i8(2, 3).F]),
        ("empty_like_copy", [a6]), ("empty_like_copy", [a6.view("::-2")]),
        ("full_like", [a6]), ("full_like", [i4(4)]),
        ("like_dtype", [a6]), ("zeros_of_dtype", [i4(2)]), ("str_dtype", [S("3")]),
        ("zeros_of_dtype", [f4(2)]),
        ("ar1", [S("5")]), ("ar1", [S("0")]), ("ar1", [S("-3")]),
        ("ar1", [S("2.5")]), ("ar1", [S("int32:4")]),
        ("ar2", [S("3"), S("9")]), ("ar2", [S("9"), S("3")]),
        ("ar2", [S("-2.5"), S("3")]),
        ("ar3", [S("1"), S("10"), S("3")]), ("ar3", [S("10"), S("1"), S("-3")]),
        ("ar3", [S("10"), S("1"), S("3")]), ("ar3", [S("0"), S("1"), S("0.1")]),
        ("ar3", [S("1.0"), S("-1.0"), S("-0.25")]),
        ("ar3", [S("0.1"), S("1.0"), S("0.1")]),
        ("ar3", [S("1"), S("2"), S("0")], "ValueError"),
        ("ar3", [S("1.0"), S("2.0"), S("0.0")], "ValueError"),
        ("ar_f32", [S("4")]), ("ar_f32", [S("2.5")]),
        ("lin", [S("0.0"), S("1.0"), S("5")]), ("lin", [S("1"), S("0"), S("7")]),
        ("lin", [S("2.0"), S("3.0"), S("1")]), ("lin", [S("2.0"), S("3.0"), S("0")]),
        ("lin", [S("-1e300"), S("1e300"), S("3")]),
        ("lin", [S("0.0"), S("1.0"), S("-1")], "ValueError"),
        ("lin", [S("float32:0.1"), S("int8:3"), S("4")]),
        ("lin50", [S("0.0"), S("1.0")]),
        ("total", [S("4")]), ("total", [S("0")]),
        ("tail", [S("5")]), ("tail", [S("1")]),
        ("reversed_range", [S("4")]), ("reversed_range", [S("0")]),
        ("pick", [S("3"), S("true")]), ("pick", [S("3"), S("false")]),
        ("in_loop", [S("6")]), ("from_pair", [S("4")]),
        ("from_pair", [S("0")]), ("passthrough", [a6]),
        ("passthrough", [f8(3, 2)]),
        ("last_view", [S("50"), S("5")]), ("last_view", [S("0"), S("5")]),
        ("kept_view", [S("30")]), ("kept_view", [S("2")]),
        ("skip_and_stop", [S("100")]), ("skip_and_stop", [S("0")]),
        ("shifted_pair", [S("100")]), ("shifted_pair", [S("1")]),
        ("rows_plus_one", [S("50")]), ("rows_plus_one", [S("0")]),
        ("grow_until", [S("100")]), ("grow_until", [S("1")]),
        ("mismatch_in_loop", [S("2")]),
        ("mismatch_in_loop", [S("3")], "ValueError"),
        ("bad_dtype", [S("3")], "TypingError"),
        ("float_shape", [S("2.0")], "TypingError"),
    ]
    gu = [
        ("gu_scratch", [a6]), ("gu_scratch", [f8(3, 4)]),
        ("gu_scratch", [f8(0)]), ("gu_cumsum_last", [f8(2, 5)]),
        ("vec_alloc", [f8(7)]),
    ]
    out, seen = [], {}
    for kind, lst in (("njit", njit), ("gu", gu)):
        for c in lst:
            seen[c[0]] = seen.get(c[0], 0) + 1
            out.append((kind, f"{c[0]}#{seen[c[0]]}", c[0], c[1],
                        c[2] if len(c) > 2 else None))
    return out


# Checked against NumPy as well: kernel -> the NumPy function of its args.
NUMPY = {
    "ar1": np.arange, "ar2": np.arange, "ar3": np.arange,
    "lin": np.linspace, "lin50": np.linspace,
}

CUDA_REFUSED = '''import numpy as np
from numba import cuda, vectorize


@cuda.jit
def k(out):
    t = np.zeros(4)
    out[0] = t[0]


@vectorize(['float64(float64)'], target='cuda')
def v(x):
    return np.empty(3)[0] + x
'''


def same(got, want):
    return (got.dtype == want.dtype and got.shape == want.shape and
            got.tobytes() == want.tobytes())


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    mod = lazy_load(FILE)
    rec = Record(FILE)
    fails = n = 0
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory(prefix="ufjit-alloc-") as tmp:
        for kind, cid, kernel, inputs, raises in cases():
            if opt.filter not in cid:
                continue
            n += 1
            vals, args = materialise(cid, inputs, tmp)

            def reference(raises=raises):
                probs = []
                try:
                    want = as_array(getattr(mod(), kernel)(*vals))
                    if raises:
                        probs.append("Numba does not raise")
                except Exception as e:  # noqa: BLE001
                    want = None
                    if type(e).__name__ != raises:
                        probs.append(f"Numba raises {type(e).__name__}, the "
                                     f"case expects {raises}")
                return want, raises, probs
            want, raises, probs = rec.answer(
                rec.key(kernel, (kind, raises), vals), vals, reference)
            probs = list(probs)
            if want is not None and kernel in NUMPY:
                ref = NUMPY[kernel](*vals)
                # (Numba widens float32 bounds to float64, NumPy not)
                if want.dtype == ref.dtype and not same(want, ref):
                    probs.append(f"Numba {want!r} differs from NumPy {ref!r}")
            for target in ("cpu", "parallel") if kind == "gu" else ("cpu",):
                p, out, cmd = run_ufjit(opt.ufjit, FILE, kernel, args, tmp,
                                        cid, target)
                # refused at compile time: the call named at FILE:LINE:COL
                mark = f"{FILE}:" if raises == "TypingError" else \
                    f"{raises}:"
                if raises:
                    if p.returncode != 1 or mark not in p.stderr:
                        probs.append(f"ufjit did not raise {raises}: exit "
                                     f"{p.returncode} {p.stderr.strip()}")
                elif p.returncode != 0:
                    probs.append(f"ufjit exited {p.returncode}: "
                                 f"{p.stderr.strip()}\n  {cmd}")
                elif want is not None:
                    got = np.load(out)
                    if not same(got, want):
                        probs.append(f"{target}: ufjit {got.dtype} {got!r}, "
                                     f"Numba {want.dtype} {want!r}\n  {cmd}")
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs))
            elif opt.verbose:
                print(f"ok   {cid}")
        src = os.path.join(tmp, "cuda_alloc.py")
        with open(src, "w") as f:
            f.write(CUDA_REFUSED)
        x = os.path.join(tmp, "x.npy")
        np.save(x, np.arange(4.0))
        for kernel, target, where in (("v", "cudasim", "13:12"),
                                      ("v", "cuda", "13:12")):
            if opt.filter not in "refused":
                continue
            n += 1
            env = dict(os.environ, UFJIT_ENABLE_CUDASIM="1")
            argv = [opt.ufjit, "call", src, kernel, x, "-o",
                    os.path.join(tmp, "o.npy"), "--target", target]
            p = subprocess.run(argv, capture_output=True, text=True,
                               timeout=120, env=env)
            frag = "allocates an array, which CUDA kernels cannot do"
            if p.returncode != 1 or frag not in p.stderr or \
                    f"{src}:{where}:" not in p.stderr:
                fails += 1
                print(f"FAIL refused {kernel} on {target}: exit "
                      f"{p.returncode}, want {src}:{where}: {frag!r}; got "
                      f"{p.stderr.strip()}")
            elif opt.verbose:
                print(f"ok   refused {kernel} on {target}")
    rec.close()
    print(f"{n - fails}/{n} allocation cases agree with Numba")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
