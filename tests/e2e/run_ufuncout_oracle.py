#!/usr/bin/env python3
"""NumPy ufuncs given their outputs positionally, np.add(x, y, out), inside
kernels (tests/kernels/host/ufuncout.py) against Numba: each case runs
through `ufjit call` and through Numba on the same inputs; dtype, shape
and values must agree exactly. Where the output overlaps an input
("numpy") NumPy's answer (which copies the input first) is the oracle.
Numba does not check that the inputs fit the output (it writes what its
loop reaches); ufjit raises NumPy's ValueError there ("ValueError-ufjit")
and refuses an input with more dimensions than the output at compile time
("refused-here").

    run_ufuncout_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c16, f4, f8, i1, i4, i8, u1  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "ufuncout.py")


def cases():
    """(kernel, inputs, expect) as oracle_util.check_cases reads them."""
    sp = dict(special=True)
    return [
        ("add_out", [f8(7), f8(7), f8(7)], None),
        ("add_out", [f8(7), S("1.5"), f8(7)], None),
        ("add_out", [f8(0), f8(0), f8(0)], None),
        ("add_out", [f8(5), f8(5), f8(4, 5)], None),
        ("add_out", [f8(3, 1), f8(4), f8(3, 4)], None),
        ("add_out", [f8(9).view("::-1"), f8(9), f8(9)], None),
        ("add_out", [f8(6), f8(6), f8(12).view("::2")], None),
        ("add_out", [f8(4, 6).F, f8(6), f8(4, 6).F], None),
        ("add_out", [f8(8, **sp), f8(8, **sp), f8(8)], None),
        ("add_out", [i8(6), i8(6), f8(6)], None),
        ("add_out", [i8(6), S("3"), i4(6)], None),
        ("add_out", [i1(6, lo=-128, hi=128), i1(6, lo=-128, hi=128),
                     i1(6)], None),
        ("add_out", [u1(5, lo=0, hi=256), i8(5), f4(5)], None),
        ("add_out", [f8(5), f8(5), f4(5)], None),
        ("add_out", [f8(5), f8(5), c16(5)], None),
        ("add_out", [c16(4), c16(4), c16(4)], None),
        ("add_out", [b1(4), b1(4), b1(4)], None),
        ("add_out", [f8(5), f8(5), i8(5)], "TypingError"),
        ("add_out", [c16(5), f8(5), f8(5)], "TypingError"),
        ("add_out", [f8(5), f8(5), b1(5)], "TypingError"),
        ("add_out", [f8(3), S("1.0"), f8(2)], "ValueError-ufjit"),
        ("add_out", [f8(3), f8(3), f8(4, 2)], "ValueError-ufjit"),
        ("add_out", [f8(2, 3), S("1.0"), f8(3)], "refused-here"),
        ("alias", [f8(5), f8(5)], None),
        ("sqrt_out", [f8(6, lo=0, hi=9), f8(6)], None),
        ("sqrt_out", [f8(6, **sp), f8(6)], None),
        ("sqrt_out", [f4(6, lo=0, hi=9), f4(6)], None),
        ("sqrt_out", [i4(6, lo=0, hi=9), f8(6)], None),
        ("sqrt_out", [f8(3, 4, lo=0, hi=9), f8(3, 4).view("::-1, ::-1")],
         None),
        ("in_place", [f8(7)], None),
        ("in_place", [i8(7)], None),
        ("in_place", [f8(6, 4).view("::2, ::-1")], None),
        ("overlap", [f8(8)], "numpy"),
        ("overlap", [i8(8)], "numpy"),
        ("less_out", [f8(6), f8(6), b1(6)], None),
        ("less_out", [f8(6), f8(6), i8(6)], None),
        ("less_out", [f8(6, **sp), S("0.0"), f8(6)], None),
        ("scalars_out", [S("2.0"), S("10"), f8(4)], None),
        ("scalars_out", [S("3"), S("4"), i8(3)], None),
        ("scalars_out", [S("2.0"), f8(5), f8(2, 5)], None),
        ("divmod_out", [V("i8", [7, -7, 5, 0, -9, 2**63 - 1]),
                        V("i8", [2, 2, 0, 0, -4, -1]), i8(6), i8(6)], None),
        ("divmod_out", [f8(6, **sp), f8(6, **sp), f8(6), f8(6)], None),
        ("divmod_out", [i8(6), S("3"), i4(6), f8(6)], None),
        ("divmod_out", [f8(4), f8(4), f8(4), i8(4)], "TypingError"),
        ("divmod_alias", [i8(7), V("i8", [3]), i8(7)], None),
        ("divmod_alias", [f8(6, 3), f8(3), f8(6, 3)], None),
        ("chained", [f8(6), f8(6)], None),
        ("chained", [f8(2, 3), f8(2, 3)], None),
        ("operand", [f8(6), f8(6)], None),
        ("in_loop", [f8(5, 4, lo=-2, hi=2), f8(4)], None),
        ("out_kw", [f8(4), f8(4)], "refused"),
        ("out_scalar", [f8(4), S("1.0")], "TypingError"),
        ("modf_out", [f8(4), f8(4), f8(4)], "TypingError"),
        ("gu_mul", [f8(6, 5), f8(5)], None),
        ("gu_mul", [f8(0, 5), f8(5)], None),
    ]


def same(got, want):
    """Exact: dtype, shape, values, the sign of zeros; NaN equals NaN."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind == "c":
        return same(got.real.copy(), want.real.copy()) and \
            same(got.imag.copy(), want.imag.copy())
    if got.dtype.kind == "f":
        nan = np.isnan(got) & np.isnan(want)
        eq = (got == want) & (np.signbit(got) == np.signbit(want))
        return bool(np.all(nan | eq))
    return np.array_equal(got, want)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "ufuncout", same)


if __name__ == "__main__":
    sys.exit(main())
