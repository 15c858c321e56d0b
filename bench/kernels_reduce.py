# The reduce kernel of the benchmark suite (ufjit only: Numba's @reduce
# exists for CUDA, its CPU peers are NumPy and an njit prange loop in
# bench/peers.py). A file of its own so that a ufjit that cannot load
# reduce kernels yet loses only the reduction cases.
from numba import cuda, njit, prange


@cuda.reduce
def sum_reduce(a, b):
    return a + b


# issue 18: the same sum as a prange reduction of an njit(parallel=True)
# function (compiler/lower/lower_prange.c)
@njit(parallel=True)
def prange_sum(x):
    s = 0.0
    for i in prange(x.shape[0]):
        s += x[i]
    return s
