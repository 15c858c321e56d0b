#!/usr/bin/env python3
"""Tuple concatenation (`(2,) + a.shape`), repetition by a literal count
and module-level tuples of numbers (`SHAPE = (2, 3)`) and tuple comparisons (`a.shape == (3,)`) inside kernels
(tests/kernels/host/tupleops.py) against Numba: each case runs through
`ufjit call` and through Numba on the same inputs; dtype, shape and values
must agree exactly; what Numba refuses compiling, ufjit refuses at the
kernel's FILE:LINE:COL. Numba repeats a tuple only where CPython folded
`(0,) * 3` into a constant already; ufjit repeats any tuple by a literal
count, checked against the kernel run as Python.

    run_tupleops_oracle.py UFJIT [-k TEXT] [-v]
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

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "tupleops.py")


def cases():
    """(kernel, inputs, expect) as oracle_util.check_cases reads them."""
    return [
        ("concat", [f8(4)], None),
        ("shape_prefix", [f8(5)], None),
        ("shape_prefix", [f8(0)], None),
        ("shape_suffix", [f8(2, 4)], None),
        ("shape_suffix", [f8(3)], None),
        ("arrays", [f8(5)], None),
        ("repeat", [f8(3)], "numpy"),
        ("repeat_left", [f8(3)], "numpy"),
        ("repeat_var", [f8(3), S("2")], "TypingError"),
        ("globals_", [f8(3)], None),
        ("global_types", [f8(1)], None),
        ("global_index", [f8(2), S("1")], None),
        ("global_index", [f8(2), S("-1")], None),
        ("global_loop", [f8(2)], None),
        ("compare", [f8(2), f8(2)], None),
        ("compare", [V("f8", [1.0, 2.0]), V("f8", [1.0, 2.0])], None),
        ("compare", [V("f8", [1.0, 2.0]), V("f8", [1.0, 3.0])], None),
        ("compare", [V("f8", [1.0, 5.0]), V("f8", [2.0, 3.0])], None),
        ("compare", [V("f8", [np.nan, 1.0]), V("f8", [np.nan, 2.0])], None),
        ("compare", [V("f8", [1.0, np.nan]), V("f8", [1.0, np.nan])], None),
        ("compare", [V("f8", [-0.0, 1.0]), V("f8", [0.0, 1.0])], None),
        ("compare", [V("i8", [2**62, 1]), V("i8", [2**62, -1])], None),
        ("compare", [V("u8", [2**63, 1]), V("i8", [-1, 1])], None),
        ("compare_shape", [f8(3)], None),
        ("compare_shape", [f8(4)], None),
        ("compare_mixed", [V("f8", [0.25]), S("2")], None),
        ("compare_mixed", [V("f8", [np.nan]), S("2")], None),
        ("compare_mixed", [V("f8", [0.5]), S("2")], None),
        ("compare_complex", [f8(1)], "TypingError"),
        ("compare_complex_eq", [f8(1)], None),
    ]


def same(got, want):
    """Exact: dtype, shape and values."""
    return got.dtype == want.dtype and got.shape == want.shape and \
        np.array_equal(got, want)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "tupleops", same)


if __name__ == "__main__":
    sys.exit(main())
