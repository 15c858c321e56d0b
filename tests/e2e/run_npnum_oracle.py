#!/usr/bin/env python3
"""np.interp, np.digitize and np.bincount inside kernels (tests/kernels/host/npnum.py) against Numba:
every case runs through `ufjit call` and through Numba on the same inputs;
results are compared for dtype, shape and bits (NaNs of either sign equal;
the sign of a zero counts), and where Numba raises, ufjit must fail with
the same exception: a TypingError at the FILE:LINE:COL the case names, a
run-time exception by its name.

    run_npnum_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import subprocess
import sys

sys.dont_write_bytecode = True

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import S, V, b1, c16, f4, f8, i4, i8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npnum.py")

nan, inf = np.nan, np.inf


def table(n, lo=0.0, hi=10.0, seed=1):
    """n sorted sample points and n values, as corpus specs."""
    rng = np.random.default_rng(seed)
    xs = np.sort(rng.uniform(lo, hi, n))
    return V("f8", list(xs)), V("f8", list(rng.uniform(-5, 5, n)))


def interp_cases():
    xp, fp = table(13)
    xp1k, fp1k = table(1000, seed=2)
    xp4, fp4 = V("f8", [0.0, 1.0, 2.0, 3.0]), V("f8", [1.0, -1.0, 4.0, 2.0])
    dup = V("f8", [0.0, 1.0, 1.0, 2.0, 3.0, 3.0, 3.0, 5.0, 6.0, 9.0])
    fdup = V("f8", [0.0, 1.0, 2.0, 2.0, 3.0, -1.0, 4.0, 5.0, 6.0, 7.0])
    unsorted = V("f8", [3.0, 1.0, 4.0, 1.5, 9.0, 2.0, 6.0, 5.0, 3.5, 8.0])
    # non-finite values in the table: NaN slopes and Numba's retries
    xsp = V("f8", [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    fsp = V("f8", [0.0, inf, 1.0, -inf, -inf, nan, 2.0, 2.0])
    fsp2 = V("f8", [inf, inf, 1.0, 1.0, -inf, -inf, 3.0, inf])
    xinf = V("f8", [-inf, 0.0, 1.0, 2.0, 3.0, inf, inf])
    finf = V("f8", [1.0, 2.0, 3.0, 3.0, 5.0, 6.0, 7.0])
    xs = V("f8", [nan, -inf, inf, -0.0, 0.0, 0.5, 1.0, 1.5, 2.5, 3.0, 3.5,
                  4.0, 4.5, 5.5, 6.0, 6.5, 7.0, 7.5, 100.0, nan])
    cx = V("c16", [1 + 2j, 3 - 1j, inf + 0j, 2 + nan * 1j, -1 - 1j,
                   0 + inf * 1j, 5 + 5j, -0.0 - 0.0j])
    return [
        # many points (slopes cached) and few (computed per point)
        ("interp", [f8(200, lo=-1, hi=11), xp, fp]),
        ("interp", [f8(5, lo=-1, hi=11), xp, fp]),
        ("interp", [f8(3000, lo=-1, hi=11), xp1k, fp1k]),
        ("interp", [f8(40, lo=-1, hi=11), xp1k, fp1k]),
        # x of any dimensions, F order, strided and reversed views, empty
        ("interp", [f8(6, 7, lo=-1, hi=11), xp, fp]),
        ("interp", [f8(4, 5, 3, lo=-1, hi=11).F, xp, fp]),
        ("interp", [f8(9, 8, lo=-1, hi=11).view("::-1, 1::3"), xp, fp]),
        ("interp", [f8(0), xp, fp]), ("interp", [f8(3, 0), xp, fp]),
        # strided tables
        ("interp", [f8(30, lo=-1, hi=11),
                    V("f8", list(np.arange(26.0))).view("::2"),
                    f8(39).view("::3")]),
        # every dtype of x, xp and fp; numbers as x (bool: a 0-d array)
        ("interp", [i8(50, lo=-2, hi=12), xp, fp]),
        ("interp", [f4(50, lo=-2, hi=12), xp, fp]),
        ("interp", [b1(9), xp4, fp4]), ("interp", [i4(7), xp4, fp4]),
        ("interp", [S("2.75"), xp, fp]), ("interp", [S("3"), xp, fp]),
        ("interp", [S("true"), xp4, fp4]),
        ("interp", [S("float32:1.3"), xp4, fp4]),
        ("interp", [f8(20, lo=-1, hi=11),
                    V("i8", [0, 2, 3, 5, 8, 9, 10]), V("f4", [1, 2, 3, 4, 5,
                                                              6, 7])]),
        ("interp", [f8(20, lo=-1, hi=5), xp4, V("i4", [3, -9, 7, 1])]),
        ("interp", [f8(20, lo=-1, hi=5), xp4, V("?", [1, 0, 0, 1])]),
        ("interp", [f8(12, lo=-1, hi=5), V("f4", [0.0, 0.1, 2.3, 3.3]),
                    fp4]),
        # NaN and infinities in x and the table; equal sample points;
        # unsorted ones (the guessed search decides, as Numba's)
        ("interp", [xs, xsp, fsp]), ("interp", [xs, xsp, fsp2]),
        ("interp", [V("f8", [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5]), xsp,
                    fsp]),
        ("interp", [xs, xinf, finf]),
        ("interp", [f8(60, lo=-1, hi=10), dup, fdup]),
        ("interp", [V("f8", [1.0, 3.0, 3.0, 1.0, 0.0, 2.0, 9.0]), dup,
                    fdup]),
        ("interp", [f8(60, lo=-1, hi=10), unsorted, fdup]),
        ("interp", [f8(5, lo=-1, hi=10), unsorted, fdup]),
        ("interp", [xs, V("f8", [0.0, nan, 2.0, 3.0, 4.0, 5.0]),
                    V("f8", [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])]),
        ("interp", [f8(100, lo=-10, hi=10, special=True), xp, fp]),
        # one sample point: fp[0] everywhere, NaN x too
        ("interp", [xs, V("f8", [1.0]), V("f8", [-3.0])]),
        ("interp", [S("nan"), V("f8", [1.0]), V("c16", [2 - 1j])]),
        # complex fp: complex128 results, Numba's complex arithmetic
        ("interp", [f8(30, lo=-1, hi=11), xp, c16(13)]),
        ("interp", [f8(3, lo=-1, hi=11), xp, c16(13)]),
        ("interp", [xs, xsp, cx]), ("interp", [S("2.5"), xsp, cx]),
        ("interp", [f4(30, lo=-1, hi=5), V("f4", [0.0, 0.1, 2.3, 3.3]),
                    V("c8", [1 + 1j, 2 - 3j, 0.5j, 7])]),
        ("interp", [i8(30, lo=-1, hi=5), V("i8", [0, 1, 3, 4]),
                    V("c8", [1 + 1j, 2 - 3j, 0.5j, 7])]),
        # keywords, tuples, loops, expressions, a gufunc's rows
        ("interp_kw", [f8(20, lo=-1, hi=11), xp, fp]),
        ("interp_tuple_table", [f8(40, lo=-1, hi=8)]),
        ("interp_tuple_x", [xp4, fp4]),
        ("interp_points", [f8(50, lo=-1, hi=11), xp, fp]),
        ("interp_expr", [f8(50, lo=-1, hi=6), xp, fp]),
        ("gu_interp", [f8(5, 40, lo=-1, hi=11), xp, fp]),
        # Numba's ValueErrors
        ("interp", [f8(5), f8(0), f8(0)], "ValueError"),
        ("interp", [S("1.0"), f8(0), f8(0)], "ValueError"),
        ("interp", [f8(5), xp, fp4], "ValueError"),
        ("interp", [f8(0), xp4, V("f8", [1.0, 2.0])], "ValueError"),
        # refused as Numba refuses them
        ("interp", [c16(5), xp, fp], "TypingError", "10:22"),
        ("interp", [S("1+2j"), xp, fp], "TypingError", "10:22"),
        ("interp", [f8(5), c16(13), fp], "TypingError", "10:25"),
        ("interp_left", [f8(5), xp, fp], "TypingError", "50:33"),
        ("interp_period", [f8(5), xp, fp], "TypingError", "55:33"),
        ("interp_2d_table", [f8(5), f8(2, 3), f8(2, 3)], "TypingError",
         "60:25"),
        ("interp", [f8(5), S("1.0"), fp], "TypingError", "10:25"),
    ]


def digitize_cases():
    inc = V("f8", [-3.0, -1.0, 0.0, 0.0, 2.5, 4.0, 7.0, 7.0, 9.0])
    dec = V("f8", [9.0, 7.0, 7.0, 4.0, 2.5, 0.0, 0.0, -1.0, -3.0])
    xs = V("f8", [nan, -inf, inf, -0.0, 0.0, -3.0, 7.0, 9.0, 2.5, 1.0,
                  nan, 10.0, -5.0, 4.0])
    ib = V("i8", [-5, 0, 0, 3, 8, 100])
    return [
        ("digitize", [f8(50, lo=-5, hi=11), inc]),
        ("digitize", [f8(50, lo=-5, hi=11), dec]),
        ("digitize_right", [f8(50, lo=-5, hi=11), inc, S("true")]),
        ("digitize_right", [f8(50, lo=-5, hi=11), dec, S("1")]),
        ("digitize_right", [xs, inc, S("false")]),
        ("digitize_right", [xs, dec, S("true")]),
        ("digitize", [xs, inc]), ("digitize", [xs, dec]),
        # NaN among the bins: Numba's monotonicity check and search
        ("digitize", [xs, V("f8", [1.0, nan, 3.0])]),
        ("digitize", [xs, V("f8", [nan, 1.0, 3.0])], "ValueError"),
        ("digitize_right", [xs, V("f8", [0.0, 2.0, nan]), S("true")]),
        # equal bins, one bin, none; x of any dimensions, views, empty
        ("digitize", [xs, V("f8", [2.0, 2.0, 2.0])]),
        ("digitize", [xs, V("f8", [2.0])]), ("digitize", [xs, f8(0)]),
        ("digitize", [f8(6, 7, lo=-5, hi=11).F, inc]),
        ("digitize", [f8(8, 9, lo=-5, hi=11).view("::-2, 1::3"), dec]),
        ("digitize", [f8(0), inc]), ("digitize", [f8(2, 0), inc]),
        ("digitize", [f8(40, lo=-5, hi=11), inc.view("::2")]),
        # dtypes: integers compare as integers, uint64 with uint64
        ("digitize", [i8(60, lo=-10, hi=110), ib]),
        ("digitize_right", [i4(60, lo=-10, hi=110), ib, S("true")]),
        ("digitize", [V("u8", [0, 2**63, 2**64 - 1, 5, 2**63 + 1]),
                      V("u8", [1, 2**63, 2**63 + 1, 2**64 - 2])]),
        ("digitize", [V("u8", [0, 5, 2**63]), V("i8", [-1, 3, 9])]),
        ("digitize", [f4(30, lo=-5, hi=11), V("f4", [0.1, 0.2, 3.3])]),
        ("digitize", [b1(9), V("f8", [0.0, 0.5, 1.0])]),
        ("digitize", [f8(30, lo=-10, hi=110), ib]),
        ("digitize", [i8(30, lo=-5, hi=11), inc]),
        # numbers, tuples, keywords, loops
        ("digitize", [S("2.5"), inc]), ("digitize", [S("7"), ib]),
        ("digitize", [S("true"), V("f8", [0.5, 1.0, 3.0])]),
        ("digitize", [S("nan"), inc]),
        ("digitize_right", [S("2.5"), dec, S("true")]),
        ("digitize_kw", [f8(20, lo=-5, hi=11), inc]),
        ("digitize_points", [f8(20, lo=-5, hi=11), dec]),
        # Numba's ValueError; refusals
        ("digitize", [f8(5), V("f8", [1.0, 3.0, 2.0])], "ValueError"),
        ("digitize", [S("1.0"), V("i8", [3, 1, 2, 0])], "ValueError"),
        ("digitize", [c16(5), inc], "TypingError", "65:24"),
        ("digitize", [f8(5), f8(2, 3)], "TypingError", "65:27"),
        # Numba: AttributeError while typing
        ("digitize", [f8(5), S("1.0")], "refused", "65:27"),
    ]


def bincount_cases():
    return [
        ("bincount", [i8(40, lo=0, hi=12)]), ("bincount", [i4(7, lo=0,
                                                              hi=3)]),
        ("bincount", [V("u1", [255, 0, 3, 3])]), ("bincount", [i8(0)]),
        ("bincount", [i8(30, lo=0, hi=9).view("::-3")]),
        ("bincount", [V("i2", [0, 0, 0])]),
        # Numba does not check a[0]: -1 counts at the end
        ("bincount", [V("i8", [-1, 4, 2])]),
        ("bincount", [V("i8", [2, -1])], "ValueError"),
        ("bincount_w", [i8(40, lo=0, hi=12), f8(40)]),
        ("bincount_w", [i8(40, lo=0, hi=12), i4(40)]),
        ("bincount_w", [V("i8", [1, 1, 3]), V("f4", [0.1, 0.2, 0.3])]),
        ("bincount_w", [V("i8", [1, 1, 3]), V("f8", [inf, -inf, nan])]),
        ("bincount_w", [i8(5, lo=0, hi=3), f8(4)], "ValueError"),
        ("bincount_min", [i8(10, lo=0, hi=5), S("12")]),
        ("bincount_min", [i8(10, lo=0, hi=5), S("2")]),
        ("bincount_min", [i8(0), S("3")]),
        ("bincount_min", [i8(10, lo=0, hi=5), S("-1")], "ValueError"),
        # Numba writes out of bounds there (a[0] = -1, no bin): not run
        ("bincount_min", [V("i8", [-1]), S("0")], "ValueError-ufjit"),
        ("bincount_all", [i8(30, lo=0, hi=7), f8(30), S("9")]),
        ("bincount", [f8(5)], "TypingError", "90:24"),
        ("bincount", [b1(5)], "TypingError", "90:24"),
        ("bincount", [V("u8", [1, 2])], "TypingError", "90:24"),
        ("bincount", [i8(2, 3, lo=0, hi=4)], "TypingError", "90:24"),
        ("bincount_w", [i8(3, lo=0, hi=4), c16(3)], "TypingError",
         "95:27"),
        ("bincount_min", [i8(3, lo=0, hi=4), S("2.0")], "TypingError",
         "100:37"),
    ]


def cases():
    """(kernel, inputs[, raises[, "LINE:COL"]]): raises is Numba's
    exception, "refused" or "refused-here" (oracle_util.check_cases says
    which; ufjit refuses at LINE:COL), or "ValueError-ufjit" where
    Numba's result is undefined (not run) and ufjit raises ValueError."""
    return interp_cases() + digitize_cases() + bincount_cases()


