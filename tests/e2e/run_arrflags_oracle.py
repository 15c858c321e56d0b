#!/usr/bin/env python3
"""a.flags.c_contiguous, .f_contiguous and .contiguous inside kernels
(tests/kernels/host/arrflags.py) against Numba: each case runs through
`ufjit call` and through Numba on the same inputs (C, F and strided
views, axes of length 0 and 1, 0-d); the bools must agree exactly (Numba's
is_contiguous / is_fortran, which skip outer and inner axes of length 0 or
1 only). Not (0, 3): NumPy gives such an array strides (0, 0), ufjit
(24, 8), and Numba's f_contiguous reads the strides.

    run_arrflags_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import f4, f8, i1, i8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "arrflags.py")


def cases():
    """(kernel, inputs, expect) as oracle_util.check_cases reads them."""
    arrays = [
        f8(5), f8(0), f8(1), f8(3, 4), f8(3, 4).F, f8(1, 4), f8(4, 1),
        f8(1, 4).F, f8(3, 1, 4), f8(3, 0, 4), f8(2, 3, 4).F,
        f8(9).view("::2"), f8(9).view("::-1"), f8(6, 8).view(":, ::2"),
        f8(6, 8).view("::2, :"), f8(6, 8).view("1:3, :"),
        f8(6, 8).view(":, 1:3"), f8(6, 8).view("::-1, :"),
        f8(6, 8).view(":1, :"), f8(6, 8).view(":, :1"), f8(6, 8).F.view(":, 1:3"),
        f4(4, 5), i1(3, 7), i8(2, 2, 2).view("::-1, :, :"),
    ]
    out = [("flags", [a], None) for a in arrays]
    out += [("views", [a], None) for a in arrays if len(a.shape) >= 1]
    out += [("branch", [i8(6, 8).view(":, ::2")], None),
            ("branch", [i8(3, 4)], None),
            ("bare", [f8(3)], "refused")]
    return out


def same(got, want):
    """Exact: dtype, shape and values."""
    return got.dtype == want.dtype and got.shape == want.shape and \
        np.array_equal(got, want)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "arrflags", same)


if __name__ == "__main__":
    sys.exit(main())
