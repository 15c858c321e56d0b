#!/usr/bin/env python3
"""Writes what Numba's type inference gives for small kernels: the oracle
for tests/test_infer.c (ufjit's compiler/infer*.c must agree).

    numba_infer.py [-o OUT]       write the cases (stdout without -o)
    numba_infer.py --check FILE   exit 1 unless FILE equals Numba's answers
    numba_infer.py --compare OLD NEW
                                  exit 1 unless two tables agree (the
                                  version header aside), without typing

Every case is one kernel file whose function `f` is typed for one
argument list, the way Numba types an @njit function (its type inference
stage only, which is what ufjit reproduces):

    case ID (ARG, ...)
    | source line            (the whole file, prefix "| ")
    ret TYPE                 the return type, or
    error MESSAGE            Numba refuses the kernel (first line only)
    var NAME TYPE            every named variable; Numba's SSA versions of
                             a name (x, x.1, ...) unified into one ("-"
                             when they do not unify), compared with the
                             unification of ufjit's versions of the name
    end

Types are written as Numba prints them with literal types removed
(Literal[int](1) -> int64). The cases are: every builtin and math/cmath/
NumPy function of the kernel language on each scalar type, the two-
argument builtins on pairs of types, and hand-written kernels for
statements, joins, loops, tuples, calls, arrays and module constants.

Exits 77 (CTest's skip code) when Numba is not installed.
"""
import argparse
import io
import re
import sys
import warnings

try:
    import math
    import cmath
    import numpy as np
    import numba
    from numba.core import compiler, types
    from numba.core.registry import cpu_target
    from numba.core.typed_passes import type_inference_stage
    from numba.core import postproc
    from numba.core.ir_utils import build_definitions
    from numba.core.ssa import reconstruct_ssa
except ImportError as exc:
    print("numba is not installed (%s): skipping" % exc, file=sys.stderr)
    sys.exit(77)

HEADER = """import math
import cmath
import numpy as np
import numba
from numba import njit, float32, float64, int8, int16, int32, int64, uint8
"""

SCALARS = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
           "int64", "uint64", "float32", "float64", "complex64",
           "complex128"]

