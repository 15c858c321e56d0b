# The kernels of bench_calls.py, the same text under Numba and ufjit (the
# import line is swapped when ufjit runs it).
from numba import vectorize, guvectorize, float64, void


@vectorize([float64(float64, float64)])
def hyp(x, y):
    return (x * x + y * y) ** 0.5


@guvectorize([void(float64[:], float64[:])], '(n)->()')
def total(a, out):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    out[0] = s
