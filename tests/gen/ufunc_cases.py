#!/usr/bin/env python3
"""Writes the NumPy oracle for tests/test_ufunc_call.c: ufunc calls with
broadcasting, views, given and allocated outputs, where=, casting rules and
overlapping operands, with what NumPy gives for each.

Usage: ufunc_cases.py OUT [--run TEST_EXE]
       ufunc_cases.py --check FILE

With --run, the fresh file is handed to TEST_EXE (test_ufunc_call) and its
exit status returned, so CTest checks the C code against the installed
NumPy too. --check exits 1 unless FILE (the committed copy) is what NumPy
gives now. Exits 77 (CTest's skip code) when NumPy is missing.

The C test registers the same ufuncs with hand-written loops, in this
order (Numba's rule picks the first loop the inputs cast to safely, which
NumPy is then told through signature=):

    add     (float32, float32) -> float32, (float64, float64) -> float64
    iadd    (int32, int32) -> int32, (int64, int64) -> int64
    divmod  (int64, int64) -> (int64, int64),
            (float64, float64) -> (float64, float64)
    neg     (float64) -> float64

One case per line ('#' starts a comment), fields separated by ' ; ':

    <ufunc> ; <casting> ; <operand> ; ... ; => <result>

An operand is `<role> <array>` with role in0, in1, out0, out1 or where,
and parts separated by ' | ':

    <dtype> <shape> <C|F> <seed> [| ix <expr>] [| T <axes>] [| ro]
    @<role> [| ix <expr>] [| T <axes>] [| ro]

The first form is a new base array (element k in C order holds fill(k,
seed), below) viewed through basic indexing, then a transpose; `ro` makes
the view read-only. `@role` views the base of an earlier operand, for
overlapping memory. Outputs not listed are allocated. The result is
`ERR <UF_ERR_code> <NumPy's message>`, or one field per output:

    out<k> <dtype> <shape> <strides> <values>

strides in bytes for allocated outputs (only axes longer than 1, '-' for
a given output or an empty one); values in C order, '?' where an
allocated output was masked out by where=, complex as re:im.

fill(k, seed): r = (k * 37 + seed * 11) % 41 - 20; bool r % 3 != 0 (r
taken in [0, 40]); signed ints r; unsigned r + 20; floats r / 4 except
r = 20 -> nan, 19 -> inf, -20 -> -inf; complex (float value, (r % 5) / 2).
Seeds >= 100 scale ints by (max // 20) and floats by 1e307 to overflow.
"""
import random
import sys
import warnings

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

SEED = 20240612
NRANDOM = 400

UFUNCS = {
    "add": (np.add, 2, [("float32",) * 3, ("float64",) * 3]),
    "iadd": (np.add, 2, [("int32",) * 3, ("int64",) * 3]),
    "divmod": (np.divmod, 2, [("int64",) * 4, ("float64",) * 4]),
    "neg": (np.negative, 1, [("float64",) * 2]),
}

ALL_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
              "int64", "uint64", "float32", "float64", "complex64",
              "complex128"]


def tup(t):
    t = tuple(int(x) for x in t)
    if len(t) == 1:
        return "(%d,)" % t[0]
    return "(" + ",".join(str(x) for x in t) + ")"


