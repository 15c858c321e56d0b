#!/usr/bin/env python3
"""Array methods inside kernels (tests/kernels/host/array_methods.py) against
Numba: every case runs through `ufjit call` and through Numba on the same
inputs; returned arrays are compared for dtype, shape and bytes, and where
Numba raises, ufjit must fail with the same exception. On the CUDA
targets they are refused at the call's FILE:LINE:COL, while np.round of a
number compiles.

    run_array_methods_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import Arr, S, V, b1, c8, c16, f4, f8, i1, i2, i4, i8, u1, u2, u8  # noqa: E402,E501
from oracle_record import Record  # noqa: E402
from oracle_util import (as_array, lazy_load, materialise,  # noqa: E402
                         options, run_ufjit)

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host",
                    "array_methods.py")


def parts(n, seed, dtype="c16", shape=None):
    """n complex numbers whose parts come from a few values (NaN, +-inf,
    +-0.0 among them): ties, and every NaN class of NumPy's order."""
    r = np.random.default_rng(seed)
    few = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5,
                    -2.5, 7.0])
    v = r.choice(few, n) + 1j * r.choice(few, n)
    v[r.random(n) < 0.5] = r.uniform(-3, 3, n)[:1] + 0j  # equal keys
    return V(dtype, list(v), shape)


