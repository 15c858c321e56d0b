#!/usr/bin/env python3
"""numpy.polynomial.polyutils.as_series inside kernels
(tests/kernels/host/npseries.py) against Numba: every case runs through
`ufjit call` and through Numba on the same inputs; results are compared
for dtype, shape and bits, and where Numba raises, ufjit must fail with
the same exception: a TypingError at the FILE:LINE:COL the case names, a
run-time exception by its name.

    run_npseries_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c8, c16, f4, f8, i4, i8, u8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npseries.py")


def cases():
    """(kernel, inputs[, raises[, "LINE:COL"]])."""
    z = V("f8", [1.0, 0.0, 2.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0], (3, 3))
    return [
        # 1-D: one array per element; 2-D: one per row, trimmed or not
        ("series", [f8(5)]), ("series", [V("f8", [0.0, 1.0, -0.0])]),
        ("series", [i4(4)]), ("series", [b1(3)]), ("series", [c8(3)]),
        ("series", [z]), ("series", [z.F]), ("series", [z.view("::-1, ::2")]),
        ("series", [i8(3, 4, lo=-1, hi=2)]), ("series", [u8(2, 3, lo=0,
                                                          hi=2)]),
        ("series", [f4(2, 5, lo=-1, hi=2)]), ("series", [c16(3, 2)]),
        ("series", [V("c16", [0, 1j, 0, 0, 0, 0], (2, 3))]),
        ("series", [V("f8", [np.nan, 0.0, 0.0, 0.0], (2, 2))]),
        ("series_trim", [z, S("false")]), ("series_trim", [z, S("true")]),
        ("series_trim", [f8(4), S("false")]),
        ("series_kw", [z.view("::2"), S("false")]),
        # tuples of arrays and numbers, promoted as Numba's
        ("series_tuple", [f8(3), i4(2)]), ("series_tuple", [i8(4), S("5")]),
        ("series_tuple", [V("f8", [1.0, 0.0, 0.0]), S("1j")]),
        ("series_tuple", [f8(4).view("::-1"), b1(3)]),
        ("series_tuple1", [V("i8", [3, 0, 0])]),
        # errors at run time: an empty array, none at all
        ("series", [f8(2, 0)], "ValueError"),
        ("series", [f8(0)], "StopIteration"),
        ("series", [f8(0, 3)], "StopIteration"),
        ("series_tuple", [f8(0), f8(2)], "ValueError"),
        # refused as Numba refuses them
        ("series_3d", [f8(4)], "TypingError", "51:25"),
        ("series_int_trim", [f8(2, 2)], "TypingError", "56:28"),
        ("series_number", [S("1.5")], "TypingError", "61:25"),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    g, w = got.reshape(-1), want.reshape(-1)
    if got.dtype.kind == "c":
        g, w = g.view(g.real.dtype), w.view(w.real.dtype)
    both = np.isnan(g) & np.isnan(w)
    return bool(np.all(both | (g.view(f"u{g.itemsize}") ==
                               w.view(f"u{w.itemsize}"))))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "polyutils.as_series", same)


if __name__ == "__main__":
    sys.exit(main())
