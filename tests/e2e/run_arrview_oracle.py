#!/usr/bin/env python3
"""a.view(dtype), np.frombuffer and isinstance inside kernels
(tests/kernels/host/arrview.py) against Numba: each case runs through
`ufjit call` and through Numba on the same inputs; results are compared
for dtype, shape and bytes (a view reinterprets them: exact); where Numba
raises, ufjit fails with the same exception, and what Numba refuses while
compiling ufjit refuses at the kernel's FILE:LINE:COL.

    run_arrview_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c8, c16, f4, f8, i1, i2, i4, i8, u1, u2, u8  # noqa: E402,E501
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "arrview.py")

SIZES = {"view_i8": 8, "view_u8": 8, "view_i4": 4, "view_i2": 2,
         "view_u1": 1, "view_f8": 8, "view_f4": 4, "view_c16": 16,
         "view_c8": 8}


def layout(a):
    """Numba's typeof layout of a."""
    if a.flags.c_contiguous:
        return "C"
    return "F" if a.flags.f_contiguous else "A"


def view_expect(spec, new):
    """What Numba's a.view does (numba/np/arrayobj.py: _compatible_view,
    then _change_dtype), worked out from the input's shape and strides:
    None where it returns, "ValueError" where it raises."""
    a = np.empty(spec.shape, spec.dtype, order=spec.order)
    if spec.index is not None:
        a = a[eval("np.s_[" + spec.index + "]", {"np": np})]
    old = a.itemsize
    if old == new:
        return None
    if a.ndim == 0:
        return "ValueError"
    if a.shape[-1] != 1 and a.size != 0 and a.strides[-1] != old:
        return "ValueError"
    if new > old and a.shape[-1] * old % new:
        return "ValueError"
    lay = layout(a)
    if lay == "A":
        lay = ("C" if a.strides[-1] == old else
               "F" if a.strides[0] == old else "A")
    if lay == "A":
        return "ValueError"
    i = a.ndim - 1 if lay == "C" else 0
    if new > old and a.shape[i] * old % new:
        return "ValueError"
    return None


def view_cases():
    """Every itemsize pair over C, F, strided, empty and 0-d arrays."""
    srcs = [f8(6), f4(8), i2(8, lo=-300, hi=300), u1(16, lo=0, hi=256),
            c16(2), c8(4), i1(8, lo=-128, hi=128), u8(2, lo=0, hi=2**40),
            i4(4), f8(3, 4, special=True), i4(2, 3, 4, lo=-99, hi=99),
            u1(3, 16, lo=0, hi=256), f8(0), f8(0, 3), f4(3, 0),
            V("f8", [2.5], ()), V("i2", [7], ()),
            f8(4, 6).view("::2, :"), i4(5, 8).view("::-1, :"),
            f8(6).view("::-1"), f8(6).view("::2"), f8(4, 6).view(":, ::2"),
            f8(4, 6).view(":, 2:3"), f8(3, 4).view("1:2, ::2"),
            f8(3, 8).view(":, 2:4:2"), u1(4, 6, lo=0, hi=9).view(":, 1:"),
            f8(4, 6).F, f8(4, 1).F, f8(2, 3, 1).F,
            i2(2, 3, 1, lo=-9, hi=9).F, u1(4, 3, 1, lo=0, hi=9).F,
            f4(2, 6, 1).F.view("::-1, :, :")]
    return [(k, [a], view_expect(a, n)) for k, n in SIZES.items()
            for a in srcs]


def view_extra_cases():
    out = []
    # a larger item not dividing the last axis's bytes
    out += [
        ("view_i8", [f4(3)], "ValueError"), ("view_i8", [u1(7)], "ValueError"),
        ("view_c16", [f8(3)], "ValueError"),
        ("view_c16", [f8(2, 3)], "ValueError"),
        ("view_i4", [i2(3, 5)], "ValueError"),
        ("view_i8", [f4(0, 3)], "ValueError"),
        ("view_i8", [f4(3, 0)], None),
        ("view_b1", [V("u1", [0, 1, 1, 0, 1])], None),
        ("view_b1", [V("i1", [0, 1, 1, 0, 0, 1], (2, 3))], None),
        ("view_u1", [b1(7)], None), ("view_f8", [b1(8)], None),
        ("view_dtype", [f8(4), i4(1)], None),
        ("view_dtype", [u1(12, lo=0, hi=256), f4(1)], None),
        ("view_dtype", [c8(3), u2(1, lo=0, hi=9)], None),
        ("view_back", [f8(3, 4)], None), ("view_back", [c16(5)], None),
        ("view_write", [f8(4)], None), ("view_write", [i2(3, 4)], None),
        ("view_write", [f8(4, 6).view("::2, :")], None),
        ("view_write_wide", [f8(4)], None),
        ("view_write_wide", [u1(16, lo=0, hi=256)], None),
        ("view_write_wide", [i2(2, 8, lo=-9, hi=9)], None),
        ("view_sum", [f8(5)], None), ("view_sum", [f4(3, 4)], None),
        ("view_loop", [f8(5)], None), ("view_loop", [u1(6, lo=0, hi=256)],
                                       None),
        ("view_loop", [u1(5, lo=0, hi=256)], "ValueError"),
        ("view_in_loop", [S("6")], None), ("view_of_new", [S("3")], None),
        ("view_of_new", [S("0")], None),
        ("view_str", [f8(3)], "TypingError"),
        ("view_kw", [f8(3)], "refused"),
        ("view_pyclass", [f8(3)], "TypingError"),
        ("view_none", [f8(3)], "refused"),
    ]
    return out


