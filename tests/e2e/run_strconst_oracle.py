#!/usr/bin/env python3
"""Strings known at compile time inside kernels (tests/kernels/host/
strconst.py) against Numba: literals, module str constants and locals
holding them; ==, !=, <, in a tuple, len (code points), not and if on
them, folded and pruned; callees specialised per string value; strings
as keyword values (side=, trim, kind=, mode=, dtype=) and exception
messages.
Each case runs through `ufjit call` and through Numba on the same
inputs: dtype, shape and values exactly; where Numba raises, ufjit fails
with the same exception; what Numba refuses compiling ufjit refuses at
the kernel's FILE:LINE:COL. The kernels of the file's "refused" section
that Numba runs as its unicode_type (a join of two literals,
concatenation, indexing, str(n), returning a string) now run here too
(run_ustr_oracle.py covers them).

    run_strconst_oracle.py UFJIT [-k TEXT] [-v]
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

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "strconst.py")


def cases():
    """(kernel, inputs, what Numba does[, LINE:COL of ufjit's refusal])."""
    x = V("f8", [0.0, 0.0, 3.0, 1.0, 2.0, 0.0])
    xs = V("f8", [0.0, 0.0, 0.0, 1.0, 2.0, 3.0])
    return [
        ("dispatch", [x], None),
        ("dispatch", [f8(7, special=True)], None),
        ("dispatch_bad", [x], "ValueError"),
        ("folds", [], None),
        ("pruned", [x], None),
        ("truthy", [x], None),
        ("keywords", [xs, S("1.0")], None),
        ("keywords", [xs, S("0.0")], None),
        ("conv_mode", [x, V("f8", [1.0, 2.0, 3.0])], None),
        ("conv_bad_mode", [x, V("f8", [1.0, 2.0])], "ValueError"),
        ("raise_msg", [S("-1.0")], "ValueError"),
        ("raise_msg", [S("2.5")], None),
        ("helper_loop", [x], None),
        ("runtime_choice", [S("true")], None),
        ("runtime_join", [S("true")], None),
        ("str_plus_int", [], "TypingError", "124:12"),
        ("str_return", [], None),
        ("str_concat", [], None),
        ("str_index", [], None),
        ("str_ufunc", [f8(3)], "TypingError", "148:12"),
        ("str_store", [f8(3)], "TypingError", "153:5"),
        ("str_of_int", [S("5")], None),
        ("dtype_names", [S("3")], None),
        ("dtype_names", [S("0")], None),
        ("dtype_bad_name", [S("3")], "TypingError", "177:30"),
    ]


def same(got, want):
    return got.dtype == want.dtype and got.shape == want.shape and \
        np.array_equal(got, want, equal_nan=got.dtype.kind in "fc")


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "strconst", same)


if __name__ == "__main__":
    sys.exit(main())
