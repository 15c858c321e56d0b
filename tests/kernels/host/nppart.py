# np.partition and np.argpartition inside kernels, checked against Numba
# by tests/e2e/run_nppart_oracle.py (line:col of the refused lines are in
# its cases: keep them in place).
import numpy as np
from numba import njit


@njit
def part(a, k):
    return np.partition(a, k)


@njit
def argpart(a, k):
    return np.argpartition(a, k)


@njit
def part_two(a, k, j):
    return np.partition(a, (k, j)), np.argpartition(a, (j, k))


@njit
def part_kw(a):
    return np.partition(kth=-1, a=a), np.argpartition(a, kth=0)


@njit
def part_of_tuple(x):
    return np.partition((x, 1, 2.5, -3), 2), np.argpartition((3, x, 1), -1)


@njit
def part_rows(a):
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        out[i] = np.partition(a[i], a.shape[1] // 2)[a.shape[1] // 2]
    return out


@njit
def part_0d_kth(a):
    return np.partition(a, np.array(1))


@njit
def part_complex(a):
    return np.partition(a, 1)


@njit
def part_float_kth(a):
    return np.partition(a, 1.0)


@njit
def part_bool_kth(a):
    return np.argpartition(a, True)


@njit
def part_axis(a):
    return np.partition(a, 1, axis=0)


@njit
def part_mixed_kth(a):
    return np.partition(a, (1, np.int32(2)))


@njit
def part_method(a):
    return a.partition(1)


@njit
def part_0d(x):
    return np.partition(np.array(x), 0)


@njit
def item(a):
    return a.item()


@njit
def item_sum(a):
    s = a[:1].item() + 1
    for i in range(3):
        s += a[i:i + 1].item() + np.array(a[i]).item()
    return s


@njit
def item_arg(a):
    return a.item(0)


@njit
def item_2d(a):
    return a[1:2, ::-3].item()
