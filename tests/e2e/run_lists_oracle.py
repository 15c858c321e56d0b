#!/usr/bin/env python3
"""Python lists inside kernels (tests/kernels/host/lists.py, Numba's
list(T)) against Numba: each case runs through `ufjit call` and through
Numba on the same inputs; dtype, shape and values must agree exactly (NaN
equal to NaN). Where Numba raises, ufjit fails with the same exception;
what Numba refuses compiling ufjit refuses at the kernel's FILE:LINE:COL;
returning a list from the kernel called is refused by ufjit only (Numba
hands the caller a reflected list; ufjit's API passes arrays).

    run_lists_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c16, f4, f8, i1, i4, i8, u1, u8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "lists.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "TypingError" refused compiling, "refused-here" ufjit's gap)."""
    nan = V("f8", [1.0, np.nan, -np.inf, 0.5, np.inf])
    arrays = [f8(7), f4(5), i8(6), i4(4), i1(5, lo=-128, hi=128),
              u1(4, lo=0, hi=256), u8(3, lo=0, hi=2**40), b1(5), c16(3),
              f8(20).view("::-3"), nan]
    out = []
    for a in arrays:
        out += [("from_array", [a], None), ("total", [a], None),
                ("iterate", [a], None) if a.dtype.kind != "b" else
                ("as_float32", [a], None),
                ("contains", [a, S("0")], None)]
        if a.dtype.kind != "c":
            out += [("minmax", [a], None), ("truth", [a], None),
                    ("as_float32", [a], None)]
    for i in ("0", "3", "-1", "-4"):
        out += [("getitem", [f8(4), S(i)], None),
                ("setitem", [i8(4), S(i), S("2.9")], None)]
    for i in ("4", "-5", "100", "uint64:7"):
        out += [("getitem", [f8(4), S(i)], "IndexError"),
                ("setitem", [f8(4), S(i), S("1.0")], "IndexError")]
    return out + [
        ("getitem", [f8(0), S("0")], "IndexError"),
        ("minmax", [f8(0)], "StopIteration"),
        ("truth", [f8(0)], None),
        ("total", [f8(0)], None), ("total", [i4(0)], None),
        ("from_array", [f8(0)], None),
        ("literal", [S("2.0")], None), ("literal", [S("int32:-3")], None),
        ("literal", [S("complex128:1+2j")], None),
        ("literal_ints", [S("5")], None), ("literal_ints", [S("uint8:9")],
                                           None),
        ("append_widens", [f8(2)], None), ("append_widens", [i4(2)], None),
        ("append_widens", [c16(1)], None),
        ("alias", [S("0")], None), ("alias", [S("5")], None),
        ("via_helper", [S("0")], None), ("via_helper", [S("6")], None),
        ("returned", [S("0")], None), ("returned", [S("9")], None),
        ("iterate_append", [S("1")], None), ("iterate_append", [S("7")], None),
        ("big", [S("1000000")], None),
        ("bools", [i4(6)], None), ("complexes", [c16(4)], None),
        ("complexes", [f8(3)], None),
        ("in_loop", [S("0")], None), ("in_loop", [S("12")], None),
        ("empty_never", [S("1")], "TypingError"),
        ("return_list", [S("1")], "refused-here"),
        ("bad_append", [f8(3)], "TypingError"),
        ("not_empty", [f8(6)], None), ("not_empty", [V("f8", [-1.0])], None),
        ("comp", [f8(9), S("0.0")], None), ("comp", [i4(7), S("2")], None),
        ("comp", [f8(0), S("0.0")], None),
        ("comp", [f8(12).view("::-2"), S("-1.5")], None),
        ("comp_nested", [S("0")], None), ("comp_nested", [S("7")], None),
        ("comp_inline", [f8(5)], None), ("comp_inline", [u1(4, lo=0,
                                                             hi=256)], None),
        ("comp_tuple", [f8(4)], None),
        ("constructors", [f8(6), S("5")], None),
        ("constructors", [f8(3).view("::-1"), S("0")], None),
        ("constructors", [f8(4), S("uint8:4")], None),
        ("list_empty", [S("3")], None), ("list_empty", [S("2.5")], None),
        ("list_mixed_tuple", [S("1")], "TypingError"),
        ("methods", [f8(6), S("2")], None), ("methods", [f8(4), S("-1")],
                                              None),
        ("methods", [f8(10).view("::-2"), S("0")], None),
        ("methods", [f8(3), S("5")], "IndexError"),
        ("pop_all", [f8(5)], None), ("pop_all", [f8(0)], None),
        ("pop_at", [f8(3), S("-3")], None), ("pop_at", [f8(3), S("3")],
                                             "IndexError"),
        ("pop_at", [f8(0), S("0")], "IndexError"),
        ("pop_at", [i8(3), S("-4")], "IndexError"),
        ("index_of", [V("f8", [1.0, 2.0, 2.0]), S("2")], None),
        ("index_of", [V("f8", [1.0, np.nan]), S("nan")], "ValueError"),
        ("index_of", [i4(3), S("99")], "ValueError"),
        ("remove_x", [V("i8", [3, 1, 3]), S("3")], None),
        ("remove_x", [V("i8", [3, 1, 3]), S("4.5")], "ValueError"),
        ("remove_x", [V("f4", [0.5, -0.0]), S("0.0")], None),
        ("clear_extend", [f8(3)], None), ("clear_extend", [nan], None),
        ("insert_empty", [S("3")], None), ("insert_empty", [S("2.5")], None),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return bool(np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "lists", same)


if __name__ == "__main__":
    sys.exit(main())
