#!/usr/bin/env python3
"""prange kernels (tests/kernels/host/prange.py, prange_reduce.py) against Numba's
parallel=True: every case runs through `ufjit call` on 1, 2 and 7 threads
(--threads) and through Numba on the same inputs. The three ufjit runs
must give the same bits; against Numba dtypes and shapes must be the
same, integers and min/max equal, floating sums within a relative 1e-12
(Numba's order of additions depends on its threads). Errors raised in
the body are checked against Numba's serial compile of the same function
(parallel=False), which raises them: Numba's parallel=True returned 0
for the ZeroDivisionError here, ufjit raises as a serial loop does. The race ufjit refuses on purpose
(Numba leaves its result undefined) must fail at its FILE:LINE:COL.
Array reductions `s = s + e` are checked against Numba's serial compile
(Numba 0.68's parallel=True returns s as it was before the loop there).
Reductions Numba refuses (//, **, %, |= &= ^=) must fail in both
with the same exception name (a "par:" case).

    run_prange_oracle.py UFJIT [-k TEXT] [-v]
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
from oracle_record import Record  # noqa: E402
from oracle_util import lazy_load, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "prange.py")
FILE2 = os.path.join(os.path.dirname(HERE), "kernels", "host",
                     "prange_reduce.py")
THREADS = (1, 2, 7)
# Numba's parfors take only prange(start, stop) with a step of 1 (an
# UnsupportedRewriteError otherwise); ufjit runs any step, checked against
# Numba's serial compile, where prange is range.
SERIAL = "serial"
PAR = "par:"  # Numba's parallel=True raises this at compile time


def arrays():
    rng = np.random.default_rng(18)
    f = rng.uniform(-1e3, 1e3, 100003)
    i = rng.integers(-1000, 1000, 100003)
    m = rng.uniform(-1, 1, (517, 33))
    mi = rng.integers(-50, 50, (61, 9))
    return {
        "f": f, "f0": f[:0], "f1": f[:1], "f63": f[:63], "f65": f[:65],
        "g": rng.uniform(0, 1, 100003), "i": i, "i0": i[:0], "i10": i[:10],
        "f4": rng.uniform(-1, 1, 5000).astype(np.float32),
        "m": m, "m0": m[:0], "mi": mi, "v33": rng.uniform(0, 1, 33),
        "m1": m[:1], "m65": m[:65], "m32": m.astype(np.float32),
        "c3": rng.uniform(0, 1, (70, 4, 5)), "one33": np.ones(33),
    }


def cases():
    c = [("psum", ["f"]), ("psum", ["f0"]), ("psum", ["f1"]),
         ("psum", ["f63"]), ("psum", ["f65"]), ("pdot", ["f", "g"]),
         ("pminmax", ["f"]), ("pminmax", ["f65"]), ("pint", ["i"]),
         ("pint", ["i0"]), ("pint", ["i10"]), ("pf32", ["f4"]),
         ("rows", ["m"]), ("rows", ["m0"]), ("total2d", ["m"]),
         ("nested", ["mi"]), ("serial", ["f"]), ("serial2", ["i"]),
         ("scaled", ["f", 2.5]), ("zdiv", ["i", 0], "ZeroDivisionError"),
         ("zdiv", ["i", 7]), ("hyp", ["m", "v33"]), ("hyp", ["f", "g"]),
         ("hyp", ["f65", "f65"])]
    for st in ((0, 1000), (5, 900), (10, 10), (10, 0), (3, 4), (0, 100003)):
        c.append(("steps_up", ["i", *st], SERIAL))
        c.append(("steps_down", ["i", st[1] - 1 if st[1] else 0, st[0]],
                  SERIAL))
    c += [("steps_back", ["f"], SERIAL), ("steps_back", ["f0"], SERIAL)]
    # prange_reduce.py: /= and array reductions
    c += [("pdiv", [10]), ("pdiv", [1000]), ("pdiv_int", [10]),
          ("pdiv_e", ["g"]), ("pdiv_e", ["f65"]), ("pdiv_e", ["f0"]),
          ("pdiv_c", ["f63"]), ("scratch", [1000]), ("scratch", [0])]
    for m in ("m", "m0", "m1", "m65"):
        for k in ("arr_iadd", "arr_isub", "arr_imul", "arr_idiv", "arr_2d",
                  "arr_scalar", "arr_col"):
            c.append((k, [m]))
        c.append(("arr_rebind", [m], SERIAL))
    c += [("arr_3d", ["c3"]), ("arr_int", ["mi"]), ("arr_f32", ["m32"]),
          ("arr_arg", ["m", "one33"]),
          ("pfloordiv", [10], PAR + "NumbaValueError"),
          ("ppow", [10], PAR + "ValueError"),
          ("pmod", [10], PAR + "ValueError"),
          ("arr_or", ["mi"], PAR + "ValueError"),
          ("sc_or", ["mi"], PAR + "ValueError"),
          ("sc_and_bool", ["mi"], PAR + "ValueError"),
          ("arr_read", ["m"]), ("arr_read", ["m65"])]
    return [(k[0], k[1], k[2] if len(k) > 2 else None) for k in c]


def result_dtypes(fn, vals):
    """The dtypes of Numba's results from the typed signature (a Python
    float may stand for a float32)."""
    import numba
    from numba.np.numpy_support import as_dtype
    want = tuple(numba.typeof(v) for v in vals)
    for sig in getattr(fn, "nopython_signatures", []):
        if tuple(sig.args) == want:
            rt = sig.return_type
            elts = list(rt) if isinstance(rt, numba.types.BaseTuple) \
                else [rt]
            try:
                return [as_dtype(t) for t in elts]
            except Exception:  # noqa: BLE001 (arrays: their own dtype)
                return None
    return None


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind not in "fc":
        return got.tobytes() == want.tobytes()
    eps = 1e-12 if got.dtype in (np.float64, np.complex128) else 1e-5
    scale = np.maximum(np.abs(want), 1)
    return bool(np.all((got == want) | (np.abs(got - want) <= eps * scale)))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    warnings.simplefilter("ignore")
    # which file defines a kernel, read without importing either
    mods = [(lazy_load(f), f, Record(f),
             open(f, encoding="utf-8").read()) for f in (FILE, FILE2)]
    data = arrays()
    fails = n = 0
    with tempfile.TemporaryDirectory(prefix="ufjit-prange-") as tmp:
        files = {}
        for k, v in data.items():
            files[k] = os.path.join(tmp, k + ".npy")
            np.save(files[k], v)
        for idx, (kernel, args, raises) in enumerate(cases()):
            cid = f"{kernel}#{idx}"
            if opt.filter not in cid:
                continue
            n += 1
            vals = [data[a].copy() if isinstance(a, str) else a
                    for a in args]
            cli = [files[a] if isinstance(a, str) else
                   (f"{a!r}" if isinstance(a, float) else str(a))
                   for a in args]
            mod, path, rec = next((m, f, r) for m, f, r, text in mods
                                  if f"def {kernel}(" in text)
            if raises is not None and raises.startswith(PAR):
                raises = raises[len(PAR):]
                serial = False
            else:
                serial = raises is not None
                if raises == SERIAL:
                    raises = None

            def reference():
                fn = getattr(mod(), kernel)
                if serial:  # Numba's serial semantics (above)
                    import numba
                    fn = numba.njit(fn.py_func)
                try:
                    want = fn(*vals)
                    dts = result_dtypes(fn, vals)
                    return [np.asarray(w, dtype=dts[k] if dts else None)
                            for k, w in enumerate(
                                want if isinstance(want, tuple) else
                                (want,))], None
                except Exception as e:  # noqa: BLE001
                    return None, type(e).__name__
            wants, why = rec.answer(rec.key(kernel, serial, vals), vals,
                                    reference)
            runs = []
            for t in THREADS:
                outs = [os.path.join(tmp, f"{idx}.{t}.{k}.npy")
                        for k in range(len(wants) if wants else 1)]
                argv = [opt.ufjit, "call", path, kernel, *cli,
                        "--threads", str(t)]
                for o in outs:
                    argv += ["-o", o]
                p = subprocess.run(argv, capture_output=True, text=True,
                                   timeout=120)
                runs.append((p, outs))
            bad = None
            if why is not None or raises is not None:
                if why != raises:
                    bad = f"Numba raised {why}, expected {raises}"
                for p, _ in runs:
                    if p.returncode == 0 or str(why) not in p.stderr:
                        bad = f"ufjit did not raise {why}: {p.stderr!r}"
            else:
                got = []
                for p, outs in runs:
                    if p.returncode != 0:
                        bad = f"ufjit failed: {p.stderr.strip()}"
                        break
                    got.append([np.load(o) for o in outs])
                if bad is None:
                    for g in got[1:]:
                        if any(x.tobytes() != y.tobytes()
                               for x, y in zip(g, got[0])):
                            bad = "results differ between thread counts"
                    for x, w in zip(got[0], wants):
                        if not same(x, w):
                            bad = (f"ufjit {x.dtype} {x.ravel()[:4]} != "
                                   f"numba {w.dtype} {w.ravel()[:4]}")
            if bad:
                fails += 1
                print(f"FAIL {cid} {args}: {bad}")
            elif opt.verbose:
                print(f"ok   {cid}")
        # refused on purpose: a scalar written in the body and read after
        p = subprocess.run([opt.ufjit, "call", FILE, "race", files["f"],
                            "-o", os.path.join(tmp, "race.npy")],
                           capture_output=True, text=True, timeout=120)
        n += 1
        if p.returncode == 0 or "prange.py:154:9: variable 's'" not in \
                p.stderr:
            fails += 1
            print(f"FAIL race: {p.stderr!r}")
    for _, _, rec, _ in mods:
        rec.close()
    print(f"{n - fails}/{n} prange cases agree with Numba")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