# One argument `a`, every scalar type: one expression per typing template
# (Numba's template decides the typing, so its other functions follow).
UNARY = [
    "abs(a)", "round(a)", "round(a, 2)", "int(a)", "float(a)", "bool(a)",
    "complex(a)", "-a", "~a", "not a", "a.real", "a.imag",
    "a.conjugate()", "float32(a)", "np.int8(a)", "numba.complex64(a)",
    "min(a, a)", "max(a, 1)", "max((a, a))", "pow(a, 2)",
    "divmod(a, a)",
    "math.sin(a)", "math.floor(a)", "math.isnan(a)", "math.copysign(a, a)",
    "math.atan2(a, a)", "math.pow(a, a)", "math.pow(a, 2)",
    "np.sin(a)", "np.abs(a)", "np.fabs(a)", "np.floor(a)", "np.rint(a)",
    "np.sign(a)", "np.square(a)", "np.isnan(a)", "np.deg2rad(a)",
    "np.real(a)", "np.conj(a)", "np.power(a, a)", "np.minimum(a, a)",
    "np.arctan2(a, a)", "np.fmod(a, a)",
    "cmath.sqrt(a)", "cmath.isnan(a)", "cmath.phase(a)", "cmath.polar(a)",
]
# The other functions of each template on a few types.
FAMILY = [
    "+a", "np.float64(a)", "np.imag(a)",
    "math.cos(a)", "math.tan(a)", "math.asin(a)", "math.acos(a)",
    "math.atan(a)", "math.sinh(a)", "math.cosh(a)", "math.tanh(a)",
    "math.asinh(a)", "math.acosh(a)", "math.atanh(a)", "math.exp(a)",
    "math.expm1(a)", "math.log(a)", "math.log1p(a)", "math.log2(a)",
    "math.log10(a)", "math.sqrt(a)", "math.fabs(a)", "math.erf(a)",
    "math.erfc(a)", "math.gamma(a)", "math.lgamma(a)", "math.degrees(a)",
    "math.radians(a)", "math.ceil(a)", "math.trunc(a)", "math.isinf(a)",
    "math.isfinite(a)", "math.hypot(a, a)",
    "np.cos(a)", "np.tan(a)", "np.arcsin(a)", "np.arccos(a)",
    "np.arctan(a)", "np.sinh(a)", "np.cosh(a)", "np.tanh(a)", "np.exp(a)",
    "np.expm1(a)", "np.log(a)", "np.log1p(a)", "np.log2(a)",
    "np.log10(a)", "np.sqrt(a)", "np.absolute(a)", "np.ceil(a)",
    "np.trunc(a)", "np.isinf(a)", "np.isfinite(a)", "np.rad2deg(a)",
    "np.maximum(a, a)", "np.fmin(a, a)", "np.fmax(a, a)", "np.hypot(a, a)",
    "np.copysign(a, a)", "cmath.exp(a)", "cmath.log(a)", "cmath.isinf(a)",
    "cmath.isfinite(a)", "cmath.rect(a, a)", "cmath.log(a, a)",
    "math.log(a, a)", "a + 18446744073709551615",
    # the NumPy ufuncs of infer_npufunc.c
    "np.add(a, a)", "np.subtract(a, a)", "np.multiply(a, a)",
    "np.true_divide(a, a)", "np.divide(a, a)", "np.floor_divide(a, a)",
    "np.remainder(a, a)", "np.mod(a, a)", "np.divmod(a, a)",
    "np.negative(a)", "np.positive(a)", "np.float_power(a, a)",
    "np.reciprocal(a)", "np.logaddexp(a, a)", "np.logaddexp2(a, a)",
    "np.exp2(a)", "np.cbrt(a)", "np.arcsinh(a)", "np.arccosh(a)",
    "np.arctanh(a)", "np.degrees(a)", "np.radians(a)", "np.gcd(a, a)",
    "np.lcm(a, a)", "np.bitwise_and(a, a)", "np.bitwise_or(a, a)",
    "np.bitwise_xor(a, a)", "np.invert(a)", "np.bitwise_not(a)",
    "np.left_shift(a, a)", "np.right_shift(a, a)", "np.greater(a, a)",
    "np.greater_equal(a, a)", "np.less(a, a)", "np.less_equal(a, a)",
    "np.equal(a, a)", "np.not_equal(a, a)", "np.logical_and(a, a)",
    "np.logical_or(a, a)", "np.logical_xor(a, a)", "np.logical_not(a)",
    "np.signbit(a)", "np.nextafter(a, a)", "np.spacing(a)",
    "np.ldexp(a, a)", "np.conjugate(a)", "np.pow(a, a)", "np.acos(a)",
]
FAMILY_TYPES_EXTRA = ["float64", "complex128"]
FAMILY_TYPES = ["bool", "int16", "uint64", "float32", "complex64"]
PAIR_TYPES = ["bool", "uint8", "int32", "uint64", "float32", "complex128"]
# Two arguments `a`, `b` of every pair of PAIR_TYPES.
BINARY = [
    "min(a, b)", "max(a, b, 1.0)", "math.atan2(a, b)", "math.pow(a, b)",
    "np.power(a, b)", "np.minimum(a, b)", "np.arctan2(a, b)",
    "complex(a, b)", "a and b", "a if a else b", "a < b < 1",
    "np.add(a, b)", "np.true_divide(a, b)", "np.greater(a, b)",
    "np.ldexp(a, b)", "np.left_shift(a, b)", "np.logical_xor(a, b)",
]

