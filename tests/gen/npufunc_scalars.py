#!/usr/bin/env python3
"""Writes the Numba oracle for tests/test_npufunc.c: every kernel of
tests/kernels/npufunc_scalars.py (NumPy ufuncs called on scalars inside
@vectorize kernels), each of its loops, run by Numba on inputs that hunt
for the corner cases (NaN, infinities, signed zeros, the integers'
extremes, zero divisors), with what Numba gives.

    npufunc_scalars.py [-o OUT]      write the cases (stdout without -o)
    npufunc_scalars.py --check FILE  exit 1 unless FILE is what Numba gives

Format, one case per four lines (two-input kernels; three for one input):

    case KERNEL IN_DTYPE... -> OUT_DTYPE ulps K n N
    in0 V V ...
    in1 V V ...
    out V V ...

Values: ints in decimal, bools 0/1, floats as Python's repr (which
strtod reads back exactly; nan, inf, -0.0), complex numbers re:im. `ulps` is the
distance allowed for floats: 0 unless the kernel calls a libm function
that ufjit may compute with libmvec or libdevice. Left out, because
Numba's own answer is undefined there (a hardware trap or an LLVM
poison value): INT_MIN // -1 and % -1, shift counts outside [0, bits),
an exponent of INT_MIN, 1 / 0 converted to an int.

Exits 77 (CTest's skip code) when Numba is not installed.
"""
import argparse
import importlib.util
import io
import itertools
import math
import os
import sys
import warnings

try:
    import numpy as np
    import numba  # noqa: F401
except ImportError as exc:
    print("numba is not installed (%s): skipping" % exc, file=sys.stderr)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "..", "kernels", "npufunc_scalars.py")

INF, NAN = math.inf, math.nan
VALUES = {
    "bool": [False, True],
    "int8": [0, 1, -1, 2, -2, 3, 7, -7, 100, -100, 127, -128],
    "uint8": [0, 1, 2, 3, 7, 100, 200, 255],
    "int32": [0, 1, -1, 2, -3, 7, -7, 1000, -1000, 31, 2**31 - 1, -2**31],
    "int64": [0, 1, -1, 2, -3, 7, -7, 10**6, -10**6, 63, 2**63 - 1,
              -2**63],
    "uint64": [0, 1, 2, 3, 7, 10**6, 63, 2**63, 2**64 - 1],
    "float32": [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 7.0, -7.5, 0.1,
                NAN, INF, -INF, 1e30, 1e-40, 100.0],
    "float64": [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 7.0, -7.5, 0.1,
                NAN, INF, -INF, 1e300, 5e-324, 710.0],
    "complex128": [1 + 2j, 0j, complex(0.0, -0.0), -1.5 + 0.5j,
                   complex(NAN, 1.0), complex(INF, 0.0), 3 - 4j],
}
# kernels calling libm functions other than the exact ones
ULPS = {"np_power": 4, "np_float_power": 4, "np_logaddexp": 4,
        "np_logaddexp2": 4, "np_exp2": 4, "np_cbrt": 4, "np_arcsinh": 4,
        "np_arccosh": 4, "np_arctanh": 4, "np_alias_pow": 4,
        "np_alias_acos": 4, "np_alias_atan2": 4, "np_alias_atan_asinh": 4,
        "np_alias_hyperbolic": 4,
        "np_true_divide": 0}
DIVISIONS = {"np_floor_divide", "np_remainder", "np_mod", "np_fmod",
             "np_divmod_int"}
SHIFTS = {"np_left_shift", "np_right_shift"}
CHARS = {"?": "bool", "b": "int8", "B": "uint8", "h": "int16",
         "H": "uint16", "i": "int32", "I": "uint32", "l": "int64",
         "q": "int64", "L": "uint64", "Q": "uint64", "f": "float32",
         "d": "float64", "F": "complex64", "D": "complex128"}


