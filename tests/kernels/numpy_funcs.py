# NumPy's scalar functions inside kernels (ufunc semantics: np.floor keeps
# the float type, np.sign of a float is a float).
import numpy as np
from numba import vectorize


@vectorize(['float32(float32)', 'float64(float64)'])
def np_trig(x):
    return np.sin(x) + np.cos(x) * np.tan(x * 0.25)


@vectorize(['float64(float64)'])
def np_inverse_trig(x):
    return np.arcsin(x) + np.arccos(x) * 2 + np.arctan(x) * 3


@vectorize(['float64(float64, float64)'])
def np_arctan2(y, x):
    return np.arctan2(y, x)


@vectorize(['float64(float64)'])
def np_hyperbolic(x):
    return np.sinh(x) + np.cosh(x) * np.tanh(x)


@vectorize(['float64(float64)'])
def np_exp_log(x):
    return (np.exp(x) + np.expm1(x) + np.log(x) + np.log1p(x) +
            np.log2(x) + np.log10(x))


@vectorize(['float64(float64)'])
def np_sqrt(x):
    return np.sqrt(x)


@vectorize(['float64(float64, float64)'])
def np_power(x, y):
    return np.power(x, y)


@vectorize(['float64(float64, float64)'])
def np_hypot(x, y):
    return np.hypot(x, y)


@vectorize(['int64(int64)', 'float64(float64)'])
def np_abs(x):
    return np.abs(x) + np.absolute(x)


@vectorize(['float64(float64)'])
def np_rounding(x):
    return (np.floor(x) * 1000 + np.ceil(x) * 100 + np.trunc(x) * 10
            + np.rint(x) + np.fabs(x))


@vectorize(['float64(float64, float64)'])
def np_copysign_fmod(x, y):
    return np.copysign(x, y) * 1000 + np.fmod(x, y)


@vectorize(['int64(float64)'])
def np_classify(x):
    return np.isnan(x) * 100 + np.isinf(x) * 10 + np.isfinite(x)


# minimum/maximum propagate NaN; fmin/fmax ignore it.
@vectorize(['float64(float64, float64)'])
def np_minimum(x, y):
    return np.minimum(x, y)


@vectorize(['float64(float64, float64)'])
def np_maximum(x, y):
    return np.maximum(x, y)


@vectorize(['float64(float64, float64)'])
def np_fmin(x, y):
    return np.fmin(x, y)


@vectorize(['float64(float64, float64)'])
def np_fmax(x, y):
    return np.fmax(x, y)


@vectorize(['int64(int64)', 'float64(float64)'])
def np_sign(x):
    return np.sign(x)


@vectorize(['int64(int64)', 'float64(float64)'])
def np_square(x):
    return np.square(x)


@vectorize(['float64(float64)'])
def np_deg_rad(x):
    return np.deg2rad(x) + np.rad2deg(x)


@vectorize(['float64(complex128)'])
def np_real_imag(z):
    return np.real(z) * 10 + np.imag(z) + np.real(np.conj(z) * z)
