#!/usr/bin/env python3
"""Writes the NumPy oracle for tests/test_views.c: chains of view operations
(basic indexing, transpose, reshape, ravel, broadcast_to, squeeze,
expand_dims) applied to small arange arrays, with NumPy's result of each.

Usage: views_cases.py OUT [--run TEST_EXE]
       views_cases.py --check FILE

With --run, the fresh file is handed to TEST_EXE (test_views) and its exit
status returned, so CTest compares the C code with the installed NumPy too.
--check exits 1 unless FILE (the committed copy) is what NumPy gives now.
Exits 77 (CTest's skip code) when NumPy is missing.

One case per line ('#' starts a comment), fields separated by ' ; ':

    <dtype> <base shape> <C|F> ; <op> ; <op> ... ; => <result>

The base array is np.arange(size).astype(dtype).reshape(shape) laid out in
C or F order. Shapes and axis lists are tuples: (2,3), (4,), (). Ops:

    ix <expr>               a[expr], basic indexing as Python text
    T                       a.T
    T <axes>                np.transpose(a, axes)
    R <shape> <order> <v|c> np.reshape(a, shape, order=order); v when
                            NumPy's result shares the input's memory
    V <order> <v|c>         np.ravel(a, order), v/c as for R
    B <shape>               np.broadcast_to(a, shape)
    S                       np.squeeze(a)
    S <axes>                np.squeeze(a, axes)
    E <axis>                np.expand_dims(a, axis)

The result is either `ERR <UF_ERR_code> <NumPy's message>` (the last op
fails; earlier ones succeed) or

    <shape> | <strides> | <offset> | <flags> | <values>

strides in bytes; offset is the byte distance from the base array's first
element to the result's when the result still views the base array, or
`copy`; flags holds C, F (contiguity) and W (writeable), '-' when none;
values are the elements in C order.
"""
import random
import sys
import warnings

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

SEED = 20240611
NCASES = 700
DTYPES = ["int8", "int16", "int32", "int64", "float64"]


def tup(t):
    t = tuple(int(x) for x in t)
    if len(t) == 1:
        return "(%d,)" % t[0]
    return "(" + ",".join(str(x) for x in t) + ")"


def owner(a):
    while a.base is not None and isinstance(a.base, np.ndarray):
        a = a.base
    return a


def error_code(e):
    msg = str(e)
    if isinstance(e, np.exceptions.AxisError) or isinstance(e, IndexError):
        return "UF_ERR_INDEX"
    if msg.startswith("cannot reshape array of size") or \
       msg.startswith("operands could not be broadcast") or \
       msg.startswith("input operand has more dimensions") or \
       msg.startswith("cannot broadcast a non-scalar"):
        return "UF_ERR_SHAPE"
    return "UF_ERR_VALUE"


# ---- random operations -------------------------------------------------

def rand_bound(rng, n):
    return rng.randint(-n - 3, n + 3)


class _Index:
    """_Index()[text] turns index text into the object Python passes."""

    def __getitem__(self, key):
        return key


def index_objects(text):
    objs = eval("_IX[%s]" % text, {"_IX": _Index(), "np": np})
    objs = objs if isinstance(objs, tuple) else (objs,)
    if not any(o is Ellipsis for o in objs):
        objs = objs + (Ellipsis,)   # NumPy then gives a 0-d view, not a scalar
    return objs


def rand_slice(rng, n):
    parts = []
    for which in range(3):
        if rng.random() < 0.45:
            parts.append("" if rng.random() < 0.8 else "None")
        elif which == 2:
            parts.append(str(rng.choice([-3, -2, -1, 1, 2, 3])))
        else:
            parts.append(str(rng.randint(-n - 3, n + 3)))
    text = parts[0] + ":" + parts[1]
    if parts[2] or rng.random() < 0.3:
        text += ":" + parts[2]
    return text


def rand_index(rng, a):
    """Index text for a: mostly valid, sometimes broken on purpose."""
    items = []
    nd = a.ndim
    used = 0
    want = rng.randint(0, nd)
    ellipsis = False
    while used < want or rng.random() < 0.15:
        r = rng.random()
        if r < 0.12 and len(items) < 8:
            items.append(rng.choice(["None", "np.newaxis"]))
            continue
        if r < 0.2 and not ellipsis:
            ellipsis = True
            items.append("...")
            continue
        if used >= nd:
            break
        n = a.shape[used]
        if r < 0.4 and n > 0:
            items.append(str(rng.randint(-n, n - 1)))
        else:
            items.append(rand_slice(rng, n))
        used += 1
    r = rng.random()
    if r < 0.03 and nd > 0:
        k = a.shape[0] + rng.randint(0, 2)
        items.insert(0, str(k if rng.random() < 0.5 else -k - 1))
    elif r < 0.05:
        items.append("::0")
    elif r < 0.07:
        items += ["..."] * (1 if ellipsis else 2)
    elif r < 0.09:
        items += ["0"] * (nd + 1 - used)
    if not items:
        return "()"
    text = ", ".join(items)
    if len(items) == 1 and rng.random() < 0.3:
        text += ","
    return text


