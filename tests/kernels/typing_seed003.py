# The typing examples of seed 003 ("Numba for CUDA programmers", session 2),
# as lazily compiled ufuncs so the inferred output type shows in the result
# dtype. The comments are the seed's.
from numba import vectorize, float32


@vectorize
def f(a, b):    # a:= float32, b:= float32
    c = a + b   # c:= float32
    return c    # return := float32


# Type unification (1) and (2): {float32, float32} => float32,
# {float32, float64} => float64.
@vectorize
def select(a, b, c):
    if c:
        ret = a
    else:
        ret = b
    return ret


# Widening unification: {float32, int32} unifies to float64.
@vectorize
def select_widen(a, b, threshold, value):
    if threshold < value:
        r = a    # r: float32
    else:
        r = b    # r: int32
    return r    # r: {float32, int32} unifies to float64


# Widening unification solution: cast the int to float32.
@vectorize
def select_narrow(a, b, threshold, value):
    if threshold < value:
        r = a          # r: float32
    else:
        r = float32(b)  # r: float32
    return r           # r: {float32, float32} unifies to float32


# Width of constants: a float literal is float64, so float32 + 2.0 widens.
@vectorize
def add_constant(y):
    return y + 2.0


# Preventing widening: explicitly typed constant.
@vectorize
def add_constant_typed(y):
    return y + float32(2.0)


# Widening propagation: x + (y + 2.0).
@vectorize
def add_constant_2(x, y):
    x += y + 2.0
    return x


# Int literals are int64: int32 * 2 is int64, int32 / 6 is float64,
# int32 % 8 is int64 (seed's "limiting register usage" expressions).
@vectorize
def int_literals(y):
    c = y / 6
    d = y % 8
    e = y * 2
    return c + d + e
