# Array expressions ufjit refuses: an in-place operation whose result does
# not cast back (NumPy's same_kind rule). (Array expressions that are not
# stored into an array are new arrays: tests/kernels/array_exprs.py.)
import numpy as np
from numba import njit


@njit
def narrowing(a):
    a[:] += 1.5
