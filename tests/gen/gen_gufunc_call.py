#!/usr/bin/env python3
"""Writes the NumPy oracle for tests/test_gufunc_call.c: gufunc calls with
broadcast loop dimensions, views (F order, negative strides, strided,
transposed), given and allocated outputs, casting, axes=/axis=/keepdims,
empty and zero-size core dimensions and overlapping operands, with what
NumPy gives for each.

Usage: gen_gufunc_call.py OUT [--run TEST_EXE]
       gen_gufunc_call.py --check FILE

With --run, the fresh file is handed to TEST_EXE (test_gufunc_call) and its
exit status returned, so CTest checks the C code against the installed
NumPy too. --check exits 1 unless FILE (the committed copy) is what NumPy
gives now. Exits 77 (CTest's skip code) when NumPy is missing.

The C test registers the same gufuncs with hand-written loops following
gufunc/gufunc.h, with these loops in this order (ufjit's dispatch takes the
first loop the inputs cast to safely whose outputs the given outputs
accept, else the first the inputs accept; NumPy is then told the loop
through signature=):

    inner1d          (i),(i)->()            int64, float64
    matrix_multiply  (m,n),(n,p)->(m,p)     int64, float32, float64
    matmul           (m?,n),(n,p?)->(m?,p?) int64, float32, float64
    cross1d          (3),(3)->(3)           int64, float64
    max_min          (n)->(),()             float64
    scaled           (n)->(k,n)             float64

The first four are numpy._core._umath_tests' gufuncs, called for real.
max_min (np.max and np.min over the core axis) and scaled (out[..., k, n]
= x[..., n] * (k + 1), its k bound only by a given output) have no NumPy
gufunc; their values come from NumPy's array functions and only calls
that succeed are listed.

Overlap: NumPy copies an input that shares memory with an output, except
when both are the very same view (it assumes elementwise access, wrong for
a gufunc: matrix_multiply(a, a, out=a) is not a @ a). ufjit copies then
too, so the expected values are computed from copied inputs.

One case per line ('#' starts a comment), fields separated by ' ; ':

    <gufunc> ; <casting> ; <options> ; <operand> ; ... ; => <result>

<options> is '-' or space-separated axis=N, keepdims, axes=A/B/C (one
comma-separated list per operand, '/'-separated, possibly empty). An
operand is `<role> <array>` with role in0, in1, out0, out1, and parts
separated by ' | ':

    <dtype> <shape> <C|F> <seed> [| ix <expr>] [| T <axes>] [| ro]
    @<role> [| ix <expr>] [| T <axes>] [| ro]

The first form is a new base array (element k in C order holds fill(k,
seed), below) viewed through basic indexing, then a transpose; `ro` makes
the view read-only. `@role` views the base of an earlier operand. Outputs
not listed are allocated. The result is `ERR <UF_ERR_code> <message>`
(ufjit's message must start with NumPy's; '*' for broadcasting errors,
whose nditer wording ufjit does not copy), or one field per output:

    out<k> <dtype> <shape> <strides> <values>

strides in bytes for allocated outputs (only axes longer than 1, '-' for
a given output or an empty one); values in C order.

fill(k, seed): r = (k * 37 + seed * 11) % 41 - 20; bool r % 3 != 0 (r
taken in [0, 40]); signed ints r; unsigned r + 20; floats r / 4 except
r = 20 -> nan, 19 -> inf, -20 -> -inf; complex (float value, (r % 5) / 2).
Seeds >= 100 scale ints by (max // 20) to overflow.
"""
import random
import sys
import warnings

try:
    import numpy as np
    from numpy._core import _umath_tests as ut
except ImportError as e:
    print("SKIP: numpy (with numpy._core._umath_tests) is not available "
          "(%s)" % e)
    sys.exit(77)

SEED = 20240613
NRANDOM = 240

