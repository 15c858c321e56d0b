# a.flags.c_contiguous / .f_contiguous / .contiguous inside kernels
# (compiler/types/infer_expr.c flags_attr, compiler/lower/lower_array.c
# contiguous), checked against Numba by tests/e2e/run_arrflags_oracle.py.
import numpy as np
from numba import njit


@njit
def flags(a):
    return a.flags.c_contiguous, a.flags.f_contiguous, a.flags.contiguous


@njit
def views(a):
    b = a[::2]
    c = a.T
    d = a[1:]
    return (b.flags.c_contiguous, b.flags.f_contiguous, c.flags.c_contiguous,
            c.flags.f_contiguous, d.flags.c_contiguous, d.flags.f_contiguous)


@njit
def branch(a):
    if not a.flags.c_contiguous:
        a = np.ascontiguousarray(a)
    return a.sum() + a.flags.c_contiguous


@njit
def bare(a):
    return a.flags
