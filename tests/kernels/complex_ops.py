# Complex numbers: construction, parts, arithmetic, abs, cmath basics.
import cmath
from numba import vectorize


@vectorize(['complex128(float64, float64)'])
def make(x, y):
    return complex(x, y) * 2 + 1j


@vectorize(['float32(complex64)', 'float64(complex128)'])
def real_plus_imag(z):
    return z.real + z.imag


@vectorize(['complex64(complex64, complex64)',
            'complex128(complex128, complex128)'])
def arith(z, w):
    return (z * w - w) / (z + 2)


@vectorize(['complex128(complex128)'])
def conjugate(z):
    return z.conjugate() * z


@vectorize(['float64(complex128)'])
def abs_(z):
    return abs(z)


@vectorize(['complex128(complex128)'])
def c_sqrt(z):
    return cmath.sqrt(z)


@vectorize(['complex128(complex128)'])
def c_exp(z):
    return cmath.exp(z)


@vectorize(['complex128(complex128)'])
def c_log(z):
    return cmath.log(z)


@vectorize(['float64(complex128)'])
def c_phase(z):
    return cmath.phase(z)


@vectorize(['float64(complex128)'])
def c_polar(z):
    r, phi = cmath.polar(z)
    return r * 10 + phi


@vectorize(['complex128(float64, float64)'])
def c_rect(r, phi):
    return cmath.rect(r, phi)


@vectorize(['int64(complex128)'])
def c_classify(z):
    return cmath.isnan(z) * 100 + cmath.isinf(z) * 10 + cmath.isfinite(z)


# A float mixed with a complex gives a complex.
@vectorize(['complex128(float64, complex128)'])
def mixed(x, z):
    return x * z + x


@vectorize(['complex128(complex128, complex128)'])
def c_pow(z, w):
    return z ** w
