#!/usr/bin/env python3
"""np.eye, np.identity, np.diag, np.diagflat, np.trace, np.fill_diagonal,
np.tril, np.triu, np.tril_indices, np.triu_indices (and their _from
forms), np.outer, np.kron and np.vander inside kernels
(tests/kernels/host/npmatrix.py) against Numba: each case runs through
`ufjit call` and through Numba on the same inputs; results are compared
for dtype and shape and exactly (these functions move numbers, or multiply
or add them once each in Numba's order), NaN equal to NaN; where Numba
raises, ufjit fails with the same exception, and what Numba refuses while
compiling ufjit refuses at the kernel's FILE:LINE:COL.

    run_npmatrix_oracle.py UFJIT [-k TEXT] [-v]
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

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npmatrix.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "refused": Numba's TypeError or AttributeError while typing, or a
    run-time raise, where ufjit refuses compiling)."""
    sq = f8(4, 4, special=True)
    return [
        # eye / identity: shapes, k past either edge, dtypes, errors
        ("tri", [S("3")], None), ("tri", [S("0")], None),
        ("tri", [S("-2")], None), ("tri", [S("int16:4")], None),
        ("tri_nmk", [S("3"), S("5"), S("2")], None),
        ("tri_nmk", [S("4"), S("2"), S("-1")], None),
        ("tri_nmk", [S("3"), S("2"), S("7")], None),
        ("tri_nmk", [S("3"), S("4"), S("-9")], None),
        ("tri_nmk", [S("5"), S("-1"), S("0")], None),
        ("tri_kw", [S("4"), S("1")], None),
        ("tri_float_k", [S("3")], "TypingError"),
        ("eye", [S("3")], None), ("eye", [S("0")], None),
        ("eye", [S("int8:2")], None), ("eye", [S("-1")], "ValueError"),
        ("eye_nmk", [S("3"), S("5"), S("2")], None),
        ("eye_nmk", [S("4"), S("2"), S("-1")], None),
        ("eye_nmk", [S("3"), S("2"), S("7")], None),
        ("eye_nmk", [S("3"), S("2"), S("-9")], None),
        ("eye_nmk", [S("2"), S("0"), S("0")], None),
        ("eye_nmk", [S("2"), S("-3"), S("0")], "ValueError"),
        ("eye_dtype", [S("4"), S("1")], None),
        ("eye_dtype", [S("4"), S("-3")], None),
        ("eye_none", [S("3")], None),
        ("eye_like", [u2(2), S("4")], None),
        ("eye_like", [b1(2), S("2")], None),
        ("eye_bool_k", [S("3")], None),
        ("eye_pyfloat", [S("2")], "refused"),
        ("eye_float_n", [S("2.0")], "TypingError"),
        ("identity", [S("4")], None), ("identity", [S("0")], None),
        ("identity", [S("-2")], "ValueError"),
        ("identity_dtype", [S("3")], None), ("identity_str", [S("3")], None),
        ("identity_pyint", [S("2")], None),
        # diag: 1-D into a square, 2-D's diagonal out, views, k past edges
        ("diag", [f8(4)], None), ("diag", [c8(3)], None),
        ("diag", [b1(5)], None), ("diag", [f8(0)], None),
        ("diag", [f8(3, 4)], None), ("diag", [i2(4, 3).F], None),
        ("diag", [f8(0, 3)], None),
        ("diag_k", [f8(3), S("2")], None), ("diag_k", [i8(3), S("-2")], None),
        ("diag_k", [f8(3, 5), S("1")], None),
        ("diag_k", [f8(3, 5), S("-2")], None),
        ("diag_k", [f8(3, 5), S("5")], None),
        ("diag_k", [f8(3, 5), S("-3")], None),
        ("diag_k", [f8(3, 5), S("true")], None),
        ("diag_k", [f8(6).view("::-2"), S("1")], None),
        ("diag_kw", [u8(4, 4), S("-1")], None),
        ("diag_view", [f8(4, 6), S("1")], None),
        ("diag_view", [f8(4, 6), S("-1")], None),
        ("diag_k", [f8(2, 2, 2), S("0")], "TypingError"),
        ("diag_k", [S("2.5"), S("0")], "TypingError"),
        ("diag_float_k", [f8(3, 3)], "TypingError"),
        # diagflat: N-d and views flattened in C order, numbers
        ("diagflat", [f8(2, 3), S("1")], None),
        ("diagflat", [f8(2, 3).F, S("-2")], None),
        ("diagflat", [i4(2, 2, 2).view("::-1, :, ::2"), S("0")], None),
        ("diagflat", [S("2.5"), S("-1")], None),
        ("diagflat", [f8(0), S("2")], None),
        ("diagflat1", [c16(3)], None),
        ("diagflat_bool_k", [f8(2)], "TypingError"),
        # trace: float64 / complex128, offsets, views
        ("trace", [sq], None), ("trace", [f4(3, 5)], None),
        ("trace", [c8(3, 3)], None), ("trace", [f8(0, 3)], None),
        ("trace_k", [f8(4, 6), S("2")], None),
        ("trace_k", [f8(4, 6), S("-3")], None),
        ("trace_k", [f8(4, 6), S("9")], None),
        ("trace_k", [c16(3, 3).F, S("-1")], None),
        ("trace_view", [f8(5, 4), S("1")], None),
        ("trace", [i8(3, 3)], "TypingError"),
        ("trace", [f8(2, 2, 2)], "TypingError"),
        ("trace_k", [f8(3, 3), S("true")], "TypingError"),
        # fill_diagonal: numbers and arrays cycled, wrap, N-d, checks
        ("fill", [f8(4, 4), S("7.5")], None),
        ("fill", [f8(5, 3), V("f8", [1.0, 2.0])], None),
        ("fill", [i4(3, 5), S("-4")], None),
        ("fill", [i1(3, 3), S("300")], "ValueError"),
        ("fill", [i1(3, 3), S("-129")], "ValueError"),
        ("fill", [i1(3, 3), S("nan")], "ValueError"),
        ("fill", [i1(3, 3), S("127.0")], None),
        ("fill", [f4(3, 3), S("nan")], None),
        ("fill", [f4(3, 3), S("inf")], None),
        ("fill", [f4(3, 3), S("1e300")], "ValueError"),
        ("fill", [u8(2, 2, lo=0, hi=9), S("-1")], "ValueError"),
        ("fill", [u8(2, 2, lo=0, hi=9),
                  V("u8", [2**64 - 1])], None),
        ("fill", [u1(3, 3, lo=0, hi=9), V("f8", [1.0, np.inf])],
         "ValueError"),
        ("fill", [i2(3, 3), S("true")], None),
        ("fill", [b1(3, 3), S("2.5")], None),
        ("fill", [c16(3, 3), S("3")], None),
        ("fill", [f8(4, 4), f8(2, 2)], None),
        ("fill", [f8(3, 3, 3), S("1")], None),
        ("fill", [f8(2, 2, 3), S("1")], "ValueError"),
        ("fill", [f8(3, 3), V("f8", [])], "ZeroDivisionError"),
        ("fill", [f8(0, 3), V("f8", [])], None),
        ("fill_wrap", [f8(7, 3), S("5")], None),
        ("fill_wrap", [f8(7, 3), V("i4", [1, 2])], None),
        ("fill_wrap", [f8(3, 7), S("5")], None),
        ("fill_view", [f8(6, 4), S("9")], None),
        ("fill", [f8(3), S("1")], "TypingError"),
        ("fill_complex", [c16(3, 3)], "TypingError"),
        # tril / triu: k, 1-D squares, N-d, F and views, empty
        ("tril", [f8(3, 4)], None), ("triu", [f8(4, 3)], None),
        ("tril", [i4(5)], None), ("triu", [b1(4)], None),
        ("tril_k", [f8(4, 4), S("-1")], None),
        ("tril_k", [f8(4, 4), S("9")], None),
        ("triu_k", [f8(4, 5), S("2")], None),
        ("triu_k", [f8(4, 5), S("-9")], None),
        ("tril_k", [c8(2, 3, 4), S("1")], None),
        ("triu_k", [f8(2, 3, 4).F, S("0")], None),
        ("triu_k", [f8(2, 2, 3, 3).F, S("-1")], None),
        ("tril", [f8(3, 4).F], None), ("tril", [f8(0, 3)], None),
        ("tril", [f8(0)], None),
        ("triu_view", [f8(2, 3, 4), S("1")], None),
        ("tril_k", [f8(3, 3), S("int8:-1")], None),
        ("tril_bool_k", [f8(3, 3)], "TypingError"),
        ("tril", [S("2.5")], "refused"),
        # outer: flattened operands, np.multiply's dtype, numbers
        ("outer", [f8(5), f8(4)], None),
        ("outer", [f8(2, 3), i1(2)], None),
        ("outer", [u1(3, lo=0, hi=200), i1(2)], None),
        ("outer", [b1(4), b1(3)], None),
        ("outer", [c8(2), f4(3)], None),
        ("outer", [f8(3, 2).F, f8(2, 2).view("::-1, ::-1")], None),
        ("outer", [S("2.5"), i8(3)], None),
        ("outer", [S("2"), S("3")], None),
        ("outer", [f8(0), f8(3)], None),
        ("outer", [f8(2, 2, 2), f8(2)], "TypingError"),
        # kron: 1-D/2-D shapes, a's dtype, numbers, C and F only
        ("kron", [f8(2, 3), f8(3)], None), ("kron", [f8(3), f8(2)], None),
        ("kron", [f8(2, 2), f8(3, 2).F], None),
        ("kron", [i4(3), f4(2)], None), ("kron", [b1(3), b1(2)], None),
        ("kron", [S("2.5"), f8(3)], None), ("kron", [f8(2, 2), S("3")], None),
        ("kron", [S("2"), S("3")], None), ("kron", [f8(0), f8(3)], None),
        ("kron", [c16(2), f8(2, 2)], None),
        ("kron_view", [f8(2, 4), f8(2)], "TypingError"),
        ("kron", [f8(2, 2, 2), f8(2)], "TypingError"),
        # vander: powers by repeated multiplication, promoted dtypes
        ("vander", [f8(4)], None), ("vander", [i1(4, lo=-9, hi=9)], None),
        ("vander", [f4(3)], None), ("vander", [b1(3)], None),
        ("vander", [u8(3, lo=0, hi=99)], None), ("vander", [c8(3)], None),
        ("vander", [f8(0)], None), ("vander", [f8(8).view("::-2")], None),
        ("vander_n", [f8(3), S("5")], None), ("vander_n", [f8(3), S("0")], None),
        ("vander_n", [i8(3, lo=-99, hi=99), S("30")], None),
        ("vander_n", [f8(3), S("-1")], "ValueError"),
        ("vander_inc", [f8(3), S("4")], None),
        ("vander_inc", [i4(4), S("1")], None),
        ("vander", [f8(2, 3)], "ValueError"),
        ("vander", [S("2.0")], "TypingError"),
        ("vander_float_n", [f8(3)], "TypingError"),
        # tril_indices / triu_indices (and _from): int64 rows and columns
        ("tril_indices", [S("4"), S("0")], None),
        ("tril_indices", [S("4"), S("-2")], None),
        ("tril_indices", [S("3"), S("9")], None),
        ("tril_indices", [S("0"), S("0")], None),
        ("tril_indices", [S("-3"), S("0")], None),
        ("tril_indices_m", [S("3"), S("1"), S("5")], None),
        ("tril_indices_m", [S("5"), S("-1"), S("2")], None),
        ("tril_indices_m", [S("3"), S("0"), S("-2")], None),
        ("triu_indices", [S("4"), S("1"), S("4")], None),
        ("triu_indices", [S("3"), S("-1"), S("6")], None),
        ("triu_indices", [S("5"), S("9"), S("3")], None),
        ("triu_indices1", [S("4")], None),
        ("tril_indices_from", [f8(3, 5), S("1")], None),
        ("tril_indices_from", [b1(4, 2).F, S("0")], None),
        ("triu_indices_from", [i4(5, 3), S("-1")], None),
        ("triu_indices_from", [f8(6, 6).view("::2, ::-1"), S("2")], None),
        ("triu_indices_from0", [f8(0, 3)], None),
        ("triu_indices_from", [f8(2, 2, 2), S("0")], "TypingError"),
        ("triu_indices_from", [f8(4), S("0")], "TypingError"),
        ("tril_indices_bool_k", [S("3")], "TypingError"),
        ("tril_indices", [S("3.0"), S("0")], "TypingError"),
        ("in_loop", [S("5")], None),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return np.array_equal(got, want, equal_nan=got.dtype.kind in "fc")


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "npmatrix", same)


if __name__ == "__main__":
    sys.exit(main())
