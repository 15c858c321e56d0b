#!/usr/bin/env python3
"""try/except inside njit functions (tests/kernels/host/trystmt.py)
against Numba: each case runs through `ufjit call` and through Numba on
the same inputs; dtype, shape and values must agree exactly; where Numba
raises, ufjit raises the same exception. An exception raised in an
except block: Numba 0.68 stops with an internal AssertionError
("Unreachable condition reached (op code RERAISE executed)"), ufjit
raises that exception ("NAME-ufjit" cases). The refused forms (except
ValueError, a tuple of classes, `as e`, a re-raise, break in a try with
finally) refuse their function only, at FILE:LINE:COL.

    run_trystmt_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, f8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "trystmt.py")


def ints(k, values):
    return [(k, [S(str(v))], None) for v in values]


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, NAME-ufjit: ufjit raises NAME where Numba fails inside,
    "TypingError": Numba fails compiling and ufjit refuses the function at
    FILE:LINE:COL, "refused-here": Numba runs it, ufjit refuses it)."""
    sing = V("f8", [1.0, 2.0, 2.0, 4.0], (2, 2))
    good = V("f8", [2.0, 1.0, 1.0, 3.0], (2, 2))
    return (
        ints("raise_caught", [1, -1, 0]) +
        ints("bare_except", [0, 3, -4]) +
        [("bare_except", [S("int32:0")], None),
         ("bare_except", [S("uint8:0")], None),
         ("float_div", [S("0.0")], None), ("float_div", [S("4.0")], None),
         ("float_div", [S("0")], None)] +
        ints("else_clause", [7, 1, 5]) +
        [("else_clause", [S("-1")], "ValueError")] +
        ints("with_finally", [1, -1]) +
        ints("try_finally_only", [3, -2]) +
        ints("raise_in_handler", [1, -1, 5]) +
        [("raise_in_handler", [S("9")], "IndexError-ufjit")] +
        ints("calls_raiser", [1, -1, 0]) +
        [("singular", [sing], None), ("singular", [good], None),
         ("bad_reshape", [f8(12), S("5")], None),
         ("bad_reshape", [f8(12), S("4")], None),
         ("bad_reshape", [f8(0), S("0")], None)] +
        ints("nested", [1, 5, -1, 3, 4]) +
        ints("loop_break_continue", [10, 0, 5, 4]) +
        ints("loop_return", [10, 3, 0]) +
        ints("while_break_in_handler", [3, 0, -5]) +
        ints("partial_update", [10, 2, 4, 0]) +
        ints("return_in_try", [1, -1]) +
        ints("alloc_then_raise", [2, 5, 0, 3, 4]) +
        ints("alloc_in_loop", [7, 0, 1, 10]) +
        ints("returns_array", [3, 6, 0, 4, 5]) +
        ints("negative_dims", [-2, 0, 3]) +
        ints("calls_alloc_raiser", [5, 2, 0, 3]) +
        [("int_index", [f8(5), S("2")], None),
         ("int_index", [f8(5), S("-1")], None),
         ("in_prange", [S("7")], None), ("in_prange", [S("0")], None),
         ("in_prange", [S("100")], None),
         ("sum_no_raise", [f8(33)], None), ("sum_no_raise", [f8(0)], None),
         ("sum_plain", [f8(33)], None)] +
        ints("handler_only_types", [1, -1]) +
        ints("while_div", [5, 0, 2, 3]) +
        [("gu_max", [f8(3, 5)], None), ("gu_max", [f8(2, 0)], None),
         ("gu_max", [f8(0, 3)], None),
         ("except_class", [S("0")], "TypingError", "353:12"),
         ("except_tuple", [S("0")], "TypingError", "362:12"),
         ("except_as", [S("0")], "TypingError", "371:22"),
         ("reraise", [S("0")], "TypingError", "381:9"),
         ("break_finally", [S("5")], "refused-here", "391:17")])


def same(got, want):
    return (got.dtype == want.dtype and got.shape == want.shape and
            np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "trystmt", same)


if __name__ == "__main__":
    sys.exit(main())