def factor(rng, size, nd):
    """A random shape of nd dims with product size (size > 0)."""
    dims = [1] * nd
    rest = size
    p = 2
    primes = []
    while rest > 1:
        while rest % p == 0:
            primes.append(p)
            rest //= p
        p += 1
    for q in primes:
        dims[rng.randrange(nd)] *= q
    return dims


def rand_reshape_shape(rng, a):
    size = a.size
    nd = rng.randint(0 if size == 1 else 1, 5)
    if size == 0:
        dims = [rng.randint(0, 3) for _ in range(nd)]
        if nd == 0 or 0 not in dims:
            dims = dims + [0]
    else:
        dims = factor(rng, size, max(nd, 1)) if nd > 0 else []
    r = rng.random()
    if r < 0.35 and dims and size > 0:
        dims[rng.randrange(len(dims))] = -1
    elif r < 0.4 and dims:
        dims[rng.randrange(len(dims))] += 1      # wrong size
    elif r < 0.42 and len(dims) >= 2:
        dims[0] = dims[1] = -1                   # two unknowns
    return dims


def rand_broadcast_shape(rng, a):
    out = []
    for n in a.shape:
        out.append(rng.randint(0, 3) if n == 1 else n)
    lead = [rng.randint(1, 3) for _ in range(rng.randint(0, 2))]
    shape = lead + out
    r = rng.random()
    if r < 0.06 and shape:
        shape[rng.randrange(len(shape))] += 2
    elif r < 0.08 and a.ndim > 0:
        shape = shape[2:]
    elif r < 0.1 and shape:
        shape[0] = -1
    return shape


def rand_axes(rng, nd, n):
    axes = rng.sample(range(nd), n) if n <= nd else []
    axes = [x - nd if rng.random() < 0.3 else x for x in axes]
    if rng.random() < 0.08 and nd > 0:
        axes = axes[:-1] + [nd + rng.randint(0, 2)] if axes else [nd]
    elif rng.random() < 0.08 and len(axes) >= 2:
        axes[1] = axes[0]
    return axes


def apply(rng, a):
    """Picks and applies one op: (text, result or exception, is_view)."""
    r = rng.random()
    if r < 0.38:
        text = rand_index(rng, a)
        objs = index_objects(text)
        return "ix " + text, lambda: a[objs]
    if r < 0.46:
        return "T", lambda: a.T
    if r < 0.54:
        axes = rand_axes(rng, a.ndim, a.ndim)
        return "T " + tup(axes), lambda: np.transpose(a, axes)
    if r < 0.72:
        shape = rand_reshape_shape(rng, a)
        order = rng.choice("CCFFA" if rng.random() > 0.02 else "K")
        return ("R %s %s" % (tup(shape), order),
                lambda: np.reshape(a, shape, order=order))
    if r < 0.82:
        order = rng.choice("CFAK")
        return "V " + order, lambda: np.ravel(a, order)
    if r < 0.9:
        shape = rand_broadcast_shape(rng, a)
        return "B " + tup(shape), lambda: np.broadcast_to(a, shape)
    if r < 0.95:
        ones = [i for i, n in enumerate(a.shape) if n == 1]
        if rng.random() < 0.4 or not ones:
            if rng.random() < 0.3 and a.ndim > 0:
                axes = rand_axes(rng, a.ndim, 1)
                return "S " + tup(axes), lambda: np.squeeze(a, tuple(axes))
            return "S", lambda: np.squeeze(a)
        axes = rng.sample(ones, rng.randint(1, len(ones)))
        if rng.random() < 0.1:
            axes.append(axes[0])
        return "S " + tup(axes), lambda: np.squeeze(a, tuple(axes))
    axis = rng.randint(-a.ndim - 1, a.ndim) if rng.random() > 0.05 \
        else a.ndim + 1
    return "E %d" % axis, lambda: np.expand_dims(a, axis)


def rand_base(rng):
    nd = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
    while True:
        shape = [rng.choice([0, 1, 1, 2, 3, 4, 5]) for _ in range(nd)]
        if np.prod(shape, dtype=np.int64) <= 120:
            break
    dtype = rng.choice(DTYPES)
    order = rng.choice("CCF")
    base = np.arange(int(np.prod(shape, dtype=np.int64))).astype(dtype)
    # copy(order=) rather than asfortranarray, which turns 0-d into 1-d
    base = base.reshape(shape).copy(order=order)
    return dtype, shape, order, base


