"""The kernel file ufjit's C compiler reads for a decorated function.

Nothing of a kernel runs in Python: its source (inspect.getsource) goes to
the compiler, with what it uses from its module written in front of it on
line 1 (imports, constants, module-level arrays, type objects) and the
kernels it calls beside it. Each function keeps the line numbers it has in
its own file, so an error's file:line:col points at the user's source."""

import ast
import builtins
import dis
import inspect
import math
import cmath
import textwrap
import types as pytypes

import numpy as np

from . import types as uftypes
from .errors import UnsupportedError

_NUMBA_NAMES = {"vectorize", "guvectorize", "njit", "jit", "reduce", "cuda"}


def _global_loads(code):
    """The global names a code object (and those nested in it) loads."""
    names = []
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME") and \
                ins.argval not in names:
            names.append(ins.argval)
    for const in code.co_consts:
        if isinstance(const, pytypes.CodeType):
            names += [n for n in _global_loads(const) if n not in names]
    return names


class _Kernel:
    """One function's place in the file: its lines, from its first
    decorator line, with the decorator replaced by ufjit's text."""

    def __init__(self, dispatcher):
        func = dispatcher.py_func
        self.name = func.__name__
        self.file = inspect.getsourcefile(func) or "<ufjit>"
        try:
            lines, first = inspect.getsourcelines(func)
        except (OSError, TypeError) as e:
            raise UnsupportedError(
                f"ufjit: the source of '{self.name}' is not available "
                f"({e}); kernels must be defined in a .py file") from None
        text = textwrap.dedent("".join(lines))
        tree = ast.parse(text)
        fn = tree.body[0]
        if not isinstance(fn, ast.FunctionDef):
            raise UnsupportedError(f"ufjit: '{self.name}' is not a def")
        src = text.splitlines()
        ndeco = fn.lineno - 1  # lines before `def`: the decorators
        self.first = max(first, 1)
        self.lines = [dispatcher._decorator_text()] + [""] * (ndeco - 1) \
            if ndeco else [dispatcher._decorator_text()]
        if ndeco == 0:  # no decorator line (decorator applied as a call)
            self.first -= 1
        self.lines += src[ndeco:]


class _Header:
    """Line 1: imports and constants, as `a; b; c`."""

    def __init__(self):
        self.parts = []

    def add(self, stmt):
        if stmt not in self.parts:
            self.parts.append(stmt)

    def text(self):
        return "; ".join(self.parts)


def _constant(name, value, header, kernel):
    """A module-level value a kernel uses, as a statement; None when it is
    not one ufjit can fold."""
    if isinstance(value, bool) or value is None:
        return f"{name} = {value!r}"
    if isinstance(value, (int, float, complex)):
        return f"{name} = {_number(value)}"
    if isinstance(value, np.generic) and value.dtype.kind in "biufc":
        t = value.dtype.name
        header.add(f"from numba import {t}")
        return f"{name} = {t}({_number(value.item())})"
    if isinstance(value, tuple) and all(
            isinstance(v, (bool, int, float, complex)) for v in value):
        body = ", ".join(_number(v) for v in value)
        return f"{name} = ({body}{',' if len(value) == 1 else ''})"
    if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        header.add("import numpy as _ufjit_np")
        return (f"{name} = _ufjit_np.array({value.tolist()!r}, "
                f"dtype=_ufjit_np.{value.dtype.name})")
    return None


def _number(v):
    if isinstance(v, bool):
        return repr(v)
    if isinstance(v, float) and not math.isfinite(v):
        return {"inf": "float('inf')", "-inf": "float('-inf')"}.get(
            repr(v), "float('nan')")
    if isinstance(v, complex):
        return f"complex({_number(v.real)}, {_number(v.imag)})"
    return repr(v)


