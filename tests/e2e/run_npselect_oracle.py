#!/usr/bin/env python3
"""np.median, np.nanmedian, np.percentile, np.nanpercentile, np.quantile
and np.nanquantile inside kernels (tests/kernels/host/npselect.py) against
Numba: every case runs through `ufjit call` and through Numba on the same
inputs; results are compared for dtype, shape and bits (NaNs of either
sign equal; the sign of a zero counts), and where Numba raises, ufjit must
fail with the same exception: a TypingError at the FILE:LINE:COL the case
names, a run-time exception by its name.

    run_npselect_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c16, f4, f8, i1, i4, i8, u1  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npselect.py")

nan, inf = np.nan, np.inf


def cases():
    """(kernel, inputs[, raises[, "LINE:COL"]]): raises is Numba's
    exception, "refused" or "refused-here" (oracle_util.check_cases says
    which is which; ufjit refuses the kernel at LINE:COL)."""
    sp = f8(41, special=True)  # NaN, infinities, zeros of both signs
    odd = f8(3, 5, 7)
    return [
        # every dtype, N-d, F, strided and reversed views
        ("all_stats", [f8(101)]), ("all_stats", [f4(10, 6)]),
        ("all_stats", [i8(50, lo=-1000, hi=1000)]), ("all_stats", [i1(40)]),
        ("all_stats", [u1(31, lo=0, hi=256)]), ("all_stats", [b1(12)]),
        ("all_stats", [odd.F]), ("all_stats", [odd.view("::-1, 1::2, ::3")]),
        ("all_stats", [f8(1)]), ("all_stats", [f8(2)]),
        ("all_stats", [i4(1000, lo=-3, hi=3)]),  # many duplicates
        ("all_stats", [V("f8", list(range(64)))]),  # sorted
        # NaN, infinities, signed zeros: Numba's selection decides
        ("all_stats", [sp]), ("all_stats", [f4(6, 7, special=True)]),
        ("med_rows", [V("f8", [1.0, nan, 3.0, nan, 1.0, 3.0, 1.0, 3.0, nan,
                               0.0, -0.0, 1.0, -0.0, 0.0, 1.0, nan, nan,
                               1.0, nan, nan, nan], (7, 3))]),
        ("med_rows", [V("f8", [5.0, nan, 1.0, 2.0, 4.0, 3.0, 0.0, 1.0, 2.0,
                               nan, 3.0, 0.0, 0.0, -0.0], (2, 7))]),
        ("med_rows", [f8(9, 8, special=True).view(":, ::-1")]),
        ("med_rows", [V("f4", [nan, 2.0, nan, 1.0, 3e38, 3e38, 0.1, 0.2],
                        (4, 2))]),
        # overflow of the two middle elements' sum, as Numba's types
        ("med_rows", [V("i8", [2**63 - 1, 2**63 - 1, -2**63, -1], (2, 2))]),
        ("med_rows", [V("u8", [2**64 - 1, 2**64 - 1, 1, 2], (2, 2))]),
        ("med_rows", [V("i1", [127, 127, -128, -128], (2, 2))]),
        # empty: NaN, or Numba's errors
        ("med_rows", [f8(3, 0)]), ("med", [f8(0)]), ("nanmed", [i4(0)]),
        ("pct", [f8(0), S("0")], "ValueError"),
        ("pct", [f8(0), S("100")], "ValueError"),
        ("pct", [f8(0), S("50")], "AssertionError"),
        ("nanpct", [f8(0), S("50")]), ("pct", [f8(0), f8(0)]),
        # q forms: numbers, bool, 0-d and N-d arrays of any dtype, tuples
        ("pct", [f8(17), S("true")]), ("pct", [f8(17), S("float32:33.3")]),
        ("pct", [f8(17), V("i8", [10, 20, 30, 40], (2, 2))]),
        ("pct", [i4(17), V("f4", [99.5, 0.5, 50.0])]),
        ("qtl", [f8(5, 4), V("f8", [0.3, 0.6, 0.9, 0.2], (2, 2)).F]),
        ("nanqtl", [sp, V("f8", [0.0, 0.25, 1.0])]),
        ("pct_tuple", [f8(23)]), ("pct_kw", [f8(11), S("40")]),
        ("pct_of_number", [S("3.5")]), ("stats_0d", [S("2.5")]),
        # Numba's rules for q = 0 and 100 among infinities, NaN rows
        ("pct_rows", [V("f8", [1.0, inf, -inf, 1.0, inf, inf, 1.0, nan],
                        (4, 2)), V("f8", [0, 50, 100, 25])]),
        ("pct_rows", [V("f8", [1.0, 2.0, inf, inf, inf, 1.0, -inf, -inf,
                               1.0, 1.0, -0.0, 0.0], (4, 3)),
                      V("f8", [0, 50, 100, 25])]),
        ("pct_rows", [V("f8", [inf, nan]), V("f8", [0, 50])]),
        # q out of range or NaN
        ("pct", [f8(5), S("100.5")], "ValueError"),
        ("nanpct", [f8(5), V("f8", [10, nan])], "ValueError"),
        ("nanqtl", [f8(0), V("f8", [0.5, -0.1])], "ValueError"),
        # inside loops and on array expressions; a gufunc's rows
        ("med_in_loop", [f8(6, 9)]), ("med_of_expr", [i4(4, 5)]),
        ("gu_median", [f8(7, 12)]),
        # refused as Numba refuses them
        ("med", [c16(5)], "TypingError", "11:22"),
        ("pct", [f8(5), S("1+2j")], "TypingError", "29:29"),
        ("med_axis", [f8(3, 4)], "TypingError", "106:25"),
        ("pct_axis", [f8(3, 4)], "TypingError", "111:33"),
        ("med_number", [S("2.5")], "TypingError", "121:22"),
        ("med_list", [f8(5)], "refused-here", "116:29"),
    ]


CUDA_SRC = '''import numpy as np
from numba import cuda, guvectorize


@guvectorize(['void(float64[:], float64[:])'], '(n)->()', target='cuda')
def gu_median(x, out):
    out[0] = np.median(x)


@cuda.jit
def k_percentile(x, out):
    out[0] = np.percentile(x, 50)
'''


def cuda_cases(ufjit, tmp):
    """On cudasim: a CUDA gufunc and a cuda.jit kernel refuse the host
    runtime's selection at the call's FILE:LINE:COL."""
    src = os.path.join(tmp, "cuda_npselect.py")
    with open(src, "w") as f:
        f.write(CUDA_SRC)
    x, o = os.path.join(tmp, "x.npy"), os.path.join(tmp, "o.npy")
    np.save(x, np.arange(12.0).reshape(3, 4))
    env = dict(os.environ, UFJIT_ENABLE_CUDASIM="1")
    probs = []
    for kernel, where in (("gu_median", "7:14"), ("k_percentile", "12:14")):
        argv = [ufjit, "call", src, kernel, x, "-o", o, "--target",
                "cudasim"]
        if kernel == "k_percentile":
            argv = [ufjit, "launch", src, kernel, "--grid", "1", "--block",
                    "1", x, x, "--target", "cudasim"]
        p = subprocess.run(argv, capture_output=True, text=True,
                           timeout=120, env=env)
        if p.returncode == 0 or f"{src}:{where}:" not in p.stderr or \
                "CUDA kernels cannot" not in p.stderr:
            probs.append(f"cudasim {kernel} not refused at {where}: exit "
                         f"{p.returncode} {p.stderr.strip()}")
    return probs


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind != "f":
        return got.tobytes() == want.tobytes()
    g, w = got.reshape(-1), want.reshape(-1)
    both = np.isnan(g) & np.isnan(w)
    return bool(np.all(both | ((g.view(np.uint64) == w.view(np.uint64)))))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77

    def cudasim(tmp):
        return cuda_cases(opt.ufjit, tmp) if opt.filter in "cudasim" \
            else None
    return check_cases(opt, FILE, cases(), "median/percentile/quantile", same,
                       cudasim)


if __name__ == "__main__":
    sys.exit(main())
