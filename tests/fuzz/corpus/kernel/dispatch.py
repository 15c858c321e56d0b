# Which loop a call runs: the FIRST signature every input can be cast to
# safely (seed 003, "prioritizing types"), and mixed-type signatures.
from numba import vectorize


# int64 inputs cannot go to int32 safely, so they take the float64 loop;
# float32 inputs can go to float64 (int32 is no match): float64 too. int8
# and int16 inputs fit the int32 loop.
@vectorize(['int32(int32, int32)', 'float64(float64, float64)'])
def first_safe(x, y):
    return x + y


# Seed 003: a float64 loop listed first is used even for float32 inputs.
@vectorize(['float64(float64, float64)', 'float32(float32, float32)'])
def wide_first(x, y):
    return x * y + 1


# The narrow loop first: float32 inputs stay float32.
@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
def narrow_first(x, y):
    return x * y + 1


# Ints before floats: uint8 inputs fit 'int16', uint16 needs 'int32' (the
# next loop that can hold it), bool fits the first.
@vectorize(['int16(int16)', 'int32(int32)', 'int64(int64)',
            'float64(float64)'])
def widen(x):
    return x * 3 - 1


# Mixed input types in one signature; the output type differs from both.
@vectorize(['float32(int16, float32)', 'float64(int64, float64)',
            'complex128(complex128, float64)'])
def mixed_sig(n, x):
    return n * x


# The declared output type is narrower than the computation: the result is
# cast on return (float64 work, float32 stored; int64 work, int8 stored).
@vectorize(['float32(float32, float32)', 'int8(int8, int8)'])
def narrowing_return(x, y):
    return x * 2.0 + y if x > 0 else x * 3 + y


# A boolean output from numeric inputs, and a numeric output from bools.
@vectorize(['boolean(float64, float64)'])
def close(x, y):
    return abs(x - y) < 1e-3


@vectorize(['int64(boolean, boolean)'])
def count_true(a, b):
    return a + b
