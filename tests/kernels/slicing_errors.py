# Indexing that stays refused inside kernels, each with its construct named
# at FILE:LINE:COL (tests/e2e/run_slicing_oracle.py checks the positions).
import numpy as np
from numba import njit


@njit
def fancy(a, b):
    return a[b, b > 0]


@njit
def mask(a, b):
    return a[b[None, :]]


@njit
def two_ellipses(a):
    return a[..., ...]


@njit
def float_bound(a):
    return a[1.5:]


@njit
def too_many(a):
    return a[1:, 2]
