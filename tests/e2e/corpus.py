"""The vocabulary of the kernel corpus cases (cases.py): input specs, cases
and error cases. run_numba_oracle.py turns them into `ufjit call` runs and
Numba calls.

An input spec makes one kernel argument twice over: the value Numba gets
and the command-line argument ufjit gets (a .npy file, a view of one, or a
scalar literal), from the same NumPy data.
"""
import os

import numpy as np


class Arr:
    """An array input: random (uniform in [lo, hi), ints in [lo, hi)) or
    given `values`, optionally with special float values mixed in, saved
    in C or Fortran order and passed whole or as a basic-index view."""

    def __init__(self, dtype, shape, lo=-10, hi=10, values=None,
                 special=False, order="C", index=None):
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.lo, self.hi = lo, hi
        self.values = values
        self.special = special
        self.order = order
        self.index = index

    def view(self, index):
        """The same data passed as FILE.npy[index]: a strided view."""
        return Arr(self.dtype, self.shape, self.lo, self.hi, self.values,
                   self.special, self.order, index)

    @property
    def F(self):
        """The same data saved in Fortran order."""
        return Arr(self.dtype, self.shape, self.lo, self.hi, self.values,
                   self.special, "F", self.index)

    def data(self, rng):
        dt, shape = self.dtype, self.shape
        if self.values is not None:
            a = np.array(self.values, dtype=dt)
            if shape:
                a = a.reshape(shape)
        elif dt.kind == "b":
            a = rng.integers(0, 2, size=shape).astype(dt)
        elif dt.kind in "iu":
            info = np.iinfo(dt)
            lo, hi = max(self.lo, info.min), min(self.hi, info.max + 1)
            a = rng.integers(lo, hi, size=shape, dtype=np.int64 if
                             dt.kind == "i" else np.uint64).astype(dt)
        elif dt.kind == "f":
            a = rng.uniform(self.lo, self.hi, size=shape).astype(dt)
        else:
            re = rng.uniform(self.lo, self.hi, size=shape)
            im = rng.uniform(self.lo, self.hi, size=shape)
            a = (re + 1j * im).astype(dt)
        if self.special and a.size:
            specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-310,
                                 1e308, -1e308, 0.5, -0.5, 1.0, -1.0, 3.0,
                                 -3.0, 2.5, -2.5], dtype=np.float64)
            flat = a.reshape(-1)
            pick = rng.random(flat.size) < 0.3
            with np.errstate(over="ignore"):
                flat[pick] = rng.choice(specials, pick.sum()).astype(dt)
        return np.asfortranarray(a) if self.order == "F" else a

    def materialise(self, rng, path):
        """(value for Numba, argument for ufjit); writes `path`."""
        a = self.data(rng)
        np.save(path, a)
        if self.index is None:
            return a, path
        arg = f"{path}[{self.index}]"
        try:
            return a[eval("np.s_[" + self.index + "]", {"np": np})], arg
        except IndexError:
            return None, arg  # a bad index, for error cases


def parse_scalar(text):
    """A scalar literal as `ufjit call` reads it, as a 0-d NumPy array."""
    if ":" in text:
        name, lit = text.split(":", 1)
        dt = np.dtype(name)
        if dt.kind == "b":
            return np.array(lit.lower() in ("true", "1"), dtype=dt)
        if dt.kind in "iu":
            return np.array(int(lit, 0), dtype=dt)
        if dt.kind == "f":
            return np.array(float(lit), dtype=dt)
        return np.array(complex(lit), dtype=dt)
    low = text.lower()
    if low in ("true", "false"):
        return np.array(low == "true")
    try:
        v = int(text, 0)
        return np.array(v, dtype=np.int64 if v < 2**63 else np.uint64)
    except ValueError:
        pass
    try:
        return np.array(float(text))
    except ValueError:
        return np.array(complex(text))


class S:
    """A scalar literal argument: "3", "2.5", "float32:2.5", "true"."""

    def __init__(self, text):
        self.text = text

    def materialise(self, rng, path):
        try:
            return parse_scalar(self.text), self.text
        except (ValueError, OverflowError, TypeError):
            return None, self.text  # a malformed literal, for error cases


def _dt(name):
    def make(*shape, **kw):
        return Arr(name, shape, **kw)
    return make


f8, f4, i8, i4, i2, i1 = (_dt(n) for n in ("f8", "f4", "i8", "i4", "i2",
                                            "i1"))
u8, u4, u2, u1, c16, c8, b1 = (_dt(n) for n in ("u8", "u4", "u2", "u1",
                                                 "c16", "c8", "b1"))


def V(dtype, values, shape=None):
    """Given values (1-d unless a shape is given)."""
    return Arr(dtype, shape or (len(values),), values=values)


class Case:
    """Run `kernel` of `file` on `inputs` in ufjit and in Numba (or with
    `expect`, a NumPy function of the inputs, where Numba cannot: kernels
    with several outputs) and compare. `ulps` > 0 allows that many units
    in the last place for floats (transcendental functions only)."""

    def __init__(self, file, kernel, inputs, ulps=0, expect=None,
                 note=""):
        self.file, self.kernel, self.inputs = file, kernel, inputs
        self.ulps, self.expect, self.note = ulps, expect, note
        self.id = None

    kind = "case"


class Fail:
    """`ufjit call` must fail: exit `rc`, `fragment` in its message (and
    for kernel errors `where` = (line, col) of the FILE:LINE:COL prefix,
    with the source line and a caret). `numba` says whether Numba refuses
    the same call too (True), accepts it (False: a documented ufjit
    limitation), or is not asked (None)."""

    def __init__(self, file, kernel, inputs, rc, fragment, where=None,
                 numba=None, extra=(), nout=1, source=None):
        self.file, self.kernel, self.inputs = file, kernel, inputs
        self.rc, self.fragment, self.where = rc, fragment, where
        self.numba, self.extra, self.nout = numba, list(extra), nout
        self.source = source
        self.note = ""
        self.id = None

    kind = "fail"


def source_case(source, kernel, inputs, rc, fragment, where=None,
                extra=(), nout=1):
    """A Fail whose kernel file is written from `source` at run time (for
    files Numba could not import: syntax errors, bad signatures)."""
    return Fail(None, kernel, inputs, rc, fragment, where, None, extra,
                nout, source)


def number(cases):
    """Gives every case a readable unique id: file.kernel#n."""
    seen = {}
    for c in cases:
        base = f"{os.path.splitext(c.file or 'src')[0]}.{c.kernel}"
        seen[base] = seen.get(base, 0) + 1
        c.id = f"{base}#{seen[base]}"
    return cases