def cases():
    a6, a23 = f8(6), f8(2, 3)
    nan = V("f8", [3.0, np.nan, 1.0, -np.inf, np.nan, 0.5, 2.5, -2.5, 7.0])
    rev = a23.view(":, ::-1")
    srt = V("f8", [-3.0, -1.0, 0.0, 0.5, 2.0, 2.0, 2.0, 9.0, np.nan])
    njit = [
        ("copy_m", [a23]), ("copy_m", [a23.F]), ("copy_m", [rev]),
        ("copy_m", [f8(0)]), ("copy_m", [i4(3, 4).view("::-1, 1::2")]),
        ("zero_d_copy", [S("2.5")]), ("zero_d_round", [S("2.25")]),
        ("copy_np", [a23.F]), ("copy_np", [rev]), ("copy_np", [b1(5)]),
        ("copy_is_new", [a6]),
        ("reshape_ints", [a6]), ("reshape_ints", [a23]),
        ("reshape_ints", [f8(5)], "ValueError"),
        ("reshape_tuple", [a6, S("2")]), ("reshape_tuple", [a6, S("3")]),
        ("reshape_tuple", [a6, S("4")], "ValueError"),
        ("reshape_tuple", [f8(0), S("0")]),
        ("reshape_np", [a23]), ("reshape_np", [a23.F], "NotImplementedError"),
        ("reshape_view", [a23]), ("reshape_two_neg", [a6], "ValueError"),
        ("reshape_0d", [f8(1)]), ("reshape_A", [a6], "TypingError"),
        ("ravel_m", [a23]), ("ravel_m", [a23.F]), ("ravel_m", [rev]),
        ("zero_d_ravel", [S("4")]),
        ("ravel_np", [i2(2, 3, 2).view("::-1")]),
        ("flatten_m", [a23.F]), ("flatten_m", [rev]), ("flatten_m", [f8(0, 3)]),
        ("astype_f4", [a23.F]), ("astype_f4", [rev]), ("astype_f4", [i8(4)]),
        ("astype_str", [f8(5, lo=-300, hi=300)]), ("astype_bool", [nan]),
        ("astype_int", [a6], "TypingError"),
        ("fill_m", [a23, S("2.5")]), ("fill_m", [i4(5), S("7.9")]),
        ("fill_m", [rev, S("-1")]), ("fill_m", [f8(0), S("1.0")]),
        ("fill_copy", [a23.F, S("3")]),
        ("cumsum_m", [a23]), ("cumsum_m", [rev]), ("cumsum_m", [a23.F]),
        ("cumsum_np", [i4(7)]), ("cumsum_np", [u1(9)]), ("cumsum_np", [b1(6)]),
        ("cumsum_np", [f4(5)]), ("cumsum_np", [f8(0)]),
        ("zero_d_cumsum", [S("int8:4")]), ("cumsum_np", [c16(4)]),
        ("cumsum_dtype", [f8(7)]), ("cumsum_dtype", [i2(3, 4)]),
        ("cumsum_dtype", [b1(5)]), ("cumsum_axis", [a23]),
        ("cumsum_number", [S("int8:-7")]), ("cumsum_number", [S("true")]),
        ("cumsum_number", [S("uint16:9")]), ("cumsum_number", [S("2.5")]),
        ("cumsum_number", [S("float32:1.5")]),
        ("cumsum_number", [S("1.5-2j")]),
        ("cumsum_number_args", [S("300")]),
        ("cumsum_number_args", [S("1.5-2j")], "TypingError"),
        ("cumprod_number", [S("3")], "TypingError"),
        ("cumprod_np", [i4(6, lo=-3, hi=4)]), ("cumprod_m", [b1(5)]),
        ("cumprod_m", [f8(3, 2).view("::-1, :")]),
        ("sort_np", [nan]), ("sort_np", [f8(200, special=True)]),
        ("sort_np", [f4(300, special=True)]), ("sort_np", [i1(500)]),
        ("sort_np", [u8(333, lo=0, hi=10**6)]), ("sort_np", [i8(1000)]),
        ("sort_np", [rev]), ("sort_np", [f8(4, 5).F]), ("sort_np", [f8(0)]),
        ("sort_np", [b1(40)]), ("sort_np", [i2(3, 50)]),
        ("sort_np", [Arr("f8", (), values=2.5)], "TypingError"),
        # complex: NumPy's order (real, then imaginary; NaNs last)
        ("sort_np", [V("c16", [3+1j, 1+2j, 1+1j, complex(np.nan, 0),
                               complex(1, np.nan), complex(np.nan, np.nan),
                               complex(-np.inf, 5), complex(np.nan, -1),
                               complex(-2, np.nan), complex(-0.0, 1),
                               complex(0.0, -1)])]),
        ("sort_np", [c16(4)]), ("sort_np", [parts(16, 1)]),
        ("sort_np", [parts(17, 2)]), ("sort_np", [parts(600, 3)]),
        ("sort_np", [parts(300, 4, "c8")]), ("sort_np", [c8(2000)]),
        ("sort_np", [parts(150, 5, shape=(3, 50))]),
        ("sort_np", [c16(40, 7).view("::-3, ::2")]), ("sort_np", [c16(0)]),
        ("sort_np", [c16(5, 4).F]), ("sort_m", [parts(400, 6)]),
        ("sort_in_place", [c16(6, 40).view(":, ::-1")]),
        ("argsort_np", [parts(12, 7)]), ("argsort_np", [parts(900, 8)], "stable"),
        ("argsort_np", [parts(300, 9, "c8")], "stable"),
        ("argsort_np", [c16(0)]), ("argsort_m", [parts(50, 10)], "stable"),
        ("ss_left", [V("c16", np.sort(np.array(parts(64, 11).values)))
                     , S("1+1j")]),
        ("ss_right", [V("c16", np.sort(np.array(parts(64, 11).values))),
                      S("2.5")]),
        ("ss_left", [V("c16", np.sort(np.array(parts(64, 12).values))),
                     V("c16", [complex(np.nan, 0), complex(1, np.nan),
                               complex(np.nan, np.nan), 2.5-1j, -np.inf])]),
        ("ss_right", [V("c16", np.sort(np.array(parts(64, 12).values))),
                      V("c16", [complex(np.nan, 0), complex(1, np.nan),
                                complex(np.nan, np.nan), 2.5-1j, 7+0j])]),
        ("ss_left", [srt, S("2+0.5j")]),
        ("sort_m", [f8(7, 9).view("::-1, ::2")]), ("sort_m", [u2(100)]),
        ("sort_in_place", [f8(6, 4).view(":, ::-1")]),
        ("sort_in_place", [f4(100, special=True)]),
        ("sort_kind", [a6], "TypingError"),
        ("argsort_kind", [V("f8", [3.0, -1.0, 2.0, 0.5])]),
        ("argsort_heap", [a6], "TypingError"),
        ("sort_m_kind", [f8(3, 300, special=True)]),
        ("argsort_np", [nan]), ("argsort_np", [f8(300).view("::-3")]),
        ("argsort_np", [V("i4", [9, -4, 7, 0, 3, -12, 5])]), ("argsort_m", [V("f8", [3.0, 1.0, 2.0])]),
        ("argsort_np", [f8(0)]), ("argsort_np", [a23], "TypingError"),
        ("ss_left", [srt, S("2.0")]), ("ss_right", [srt, S("2.0")]),
        ("ss_left", [srt, S("nan")]), ("ss_right", [srt, S("nan")]),
        ("ss_left", [srt, S("-inf")]), ("ss_left", [f8(0), S("1.0")]),
        ("ss_left", [V("i8", [1, 3, 5, 7]), S("4")]),
        ("ss_right", [V("i8", [1, 3, 5, 7]), S("2.5")]),
        ("ss_left", [V("i8", [1, 3, 5, 7]), f8(3, 2, lo=0, hi=9)]),
        ("ss_right", [srt, V("f8", [2.0, np.nan, -5.0, 9.0])]),
        ("ss_left", [srt.view("::-1"), S("1.0")]),
        ("ss_left", [a23, S("1.0")], "TypingError"),
        ("ss_bad_side", [a6, S("1.0")], "TypingError"),
        ("round0", [S("2.5")]), ("round0", [S("-3.5")]),
        ("round0", [S("float32:1.5")]), ("round0", [S("int32:7")]),
        ("round0", [S("uint64:7")]), ("round0", [S("true")], "TypingError"),
        ("round0", [S("1.5+2.5j")]), ("round0", [nan]),
        ("round_d", [S("2.25"), S("1")]), ("round_d", [S("1234.5678"), S("-2")]),
        ("round_d", [S("15"), S("-1")]), ("round_d", [S("25"), S("-1")]),
        ("round_d", [S("1e300"), S("30")]), ("round_d", [S("0.125"), S("2")]),
        ("round_d", [f8(20, special=True), S("2")]),
        ("round_d", [f4(3, 4).F, S("1")]), ("round_d", [rev, S("0")]),
        ("round_d", [V("i4", [15, 25, -35, 5]), S("-1")]),
        ("round_d", [V("u1", [15, 25, 250]), S("-1")]),
        ("round_d", [c8(5), S("1")]), ("round_d", [f8(0), S("3")]),
        ("around_d", [f8(6, lo=-99, hi=99), S("-1")]),
        ("flat_iter", [a23]), ("flat_iter", [f8(7).view("::-2")]),
        ("flat_iter", [f8(0, 4)]), ("flat_iter", [a23.F]),
        # .flat of F and strided arrays: C order, writes reach the array
        ("flat_iter", [f8(3, 4, 5).view("::-1, 1:, ::2")]),
        ("flat_iter", [f8(0, 4).F]), ("flat_iter", [f8(4, 0, 3).F]),
        ("zero_d_flat", [S("2.5"), S("0")]),
        ("zero_d_flat", [S("2.5"), S("-1")], "numpy0"),
        ("zero_d_flat", [S("2.5"), S("1")], "ufjit:IndexError"),
        ("flat_copy_out", [i4(3, 4).F]), ("flat_copy_out", [rev]),
        ("flat_copy_out", [c16(2, 3, 2).view(":, ::-1, :")]),
        ("flat_copy_out", [u1(5, 6).view("::2, ::-3")]),
        ("flat_copy_out", [b1(2, 5).F]),
        ("flat_index", [a23.F]), ("flat_index", [i4(2, 2, 3).F]),
        ("flat_get", [a23.F, S("4")]), ("flat_get", [rev, S("5")]),
        ("flat_get", [f8(3, 4).view("::-1, ::2"), S("int8:3")]),
        ("flat_get", [f8(3, 4).F, S("uint32:11")]),
        ("flat_get", [a23, S("-2")], "numpy"),
        ("flat_get", [f8(5), S("-5")], "numpy"),
        ("flat_get", [a23, S("6")], "ufjit:IndexError"),
        ("flat_get", [f8(5).view("::-2"), S("3")], "ufjit:IndexError"),
        ("flat_set", [f8(2, 3), S("-1"), S("4.0")], "numpyset"),
        ("flat_set", [f8(2, 3), S("6"), S("4.0")], "ufjit:IndexError"),
        ("flat_set", [f8(3, 4).F, S("7"), S("99.5")]),
        ("flat_set", [i4(3, 4).view("::-1, 1::2"), S("5"), S("-3.7")]),
        ("flat_aug", [f8(2, 3, 4).F]), ("flat_aug", [i8(4, 3).view("::-1")]),
        ("flat_enum", [f8(3, 5).F]), ("flat_enum", [f8(0, 2).F]),
        ("flat_zip", [f8(3, 4).F, f8(3, 4).view("::-1")]),
        ("flat_zip", [f8(2, 5).F, f8(7)]),
        ("flat_len", [f8(3, 4).F]), ("flat_len", [f8(3, 0).F]),
        ("flat_len", [a23]),
        # out of range: NumPy's IndexError (Numba reads past the array)
        ("flat_get", [a23.F, S("-1")], "numpy"),
        ("flat_get", [a23.F, S("-6")], "numpy"),
        ("flat_get", [a23.F, S("6")], "ufjit:IndexError"),
        ("flat_get", [a23.F, S("-7")], "ufjit:IndexError"),
        ("flat_get", [f8(0, 3).F, S("0")], "ufjit:IndexError"),
        ("flat_set", [a23.F, S("6"), S("1.0")], "ufjit:IndexError"),
        ("flat_index", [f8(3, 4)]), ("flat_index", [rev]),
        ("flat_index", [i4(2, 2, 3)]),
    ]
    gu = [
        ("gu_sorted", [f8(4, 9)]), ("gu_sorted", [f8(0, 3)]),
        ("gu_round", [f8(3, 5)]),
    ]
    out, seen = [], {}
    for kind, lst in (("njit", njit), ("gu", gu)):
        for c in lst:
            seen[c[0]] = seen.get(c[0], 0) + 1
            out.append((kind, f"{c[0]}#{seen[c[0]]}", c[0], c[1],
                        c[2] if len(c) > 2 else None))
    return out


