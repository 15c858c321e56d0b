# Comparisons (chained), boolean operators (short-circuit), conditional
# expressions and their result types.
from numba import vectorize


@vectorize(['boolean(uint8, uint8)', 'boolean(int64, int64)',
            'boolean(float32, float32)', 'boolean(float64, float64)'])
def lt(x, y):
    return x < y


@vectorize(['boolean(uint8, uint8)', 'boolean(int64, int64)',
            'boolean(float32, float32)', 'boolean(float64, float64)'])
def le(x, y):
    return x <= y


@vectorize(['boolean(uint8, uint8)', 'boolean(int64, int64)',
            'boolean(float32, float32)', 'boolean(float64, float64)'])
def eq(x, y):
    return x == y


@vectorize(['boolean(uint8, uint8)', 'boolean(int64, int64)',
            'boolean(float32, float32)', 'boolean(float64, float64)'])
def ne(x, y):
    return x != y


@vectorize(['boolean(uint8, uint8)', 'boolean(int64, int64)',
            'boolean(float32, float32)', 'boolean(float64, float64)'])
def gt(x, y):
    return x > y


@vectorize(['boolean(uint8, uint8)', 'boolean(int64, int64)',
            'boolean(float32, float32)', 'boolean(float64, float64)'])
def ge(x, y):
    return x >= y


# Mixed-sign and mixed-kind comparisons: -1 < uint 1 must be true.
@vectorize(['boolean(int64, uint64)', 'boolean(int32, float32)',
            'boolean(int64, float64)'])
def lt_mixed(x, y):
    return x < y


@vectorize(['boolean(int64, int64, int64)',
            'boolean(float64, float64, float64)'])
def chained(x, y, z):
    return x < y <= z


@vectorize(['boolean(int64, int64, int64)'])
def chained_long(x, y, z):
    return 0 <= x < y != z > -5


@vectorize(['boolean(float64, float64)'])
def and_or(x, y):
    return (x > 0 and y > 0) or (x < -5 and not y < -5)


# `and`/`or` on numbers give one of the operands, as in Python.
@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def or_value(x, y):
    return x or y


@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def and_value(x, y):
    return x and y


@vectorize(['boolean(boolean)', 'boolean(int64)', 'boolean(float64)'])
def not_(x):
    return not x


@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def ternary(x, y):
    return x - y if x > y else y - x


# Short-circuit: the right side must not run when the left decides (it
# would divide by zero and give nan/inf; the result ignores it anyway).
@vectorize(['float64(float64, float64)'])
def short_circuit(x, y):
    if y != 0 and x / y > 1:
        return 1.0
    return 0.0
