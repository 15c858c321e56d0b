#!/usr/bin/env python3
"""np.array of a list filled by one loop (tests/kernels/host/arraycall.py)
against Numba: the forms ufjit lowers without the list (lower_arraycall.c,
as Numba's _inline_arraycall: ints, floats, bools, complex, range steps,
dtype=, np.asarray, arrays and tuples iterated, empty and one-item loops,
an early return, a body that allocates) and those that keep it (a
condition, continue, two loops, the list used afterwards, a list
iterated; nested comprehensions, which give Numba a 2-D array, are in
run_nestlist_oracle.py). dtype, shape and values must agree
exactly.

    run_arraycall_oracle.py UFJIT [-k TEXT] [-v]
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

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "arraycall.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises)."""
    out = []
    for n in ("0", "1", "7", "1000"):
        for k in ("append_f8", "append_i8", "append_bool", "append_complex",
                  "append_dtype", "append_asarray", "append_body_allocates",
                  "comp_range", "comp_in_loop",
                  "list_used_after", "list_continue",
                  "list_over_list", "list_later_statement"):
            out.append((k, [S(n)], None))
        out.append(("append_early_return", [S(n), S("5")], None))
    for a, b, c in (("0", "10", "3"), ("10", "0", "-3"), ("5", "5", "1"),
                    ("-4", "9", "2"), ("3", "-3", "-1")):
        out.append(("append_range_step", [S(a), S(b), S(c)], None))
    for a in (f8(0), f8(1), f8(33), V("f8", [-1.0, 2.0, -0.0, 3.5])):
        out += [("comp_array", [a], None), ("comp_condition", [a], None)]
    out += [("comp_array", [i8(9)], None),
            ("comp_2d_rows", [f8(4, 3)], None),
            ("comp_2d_rows", [f8(0, 3)], None),
            ("comp_tuple", [S("4")], None),
            # np.array(l) runs three times: three copies, the list kept
            ("array_in_next_loop", [S("1")], None),
            ("array_in_next_loop", [S("7")], None),
            ("append_range_step", [S("0"), S("4"), S("0")], "ValueError")]
    return out


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return (np.ascontiguousarray(got).tobytes() ==
            np.ascontiguousarray(want).tobytes())


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "arraycall", same)


if __name__ == "__main__":
    sys.exit(main())