def _module_import(name, mod):
    full = mod.__name__
    if full in ("numba.cuda", "ufjit.cuda"):
        return "from numba import cuda" if name == "cuda" else \
            f"from numba import cuda as {name}"
    if full == "ufjit":
        full = "numba"
    if full == name:
        return f"import {full}"
    return f"import {full} as {name}"


def _resolve(name, func, header, kernels, deps, kernel):
    """Writes what global `name` of `func` needs into the header, or adds
    the kernel it names to `deps`."""
    g = func.__globals__
    if name not in g:
        return  # a builtin, or unknown: the compiler says which
    value = g[name]
    from ._dispatch import Dispatcher
    if isinstance(value, Dispatcher):
        if value.py_func.__name__ != name:
            raise UnsupportedError(
                f"ufjit: kernel '{value.py_func.__name__}' is called as "
                f"'{name}' in '{func.__name__}': call it by its own name")
        deps.append(value)
        return
    if isinstance(value, pytypes.ModuleType):
        header.add(_module_import(name, value))
        return
    if isinstance(value, (uftypes.Type,)):
        header.add(f"from numba import {value.name} as {name}"
                   if value.name != name else f"from numba import {name}")
        return
    mod = getattr(value, "__module__", None)
    if callable(value) and mod in ("math", "cmath", "numpy", "builtins") \
            or isinstance(value, np.ufunc):
        src = "numpy" if isinstance(value, np.ufunc) else mod
        real = getattr(value, "__name__", name)
        header.add(f"from {src} import {real}" if real == name else
                   f"from {src} import {real} as {name}")
        return
    if callable(value) and mod == "numba.np.arraymath" and \
            getattr(value, "__name__", "") == "cross2d":
        # numba.np.extensions.cross2d (Numba defines it in arraymath)
        header.add("from numba.np.extensions import cross2d" +
                   ("" if name == "cross2d" else f" as {name}"))
        return
    if name in _NUMBA_NAMES:
        return
    stmt = _constant(name, value, header, kernel)
    if stmt is None:
        raise UnsupportedError(
            f"{kernel.file}:{kernel.first}: ufjit: '{func.__name__}' uses "
            f"the global '{name}' of type {type(value).__name__}; kernels "
            f"may use numbers, tuples of numbers, NumPy arrays, modules "
            f"(math, numpy, ...), type objects and other kernels")
    header.add(stmt)


def build(dispatcher):
    """(file name, kernel file text) for `dispatcher` and what it calls."""
    header = _Header()
    header.add("from numba import vectorize, guvectorize, njit, jit, reduce, cuda")
    order, seen, pending = [], set(), [dispatcher]
    while pending:
        d = pending.pop(0)
        if id(d) in seen:
            continue
        seen.add(id(d))
        k = _Kernel(d)
        order.append(k)
        deps = []
        for name in _global_loads(d.py_func.__code__):
            if name in vars(builtins) and name not in d.py_func.__globals__:
                continue
            _resolve(name, d.py_func, header, order, deps, k)
        # closure cells: constants of the enclosing function
        code = d.py_func.__code__
        for name, cell in zip(code.co_freevars, d.py_func.__closure__ or ()):
            stmt = _constant(name, cell.cell_contents, header, k)
            if stmt is None:
                raise UnsupportedError(
                    f"{k.file}:{k.first}: ufjit: '{k.name}' uses '{name}' "
                    f"from an enclosing function, of type "
                    f"{type(cell.cell_contents).__name__}")
            header.add(stmt)
        pending += deps
    main_file = order[0].file
    out = [header.text()]
    # the main file's kernels at their own lines, the rest after them
    mains = sorted((k for k in order if k.file == main_file),
                   key=lambda k: k.first)
    placed = set()
    for k in mains:
        if k.first - 1 < len(out):  # line 1 is the header's
            continue
        out += [""] * (k.first - 1 - len(out)) + k.lines
        placed.add(id(k))
    for k in order:
        if id(k) not in placed:
            out += ["", ""] + k.lines
    return main_file, "\n".join(out) + "\n"
