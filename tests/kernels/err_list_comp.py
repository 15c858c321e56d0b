# Numba compiles list comprehensions; ufjit's kernel language has none and
# must refuse them with their position, never miscompile.
from numba import vectorize


@vectorize
def list_comp(n):
    squares = [i * i for i in range(n + 1)]
    return squares[n]
