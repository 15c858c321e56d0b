#!/usr/bin/env python3
"""dtypes as values, array parts and min/max/sum inside kernels
(tests/kernels/host/arrattr.py) against Numba: every case runs through
`ufjit call` and through Numba on the same inputs; returned arrays and
numbers are compared for dtype, shape and bytes (a tuple element by
element), and where Numba raises, ufjit must fail with the same exception:
a TypingError at the FILE:LINE:COL the case names, a run-time exception
by its name.

    run_arrattr_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import Arr, S, V, b1, c8, c16, f4, f8, i1, i4, i8, u1, u8  # noqa: E402,E501
from oracle_record import Record  # noqa: E402
from oracle_util import (as_array, lazy_load, materialise,  # noqa: E402
                         options)

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "arrattr.py")


def cases():
    """(kernel, inputs[, raises[, "LINE:COL"]]): raises is Numba's
    exception, or "refused" where Numba compiles what ufjit refuses at
    compile time (a TypingError at LINE:COL either way)."""
    a6, a23 = f8(6), f8(2, 3)
    z = c16(5)
    zF = c16(3, 4).F
    nan = V("f8", [3.0, np.nan, -5.0, 1.0])
    nan0 = V("f8", [np.nan, 1.0, -5.0])
    zeros = V("f8", [0.0, -0.0]), V("f8", [-0.0, 0.0])
    njit = [
        # dtypes as values
        ("dt_zeros", [i4(2)]), ("dt_zeros", [c8(2)]), ("dt_zeros", [b1(2)]),
        ("dt_ones_kw", [a6]),
        ("dt_astype", [f8(5, lo=-300, hi=300), i1(2)]),
        ("dt_astype", [a23.F, f4(1)]), ("dt_astype", [a6, b1(1)]),
        ("dt_empty_like", [a23.F, u8(1)]), ("dt_empty_like", [f8(0), i4(1)]),
        ("dt_full", [a6, S("7")]), ("dt_full", [i4(2), S("2.75")]),
        ("dt_full", [u1(1), S("300")]), ("dt_full_like", [i4(2, 2)]),
        ("dt_arange", [f4(1)]), ("dt_arange", [i1(1)]),
        ("dt_pass", [i4(3)]), ("dt_pass", [c16(1)]),
        ("dt_pass_class", [a6]),
        ("dt_returned", [u1(2)]), ("dt_tuple", [f4(2)]),
        ("dt_same_join", [i8(2), S("true")]),
        ("dt_same_join", [i8(2), S("false")]),
        ("dt_loop", [i4(3)]),
        ("dt_eq", [a6, f8(2, 2)]), ("dt_eq", [a6, f4(2)]),
        ("dt_branch", [a6]), ("dt_branch", [i4(2)]),
        ("dt_np_dtype", [a6]),
        ("dt_type_call", [a6]), ("dt_type_call", [i1(2)]),
        ("dt_class_call", [S("3")]), ("dt_class_call", [S("2.5")]),
        ("dt_cast", [i4(2)]),
        ("dtype_of", [a6], "refused", "74:1"),
        ("dt_join_classes", [a6, S("true")], "TypingError", "149:33"),
        ("dt_join_dtypes", [a6, i4(2), S("true")], "TypingError", "158:9"),
        ("dt_ne", [a6, i4(2)], "TypingError", "164:12"),
        ("dt_eq_class", [a6], "TypingError", "169:12"),
        ("dt_call_dtype", [a6], "TypingError", "175:12"),
        ("dt_itemsize", [a6], "TypingError", "181:14"),
        # .real .imag .conj()
        ("part_real", [z]), ("part_real", [zF]), ("part_real", [c8(4)]),
        ("part_real", [z.view("::-2")]), ("part_real", [a6]),
        ("part_real", [i4(3)]), ("part_real", [Arr("c16", (), values=1+2j)]),
        ("part_imag", [z]), ("part_imag", [zF]), ("part_imag", [c8(4)]),
        ("part_imag", [a23.F]), ("part_imag", [i4(3)]),
        ("part_imag", [z.view("::-1")]), ("part_imag", [c16(0)]),
        ("part_np_real", [z]), ("part_np_real", [u1(3)]),
        ("part_np_imag", [c8(2, 2)]), ("part_np_imag", [f4(3)]),
        ("part_conj", [z]), ("part_conj", [zF]), ("part_conj", [c8(3)]),
        ("part_conj", [a6]), ("part_conj", [b1(4)]), ("part_conj", [i4(3)]),
        ("part_conj", [z.view("1::2")]),
        ("part_conj", [V("c16", [complex(0.0, 0.0), complex(np.nan, -0.0),
                                 complex(np.inf, np.inf)])]),
        ("part_conjugate", [z]), ("part_conjugate", [b1(3)]),
        ("part_np_conj", [z]), ("part_np_conjugate", [i4(2)]),
        ("write_real", [z]), ("write_real", [a6]),
        ("write_imag", [z]), ("real_aliases", [a6]),
        ("conj_is_new", [z]), ("part_sum", [zF]), ("part_sum", [a6]),
        ("part_of_new", [S("3")]),
        ("part_real", [b1(3)], "TypingError", "189:14"),
        ("part_imag", [b1(3)], "TypingError", "194:14"),
        ("part_np_real", [b1(3)], "TypingError", "199:12"),
        ("write_imag_real", [a6], "TypingError", "266:5"),
        ("imag_var_write", [i4(3)], "TypingError", "273:5"),
        # min max sum
        ("b_min", [a6]), ("b_max", [a6]), ("b_sum", [a6]),
        ("b_min", [nan]), ("b_max", [nan]), ("b_sum", [nan]),
        ("b_min", [nan0]), ("b_max", [nan0]),
        ("b_min", [zeros[0]]), ("b_max", [zeros[0]]),
        ("b_min", [zeros[1]]), ("b_max", [zeros[1]]),
        ("b_min", [i4(7)]), ("b_max", [u1(9, lo=0, hi=256)]),
        ("b_min", [b1(5)]), ("b_max", [b1(5)]), ("b_max", [f4(4)]),
        ("b_min", [i8(9).view("::-3")]),
        ("b_min", [f8(0)], "StopIteration"),
        ("b_max", [i4(0)], "StopIteration"),
        ("b_min", [c16(3)], "TypingError", "282:16"),
        # N-d: the row Numba's loop picks (rows of one element), else
        # Numba's ValueError (the truth value of a row)
        ("b_min", [a23], "ValueError"), ("b_max", [f8(2, 0)], "ValueError"),
        ("b_min", [V("f8", [3.0, 1.0, np.nan, 1.0], (4, 1))]),
        ("b_max", [V("f8", [3.0, 1.0, np.nan, 5.0], (4, 1))]),
        ("b_min", [V("f8", [np.nan, 1.0, -2.0], (3, 1)).F]),
        ("b_max", [V("i4", [3, 9, 9, -1], (2, 1, 2)).view(":, :, :1")]),
        ("b_min", [f8(1, 3)]), ("b_min", [f8(1, 0)]),
        ("b_max", [b1(3, 1)]), ("b_min", [u1(5, 1).view("::-2")]),
        ("b_min", [f8(0, 3)], "StopIteration"),
        ("b_max", [Arr("f8", (), values=2.5)], "TypingError", "287:12"),
        ("b_sum", [a23], "TypingError", "292:16"),
        ("b_sum", [Arr("f8", (), values=2.5)], "TypingError", "292:16"),
        ("b_sum", [i4(5)]), ("b_sum", [u1(6, lo=0, hi=256)]),
        ("b_sum", [b1(7)]), ("b_sum", [f4(5)]), ("b_sum", [c8(3)]),
        ("b_sum", [c16(4)]), ("b_sum", [f8(0)]), ("b_sum", [i4(0)]),
        ("b_sum", [V("u8", [2**63, 2**63, 5])]),
        ("b_sum", [V("i8", [2**63 - 1, 1])]),
        ("b_sum", [f8(9).view("::-2")]),
        ("b_sum_start", [a6, S("10")]), ("b_sum_start", [i8(3), S("10.5")]),
        ("b_sum_start", [i4(3), S("int32:10")]),
        ("b_sum_start", [u8(3), S("int64:1")]),
        ("b_sum_start", [i4(3), S("uint64:1")]),
        ("b_sum_start", [u8(3, lo=0), S("uint64:1")]),
        ("b_sum_start", [b1(3), S("uint64:1")]),
        ("b_sum_start", [b1(3), S("float32:1.5")]),
        ("b_sum_start", [f4(3), S("int32:1")]),
        ("b_sum_start", [f4(3), S("true")]),
        ("b_sum_start", [i4(3), S("1+2j")]),
        ("b_sum_kw", [a6, S("-4")]),
        ("b_tuple", [S("3"), S("int32:-4")]),
        ("b_tuple", [S("2.5"), S("float32:1.5")]),
        ("b_tuple", [S("true"), S("false")]),
        ("b_sum_view", [c16(7)]),
        # range(): sum/min/max over its values, len in its dtype
        ("b_sum_range", [S("10")]), ("b_sum_range", [S("int32:10")]),
        ("b_sum_range", [S("uint64:10")]), ("b_sum_range", [S("-5")]),
        ("b_sum_range", [S("8589934592")]),  # wraps in int64, as Numba
        ("b_sum_range3", [S("1"), S("20"), S("3")]),
        ("b_sum_range3", [S("20"), S("1"), S("-3")]),
        ("b_sum_range3", [S("uint32:1"), S("uint32:20"), S("uint32:3")]),
        ("b_sum_range3", [S("1"), S("20"), S("0")], "ValueError"),
        ("b_sum_range_start", [S("5"), S("uint64:0")]),
        ("b_sum_range_start", [S("5"), S("0.1")]),
        ("b_sum_range_start", [S("5"), S("1+1j")]),
        ("b_sum_range_start", [S("int32:4"), S("int32:1")]),
        ("b_minmax_range", [S("2"), S("9"), S("3")]),
        ("b_minmax_range", [S("9"), S("2"), S("-3")]),
        ("b_minmax_range", [S("uint32:2"), S("uint32:9"), S("uint32:3")]),
        ("b_minmax_range", [S("5"), S("5"), S("1")], "StopIteration"),
        ("b_minmax_range", [S("0"), S("10"), S("0")], "ValueError"),
        ("b_len_range", [S("uint32:1"), S("uint32:9")]),
        ("b_len_range", [S("int32:1"), S("int32:9")]),
        ("b_len_range", [S("uint32:1"), S("9")]),
        ("b_len_range", [S("uint64:10"), S("uint64:1")]),
        ("b_zip_range", [S("uint64:1"), S("uint64:20"), f8(7)]),
        ("b_zip_range", [S("int32:1"), S("int32:20"), f8(7)]),
        # Python's classes held in variables and tuples, passed on
        ("cls_call", [S("3")]), ("cls_int", [S("3.7")]),
        ("cls_int", [S("uint64:3")]), ("cls_int", [S("0.0")]),
        ("cls_zeros", [S("3")]), ("cls_full", [S("2")]),
        ("cls_tuple", [S("3")]), ("cls_pass", [S("2")]),
        ("cls_call", [S("1+2j")], "TypingError", "382:12"),
        ("cls_call", [S("true")], "TypingError", "382:12"),
        ("cls_zeros_int", [S("2")], "TypingError", "418:24"),
        ("cls_join", [S("true")], "TypingError", "423:28"),
        ("cls_astype", [f8(3)], "TypingError", "430:21"),
    ]
    gu = [
        ("gu_parts", [f8(3, 5)]), ("gu_parts", [f8(2, 0)], "StopIteration"),
        ("gu_complex", [c16(4, 3)]),
    ]
    out, seen = [], {}
    for kind, lst in (("njit", njit), ("gu", gu)):
        for c in lst:
            seen[c[0]] = seen.get(c[0], 0) + 1
            out.append((kind, f"{c[0]}#{seen[c[0]]}", c[0], c[1],
                        c[2] if len(c) > 2 else None,
                        c[3] if len(c) > 3 else None))
    return out


CUDA_SRC = '''import numpy as np
from numba import guvectorize


@guvectorize(['void(complex128[:], float64[:])'], '(n)->()', target='cuda')
def parts(z, out):
    d = out.dtype
    out[0] = sum(z.real) + max(z.imag) + min(z.real) + d.type(1)


@guvectorize(['void(complex128[:], complex128[:])'], '(n)->(n)',
             target='cuda')
def conj(z, out):
    c = z.conj()
    out[0] = c[0]


@guvectorize(['void(float64[:, :], float64[:])'], '(m,n)->(n)',
             target='cuda')
def rows(a, out):
    r = min(a[:, :1])
    out[0] = r[0] + np.cumsum(a[0, 0]) + sum(range(a.shape[0]))
'''


def cuda_cases(ufjit, tmp):
    """On cudasim (the CUDA lowering, run on the host): views, dtype
    values, sum/min/max of a row, min() of a 2-D view, np.cumsum of a
    number and sum(range()) against NumPy; a.conj() refused at its
    FILE:LINE:COL (it allocates)."""
    src = os.path.join(tmp, "cuda_arrattr.py")
    with open(src, "w") as f:
        f.write(CUDA_SRC)
    z = np.random.default_rng(7).uniform(-9, 9, (4, 6, 2)).view(
        np.complex128)[..., 0]
    x, o = os.path.join(tmp, "z.npy"), os.path.join(tmp, "o.npy")
    np.save(x, z)
    rx = os.path.join(tmp, "r.npy")  # rows: (m, n) = (6, 1) per launch
    np.save(rx, z.real.reshape(4, 6, 1))
    env = dict(os.environ, UFJIT_ENABLE_CUDASIM="1")
    probs = []
    for kernel in ("parts", "conj", "rows"):
        p = subprocess.run([ufjit, "call", src, kernel,
                            rx if kernel == "rows" else x, "-o", o,
                            "--target", "cudasim"], capture_output=True,
                           text=True, timeout=120, env=env)
        if kernel == "parts":
            want = (z.real.sum(1) + z.imag.max(1) + z.real.min(1) + 1.0)
            if p.returncode != 0 or not np.allclose(np.load(o), want,
                                                     rtol=1e-15, atol=0):
                probs.append(f"cudasim parts: exit {p.returncode} "
                             f"{p.stderr.strip()}")
        elif kernel == "rows":
            r = z.real
            want = r.min(1) + r[:, 0] + sum(range(6))
            if p.returncode != 0 or not np.array_equal(np.load(o)[:, 0],
                                                       want):
                probs.append(f"cudasim rows: exit {p.returncode} "
                             f"{p.stderr.strip()}")
        elif p.returncode != 1 or f"{src}:14:9:" not in p.stderr or \
                "CUDA kernels cannot" not in p.stderr:
            probs.append(f"cudasim conj not refused at 14:9: exit "
                         f"{p.returncode} {p.stderr.strip()}")
    return probs


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
    with tempfile.TemporaryDirectory(prefix="ufjit-arrattr-") as tmp:
        for kind, cid, kernel, inputs, raises, where in cases():
            if opt.filter not in cid:
                continue
            n += 1
            vals, args = materialise(cid, inputs, tmp)

            def reference(raises=raises):
                probs = []
                want = None
                try:
                    r = getattr(mod(), kernel)(*vals)
                    rs = [r] if kind == "gu" or not isinstance(r, tuple) \
                        else r
                    # a number comes back from Numba boxed as Python's
                    # int, float, complex or bool: ufjit's 0-d array is
                    # boxed alike
                    want = [(as_array(x), not isinstance(x, np.ndarray))
                            for x in rs]
                    if raises == "refused":
                        want, raises = None, "TypingError"
                    elif raises:
                        probs.append("Numba does not raise")
                except Exception as e:  # noqa: BLE001
                    want = None
                    if raises == "refused":
                        raises = "TypingError"  # Numba raises at run time
                    elif type(e).__name__ != raises:
                        probs.append(f"Numba raises {type(e).__name__}: "
                                     f"{e}, the case expects {raises}")
                return want, raises, probs
            want, raises, probs = rec.answer(
                rec.key(kernel, (kind, raises), vals), vals, reference)
            probs = list(probs)
            outs = [os.path.join(tmp, f"{cid}.out{k}.npy")
                    for k in range(len(want) if want else 1)]
            for target in ("cpu", "parallel") if kind == "gu" else ("cpu",):
                argv = [opt.ufjit, "call", FILE, kernel, *args]
                for o in outs:
                    argv += ["-o", o]
                argv += ["--target", target]
                p = subprocess.run(argv, capture_output=True, text=True,
                                   timeout=120)
                cmd = " ".join(argv)
                mark = f"{FILE}:{where}:" if raises == "TypingError" else \
                    f"{raises}:"
                if raises:
                    if p.returncode != 1 or mark not in p.stderr:
                        probs.append(f"ufjit did not raise {raises} at "
                                     f"{mark}: exit {p.returncode} "
                                     f"{p.stderr.strip()}")
                elif p.returncode != 0:
                    probs.append(f"ufjit exited {p.returncode}: "
                                 f"{p.stderr.strip()}\n  {cmd}")
                else:
                    for o, (w, boxed) in zip(outs, want):
                        got = np.load(o)
                        if boxed and got.ndim == 0:
                            got = as_array(got[()].item())
                        if not same(got, w):
                            probs.append(f"{target}: ufjit {got.dtype} "
                                         f"{got!r}, Numba {w.dtype} {w!r}"
                                         f"\n  {cmd}")
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs))
            elif opt.verbose:
                print(f"ok   {cid}")
        if opt.filter in "cudasim":
            n += 1
            probs = cuda_cases(opt.ufjit, tmp)
            if probs:
                fails += 1
                print("FAIL " + "; ".join(probs))
            elif opt.verbose:
                print("ok   cudasim")
    rec.close()
    print(f"{n - fails}/{n} dtype/part/min-max-sum cases agree with Numba")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
