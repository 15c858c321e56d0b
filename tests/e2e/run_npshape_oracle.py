#!/usr/bin/env python3
"""np.repeat / a.repeat, np.resize, np.broadcast_to, np.broadcast_arrays
np.broadcast_shapes and np.trim_zeros inside kernels
(tests/kernels/host/npshape.py) against Numba: each case
runs through `ufjit call` and through Numba on the same inputs; results
(each element of a returned tuple) are compared for dtype, shape and
values, exactly (nothing is computed but copies; a float sum within a few
ulps), NaN equal to NaN; where Numba raises, ufjit fails with the same
exception, and what Numba refuses while compiling ufjit refuses at the
kernel's FILE:LINE:COL. np.broadcast_arrays is unpacked or indexed (Numba's
list is a tuple in ufjit).

    run_npshape_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c8, c16, f4, f8, i1, i2, i4, i8, u1, u8  # noqa: E402,E501
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npshape.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises; "refused-here": Numba computes it, ufjit refuses it at
    FILE:LINE:COL)."""
    return [
        # repeat: one count, every dtype and layout, numbers, 0-d, empty
        ("repeat", [f8(4), S("3")], None), ("repeat", [f8(4), S("0")], None),
        ("repeat", [f8(4), S("1")], None),
        ("repeat", [f8(3, 4), S("2")], None),
        ("repeat", [f4(2, 3, 4, special=True).F, S("2")], None),
        ("repeat", [i1(4, 5, lo=-128, hi=128).view("::2, ::-1"), S("3")],
         None),
        ("repeat", [u8(6, lo=0, hi=99).view("::-2"), S("uint8:2")], None),
        ("repeat", [b1(5), S("2")], None), ("repeat", [c16(2, 2), S("3")],
                                             None),
        ("repeat", [f8(0), S("5")], None), ("repeat", [f8(3, 0), S("2")],
                                             None),
        ("repeat", [S("2.5"), S("3")], None), ("repeat", [S("7"), S("2")],
                                                None),
        ("repeat", [S("true"), S("2")], None),
        ("repeat", [f8(4), S("-1")], "ValueError"),
        ("repeat", [f8(0), S("-1")], "ValueError"),
        # repeat: an array of counts (one count is every element's)
        ("repeat", [f8(3), V("i8", [1, 0, 3])], None),
        ("repeat", [f8(2, 2).F, V("i4", [2, 1, 0, 3])], None),
        ("repeat", [i2(6).view("::-2"), V("u1", [3, 1, 2])], None),
        ("repeat", [f8(3), V("i8", [0, 0, 0])], None),
        ("repeat", [f8(3), V("i8", [2])], None),
        ("repeat", [f8(3), V("i8", [-2])], "ValueError"),
        ("repeat", [f8(3), V("i8", [1, -1, 2])], "ValueError"),
        ("repeat", [f8(3), V("i8", [1, 2])], "ValueError"),
        ("repeat", [f8(3), V("i8", [1, 2, 3, 4])], "ValueError"),
        ("repeat", [f8(0), i8(0)], None),
        ("repeat", [f8(4), i8(8, lo=0, hi=4).view("::2")], None),
        ("repeat", [S("1.5"), V("i8", [4])], None),
        ("repeat", [f8(3), f8(3)], "TypingError"),
        ("repeat", [f8(3), b1(3)], "TypingError"),
        ("repeat_2d_counts", [f8(3), i8(1, 3, lo=0, hi=3)], "TypingError"),
        ("repeat_method", [f8(2, 3), S("2")], None),
        ("repeat_method", [i4(2, 3).F, V("i8", [1, 2, 0, 1, 3, 1])], None),
        ("repeat_kw", [f8(3), S("2")], None),
        ("repeat_local", [S("4"), S("3")], None),
        ("repeat_local", [S("0"), S("3")], None),
        ("repeat_in_loop", [S("30")], None),
        ("repeat_bool_count", [f8(3)], "TypingError"),
        ("repeat_float_count", [f8(3)], "TypingError"),
        # resize: the flattened elements over and over, zeros when empty
        ("resize", [f8(3), S("7")], None), ("resize", [f8(3), S("2")], None),
        ("resize", [f8(3), S("0")], None), ("resize", [f8(3), S("3")], None),
        ("resize", [f8(3), S("6")], None),
        ("resize", [f8(0), S("4")], None), ("resize", [i4(0, 2), S("3")],
                                             None),
        ("resize", [S("2.5"), S("3")], None),
        ("resize", [S("int16:-3"), S("4")], None),
        ("resize", [f8(2, 3), S("10")], None),
        ("resize", [f8(2, 3).F, S("10")], None),
        ("resize", [c8(4, 5).view("::-1, ::2"), S("13")], None),
        ("resize", [u1(7, lo=0, hi=256).view("::-3"), S("8")], None),
        ("resize", [u1(7, lo=0, hi=256).view("::3"), S("8")], None),
        ("resize", [b1(3), S("5")], None),
        ("resize", [f8(3), S("-1")], "ValueError"),
        ("resize2", [f8(4), S("3"), S("3")], None),
        ("resize2", [f8(2, 3, special=True).F, S("4"), S("2")], None),
        ("resize2", [f8(4), S("0"), S("3")], None),
        ("resize2", [f8(0), S("2"), S("3")], None),
        ("resize2", [f8(4), S("2"), S("-3")], "ValueError"),
        ("resize_kw", [i8(4), S("6")], None),
        ("resize_empty_tuple", [f8(3)], "TypingError"),
        ("resize_bool_shape", [f8(3)], "TypingError"),
        # broadcast_to: read-only views, Numba's checks in its order
        ("broadcast_to", [f8(3), S("2"), S("3")], None),
        ("broadcast_to", [f8(1), S("2"), S("4")], None),
        ("broadcast_to", [f8(2, 1), S("2"), S("4")], None),
        ("broadcast_to", [f8(2, 1).F, S("2"), S("4")], None),
        ("broadcast_to", [i2(3, 4).view("::-1, ::2"), S("3"), S("2")], None),
        ("broadcast_to", [f8(3), S("0"), S("3")], None),
        ("broadcast_to", [f8(1), S("2"), S("0")], None),
        ("broadcast_to", [f8(0), S("2"), S("0")], None),
        ("broadcast_to", [S("2.5"), S("2"), S("3")], None),
        ("broadcast_to", [S("true"), S("1"), S("2")], None),
        ("broadcast_to", [f8(3), S("2"), S("4")], "ValueError"),
        ("broadcast_to", [f8(2, 3), S("3"), S("3")], "ValueError"),
        ("broadcast_to", [f8(3), S("-1"), S("3")], "ValueError"),
        ("broadcast_to", [f8(0), S("2"), S("1")], "ValueError"),
        ("broadcast_to", [f8(2, 2, 2), S("2"), S("2")], "ValueError"),
        ("broadcast_to_int", [f8(1), S("4")], None),
        ("broadcast_to_int", [f8(4), S("4")], None),
        ("broadcast_to_int", [S("7"), S("3")], None),
        ("broadcast_to_int", [f8(3), S("4")], "ValueError"),
        ("broadcast_to_3", [c16(3), S("4")], None),
        ("broadcast_to_3", [f4(4, 1).F, S("4")], None),
        ("broadcast_to_kw", [f8(3), S("2")], None),
        ("broadcast_to_0d", [S("2.5")], None),
        ("broadcast_to_0d", [S("int8:-4")], None),
        ("broadcast_to_strides", [f8(3), S("2"), S("3")], None),
        ("broadcast_to_strides", [f8(2, 1), S("2"), S("5")], None),
        ("broadcast_to_strides", [f8(1, 1), S("1"), S("5")], None),
        ("broadcast_to_sum", [f8(4), S("3"), S("4")], None),
        ("broadcast_to_local", [S("3")], None),
        ("broadcast_to_in_loop", [S("40")], None),
        ("broadcast_to_write", [f8(3)], "TypingError"),
        ("broadcast_to_nonscalar_0d", [f8(3)], "TypingError"),
        ("broadcast_to_float_shape", [f8(3)], "TypingError"),
        # broadcast_arrays: Numba's list as a tuple, unpacked or indexed
        ("broadcast_arrays", [f8(3), f8(2, 1)], None),
        ("broadcast_arrays", [f8(2, 3).F, f8(3)], None),
        ("broadcast_arrays", [i4(4, 1), i4(1, 5)], None),
        ("broadcast_arrays", [f8(3).view("::-1"), f8(3)], None),
        ("broadcast_arrays", [f8(0), f8(2, 1)], None),
        ("broadcast_arrays", [f8(1), f8(0)], None),
        ("broadcast_arrays", [f8(3), f8(4)], "ValueError"),
        ("broadcast_arrays", [f8(0), f8(2)], "ValueError"),
        ("broadcast_arrays", [f8(2, 3), f8(3, 1)], "ValueError"),
        ("broadcast_arrays3", [f8(3), f8(2, 1), f8(1, 1, 1)], None),
        ("broadcast_arrays3", [b1(2, 1, 4), b1(3, 1), b1(4)], None),
        ("broadcast_arrays_index", [f8(3), f8(4, 1)], None),
        ("broadcast_arrays_number", [f8(2, 3), S("1.5")], None),
        ("broadcast_arrays_numbers", [S("1.5"), S("2.5")], None),
        ("broadcast_arrays_sum", [f8(3), f8(4, 1)], None),
        ("broadcast_arrays_mixed", [f8(3), i8(3)], "TypingError"),
        # trim_zeros: a view, the ends asked for, NaN is not zero
        ("trim_zeros", [V("f8", [0, 0, 1, 0, 2, 0])], None),
        ("trim_zeros", [V("f8", [0, 0, 0])], None),
        ("trim_zeros", [V("f8", [np.nan, 0, 1, 0])], None),
        ("trim_zeros", [V("f8", [-0.0, 3, -0.0])], None),
        ("trim_zeros", [f8(0)], None), ("trim_zeros", [V("f8", [5])], None),
        ("trim_zeros", [V("i8", [0, 4, 0, 0]).view("::-1")], None),
        ("trim_zeros", [V("u1", [0, 0, 7, 0, 9, 0, 0, 0]).view("::2")],
         None),
        ("trim_zeros", [V("b1", [False, True, False])], None),
        ("trim_zeros", [V("c16", [0, 1j, 0])], None),
        ("trim_zeros", [f8(3, 4)], "TypingError"),
        ("trim_zeros", [S("0.0")], "TypingError"),
        ("trim_zeros_f", [V("f8", [0, 0, 1, 0, 2, 0])], None),
        ("trim_zeros_f", [V("f8", [0, 0])], None),
        ("trim_zeros_b", [V("f8", [0, 0, 1, 0, 2, 0])], None),
        ("trim_zeros_none", [V("f8", [0, 1, 0])], None),
        ("trim_zeros_write", [V("f8", [0, 0, 1, 2, 0])], None),
        ("trim_zeros_local", [S("3")], None),
        ("trim_zeros_local", [S("0")], None),
        ("trim_zeros_int_trim", [V("f8", [0, 1])], "TypingError"),
        # broadcast_shapes: integers and tuples of them, right-aligned
        ("bshapes", [f8(3, 1), S("1")]), ("bshapes", [f8(3, 1), S("4")]),
        ("bshapes", [f8(3, 1), S("5")], "ValueError"),
        ("bshapes", [f8(3, 1), S("-1")], "ValueError"),
        ("bshapes", [f8(2, 3), S("3")], "ValueError"),
        ("bshapes_none", []), ("bshapes_tuples", [S("1"), S("2")]),
        ("bshapes_tuples", [S("2"), S("5")], "ValueError"),
        ("bshapes_tuples", [S("-2"), S("2")], "ValueError"),
        ("bshapes_empty", [S("1")]), ("bshapes_empty", [S("0")]),
        ("bshapes_empty", [S("2")], "ValueError"),
        ("bshapes_float", [f8(2)], "TypingError", "250:41"),
        ("bshapes_bool", [], "TypingError", "255:32"),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind in "fc":
        tol = 1e-5 if got.dtype in (np.float32, np.complex64) else 1e-12
        return np.allclose(got, want, rtol=tol, atol=0, equal_nan=True)
    return np.array_equal(got, want)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, cases(), "npshape", same)


if __name__ == "__main__":
    sys.exit(main())