def fill_value(k, seed, dtype):
    r = (k * 37 + seed * 11) % 41 - 20
    dt = np.dtype(dtype)
    big = seed >= 100
    if dt.kind == "b":
        return (r + 20) % 3 != 0
    if dt.kind in "iu":
        v = r if dt.kind == "i" else r + 20
        return v * (np.iinfo(dt).max // 20) if big else v
    if r == 20:
        f = float("nan")
    elif r == 19:
        f = float("inf")
    elif r == -20:
        f = float("-inf")
    else:
        f = r / 4 * (1e307 if big else 1)
    if dt.kind == "c":
        return complex(f, (r % 5) / 2)
    return f


def make_base(dtype, shape, order, seed):
    size = int(np.prod(shape, dtype=np.int64))
    flat = [fill_value(k, seed, dtype) for k in range(size)]
    base = np.empty(shape, dtype=dtype, order=order)
    base[...] = np.array(flat, dtype=dtype).reshape(shape)
    return base


def index_objects(expr):
    return eval("(lambda a: a[%s])" % expr)


class Operand:
    def __init__(self, role, spec):
        self.role = role
        self.spec = spec  # (dtype, shape, order, seed) or "@role"
        self.ix = None
        self.axes = None
        self.ro = False

    def text(self):
        if isinstance(self.spec, str):
            parts = [self.spec]
        else:
            dt, shape, order, seed = self.spec
            parts = ["%s %s %s %d" % (dt, tup(shape), order, seed)]
        if self.ix is not None:
            parts.append("ix " + self.ix)
        if self.axes is not None:
            parts.append("T " + tup(self.axes))
        if self.ro:
            parts.append("ro")
        return self.role + " " + " | ".join(parts)


def op(role, dtype, shape=None, order="C", seed=1, ix=None, axes=None,
       ro=False):
    """A new base array, or with dtype "@role" a view of role's base."""
    o = Operand(role, dtype if dtype.startswith("@")
                else (dtype, tuple(shape), order, seed))
    o.ix, o.axes, o.ro = ix, axes, ro
    return o


def error_code(e):
    msg = str(e)
    if msg.startswith("operands could not be broadcast") or \
       msg.startswith("non-broadcastable output"):
        return "UF_ERR_SHAPE"
    if msg.startswith("Cannot cast"):
        return "UF_ERR_CAST"
    if msg == "output array is read-only":
        return "UF_ERR_READONLY"
    if "not supported for the input types" in msg:
        return "UF_ERR_TYPE"
    raise RuntimeError("unexpected NumPy error: %r" % msg)


def fmt_value(v, dt):
    if dt.kind == "b":
        return "1" if v else "0"
    if dt.kind in "iu":
        return str(int(v))
    if dt.kind == "c":
        return "%r:%r" % (float(v.real), float(v.imag))
    return repr(float(v))


def run_case(name, casting, operands):
    fn, nin, loops = UFUNCS[name]
    nout = len(loops[0]) - nin
    bases, views = {}, {}
    for o in operands:
        if isinstance(o.spec, str):
            base = bases[o.spec[1:]]
        else:
            base = make_base(*o.spec)
        bases[o.role] = base
        v = base
        if o.ix is not None:
            v = index_objects(o.ix)(v)
        if o.axes is not None:
            v = np.transpose(v, o.axes)
        if o.ro:
            v = v.view()
            v.flags.writeable = False
        views[o.role] = v
    ins = [views["in%d" % i] for i in range(nin)]
    outs = [views.get("out%d" % i) for i in range(nout)]
    where = views.get("where", True)

    loop = None
    for lt in loops:
        if all(np.can_cast(a.dtype, t, "safe") for a, t in zip(ins, lt)):
            loop = lt
            break
    kw = {"casting": casting, "where": where}
    if loop is None:
        # NumPy has more loops than the C ufunc, so it would not fail; it
        # checks read-only outputs and the mask's type before resolving,
        # so those errors still come from NumPy, the rest is its message
        # for "no loop".
        try:
            with np.errstate(all="ignore"):
                fn(*ins, out=tuple(outs), **kw)
        except (TypeError, ValueError) as e:
            msg = str(e)
            if msg == "output array is read-only" or \
               msg.startswith("Cannot cast array data"):
                return "ERR %s %s" % (error_code(e), msg)
        return ("ERR UF_ERR_TYPE ufunc '%s' not supported for the input "
                "types, and the inputs could not be safely coerced to any "
                "supported types according to the casting rule ''safe''"
                % fn.__name__)
    kw["signature"] = loop
    try:
        with np.errstate(all="ignore"):
            res = fn(*ins, out=tuple(outs), **kw)
    except (TypeError, ValueError) as e:
        return "ERR %s %s" % (error_code(e), str(e).rstrip())
    if nout == 1:
        res = (res,)
    fields = []
    for k, r in enumerate(res):
        given = outs[k] is not None
        if given or r.size == 0:
            strides = "-"
        else:
            strides = tup(s for s, n in zip(r.strides, r.shape) if n > 1)
        mask = None
        if not given and not (where is True):
            mask = np.broadcast_to(where, r.shape)
        vals = []
        for idx in np.ndindex(*r.shape):
            if mask is not None and not mask[idx]:
                vals.append("?")
            else:
                vals.append(fmt_value(r[idx], r.dtype))
        fields.append("out%d %s %s %s %s" % (k, r.dtype.name, tup(r.shape),
                                             strides, ",".join(vals) or "-"))
    return " ; ".join(fields)


def line(name, casting, operands):
    result = run_case(name, casting, operands)
    parts = [name, casting] + [o.text() for o in operands]
    return " ; ".join(parts) + " ; => " + result


def fixed_cases():
    c = []
    add = lambda *ops, casting="same_kind": c.append(("add", casting, ops))
    # basics and dispatch: int16 fits float32, int32 needs float64
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (4,), seed=2))
    add(op("in0", "int16", (2, 3)), op("in1", "int16", (3,), seed=2))
    add(op("in0", "int32", (2, 3)), op("in1", "int32", (3,), seed=2))
    add(op("in0", "int16", (5,)), op("in1", "float32", (5,), seed=2))
    add(op("in0", "uint8", (2, 2)), op("in1", "bool", (2, 1), seed=2))
    add(op("in0", "int64", (3,)), op("in1", "uint64", (3,), seed=3))
    add(op("in0", "int64", (3,)), op("in1", "complex128", (3,), seed=3))
    add(op("in0", "complex64", (3,)), op("in1", "float32", (3,), seed=3))
    # 0-d operands and broadcasting over 3+ dimensions
    add(op("in0", "float64", ()), op("in1", "float64", (), seed=2))
    add(op("in0", "float64", ()), op("in1", "float32", (2, 3), seed=2))
    add(op("in0", "float32", (2, 1, 3)), op("in1", "float32", (4, 1), seed=2))
    add(op("in0", "float64", (2, 1, 3, 1)),
        op("in1", "float64", (1, 3, 1, 2), seed=2))
    add(op("in0", "float64", (3,)), op("in1", "float64", (4,), seed=2))
    add(op("in0", "float64", (2, 3)), op("in1", "float64", (3, 2), seed=2))
    # empty arrays
    add(op("in0", "float64", (0, 3)), op("in1", "float64", (3,), seed=2))
    add(op("in0", "float64", (0, 1)), op("in1", "float64", (1, 3), seed=2))
    add(op("in0", "float64", (0,)), op("in1", "float64", (2,), seed=2))
    add(op("in0", "float64", (0, 3)), op("in1", "float64", (3,), seed=2),
        op("out0", "int32", (0, 3)))
    # memory order of allocated outputs (NumPy's K order)
    add(op("in0", "float64", (3, 4), "F"), op("in1", "float64", (3, 4), "F"))
    add(op("in0", "float64", (3, 4), "F"), op("in1", "float64", ()))
    add(op("in0", "float64", (3, 4), "F"), op("in1", "float64", (4,)))
    add(op("in0", "float64", (3, 4), "F"), op("in1", "float64", (3, 4)))
    add(op("in0", "float64", (3, 4), "F"), op("in1", "float64", (3, 4), "F"),
        op("where", "bool", (3, 4)))
    add(op("in0", "float64", (3, 1), "F"), op("in1", "float64", (1, 4), "F"))
    add(op("in0", "float64", (2, 3, 4), axes=(1, 2, 0)),
        op("in1", "float64", ()))
    add(op("in0", "float64", (2, 3, 4), axes=(1, 2, 0)),
        op("in1", "float64", (3, 4, 1)))
    add(op("in0", "float64", (4, 3), ix="::-1", axes=(1, 0)),
        op("in1", "float64", ()))
    add(op("in0", "float64", (3, 4), ix="::-1, ::-1"),
        op("in1", "float32", (3, 4)))
    add(op("in0", "float64", (3, 8), "F", ix=":, ::2"),
        op("in1", "float64", ()))
    # given outputs: bigger than the inputs, wrong shape, read-only, casts
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (4,)),
        op("out0", "float64", (2, 3, 4), seed=5))
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (3, 4)),
        op("out0", "float64", (3, 1)))
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (3, 4)),
        op("out0", "float64", (5,)))
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (3, 4)),
        op("out0", "float64", (4,)))
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (3, 4)),
        op("out0", "float64", (3, 4), ro=True))
    add(op("in0", "float64", (3,)), op("in1", "complex128", (4,)),
        op("out0", "int32", (5,), ro=True))
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (3, 4)),
        op("out0", "int32", (3, 4)))
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (3, 4)),
        op("out0", "int32", (3, 4)), casting="unsafe")
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (3, 4)),
        op("out0", "uint8", (3, 4)), casting="unsafe")
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (3, 4)),
        op("out0", "float32", (3, 4)))
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (3, 4)),
        op("out0", "float32", (3, 4)), casting="safe")
    add(op("in0", "float32", (3,)), op("in1", "float32", (3,)),
        op("out0", "complex128", (3,)), casting="safe")
    add(op("in0", "int32", (3,)), op("in1", "float64", (3,)),
        casting="no")
    add(op("in0", "float32", (3,)), op("in1", "float32", (3,)),
        op("out0", "float64", (3,)), casting="equiv")
    add(op("in0", "float32", (3,)), op("in1", "float32", (3,)),
        op("out0", "float32", (3,)), casting="no")
    add(op("in0", "float64", (2, 3)), op("in1", "float64", (3,)),
        op("out0", "float32", (2, 3), "F", ix="::-1"))
    # where=
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (4,)),
        op("out0", "float64", (3, 4), seed=7), op("where", "bool", (3, 4)))
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (4,)),
        op("out0", "float64", (3, 4), seed=7), op("where", "bool", (4,)))
    add(op("in0", "float64", (3, 4)), op("in1", "float64", (4,)),
        op("where", "bool", (3, 1)))
    add(op("in0", "float64", (3,)), op("in1", "float64", ()),
        op("where", "bool", (2, 3)))
    add(op("in0", "float64", (3,)), op("in1", "float64", ()),
        op("where", "bool", (4,)))
    add(op("in0", "float64", (3,)), op("in1", "float64", ()),
        op("where", "int64", (3,)))
    add(op("in0", "float64", (3,)), op("in1", "float64", (3,)),
        op("out0", "float64", (3,)), op("where", "bool", (4,)))
    add(op("in0", "float64", (4,)), op("in1", "float64", (4,)),
        op("out0", "float64", (4,), seed=9), op("where", "bool", (), seed=2))
    add(op("in0", "float64", (4,)), op("in1", "float64", (4,)),
        op("out0", "float64", (4,), seed=9), op("where", "bool", (), seed=1))
    add(op("in0", "int16", (3, 4)), op("in1", "int8", (3, 4)),
        op("out0", "int64", (3, 4), seed=9), op("where", "bool", (3, 4)),
        casting="unsafe")
    add(op("in0", "int16", (6, 7), ix="::-2, 1::3"),
        op("in1", "float64", (3, 1, 2), "F"),
        op("out0", "complex64", (3, 3, 2), seed=9),
        op("where", "bool", (3, 2), ix=":, None, :"))
    # overlapping memory: in place is fine, a shifted view reads first
    add(op("in0", "float64", (6,)), op("in1", "float64", (6,), seed=2),
        op("out0", "@in0"))
    add(op("in0", "float64", (6,), ix=":-1"), op("in1", "float64", (), seed=2),
        op("out0", "@in0", ix="1:"))
    add(op("in0", "float64", (6,), ix="1:"), op("in1", "float64", (), seed=2),
        op("out0", "@in0", ix=":-1"))
    add(op("in0", "float64", (6,)), op("in1", "float64", (6,), seed=2),
        op("out0", "@in0", ix="::-1"))
    add(op("in0", "float64", (4, 4)), op("in1", "float64", (4, 4), seed=2),
        op("out0", "@in0", axes=(1, 0)))
    add(op("in0", "float32", (6,), ix=":-2"),
        op("in1", "float32", (4,), seed=2),
        op("out0", "@in0", ix="2:"), op("where", "bool", (4,), seed=3))
    add(op("in0", "int32", (6,), ix=":-1"), op("in1", "int32", (), seed=2),
        op("out0", "@in0", ix="1:"), casting="unsafe")
    add(op("out0", "float64", (5,)), op("in0", "@out0", ix="0:1"),
        op("in1", "float64", (5,), seed=2))
    add(op("out0", "float64", (2, 3)), op("in0", "@out0", ix="0"),
        op("in1", "@out0", ix=":, 1:2"))
    # a mask sharing memory with the output is read before any write
    add(op("in0", "float64", (6,)), op("in1", "float64", (6,), seed=2),
        op("out0", "bool", (7,), ix="1:"), op("where", "@out0", ix=":-1"),
        casting="unsafe")
    add(op("in0", "float64", (6,)), op("in1", "float64", (6,), seed=5),
        op("out0", "bool", (7,), seed=3, ix=":-1"),
        op("where", "@out0", ix="1:"), casting="unsafe")
    # integer overflow wraps; big floats overflow to inf
    c.append(("iadd", "same_kind", (op("in0", "int32", (8,), seed=100),
                                    op("in1", "int32", (8,), seed=101))))
    c.append(("iadd", "same_kind", (op("in0", "int64", (8,), seed=100),
                                    op("in1", "int64", (8,), seed=103))))
    c.append(("iadd", "same_kind", (op("in0", "uint8", (4,)),
                                    op("in1", "int8", (4,), seed=2))))
    c.append(("iadd", "same_kind", (op("in0", "uint32", (4,)),
                                    op("in1", "int8", (4,), seed=2))))
    c.append(("iadd", "same_kind", (op("in0", "uint64", (4,)),
                                    op("in1", "int8", (4,), seed=2))))
    add(op("in0", "float64", (8,), seed=100),
        op("in1", "float64", (8,), seed=101))
    add(op("in0", "float64", (8,), seed=100), op("in1", "float64", (8,)),
        op("out0", "float32", (8,)))
    # two outputs, NaN/inf/zero divisors, negative operands
    dm = lambda *ops, casting="same_kind": c.append(("divmod", casting, ops))
    dm(op("in0", "int64", (41,)), op("in1", "int64", (41,), seed=3))
    dm(op("in0", "int32", (6, 7)), op("in1", "int8", (7,), seed=5))
    dm(op("in0", "float64", (41,)), op("in1", "float64", (41,), seed=3))
    dm(op("in0", "float32", (41,)), op("in1", "float64", (41,), seed=5))
    dm(op("in0", "int64", (3, 4)), op("in1", "float64", (4,), seed=2))
    dm(op("in0", "int64", (3, 4), "F"), op("in1", "int64", (3, 4), "F"),
       op("out0", "int64", (3, 4)))
    dm(op("in0", "int64", (3,)), op("in1", "int64", (3,)),
       op("out1", "int32", (3,)))
    dm(op("in0", "int64", (3,)), op("in1", "int64", (3,)),
       op("out0", "int32", (3,)))
    dm(op("in0", "float64", (3,)), op("in1", "float64", (3,)),
       op("out0", "float64", (3,), seed=4), op("out1", "float32", (3,), seed=5))
    dm(op("in0", "int64", (2, 3)), op("in1", "int64", (3,)),
       op("out1", "int64", (2, 3), seed=6), op("where", "bool", (2, 1)))
    dm(op("in0", "int64", (0, 3)), op("in1", "int64", (3,)))
    dm(op("in0", "complex64", (3,)), op("in1", "int64", (3,)))
    c.append(("neg", "same_kind", (op("in0", "uint8", (5,)),)))
    c.append(("neg", "same_kind", (op("in0", "float32", (2, 3), "F"),)))
    c.append(("neg", "same_kind", (op("in0", "int64", (2, 3)),
                                   op("out0", "int64", (2, 3)))))
    c.append(("neg", "same_kind", (op("in0", "complex64", (3,)),)))
    return c


