"""@vectorize objects behave as NumPy ufuncs: values, dtypes, scalars,
out=, where=, casting=, broadcasting errors, views, methods."""
import numpy as np
import pytest

import ufjit
from ufjit import errors, float32, float64, int64, vectorize


@vectorize([float64(float64, float64), float32(float32, float32),
            int64(int64, int64)], identity=0)
def add(x, y):
    return x + y


@vectorize([int64(int64, int64), float32(float32, float32),
            float64(float64, float64)])
def add_small_first(x, y):
    return x + y


@vectorize(['float64(float64)'])
def half(x):
    return x / 2


def test_values_and_dtypes():
    a = np.arange(10.0)
    r = add(a, a)
    assert isinstance(r, np.ndarray) and r.dtype == np.float64
    np.testing.assert_array_equal(r, a + a)
    # the first declared loop the inputs cast to safely, as NumPy and
    # Numba choose: add's float64 loop takes float32 and int64 too
    assert add(a.astype(np.float32), np.float32(1)).dtype == np.float64
    assert add(np.arange(5), np.arange(5)).dtype == np.float64
    r32 = add_small_first(a.astype(np.float32), np.float32(1))
    assert r32.dtype == np.float32
    ri = add_small_first(np.arange(5), np.arange(5))
    assert ri.dtype == np.int64
    np.testing.assert_array_equal(ri, 2 * np.arange(5))


def test_integer_overflow_wraps():
    big = np.array([np.iinfo(np.int64).max])
    np.testing.assert_array_equal(add_small_first(big, np.array([1])),
                                  np.array([np.iinfo(np.int64).min]))


def test_scalars_give_numpy_scalars():
    r = add(1.5, 2.0)
    assert isinstance(r, np.float64) and r == 3.5
    assert half(np.float64(3.0)) == 1.5


def test_nan_inf():
    x = np.array([np.nan, np.inf, -np.inf, -0.0])
    r = half(x)
    assert np.isnan(r[0]) and r[1] == np.inf and r[2] == -np.inf
    assert np.signbit(r[3])


def test_views_are_not_copied_and_strides_work():
    a = np.arange(20.0).reshape(4, 5)
    np.testing.assert_array_equal(half(a[::-1, ::2]), a[::-1, ::2] / 2)
    np.testing.assert_array_equal(half(a.T), a.T / 2)


def test_empty_and_0d():
    assert half(np.empty(0)).shape == (0,)
    assert half(np.empty((3, 0))).shape == (3, 0)
    r = half(np.array(4.0))
    assert isinstance(r, np.ndarray) and r.shape == () and r == 2.0


def test_broadcasting_and_its_error():
    a = np.arange(3.0).reshape(3, 1)
    np.testing.assert_array_equal(add(a, np.arange(4.0)), a + np.arange(4.0))
    with pytest.raises(ValueError) as e:
        add(np.ones(3), np.ones(4))
    assert isinstance(e.value, errors.ShapeError)
    assert "(3,)" in str(e.value) and "(4,)" in str(e.value)


def test_out_where_casting():
    a = np.arange(6.0)
    out = np.full(6, -1.0)
    r = add(a, a, out=out)
    assert r is out
    np.testing.assert_array_equal(out, 2 * a)
    out2 = np.full(6, -1.0)
    add(a, a, out=out2, where=a > 2)
    np.testing.assert_array_equal(out2, np.where(a > 2, 2 * a, -1.0))
    with pytest.raises(TypeError):
        add(a, a, out=np.empty(6, dtype=np.int64))
    out3 = np.empty(6, dtype=np.int64)
    add(a, a, out=out3, casting="unsafe")
    np.testing.assert_array_equal(out3, (2 * a).astype(np.int64))


def test_readonly_output_refused():
    out = np.empty(3)
    out.flags.writeable = False
    with pytest.raises(ValueError):
        add(np.ones(3), np.ones(3), out=out)


def test_ufunc_attributes():
    assert add.nin == 2 and add.nout == 1 and add.nargs == 3
    assert add.types == ["dd->d", "ff->f", "ll->l"]
    assert add.ntypes == 3 and add.identity == 0
    assert add.__name__ == "add"


