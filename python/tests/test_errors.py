"""Errors reach Python as ufjit.errors exceptions with the kernel's
file:line:col and caret."""
import inspect

import numpy as np
import pytest

from ufjit import errors, njit, vectorize


@vectorize(['float64(float64)'])
def uses_genexp(x):
    s = sum(v for v in (x, 1.0))
    return x + s


@vectorize(['float64(float64, float64)'])
def mixes(x, y):
    if x > 0:
        r = 1.0
    else:
        r = (1.0, 2.0)
    return r


@njit
def int_div(a, b):
    return a // b


@njit
def index(a, i):
    return a[i]


@njit
def smallest(a):
    return min(a)


class NotAConstant:
    pass


THING = NotAConstant()


@vectorize(['float64(float64)'])
def uses_object(x):
    return x + THING


def line_of(fn, text):
    lines, first = inspect.getsourcelines(fn.py_func)
    for k, line in enumerate(lines):
        if text in line:
            return first + k
    raise AssertionError(text)


def test_unsupported_construct_has_position_and_caret():
    with pytest.raises(errors.UnsupportedError) as e:
        uses_genexp(1.0)
    msg = str(e.value)
    line = line_of(uses_genexp, "s = sum(v for v in (x, 1.0))")
    assert f"{__file__}:{line}:" in msg
    assert "^" in msg
    assert e.value.line == line


def test_typing_error_names_both_types():
    with pytest.raises(errors.TypingError) as e:
        mixes(1.0, 2.0)
    assert isinstance(e.value, errors.UfjitError)
    assert "float64" in str(e.value) and "tuple" in str(e.value).lower()


def test_zero_division_in_njit():
    assert int_div(7, 2) == 3
    with pytest.raises(ZeroDivisionError):
        int_div(7, 0)


def test_stop_iteration_as_numba():
    # min() of an empty array: Numba's next() raises StopIteration
    assert smallest(np.array([2.0, -1.0])) == -1.0
    with pytest.raises(StopIteration) as e:
        smallest(np.zeros(0))
    assert isinstance(e.value, errors.UfjitError)


@njit
def raises_key(x):
    if x > 0:
        raise KeyError("k", x)
    return x


@njit
def raises_runtime(x):
    if x < 0:
        raise RuntimeError(x * 0.5)
    return raises_key(x)


def test_raise_as_numba():
    # a raise statement: Python's class, str() as Numba formats it
    assert raises_runtime(0) == 0
    with pytest.raises(KeyError) as e:
        raises_runtime(3)
    assert isinstance(e.value, errors.UfjitError)
    assert "KeyError: ('k', 3)" in str(e.value)
    with pytest.raises(RuntimeError) as e:
        raises_runtime(-3)
    assert "RuntimeError: -1.5" in str(e.value)


@njit
def inverse(a):
    return np.linalg.inv(a)


def test_linalg_error_as_numba():
    # np.linalg in a kernel raises numpy.linalg.LinAlgError, as Numba
    assert np.allclose(inverse(np.array([[2.0, 0.0], [0.0, 4.0]])),
                       [[0.5, 0.0], [0.0, 0.25]])
    with pytest.raises(np.linalg.LinAlgError) as e:
        inverse(np.ones((3, 3)))
    assert isinstance(e.value, errors.UfjitError)
    assert "Matrix is singular to machine precision." in str(e.value)


def test_unsupported_global():
    with pytest.raises(errors.UnsupportedError) as e:
        uses_object(1.0)
    assert "THING" in str(e.value)


def test_kernel_source_keeps_line_numbers():
    text = uses_genexp.kernel_source.splitlines()
    line = line_of(uses_genexp, "s = sum(v for v in (x, 1.0))")
    assert "s = sum(v for v in (x, 1.0))" in text[line - 1]


@njit
def delete(a, i):
    return np.delete(a, i)


def test_delete_index_past_arr_as_numpy():
    # NumPy's IndexError for an index array past arr (Numba 0.68 writes
    # past its mask there); an integer obj keeps Numba's message
    a = np.arange(6.0)
    assert delete(a, np.array([-6, 5, 5])).tolist() == [1.0, 2.0, 3.0, 4.0]
    with pytest.raises(IndexError, match="index 9 is out of bounds for "
                       "axis 0 with size 6"):
        delete(a, np.array([1, 9]))
    with pytest.raises(IndexError, match="index -7 is out of bounds"):
        delete(a, np.array([-7]))
    with pytest.raises(IndexError, match="obj must be less than the "
                       r"len\(arr\)"):
        delete(a, 6)
