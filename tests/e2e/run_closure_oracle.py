#!/usr/bin/env python3
"""Python language features inside kernels (tests/kernels/host/closure.py)
against Numba: an augmented assignment's subscript (a fancy index, a
mask, an integer, a slice bound) evaluated exactly once, its calls counted
and its random draws compared bit for bit after np.random.seed; nested
defs and lambdas only called (captures read at call time, arrays written
through, defs nested two deep, siblings, keyword calls, a raise inside,
a lambda in a @guvectorize kernel), and refused where Numba refuses (a
nested def returned, passed or stored; one calling itself); `is` and
`is not` on None, numbers, bools and arrays. Each case
runs through `ufjit call` and through Numba on the same inputs; dtype,
shape and values must agree exactly. Where Numba raises, ufjit fails with
the same exception; what Numba refuses compiling ufjit refuses at the
kernel's FILE:LINE:COL.

    run_closure_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, f8, i8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "closure.py")


def cases():
    """(kernel, inputs, what Numba does[, LINE:COL of ufjit's refusal])."""
    out = []
    for n in ("0", "1", "2", "5", "7"):
        out += [("aug_fancy_once", [S(n)]), ("aug_fancy_arange", [S(n)]),
                ("aug_fancy_2d", [S(n)])]
    for n in ("0", "1", "6", "9"):
        out.append(("aug_mask_once", [S(n)]))
    for seed in ("0", "3", "42"):
        for n in ("0", "1", "4", "25"):
            out += [("aug_fancy_random", [S(seed), S(n)]),
                    ("aug_mask_random", [S(seed), S(n)])]
        out.append(("aug_random_basic", [S(seed)]))
    for i in ("0", "2", "4", "-2"):
        out.append(("aug_basic_once", [S(i)]))
    for i in ("0", "2", "4"):
        out.append(("aug_slice_once", [S(i)]))
    for i in ("0", "1", "-2"):
        out.append(("aug_basic_2d", [S(i)]))
    # Numba reads out of bounds here (no boundscheck): ufjit raises as
    # NumPy
    for x in ("0.5", "-3.0", "2.0"):
        out += [("clo_late", [S(x)]), ("clo_nested", [S(x)]),
                ("clo_shadow", [S(x)]), ("clo_sibling", [S(x)]),
                ("clo_poly", [S(x)]),
                # Numba fails with an AssertionError on keywords: Python's
                ("clo_kw", [S(x)], "numpy"),
                ("lam_one", [S(x)]), ("lam_two", [S(x)]),
                ("clo_loop", [S(x), S("5")])]
    out += [("clo_loop", [S("1.5"), S("0")]),
            ("clo_loop", [S("int64:3"), S("4")]),
            ("clo_late", [S("int64:7")]), ("clo_poly", [S("int64:7")]),
            ("lam_one", [S("int32:4")]), ("lam_two", [S("int64:4")]),
            # Numba: NotImplementedError (a cell of a loop variable);
            # ufjit runs it as Python does
            ("clo_loopvar", [S("0")], "numpy"),
            ("clo_loopvar", [S("6")], "numpy"),
            ("clo_array", [f8(5), S("2.0")]),
            ("clo_array", [f8(7).view("::-2"), S("int64:3")]),
            ("clo_array", [i8(4), S("int64:3")]),
            ("clo_array", [f8(0), S("1.0")]),
            ("clo_returns_array", [S("0")]), ("clo_returns_array", [S("4")]),
            ("clo_raise", [S("3.0")]), ("clo_raise", [S("-1.0")], "ValueError"),
            ("gu_lam", [f8(6)]), ("gu_lam", [f8(3, 2)]),
            ("gu_lam", [V("f8", [np.nan, np.inf, -0.0])]),
            ("clo_return", [S("1.0")], "TypingError", "253:12"),
            ("clo_passed", [S("1.0")], "TypingError", "265:16"),
            ("clo_stored", [S("1.0")], "TypingError", "272:10"),
            ("lam_prange", [f8(1000), S("2.0")]), ("lam_prange", [f8(0), S("1.0")]),
            ("clo_fastmath", [V("f8", [1.0, 2.0, 3.0, 4.0, 5.0])]),
            ("clo_recursive", [S("4")], "refused"),
            # Numba 0.68 calls an alias of a nested def; ufjit refuses it
            ("clo_alias", [S("1.0")], "refused-here")]
    for x in ("1.5", "int64:3", "true", "nan"):
        out += [("is_none", [S(x)]), ("is_branch", [S(x)])]
    out += [("is_none", [f8(3)]), ("is_view", [f8(4)]),
            ("is_view", [f8(4, 3)]), ("is_view", [f8(6).view("::2")]),
            ("is_view", [f8(0)])]
    for x, y in (("1.5", "1.5"), ("1.5", "2.5"), ("nan", "nan"),
                 ("int64:3", "int64:3"), ("int64:3", "int32:3"),
                 ("int64:3", "3.0"), ("true", "true"), ("true", "false"),
                 ("complex128:1+2j", "complex128:1+2j")):
        out.append(("is_same", [S(x), S(y)]))
    out += [("is_same", [f8(3), f8(3)]), ("is_same", [f8(3), S("1.0")]),
            ("is_same", [f8(3), i8(3)]),
            # Numba compares tuples with ==; ufjit refuses `is` on them
            ("is_tuple", [S("1.0")], "refused-here"),
            ("is_chain", [S("1.0"), S("1.0")], "refused-here")]
    return out + [
        ("aug_fancy_bad", [S("2")]),
        ("aug_fancy_bad", [S("3")], "IndexError-ufjit"),
        ("aug_slice_once", [S("-2")], "ValueError-ufjit"),
        # several array indices (lower_fancy.c), a[i, j] += 1 as Numba
        ("two_array_index", [f8(3, 3), V("i8", [0, 2]), V("i8", [1, 1])]),
        ("two_array_index", [f8(3, 3), V("i8", [0, 0]), V("i8", [1, 1])]),
    ]


def same(got, want):
    return (got.dtype == want.dtype and got.shape == want.shape and
            np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "closure", same)


if __name__ == "__main__":
    sys.exit(main())
