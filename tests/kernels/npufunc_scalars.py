# NumPy ufuncs on scalars inside kernels, one kernel per ufunc over the
# dtypes Numba takes. tests/gen/npufunc_scalars.py runs them with Numba for
# tests/test_npufunc.c; test_cuda_vectorize and test_nvvm_ptx take them too.
import numpy as np
from numba import vectorize


@vectorize([
    'bool(bool, bool)',
    'int8(int8, int8)',
    'int32(int32, int32)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
    'float32(float32, float32)',
    'float64(float64, float64)',
    'complex128(complex128, complex128)',
])
def np_add(x, y):
    return np.add(x, y)


@vectorize([
    'int8(int8, int8)',
    'int32(int32, int32)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
    'float32(float32, float32)',
    'float64(float64, float64)',
    'complex128(complex128, complex128)',
])
def np_subtract(x, y):
    return np.subtract(x, y)


@vectorize([
    'bool(bool, bool)',
    'int8(int8, int8)',
    'int32(int32, int32)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
    'float32(float32, float32)',
    'float64(float64, float64)',
    'complex128(complex128, complex128)',
])
def np_multiply(x, y):
    return np.multiply(x, y)


@vectorize([
    'float32(float32, float32)',
    'float64(float64, float64)',
    'complex128(complex128, complex128)',
    'float64(int32, int32)',
    'float64(int64, int64)',
])
def np_true_divide(x, y):
    # ints divide as float64, a zero divisor gives inf or nan
    return np.true_divide(x, y)


@vectorize(['float64(float64, float64)', 'float64(int64, int64)'])
def np_divide(x, y):
    return np.divide(x, y)


@vectorize([
    'int8(int8, int8)',
    'int32(int32, int32)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
    'uint8(uint8, uint8)',
    'float32(float32, float32)',
    'float64(float64, float64)',
])
def np_floor_divide(x, y):
    # x // 0 is 0 for ints; floats: floor(x / y) as Numba
    return np.floor_divide(x, y)


@vectorize([
    'int8(int8, int8)',
    'int32(int32, int32)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
    'uint8(uint8, uint8)',
    'float32(float32, float32)',
    'float64(float64, float64)',
])
def np_remainder(x, y):
    return np.remainder(x, y)


@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])
def np_mod(x, y):
    return np.mod(x, y)


@vectorize([
    'int8(int8, int8)',
    'int32(int32, int32)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
    'float32(float32, float32)',
    'float64(float64, float64)',
])
def np_fmod(x, y):
    return np.fmod(x, y)


@vectorize([
    'int64(int8, int8)',
    'int64(int64, int64)',
    'int64(uint64, uint64)',
])
def np_divmod_int(x, y):
    # the tuple np.divmod gives, both parts in one value
    q, r = np.divmod(x, y)
    return q * 1000 + r


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
def np_divmod_float(x, y):
    q, r = np.divmod(x, y)
    return q - r


@vectorize([
    'int8(int8)',
    'int32(int32)',
    'int64(int64)',
    'uint64(uint64)',
    'float32(float32)',
    'float64(float64)',
    'complex128(complex128)',
])
def np_negative(x):
    return np.negative(x)


@vectorize([
    'int8(int8)',
    'int32(int32)',
    'int64(int64)',
    'uint64(uint64)',
    'float64(float64)',
    'complex128(complex128)',
])
def np_positive(x):
    return np.positive(x)


@vectorize([
    'int8(int8, int8)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
    'float32(float32, float32)',
    'float64(float64, float64)',
])
def np_power(x, y):
    # ints wrap; a negative exponent gives 0, +-1, or INT_MIN for 0
    return np.power(x, y)


@vectorize([
    'float64(float64, float64)',
    'float64(int64, int64)',
    'float64(float32, float32)',
])
def np_float_power(x, y):
    return np.float_power(x, y)


@vectorize(['float32(float32)', 'float64(float64)'])
def np_reciprocal(x):
    return np.reciprocal(x)


@vectorize(['int8(int8)', 'int64(int64)', 'uint64(uint64)'])
def np_reciprocal_int(x):
    # 1 / 0 converted to an int has no defined value: left out
    return np.reciprocal(x) if x != 0 else x


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
def np_logaddexp(x, y):
    return np.logaddexp(x, y)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
def np_logaddexp2(x, y):
    return np.logaddexp2(x, y)


@vectorize(['float32(float32)', 'float64(float64)', 'float64(int32)'])
def np_exp2(x):
    return np.exp2(x)


@vectorize(['float32(float32)', 'float64(float64)', 'float64(int32)'])
def np_cbrt(x):
    return np.cbrt(x)


