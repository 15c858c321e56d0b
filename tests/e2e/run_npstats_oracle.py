#!/usr/bin/env python3
"""np.histogram, np.cov and np.corrcoef inside kernels
(tests/kernels/host/npstats.py) against Numba:
every case runs through `ufjit call` and through Numba on the same inputs;
results are compared for dtype, shape and bits (NaNs of either sign equal;
the sign of a zero counts), and where Numba raises, ufjit must fail with
the same exception: a TypingError at the FILE:LINE:COL the case names, a
run-time exception by its name.

    run_npstats_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import sys

sys.dont_write_bytecode = True

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import S, V, b1, c16, f4, f8, i1, i4, i8  # noqa: E402,E501
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npstats.py")

nan, inf = np.nan, np.inf


def histogram_cases():
    xs = V("f8", [nan, -inf, inf, -0.0, 0.0, -3.0, 7.0, 9.0, 2.5, 1.0,
                  nan, 10.0, -5.0, 4.0])
    edges = V("f8", [-3.0, -1.0, 0.0, 0.0, 2.5, 4.0, 7.0, 7.0, 9.0])
    return [
        # equal bins, the range from the data: sizes, dtypes, N-d, views
        ("hist", [f8(1000)]), ("hist", [f8(7)]), ("hist", [f8(1)]),
        ("hist", [f8(6, 7)]), ("hist", [f8(4, 5, 3).F]),
        ("hist", [f8(9, 8).view("::-1, 1::3")]),
        ("hist", [i8(100, lo=-50, hi=50)]), ("hist", [i4(33)]),
        ("hist", [f4(50)]), ("hist", [b1(20)]), ("hist", [i1(20)]),
        ("hist", [V("u8", [0, 2**63, 2**64 - 1, 5])]),
        ("hist", [S("2.5")]), ("hist", [S("7")]),
        # Numba fails to lower np.nditer of a bool number (TypeError)
        ("hist", [S("true")], "refused", "10:25"),
        ("hist", [V("f8", [3.0, 3.0, 3.0])]),
        # NaN skipped by the range, infinities as Numba's arithmetic
        ("hist", [V("f8", [1.0, nan])]), ("hist", [V("f8", [1.0, inf])]),
        ("hist", [V("f8", [inf, -inf, 1.0])]), ("hist", [xs]),
        ("hist", [V("f8", [1e300, -1e300, 0.0])]),
        ("hist", [f8(200, special=True)]),
        # empty and all-NaN: Numba's ValueError on the range (inf, -inf)
        ("hist", [f8(0)], "ValueError"), ("hist", [f8(3, 0)], "ValueError"),
        ("hist", [V("f8", [nan, nan])], "ValueError"),
        # a number of bins
        ("hist_bins", [f8(500), S("1")]), ("hist_bins", [f8(500), S("37")]),
        ("hist_bins", [f8(500), S("int32:3")]),
        ("hist_bins", [i8(40, lo=0, hi=7), S("7")]),
        ("hist_bins", [f8(5), S("0")], "ValueError"),
        ("hist_bins", [f8(5), S("-2")], "ValueError"),
        ("hist_bins", [f8(0), S("0")], "ValueError"),
        # a range: values outside, the max in the last bin, NaN, equal ends
        ("hist_range", [f8(300, lo=-2, hi=12), S("10"), S("0.0"),
                        S("10.0")]),
        ("hist_range", [xs, S("4"), S("-3.0"), S("9.0")]),
        ("hist_range", [xs, S("3"), S("0.0"), S("inf")]),
        ("hist_range", [xs, S("3"), S("-inf"), S("inf")]),
        ("hist_range", [f8(20), S("3"), S("2.0"), S("2.0")]),
        ("hist_range", [f8(20), S("3"), S("-1e300"), S("1e300")]),
        ("hist_range", [i8(60, lo=-10, hi=20), S("5"), S("0"), S("10")]),
        ("hist_range", [i4(60, lo=-10, hi=20), S("4"), S("-3"), S("7")]),
        ("hist_range", [b1(20), S("3"), S("0"), S("1")]),
        ("hist_range", [f4(40, lo=-1, hi=4), S("6"), S("0.1"), S("3.3")]),
        ("hist_range", [i8(40, lo=-1, hi=4), S("6"), S("0.5"), S("3")]),
        ("hist_range", [f8(40, lo=-1, hi=4), S("6"), S("0"), S("3.5")]),
        ("hist_range", [f8(0), S("4"), S("0.0"), S("1.0")]),
        ("hist_range", [f8(10, 0), S("4"), S("0.0"), S("1.0")]),
        ("hist_range", [f8(5), S("3"), S("5.0"), S("0.0")], "ValueError"),
        ("hist_range", [f8(5), S("3"), S("nan"), S("1.0")], "ValueError"),
        ("hist_range", [f8(5), S("0"), S("0.0"), S("1.0")], "ValueError"),
        ("hist_f32_range", [f4(30, lo=-1, hi=4)]),
        ("hist_f32_range", [V("f4", [0.1, 3.0, 1.0666667, 2.0333333])]),
        # edges: bisection, equal edges (the last of them), NaN, dtypes
        ("hist_bins", [f8(300, lo=-6, hi=11), edges]),
        ("hist_bins", [xs, edges]),
        ("hist_bins", [f8(50, lo=-1, hi=4), edges.view("::2")]),
        ("hist_bins", [f8(50, lo=-1, hi=4), V("f8", [3.0, 2.0, 1.0, 0.0]
                                               ).view("::-1")]),
        ("hist_bins", [i8(60, lo=-5, hi=8), V("i8", [0, 2, 5])]),
        ("hist_bins", [V("u8", [0, 2**63, 2**64 - 1, 5]),
                       V("u8", [0, 2**63, 2**64 - 1])]),
        ("hist_bins", [f4(30, lo=0, hi=2), V("f4", [0.1, 0.7, 1.3])]),
        ("hist_bins", [f8(30, lo=0, hi=2), V("i4", [0, 1, 1, 2])]),
        ("hist_bins", [S("2.5"), edges]),
        ("hist_bins", [f8(4, 5, lo=-4, hi=9).F, edges]),
        ("hist_bins", [f8(0), edges]),
        ("hist_bins", [f8(10), V("f8", [1.0])]),
        ("hist_bins", [f8(10), V("f8", [1.0, 1.0])]),
        ("hist_bins", [f8(10), V("f8", [])], "ValueError"),
        ("hist_bins", [f8(10), V("f8", [0.0, 2.0, 1.0])], "ValueError"),
        ("hist_bins", [f8(10), V("f8", [0.0, nan, 1.0])], "ValueError"),
        ("hist_bins", [f8(10), V("i8", [3, 1])], "ValueError"),
        # keywords, None, a loop over rows
        ("hist_kw", [f8(40, lo=-2, hi=3)]),
        ("hist_none", [f8(40), S("6")]),
        ("hist_loop", [f8(7, 30, lo=-0.5, hi=1.5)]),
        # refused as Numba refuses them; refused where Numba runs them
        ("hist_complex", [c16(5)], "TypingError", "52:25"),
        ("hist_float_bins", [f8(5)], "TypingError", "57:28"),
        ("hist_bins", [f8(5), S("true")], "TypingError", "15:28"),
        ("hist_bins", [f8(5), S("2.0")], "TypingError", "15:28"),
        ("hist_tuple_bins", [f8(5)], "refused-here", "62:28"),
        ("hist_range_array", [f8(5)], "refused-here", "67:31"),
        ("hist_bins", [f8(5), f8(2, 3)], "TypingError-ufjit", "15:28"),
    ]


def cov_cases():
    x = V("f8", [1.0, 2.0, 4.0, 7.0])
    m2 = f8(3, 6, lo=-4, hi=4)
    cx = c16(7)
    return [
        # one variable: a 0-d array (np.cov), a number (np.corrcoef)
        ("cov", [x]), ("cov", [f8(50)]), ("cov", [f4(9)]), ("cov", [i8(9)]),
        ("cov", [b1(9)]), ("cov", [cx]), ("cov", [V("c8", [1 + 2j, 3j, 2])]),
        ("cov", [f8(0)]), ("cov", [c16(0)]), ("cov", [V("f8", [5.0])]),
        ("cov", [f8(20).view("::-3")]), ("cov", [V("f8", [1.0, nan, 2.0])]),
        ("cov", [V("f8", [1.0, inf, 2.0])]),
        # variables in rows; views, F order, empty, 0-d
        ("cov", [m2]), ("cov", [m2.F]), ("cov", [f8(6, 8).view("::-2, 1::2")]),
        ("cov", [c16(3, 5)]), ("cov", [i4(4, 7, lo=-9, hi=9)]),
        ("cov", [f8(0, 3)]), ("cov", [f8(3, 0)]), ("cov", [S("2.5")],
                                                     "refused-here", "72:19"),
        ("cov", [f8(1, 5)], "RuntimeError"),
        # y, rowvar, bias, ddof (Numba's floor at 0: inf)
        ("cov_y", [x, x.view("::-1"), S("true")]),
        ("cov_y", [f8(4, 3), f8(4, 2), S("false")]),
        ("cov_y", [f8(2, 4), f8(1, 4), S("1")]),
        ("cov_y", [f8(6), f8(4, 6), S("true")]),
        ("cov_y", [f8(6), c16(6), S("false")]),
        ("cov_y", [f8(4), f8(3), S("true")], "ValueError"),
        ("cov_y", [f8(3, 4), f8(3, 5), S("true")], "ValueError"),
        ("cov_ddof", [x, S("2")]), ("cov_ddof", [x, S("10")]),
        ("cov_ddof", [x, S("true")]), ("cov_ddof", [m2, S("0")]),
        ("cov_ddof", [m2, S("2.0")]), ("cov_ddof", [m2, S("-1.0")]),
        ("cov_ddof", [m2, S("2.5")], "ValueError"),
        ("cov_ddof", [m2, S("inf")], "ValueError"),
        ("cov_ddof", [x, S("2.0")], "TypingError", "82:27"),
        ("cov_bias", [x, S("true")]), ("cov_bias", [m2, S("false")]),
        ("cov_bias", [m2, S("1")]),
        ("cov_all", [f8(5, 2), f8(5, 3)]),
        # np.corrcoef: clipped to [-1, 1]; constant rows give NaN
        ("corrcoef", [x]), ("corrcoef", [f8(40)]), ("corrcoef", [cx]),
        ("corrcoef", [f8(0)]), ("corrcoef", [V("f8", [2.0, 2.0])]),
        ("corrcoef", [m2]), ("corrcoef", [f8(5, 30)]),
        ("corrcoef", [V("f8", [1.0, 2, 3, 4, 4, 4], shape=(2, 3))]),
        ("corrcoef", [c16(3, 6)]), ("corrcoef", [f8(3, 0)]),
        ("corrcoef", [V("f8", [1.0, 2.0, 3.0, 2.0, 4.0, 6.0], shape=(2, 3))]),
        ("corrcoef_y", [x, x.view("::-1"), S("true")]),
        ("corrcoef_y", [f8(6, 2), f8(6, 3), S("false")]),
        ("corrcoef_y", [f8(4), f8(3), S("true")], "ValueError"),
        # refused
        ("cov_3d", [f8(2, 3, 4)], "TypingError", "107:19"),
        ("cov_tuple", [f8(3)], "refused-here", "112:19"),
        ("cov_ddof_str", [f8(3, 3)], "TypingError", "117:27"),
    ]


def cases():
    """(kernel, inputs[, raises[, "LINE:COL"]]): raises is Numba's
    exception, "refused" (Numba fails) or "refused-here" (Numba compiles
    it) where ufjit refuses at LINE:COL, or "TypingError-ufjit" where
    Numba fails at run time only and ufjit refuses at compile time
    (oracle_util.check_cases)."""
    return histogram_cases() + cov_cases()


def close(got, want):
    """np.cov / np.corrcoef: Numba sums the products in BLAS, ufjit in
    order: dtype, shape, NaN and infinities exact, the rest within 1e-12
    of the largest magnitude."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    g, w = got.reshape(-1), want.reshape(-1)
    parts = [(g.real, w.real), (g.imag, w.imag)] if g.dtype.kind == "c" \
        else [(g, w)]
    for a, b in parts:
        if not np.array_equal(np.isnan(a), np.isnan(b)):
            return False
        fin = np.isfinite(b)
        if not np.array_equal(a[~fin & ~np.isnan(b)],
                              b[~fin & ~np.isnan(b)]):
            return False
        scale = max(np.abs(b[fin]).max(initial=0.0), 1e-300)
        if np.any(np.abs(a[fin] - b[fin]) > 1e-12 * scale):
            return False
    return True


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


class TypingError(Exception):
    """A case Numba does not run."""


def agree(got, want, kernel):
    return close(got, want) if kernel.startswith("co") else same(got, want)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "np.histogram/cov/corrcoef",
                       agree)


if __name__ == "__main__":
    sys.exit(main())
