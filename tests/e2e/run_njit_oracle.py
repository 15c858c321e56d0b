#!/usr/bin/env python3
"""Plain njit functions and arrays inside kernels, against Numba: every
case below runs through `ufjit call` and through Numba's njit on the same
inputs (tests/kernels/arrays_*.py and njit_*.py), and the results must
agree in dtype and value bit for bit; where Numba raises, ufjit must fail
with the same Python exception and the message the case gives. Cases that
ufjit refuses on purpose (fancy indexing, array arithmetic) check the
message and its FILE:LINE:COL.

    run_njit_oracle.py UFJIT [-k TEXT] [-v] [--keep]
        the cases through `ufjit call` and Numba (exit 77 without Numba)
    run_njit_oracle.py --write FILE
        writes the table tests/test_plain_call.c reads (inputs and Numba's
        results, exact): tests/data/njit_oracle.txt
    run_njit_oracle.py --check FILE
        exit 1 unless FILE equals the table Numba gives now

Cases with env UFJIT_DEBUG=1 run ufjit with bounds checking; Numba runs
the same function compiled with boundscheck=True.
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
import zlib

sys.dont_write_bytecode = True  # nothing written into the source tree

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import S, b1, c16, f4, f8, i4, i8, u1  # noqa: E402
import oracle_util  # noqa: E402
from oracle_record import Record  # noqa: E402

KERNELS = os.path.join(os.path.dirname(HERE), "kernels")
AI, NF = "arrays_index.py", "njit_funcs.py"
IB = "iter_builtins.py"
DEBUG = {"UFJIT_DEBUG": "1"}


class Case:
    """`kernel(*inputs)` in ufjit and Numba. `raises`: the fragment ufjit's
    message must contain when Numba raises."""

    def __init__(self, file, kernel, inputs, env=None, raises=None,
                 nout=1):
        self.file, self.kernel, self.inputs = file, kernel, inputs
        self.env, self.raises, self.nout = env or {}, raises, nout
        self.id = None

    kind = "case"


class Refused:
    """ufjit refuses the kernel at compile time (Numba accepts it):
    `fragment` in the message, at (line, col) of the kernel file."""

    def __init__(self, file, kernel, inputs, fragment, where):
        self.file, self.kernel, self.inputs = file, kernel, inputs
        self.fragment, self.where = fragment, where
        self.env, self.id = {}, None

    kind = "refused"


def oob(i, axis, size, fn, line):
    """The IndexError message; {path} stands for the kernel file's name as
    given to ufjit."""
    return (f"IndexError: index {i} is out of bounds for axis {axis} with "
            f"size {size} (in '{fn}' at {{path}}:{line})")


def cases():
    m34 = f8(3, 4)
    r = [
        # seed 001's sum2d: C, F, reversed/strided views, empty, 1 x n
        Case(AI, "sum2d", [m34]),
        Case(AI, "sum2d", [m34.F]),
        Case(AI, "sum2d", [f8(5, 6).view("::-1, 1::2")]),
        Case(AI, "sum2d", [f8(5, 6).F.view("::-2, ::-1")]),
        Case(AI, "sum2d", [i8(4, 3)]),
        Case(AI, "sum2d", [f8(0, 3)]),
        Case(AI, "sum2d", [f8(3, 0)]),
        Case(AI, "use_sum2d", [m34, f8(2, 2).F]),
        Case(AI, "first_last", [i4(6)]),
        Case(AI, "first_last", [f8(7).view("::-2")]),
        Case(AI, "get1", [i8(5), S("-1")]),
        Case(AI, "get1", [i8(5), S("int32:-5")]),
        Case(AI, "get1", [i8(5), S("uint8:4")]),
        Case(AI, "get1", [u1(9).view("2::3"), S("2")]),
        Case(AI, "get2", [m34, S("-1"), S("-4")]),
        Case(AI, "get2", [m34.F.view("::-1"), S("0"), S("int8:3")]),
        Case(AI, "get3", [i8(2, 3, 4), S("1"), S("-1"), S("2")]),
        Case(AI, "get3", [i8(2, 3, 4).F.view("::-1, :, 1:"), S("0"),
                          S("1"), S("-1")]),
        Case(AI, "get_by_tuple", [m34, S("-1"), S("2")]),
        Case(AI, "attrs", [f8(2, 3, 4)]),
        Case(AI, "attrs", [f8(0, 5)]),
        Case(AI, "attrs", [f8(6).view("::-1")]),
        Case(AI, "shape3", [f4(2, 3, 4).F]),
        Case(AI, "row_sums", [m34]),
        Case(AI, "row_sums", [m34.F.view("::-1, ::2")]),
        Case(AI, "iter_rows", [f8(3, 5)]),
        Case(AI, "iter_rows", [f8(3, 5).F.view(":, ::-1")]),
        Case(AI, "iter_rows", [f8(0, 5)]),
        Case(AI, "count_true", [b1(11)]),
        Case(AI, "count_true", [b1(11).view("::-3")]),
        Case(AI, "csum", [c16(5)]),
        Case(AI, "dot", [f8(9), f4(9)]),
        Case(AI, "dot", [f8(9).view("::-1"), i8(18).view("::2")]),
        Case(AI, "fill_ramp", [f8(5), S("2.5")]),
        Case(AI, "fill_ramp", [i4(5).view("::-1"), S("3")]),
        Case(AI, "aug_ops", [i8(6, lo=1, hi=9)]),
        Case(AI, "aug_ops", [f8(6)]),
        Case(AI, "swap", [i8(5), S("0"), S("-1")]),
        Case(AI, "write2", [i8(3, 4)]),
        Case(AI, "write2", [i8(3, 4).F.view("::-1, 1:")]),
        Case(AI, "store_bool", [b1(7)]),
        Case(AI, "matvec_check", [m34, f8(4), f8(3)]),
        Case(AI, "matvec_check", [m34.F, f8(8).view("::2"), f8(3)]),
        Case(AI, "calls_checked", [i8(4), S("3")]),
        # bounds checking: boundscheck=True, and UFJIT_DEBUG=1
        Case(AI, "get1_checked", [i8(4), S("4")], raises=oob(4, 0, 4,
                                                            "get1_checked",
                                                            171)),
        Case(AI, "get1_checked", [i8(4), S("-5")],
             raises=oob(-5, 0, 4, "get1_checked", 171)),
        Case(AI, "get1_checked", [i8(4), S("-4")]),
        Case(AI, "get1_checked", [f8(0), S("0")],
             raises=oob(0, 0, 0, "get1_checked", 171)),
        Case(AI, "set2_checked", [m34, S("2"), S("4")],
             raises=oob(4, 1, 4, "set2_checked", 176)),
        Case(AI, "set2_checked", [m34.F, S("-4"), S("0")],
             raises=oob(-4, 0, 3, "set2_checked", 176)),
        Case(AI, "tuple_checked", [m34, S("-2")]),
        Case(AI, "tuple_checked", [m34, S("2")], raises="IndexError: "
             "tuple index 2 is out of range for a tuple of 2 elements"),
        Case(AI, "calls_checked", [i8(4), S("9")],
             raises=oob(9, 0, 4, "get1_checked", 171)),
        Case(AI, "get1", [i8(4), S("6")], env=DEBUG,
             raises=oob(6, 0, 4, "get1", 32)),
        Case(AI, "get2", [m34, S("1"), S("-5")], env=DEBUG,
             raises=oob(-5, 1, 4, "get2", 37)),
        Case(AI, "get2", [m34, S("1"), S("-4")], env=DEBUG),
        Case(AI, "get3", [i8(2, 3, 4), S("0"), S("3"), S("0")], env=DEBUG,
             raises=oob(3, 1, 3, "get3", 42), nout=3),
        Case(AI, "sum2d", [f8(3, 3).F], env=DEBUG),
        Case(AI, "iter_rows", [f8(3, 5)], env=DEBUG),
        # np.sign keeps -0.0 and the NaN it is given, as Numba
        Case(AI, "sign", [S("-0.0")]),
        Case(NF, "sign", [S("-0.0")]),
        Case(NF, "sign", [S("float32:-0.0")]),
        Case(NF, "sign", [S("0.0")]),
        Case(NF, "sign", [S("-2.5")]),
        Case(NF, "sign", [S("-7")]),
        # Python's error model
        Case(NF, "div_mod", [S("-7"), S("2")]),
        Case(NF, "div_mod", [S("7"), S("0")], nout=2,
             raises="ZeroDivisionError: integer division by zero"),
        Case(NF, "div_mod", [S("-7.5"), S("2.0")]),
        Case(NF, "div_mod", [S("7.5"), S("0.0")], nout=2,
             raises="ZeroDivisionError: division by zero"),
        Case(NF, "true_div", [S("7"), S("2")]),
        Case(NF, "true_div", [S("1.0"), S("0.0")],
             raises="ZeroDivisionError: division by zero"),
        Case(NF, "int_pow", [S("3"), S("5")]),
        Case(NF, "int_pow", [S("0"), S("-1")], raises="ZeroDivisionError: "
             "0 cannot be raised to a negative power"),
        Case(NF, "positive", [S("2.5")]),
        Case(NF, "positive", [S("-1.0")], raises="AssertionError"),
        Case(NF, "range_sum", [S("10"), S("3")]),
        Case(NF, "range_sum", [S("10"), S("0")],
             raises="ValueError: range() arg 3 must not be zero"),
        Case(NF, "mixed", [S("3"), S("int32:4")]),
        Case(NF, "mixed", [S("2.5"), S("float32:-1.5")]),
        Case(NF, "add_sig", [S("float32:1.5"), S("2.25")]),
        Case(NF, "add_sig", [S("int32:7"), S("int8:-3")]),
        Case(NF, "add_sig", [S("uint64:3"), S("2")]),
        Case(NF, "add_sig", [S("float32:1.5"), S("2")]),
        Case(NF, "add_sig", [S("true"), S("int8:2")]),
        Case(NF, "hyp", [S("3.0"), S("4.0")]),
        Case(NF, "collatz", [S("27")]),
        # for-loops over enumerate() and zip() (desugar_for.c)
        Case(IB, "enum_weighted", [f8(9)]),
        Case(IB, "enum_weighted", [f8(0)]),
        Case(IB, "enum_weighted", [f4(8).view("::-3")]),
        Case(IB, "enum_start", [i8(6), S("-3")]),
        Case(IB, "enum_start", [i4(5), S("uint8:7")]),
        Case(IB, "enum_tuple", [f8(6)]),
        Case(IB, "enum_rows", [m34]),
        Case(IB, "enum_rows", [m34.F.view("::-1")]),
        Case(IB, "zip_dot", [f8(9), f4(7)]),
        Case(IB, "zip_dot", [i8(4), f8(0)]),
        Case(IB, "zip_three", [f8(5), i8(8).view("::2")]),
        Case(IB, "enum_zip", [f8(6), f8(6).view("::-1")]),
        Case(IB, "zip_enum", [i8(5), f8(3)]),
        Case(IB, "zip_range", [f8(6), S("2"), S("5")]),
        Case(IB, "zip_range", [f8(6), S("-3"), S("40")]),
        Case(IB, "zip_range", [f8(6), S("5"), S("2")]),
        # stepped ranges: both signs, empty, longer than the array, zero
        Case(IB, "zip_step", [f8(6), S("0"), S("10"), S("3")]),
        Case(IB, "zip_step", [f8(6), S("10"), S("-3"), S("-4")]),
        Case(IB, "zip_step", [f8(6), S("-2"), S("40"), S("5")]),
        Case(IB, "zip_step", [f8(6), S("5"), S("2"), S("1")]),
        Case(IB, "zip_step", [f8(6), S("2"), S("5"), S("-1")]),
        Case(IB, "zip_step", [f8(0), S("0"), S("10"), S("2")]),
        Case(IB, "zip_step", [f8(4), S("int32:1"), S("int32:9"),
                              S("int32:2")]),
        Case(IB, "zip_step", [f8(6), S("0"), S("10"), S("0")],
             raises="ValueError: range() arg 3 must not be zero"),
        Case(IB, "enum_down", [i8(3)]),
        Case(IB, "zip_step_last", [f8(5), S("-1")]),
        Case(IB, "zip_step_last", [f8(5), S("-2")]),
        Case(IB, "zip_step_last", [f8(0), S("-1")]),
        Case(IB, "first_above", [f8(7), S("0.5")]),
        Case(IB, "first_above", [f8(7), S("2.0")]),
        Case(IB, "pairs", [f8(4), f8(5)]),
        Case(IB, "write_through", [f8(5), f8(4)]),
        Case(IB, "last_index", [f8(5)]),
        Case(IB, "last_index", [f8(0)]),
        # (arrays_index.array_add, an array expression returned, is a new
        # array now: run_arrexpr_oracle.py compares such returns)
        # refused on purpose, with the construct and its position
        Refused(AI, "fancy_it", [i8(5)], "a boolean array beside another "
                "array index", (208, 14)),
        # np.sum(a, 0) of a 1-D array: the whole sum (run_npaxis_oracle.py
        # has the axis forms)
        Case(AI, "np_sum", [i8(5)]),
    ]
    seen = {}
    for c in r:
        base = f"{os.path.splitext(c.file)[0]}.{c.kernel}"
        seen[base] = seen.get(base, 0) + 1
        c.id = f"{base}#{seen[base]}"
    return r


# ---- inputs ------------------------------------------------------------------

def materialise(case, tmp):
    """(values for Numba, ufjit arguments, table lines of the inputs)."""
    rng = np.random.default_rng(zlib.crc32(case.id.encode()))
    values, args, lines = [], [], []
    for j, spec in enumerate(case.inputs):
        path = os.path.join(tmp, f"{case.id}.in{j}.npy")
        v, arg = spec.materialise(rng, path)
        args.append(arg)
        if isinstance(spec, S):
            values.append(v[()])  # a scalar for Numba (0-d in ufjit)
            lines.append(f"in {v.dtype.name} scalar {fmt(v.dtype, v[()])}")
            continue
        base = np.load(path)
        order = "F" if base.flags.f_contiguous and base.ndim > 1 and \
            not base.flags.c_contiguous else "C"
        view = getattr(spec, "index", None)
        values.append(v)
        flat = " ".join(fmt(base.dtype, x) for x in base.reshape(-1))
        lines.append(f"in {base.dtype.name} {base.ndim} "
                     f"{' '.join(map(str, base.shape))} {order} "
                     f"{view.replace(' ', '') if view else '-'} : {flat}")
    return values, args, lines


def fmt(dt, x):
    """Exact text of a value: ints in decimal, floats as float.hex."""
    if dt.kind == "b":
        return "1" if x else "0"
    if dt.kind in "iu":
        return str(int(x))
    if dt.kind == "f":
        return float(x).hex()
    return f"{float(x.real).hex()},{float(x.imag).hex()}"


# ---- Numba ------------------------------------------------------------------

_modules = {}
_records = {}  # the kernel files' recorded answers (oracle_record.py)


def numba_fn(case):
    import numba
    path = os.path.join(KERNELS, case.file)
    mod = _modules.get(path)
    if mod is None:
        mod = oracle_util.load(path)
        _modules[path] = mod
    fn = getattr(mod, case.kernel)
    if case.env.get("UFJIT_DEBUG"):
        fn = numba.njit(boundscheck=True)(fn.py_func)
    return fn


def run_numba(case, values):
    """("ok", [0-d arrays]) or ("raised", "Name: message")."""
    fn = numba_fn(case)
    warnings.simplefilter("ignore")
    try:
        out = fn(*values)
    except Exception as e:
        return "raised", f"{type(e).__name__}: {e}"
    key = tuple(fn.typeof_pyval(v) for v in values)
    sig = None
    for s in fn.nopython_signatures:
        if tuple(s.args) == key:
            sig = s
    if sig is None:  # a declared signature the arguments converted to
        sig = fn.typingctx.resolve_overload(fn.py_func,
                                            fn.nopython_signatures, key, {})
    from numba.core import types
    from numba.np.numpy_support import as_dtype
    ret = sig.return_type
    if ret == types.none:
        return "ok", []
    rts = list(ret.types) if isinstance(ret, types.BaseTuple) else [ret]
    outs = out if isinstance(ret, types.BaseTuple) else (out,)
    return "ok", [np.array(o, dtype=as_dtype(t)) for o, t in zip(outs, rts)]


def table(all_cases, tmp):
    """The text of the committed table."""
    import numba
    lines = [f"# njit calls and arrays in kernels: Numba {numba.__version__}"
             f"'s results, written by tests/e2e/run_njit_oracle.py; do not "
             f"edit"]
    for c in all_cases:
        values, _, ins = materialise(c, tmp)
        env = " ".join(f"{k}={v}" for k, v in c.env.items()) or "-"
        lines.append(f"case {c.id} {c.file} {c.kernel} {env}")
        lines += ins
        if c.kind == "refused":
            lines.append(f"refused {c.where[0]} {c.where[1]} {c.fragment}")
        else:
            what, res = run_numba(c, values)
            if what == "raised":
                lines.append(f"raises {c.raises or res}")
            else:
                for o in res:
                    lines.append(f"out {o.dtype.name} {fmt(o.dtype, o[()])}")
        lines.append("end")
    return "\n".join(lines) + "\n"


# ---- ufjit ------------------------------------------------------------------

def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind == "c":
        return same(got.real.copy(), want.real.copy()) and \
            same(got.imag.copy(), want.imag.copy())
    if got.dtype.kind == "f":
        return bool((np.isnan(got) & np.isnan(want)) or
                    got.tobytes() == want.tobytes())
    return got.tobytes() == want.tobytes()


def check(ufjit, c, tmp):
    values, args, _ = materialise(c, tmp)
    path = os.path.join(KERNELS, c.file)
    if c.kind == "refused":
        nout = 1
    else:
        rec = _records.get(path) or _records.setdefault(path, Record(path))
        what, res = rec.answer(
            rec.key(c.kernel, sorted(c.env.items()), values), values,
            lambda: run_numba(c, values))
        nout = len(res) if what == "ok" else c.nout
        if what == "ok" and c.raises:
            return [f"Numba does not raise (returns {res})"]
        if what == "raised" and not c.raises:
            return [f"Numba raises {res}"]
        if what == "raised" and \
                res.split(":")[0] != c.raises.split(":")[0]:
            return [f"Numba raises {res}, the case expects {c.raises}"]
        if nout == 0:
            return []  # `ufjit call` needs an output; test_plain_call.c
    outs = [os.path.join(tmp, f"{c.id}.out{k}.npy") for k in range(nout)]
    for o in outs:
        if os.path.exists(o):
            os.remove(o)
    argv = [ufjit, "call", path, c.kernel, *args]
    for o in outs:
        argv += ["-o", o]
    env = dict(os.environ)
    env.pop("UFJIT_DEBUG", None)
    env.update(c.env)
    p = subprocess.run(argv, capture_output=True, text=True, env=env,
                       timeout=120)
    cmd = " ".join(argv)
    if c.kind == "refused" or c.raises:
        want = c.fragment if c.kind == "refused" else \
            c.raises.replace("{path}", path)
        probs = []
        if p.returncode != 1:
            probs.append(f"exit {p.returncode}, expected 1")
        if want not in p.stderr:
            probs.append(f"message lacks {want!r}")
        if c.kind == "refused" and f"{path}:{c.where[0]}:{c.where[1]}:" \
                not in p.stderr:
            probs.append(f"message lacks the position {c.where}")
        if any(os.path.exists(o) for o in outs):
            probs.append("an output file was written")
        return probs + ([f"stderr: {p.stderr.strip()}", cmd] if probs
                        else [])
    if p.returncode != 0:
        return [f"ufjit exited {p.returncode}: {p.stderr.strip()}", cmd]
    probs = []
    for k, (o, w) in enumerate(zip(outs, res)):
        g = np.load(o)
        if not same(g, w):
            probs.append(f"output {k}: ufjit {g.dtype} {g!r}, Numba "
                         f"{w.dtype} {w!r}")
    return probs + ([cmd] if probs else [])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ufjit", nargs="?")
    ap.add_argument("--write")
    ap.add_argument("--check")
    ap.add_argument("-k", dest="filter", default="")
    ap.add_argument("-v", dest="verbose", action="store_true")
    ap.add_argument("--keep", action="store_true")
    opt = ap.parse_args()
    if importlib.util.find_spec("numba") is None:
        print("SKIP: numba is not installed (python3 -m pip install numba)")
        return 77
    all_cases = [c for c in cases() if opt.filter in c.id]
    tmp = tempfile.mkdtemp(prefix="ufjit-njit-")
    try:
        if opt.write or opt.check:
            text = table(all_cases, tmp)
            if opt.write:
                with open(opt.write, "w") as f:
                    f.write(text)
                return 0
            with open(opt.check) as f:
                old = f.read()
            if old.split("\n", 1)[1] != text.split("\n", 1)[1]:
                print(f"{opt.check} differs from Numba's results now: "
                      f"regenerate it with --write")
                return 1
            print(f"{opt.check}: {len(all_cases)} cases agree with Numba")
            return 0
        if not opt.ufjit:
            ap.error("give UFJIT, --write or --check")
        fails = 0
        for c in all_cases:
            probs = check(os.path.abspath(opt.ufjit), c, tmp)
            if probs:
                fails += 1
                print(f"FAIL {c.id}")
                for p in probs:
                    print("     " + p)
            elif opt.verbose:
                print(f"ok   {c.id}")
        for rec in _records.values():
            rec.close()
        print(f"run_njit_oracle: {len(all_cases)} cases, {fails} failures")
        return 1 if fails else 0
    finally:
        if opt.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
