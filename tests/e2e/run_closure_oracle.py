#!/usr/bin/env python3
"""Python language features inside kernels (tests/kernels/host/closure.py)
against Numba: an augmented assignment's subscript (a fancy index, a
mask, an integer, a slice bound) evaluated exactly once, its calls counted
and its random draws compared bit for bit after np.random.seed. Each case
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
from corpus import S, V, f8  # noqa: E402
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
    return out + [
        ("aug_fancy_bad", [S("2")]),
        ("aug_fancy_bad", [S("3")], "IndexError-ufjit"),
        ("aug_slice_once", [S("-2")], "ValueError-ufjit"),
        # Numba 0.68 takes several array indices; ufjit one (README)
        ("two_array_index", [f8(3, 3), V("i8", [0, 2]), V("i8", [1, 1])],
         "refused-here"),
    ]


def same(got, want):
    return (got.dtype == want.dtype and got.shape == want.shape and
            np.array_equal(got, want))


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "closure", same)


if __name__ == "__main__":
    sys.exit(main())
