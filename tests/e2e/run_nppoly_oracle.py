#!/usr/bin/env python3
"""numpy.polynomial.polynomial's polyadd, polysub, polymul, polydiv,
polyval, polyint, polyutils.trimseq, np.roots and a.ctypes.data inside kernels
(tests/kernels/host/nppoly.py) against Numba: each case runs through
`ufjit call` and through Numba on the same inputs; dtype, shape and values
must agree exactly (NaN equal to NaN, the sign of zero included: ufjit
computes in Numba's order), but polymul's sums, which Numba hands to BLAS,
within (n + 2) ulps of the sum of |products|. Where Numba raises, ufjit
fails with the same exception; what Numba refuses compiling ufjit refuses
at the kernel's FILE:LINE:COL.

    run_nppoly_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, V, b1, c8, c16, f4, f8, i1, i4, i8, u1, u8  # noqa: E402,E501
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "nppoly.py")


def coefs():
    """Coefficient operands: dtypes, layouts, trailing zeros, NaN/inf."""
    return [
        f8(5), f4(4), i4(3), i8(6), u8(3, lo=0, hi=9), b1(4), c16(4), c8(3),
        f8(12).view("::-3"), f8(1), S("2.5"), S("3"), S("1.5-2j"),
        f8(),
        V("f8", [1.0, 2.0, 0.0, 0.0]), V("f8", [0.0, 0.0, 0.0]),
        V("f8", [1.0, -0.0, 0.0]), V("i8", [0, 3, 0]),
        V("f8", [np.nan, 1.0, np.inf]), V("f8", [1.0, -np.inf, 0.0]),
        V("c16", [1 + 1j, 0j, complex(0, 1), 0j]),
        V("u1", [255, 0, 7]), V("i1", [-128, 127, 0]),
    ]


def binary_cases():
    out = []
    cs = coefs()
    for k in ("polyadd", "polysub", "polymul", "polydiv"):
        for i, a in enumerate(cs):
            b = cs[(i * 7 + 3) % len(cs)]
            zero = getattr(b, "values", None) == [0.0, 0.0, 0.0]
            out.append((k, [a, b], "ZeroDivisionError"
                        if zero and k == "polydiv" else None))
        out += [
            (k, [f8(0), f8(3)], "ValueError"),
            (k, [f8(3), i4(0)], "ValueError"),
            (k, [f8(2, 2), f8(3)], "TypingError"),
        ]
    bad = V("f8", [0.0, 0.0])
    out += [
        ("polydiv", [f8(5), bad], "ZeroDivisionError"),
        ("polydiv", [f8(5), S("0.0")], "ZeroDivisionError"),
        ("polydiv", [f8(2), f8(5)], None),
        ("polydiv", [V("f8", [1.0, 2.0, 0.0]), f8(3)], None),
        ("polydiv", [f8(7), f8(3)], None),
        ("polydiv", [c16(6), f8(2)], None),
        ("polydiv", [f8(6), c16(3)], None),
        ("polydiv", [i8(5), S("2")], None),
        ("polydiv_quo", [f8(9), f8(4)], None),
        ("polydiv_rem", [f8(9), f8(4)], None),
        ("polydiv_rem", [V("f8", [1.0, 2.0, 3.0, 4.0]),
                         V("f8", [1.0, 2.0, 3.0, 4.0])], None),
        ("polymul", [f8(40), f8(33)], None),
        ("polymul", [c16(20), c8(17)], None),
        ("polymul", [V("f8", [1.0, -1.0]), V("f8", [1.0, 1.0])], None),
        ("polyadd", [V("f8", [1.0, 2.0]), V("f8", [-1.0, -2.0])], None),
        ("polysub", [V("f8", [-0.0]), V("f8", [0.0, 0.0])], None),
        ("polyadd_np", [f8(3), i4(5)], None),
        ("polysub_kw", [f8(3), f8(5)], None),
        ("polyadd_tuple", [f8(2)], None),
        ("polyadd_tuple", [c8(4)], None),
        ("polyadd_tuple_c", [f8(3)], None),
        ("polymul_tuples", [S("0.5")], None),
        ("polymul_tuples", [S("2")], None),
        ("polydiv_tuples", [S("1.5")], None),
        ("polyadd", [S("1.0"), S("2")], None),
        ("polyadd", [S("true"), f8(2)], "TypingError"),
    ]
    return out


def polyval_cases():
    out = []
    for x in (S("2.0"), S("-0.5"), S("3"), S("1+2j"), f8(), f8(5), i4(4),
              f4(3), b1(3), c16(3), f8(2, 3), f8(3, 4).F,
              f8(12).view("::-4"), f8(0), V("f8", [np.inf, np.nan, -0.0]),
              S("inf"), S("nan")):
        for c in (f8(4), i8(3), c16(3), f8(1), b1(3),
                  V("f8", [1.0, np.inf, 2.0]), f8(3, 2), f8(4, 2, 3)):
            out.append(("polyval", [x, c], None))
    out += [
        ("polyval", [S("true"), f8(3)], "TypingError"),
        ("polyval", [S("2.0"), S("3.0")], "TypingError"),
        ("polyval", [S("2.0"), f8()], "TypingError"),
        ("polyval", [S("2.0"), f8(0)], "IndexError-ufjit"),
        ("polyval", [f8(3), f8(0, 2)], "IndexError-ufjit"),
        ("polyval_false", [f8(2), f8(3, 2)], None),
        ("polyval_false", [f8(4, 2), f8(3, 2)], None),
        ("polyval_false", [f8(4, 1), f8(3, 2)], None),
        ("polyval_false", [f8(3), f8(3, 2)], "ValueError"),
        ("polyval_false", [S("2.0"), f8(3, 2)], None),
        ("polyval_false", [f8(5), f8(3)], None),
        ("polyval_kw", [f8(2, 4), f8(3, 4)], None),
        ("polyval_true", [f8(2, 4), f8(3, 4)], None),
        ("polyval_imported", [f8(5), f8(3)], None),
        ("polyval_tuple_x", [f8(4)], None),
        ("polyval_tuple_x", [c16(2, 2)], None),
        ("polyval_tuple_c", [S("1.5")], None),
        ("polyval_tuple_c", [f8(2, 2)], None),
        ("polyval_loop", [f8(50), f8(6)], None),
        ("polyval_tensor_var", [S("2.0"), f8(3), S("true")], "TypingError"),
    ]
    return out


def polyint_cases():
    out = []
    for c in (f8(5), i4(3), u1(4, lo=0, hi=99), b1(3), f4(4), c16(4),
              c8(3), f8(12).view("::-3"), f8(1), f8(3, 2), f8(2, 3, 2),
              f8(4, 3).F, c16(3, 2), V("f8", [1.0, 2.0, 0.0, 0.0]),
              V("f8", [np.inf, np.nan, 1.0]), V("c16", [complex(np.inf, 1)]),
              V("f8", [0.0, 0.0])):
        out.append(("polyint", [c], None))
    for m in ("0", "1", "2", "5", "-1", "int8:3", "uint8:2"):
        out.append(("polyint_m", [f8(4), S(m)], None))
        out.append(("polyint_m", [f8(3, 2), S(m)], None))
    out += [
        ("polyint_m", [c16(3), S("3")], None),
        ("polyint_m", [f8(0), S("0")], None),
        ("polyint_m", [f8(0), S("-2")], None),
        ("polyint", [f8(0)], "IndexError-ufjit"),
        ("polyint", [f8()], "TypingError"),
        ("polyint", [S("2.0")], "TypingError"),
        ("polyint_kw", [f8(4)], None),
        ("polyint_tuple", [S("2")], None),
        ("polyint_tuple", [S("1.5j")], None),
        ("polyint_float_m", [f8(3)], "TypingError"),
        ("polyint_bool_m", [f8(3)], "TypingError"),
    ]
    return out


def trimseq_cases():
    out = []
    for a in (f8(5), V("i8", [1, 2, 0, 0]), V("f8", [0.0, 0.0]), f8(0),
              V("b1", [True, False]), V("c16", [1j, 0j]),
              V("f8", [1.0, -0.0, np.nan, 0.0]), V("u1", [0, 0, 5]),
              V("f4", [2.5, 0.0]), f8(12).view("::-3")):
        out.append(("trimseq", [a], None))
    out += [
        ("trimseq_view", [V("f8", [1.0, 5.0, 0.0, 5.0, 0.0])], None),
        ("trimseq_view", [V("f8", [1.0, 5.0, 2.0, 5.0, 0.0])], None),
        ("trimseq_write", [V("f8", [1.0, 5.0, 0.0])], None),
        ("trimseq", [f8(2, 2)], "TypingError"),
        ("trimseq", [f8()], "TypingError"),
        ("trimseq", [S("1.0")], "TypingError"),
        ("trimseq_tuple", [S("1.0")], "TypingError"),
        ("as_series", [f8(2), f8(3)], "refused-here"),
        ("polynomial_class", [f8(2)], "refused-here"),
    ]
    return out


def roots_cases():
    """np.roots: real roots (eigenvalue order is the solver's: compared
    sorted, within a tolerance), leading and trailing zeros, complex
    roots raising, refusals."""
    out = [("roots", [V("f8", v)], None) for v in (
        [1.0, -3.0, 2.0], [0.0, 1.0, -6.0, 11.0, -6.0, 0.0, 0.0],
        [2.0, -3.0], [5.0], [0.0, 0.0], [], [1.0, 0.0, -1.0, 0.0],
        [1.0, -10.0, 35.0, -50.0, 24.0], [-0.5, 0.25])]
    out += [
        ("roots", [V("i8", [1, -5, 6])], None),
        ("roots", [V("i4", [0, 2, -8])], None),
        ("roots", [V("f4", [1.0, -3.0, 2.0])], None),
        ("roots", [V("f8", [1.0, -7.0, 10.0, 0.0]).view("::-1")], None),
        ("roots", [V("f8", [1.0, 0.0, 1.0])], "ValueError"),
        ("roots", [V("f8", [1.0, np.nan, 1.0])], "LinAlgError"),
        ("roots", [f8(2, 2)], "refused"),
        ("roots", [S("2.0")], "TypingError"),
        ("roots", [V("c16", [1.0, -3.0, 2.0])], None),
        ("roots", [V("c16", [0, 1, -3 + 1j, 2 - 1j, 0.5j, 0, 0])], None),
        ("roots", [V("c16", [1j, 0, 0, 0, 1])], None),
        ("roots", [V("c8", [0, 2, 1j, 3])], None),
        ("roots", [V("c16", [2 + 2j, 1 - 1j, 3, 0.5j, 1, -4]).view("::-2")],
         None),
        ("roots", [V("c16", [0j, 0j])], None),
        ("roots", [V("c16", [1, complex(np.inf, 0), 1])], "LinAlgError"),
    ]
    return out


def ctypes_cases():
    """a.ctypes.data: address differences, alignment, a view's address."""
    out = []
    for a in (f8(5), i1(6), c16(4), f4(12).view("::-3"), f8(4, 3).F):
        for k in ("ctypes_gap", "ctypes_aligned", "ctypes_same"):
            out.append((k, [a], None))
    return out


