# The reduce kernel of the benchmark suite (ufjit only: Numba's @reduce
# exists for CUDA, its CPU peers are NumPy and an njit prange loop in
# bench/peers.py). A file of its own so that a ufjit that cannot load
# reduce kernels yet loses only the reduction cases.
from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b
