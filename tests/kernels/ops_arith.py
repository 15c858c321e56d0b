# Arithmetic operators with Python semantics, per type. Ufunc kernels use
# NumPy's error model: float division by zero gives inf/nan, integer
# division or modulo by zero gives 0, no exception. Narrow loops come
# first, so each one is reached (a call takes the first loop its inputs
# cast to safely).
from numba import vectorize

@vectorize(['int32(int32, int32)', 'int64(int64, int64)',
            'uint64(uint64, uint64)', 'float32(float32, float32)',
            'float64(float64, float64)', 'complex128(complex128, complex128)'])
def add(x, y):
    return x + y


@vectorize(['uint8(uint8, uint8)', 'int64(int64, int64)',
            'float32(float32, float32)', 'float64(float64, float64)',
            'complex64(complex64, complex64)'])
def sub(x, y):
    return x - y


@vectorize(['int16(int16, int16)', 'int64(int64, int64)',
            'float32(float32, float32)', 'float64(float64, float64)',
            'complex128(complex128, complex128)'])
def mul(x, y):
    return x * y


# True division: ints give float64.
@vectorize(['float64(int64, int64)', 'float32(float32, float32)',
            'float64(float64, float64)', 'complex128(complex128, complex128)'])
def truediv(x, y):
    return x / y


# // and % floor towards minus infinity; the remainder has the divisor's sign.
@vectorize(['uint8(uint8, uint8)', 'int32(int32, int32)',
            'int64(int64, int64)', 'float32(float32, float32)',
            'float64(float64, float64)'])
def floordiv(x, y):
    return x // y


@vectorize(['uint8(uint8, uint8)', 'int32(int32, int32)',
            'int64(int64, int64)', 'float32(float32, float32)',
            'float64(float64, float64)'])
def mod(x, y):
    return x % y


# Both at once: divmod's identity x == (x // y) * y + x % y.
@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def divmod_check(x, y):
    q = x // y
    r = x % y
    return q * y + r


@vectorize(['int64(int64, int64)', 'float32(float32, float32)',
            'float64(float64, int64)', 'float64(float64, float64)'])
def power(x, y):
    return x ** y


# Small constant exponents, the common case.
@vectorize(['int64(int64)', 'float32(float32)', 'float64(float64)'])
def square_cube(x):
    return x ** 2 + x ** 3


@vectorize(['float32(float32)', 'float64(float64)'])
def sqrt_pow(x):
    return x ** 0.5


@vectorize(['int64(int64)', 'float32(float32)', 'float64(float64)'])
def neg(x):
    return -x


@vectorize(['int64(int64)', 'float64(float64)'])
def pos(x):
    return +x


@vectorize(['uint8(uint8)', 'int32(int32)', 'int64(int64)'])
def invert(x):
    return ~x


@vectorize(['boolean(boolean, boolean)', 'uint32(uint32, uint32)',
            'int64(int64, int64)'])
def bit_and(x, y):
    return x & y


@vectorize(['boolean(boolean, boolean)', 'uint32(uint32, uint32)',
            'int64(int64, int64)'])
def bit_or(x, y):
    return x | y


@vectorize(['boolean(boolean, boolean)', 'uint32(uint32, uint32)',
            'int64(int64, int64)'])
def bit_xor(x, y):
    return x ^ y


@vectorize(['uint32(uint32, uint32)', 'int64(int64, int64)'])
def lshift(x, y):
    return x << y


@vectorize(['uint32(uint32, uint32)', 'int64(int64, int64)'])
def rshift(x, y):
    return x >> y


# Augmented assignments, each operator once.
@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def augmented(x, y):
    r = x
    r += y
    r *= 3
    r -= y
    r //= 2
    r %= 1000
    r **= 2
    return r


@vectorize(['int64(int64, int64)'])
def augmented_bits(x, y):
    r = x
    r &= 0xFFFF
    r |= y
    r ^= 0x0F0F
    r <<= 3
    r >>= 1
    return r


@vectorize(['float64(float64, float64)'])
def augmented_div(x, y):
    r = x
    r /= y
    return r


# Mixed operand types inside a kernel (int32 and float32 meet in float64).
@vectorize(['float64(uint8, int8)', 'float32(int32, float32)',
            'float64(int64, float64)'])
def mixed_add(x, y):
    return x + y * 2
