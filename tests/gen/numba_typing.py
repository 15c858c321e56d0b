#!/usr/bin/env python3
"""Writes Numba's typing of numbers, tuples and arrays and of signature
strings: the oracle for tests/test_types.c and tests/test_signature.c.

    numba_typing.py [-o OUT]      write the table (stdout without -o)
    numba_typing.py --check FILE  exit 1 unless FILE equals Numba's table
    numba_typing.py --verify      also compile njit functions to confirm
                                  that the typing context answers what
                                  compiled code gets (slow: about a minute)

The answers come from Numba's typing context, the object its type
inference asks for every `a + b`, every join of branches, every call:
    ctx.resolve_function_type(operator.add, (a, b), {})  -> result, args
    ctx.unify_pairs(a, b)                                  -> unified type
    typeconv default_type_manager.check_compatible(a, b)   -> conversion

Lines, fields separated by one TAB ('#' starts a comment); a refused
operation or failed unification is '-' in every result field:
    conv FROM TO KIND            e(xact) p(romote) s(afe) u(nsafe) or -
    unify A B RESULT             A and B in signature syntax, RESULT as
                                 Numba prints it
    binop OP A B RESULT ARG1 ARG2  ARG1 ARG2 the argument types of the
                                 signature Numba chose (operands are
                                 converted to them)
    cmp OP A B RESULT ARG1 ARG2
    unary OP A RESULT ARG        OP is - + not ~
    abs A RESULT ARG
    name NAME TYPE               numba.types.NAME as Numba prints it
    sig TEXT RET ARG...          a signature string, its return type
                                 ('-' when none) and argument types

Exits 77 (CTest's skip code) when Numba is not installed.
"""
import argparse
import io
import operator
import sys

try:
    import numba
    from numba.core import sigutils, types
    from numba.core.registry import cpu_target
    from numba.core.typeconv import Conversion
    from numba.core.typeconv.rules import default_type_manager
except ImportError as exc:
    print("numba is not installed (%s): skipping" % exc, file=sys.stderr)
    sys.exit(77)

SCALARS = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
           "int64", "uint64", "float32", "float64", "complex64",
           "complex128"]

BINOPS = [("+", operator.add), ("-", operator.sub), ("*", operator.mul),
          ("/", operator.truediv), ("//", operator.floordiv),
          ("%", operator.mod), ("**", operator.pow),
          ("<<", operator.lshift), (">>", operator.rshift),
          ("&", operator.and_), ("|", operator.or_), ("^", operator.xor)]
CMPOPS = [("==", operator.eq), ("!=", operator.ne), ("<", operator.lt),
          ("<=", operator.le), (">", operator.gt), (">=", operator.ge)]
UNOPS = [("-", operator.neg), ("+", operator.pos), ("not", operator.not_),
         ("~", operator.invert)]

# Unification beyond scalars: tuples (uniform and not, nested), arrays of
# every layout pair, and pairs that must fail.
UNIFY_EXTRA = [
    ("UniTuple(int32, 2)", "UniTuple(float32, 2)"),
    ("UniTuple(int64, 2)", "UniTuple(uint64, 2)"),
    ("UniTuple(int32, 2)", "Tuple((int64, float32))"),
    ("Tuple((int8, float32))", "Tuple((int16, int32))"),
    ("Tuple((float64, bool))", "Tuple((float64, bool))"),
    ("Tuple((int32, UniTuple(int8, 2)))", "Tuple((float32, UniTuple(uint8, 2)))"),
    ("UniTuple(int32, 2)", "UniTuple(int32, 3)"),
    ("UniTuple(int32, 2)", "int32"),
    ("Tuple(())", "Tuple(())"),
    ("Tuple((int32, float64[:]))", "Tuple((int32, float64[::1]))"),
    ("Tuple((int32, float64[:]))", "Tuple((int32, float32[:]))"),
    ("float64[::1]", "float64[:]"),
    ("float64[:, ::1]", "float64[::1, :]"),
    ("float64[:, ::1]", "float64[:, ::1]"),
    ("float64[:, :]", "float64[::1, :]"),
    ("float32[:]", "float64[:]"),
    ("float64[:]", "float64[:, :]"),
    ("float64[:]", "float64"),
    ("none", "none"),
    ("none", "int64"),
]

# Names a signature may use, as numba.types spells them.
NAMES = ["bool", "boolean", "bool_", "b1", "int8", "int16", "int32", "int64",
         "uint8", "uint16", "uint32", "uint64", "i1", "i2", "i4", "i8",
         "u1", "u2", "u4", "u8", "intp", "uintp", "intc", "uintc", "int_",
         "uint", "byte", "char", "short", "ushort", "long_", "ulong",
         "longlong", "ulonglong", "ssize_t", "size_t", "float32", "float64",
         "f4", "f8", "double", "complex64", "complex128", "c8", "c16",
         "none", "void"]

SIGNATURES = [
    "float32(float32, float32)",
    "float64(float64, float64, float64)",
    "void(float64[:,:], float64[:], float64[:])",
    "void(float64[:, :], float64[:], float64[:])",
    "f8(f8, i4)",
    "c16(c8, b1)",
    "boolean(int8, u1, u2, u4, u8, i2)",
    "intp(uintp)",
    "UniTuple(float64, 2)(float64)",
    "Tuple((float64, int32))(float64, int32)",
    "Tuple((float64, UniTuple(int8, 3)))(float64)",
    "(float64[:], int64)",
    "(float32,)",
    "()",
    "int64()",
    "none(float64)",
    "float64[:](float64[:])",
    "float64[::1](float64[::1])",
    "void(float64[:, ::1], float64[::1, :], float64[:, :, :])",
    "void(int32[:, :, ::1], float32[::1, :, :], complex64[:, :, :, :])",
    "  float32 ( float32 ,float32 )  ",
    "float64(float64[:,::1],float64[::1,:])",
    "void(float64[:], float64[:],)",
    "uint8[:](bool[:])",
]