GUFUNCS = {
    # name: (numpy gufunc or None, nin, nout, loop dtypes)
    "inner1d": (ut.inner1d, 2, 1, ["int64", "float64"]),
    "matrix_multiply": (ut.matrix_multiply, 2, 1,
                        ["int64", "float32", "float64"]),
    "matmul": (ut.matmul, 2, 1, ["int64", "float32", "float64"]),
    "cross1d": (ut.cross1d, 2, 1, ["int64", "float64"]),
    "max_min": (None, 1, 2, ["float64"]),
    "scaled": (None, 1, 1, ["float64"]),
}

ROLES = ["in0", "in1", "out0", "out1"]


def tup(t):
    t = tuple(int(x) for x in t)
    if len(t) == 1:
        return "(%d,)" % t[0]
    return "(" + ",".join(str(x) for x in t) + ")"


def fill_value(k, seed, dtype):
    r = (k * 37 + seed * 11) % 41 - 20
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return (r + 20) % 3 != 0
    if dt.kind in "iu":
        v = r if dt.kind == "i" else r + 20
        return v * (np.iinfo(dt).max // 20) if seed >= 100 else v
    f = {20: float("nan"), 19: float("inf"), -20: float("-inf")}.get(r, r / 4)
    if dt.kind == "c":
        return complex(f, (r % 5) / 2)
    return f


def make_base(dtype, shape, order, seed):
    size = int(np.prod(shape, dtype=np.int64))
    flat = [fill_value(k, seed, dtype) for k in range(size)]
    base = np.empty(shape, dtype=dtype, order=order)
    base[...] = np.array(flat, dtype=dtype).reshape(shape)
    return base


class Operand:
    def __init__(self, role, spec, ix=None, axes=None, ro=False):
        self.role, self.spec = role, spec  # spec: (dt, shape, order, seed)
        self.ix, self.axes, self.ro = ix, axes, ro  # or "@role"

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
    spec = dtype if dtype.startswith("@") else (dtype, tuple(shape), order,
                                                seed)
    return Operand(role, spec, ix, axes, ro)


def build(operands):
    bases, views = {}, {}
    for o in operands:
        base = bases[o.spec[1:]] if isinstance(o.spec, str) \
            else make_base(*o.spec)
        bases[o.role] = base
        v = base
        if o.ix is not None:
            v = eval("(lambda a: a[%s])" % o.ix)(v)
        if o.axes is not None:
            v = np.transpose(v, o.axes)
        if o.ro:
            v = v.view()
            v.flags.writeable = False
        views[o.role] = v
    return views


def opts_text(opts):
    out = []
    if "axes" in opts:
        out.append("axes=" + "/".join(",".join(str(a) for a in e)
                                      for e in opts["axes"]))
    if "axis" in opts:
        out.append("axis=%d" % opts["axis"])
    if opts.get("keepdims"):
        out.append("keepdims")
    return " ".join(out) or "-"


def fmt_value(v, dt):
    if dt.kind == "b":
        return "1" if v else "0"
    if dt.kind in "iu":
        return str(int(v))
    if dt.kind == "c":
        return "%r:%r" % (float(v.real), float(v.imag))
    return repr(float(v))


def error_code(e):
    msg = str(e)
    if isinstance(e, np.exceptions.AxisError):
        return "UF_ERR_INDEX", msg
    if msg.startswith("operands could not be broadcast") or \
       msg.startswith("non-broadcastable output"):
        return "UF_ERR_SHAPE", "*"
    if "mismatch in its core dimension" in msg or \
       "does not have enough dimensions" in msg:
        return "UF_ERR_SHAPE", msg
    if msg.startswith("Cannot cast"):
        return "UF_ERR_CAST", msg
    if msg == "output array is read-only":
        return "UF_ERR_READONLY", msg
    if "not supported for the input types" in msg:
        return "UF_ERR_TYPE", msg
    if "does not support keepdims" in msg or \
       "axis can only be used" in msg:
        return "UF_ERR_INVALID", msg
    if msg.startswith("axes should be a list") or "repeated" in msg:
        return "UF_ERR_VALUE", msg
    raise RuntimeError("unexpected NumPy error: %r" % msg)


def choose_loop(loops, ins, outs, casting):
    """ufjit's dispatch (gufunc/gufunc.c)."""
    first = None
    for t in loops:
        if not all(np.can_cast(a.dtype, t, "safe") for a in ins):
            continue
        if all(o is None or np.can_cast(t, o.dtype, casting) for o in outs):
            return t
        first = first or t
    return first


def no_loop(name):
    return ("ERR UF_ERR_TYPE ufunc '%s' not supported for the input types, "
            "and the inputs could not be safely coerced to any supported "
            "types according to the casting rule ''safe''" % name)


def emulate(name, ins, outs, loop, opts):
    """max_min and scaled, which NumPy has no gufunc for."""
    x = ins[0].astype(loop)
    if name == "max_min":
        ax = opts.get("axis", -1) % x.ndim
        kd = opts.get("keepdims", False)
        # NumPy allocates outputs in K order of the loop dimensions
        lay = np.moveaxis(ins[0], ax, -1)[..., 0]
        res = []
        for f in (np.max, np.min):
            r = np.empty_like(lay, dtype=loop)
            if kd:
                r = np.expand_dims(r, ax)
            r[...] = f(x, axis=ax, keepdims=kd)
            res.append(r)
    else:
        k = outs[0].shape[-2]
        full = x[..., None, :] * (np.arange(k, dtype=loop) + 1)[:, None]
        res = [np.broadcast_to(full, outs[0].shape)]
    out = []
    for r, o in zip(res, outs):
        if o is not None:
            o[...] = r.astype(o.dtype, casting="unsafe")
            r = o
        out.append(r)
    return out


REFERENCES = {
    "inner1d": lambda a, b: np.einsum("...i,...i->...", a, b),
    "matrix_multiply": np.matmul,
    "matmul": np.matmul,
    "cross1d": np.cross,
}


def cross_check(name, ins, got):
    """_umath_tests' answer is NumPy's public functions' answer too."""
    with np.errstate(all="ignore"):
        want = REFERENCES[name](*ins)
    np.testing.assert_array_equal(np.asarray(got, dtype=want.dtype), want,
                                  err_msg="%s disagrees with NumPy" % name)


def run_case(name, casting, opts, operands):
    fn, nin, nout, loops = GUFUNCS[name]
    views = build(operands)
    ins = [views["in%d" % i] for i in range(nin)]
    outs = [views.get("out%d" % i) for i in range(nout)]
    for o in outs:
        if o is not None and not o.flags.writeable:
            return "ERR UF_ERR_READONLY output array is read-only"
    loop = choose_loop(loops, ins, outs, casting)
    if loop is None:
        return no_loop(name)
    # an input sharing memory with an output is read as it was before
    ins = [a.copy() if any(o is not None and np.shares_memory(a, o)
                           for o in outs) else a for a in ins]
    kw = dict(opts)
    kw["casting"] = casting
    if fn is None:
        for k, o in enumerate(outs):
            if o is not None and not np.can_cast(loop, o.dtype, casting):
                return ("ERR UF_ERR_CAST Cannot cast ufunc '%s' output%s "
                        "from dtype('%s') to dtype('%s') with casting rule "
                        "'%s'" % (name, " %d" % (nin + k) if nout > 1
                                  else "", loop, o.dtype, casting))
        res = emulate(name, ins, outs, loop, opts)
    else:
        kw["signature"] = (loop,) * (nin + nout)
        if any(o is not None for o in outs):
            kw["out"] = tuple(outs)
        try:
            with np.errstate(all="ignore"):
                res = fn(*ins, **kw)
        except (TypeError, ValueError) as e:
            code, msg = error_code(e)
            return "ERR %s %s" % (code, msg)
        res = list(res) if isinstance(res, tuple) else [res]
        if not opts and all(o is None for o in outs):
            cross_check(name, [a.astype(loop) for a in ins], res[0])
    fields = []
    for k, r in enumerate(res):
        r = np.asarray(r)
        given = outs[k] is not None
        if given or r.size == 0:
            strides = "-"
        else:
            strides = tup(s for s, n in zip(r.strides, r.shape) if n > 1)
        vals = [fmt_value(r[idx], r.dtype) for idx in np.ndindex(*r.shape)]
        fields.append("out%d %s %s %s %s" % (k, r.dtype.name, tup(r.shape),
                                             strides, ",".join(vals) or "-"))
    return " ; ".join(fields)


def line(name, casting, opts, operands):
    result = run_case(name, casting, opts, operands)
    parts = [name, casting, opts_text(opts)] + [o.text() for o in operands]
    return " ; ".join(parts) + " ; => " + result


def fixed_cases():
    c = []

    def add(name, *ops, casting="same_kind", **opts):
        c.append((name, casting, opts, ops))

    i1 = lambda *ops, **kw: add("inner1d", *ops, **kw)
    mm = lambda *ops, **kw: add("matrix_multiply", *ops, **kw)
    mt = lambda *ops, **kw: add("matmul", *ops, **kw)
    cr = lambda *ops, **kw: add("cross1d", *ops, **kw)
    mx = lambda *ops, **kw: add("max_min", *ops, **kw)
    sc = lambda *ops, **kw: add("scaled", *ops, **kw)
    f8 = "float64"

    # inner1d: broadcasting, 0-d loop space, views of every kind
    i1(op("in0", f8, (3, 4)), op("in1", f8, (4,), seed=2))
    i1(op("in0", f8, (4,)), op("in1", f8, (4,), seed=2))
    i1(op("in0", f8, (2, 1, 3, 4)), op("in1", f8, (5, 1, 4), seed=2))
    i1(op("in0", f8, (3, 4), "F"), op("in1", f8, (3, 4), "F", seed=2))
    i1(op("in0", f8, (3, 8), ix="::-1, ::-2"), op("in1", f8, (4,), seed=2))
    i1(op("in0", f8, (4, 6), ix="1:, ::2", axes=(1, 0)),
       op("in1", f8, (2, 1, 3), "F", seed=2))
    i1(op("in0", f8, (2, 3, 4), "F", ix="::-1", axes=(2, 0, 1)),
       op("in1", f8, (2, 3), seed=2, ix="::-1"))
    # dispatch and input casting
    i1(op("in0", "int32", (3, 4)), op("in1", "int32", (4,), seed=2))
    i1(op("in0", "int8", (3, 4)), op("in1", "float32", (4,), seed=2))
    i1(op("in0", "uint64", (2, 3)), op("in1", "bool", (3,), seed=2))
    i1(op("in0", "int16", (2, 3), "F"), op("in1", "uint8", (3,), seed=2))
    i1(op("in0", "complex128", (2, 3)), op("in1", f8, (3,), seed=2))
    i1(op("in0", "int64", (3, 5), seed=100), op("in1", "int64", (5,),
                                                  seed=101))
    i1(op("in0", "int32", (3, 4)), op("in1", "int32", (4,), seed=2),
       casting="no")
    i1(op("in0", "int64", (3, 4)), op("in1", "int64", (4,), seed=2),
       casting="no")
    # given outputs: casts, broadcasting the inputs, wrong shapes
    i1(op("in0", f8, (3, 4)), op("in1", f8, (4,), seed=2),
       op("out0", "float32", (3,), seed=3))
    i1(op("in0", f8, (3, 4)), op("in1", f8, (4,), seed=2),
       op("out0", "int32", (3,), seed=3))
    i1(op("in0", f8, (3, 4)), op("in1", f8, (4,), seed=2),
       op("out0", "int32", (3,), seed=3), casting="unsafe")
    i1(op("in0", "int64", (3, 4)), op("in1", "int64", (4,), seed=2),
       op("out0", f8, (3,), seed=3))
    i1(op("in0", "int64", (3, 4)), op("in1", "int64", (4,), seed=2),
       op("out0", "int8", (3,), seed=3), casting="safe")
    i1(op("in0", f8, (3, 4)), op("in1", f8, (4,), seed=2),
       op("out0", "complex64", (2, 3), seed=3))
    i1(op("in0", f8, (3, 4)), op("in1", f8, (4,), seed=2),
       op("out0", f8, (7,), seed=3, ix="::-2"))
    i1(op("in0", f8, (3, 4)), op("in1", f8, (4,), seed=2),
       op("out0", f8, (4,), seed=3))
    i1(op("in0", f8, (3, 4)), op("in1", f8, (4,), seed=2),
       op("out0", f8, (3, 1), seed=3))
    i1(op("in0", f8, (3, 4)), op("in1", f8, (4,), seed=2),
       op("out0", f8, (3,), seed=3, ro=True))
    i1(op("in0", "complex64", (3, 4)), op("in1", f8, (4,), seed=2),
       op("out0", f8, (3,), seed=3, ro=True))
    # shapes: empty loop space, zero-size core, mismatches, broadcasting
    i1(op("in0", f8, (0, 4)), op("in1", f8, (4,), seed=2))
    i1(op("in0", f8, (2, 0, 4)), op("in1", f8, (1, 1, 4), seed=2))
    i1(op("in0", f8, (3, 0)), op("in1", f8, (0,), seed=2))
    i1(op("in0", "int64", (2, 3, 0)), op("in1", "int64", (3, 0), seed=2))
    i1(op("in0", f8, (3, 4)), op("in1", f8, (5,), seed=2))
    i1(op("in0", f8, (2, 4)), op("in1", f8, (3, 4), seed=2))
    i1(op("in0", f8, (4,)), op("in1", f8, (), seed=2))
    i1(op("in0", f8, (0, 4)), op("in1", f8, (4,), seed=2),
       op("out0", "int32", (0,)))
    # axis=, axes=, keepdims
    i1(op("in0", f8, (4, 3)), op("in1", f8, (4, 3), seed=2), axis=0)
    i1(op("in0", f8, (2, 4, 3)), op("in1", f8, (4, 1), seed=2), axis=-2)
    i1(op("in0", f8, (4, 3)), op("in1", f8, (4, 3), seed=2), axis=0,
       keepdims=True)
    i1(op("in0", f8, (3, 4)), op("in1", f8, (3, 4), seed=2), keepdims=True)
    i1(op("in0", f8, (3, 4)), op("in1", f8, (4,), seed=2),
       op("out0", f8, (3, 1), seed=3), keepdims=True)
    i1(op("in0", f8, (4, 3)), op("in1", f8, (3, 4), seed=2),
       axes=[(0,), (1,)])
    i1(op("in0", f8, (4, 3)), op("in1", f8, (3, 4), seed=2),
       axes=[(0,), (-1,), ()])
    i1(op("in0", f8, (4, 3)), op("in1", f8, (4, 3), seed=2), axis=2)
    i1(op("in0", f8, (4, 3)), op("in1", f8, (4, 3), seed=2),
       axes=[(0,), (0,), (0,)])
    # overlap: outputs inside an input's memory read the input first
    i1(op("in0", f8, (4, 3)), op("in1", f8, (3,), seed=2),
       op("out0", "@in0", ix=":, 0"))
    i1(op("in0", f8, (4, 4), seed=3), op("in1", "@in0", ix="0"),
       op("out0", "@in0", ix="::-1, 1"))

    # matrix_multiply: F order, strides, broadcasting, casts, axes
    mm(op("in0", f8, (2, 3)), op("in1", f8, (3, 4), seed=2))
    mm(op("in0", f8, (5, 2, 3), "F"), op("in1", f8, (5, 3, 4), "F", seed=2))
    mm(op("in0", f8, (2, 1, 2, 3)), op("in1", f8, (3, 3, 4), seed=2))
    mm(op("in0", f8, (2, 1, 1, 2, 3), "F"),
       op("in1", f8, (1, 3, 2, 3, 2), seed=2))
    mm(op("in0", f8, (4, 6, 6), ix="::-1, ::2, 1::2"),
       op("in1", f8, (3, 5), seed=2, ix="::-1, ::-2"))
    mm(op("in0", f8, (3, 2), axes=(1, 0)),
       op("in1", f8, (2, 4, 3), "F", seed=2, axes=(0, 2, 1)))
    mm(op("in0", "float32", (2, 2, 3)), op("in1", "float32", (3, 2), seed=2))
    mm(op("in0", "int16", (2, 3)), op("in1", "int8", (3, 2), seed=2))
    mm(op("in0", "float32", (2, 3)), op("in1", "int16", (3, 2), seed=2))
    mm(op("in0", "float32", (2, 3)), op("in1", "int32", (3, 2), seed=2))
    mm(op("in0", "int64", (2, 3), seed=100),
       op("in1", "int64", (3, 2), seed=102))
    mm(op("in0", "bool", (2, 3)), op("in1", "bool", (3, 2), seed=2))
    mm(op("in0", f8, (2, 3)), op("in1", f8, (3, 2), seed=2),
       op("out0", f8, (2, 2), "F", seed=3))
    mm(op("in0", f8, (3, 2, 3)), op("in1", f8, (3, 2), seed=2),
       op("out0", "float32", (2, 3, 2), "F", seed=3, axes=(1, 0, 2)))
    mm(op("in0", "float32", (2, 3)), op("in1", "float32", (3, 2), seed=2),
       op("out0", "complex128", (2, 2), seed=3), casting="safe")
    mm(op("in0", f8, (2, 3)), op("in1", f8, (3, 2), seed=2),
       op("out0", "float32", (2, 2), seed=3), casting="safe")
    mm(op("in0", f8, (2, 3)), op("in1", f8, (3, 2), seed=2),
       op("out0", "int16", (4, 6), seed=3, ix="::-2, 1::3"),
       casting="unsafe")
    mm(op("in0", f8, (2, 3)), op("in1", f8, (4, 2), seed=2))
    mm(op("in0", f8, (2, 3)), op("in1", f8, (3, 2), seed=2),
       op("out0", f8, (2, 3), seed=3))
    mm(op("in0", f8, (3,)), op("in1", f8, (3, 2), seed=2))
    mm(op("in0", f8, (2, 0)), op("in1", f8, (0, 3), seed=2))
    mm(op("in0", f8, (4, 0, 3)), op("in1", f8, (3, 2), seed=2))
    mm(op("in0", f8, (0, 2, 3)), op("in1", f8, (3, 2), seed=2))
    mm(op("in0", f8, (2, 3, 5)), op("in1", f8, (4, 3, 5), seed=2),
       axes=[(0, 1), (1, 0), (0, 1)])
    mm(op("in0", f8, (5, 2, 3)), op("in1", f8, (5, 3, 4), seed=2),
       axes=[(1, 2), (1, 2), (2, 0)])
    mm(op("in0", f8, (2, 3)), op("in1", f8, (3, 2), seed=2),
       axes=[(0, 1), (0, 1)])
    mm(op("in0", f8, (2, 3)), op("in1", f8, (3, 2), seed=2),
       axes=[(0, 0), (0, 1), (0, 1)])
    mm(op("in0", f8, (2, 3)), op("in1", f8, (3, 2), seed=2), axis=0)
    mm(op("in0", f8, (2, 3)), op("in1", f8, (3, 2), seed=2),
       keepdims=True)
    # in place: the same view as input and output, and shifted views
    mm(op("in0", f8, (3, 3)), op("in1", "@in0"), op("out0", "@in0"))
    mm(op("in0", f8, (3, 3)), op("in1", f8, (3, 3), seed=2),
       op("out0", "@in1", axes=(1, 0)))
    mm(op("in0", f8, (4, 3), ix="1:"), op("in1", f8, (3, 3), seed=2),
       op("out0", "@in0", ix=":3"))

    # matmul with flexible dimensions
    mt(op("in0", f8, (3,)), op("in1", f8, (3,), seed=2))
    mt(op("in0", f8, (3,)), op("in1", f8, (2, 3, 4), seed=2))
    mt(op("in0", f8, (2, 3)), op("in1", f8, (3,), seed=2))
    mt(op("in0", f8, (4, 2, 3), "F"), op("in1", f8, (6,), seed=2,
                                         ix="::-2"))
    mt(op("in0", f8, (2, 1, 2, 3)), op("in1", f8, (3, 3, 2), seed=2))
    mt(op("in0", "int32", (3,)), op("in1", "int16", (3, 2), seed=2))
    mt(op("in0", f8, (3,)), op("in1", f8, (3,), seed=2),
       op("out0", "float32", (), seed=3))
    mt(op("in0", f8, (2, 3)), op("in1", f8, (3,), seed=2),
       op("out0", f8, (2, 1), seed=3))
    mt(op("in0", f8, (3,)), op("in1", f8, (4,), seed=2))
    mt(op("in0", f8, (2, 3)), op("in1", f8, (2, 3), seed=2))
    mt(op("in0", f8, ()), op("in1", f8, (3,), seed=2))
    mt(op("in0", f8, (0,)), op("in1", f8, (0, 2), seed=2))
    mt(op("in0", f8, (2, 3)), op("in1", f8, (2, 4), seed=2),
       axes=[(-1, -2), (-2, -1), (-1, -2)])

    # cross1d: a fixed-size dimension
    cr(op("in0", f8, (4, 3)), op("in1", f8, (3,), seed=2))
    cr(op("in0", f8, (2, 1, 3), "F"), op("in1", f8, (5, 3), seed=2,
                                          ix="::-1"))
    cr(op("in0", "int64", (3, 3)), op("in1", "int32", (3, 3), seed=2))
    cr(op("in0", "int64", (2, 3), seed=100),
       op("in1", "int64", (2, 3), seed=103))
    cr(op("in0", f8, (3, 4)), op("in1", f8, (3, 4), seed=2), axis=0)
    cr(op("in0", f8, (3, 4)), op("in1", f8, (4, 3), seed=2),
       axes=[(0,), (1,), (0,)])
    cr(op("in0", f8, (4, 2)), op("in1", f8, (2,), seed=2))
    cr(op("in0", f8, (4, 3)), op("in1", f8, (3,), seed=2),
       op("out0", f8, (4, 4), seed=3))
    cr(op("in0", f8, (3, 3)), op("in1", f8, (3, 3), seed=2),
       op("out0", "@in0", ix="::-1"))

    # max_min: two outputs, NaN propagation, axis=, keepdims
    mx(op("in0", f8, (3, 5)))
    mx(op("in0", f8, (2, 3, 5), "F", ix="::-1, :, ::-2"))
    mx(op("in0", "int32", (4, 3)), axis=0)
    mx(op("in0", "float32", (4, 3)), axis=0, keepdims=True)
    mx(op("in0", f8, (4, 3), "F"), keepdims=True)
    mx(op("in0", f8, (6,)), op("out1", "float32", (), seed=2))
    mx(op("in0", f8, (2, 6)), op("out0", "int64", (2,), seed=2),
       casting="unsafe")
    mx(op("in0", f8, (2, 6)), op("out1", "int64", (2,), seed=2))
    mx(op("in0", "complex64", (2, 6)))

    # scaled: dimension k exists only in the given output
    sc(op("in0", f8, (2, 3)), op("out0", f8, (2, 4, 3), seed=2))
    sc(op("in0", f8, (3,)), op("out0", f8, (2, 4, 3), "F", seed=2))
    sc(op("in0", "int16", (1, 3)), op("out0", "float32", (5, 2, 3), seed=2,
                                      ix="::-2"))
    sc(op("in0", f8, (3,)), op("out0", f8, (0, 3), seed=2))
    return c


def random_view(rng, role, dtype, shape, seed):
    """A base array and an index/transpose giving a view of `shape`."""
    nd = len(shape)
    perm = list(range(nd))
    if nd > 1 and rng.random() < 0.3:
        rng.shuffle(perm)
    s = [0] * nd
    for i in range(nd):
        s[perm[i]] = shape[i]
    base_shape, parts, sliced = [], [], False
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
    o = op(role, dtype, base_shape, rng.choice("CCF"), seed)
    if sliced:
        o.ix = ", ".join(parts)
    if perm != list(range(nd)):
        o.axes = tuple(perm)
    return o


CORES = {
    "inner1d": (["i"], ["i"], []),
    "matrix_multiply": (["m", "n"], ["n", "p"], ["m", "p"]),
    "matmul": (["m", "n"], ["n", "p"], ["m", "p"]),
    "cross1d": (["3"], ["3"], ["3"]),
}


def random_cases(rng):
    cases = []
    names = ["inner1d", "matrix_multiply", "matrix_multiply", "matmul",
             "cross1d"]
    in_dtypes = ["int8", "int16", "int32", "int64", "float32", "float64",
                 "float64", "uint8", "bool"] * 3 + ["complex64", "uint64"]
    out_dtypes = ["float64", "float32", "int64", "int32", "complex128",
                  "int16"]
    while len(cases) < NRANDOM:
        name = rng.choice(names)
        cin0, cin1, cout = CORES[name]
        size = {n: rng.choice([0, 1, 2, 3, 4] if rng.random() < 0.1
                              else [1, 2, 3, 4]) for n in "imnp"}
        size["3"] = 3
        nd = rng.randint(0, 3)
        loop = [rng.choice([1, 2, 3]) for _ in range(nd)]
        if nd and rng.random() < 0.04:
            loop[rng.randrange(nd)] = 0
        core = [[size[n] for n in c] for c in (cin0, cin1, cout)]
        if name == "matmul" and rng.random() < 0.4:
            which = rng.randrange(2)      # drop m from in0 or p from in1
            core[which] = core[which][1:] if which == 0 else core[1][:-1]
            core[2] = [d for d, n in zip(core[2], cout)
                       if not (which == 0 and n == "m") and
                       not (which == 1 and n == "p")]
        if rng.random() < 0.04:            # a core mismatch
            core[1] = [d + 1 for d in core[1]]
        if int(np.prod(loop + [4, 4])) > 200:
            continue
        ops, seed = [], 1
        for i in range(2):
            k = rng.randint(0, nd)
            lp = [d if rng.random() > 0.25 else 1 for d in loop[nd - k:]]
            ops.append(random_view(rng, "in%d" % i, rng.choice(in_dtypes),
                                   lp + core[i], seed))
            seed += 1
        if rng.random() < 0.4:
            o = random_view(rng, "out0", rng.choice(out_dtypes),
                            loop + core[2], seed)
            o.ro = rng.random() < 0.03
            ops.append(o)
        casting = rng.choice(["same_kind"] * 8 + ["unsafe"] * 4 +
                             ["safe", "no"])
        cases.append((name, casting, {}, tuple(ops)))
    return cases


def generate():
    rng = random.Random(SEED)
    out = ["# NumPy %s oracle for tests/test_gufunc_call.c, written by "
           "tests/gen/gen_gufunc_call.py (seed %d)" % (np.__version__, SEED)]
    for name, casting, opts, ops in fixed_cases() + random_cases(rng):
        out.append(line(name, casting, opts, list(ops)))
    return "\n".join(out) + "\n"


def main(argv):
    warnings.simplefilter("ignore")
    if len(argv) == 3 and argv[1] == "--check":
        with open(argv[2]) as f:
            committed = f.read()
        strip = lambda t: [l for l in t.splitlines() if not l.startswith("#")]
        a, b = strip(committed), strip(generate())
        if a != b:
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