CUDA_SRC = '''import numpy as np
from numba import cuda, guvectorize


@guvectorize(['void(float64[:], float64[:], float64[:], float64[:])'],
             '(n),(m),(m)->(n)', target='cuda')
def gu_interp(x, xp, fp, out):
    out[:] = np.interp(x, xp, fp)
'''


def cuda_cases(ufjit, tmp):
    """On cudasim: a CUDA gufunc refuses the host runtime's np.interp at
    the call's FILE:LINE:COL."""
    src = os.path.join(tmp, "cuda_npnum.py")
    with open(src, "w") as f:
        f.write(CUDA_SRC)
    x, o = os.path.join(tmp, "x.npy"), os.path.join(tmp, "o.npy")
    np.save(x, np.arange(12.0))
    env = dict(os.environ, UFJIT_ENABLE_CUDASIM="1")
    argv = [ufjit, "call", src, "gu_interp", x, x, x, "-o", o, "--target",
            "cudasim"]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                       env=env)
    if p.returncode == 0 or f"{src}:8:14:" not in p.stderr or \
            "CUDA kernels cannot" not in p.stderr:
        return [f"cudasim gu_interp not refused at 8:14: exit "
                f"{p.returncode} {p.stderr.strip()}"]
    return []


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind not in "fc":
        return got.tobytes() == want.tobytes()
    part = np.dtype(f"f{got.dtype.itemsize // 2}") \
        if got.dtype.kind == "c" else got.dtype
    g = np.ascontiguousarray(got).reshape(-1).view(part)
    w = np.ascontiguousarray(want).reshape(-1).view(part)
    both = np.isnan(g) & np.isnan(w)
    bits = np.uint32 if g.dtype.itemsize == 4 else np.uint64
    return bool(np.all(both | (g.view(bits) == w.view(bits))))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77

    def cudasim(tmp):
        return cuda_cases(opt.ufjit, tmp) if opt.filter in "cudasim" \
            else None
    return check_cases(opt, FILE, cases(), "np.interp/digitize/bincount", same,
                       cudasim)


if __name__ == "__main__":
    sys.exit(main())