def random_view(rng, role, dtype, shape, seed):
    """A base array and an index/transpose giving a view of `shape`."""
    nd = len(shape)
    perm = list(range(nd))
    if nd > 1 and rng.random() < 0.3:
        rng.shuffle(perm)
    # the sliced view has shape s where s[perm[i]] = shape[i]
    s = [0] * nd
    for i in range(nd):
        s[perm[i]] = shape[i]
    base_shape, parts = [], []
    sliced = False
    for n in s:
        step = rng.choice([1, 1, 1, 2, -1, -2]) if rng.random() < 0.4 else 1
        off = rng.choice([0, 0, 1])
        size = n * abs(step) + off
        base_shape.append(size)
        if step == 1 and off == 0:
            parts.append(":")
            continue
        sliced = True
        if step > 0:
            parts.append("%d:%d:%d" % (off, off + n * step, step))
        else:
            start = size - 1 - off
            stop = start + n * step
            parts.append("%d:%s:%d" % (start, stop if stop >= 0 else "",
                                       step))
    order = rng.choice("CCF")
    o = op(role, dtype, base_shape, order, seed)
    if sliced:
        o.ix = ", ".join(parts)
    if perm != list(range(nd)):
        o.axes = tuple(perm)  # np.transpose(v, perm) has `shape`
    return o


