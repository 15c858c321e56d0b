# The math module, one function per kernel, for float64 (and float32 first
# where the float32 path differs: Numba calls the float version of the libm
# function). Results may differ by an ulp or two from Numba where libm and
# vectorised libm (libmvec) differ; exact functions must match bit for bit.
# math.fmod is not here: Numba does not support it (np.fmod is in
# numpy_funcs.py; tests/e2e/kernels_basic.sh checks ufjit's math.fmod).
import math
from numba import vectorize


@vectorize(['float32(float32)', 'float64(float64)'])
def sin(x):
    return math.sin(x)


@vectorize(['float32(float32)', 'float64(float64)'])
def cos(x):
    return math.cos(x)


@vectorize(['float64(float64)'])
def tan(x):
    return math.tan(x)


@vectorize(['float64(float64)'])
def asin(x):
    return math.asin(x)


@vectorize(['float64(float64)'])
def acos(x):
    return math.acos(x)


@vectorize(['float64(float64)'])
def atan(x):
    return math.atan(x)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
def atan2(y, x):
    return math.atan2(y, x)


@vectorize(['float64(float64)'])
def sinh(x):
    return math.sinh(x)


@vectorize(['float64(float64)'])
def cosh(x):
    return math.cosh(x)


@vectorize(['float32(float32)', 'float64(float64)'])
def tanh(x):
    return math.tanh(x)


@vectorize(['float64(float64)'])
def asinh(x):
    return math.asinh(x)


@vectorize(['float64(float64)'])
def acosh(x):
    return math.acosh(x)


@vectorize(['float64(float64)'])
def atanh(x):
    return math.atanh(x)


@vectorize(['float32(float32)', 'float64(float64)'])
def exp(x):
    return math.exp(x)


@vectorize(['float64(float64)'])
def expm1(x):
    return math.expm1(x)


@vectorize(['float32(float32)', 'float64(float64)'])
def log(x):
    return math.log(x)


@vectorize(['float64(float64)'])
def log1p(x):
    return math.log1p(x)


@vectorize(['float64(float64)'])
def log2(x):
    return math.log2(x)


@vectorize(['float64(float64)'])
def log10(x):
    return math.log10(x)


@vectorize(['float32(float32)', 'float64(float64)'])
def sqrt(x):
    return math.sqrt(x)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
def pow_(x, y):
    return math.pow(x, y)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
def hypot(x, y):
    return math.hypot(x, y)


@vectorize(['float64(int64)', 'float64(float64)'])
def fabs(x):
    return math.fabs(x)


# math.floor / ceil / trunc return int64 in Numba.
@vectorize(['int64(float32)', 'int64(float64)'])
def floor(x):
    return math.floor(x)


@vectorize(['int64(float64)'])
def ceil(x):
    return math.ceil(x)


@vectorize(['int64(float64)'])
def trunc(x):
    return math.trunc(x)


@vectorize(['float64(float64, float64)'])
def copysign(x, y):
    return math.copysign(x, y)


@vectorize(['float64(float64)'])
def erf(x):
    return math.erf(x)


@vectorize(['float64(float64)'])
def erfc(x):
    return math.erfc(x)


@vectorize(['float64(float64)'])
def gamma(x):
    return math.gamma(x)


@vectorize(['float64(float64)'])
def lgamma(x):
    return math.lgamma(x)


@vectorize(['boolean(float32)', 'boolean(float64)'])
def isnan(x):
    return math.isnan(x)


@vectorize(['boolean(float64)'])
def isinf(x):
    return math.isinf(x)


@vectorize(['boolean(float64)'])
def isfinite(x):
    return math.isfinite(x)


@vectorize(['float64(float64)'])
def degrees(x):
    return math.degrees(x)


@vectorize(['float64(float64)'])
def radians(x):
    return math.radians(x)


# The constants, combined so each one shows.
@vectorize(['float64(float64)'])
def constants(x):
    r = x * math.pi + math.e
    if x > 100:
        r = math.inf
    if x < -100:
        r = -math.inf
    if x == 0:
        r = math.nan
    return r


# `from math import sqrt` style imports.
@vectorize(['float64(float64)'])
def from_import(x):
    return math.sqrt(abs(x)) + math.exp(-x * x)
