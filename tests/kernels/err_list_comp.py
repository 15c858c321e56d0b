# Numba compiles a list comprehension inside another; ufjit's lists hold
# numbers only and it must refuse it with its position, never miscompile.
from numba import vectorize


@vectorize
def list_comp(n):
    squares = [[i * j for j in range(i)] for i in range(n + 1)]
    return len(squares)