# Hand-written kernels: (source, [argument lists]).
PROGRAMS = [
    ("""
@njit
def f(a, b, c):
    if c:
        r = a
    else:
        r = b
    return r
""", ["float32, float32, bool", "float32, float64, bool",
      "float32, int32, bool", "int32, uint32, bool", "int64, uint64, bool"]),
    ("""
@njit
def f(n):
    acc = 0
    for i in range(n):
        acc += 0.5
    return acc
""", ["int64", "int32", "uint64", "int8"]),
    ("""
@njit
def f(n, x):
    acc = 0
    i = 0
    while i < n:
        acc = acc + x
        i += 1
        if acc > 100:
            break
    return acc, i
""", ["int64, float32", "int32, int16", "uint8, complex64"]),
    ("""
@njit
def f(a, b):
    s = 0
    for i in range(a, b, 2):
        if i % 3 == 0:
            continue
        s += i * i
    else:
        s -= 1
    return s
""", ["int64, int64", "int32, int32", "int32, int64", "uint32, uint32",
      "int16, int8"]),
    ("""
@njit
def g(x, y):
    return math.hypot(x, y), math.atan2(y, x)

@njit
def f(a, b):
    r, t = g(a, b)
    return r * t
""", ["float32, float32", "float64, float32", "int32, int32"]),
    ("""
@njit
def g(x):
    return x * 2

@njit
def f(a):
    return g(a) + g(1.5) + g(a + 1)
""", ["int32", "float32", "complex64"]),
    ("""
@njit
def f(a, b):
    q, r = divmod(a, b)
    t = (q, r, a / b)
    u, v, w = t
    return t, u + v + w
""", ["int64, int64", "float32, float32", "uint8, int8"]),
    ("""
@njit
def f(x, y):
    z = complex(x, y)
    w = z * z.conjugate()
    return w.real + abs(z), z.imag
""", ["float32, float32", "float64, float32", "int64, int64"]),
    ("""
@njit
def f(a, i, j):
    s = a[i, j] + a.shape[0] + a.size + a.ndim + len(a)
    row = a[i]
    return s, row[j], a.shape
""", ["float64[:, :], int64, int64", "float32[:, ::1], int32, uint8",
      "int16[::1, :], int64, int64"]),
    ("""
@njit
def f(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * 2
    out[0] += 1
""", ["float64[:], float64[:]", "int32[:], float32[:]"]),
    ("""
SQRT_2PI = float32((2 * math.pi) ** 0.5)
N = 10
EPS = 1e-6
BIG = np.float64(3) * 2
FLAG = True

@njit
def f(x):
    y = x * SQRT_2PI + N * EPS
    if FLAG:
        y = y + BIG
    return y
""", ["float32", "float64", "int64"]),
    ("""
@njit
def f(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * 2.5066)
""", ["float32, float32, float32", "float64, float64, float64",
      "int32, int32, int32"]),
    ("""
@njit
def f(a, b):
    d = abs(a - b) / ((abs(a) + abs(b)) / 2)
    return d
""", ["float32, float32", "int64, int64", "uint8, uint8", "complex64, complex64"]),
    ("""
@njit
def f(a, b):
    x = a if a > b else b
    y = a and b
    z = not a or b
    w = 0 <= a < b <= 10
    return x, y, z, w
""", ["int32, float32", "bool, int8", "float64, uint64"]),
    ("""
@njit
def f(a):
    x = a
    x = x * 2.5
    y = x // 2
    return y
""", ["int64", "float32", "uint16"]),
    ("""
@njit
def f(a, b):
    if a > b:
        return a
    return b
""", ["float32, int32", "int8, uint8", "float32, float32"]),
    ("""
@njit
def f(n):
    x = 1
    y = 0.0
    for i in range(n):
        for j in range(i):
            y += x * j
            x = x * 2
    return x, y
""", ["int64", "int32"]),
    ("""
@njit
def f(a):
    t = (a, 2 * a)
    m = max(t)
    k = t[1] + t[-1]
    return m + k, len(t)
""", ["int32", "float32", "uint64"]),
    ("""
@njit
def f(a):
    i = np.int32(a)
    u = numba.uint8(a)
    c = int64(a) + int8(a)
    return i + u, c, float32(a) + float64(a)
""", ["float64", "int16", "bool"]),
    ("""
@njit
def f(a):
    pass
""", ["float64", "int32"]),
    ("""
@njit
def f(a):
    if a > 0:
        return
    return None
""", ["float64"]),
    ("""
@njit
def f(n):
    x = False
    y = 0.0
    for i in range(n):
        y = float(x)
        x = i
    return y
""", ["int64", "int16"]),
    ("""
@njit
def f(n):
    x = 0
    for i in range(n):
        if i > 0:
            y = z * 2
        z = x
        x = x + 0.5
    return x
""", ["int64"]),
    # SSA versions: each keeps its own type, only joins unify
    ("""
@njit
def f(c):
    x = 1
    y = x // 2
    if c:
        x = 2.5
    return y, x
""", ["bool"]),
    ("""
@njit
def f(n):
    s = 7
    y = s // 2
    s += 0.5
    return y, s
""", ["int64"]),
    ("""
@njit
def f(n):
    t = 3
    u = t * 2
    for i in range(n):
        t = t + 1.5
    v = t
    t = (1, 2)
    return u, v, t
""", ["int64"]),
    ("""
@njit
def g(x, y):
    return x - y

@njit
def f(a, b):
    return g(y=a, x=b) + g(a, y=1)
""", ["int64, float32", "uint8, uint8"]),
    ("""
@njit
def f(a, b):
    m = max(a, b, 1.0)
    n = min(a, b)
    r = round(m, 1) + round(n)
    return r, pow(a, b), abs(b)
""", ["float32, float32", "int32, int8", "uint16, float32"]),
    # the seeds' kernels
    ("""
@njit
def f(x, y):
    x = abs(x)
    y = abs(y)
    t = min(x, y)
    x = max(x, y)
    t = t / x
    return x * math.sqrt(1 + t * t)
""", ["float32, float32", "float64, float64", "int64, int64"]),
    ("""
@njit
def f(x, y):
    return 2 * (x - y) / (x + y)
""", ["float32, float32", "float64, float64", "int32, int32"]),
    ("""
@njit
def polar(x, y):
    return math.hypot(x, y), math.atan2(y, x)

@njit
def f(x1, y1, x2, y2):
    r1, t1 = polar(x1, y1)
    r2, t2 = polar(x2, y2)
    return math.sqrt(r1 ** 2 + r2 ** 2 - 2 * r1 * r2 * math.cos(t1 - t2))
""", ["float32, float32, float32, float32", "float64, float64, float64, float64"]),
    ("""
@njit
def f(a, b):
    if a > b:
        r = a
    else:
        r = 10
    return r
""", ["float32, int32", "int64, int64"]),
    # refused by Numba: the same kernels must be refused by ufjit
    ("""
@njit
def f(a, c):
    if c:
        x = a
    else:
        x = (a, a)
    return x
""", ["float32, bool"]),
    ("""
@njit
def f(a, c):
    if c:
        return a
    return (a, a)
""", ["int64, bool"]),
    ("""
@njit
def f(a):
    return math.fmod2(a)
""", ["float64"]),
    ("""
@njit
def f(a):
    return math.sin(a, a)
""", ["float64"]),
    ("""
def g(x):
    return x

@njit
def f(a):
    return g(a)
""", ["float64"]),
    ("""
@njit
def f(a):
    return undefined_name + a
""", ["float64"]),
    ("""
@njit
def f(a, b):
    return a[b]
""", ["float64[:], float64"]),
]