def frombuffer_cases():
    return [
        ("fb", [f8(5)], None), ("fb", [i4(6)], None), ("fb", [i4(5)],
                                                        "ValueError"),
        ("fb", [f8(3, 4)], None), ("fb", [u1(2, 3, 4, lo=0, hi=256)], None),
        ("fb", [f8(0)], None), ("fb", [f8(0, 3)], None),
        ("fb", [V("f8", [2.5], ())], None),
        ("fb", [f8(3, 4).F], "TypingError"),
        ("fb", [f8(6).view("::2")], "TypingError"),
        ("fb", [f8(6).view("::-1")], "TypingError"),
        ("fb", [f8(4, 3).view("1:3, :")], None),
        ("fb_default", [i8(4)], None), ("fb_default", [c8(3)], None),
        ("fb_i2", [f4(3)], None), ("fb_i2", [u1(5, lo=0, hi=256)],
                                   "ValueError"),
        ("fb_u1", [c16(2)], None), ("fb_u1", [b1(5)], None),
        ("fb_c8", [f8(3)], None), ("fb_c8", [f4(3)], "ValueError"),
        ("fb_none", [i4(4)], None), ("fb_float", [u1(16, lo=0, hi=256)],
                                      None),
        ("fb_dtype", [f8(3), i2(1)], None),
        ("fb_dtype", [i2(3), c8(1)], "ValueError"),
        ("fb_str", [f8(3)], None), ("fb_kw", [f8(3)], None),
        ("fb_count", [f8(3), S("0")], None),
        ("fb_count", [f8(3), S("5")], None),
        ("fb_count", [f8(3), S("24")], None),
        ("fb_count", [f8(3), S("25")], "ValueError"),
        ("fb_count", [f8(3), S("-1")], None),
        ("fb_count", [f8(3), S("-7")], None),
        ("fb_count", [f8(3), S("int8:3")], "refused"),
        ("fb_count", [f8(3), S("uint64:3")], None),
        ("fb_offset", [i8(5), S("0")], None),
        ("fb_offset", [i8(5), S("2")], None),
        ("fb_offset", [i8(5), S("5")], None),
        ("fb_offset", [i8(5), S("6")], "ValueError"),
        ("fb_offset", [f8(2, 3), S("4")], None),
        ("fb_count_offset", [i8(6), S("2"), S("3")], None),
        ("fb_count_offset", [i8(6), S("4"), S("3")], "ValueError"),
        ("fb_count_offset", [i8(6), S("-1"), S("1")], None),
        ("fb_offset_mixed", [i2(8)], "refused-here"),
        ("fb_write", [f8(3)], None), ("fb_write", [i4(2, 2)], None),
        ("fb_float_count", [f8(3)], "refused"),
        ("fb_scalar", [S("2.5")], "TypingError"),
    ]


def isinstance_cases():
    arr = i8(4)
    return [
        ("inst_branch", [S("3")], None), ("inst_branch", [arr], None),
        ("inst_branch", [f8(2, 3)], None),
        ("inst_branch", [S("int32:3")], "TypingError"),
        ("inst_float", [S("2.5")], None), ("inst_float", [S("float32:2")],
                                           None),
        ("inst_float", [S("2")], None), ("inst_float", [arr], None),
        ("inst_complex", [S("1+2j")], None),
        ("inst_complex", [S("complex64:1+2j")], None),
        ("inst_complex", [S("2.5")], None),
        ("inst_bool", [S("true")], None), ("inst_bool", [S("1")], None),
        ("inst_classes", [S("3")], None), ("inst_classes", [S("2.5")], None),
        ("inst_classes", [S("1+1j")], None),
        ("inst_classes", [S("int8:3")], None),
        ("inst_nested", [S("3")], None),
        ("inst_nested", [S("1+1j")], "TypingError"),
        ("inst_nested", [S("true")], "TypingError"),
        ("inst_np", [S("2.5")], None), ("inst_np", [S("int32:7")], None),
        ("inst_np", [S("float32:1")], None),
        ("inst_numba_type", [S("3")], None),
        ("inst_numba_type", [S("uint64:3")], None),
        ("inst_tuple", [S("3")], None), ("inst_tuple", [arr], None),
        ("inst_literal", [S("0")], None), ("inst_other", [S("1")], None),
        ("inst_other", [arr], None),
        ("inst_not", [S("3")], None), ("inst_not", [arr], None),
        ("inst_elif", [S("2.5")], None), ("inst_elif", [S("3")], None),
        ("inst_elif", [f8(3)], None),
        ("inst_ternary", [S("3")], None), ("inst_ternary", [arr], None),
        ("inst_and", [S("1"), S("2")], None),
        ("inst_and", [S("1"), S("2.5")], None),
        ("inst_var", [S("3")], None), ("inst_var", [arr], None),
        ("inst_while", [S("3")], None), ("inst_while", [arr], None),
        ("inst_local", [S("2.5")], None), ("inst_local", [S("2")], None),
        ("inst_local", [arr], None),
        ("inst_local_pruned", [S("3")], None),
        ("inst_local_pruned", [arr], None),
        ("inst_ndarray", [arr], "TypingError"),
        ("inst_nontype", [S("1")], "TypingError"),
        ("inst_onearg", [S("1")], "TypingError"),
        ("inst_kw", [S("1")], "TypingError"),
    ]


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype == np.bool_:
        return np.array_equal(got, want)
    return got.tobytes() == np.ascontiguousarray(want).tobytes()


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    cases = (view_cases() + view_extra_cases() + frombuffer_cases() +
             isinstance_cases())
    return check_cases(opt, FILE, cases, "arrview", same)


if __name__ == "__main__":
    sys.exit(main())
