"""NumPy's override protocol: ufjit's ufuncs and gufuncs called on Dask
arrays and xarray objects do what NumPy's own ufuncs do there."""
import numpy as np
import pytest

from ufjit import float64, guvectorize, vectorize, void


@vectorize([float64(float64, float64)])
def hyp(x, y):
    return (x * x + y * y) ** 0.5


@guvectorize([void(float64[:], float64[:])], '(n)->()')
def total(a, out):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    out[0] = s


class Logged:
    """The smallest overriding type: records the call and answers it."""

    def __init__(self, v):
        self.v = v

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = [i.v if isinstance(i, Logged) else i for i in inputs]
        return ("called", method, getattr(ufunc, method)(*plain, **kwargs))


class Refuses:
    __array_ufunc__ = None


def test_protocol_order_and_refusal():
    tag, method, r = hyp(Logged(np.array([3.0])), 4.0)
    assert (tag, method) == ("called", "__call__") and r[0] == 5.0
    with pytest.raises(TypeError):
        hyp(Refuses(), 1.0)


def test_dask_elementwise_and_gufunc():
    da = pytest.importorskip("dask.array", reason="dask is not installed")
    a = np.arange(12.0).reshape(3, 4)
    x = da.from_array(a, chunks=(2, 2))
    r = hyp(x, 1.0)
    assert isinstance(r, da.Array)  # lazy: a graph, run per chunk
    np.testing.assert_allclose(r.compute(), np.hypot(a, 1.0), rtol=1e-15)
    t = total(x.rechunk((2, 4)))
    assert isinstance(t, da.Array)
    np.testing.assert_array_equal(t.compute(), a.sum(axis=1))
    g = da.apply_gufunc(total, "(n)->()", x, allow_rechunk=True)
    np.testing.assert_array_equal(g.compute(), a.sum(axis=1))
    with pytest.raises(TypeError):  # as for any non-NumPy ufunc
        hyp.reduce(x)


def test_xarray():
    xr = pytest.importorskip("xarray", reason="xarray is not installed")
    d = xr.DataArray(np.arange(6.0).reshape(2, 3), dims=("a", "b"))
    r = hyp(d, 0.0)
    assert isinstance(r, xr.DataArray) and r.dims == ("a", "b")
    np.testing.assert_array_equal(r.values, d.values)
    s = xr.apply_ufunc(total, d, input_core_dims=[["b"]])
    np.testing.assert_array_equal(s.values, [3.0, 12.0])