def test_methods_match_numpy():
    a = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(add.reduce(a), np.add.reduce(a))
    np.testing.assert_array_equal(add.reduce(a, axis=1), np.add.reduce(a, 1))
    assert add.reduce(a, axis=None) == np.add.reduce(a, axis=None)
    np.testing.assert_array_equal(add.reduce(a, axis=1, keepdims=True),
                                  np.add.reduce(a, 1, keepdims=True))
    np.testing.assert_array_equal(add.accumulate(a), np.add.accumulate(a))
    np.testing.assert_array_equal(add.outer(np.arange(3.0), np.arange(2.0)),
                                  np.add.outer(np.arange(3.0),
                                               np.arange(2.0)))
    assert add.reduce(np.empty(0)) == 0.0  # identity=0


def test_parallel_target():
    if "parallel" not in ufjit.targets():
        pytest.skip("this build has no parallel target")
    a = np.arange(100000.0)
    np.testing.assert_array_equal(add(a, a, target="parallel"), a + a)


def test_unsupported_options_refused():
    with pytest.raises(TypeError):
        vectorize(['float64(float64)'], forceobj=True)
    with pytest.raises(TypeError):
        add(np.ones(2))


def test_dtype_picks_the_loop_as_numpy():
    a = np.array([1.0000001, 2.5, 1e20])
    r = add(a, a, dtype=np.float32)
    assert r.dtype == np.float32
    np.testing.assert_array_equal(r, np.add(a, a, dtype=np.float32))
    ri = add_small_first(np.arange(4.0), np.arange(4.0), dtype=np.int64,
                         casting="unsafe")
    assert ri.dtype == np.int64
    with pytest.raises(TypeError):  # float64 -> int64 is not same_kind
        add_small_first(np.arange(4.0), np.arange(4.0), dtype=np.int64)
    with pytest.raises(TypeError):  # no complex loop
        add(a, a, dtype=np.complex128)



def _plain(x):
    return x + 1.0


def test_ufunc_objects_come_and_go_without_touching_their_class():
    """The C base's dealloc once released the Python class with each
    instance: the class was freed under its live instances."""
    import gc
    import sys

    from ufjit._dispatch import GUFunc, UFunc
    from ufjit import guvectorize
    gc.collect()
    before = (sys.getrefcount(UFunc), sys.getrefcount(GUFunc))
    for _ in range(3000):
        f = vectorize(['float64(float64)'])(_plain)
        g = guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')(_plain)
        del f, g
    gc.collect()
    assert (sys.getrefcount(UFunc), sys.getrefcount(GUFunc)) == before
    h = vectorize(['float64(float64)'])(_plain)
    np.testing.assert_array_equal(h(np.arange(3.0)), np.arange(3.0) + 1)


def test_reduce_accumulate_dtype_as_numpy():
    a = np.array([1.5, 2.5, 4.0])
    assert add.reduce(a, dtype=np.int64) == np.add.reduce(a, dtype=np.int64)
    r = add.accumulate(a, dtype=np.float32)
    assert r.dtype == np.float32
    np.testing.assert_array_equal(r, np.add.accumulate(a, dtype=np.float32))


def test_at_matches_numpy_with_repeated_indices():
    for idx in ([0, 1, 1, 3, 1, 0], np.array([[2, 2], [0, 3]]), slice(1, 3)):
        a = np.arange(5.0)
        b = np.arange(5.0)
        vals = np.arange(1.0, 7.0)[:np.size(np.arange(5)[idx])].reshape(
            np.shape(np.arange(5)[idx]))
        add.at(a, idx, vals)
        np.add.at(b, idx, vals)
        np.testing.assert_array_equal(a, b)
    m = np.zeros((3, 4))
    n = np.zeros((3, 4))
    add.at(m, (np.array([0, 0, 2]), np.array([1, 1, 3])), 2.0)
    np.add.at(n, (np.array([0, 0, 2]), np.array([1, 1, 3])), 2.0)
    np.testing.assert_array_equal(m, n)
    t = np.arange(12.0).reshape(3, 4).T  # not contiguous
    u = t.copy()
    half.at(t, [0, 0, 2])
    for i in [0, 0, 2]:
        u[i] = u[i] / 2
    np.testing.assert_array_equal(t, u)
