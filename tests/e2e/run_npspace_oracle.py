#!/usr/bin/env python3
"""np.logspace, np.geomspace and np.kaiser inside kernels
(tests/kernels/host/npspace.py) against Numba: each case runs through
`ufjit call` and through Numba on the same inputs; dtype and shape must
agree and every element bit for bit (NaN equal to NaN, the sign of a zero
compared): ufjit computes them operation by operation as Numba does, with
the same C library's pow, log10, exp, sqrt, hypot, atan2 and complex
power. Int, float and complex bounds of several widths, num 0, 1, 2 and
negative, NaN and infinite bounds, geomspace's zero, negative and
imaginary bounds; kaiser's M < 1, 1, 2, odd and even, beta 0, at the
series' switch (8), big (an overflowing exp), NaN and inf. Where Numba
raises, ufjit fails with the same exception; what Numba refuses compiling
ufjit refuses at the kernel's FILE:LINE:COL.

    run_npspace_oracle.py UFJIT [-k TEXT] [-v]
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
from corpus import S, f8  # noqa: E402
from oracle_util import check_cases, options  # noqa: E402

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host", "npspace.py")

# (start, stop) pairs both functions take; num added below
BOUNDS = [
    ("0", "10"), ("0.0", "3.0"), ("-2", "2"), ("2.5", "-1.25"),
    ("1", "1000"), ("3", "3"), ("float32:0.1", "float32:2.7"),
    ("int8:-3", "int8:4"), ("uint8:2", "uint8:200"), ("int32:5", "1.5"),
    ("uint64:7", "uint64:18446744073709551615"), ("nan", "2.0"),
    ("1.0", "inf"), ("-inf", "1.0"), ("inf", "inf"), ("1e-300", "1e300"),
    ("1+2j", "3-1j"), ("complex64:1+1j", "float32:3"), ("2", "3j"),
    ("0.5", "complex64:-2+0.5j"), ("complex128:inf+0j", "1j"),
    ("complex64:1e30+1e30j", "complex64:-1e-30+2j"),
]
# geomspace's own: signs, zeros, imaginary and mixed bounds
GEO = [
    ("-1", "-1000"), ("-1", "1000"), ("1", "-1000"), ("-2.5", "-0.001"),
    ("int8:-100", "int8:-2"), ("int64:-9223372036854775808", "-1"),
    ("float32:-2", "float32:-100"), ("1j", "1000j"), ("-1j", "-1000j"),
    ("-1+0j", "-1000+0j"), ("complex64:-1-1j", "complex64:-4-4j"),
    ("nan", "nan"), ("-inf", "-1.0"), ("1e-320", "1e308"),
    ("complex64:1e-30+1e-30j", "int16:3"),
]
NUMS = ["0", "1", "2", "5", "int8:7", "uint16:50", "1000"]


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "refused": Numba fails compiling where ufjit refuses)."""
    out = []
    for k in ("logspace", "geomspace"):
        for a, b in BOUNDS + (GEO if k == "geomspace" else []):
            zero = k == "geomspace" and complex(S(a).materialise(
                None, None)[0]) * complex(S(b).materialise(None, None)[0]) == 0
            for n in NUMS if (a, b) == ("0", "10") else ("1", "2", "7"):
                out.append((k, [S(a), S(b), S(n)],
                            "ValueError" if zero else None))
        out += [
            (k, [S("1.0"), S("2.0"), S("-1")], "ValueError"),
            (k, [S("1.0"), S("2.0"), S("2.0")], "TypingError"),
            (k, [S("1.0"), S("2.0"), S("true")], "TypingError"),
            (k, [S("true"), S("2.0"), S("3")], "TypingError"),
            (k, [f8(3), S("2.0"), S("3")], "TypingError"),
            (k + "_default", [S("1.0"), S("5")], None),
            (k + "_default", [S("-1j"), S("5j")], None),
            (k + "_kw", [S("1.5"), S("-0.5"), S("9")], None),
        ]
    out += [
        ("geomspace", [S("0"), S("5"), S("3")], "ValueError"),
        ("geomspace", [S("5.0"), S("-0.0"), S("3")], "ValueError"),
        ("geomspace", [S("0j"), S("5"), S("3")], "ValueError"),
        ("geomspace", [S("3"), S("complex64:0"), S("0")], "ValueError"),
        ("geomspace", [S("0"), S("5"), S("-1")], "ValueError"),
        ("geomspace_default", [S("0.0"), S("5")], "ValueError"),
        ("logspace_base", [S("1.0"), S("2.0")], "TypingError"),
        ("geomspace_endpoint", [S("1.0"), S("2.0")], "TypingError"),
        ("spaces_in_loop", [S("12")], None),
    ]
    for m in ("-3", "0", "1", "2", "3", "4", "5", "12", "51", "1000",
              "int8:7", "int32:-1", "int16:6"):
        for beta in ("0", "14.0", "0.5", "-3.0", "8.0", "4", "100.0",
                     "float32:3.5"):
            out.append(("kaiser", [S(m), S(beta)], None))
    for beta in ("700.0", "nan", "inf", "-inf", "1e-300", "int8:-9",
                 "uint64:18446744073709551615", "16.000000000000004"):
        out.append(("kaiser", [S("9"), S(beta)], None))
    return out + [
        ("kaiser_kw", [S("8"), S("2.5")], None),
        ("kaiser_in_loop", [S("20")], None),
        ("kaiser", [S("uint8:5"), S("1.0")], "refused"),
        ("kaiser", [S("5.0"), S("1.0")], "TypingError"),
        ("kaiser", [S("true"), S("1.0")], "TypingError"),
        ("kaiser", [S("5"), S("true")], "TypingError"),
        ("kaiser", [S("5"), S("1j")], "TypingError"),
        ("kaiser", [f8(3), S("1.0")], "TypingError"),
    ]


def bits_equal(x, y):
    """Element for element the same float: NaNs equal, zeros by sign."""
    return bool(np.all(((x == y) & (np.signbit(x) == np.signbit(y))) |
                       (np.isnan(x) & np.isnan(y))))


# float64 np.logspace / np.geomspace: pow may be libmvec's vector pow
# where the loop is vectorised (glibc: within 4 ulps); complex and
# np.kaiser bit for bit
ULPS = 4
WORST = [0]


def ulps_off(got, want):
    """The largest distance in ulps of want between finite elements."""
    ok = np.isfinite(got) & np.isfinite(want) & (got != want)
    if not ok.any():
        return 0
    return int(np.max(np.abs(got[ok] - want[ok]) / np.spacing(np.abs(
        want[ok]))))


def same(got, want, kernel):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind == "f" and "space" in kernel:
        off = ulps_off(got, want)
        WORST[0] = max(WORST[0], off)
        rest = (got == want) | ~np.isfinite(want)
        return off <= ULPS and bits_equal(got[rest], want[rest])
    if got.dtype.kind == "c":
        return (bits_equal(got.real, want.real) and
                bits_equal(got.imag, want.imag))
    if got.dtype.kind == "f":
        return bits_equal(got, want)
    return np.array_equal(got, want)


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    rc = check_cases(opt, FILE, cases(), "npspace", same)
    if opt.verbose:
        print(f"largest distance of a float64 space: {WORST[0]} ulps")
    return rc


if __name__ == "__main__":
    sys.exit(main())
