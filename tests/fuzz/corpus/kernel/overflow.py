# Integer overflow wraps around (two's complement), as in Numba and NumPy;
# unsigned arithmetic wraps modulo 2**bits. The narrow loops come first
# (a call takes the first loop its inputs cast to safely).
from numba import vectorize


@vectorize(['int8(int8, int8)', 'uint8(uint8, uint8)',
            'int32(int32, int32)', 'int64(int64, int64)',
            'uint64(uint64, uint64)'])
def wrap_add(x, y):
    return x + y


@vectorize(['int32(int32, int32)', 'uint32(uint32, uint32)',
            'int64(int64, int64)'])
def wrap_mul(x, y):
    return x * y


@vectorize(['uint8(uint8)', 'int64(int64)'])
def wrap_neg(x):
    return -x


# abs(INT64_MIN) stays INT64_MIN.
@vectorize(['int64(int64)'])
def wrap_abs(x):
    return abs(x)


# A loop that overflows on the way (a 64-bit LCG).
@vectorize(['int64(int64)'])
def lcg(seed):
    s = seed
    for i in range(10):
        s = s * 6364136223846793005 + 1442695040888963407
    return s


# INT64_MIN // -1 and INT64_MIN % -1: NumPy's model gives INT64_MIN and 0.
@vectorize(['int64(int64, int64)'])
def min_div(x, y):
    return x // y


@vectorize(['int64(int64, int64)'])
def min_mod(x, y):
    return x % y
