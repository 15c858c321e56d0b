#!/usr/bin/env python3
"""Loops over homogeneous tuples and np.split, np.array_split, np.hsplit,
np.vsplit, np.dsplit inside kernels (tests/kernels/host/npsplit.py)
against Numba: each case runs through `ufjit call` and through Numba on
the same inputs; dtype, shape and values must agree exactly. The kernels
return copies of the parts (Numba's list is not a kernel result), their
sizes, or the parent after a write through a part. Where Numba raises,
ufjit fails with the same exception; what Numba refuses compiling ufjit
refuses at the kernel's FILE:LINE:COL. ufjit's parts are a tuple whose
length is known at compile time: a run-time number of sections and an
array of indices, which Numba takes, are refused ("refused-here").

    run_npsplit_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c16, f4, f8, i4, i8, u1  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npsplit.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "TypingError" / "refused" ufjit refuses compiling,
    "refused-here" Numba runs it and ufjit refuses it)."""
    out = [
        ("tuple_ints", [S("7")], None), ("tuple_ints", [S("int32:-3")], "TypingError"),
        ("tuple_floats", [S("0.5")], None),
        ("tuple_floats", [S("nan")], None),
        ("tuple_floats", [S("float32:2.5")], "TypingError"),
        ("tuple_arrays", [f8(4), f8(0), f8(3)], None),
        ("tuple_arrays", [i4(2, 2), i4(0, 3), i4(3, 1)], None),
        ("tuple_arrays", [f8(4), f8(2), f8(3, 2)], "TypingError"),
        ("tuple_arrays", [f8(9).view("::-2"), f8(2), f8(2)], "TypingError"),
        ("tuple_write", [f8(3), f8(2)], None),
        ("tuple_arg", [f8(6)], None),
        ("tuple_built", [S("5")], None), ("tuple_built", [S("-4")], None),
        ("tuple_break_else", [S("4")], None),
        ("tuple_break_else", [S("9")], None),
        ("tuple_nested", [S("3")], None),
        ("tuple_alloc_in_loop", [f8(5)], None),
        ("tuple_mixed", [S("2.5")], "TypingError"),
        ("tuple_empty", [S("1")], "TypingError"),
    ]
    arrays = [f8(6), f8(9), f4(12), i8(0), i4(3), b1(6), c16(6),
              f8(12).view("::-2"), f8(12).view("1::2"), u1(6, lo=0, hi=9)]
    for a in arrays:
        out += [("split3", [a], None), ("split1", [a], None),
                ("split0", [a], "ZeroDivisionError"),
                ("split_neg", [a], None), ("split_neg3", [a], None),
                ("array_split3", [a], None), ("array_split5_sizes", [a], None),
                ("array_split_neg", [a], None),
                ("array_split0", [a], "ZeroDivisionError"),
                ("split_idx", [a], None), ("split_idx_unsorted", [a], None),
                ("split_idx_far", [a], None),
                ("split_idx_mixed", [a], None),
                ("split_write", [a], None), ("split_len", [a], None)]
    out += [
        ("split3", [f8(7)], "ValueError"), ("split3", [f8(8)], "ValueError"),
        ("split_neg3", [f8(7)], "ValueError"),
        ("split_sum_parts", [f8(10)], None),
        ("split_sum_parts", [f8(3)], None),
        ("split_sum_parts", [f8(11, special=True)], None),
    ]
    nd = [f8(4, 6), f8(4, 6).F, f8(2, 4, 6), f8(6, 4, 4).view("::-1, :, ::2"),
          i4(4, 0, 2), f8(0, 6)]
    for a in nd:
        for ax in ("0", "1", "-1", "-2"):
            out += [("split_axis", [a, S(ax)], None),
                    ("array_split_axis", [a, S(ax)], None),
                    ("split_idx_axis", [a, S(ax)], None)]
        out += [("split_axis", [a, S("3")], "IndexError"),
                ("split_axis", [a, S("-4")], "IndexError"),
                ("split_idx_axis", [a, S("3")], "ValueError"),
                ("split_idx_axis", [a, S("-4")], "ValueError")]
    out += [("split_axis", [f8(2, 4, 6), S("2")], None),
            ("split_axis", [f8(2, 4, 6), S("-3")], None),
            ("split_axis", [f8(2, 3, 6), S("1")], "ValueError"),
            ("array_split_axis", [f8(2, 4, 7), S("2")], None),
            ("split_idx_arg", [f8(8), S("3"), S("6")], None),
            ("split_idx_arg", [f8(8), S("-3"), S("int32:100")], None),
            ("split_idx_arg", [f8(8), S("6"), S("3")], None),
            ("split_index_rt", [f8(8), S("1")], None),
            ("split_index_rt", [f8(8), S("-1")], None),
            ("hsplit2", [f8(4, 6)], None), ("hsplit2", [f8(6)], None),
            ("hsplit2", [f8(3, 5)], "ValueError"),
            ("vsplit2", [f8(4, 6)], None),
            ("vsplit2", [f8(6)], "TypingError"),
            ("dsplit2", [f8(2, 3, 4)], None),
            ("dsplit2", [f8(4, 6)], "TypingError"),
            ("hsplit_idx", [f8(3, 4)], None),
            ("split_rt_sections", [f8(6), S("2")], None),
            ("split_array_indices", [f8(6), V("i8", [1, 3])],
             "refused-here"),
            ("split_float_sections", [f8(6)], "TypingError"),
            ("split_scalar", [S("2.0")], "TypingError"),
            ("split_idx_empty", [f8(4)], "TypingError"),
            ("split_list_ary", [S("2.0")], "refused-here")]
    return out


def same(got, want):
    return (got.dtype == want.dtype and got.shape == want.shape and
            np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "npsplit", same)


if __name__ == "__main__":
    sys.exit(main())