def result_line(base, r):
    flags = ("C" if r.flags.c_contiguous else "") + \
            ("F" if r.flags.f_contiguous else "") + \
            ("W" if r.flags.writeable else "")
    if owner(r) is owner(base):
        off = str(r.__array_interface__["data"][0] -
                  base.__array_interface__["data"][0])
    else:
        off = "copy"
    values = ",".join(str(int(x)) for x in r.reshape(-1))
    return "%s | %s | %s | %s | %s" % (tup(r.shape), tup(r.strides), off,
                                       flags or "-", values)


def one_case(rng):
    dtype, shape, order, base = rand_base(rng)
    parts = ["%s %s %s" % (dtype, tup(shape), order)]
    a = base
    for _ in range(rng.randint(1, 4)):
        text, fn = apply(rng, a)
        try:
            r = fn()
        except (IndexError, ValueError, TypeError) as e:
            if isinstance(e, TypeError):
                return None
            parts.append(text)
            return " ; ".join(parts) + " ; => ERR %s %s" % (error_code(e), e)
        if r.size > 240 or r.ndim > 8:
            return None
        if text[0] in "RV":
            view = a.size == 0 or owner(r) is owner(a)
            text += " v" if view else " c"
        parts.append(text)
        a = r
    return " ; ".join(parts) + " ; => " + result_line(base, a)


# Hand-picked cases first: NumPy's documented corner cases.
FIXED = [
    # reshape of a transposed / sliced array: view or copy
    ("int64", (2, 3), "C", [("R", (6,), "C")]),
    ("int64", (2, 3), "C", [("T",), ("R", (6,), "C")]),
    ("int64", (2, 3), "C", [("T",), ("R", (6,), "F")]),
    ("int64", (3, 4), "C", [("ix", ":, :2"), ("R", (6,), "C")]),
    ("int64", (3, 4), "C", [("ix", ":, :2"), ("R", (3, 2, 1), "C")]),
    ("int64", (4, 1, 3), "C", [("ix", ":, :, ::2"), ("R", (4, 2, 1, 1), "C")]),
    ("int64", (4, 1, 3), "F", [("ix", ":, :, ::2"), ("R", (4, 2, 1, 1), "F")]),
    ("int64", (2, 3, 4), "C", [("ix", ":, ::-1"), ("R", (2, 3, 2, 2), "C")]),
    ("int64", (2, 3, 4), "C", [("ix", ":, ::-1"), ("R", (2, 12), "C")]),
    ("int64", (2, 3, 4), "C", [("T", (1, 0, 2)), ("R", (3, 8), "C")]),
    ("int64", (2, 3, 4), "C", [("T", (1, 0, 2)), ("R", (6, 4), "C")]),
    ("int64", (6,), "C", [("ix", "::2"), ("R", (3, 1), "C")]),
    ("int64", (4,), "C", [("ix", "::-1"), ("V", "K")]),
    ("int64", (2, 3), "C", [("ix", ":, ::-1"), ("T",), ("V", "K")]),
    ("int64", (3,), "C", [("B", (4, 3)), ("V", "K")]),
    ("int64", (3,), "C", [("B", (4, 3)), ("T",), ("V", "K")]),
    ("int64", (3, 4), "C", [("T",), ("ix", ":, ::-1"), ("V", "A")]),
    ("int64", (), "C", [("R", (1, 1), "C")]),
    ("int64", (1, 1), "C", [("R", (), "C")]),
    ("int64", (6,), "C", [("R", (4, -1), "C")]),
    ("int64", (6,), "C", [("R", (-1, 4), "C")]),
    ("int64", (6,), "C", [("R", (-1, -1), "C")]),
    ("int64", (6,), "C", [("R", (-2, 3), "C")]),
    ("int64", (0,), "C", [("R", (0, -1), "C")]),
    ("int64", (6,), "C", [("R", (6,), "K")]),
    ("int64", (3,), "C", [("ix", "5")]),
    ("int64", (3,), "C", [("ix", "-4")]),
    ("int64", (2, 3), "C", [("ix", ":, 5")]),
    ("int64", (3,), "C", [("ix", "None, 5")]),
    ("int64", (2, 3), "C", [("ix", "0, 0, 0")]),
    ("int64", (2, 3), "C", [("ix", "..., ...")]),
    ("int64", (3,), "C", [("ix", "::0")]),
    ("int64", (3,), "C", [("ix", "5:1")]),
    ("int64", (2, 3), "C", [("ix", ":, 3:")]),
    ("int64", (2, 3), "C", [("T", (0, 0))]),
    ("int64", (2, 3), "C", [("T", (0, 2))]),
    ("int64", (2, 3), "C", [("T", (0, -3))]),
    ("int64", (3,), "C", [("B", (2, 4))]),
    ("int64", (2, 3), "C", [("B", (3,))]),
    ("int64", (2, 3), "C", [("B", ())]),
    ("int64", (3,), "C", [("B", (-1, 3))]),
    ("int64", (0,), "C", [("B", (1,))]),
    ("int64", (2, 1), "C", [("B", (2, 0))]),
    ("int64", (2, 1), "C", [("B", (5, 2, 7))]),
    ("int64", (2, 3), "C", [("S", (1,))]),
    ("int64", (1, 1), "C", [("S", (0, 0))]),
    ("int64", (1, 1), "C", [("S", (0, -2))]),
    ("int64", (1, 1), "C", [("S", (2,))]),
    ("int64", (2, 3), "C", [("E", 3)]),
    ("int64", (2, 3), "C", [("E", -4)]),
    ("int64", (2, 3), "C", [("E", -3)]),
]