def parse_args(text):
    """'float32[:, ::1], int64' -> numba types"""
    out = []
    for part in re.split(r",\s*(?![^\[]*\])", text.strip()):
        m = re.fullmatch(r"(\w+)(\[(.*)\])?", part.strip())
        name, dims = m.group(1), m.group(3)
        dt = types.boolean if name == "bool" else getattr(types, name)
        if dims is None:
            out.append(dt)
            continue
        ds = [d.strip() for d in dims.split(",")]
        layout = "A"
        if ds[-1] == "::1":
            layout = "C"
        elif ds[0] == "::1" and len(ds) > 1:
            layout = "F"
        elif ds == ["::1"]:
            layout = "C"
        out.append(types.Array(dt, len(ds), layout))
    return tuple(out)


def tstr(t):
    return str(types.unliteral(t))


# Numba's typing accepts these on complex numbers but its lowering then
# fails ("Cannot cast complex128 to float32"): such cases are compiled in
# full to record what Numba really does.
LOWERING_CHECK = ["float32(a)", "np.int8(a)", "np.float64(a)",
                  "complex(a, b)"]


def needs_lowering(source, argtext):
    return "complex" in argtext and any(
        "return %s\n" % e in source for e in LOWERING_CHECK)


def ssa_ir(func_ir):
    """The IR in SSA form, as Numba's nopython pipeline types it (its
    ReconstructSSA pass): each assignment of a name is a version of its own
    type, and only the joins (phi nodes) unify the versions reaching them."""
    func_ir = reconstruct_ssa(func_ir)
    func_ir._definitions = build_definitions(func_ir.blocks)
    postproc.PostProcessor(func_ir).run(emit_dels=False)
    return func_ir


