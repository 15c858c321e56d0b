# np.dot, np.vdot, `@` and a.dot(b) of two 1-D arrays inside kernels
# (issue 18), apart from np_reductions.py because Numba's own need SciPy's
# BLAS: tests/e2e/run_npreduce_oracle.py checks them against Numba when
# SciPy is installed and against NumPy when it is not.
import numpy as np
from numba import njit, guvectorize


@njit
def dots(x, y):
    return np.dot(x, y), x @ y, np.vdot(x, y), x.dot(y)


@guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()")
def gu_dot(x, y, out):
    out[0] = np.dot(x, y)
