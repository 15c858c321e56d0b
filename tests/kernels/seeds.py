# The vectorize examples of the seed notebooks and talks
# (/work/shared/seeds 002 and 003), on the cpu target. Where a seed uses
# target='cuda' the signature list is kept and the target is 'cpu'; the
# seed's cuda.jit(device=True) helper is an njit function here, which is
# what a CPU vectorize can call in Numba.
import math
import numpy as np
from numba import vectorize, njit, float32

# This gets inlined at compile time (seed 002).
SQRT_2PI = np.float32((2*math.pi)**0.5)


# Seed 002's gaussian_pdf: float32 throughout, a module constant, and the
# notebook's docstring.
@vectorize(['float32(float32, float32, float32)'], target='cpu')
# Probability Distribution Function
def gaussian_pdf(x, mean, sigma):
    '''Compute the value of a Gaussian probability density function at x with given mean and sigma.'''
    return math.exp(-0.5 * ((x - mean) / sigma)**2) / (sigma * SQRT_2PI)


# The same with a float64 loop first and numba's float32 spelling of the
# constant (DESIGN.md section 2).
SQRT_2PI_32 = float32((2 * math.pi) ** 0.5)


@vectorize(['float64(float64, float64, float64)',
            'float32(float32, float32, float32)'])
def gaussian_pdf2(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI_32)


# Seed 003, example 2: bare @vectorize, compiled for the call's types.
@vectorize
def rel_diff(x, y):
    return 2 * (x - y) / (x + y)


# Seed 003, example 2 continued, with the cuda target swapped for cpu.
@vectorize([float32(float32, float32)], target='cpu')
def rel_diff_f32(x, y):
    return 2 * (x - y) / (x + y)


# Seed 002: a tuple-returning helper (cuda.jit(device=True) in the seed).
@njit
def polar_to_cartesian(rho, theta):
    x = rho * math.cos(theta)
    y = rho * math.sin(theta)
    return x, y  # This is Python, so let's return a tuple


@vectorize(['float32(float32, float32, float32, float32)'], target='cpu')
def polar_distance(rho1, theta1, rho2, theta2):
    x1, y1 = polar_to_cartesian(rho1, theta1)
    x2, y2 = polar_to_cartesian(rho2, theta2)

    return ((x1 - x2)**2 + (y1 - y2)**2)**0.5


# Seed 002's add ufunc, for int64 and float32 (both used in the notebook).
@vectorize(['int64(int64, int64)'], target='cpu')
def add_ufunc(x, y):
    return x + y


@vectorize(['float32(float32, float32)'], target='cpu')
def add_ufunc_f32(x, y):
    return x + y