def random_cases(rng):
    cases = []
    names = ["add", "add", "iadd", "divmod", "neg"]
    # mostly types some loop takes; a few that none does
    in_dtypes = ["bool", "int8", "uint8", "int16", "uint16", "int32",
                 "int64", "float32", "float64", "float64", "float32",
                 "int16", "uint32"] * 4 + ["uint64", "complex64"]
    out_dtypes = ["float64", "float32", "int32", "int64", "complex128",
                  "int16", "uint8", "bool"]
    while len(cases) < NRANDOM:
        name = rng.choice(names)
        nin = UFUNCS[name][1]
        nout = len(UFUNCS[name][2][0]) - nin
        nd = rng.randint(0, 4)
        shape = [rng.choice([1, 2, 3, 4]) for _ in range(nd)]
        if nd and rng.random() < 0.05:
            shape[rng.randrange(nd)] = 0
        if int(np.prod(shape)) > 48:
            continue
        ops = []
        seed = 1
        for i in range(nin):
            k = rng.randint(0, nd)  # drop leading dims
            sh = [d if rng.random() > 0.25 else 1 for d in shape[k:]]
            dt = rng.choice(in_dtypes)
            ops.append(random_view(rng, "in%d" % i, dt, sh, seed))
            seed += 1
        for j in range(nout):
            if rng.random() < 0.4:
                dt = rng.choice(out_dtypes)
                sh = list(shape)
                if rng.random() < 0.05 and nd:
                    sh[rng.randrange(nd)] += 1  # wrong shape
                o = random_view(rng, "out%d" % j, dt, sh, seed)
                o.ro = rng.random() < 0.03
                ops.append(o)
                seed += 1
        if rng.random() < 0.3:
            k = rng.randint(0, nd)
            sh = [d if rng.random() > 0.4 else 1 for d in shape[k:]]
            ops.append(random_view(rng, "where", "bool", sh, seed))
        casting = rng.choice(["same_kind"] * 10 + ["unsafe"] * 7 +
                             ["safe", "no", "equiv"])
        cases.append((name, casting, tuple(ops)))
    return cases


def generate():
    rng = random.Random(SEED)
    out = ["# NumPy %s oracle for tests/test_ufunc_call.c, written by "
           "tests/gen/ufunc_cases.py (seed %d)" % (np.__version__, SEED)]
    for name, casting, ops in fixed_cases() + random_cases(rng):
        out.append(line(name, casting, list(ops)))
    return "\n".join(out) + "\n"


def main(argv):
    warnings.simplefilter("ignore")
    if len(argv) == 3 and argv[1] == "--check":
        with open(argv[2]) as f:
            committed = f.read()
        fresh = generate()
        strip = lambda t: [l for l in t.splitlines() if not l.startswith("#")]
        if strip(committed) != strip(fresh):
            a, b = strip(committed), strip(fresh)
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    print("first difference at case %d:\n  committed: %s\n"
                          "  NumPy now: %s" % (i + 1, x, y))
                    break
            else:
                print("case counts differ: %d vs %d" % (len(a), len(b)))
            print("regenerate with: %s %s" % (argv[0], argv[2]))
            return 1
        return 0
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--run"):
        print(__doc__)
        return 2
    with open(argv[1], "w") as f:
        f.write(generate())
    if len(argv) == 4:
        import subprocess
        return subprocess.call([argv[3], argv[1]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