def bound(got, want, vals):
    """polymul's bound: (n + 2) ulps of float64 times the sum of
    |products| (Numba's np.convolve calls BLAS's dot)."""
    a, v = (np.abs(np.atleast_1d(np.asarray(x))).astype(np.complex128)
            for x in vals)
    mag = np.abs(np.convolve(np.abs(a), np.abs(v)))[:len(want)]
    return (min(len(a), len(v)) + 2) * np.finfo(np.float64).eps * mag * 2


def same(got, want, kernel, vals):
    want = np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if kernel == "roots":  # the solver's order and rounding
        tol = 1e-4 if got.dtype in (np.float32, np.complex64) else 1e-9
        if got.dtype.kind == "c":  # each root near one of Numba's
            left = list(want)
            for g in got:
                d = [abs(g - w) for w in left]
                k = int(np.argmin(d))
                if d[k] > tol * max(1.0, abs(left[k])):
                    return False
                left.pop(k)
            return True
        return bool(np.allclose(np.sort(got), np.sort(want), rtol=tol,
                                atol=tol))
    if kernel == "polymul" and got.dtype.kind in "fc":
        err = np.abs(got.astype(np.complex128) - want)
        ok = (err <= bound(got, want, vals)) | (np.isnan(got) &
                                               np.isnan(want))
        ok |= np.isinf(want) & (got == want)
        # a NaN or inf coefficient: BLAS's order decides NaN or inf
        ok |= ~np.isfinite(want) & ~np.isfinite(got)
        return bool(np.all(ok))
    if not np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"):
        return False
    if got.dtype.kind in "fc":  # the signs of zeros too
        g = np.atleast_1d(got).view(np.float32 if got.dtype in
                                    (np.float32, np.complex64)
                                    else np.float64)
        w = np.atleast_1d(want).view(g.dtype)
        z = (w == 0)
        return bool(np.all(np.signbit(g[z]) == np.signbit(w[z])))
    return True


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    return check_cases(opt, FILE, binary_cases() + polyval_cases() +
                       polyint_cases() + trimseq_cases() + roots_cases() +
                       ctypes_cases(),
                       "nppoly", same)


if __name__ == "__main__":
    sys.exit(main())
