"""ufjit's ufuncs and gufuncs called from Numba-jitted code: Numba types
them as its own ufunc of the same function (python/ufjit/_numba.py), so an
@njit caller compiles and computes what Numba's would; from Python the
same objects still run ufjit's loops."""
import numpy as np
import pytest

numba = pytest.importorskip("numba", reason="numba is not installed")

from ufjit import guvectorize, vectorize  # noqa: E402


@vectorize(["float64(float64, float64)", "int64(int64, int64)"])
def add(a, b):
    return a + b


@guvectorize(["void(float64[:], float64[:])"], "(n)->()")
def total(x, out):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    out[0] = s


@numba.njit
def on_arrays(x, y):
    return add(x, y)


@numba.njit
def on_scalars(x, y):
    return add(x, y) * 2


@numba.njit
def reduce_it(x):
    return add.reduce(x)


@numba.njit
def attrs():
    return add.nin, add.nout


@numba.njit
def rows(m, out):
    total(m, out)


def test_ufunc_in_njit():
    x = np.arange(5.0)
    np.testing.assert_array_equal(on_arrays(x, x), 2 * x)
    assert on_scalars(3, 4) == 14
    assert reduce_it(np.arange(10)) == 45
    assert attrs() == (2, 1)


def test_gufunc_in_njit():
    m = np.arange(12.0).reshape(3, 4)
    out = np.zeros(3)
    rows(m, out)
    np.testing.assert_array_equal(out, m.sum(axis=1))


def test_python_calls_still_run_ufjit():
    x = np.arange(3.0)
    add(x, x)
    assert add._core_func is not None  # ufjit compiled its own loop
    np.testing.assert_array_equal(add(x, x), 2 * x)