def type_case(tyctx, tgctx, source, argtext):
    g = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(source, "kernels.py", "exec"), g)
        fn = g["f"]
        fn = getattr(fn, "py_func", fn)
        try:
            interp = ssa_ir(compiler.run_frontend(fn))
            res = type_inference_stage(tyctx, tgctx, interp,
                                       parse_args(argtext), None)
            if needs_lowering(source, argtext):
                numba.njit(parse_args(argtext))(fn)
        except Exception as exc:  # Numba's TypingError and friends
            msg = re.sub(r"\x1b\[[0-9;]*m", "", str(exc)).strip()
            msg = re.sub(r" at 0x[0-9a-f]+", "", msg)
            line = msg.splitlines()[0] if msg else type(exc).__name__
            return ("error", line[:150]), []
    byname = {}
    for name, t in res.typemap.items():
        if name.startswith("$") or name.startswith("arg."):
            continue
        base = name.split(".")[0]
        byname.setdefault(base, []).append(types.unliteral(t))
    vars_ = []
    for base in sorted(byname):
        ts = byname[base]
        u = ts[0]
        for t in ts[1:]:
            u = tyctx.unify_pairs(u, t)
            if u is None:
                break
        vars_.append((base, "-" if u is None else str(u)))
    return ("ret", tstr(res.return_type)), vars_


def cases():
    n = 0
    for expr in UNARY:
        for t in SCALARS:
            n += 1
            yield ("u%d" % n, HEADER + "\n@njit\ndef f(a):\n    return %s\n"
                   % expr, t)
    for expr in FAMILY:
        for t in FAMILY_TYPES + (FAMILY_TYPES_EXTRA if "cmath" in expr or
                                 "log(a, a)" in expr else []):
            n += 1
            yield ("m%d" % n, HEADER + "\n@njit\ndef f(a):\n    return %s\n"
                   % expr, t)
    for expr in BINARY:
        for a in PAIR_TYPES:
            for b in PAIR_TYPES:
                n += 1
                yield ("b%d" % n, HEADER + "\n@njit\ndef f(a, b):\n    "
                       "return %s\n" % expr, "%s, %s" % (a, b))
    for src, arglists in PROGRAMS:
        for args in arglists:
            n += 1
            yield ("p%d" % n, HEADER + src, args)


def one(case):
    cid, src, args = case
    tyctx = cpu_target.typing_context
    tgctx = cpu_target.target_context
    return type_case(tyctx, tgctx, src, args)


def generate():
    cpu_target.typing_context.refresh()
    cpu_target.target_context.refresh()
    all_cases = list(cases())
    # two workers: typing ~1300 kernels takes seconds, not minutes
    try:
        import multiprocessing
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(2) as pool:
            results = pool.map(one, all_cases, chunksize=32)
    except (ImportError, OSError, ValueError):
        results = [one(c) for c in all_cases]
    out = io.StringIO()
    out.write("# Numba's type inference, generated by tests/gen/numba_infer.py "
              "from Numba %s; do not edit\n" % numba.__version__)
    for (cid, src, args), ((kind, val), vars_) in zip(all_cases, results):
        n = len(parse_args(args))
        out.write("case %s (%s%s)\n" % (cid, args, "," if n == 1 else ""))
        for line in src.rstrip("\n").split("\n"):
            out.write("| %s\n" % line if line else "|\n")
        out.write("%s %s\n" % (kind, val))
        for name, t in vars_:
            out.write("var %s %s\n" % (name, t))
        out.write("end\n")
    return out.getvalue()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", dest="out")
    ap.add_argument("--check", metavar="FILE")
    ap.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    a = ap.parse_args()
    if a.compare:
        with open(a.compare[1]) as f:
            text = f.read()
        a.check = a.compare[0]
    else:
        text = generate()
    if a.check:
        with open(a.check) as f:
            old = f.read()
        # the header names the Numba version; compare the cases only
        strip = lambda s: s.split("\n", 1)[1]
        if strip(old) != strip(text):
            print("%s differs from what Numba %s gives: regenerate it with "
                  "%s -o %s" % (a.check, numba.__version__, sys.argv[0],
                                a.check), file=sys.stderr)
            return 1
        return 0
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
