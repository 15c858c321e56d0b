#!/usr/bin/env python3
"""np.nancumsum, np.nancumprod, np.diff and np.average inside kernels
(tests/kernels/host/npcum.py) against Numba: each case runs through
`ufjit call` and through Numba on the same inputs; results are compared
for dtype and shape, ints and bools exactly, floats within a few ulps (the
unweighted average is np.mean's sum, added in another order), NaN equal
to NaN; where Numba raises, ufjit fails with the same exception, and what
Numba refuses while compiling ufjit refuses at the kernel's FILE:LINE:COL.

    run_npcum_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c8, c16, f4, f8, i1, i2, i4, i8, u1, u2, u8  # noqa: E402,E501
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npcum.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "refused": raises at run time where ufjit refuses compiling)."""
    nan = V("f8", [1.0, np.nan, 2.5, -np.inf, np.nan, 0.5, np.inf, -1.0])
    cnan = V("c16", [1 + 1j, complex(np.nan, 1), complex(2, np.nan), 3 - 1j,
                     complex(np.nan, np.nan), 0.5j])
    return [
        # nancumsum / nancumprod: dtypes, layouts, NaN, empty, 0-d
        ("nancumsum", [nan], None), ("nancumprod", [nan], None),
        ("nancumsum", [f8(3, 4, special=True)], None),
        ("nancumsum", [f4(5, 6, special=True).view("::-1, ::2")], None),
        ("nancumprod", [f4(4, 3, lo=-2, hi=2, special=True).F], None),
        ("nancumsum", [cnan], None), ("nancumprod", [cnan], None),
        ("nancumsum", [c8(2, 3)], None),
        ("nancumsum", [i1(7, lo=-128, hi=128)], None),
        ("nancumsum", [u1(9, lo=0, hi=256)], None),
        ("nancumsum", [b1(6)], None), ("nancumprod", [b1(6)], None),
        ("nancumprod", [i4(6, lo=-3, hi=4)], None),
        ("nancumprod", [u2(3, 2).F], None),
        ("nancumsum", [i8(4, 5).view("::-2, 1:")], None),
        ("nancumsum", [f8(0)], None), ("nancumsum", [f4(0, 3)], None),
        ("nancumsum_0d", [S("float32:nan")], None),
        ("nancumsum_kw", [f8(5)], None),
        ("nancumsum_axis", [f8(2, 3)], "TypingError"),
        ("nancumsum_scalar", [S("2.5")], "TypingError"),
        # diff: orders, wrap, bools, N-d along the last axis, empty
        ("diff1", [f8(3, 4)], None), ("diff1", [f8(3, 4).F], None),
        ("diff1", [f4(2, 3, 5, special=True)], None),
        ("diff1", [i1(9, lo=-128, hi=128)], None),
        ("diff1", [u1(9, lo=0, hi=256)], None), ("diff1", [b1(9)], None),
        ("diff1", [c16(5)], None), ("diff1", [nan], None),
        ("diff1", [f8(0)], None), ("diff1", [f8(3, 0)], None),
        ("diff1", [f8(0, 3)], None), ("diff1", [i8(1)], None),
        ("diffn", [f8(3, 6), S("0")], None),
        ("diffn", [f8(3, 6), S("2")], None),
        ("diffn", [i2(4, 6, lo=-300, hi=300), S("3")], None),
        ("diffn", [f8(3, 6), S("5")], None),
        ("diffn", [f8(3, 6), S("6")], None),
        ("diffn", [f8(3, 6), S("9")], None),
        ("diffn", [b1(9), S("3")], None),
        ("diffn", [c8(2, 5).F, S("2")], None),
        ("diffn", [u8(7, lo=0, hi=50), S("int8:4")], None),
        ("diffn", [f8(0, 3), S("0")], None),
        ("diffn", [f8(4), S("true")], None),
        ("diffn", [f8(4), S("-1")], "ValueError"),
        ("diff_kw", [i4(6), S("2")], None),
        ("diff_in_loop", [f8(3, 6), S("4")], None),
        ("diff_0d", [S("2.5")], "TypingError"),
        ("diff_view", [f8(3, 4)], "TypingError"),
        ("diff_float_n", [f8(3, 4)], "TypingError"),
        ("diff_axis", [f8(3, 4)], "TypingError"),
        # average: np.mean's types; weights typed through np.multiply
        ("average", [i4(5)], None), ("average", [f4(6)], None),
        ("average", [c8(4)], None), ("average", [b1(5)], None),
        ("average", [f8(0)], None), ("average", [nan], None),
        ("average", [u8(3, 4, lo=0, hi=99).view("::-1, ::2")], None),
        ("average", [f8(3, 4).F], None),
        ("average_none", [f8(3, 4)], None),
        ("average_scalar", [S("3")], None),
        ("average_scalar", [S("float32:2.5")], None),
        ("average_scalar", [S("1+2j")], None),
        ("average_w", [f8(3, 4), f8(3, 4, lo=0, hi=1)], None),
        ("average_w", [f8(3, 4), f8(4, lo=0, hi=1)], None),
        ("average_w", [f8(3, 1), f8(4, lo=0, hi=1)], None),
        ("average_w", [f8(5).view("::-1"), f8(5, lo=0, hi=1)], None),
        ("average_w", [i4(5), f4(5, lo=0, hi=1)], None),
        ("average_w", [i1(6, lo=-128, hi=128), i1(6, lo=1, hi=100)], None),
        ("average_w", [u8(4, lo=0, hi=9), i4(4, lo=1, hi=9)], None),
        ("average_w", [b1(6), b1(6)], None),
        ("average_w", [c16(4), f8(4, lo=0, hi=1)], None),
        ("average_w", [c8(4), i4(4, lo=1, hi=5)], None),
        ("average_w", [f4(3, 4, special=True), f4(3, 4, lo=0, hi=1)], None),
        ("average_pos", [f8(4), f8(4, lo=0, hi=1)], None),
        ("average_w", [f8(3, 4), f8(3)], "ValueError"),
        ("average_w", [f8(3, 4), f8(4, 3)], "TypeError"),
        ("average_w", [f8(2, 3), f8(2, 3).view("::-1")], None),
        ("average_w", [f8(2), V("f8", [1.0, -1.0])], "ZeroDivisionError"),
        ("average_w", [i4(3), V("i4", [0, 0, 0])], "ZeroDivisionError"),
        ("average_w", [f8(0), f8(0)], "ZeroDivisionError"),
        ("average_axis", [f8(3, 4)], "refused"),
        ("average_returned", [f8(3)], "TypingError"),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind in "fc":
        tol = 1e-5 if got.dtype in (np.float32, np.complex64) else 1e-12
        return np.allclose(got, want, rtol=tol, atol=0, equal_nan=True)
    return np.array_equal(got, want)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "npcum", same)


if __name__ == "__main__":
    sys.exit(main())