def sig_type(text):
    """A type written in signature syntax, evaluated as Numba does."""
    return sigutils._parse_signature_string(text)


def kind(conv):
    return {None: "-", Conversion.exact: "e", Conversion.promote: "p",
            Conversion.safe: "s", Conversion.unsafe: "u"}[conv]


def resolve(ctx, fn, args):
    try:
        sig = ctx.resolve_function_type(fn, args, {})
    except Exception:  # a TypingError: Numba refuses these operands
        return None
    return sig


def write(out):
    ctx = cpu_target.typing_context
    ctx.refresh()
    tm = default_type_manager
    scal = [getattr(types, n) if n != "bool" else types.boolean
            for n in SCALARS]
    print("# Numba's typing, generated by tests/gen/numba_typing.py from "
          "Numba %s; do not edit" % numba.__version__, file=out)
    for a in scal:
        for b in scal:
            k = "e" if a == b else kind(tm.check_compatible(a, b))
            print("conv\t%s\t%s\t%s" % (a, b, k), file=out)
    for a in scal:
        for b in scal:
            u = ctx.unify_pairs(a, b)
            print("unify\t%s\t%s\t%s" % (a, b, u if u is not None else "-"),
                  file=out)
    for ta, tb in UNIFY_EXTRA:
        u = ctx.unify_pairs(sig_type(ta), sig_type(tb))
        print("unify\t%s\t%s\t%s" % (ta, tb, u if u is not None else "-"),
              file=out)
    for name, fn in BINOPS:
        for a in scal:
            for b in scal:
                s = resolve(ctx, fn, (a, b))
                f = ("%s\t%s\t%s" % (s.return_type, s.args[0], s.args[1])
                     if s else "-\t-\t-")
                print("binop\t%s\t%s\t%s\t%s" % (name, a, b, f), file=out)
    for name, fn in CMPOPS:
        for a in scal:
            for b in scal:
                s = resolve(ctx, fn, (a, b))
                f = ("%s\t%s\t%s" % (s.return_type, s.args[0], s.args[1])
                     if s else "-\t-\t-")
                print("cmp\t%s\t%s\t%s\t%s" % (name, a, b, f), file=out)
    for name, fn in UNOPS:
        for a in scal:
            s = resolve(ctx, fn, (a,))
            f = "%s\t%s" % (s.return_type, s.args[0]) if s else "-\t-"
            print("unary\t%s\t%s\t%s" % (name, a, f), file=out)
    for a in scal:
        s = resolve(ctx, abs, (a,))
        f = "%s\t%s" % (s.return_type, s.args[0]) if s else "-\t-"
        print("abs\t%s\t%s" % (a, f), file=out)
    for n in NAMES:
        print("name\t%s\t%s" % (n, getattr(types, n)), file=out)
    for text in SIGNATURES:
        args, ret = sigutils.normalize_signature(text)
        fields = [text, str(ret) if ret is not None else "-"]
        fields += [str(t) for t in args]
        print("sig\t" + "\t".join(fields), file=out)


def verify():
    """Compiles real functions for the claims the table relies on: the
    typing context's answer is the type compiled code gets."""
    ctx = cpu_target.typing_context
    scal = [getattr(types, n) if n != "bool" else types.boolean
            for n in SCALARS]
    bad = 0

    def join(c, a, b):
        x = a if c else b
        return x

    def add(a, b):
        return a + b

    fj = numba.njit(join)
    fa = numba.njit(add)
    for a in scal:
        for b in scal:
            want = ctx.unify_pairs(a, b)
            fj.compile((types.boolean, a, b))
            got = fj.overloads[(types.boolean, a, b)].signature.return_type
            if got != want:
                print("unify %s %s: compiled %s, context %s"
                      % (a, b, got, want))
                bad += 1
            want = ctx.resolve_function_type(operator.add, (a, b), {})
            fa.compile((a, b))
            got = fa.overloads[(a, b)].signature.return_type
            if got != want.return_type:
                print("add %s %s: compiled %s, context %s"
                      % (a, b, got, want.return_type))
                bad += 1
    for ta, tb in UNIFY_EXTRA:
        a, b = sig_type(ta), sig_type(tb)
        want = ctx.unify_pairs(a, b)
        if want is None:
            continue
        try:
            fj.compile((types.boolean, a, b))
            got = fj.overloads[(types.boolean, a, b)].signature.return_type
        except Exception as exc:  # arrays of 0 elements, none: not passable
            print("skip %s %s: %s" % (ta, tb, type(exc).__name__))
            continue
        if got != want:
            print("unify %s %s: compiled %s, context %s" % (ta, tb, got, want))
            bad += 1
    print("verify: %d differences" % bad)
    return bad == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", dest="out")
    ap.add_argument("--check", metavar="FILE")
    ap.add_argument("--verify", action="store_true")
    opts = ap.parse_args()
    buf = io.StringIO()
    write(buf)
    text = buf.getvalue()
    if opts.verify and not verify():
        return 1
    if opts.check:
        with open(opts.check, encoding="utf-8") as f:
            old = f.read()
        if old != text:
            old_lines = set(old.splitlines())
            for line in text.splitlines():
                if line not in old_lines:
                    print("Numba now says: " + line.replace("\t", " | "))
            print("%s differs from what Numba %s gives: regenerate it with "
                  "%s -o %s" % (opts.check, numba.__version__, sys.argv[0],
                                opts.check))
            return 1
        return 0
    if opts.out:
        with open(opts.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