@vectorize(['float32(float32)', 'float64(float64)', 'float64(int32)'])
def np_arcsinh(x):
    return np.arcsinh(x)


@vectorize(['float32(float32)', 'float64(float64)', 'float64(int32)'])
def np_arccosh(x):
    return np.arccosh(x)


@vectorize(['float32(float32)', 'float64(float64)', 'float64(int32)'])
def np_arctanh(x):
    return np.arctanh(x)


@vectorize(['float32(float32)', 'float64(float64)', 'float64(int32)'])
def np_degrees(x):
    return np.degrees(x)


@vectorize(['float32(float32)', 'float64(float64)', 'float64(int32)'])
def np_radians(x):
    return np.radians(x)


@vectorize(['float32(float32)', 'float64(float64)', 'float64(int32)'])
def np_spacing(x):
    return np.spacing(x)


@vectorize(['boolean(float32)', 'boolean(float64)'])
def np_signbit(x):
    return np.signbit(x)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
def np_nextafter(x, y):
    return np.nextafter(x, y)


@vectorize([
    'float64(float64, int64)',
    'float32(float32, int32)',
    'float64(float64, int32)',
])
def np_ldexp(x, y):
    return np.ldexp(x, y)


@vectorize([
    'int8(int8, int8)',
    'int32(int32, int32)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
])
def np_gcd(x, y):
    return np.gcd(x, y)


@vectorize([
    'int8(int8, int8)',
    'int32(int32, int32)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
])
def np_lcm(x, y):
    return np.lcm(x, y)


@vectorize([
    'bool(bool, bool)',
    'int8(int8, int8)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
])
def np_bitwise_and(x, y):
    return np.bitwise_and(x, y)


@vectorize([
    'bool(bool, bool)',
    'int8(int8, int8)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
])
def np_bitwise_or(x, y):
    return np.bitwise_or(x, y)


@vectorize([
    'bool(bool, bool)',
    'int8(int8, int8)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
])
def np_bitwise_xor(x, y):
    return np.bitwise_xor(x, y)


@vectorize(['bool(bool)', 'int8(int8)', 'int64(int64)', 'uint64(uint64)'])
def np_invert(x):
    return np.invert(x)


@vectorize(['bool(bool)', 'int32(int32)'])
def np_bitwise_not(x):
    return np.bitwise_not(x)


@vectorize([
    'int8(int8, int8)',
    'int32(int32, int32)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
])
def np_left_shift(x, y):
    # counts in [0, bits): Numba leaves larger ones undefined
    return np.left_shift(x, y)


@vectorize([
    'int8(int8, int8)',
    'int32(int32, int32)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
])
def np_right_shift(x, y):
    return np.right_shift(x, y)


@vectorize([
    'boolean(bool, bool)',
    'boolean(int8, int8)',
    'boolean(int64, int64)',
    'boolean(uint64, uint64)',
    'boolean(float32, float32)',
    'boolean(float64, float64)',
    'boolean(int64, uint64)',
    'boolean(uint64, int64)',
])
def np_greater(x, y):
    return np.greater(x, y)


@vectorize([
    'boolean(bool, bool)',
    'boolean(int8, int8)',
    'boolean(int64, int64)',
    'boolean(uint64, uint64)',
    'boolean(float32, float32)',
    'boolean(float64, float64)',
    'boolean(int64, uint64)',
    'boolean(uint64, int64)',
])
def np_greater_equal(x, y):
    return np.greater_equal(x, y)


@vectorize([
    'boolean(bool, bool)',
    'boolean(int8, int8)',
    'boolean(int64, int64)',
    'boolean(uint64, uint64)',
    'boolean(float32, float32)',
    'boolean(float64, float64)',
    'boolean(int64, uint64)',
    'boolean(uint64, int64)',
])
def np_less(x, y):
    return np.less(x, y)


@vectorize([
    'boolean(bool, bool)',
    'boolean(int8, int8)',
    'boolean(int64, int64)',
    'boolean(uint64, uint64)',
    'boolean(float32, float32)',
    'boolean(float64, float64)',
    'boolean(int64, uint64)',
    'boolean(uint64, int64)',
])
def np_less_equal(x, y):
    return np.less_equal(x, y)


@vectorize([
    'boolean(bool, bool)',
    'boolean(int8, int8)',
    'boolean(int64, int64)',
    'boolean(uint64, uint64)',
    'boolean(float32, float32)',
    'boolean(float64, float64)',
    'boolean(complex128, complex128)',
    'boolean(int64, uint64)',
])
def np_equal(x, y):
    return np.equal(x, y)


