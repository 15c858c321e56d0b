"""@guvectorize and @njit through the package."""
import numpy as np
import pytest

from ufjit import float64, guvectorize, int32, njit, reduce, void


@guvectorize([void(float64[:], float64, float64[:]),
              void(int32[:], int32, int32[:])], '(n),()->(n)')
def shift(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] + b


@guvectorize(['void(float64[:], float64[:])'], '(n)->()')
def total(a, out):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    out[0] = s


@njit
def swap(a, b):
    return b, a


@njit
def nested(n):
    a = np.arange(n) * 1.0
    return (n + 1, (a, (a[1:], n * 0.5))), ()


@njit
def nothing(a):
    a[0] = 42.0


@njit
def itself(a):
    return a


@njit
def tail_and_t(a, b):
    return a[1:], b.T


@njit
def zero_big(a):
    a[a > 1.0] = 0.0
    return a


@njit
def text(s, c):
    return len(s), s.count(c), s.upper(), (s[::-1], s * 0)


@njit
def repeat(n):
    return 'ab' * n


@reduce
def plus(a, b):
    return a + b


def test_gufunc_allocates_or_takes_outputs():
    a = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(shift(a, 1.0), a + 1)
    ai = np.arange(4, dtype=np.int32)
    r = shift(ai, np.int32(2))
    assert r.dtype == np.int32
    out = np.empty((3, 4))
    shift(a, 2.0, out)
    np.testing.assert_array_equal(out, a + 2)
    assert shift.signature == "(n),()->(n)"


def test_gufunc_axis_and_keepdims():
    a = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(total(a), a.sum(axis=1))
    np.testing.assert_array_equal(total(a, axis=0), a.sum(axis=0))
    np.testing.assert_array_equal(total(a, axis=0, keepdims=True),
                                  a.sum(axis=0, keepdims=True))
    np.testing.assert_array_equal(total(a, axes=[(0,), ()]), a.sum(axis=0))


def test_gufunc_core_shape_mismatch():
    with pytest.raises(ValueError):
        shift(np.ones((2, 3)), np.ones(3))


def test_njit_tuples_none_and_in_place():
    assert swap(1, 2.5) == (2.5, 1)
    a = np.zeros(3)
    assert nothing(a) is None
    assert a[0] == 42.0


def test_njit_nested_tuples():
    # Numba's shape: the C API fills outputs depth first, the package
    # nests them again (uf_func_result_tree)
    (m, (a, (b, h))), e = nested(4)
    assert m == 5 and h == 2.0 and e == ()
    np.testing.assert_array_equal(a, [0.0, 1.0, 2.0, 3.0])
    np.testing.assert_array_equal(b, [1.0, 2.0, 3.0])
    assert swap(np.int64(3), (1.5)) == (1.5, 3)


def test_njit_returns_its_arguments_as_numba():
    # Numba: `return a` is the argument itself, a view of it shares its
    # memory (writes reach it), a read-only argument stays read-only
    a, b = np.arange(4.0), np.ones((2, 3))
    assert itself(a) is a and swap(a, b) == (b, a)
    t, bt = tail_and_t(a, b)
    assert np.shares_memory(t, a) and np.shares_memory(bt, b)
    assert bt.shape == (3, 2)
    t[0] = -7.0
    assert a[1] == -7.0
    c = np.array([0.5, 2.0, 3.0])
    assert zero_big(c) is c and c.tolist() == [0.5, 0.0, 0.0]
    r = np.zeros(3)
    r.flags.writeable = False
    assert itself(r) is r
    assert not tail_and_t(r, b)[0].flags.writeable
    e = np.zeros((0, 3))
    assert itself(e) is e
    # the view keeps its argument's memory alive
    t = tail_and_t(np.arange(5.0), b)[0]
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0]


def test_njit_strings_in_and_out():
    # Numba: a str argument is unicode_type, a returned one a str
    assert repeat(3) == "ababab" and repeat(0) == ""
    n, k, up, (rev, empty) = text("stra\u00dfe \u00df", "\u00df")
    assert (n, k, up) == (8, 2, "STRASSE SS")
    assert rev == "\u00df e\u00dfarts" and empty == ""
    assert text(np.str_("a\U0001f600a"), "a")[:3] == (3, 2, "A\U0001f600A")
    # a lone surrogate passes through as Python keeps it
    assert text("x\ud800", "x")[2] == "X\ud800"


def test_reduce():
    a = np.arange(1, 101, dtype=np.float64)
    assert plus(a) == 5050.0
    assert plus(a, init=10.0) == 5060.0
