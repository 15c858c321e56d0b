# Arrays inside kernels: indexing, attributes, loops and writes in njit
# functions (run by tests/e2e/run_njit_oracle.py through `ufjit call` and
# Numba, and by tests/test_plain_call.c through uf_call).
import numpy as np
from numba import njit


# Seed 001: Numba's first example.
@njit
def sum2d(arr):
    M, N = arr.shape
    result = 0.0
    for i in range(M):
        for j in range(N):
            result += arr[i, j]
    return result


# An njit function taking arrays, called from another kernel.
@njit
def use_sum2d(a, b):
    return sum2d(a) - 2.0 * sum2d(b)


@njit
def first_last(a):
    return a[0], a[-1], len(a), a.size, a.ndim


@njit
def get1(a, i):
    return a[i]


@njit
def get2(a, i, j):
    return a[i, j]


@njit
def get3(a, i, j, k):
    return a[i, j, k], a[i][j][k], a[i, j][k]


@njit
def get_by_tuple(a, i, j):
    t = (i, j)
    return a[t]


@njit
def attrs(a):
    n = 1
    for d in range(a.ndim):
        n *= a.shape[d]
    return a.shape[0], a.shape[-1], a.size, a.ndim, len(a), n


@njit
def shape3(a):
    return a.shape


# Partial indexing gives rows (views); iteration over 1-D and n-d arrays.
@njit
def row_sums(a):
    acc = 0.0
    for i in range(a.shape[0]):
        r = a[i]
        s = 0.0
        for x in r:
            s += x
        acc = acc * 0.5 + s
    return acc


@njit
def iter_rows(a):
    acc = 0.0
    for row in a:
        for x in row:
            acc = acc * 0.75 + x
    return acc


@njit
def count_true(m):
    c = 0
    for x in m:
        if x:
            c += 1
    return c


@njit
def csum(z):
    s = 0j
    for i in range(len(z)):
        s += z[i] * (i + 1)
    return s, s.real, s.imag


@njit
def dot(a, b):
    acc = 0.0
    for i in range(len(a)):
        acc += a[i] * b[i]
    return acc


# Writes: a[i] = v, augmented assignment, tuple unpacking targets.
@njit
def fill_ramp(a, v):
    for i in range(len(a)):
        a[i] = v * i
    a[0] += 1
    a[-1] -= 2
    return a[0], a[1], a[-1]


@njit
def aug_ops(a):
    a[0] += 2
    a[1] /= 2
    a[2] **= 2
    a[3] //= 3
    a[4] *= -1
    return a[0], a[1], a[2], a[3], a[4]


@njit
def swap(a, i, j):
    a[i], a[j] = a[j], a[i]
    return a[i], a[j]


@njit
def write2(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] = i * 10 + j
    total = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            total = total * 3 + a[i, j]
    return total


@njit
def store_bool(m):
    for i in range(len(m)):
        m[i] = i % 3 == 0
    return m[0], m[1], m[len(m) - 1]


@njit
def matvec_check(M, v, y):
    for i in range(M.shape[0]):
        acc = 0.0
        for j in range(M.shape[1]):
            acc += M[i, j] * v[j]
        y[i] = acc
    s = 0.0
    for i in range(len(y)):
        s = s * 0.5 + y[i]
    return s


@njit(boundscheck=True)
def get1_checked(a, i):
    return a[i]


@njit(boundscheck=True)
def set2_checked(a, i, j):
    a[i, j] = 1.0
    return a[i, j]


@njit(boundscheck=True)
def tuple_checked(a, k):
    return a.shape[k]


@njit
def calls_checked(a, i):
    return get1_checked(a, i) + 1


@njit
def sign(x):
    return np.sign(x)


@njit
def int_div(a, b):
    return a // b, a % b


@njit
def returns_none(a):
    a[0] = 7


# Refused constructs (each reported with its position).
@njit
def fancy_it(a):
    return a[a > 2, a]


@njit
def array_add(a):
    return a + 1


@njit
def np_sum(a):
    return np.sum(a, 0)


@njit
def returns_array(a):
    return a