@vectorize([
    'boolean(bool, bool)',
    'boolean(int8, int8)',
    'boolean(int64, int64)',
    'boolean(uint64, uint64)',
    'boolean(float32, float32)',
    'boolean(float64, float64)',
    'boolean(complex128, complex128)',
    'boolean(int64, uint64)',
])
def np_not_equal(x, y):
    return np.not_equal(x, y)


@vectorize([
    'boolean(bool, bool)',
    'boolean(int32, int32)',
    'boolean(float64, float64)',
    'boolean(complex128, complex128)',
])
def np_logical_and(x, y):
    return np.logical_and(x, y)


@vectorize([
    'boolean(bool, bool)',
    'boolean(int32, int32)',
    'boolean(float64, float64)',
    'boolean(complex128, complex128)',
])
def np_logical_or(x, y):
    return np.logical_or(x, y)


@vectorize([
    'boolean(bool, bool)',
    'boolean(int32, int32)',
    'boolean(float64, float64)',
    'boolean(complex128, complex128)',
])
def np_logical_xor(x, y):
    return np.logical_xor(x, y)


@vectorize([
    'boolean(bool)',
    'boolean(int32)',
    'boolean(float64)',
    'boolean(complex128)',
])
def np_logical_not(x):
    return np.logical_not(x)


@vectorize([
    'int8(int8, int8)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
    'float32(float32, float32)',
    'float64(float64, float64)',
])
def np_maximum(x, y):
    # maximum and minimum propagate NaN; fmax and fmin ignore it
    return np.maximum(x, y)


@vectorize([
    'int8(int8, int8)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
    'float32(float32, float32)',
    'float64(float64, float64)',
])
def np_minimum(x, y):
    return np.minimum(x, y)


@vectorize([
    'int8(int8, int8)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
    'float32(float32, float32)',
    'float64(float64, float64)',
])
def np_fmax(x, y):
    return np.fmax(x, y)


@vectorize([
    'int8(int8, int8)',
    'int64(int64, int64)',
    'uint64(uint64, uint64)',
    'float32(float32, float32)',
    'float64(float64, float64)',
])
def np_fmin(x, y):
    return np.fmin(x, y)


@vectorize([
    'boolean(int32)',
    'boolean(uint64)',
    'boolean(float32)',
    'boolean(float64)',
])
def np_isnan(x):
    return np.isnan(x)


@vectorize([
    'boolean(int32)',
    'boolean(uint64)',
    'boolean(float32)',
    'boolean(float64)',
])
def np_isinf(x):
    return np.isinf(x)


@vectorize([
    'boolean(int32)',
    'boolean(uint64)',
    'boolean(float32)',
    'boolean(float64)',
])
def np_isfinite(x):
    return np.isfinite(x)


@vectorize(['int8(int8)', 'int64(int64)', 'float64(float64)'])
def np_sign(x):
    return np.sign(x)


@vectorize(['int32(int32)', 'float64(float64)', 'complex128(complex128)'])
def np_conjugate(x):
    return np.conjugate(x)


# NumPy's other names of ufuncs
@vectorize(['float64(float64, float64)', 'int64(int64, int64)'])
def np_alias_pow(x, y):
    return np.pow(x, y)


@vectorize(['float64(float64)'])
def np_alias_acos(x):
    return np.acos(x) + np.asin(x) * 2.0


@vectorize(['float64(float64, float64)'])
def np_alias_atan2(y, x):
    return np.atan2(y, x)


@vectorize(['float64(float64)'])
def np_alias_atan_asinh(x):
    return np.atan(x) + np.asinh(x) * 4.0


@vectorize(['float64(float64)', 'float32(float32)'])
def np_alias_degrees(x):
    return np.degrees(x) + np.radians(x) * 3.0


@vectorize(['int64(int64)', 'boolean(boolean)'])
def np_alias_bitwise(x):
    return np.bitwise_invert(np.bitwise_not(np.bitwise_invert(x)))


@vectorize(['int64(int64, int64)'])
def np_alias_shifts(x, y):
    return np.bitwise_left_shift(x, 3) ^ np.bitwise_right_shift(x, 2)


@vectorize(['float64(float64)'])
def np_alias_hyperbolic(x):
    return np.acosh(x) + np.atanh(x / 1000.0) * 8.0


@vectorize(['float64(int32, float32)', 'float32(float32, int8)'])
def np_mixed(x, y):
    # mixed int and float inputs: the float loop (Numba: any int to any float)
    return np.add(x, y) * np.multiply(y, 2)
