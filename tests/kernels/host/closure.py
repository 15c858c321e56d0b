# Python language features of njit functions: an augmented assignment's
# subscript evaluated once (compiler/lower/lower_fancy.c), checked against
# Numba by tests/e2e/run_closure_oracle.py.
import numpy as np
from numba import njit


@njit
def counted(c, n):
    c[0] += 1
    return np.arange(n) % 3


@njit
def counted_mask(c, n):
    c[0] += 1
    return np.arange(n) % 2 == 0


@njit
def counted_int(c, i):
    c[0] += 1
    return i


@njit
def aug_fancy_once(n):
    a = np.zeros(5)
    c = np.zeros(1, np.int64)
    a[counted(c, n)] += 1.5
    return a, c


@njit
def aug_fancy_arange(n):
    a = np.zeros(4, np.int64)
    a[np.arange(n) % 3] += 1
    return a


@njit
def aug_mask_once(n):
    a = np.arange(n) * 1.0
    c = np.zeros(1, np.int64)
    a[counted_mask(c, n)] *= 2.0
    return a, c


@njit
def aug_fancy_2d(n):
    a = np.ones((4, 3))
    c = np.zeros(1, np.int64)
    a[counted(c, n), 1:] -= np.arange(2.0)
    return a, c


@njit
def aug_fancy_random(seed, n):
    np.random.seed(seed)
    a = np.zeros(10, np.int64)
    for _ in range(3):
        a[np.random.randint(0, 10, n)] += 1
    return a, np.random.randint(0, 1000)


@njit
def aug_mask_random(seed, n):
    np.random.seed(seed)
    a = np.arange(n) * 1.0
    a[np.random.random(n) < 0.5] += np.random.random()
    return a


@njit
def aug_fancy_bad(n):
    a = np.zeros(2)
    c = np.zeros(1, np.int64)
    a[counted(c, n)] += 1.0
    return a, c


@njit
def aug_basic_once(i):
    a = np.ones(6)
    c = np.zeros(1, np.int64)
    a[counted_int(c, i)] += 2.5
    a[counted_int(c, i) + 1] *= 3.0
    return a, c


@njit
def aug_basic_2d(i):
    a = np.ones((3, 4))
    c = np.zeros(1, np.int64)
    a[counted_int(c, i), counted_int(c, i + 1)] += 7.0
    return a, c


@njit
def aug_slice_once(i):
    a = np.ones(6)
    c = np.zeros(1, np.int64)
    a[counted_int(c, i):] += 1.0
    a[:counted_int(c, i)] *= np.arange(i) + 2.0
    return a, c


@njit
def aug_random_basic(seed):
    np.random.seed(seed)
    a = np.zeros(8)
    for _ in range(20):
        a[np.random.randint(0, 8)] += np.random.random()
    return a


@njit
def two_array_index(a, i, j):
    a[i, j] += 1.0
    return a[i, j]
