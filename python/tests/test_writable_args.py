"""guvectorize(writable_args=...): Numba's test_update_inplace cases (the
expectations are NumPy's READWRITE operands'), and its errors, raised when
decorating with Numba's exception types."""
import numpy as np
import pytest

from ufjit import guvectorize


def replace_2nd(x_t, y_1):
    for t in range(0, x_t.shape[0], 2):
        x_t[t] = y_1[0]


def update_3(x0_t, x1_t, x2_t, y_1):
    for t in range(0, x0_t.shape[0]):
        x0_t[t] = y_1[0]
        x1_t[t] = 2 * y_1[0]
        x2_t[t] = 3 * y_1[0]


def _run(gufunc, py_func, f4_reaches, z=2):
    for dtype, reaches in (("f8", True), ("f4", f4_reaches),
                           ("i4", f4_reaches)):
        inputs = [np.zeros(10, dtype) for _ in range(gufunc.nin - 1)]
        expect = [x.copy() for x in inputs]
        gufunc(*inputs, z)
        py_func(*expect, np.array([z]))
        for x, e in zip(inputs, expect):
            if reaches:
                np.testing.assert_equal(x, e)
            else:
                assert not (x == e).all()


@pytest.mark.parametrize("target", ["cpu", "parallel"])
def test_update_inplace(target):
    sig, layout = ["void(f8[:], f8[:])"], "(t),()"
    _run(guvectorize(sig, layout, target=target)(replace_2nd), replace_2nd,
         f4_reaches=False)
    _run(guvectorize(sig, layout, target=target, writable_args=(0,))(
        replace_2nd), replace_2nd, f4_reaches=True)
    _run(guvectorize(sig, layout, target=target, writable_args=("x_t",))(
        replace_2nd), replace_2nd, f4_reaches=True)


def test_update_three():
    sig, layout = ["void(f8[:], f8[:], f8[:], f8[:])"], "(t),(t),(t),()"
    _run(guvectorize(sig, layout)(update_3), update_3, f4_reaches=False)
    _run(guvectorize(sig, layout, writable_args=("x0_t", "x1_t", 2))(
        update_3), update_3, f4_reaches=True)


def test_read_only_input_is_refused():
    g = guvectorize(["void(f8[:], f8[:])"], "(t),()",
                    writable_args=(0,))(replace_2nd)
    x = np.zeros(4)
    x.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        g(x, 2.0)


def test_errors_when_decorating():
    deco = lambda **kw: guvectorize(["void(f8[:], f8[:])"], "(t),()",
                                    **kw)(replace_2nd)
    with pytest.raises(ValueError):
        deco(writable_args=(0, 1, 2, 5))
    with pytest.raises(ValueError):
        deco(writable_args=(5,))
    with pytest.raises(ValueError):
        deco(writable_args=(-1,))
    with pytest.raises(RuntimeError):
        deco(writable_args=("z_t",))
    with pytest.raises(TypeError):
        deco(writable_args=(0,), target="cuda")
