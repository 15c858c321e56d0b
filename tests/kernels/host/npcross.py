# np.cross, np.unwrap, np.select and numba.np.extensions.cross2d inside njit functions
# (compiler/types/infer_npcross.c, compiler/lower/lower_npcross.c),
# checked against Numba by tests/e2e/run_npcross_oracle.py.
import numpy as np
from numba import njit
from numba.np.extensions import cross2d


@njit
def cross(a, b):
    return np.cross(a, b)


@njit
def cross_kw(a, b):
    return np.cross(b=b, a=a)


@njit
def cross_expr(a, b):
    return np.cross(a * 2, b - 1)


@njit
def cross_in_loop(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += np.cross(a[i], b)[1]
    return s


@njit
def cross_tuple(a):
    return np.cross(a, (1.0, 2.0, 3.0))


@njit
def cross_scalar(a, x):
    return np.cross(a, x)


@njit
def cross_three(a, b):
    return np.cross(a, b, 0)


@njit
def unwrap(p):
    return np.unwrap(p)


@njit
def unwrap_discont(p, d):
    return np.unwrap(p, d)


@njit
def unwrap_period(p, period):
    return np.unwrap(p, period=period)


@njit
def unwrap_all(p, d, period):
    return np.unwrap(p, discont=d, axis=-1, period=period)


@njit
def unwrap_axis(p, axis):
    return np.unwrap(p, axis=axis)


@njit
def unwrap_none(p):
    return np.unwrap(p, None, -1)


@njit
def unwrap_in_loop(p):
    s = 0.0
    for i in range(3):
        s += np.unwrap(p * (i + 1))[-1]
    return s


@njit
def unwrap_tuple(x):
    return np.unwrap((x, 2.0, 9.0))


@njit
def select(c1, c2, x1, x2):
    return np.select([c1, c2], [x1, x2])


@njit
def select_tuple(c1, c2, x1, x2, d):
    return np.select((c1, c2), (x1, x2), d)


@njit
def select_kw(c1, x1, d):
    return np.select(default=d, choicelist=[x1], condlist=[c1])


@njit
def select_expr(a):
    return np.select([a < -3, a > 3, a == 0], [a * 2, a - 1, a + 7], -1.5)


@njit
def select_vars(a):
    conds = (a > 0, a < -5)
    choices = (np.sqrt(np.abs(a)), a * a)
    return np.select(conds, choices, default=np.nan)


@njit
def select_len(c1, x1, x2):
    return np.select([c1], [x1, x2])


@njit
def select_mixed(c1, c2, x1, x2):
    return np.select((c1, c2), (x1, x2))


@njit
def select_one(c1, x1):
    return np.select((c1,), (x1,), 3)


@njit
def select_array_default(c1, x1):
    return np.select([c1], [x1], x1)


@njit
def select_in_loop(a):
    s = 0.0
    for i in range(4):
        s += np.select([a > i], [a * i], 0.5).sum()
    return s


# tuples and list literals as np.asarray makes them
@njit
def cross_list(a):
    return np.cross([1.0, 2.0, 3.0], a)


@njit
def cross_nested():
    return np.cross([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], (0.0, 0.0, 1.0))


@njit
def cross_mixed(a):
    return np.cross((1, 2.5, True), a)


@njit
def cross_pair(a):
    return np.cross((1, 2), a)


@njit
def cross_ragged(a):
    return np.cross(((1.0, 2.0, 3.0), (1.0, 2.0)), a)


@njit
def cross_bools():
    return np.cross((True, False, True), (True, True, False))


@njit
def cross_complex(a):
    return np.cross(a, (1j, 2, 3))


@njit
def unwrap_list():
    return np.unwrap([0.0, 3.5, 7.0])


@njit
def unwrap_list_int():
    return np.unwrap([0, 4, 8, -20], period=6)


@njit
def unwrap_list_mixed():
    return np.unwrap([0, 4.5, 9])


@njit
def unwrap_nested():
    return np.unwrap([[0.0, 4.0], [1.0, 2.0]])


@njit
def unwrap_int_tuple(x):
    return np.unwrap((x, 9, -4), period=7)


# numba.np.extensions.cross2d
@njit
def cross2d_(a, b):
    return cross2d(a, b)


@njit
def cross2d_kw(a, b):
    return cross2d(b=b, a=a)


@njit
def cross2d_tuple(b):
    return cross2d((1.0, 2.0), b)


@njit
def cross2d_lists():
    return cross2d([[1, 2], [3, 4]], [5, -6])


@njit
def cross2d_in_loop(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += cross2d(a[i], b)[()]
    return s


@njit
def cross2d_number(a, x):
    return cross2d(a, x)