def load():
    spec = importlib.util.spec_from_file_location("npufunc_scalars", KERNELS)
    mod = importlib.util.module_from_spec(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        spec.loader.exec_module(mod)
    names = []
    with open(KERNELS) as f:
        for line in f:
            if line.startswith("def "):
                names.append(line[4:line.index("(")])
    return mod, names


def keep(name, dts, args):
    if name in DIVISIONS and dts[0] in ("int8", "int32", "int64"):
        lo = np.iinfo(dts[0]).min
        if args[0] == lo and args[1] == -1:
            return False
    if name in SHIFTS:
        bits = np.dtype(dts[0]).itemsize * 8
        if not 0 <= args[1] < bits:
            return False
    if name in ("np_power", "np_alias_pow") and dts[1] in ("int8", "int64"):
        if args[1] == np.iinfo(dts[1]).min:
            return False
    # Numba's np.fmod of signed ints is an unsigned remainder (npyfuncs:
    # np_int_fmod_impl = np_int_urem_impl); ufjit keeps NumPy's C fmod
    if name == "np_fmod" and dts[0] in ("int8", "int32", "int64"):
        if args[0] < 0 or args[1] < 0:
            return False
    # Numba's lcm of uint64 goes through float64 (uint64 // int64)
    if name == "np_lcm" and dts[0] == "uint64" and max(args) > 2**53:
        return False
    return True


def exact_power(name, dts, args, got):
    """Numba's integer power returns through float64 (its int_power
    unifies int and float returns), rounding results past 2**53; ufjit
    wraps exactly as NumPy: such rows are left out."""
    if name not in ("np_power", "np_alias_pow") or dts[0] in ("float32",
                                                               "float64"):
        return True
    if not isinstance(got, int):
        return True
    x, y = (int(v) for v in args)
    if y < 0:
        return True
    bits = np.dtype(dts[0]).itemsize * 8
    w = pow(x, y, 1 << bits)
    if np.dtype(dts[0]).kind == "i" and w >= 1 << (bits - 1):
        w -= 1 << bits
    return int(got) == w


def fmt(v, dt):
    if dt == "bool":
        return "1" if v else "0"
    if dt.startswith("float"):
        return repr(float(v))  # exact: strtod reads it back bit for bit
    if dt.startswith("complex"):
        part = "float32" if dt == "complex64" else "float64"
        return fmt(v.real, part) + ":" + fmt(v.imag, part)
    return str(int(v))


def cases(out):
    mod, names = load()
    np.seterr(all="ignore")
    out.write("# generated by tests/gen/npufunc_scalars.py with Numba %s, "
              "NumPy %s\n" % (numba.__version__, np.__version__))
    for name in names:
        uf = getattr(mod, name)
        for loop in uf.types:
            ins, res = loop.split("->")
            dts = [CHARS[c] for c in ins]
            rows = [a for a in itertools.product(*(VALUES[d] for d in dts))
                    if keep(name, dts, a)]
            arrays = [np.array([r[i] for r in rows], dtype=dts[i])
                      for i in range(len(dts))]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = uf(*arrays)
            ok = [exact_power(name, dts, r, g)
                  for r, g in zip(rows, got.tolist())]
            if not all(ok):
                rows = [r for r, k in zip(rows, ok) if k]
                arrays = [a[np.array(ok)] for a in arrays]
                got = got[np.array(ok)]
            rdt = str(got.dtype)
            out.write("case %s %s -> %s ulps %d n %d\n" % (
                name, " ".join(dts), rdt, ULPS.get(name, 0), len(rows)))
            for i, a in enumerate(arrays):
                out.write("in%d %s\n" % (i, " ".join(fmt(v, dts[i])
                                                    for v in a.tolist())))
            out.write("out %s\n" % " ".join(fmt(v, rdt)
                                           for v in got.tolist()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o")
    ap.add_argument("--check")
    a = ap.parse_args()
    buf = io.StringIO()
    cases(buf)
    text = buf.getvalue()
    if a.check:
        with open(a.check) as f:
            old = f.read()
        drop = lambda t: t.split("\n", 1)[1]  # the version header
        if drop(old) != drop(text):
            print("%s differs from what Numba gives now" % a.check,
                  file=sys.stderr)
            return 1
        return 0
    if a.o:
        with open(a.o, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
