# Tuple concatenation and repetition (compiler/types/infer_expr.c
# tuple_binop, compiler/lower/lower_expr.c) and module-level tuples of
# numbers frozen as constants (compiler/front/kmodule.c scan_tuple),
# checked against Numba by tests/e2e/run_tupleops_oracle.py.
import numpy as np
from numba import njit, float32

W = (0.25, 0.5, 0.25)
SHAPE = (2, 3)
MIX = (1, 2.5, True, float32(1.5), -7)
EMPTY = ()
ONE = (7,)
REP = 3


@njit
def concat(a):
    t = (1, 2) + (3,)
    u = (a[0], a[1]) + ONE + EMPTY
    return t[0] + t[2] * a[0] + u[1] + u[2] + len(t + t)


@njit
def shape_prefix(a):
    z = np.zeros((2,) + a.shape)
    return z.shape[0] * 100 + z.shape[1] + z.ndim * 1000


@njit
def shape_suffix(a):
    z = np.ones(a.shape + (3,), dtype=np.int32)
    return z


@njit
def arrays(a):
    t = (a, a[::-1]) + (a * 2.0,)
    return t[0][0] + t[1][0] + t[2][1]


@njit
def repeat(a):
    r = (0,) * 3
    q = (1.0, a[0]) * 2
    w = (a[1],) * REP
    z = (5,) * 0
    return len(r) + q[3] + w[2] + len(z) + len(q * 1)


@njit
def repeat_left(a):
    q = 2 * (1.0, a[0])
    return q[3] + len(q)


@njit
def repeat_var(a, n):
    return len((1,) * n)


@njit
def globals_(a):
    s = 0.0
    for k in range(3):
        s += W[k] * a[k]
    z = np.zeros(SHAPE)
    return s + z.size + MIX[1] + MIX[3] + MIX[4] + len(EMPTY) + ONE[0]


@njit
def global_types(a):
    return MIX[0], MIX[1], MIX[2], MIX[3], MIX[4]


@njit
def global_index(a, k):
    return W[k] * a[0] + sum(W) + max(SHAPE) + len(SHAPE + ONE)


@njit
def global_loop(a):
    s = 0.0
    for w in W:
        s += w
    return s * a[0]


@njit
def compare(a, b):
    t = (a[0], a[1])
    u = (b[0], b[1])
    return (t == u, t != u, t < u, t <= u, t > u, t >= u)


@njit
def compare_shape(a):
    return (a.shape == (3,), a.shape != (3,), a.shape == (3, 1),
            a.shape < (3, 1), (1, 2.0) == (1.0, 2), (1, 2) < (1, 2, 0),
            (True, 2) >= (1, 2), () == (), SHAPE == (2, 3))


@njit
def compare_mixed(a, k):
    return (k, a[0]) < (2, 0.5), (k, a[0]) == (2, 0.5)


@njit
def compare_complex(a):
    return (1j, a[0]) < (2j, a[0])


@njit
def compare_complex_eq(a):
    return (1j, a[0]) == (1j, a[0])
