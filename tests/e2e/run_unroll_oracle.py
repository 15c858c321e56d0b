#!/usr/bin/env python3
"""Loops over numba.literal_unroll, and types imported from numba.types
(tests/kernels/host/unroll.py) against Numba: each case runs through `ufjit call` and through Numba on the same
inputs; dtype, shape and values must agree exactly; what Numba refuses
compiling, ufjit refuses at the kernel's FILE:LINE:COL.

    run_unroll_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import V  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "unroll.py")
A = V("f8", [1.5, 3.0, -2.0])
B = V("f8", [3.0, 0.25, 7.0])


def cases():
    """(kernel, inputs, expect[, where]) as oracle_util.check_cases reads
    them."""
    ok = ["het_arg", "het_local", "display_mixed", "str_arg", "homo_display",
          "homo_arg", "strings", "list_display", "list_var", "dict_var",
          "range_", "break_", "continue_", "else_", "last_value", "in_loops",
          "loops_inside", "arrays", "index_literal", "assigned_in_body",
          "defined_in_body", "two_loops", "tuples_items", "complex_",
          "long_homo", "attr_homo", "call_outside", "via_variable", "typed_str_list", "typed_arr_list",
          "typed_str_dict", "sig_objects", "sig_types"]
    c = [(k, [A]) for k in ok] + [(k, [B]) for k in ok]
    return c + [
        ("join_unused", [A], None),
        ("long_het", [A], "refused-here"),
        ("attr_het", [A], "TypingError", "281:35"),
        ("nested", [A], "TypingError", "308:9"),
        ("returns", [A], "TypingError", "317:13"),
        ("tuple_target", [A], "TypingError", "324:9"),
        ("array_arg", [A], "TypingError", "18:29"),
        ("string_", [A], "TypingError", "337:29"),
        ("empty", [A], "TypingError", "345:29"),
        ("join_refused", [A], "TypingError"),
        ("last_value_refused", [A], "TypingError"),
    ]


def same(got, want):
    """Exact: dtype, shape and values."""
    return got.dtype == want.dtype and got.shape == want.shape and \
        np.array_equal(got, want)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "unroll", same)


if __name__ == "__main__":
    sys.exit(main())
