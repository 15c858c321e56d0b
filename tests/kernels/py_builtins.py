# Python builtins and dtype casts inside kernels.
import numpy as np
from numba import vectorize, float32, int32, int8, uint8, float64, int64


@vectorize(['int8(int8)', 'int64(int64)', 'float32(float32)',
            'float64(float64)'])
def abs_(x):
    return abs(x)


@vectorize(['float64(complex128)'])
def abs_complex(z):
    return abs(z)


@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def min2(x, y):
    return min(x, y)


@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def max2(x, y):
    return max(x, y)


# Three arguments of different types: the result type unifies them.
@vectorize(['float64(int64, float32, float64)'])
def min3_mixed(x, y, z):
    return min(x, y, z)


@vectorize(['float64(int32, float32, int64)'])
def max3_mixed(x, y, z):
    return max(x, y, z)


# round(x) of a float is an int64 (banker's rounding); round(x, n) keeps
# the float.
@vectorize(['int64(float32)', 'int64(float64)'])
def round0(x):
    return round(x)


@vectorize(['float64(float64)'])
def round2(x):
    return round(x, 2)


# int() truncates towards zero; float() and bool() convert.
@vectorize(['int64(boolean)', 'int64(float32)', 'int64(float64)'])
def int_(x):
    return int(x)


@vectorize(['float64(float32)', 'float64(int64)'])
def float_(x):
    return float(x)


@vectorize(['boolean(int64)', 'boolean(float64)'])
def bool_(x):
    return bool(x)


@vectorize(['complex128(int64, int64)', 'complex128(float64, float64)'])
def complex_(x, y):
    return complex(x, y)


# Casts by dtype name: numba's and NumPy's spellings.
@vectorize(['float64(float64)'])
def casts_float(x):
    a = float32(x)
    b = np.float32(x) * float32(2)
    c = float64(a) - x
    return a + b + c


@vectorize(['int64(int64)'])
def casts_int_wrap(x):
    # integer to integer casts wrap around, as C and NumPy do
    return int8(x) + uint8(x) * 1000 + int32(x) * 1000000


@vectorize(['int64(float64)'])
def casts_float_to_int(x):
    return int32(x) + int64(x) * 3


@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def pow_builtin(x, y):
    return pow(x, y)


@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def divmod_(x, y):
    q, r = divmod(x, y)
    return q * 1000 + r


@vectorize(['int64(float64, float64)'])
def len_tuple(x, y):
    t = (x, y, x)
    return len(t)
