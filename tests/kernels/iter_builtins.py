# for-loops over enumerate() and zip(), as Numba compiles them in nopython
# code (compiler/front/desugar_for.c); run against Numba by
# tests/e2e/run_njit_oracle.py.
import numpy as np
from numba import njit


@njit
def enum_weighted(a):
    s = 0.0
    for i, x in enumerate(a):
        s += i * x
    return s


@njit
def enum_start(a, start):
    s = 0
    for i, x in enumerate(a, start):
        s += i * x
    return s


@njit
def enum_tuple(a):
    s = 0.0
    for t in enumerate(a, 1):
        s += t[0] * t[1]
    return s


@njit
def enum_rows(m):
    s = 0.0
    for i, row in enumerate(m):
        s += i * row.sum()
    return s


@njit
def zip_dot(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


@njit
def zip_three(a, b):
    s = 0.0
    for x, y, z in zip(a, b, a[::-1]):
        s += x * y - z
    return s


@njit
def enum_zip(a, b):
    s = 0.0
    for i, (x, y) in enumerate(zip(a, b)):
        s += i * (x - y)
    return s


@njit
def zip_enum(a, b):
    s = 0.0
    for (i, x), y in zip(enumerate(a), b):
        s += i * x + y
    return s


@njit
def zip_range(a, lo, hi):
    s = 0.0
    for i, x in zip(range(lo, hi), a):
        s += i * x
    return s


@njit
def first_above(a, t):
    found = -1
    for i, x in enumerate(a):
        if x > t:
            found = i
            break
    else:
        found = a.shape[0]
    return found


@njit
def pairs(a, b):
    s = 0.0
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            if i == j:
                continue
            s += (i - j) * x * y
    return s


@njit
def write_through(a, out):
    for i, (x, y) in enumerate(zip(a, out)):
        out[i] = x * 2 + y


@njit
def last_index(a):
    i = -1
    for i, x in enumerate(a):
        pass
    return i


@njit
def zip_step(a, lo, hi, st):
    s = 0.0
    for i, x in zip(range(lo, hi, st), a):
        s = s * 3 + i * x
    return s


@njit
def enum_down(a):
    s = 0
    for j, i in enumerate(range(10, 0, -2)):
        s = s * 7 + j * i + a[j % a.shape[0]]
    return s


@njit
def zip_step_last(a, st):
    i = -100
    for i, x in zip(range(a.shape[0] - 1, -1, st), a):
        a[i] = x + i
    return i
