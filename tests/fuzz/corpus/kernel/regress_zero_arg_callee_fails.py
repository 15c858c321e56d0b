from numba import njit, vectorize
@njit
def g():
    return undefined_name
@vectorize(["float64(float64)"])
def f(x):
    return x + g() + g()