def fixed_case(dtype, shape, order, ops):
    size = int(np.prod(shape, dtype=np.int64))
    base = np.arange(size).astype(dtype).reshape(shape)
    base = base.copy(order=order)
    a = base
    parts = ["%s %s %s" % (dtype, tup(shape), order)]
    for op in ops:
        kind = op[0]
        if kind == "ix":
            text = "ix " + op[1]
            objs = index_objects(op[1])
            fn = (lambda a=a, objs=objs: a[objs])
        elif kind == "T":
            if len(op) == 1:
                text, fn = "T", (lambda a=a: a.T)
            else:
                text = "T " + tup(op[1])
                fn = (lambda a=a, ax=op[1]: np.transpose(a, ax))
        elif kind == "R":
            text = "R %s %s" % (tup(op[1]), op[2])
            fn = (lambda a=a, s=op[1], o=op[2]: np.reshape(a, s, order=o))
        elif kind == "V":
            text = "V " + op[1]
            fn = (lambda a=a, o=op[1]: np.ravel(a, o))
        elif kind == "B":
            text = "B " + tup(op[1])
            fn = (lambda a=a, s=op[1]: np.broadcast_to(a, s))
        elif kind == "S":
            text = "S " + tup(op[1])
            fn = (lambda a=a, ax=op[1]: np.squeeze(a, ax))
        else:
            text = "E %d" % op[1]
            fn = (lambda a=a, ax=op[1]: np.expand_dims(a, ax))
        try:
            r = fn()
        except (IndexError, ValueError) as e:
            parts.append(text)
            return " ; ".join(parts) + " ; => ERR %s %s" % (error_code(e), e)
        if kind in "RV":
            view = a.size == 0 or owner(r) is owner(a)
            text += " v" if view else " c"
        parts.append(text)
        a = r
    return " ; ".join(parts) + " ; => " + result_line(base, a)


def generate():
    warnings.simplefilter("error")
    lines = ["# NumPy %s oracle for tests/test_views.c, written by "
             "tests/gen/views_cases.py (seed %d)" % (np.__version__, SEED)]
    for case in FIXED:
        lines.append(fixed_case(*case))
    rng = random.Random(SEED)
    n = 0
    while n < NCASES:
        line = one_case(rng)
        if line is not None:
            lines.append(line)
            n += 1
    return lines


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--check":
        # The committed file must be what this script and NumPy give now
        # (comment lines aside: they name the NumPy version).
        with open(args[1]) as f:
            committed = [l.rstrip("\n") for l in f if not l.startswith("#")]
        fresh = [l for l in generate() if not l.startswith("#")]
        for i, (c, w) in enumerate(zip(committed, fresh)):
            if c != w:
                print("%s: case %d differs from NumPy %s:\n  committed: %s"
                      "\n  numpy:     %s" % (args[1], i + 1, np.__version__,
                                              c, w), file=sys.stderr)
                return 1
        if len(committed) != len(fresh):
            print("%s: %d cases, NumPy gives %d" %
                  (args[1], len(committed), len(fresh)), file=sys.stderr)
            return 1
        print("%s matches NumPy %s (%d cases)" %
              (args[1], np.__version__, len(fresh)))
        return 0
    if len(args) not in (1, 3) or (len(args) == 3 and args[1] != "--run"):
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], "w") as f:
        f.write("\n".join(generate()) + "\n")
    if len(args) == 3:
        import subprocess
        return subprocess.call([args[2], args[0]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
