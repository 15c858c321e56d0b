# NumPy reductions in cuda.jit kernels (issue 18): each thread reduces a row
# of its own. Compiled to PTX through libnvvm and the NVPTX fallback and
# checked by ptxas (tests/test_nvvm_cukernel.c); the same reductions run on
# cudasim in tests/test_npreduce.c.
import numpy as np
from numba import cuda


@cuda.jit('void(float64[:, :], float64[:], int64[:], float32[:, :], '
          'float32[:])')
def row_stats(a, s, k, b, t):
    i = cuda.grid(1)
    if i < a.shape[0]:
        r = a[i]
        s[i] = (np.sum(r) + r.mean() + np.var(r) + np.nanmax(r) +
                np.dot(r, r) + r.T.std() + np.nanmean(r) + r.min())
        k[i] = (r.argmax() + np.argmin(a[i, ::-1]) + int(np.all(r)) +
                r.itemsize + a.T.shape[0])
        t[i] = b[i].sum() + b[i].prod() + b[i].max() + np.nansum(b[i])
