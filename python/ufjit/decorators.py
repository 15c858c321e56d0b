"""Numba's decorators over ufjit: the same arguments, the same results."""

import inspect

from ._dispatch import Function, GUFunc, Reduce, UFunc
from .types import ArrayType, Type

_VECTORIZE_KW = {"target", "identity", "nopython", "fastmath", "cache",
                 "boundscheck"}
_GUVECTORIZE_KW = _VECTORIZE_KW | {"writable_args"}
_NJIT_KW = {"nopython", "fastmath", "cache", "boundscheck", "nogil"}


def _python_function(fn):
    """The Python function behind `fn`: itself, or the one a Numba
    dispatcher (@jit, @njit) wraps, whose source ufjit compiles."""
    inner = getattr(fn, "py_func", None)
    if inner is not None and inspect.isfunction(inner) and \
            (type(fn).__module__ or "").startswith("numba"):
        return inner
    return fn


def _check(name, kwargs, allowed):
    bad = sorted(set(kwargs) - allowed)
    if bad:
        raise TypeError(f"ufjit: {name}() does not support "
                        f"{', '.join(repr(b) for b in bad)} (it takes "
                        f"{', '.join(sorted(allowed))})")
    ident = kwargs.get("identity")
    if "identity" in kwargs and not (
            ident is None or ident == "reorderable" or
            (type(ident) in (int, bool) and ident in (0, 1))):
        # as Numba, when decorating
        raise ValueError(f"ufjit: invalid identity {ident!r}: 0, 1, None "
                         f"or 'reorderable'")


def _sig_list(sigs):
    """Numba's forms: a list of signatures, one signature (a string or a
    type object), or a tuple: of signatures, or of argument types (one
    signature without its return type)."""
    if sigs is None:
        return []
    if isinstance(sigs, list):
        return sigs  # [] is Numba's dynamic (lazily typed) form
    if isinstance(sigs, tuple):
        if sigs and all(isinstance(s, (Type, ArrayType)) for s in sigs):
            return [sigs]
        return list(sigs)
    return [sigs]


def vectorize(ftylist_or_function=(), **kwargs):
    """@vectorize, @vectorize(['float64(float64)'], target='parallel')."""
    _check("vectorize", kwargs, _VECTORIZE_KW)
    f = _python_function(ftylist_or_function)
    if inspect.isfunction(f):
        return UFunc(f, [], kwargs)
    sigs = _sig_list(ftylist_or_function)
    return lambda fn: UFunc(_python_function(fn), sigs, kwargs)


def guvectorize(*args, **kwargs):
    """@guvectorize(signatures, '(n),()->(n)', target=...), or the layout
    alone for a lazily typed gufunc."""
    _check("guvectorize", kwargs, _GUVECTORIZE_KW)
    if len(args) == 1:
        sigs, layout = [], args[0]
    elif len(args) == 2:
        sigs, layout = _sig_list(args[0]), args[1]
    else:
        raise TypeError("guvectorize(signatures, layout, **options)")
    if not isinstance(layout, str):
        raise TypeError("guvectorize: the layout is a string such as "
                        "'(n),()->(n)'")

    def build(fn):
        fn = _python_function(fn)
        opts = dict(kwargs)  # names resolve per function decorated
        if "writable_args" in opts:
            opts["writable_args"] = _writable_args(
                fn, layout, opts["writable_args"], opts.get("target"))
        return GUFunc(fn, sigs, layout, opts)
    return build


def _writable_args(fn, layout, args, target):
    """writable_args= checked as Numba checks it, when decorating: indices
    of inputs (ValueError otherwise), or parameter names (RuntimeError for
    an unknown one), not on CUDA (TypeError). Names become indices, so the
    kernel text ufjit compiles says exactly which."""
    if target == "cuda":
        raise TypeError("ufjit: writable_args= is not supported for "
                        "target='cuda' (as in Numba)")
    names = list(inspect.signature(fn).parameters)
    nin = layout.split("->")[0].count("(")
    if len(args) > nin:
        raise ValueError(f"ufjit: writable_args= names {len(args)} "
                         f"arguments; '{fn.__name__}' has {nin} inputs")
    out = []
    for a in args:
        if isinstance(a, str):
            if a not in names:
                raise RuntimeError(f"ufjit: writable_args=: "
                                   f"'{fn.__name__}' has no argument {a!r}")
            a = names.index(a)
        if not isinstance(a, int) or not 0 <= a < nin:
            raise ValueError(f"ufjit: writable_args=: {a!r} is not an "
                             f"input index of '{fn.__name__}' (0 to "
                             f"{nin - 1})")
        out.append(a)
    return tuple(out)


def njit(signature_or_function=None, **kwargs):
    """@njit, @njit(cache=True), @njit('float64(float64)')."""
    _check("njit", kwargs, _NJIT_KW)
    f = _python_function(signature_or_function)
    if inspect.isfunction(f):
        return Function(f, [], kwargs)
    sigs = _sig_list(signature_or_function)
    return lambda fn: Function(_python_function(fn), sigs, kwargs)


def jit(signature_or_function=None, **kwargs):
    """@jit: ufjit compiles nopython code only (as Numba's default)."""
    if kwargs.get("nopython", True) is False or kwargs.get("forceobj"):
        raise NotImplementedError("ufjit: object mode (nopython=False, "
                                  "forceobj=True) is not supported")
    kwargs.pop("forceobj", None)
    return njit(signature_or_function, **kwargs)


def reduce(function):
    """@reduce: Numba's @cuda.reduce, on any target."""
    if not inspect.isfunction(function):
        raise TypeError("@reduce decorates a binary function")
    return Reduce(function, [], {})