CUDA_REFUSED = '''import numpy as np
from numba import cuda, vectorize


@cuda.jit
def k(out):
    t = np.sort(out)
    out[0] = t[0]


@vectorize(['float64(float64)'], target='cuda')
def v(x):
    return np.round(x, 1)


@vectorize(['float64(float64)'], target='cuda')
def w(x):
    return np.cumsum(np.zeros(3))[0] + x
'''


def same(got, want, sorted_=False):
    """Byte for byte; a sort's result by value (NumPy and Numba order -0.0
    and 0.0 as they come: equal keys)."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if sorted_:
        if got.dtype.kind == "c":  # each part, NaNs equal
            got, want = (np.stack([x.real, x.imag]) for x in (got, want))
        return np.array_equal(got, want, equal_nan=True)
    return got.tobytes() == want.tobytes()


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    mod, rec = lazy_load(FILE), Record(FILE)
    fails = n = 0
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory(prefix="ufjit-arrmeth-") as tmp:
        for kind, cid, kernel, inputs, raises in cases():
            if opt.filter not in cid:
                continue
            n += 1
            vals, args = materialise(cid, inputs, tmp)

            def reference(raises=raises):
                probs = []
                try:
                    # k < 0 in a.flat[k]: NumPy's element (Numba does not
                    # wrap it: it reads, and writes, outside the array)
                    if raises in ("numpy", "numpy0", "numpyset"):
                        a = vals[0]
                        if raises == "numpyset":
                            want = a.copy()
                            want.flat[vals[1]] = vals[2]
                        else:
                            want = as_array(a * 2 + 1 if raises == "numpy0"
                                            else a.flat[vals[1]])
                        raise StopIteration
                    if raises and raises.startswith("ufjit:"):
                        # NumPy raises; Numba reads past the array
                        raises = raises[len("ufjit:"):]
                        raise IndexError(raises)
                    want = as_array(getattr(mod(), kernel)(*vals))
                    if raises == "refused":  # Numba has it, ufjit not
                        want, raises = None, "TypingError"
                    elif raises == "stable":  # ties: ours is NumPy's
                        # stable order, Numba's quicksort sorts them as it
                        # comes
                        if not same(vals[0][want], np.sort(vals[0]),
                                    True):
                            probs.append("Numba's argsort does not sort")
                        want = np.argsort(vals[0], kind="stable")
                        raises = None
                    elif raises:
                        probs.append("Numba does not raise")
                except StopIteration:
                    raises = None
                except Exception as e:  # noqa: BLE001
                    want = None
                    if type(e).__name__ != raises:
                        probs.append(f"Numba raises {type(e).__name__}, "
                                     f"the case expects {raises}")
                return want, raises, probs
            want, raises, probs = rec.answer(rec.key(kernel, raises, vals),
                                             vals, reference)
            probs = list(probs)
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
                    if not same(got, want, "sort" in kernel):
                        probs.append(f"{target}: ufjit {got.dtype} {got!r}, "
                                     f"Numba {want.dtype} {want!r}\n  {cmd}")
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs))
            elif opt.verbose:
                print(f"ok   {cid}")
        src = os.path.join(tmp, "cuda_arrmeth.py")
        with open(src, "w") as f:
            f.write(CUDA_REFUSED)
        x = os.path.join(tmp, "x.npy")
        np.save(x, np.array([0.25, 1.35, -2.55, 7.0]))
        for kernel, target, where in (("w", "cudasim", "18:12"),
                                      ("w", "cuda", "18:12"),
                                      ("v", "cudasim", None)):
            if opt.filter not in "refused":
                continue
            n += 1
            env = dict(os.environ, UFJIT_ENABLE_CUDASIM="1")
            o = os.path.join(tmp, "o.npy")
            argv = [opt.ufjit, "call", src, kernel, x, "-o", o,
                    "--target", target]
            p = subprocess.run(argv, capture_output=True, text=True,
                               timeout=120, env=env)
            frag = "allocates an array or calls the host runtime"
            if where is None:  # np.round of a number runs on the device
                ok = p.returncode == 0 and same(
                    np.load(o), np.round(np.load(x), 1))
            else:
                ok = p.returncode == 1 and frag in p.stderr and \
                    f"{src}:{where}:" in p.stderr
            if not ok:
                fails += 1
                print(f"FAIL cuda {kernel} on {target}: exit "
                      f"{p.returncode}, want {src}:{where}: {frag!r}; got "
                      f"{p.stderr.strip()}")
            elif opt.verbose:
                print(f"ok   cuda {kernel} on {target}")
    rec.close()
    print(f"{n - fails}/{n} array method cases agree with Numba")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
