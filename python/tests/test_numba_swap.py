"""A kernel file written for Numba runs under ufjit after swapping the
import line, with the same results (Numba itself is the oracle)."""
import importlib.util
import pathlib
import sys

import numpy as np
import pytest

HERE = pathlib.Path(__file__).parent


def load(name, swap, where):
    text = (HERE / "kernels_numba.py").read_text()
    if swap:
        text = text.replace("from numba import", "from ufjit import")
    path = where / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    pytest.importorskip("numba", reason="Numba is the oracle of this test")
    where = tmp_path_factory.mktemp("kernels")
    return load("k_numba", False, where), load("k_ufjit", True, where)


def close(a, b, rtol=1e-12):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    assert a.shape == b.shape
    np.testing.assert_allclose(a, b, rtol=rtol, atol=0)


def test_gaussian(both):
    nb, uf = both
    x = np.linspace(-3, 3, 1001)
    close(uf.gaussian_pdf(x, 0.5, 1.5), nb.gaussian_pdf(x, 0.5, 1.5))
    x32 = x.astype(np.float32)
    close(uf.gaussian_pdf(x32, np.float32(0.5), np.float32(1.5)),
          nb.gaussian_pdf(x32, np.float32(0.5), np.float32(1.5)), rtol=1e-6)


def test_python_modulo(both):
    nb, uf = both
    a = np.array([-7, -1, 0, 5, 7, np.iinfo(np.int64).min])
    b = np.array([3, -3, 4, -2, 2, -1])
    close(uf.pymod(a, b), nb.pymod(a, b))
    af = np.array([-7.5, 7.5, -0.0, np.inf, 1.0])
    bf = np.array([2.0, -2.0, 3.0, 2.0, np.inf])
    close(uf.pymod(af, bf), nb.pymod(af, bf))


def test_lazy_vectorize(both):
    nb, uf = both
    x = np.array([-1.0, 0.25, 2.0, np.nan])
    close(uf.clip01(x), nb.clip01(x))


def test_gufuncs(both):
    nb, uf = both
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 7))
    close(uf.smooth(a), nb.smooth(a))
    ai = np.arange(12, dtype=np.int32).reshape(3, 4)
    close(uf.add_scalar(ai, np.int32(5)), nb.add_scalar(ai, np.int32(5)))
    m = rng.standard_normal((5, 3, 4))
    v = rng.standard_normal(4)
    close(uf.matvec(m, v), nb.matvec(m, v))
    out = np.empty((5, 3))
    uf.matvec(m, v, out)
    close(out, nb.matvec(m, v))


def test_njit(both):
    nb, uf = both
    a = np.array([3.0, 4.0, 12.0])
    assert uf.norm2(a) == nb.norm2(a)
    assert uf.argmax_and_value(a) == nb.argmax_and_value(a)
    b, c = a.copy(), a.copy()
    uf.scale_in_place(b, 2.0)
    nb.scale_in_place(c, 2.0)
    close(b, c)


def test_cross2d_import(both):
    # `from numba.np.extensions import cross2d` kept as it is in the file
    nb, uf = both
    a = np.array([[1.0, 2.0], [3.0, -4.0], [np.nan, 1.0]])
    b = np.array([0.5, 2.0])
    close(uf.cross_rows(a, b), nb.cross_rows(a, b))
