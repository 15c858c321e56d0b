# Array expressions where ufjit refuses them (no allocation inside kernels
# yet): bound to a variable, returned, passed to a function, read as a
# value; and an in-place operation whose result does not cast back.
import numpy as np
from numba import njit


@njit
def bound(a):
    c = a + 1.0
    return c[0]


@njit
def returned(a):
    return a * 2.0


@njit
def helper(v):
    return v.shape[0]


@njit
def passed(a):
    return helper(a - 1.0)


@njit
def indexed(a):
    return (a + 1.0)[0]


@njit
def narrowing(a):
    a[:] += 1.5
