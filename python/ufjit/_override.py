"""NumPy's override protocol (NEP 13) for ufjit's ufuncs and gufuncs: an
operand whose type defines ``__array_ufunc__`` (a Dask array, an xarray
DataArray, a pandas Series, CuPy...) is given the call, as NumPy does for
its own ufuncs, so ``f(dask_array)`` builds a Dask graph that runs ``f``
on each chunk, exactly as ``np.add(dask_array, 1)`` does."""

import numpy as np

from . import _core

_PLAIN = (np.ndarray, _core.Array, int, float, complex, bool, np.generic,
          list, tuple, type(None))


def overriding(operands):
    """The operands whose type overrides ufuncs, one per type, subclasses
    before their bases (NumPy's order)."""
    found = []
    for x in operands:
        t = type(x)
        if t in _PLAIN or isinstance(x, np.generic):
            continue
        f = getattr(t, "__array_ufunc__", np.ndarray.__array_ufunc__)
        if f is np.ndarray.__array_ufunc__:
            continue
        if any(type(y) is t for y in found):
            continue
        for i, y in enumerate(found):
            if issubclass(t, type(y)):
                found.insert(i, x)
                break
        else:
            found.append(x)
    return found


def dispatch(ufunc, method, inputs, kwargs, who):
    """Calls the operands' __array_ufunc__ in order; the first answer that
    is not NotImplemented is the result."""
    for x in who:
        f = type(x).__array_ufunc__
        if f is None:
            raise TypeError(f"operand '{type(x).__name__}' does not support "
                            f"ufuncs (__array_ufunc__=None)")
        r = f(x, ufunc, method, *inputs, **kwargs)
        if r is not NotImplemented:
            return r
    names = ", ".join(repr(type(x).__name__) for x in who)
    raise TypeError(f"operand type(s) all returned NotImplemented from "
                    f"__array_ufunc__({ufunc.__name__!r}, {method!r}): "
                    f"{names}")
