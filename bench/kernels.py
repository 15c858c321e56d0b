# Elementwise kernels of the benchmark suite, read by ufjit and by Numba
# alike (bench/peers.py re-reads this file with target='parallel' and as
# plain njit functions for its Numba contenders). The seeds' rel_diff,
# hypot, gaussian_pdf and polar_distance, plus the triad, sin and add of
# the cases, each in float32 and float64.
import math

import numpy as np
from numba import njit, vectorize

SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'],
           target='cpu')
def triad(a, b):
    return a + 3.0 * b


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'],
           target='cpu')
def add(a, b):
    return a + b


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'],
           target='cpu')
def rel_diff(x, y):
    return 2 * (x - y) / (x + y)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'],
           target='cpu')
def hypot(x, y):
    x = abs(x)
    y = abs(y)
    t = min(x, y)
    x = max(x, y)
    t = t / x
    return x * math.sqrt(1 + t * t)


@vectorize(['float32(float32, float32, float32)',
            'float64(float64, float64, float64)'], target='cpu')
def gaussian_pdf(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)


@vectorize(['float32(float32)', 'float64(float64)'], target='cpu')
def sine(x):
    return math.sin(x)


@njit
def polar_to_cartesian(rho, theta):
    x = rho * math.cos(theta)
    y = rho * math.sin(theta)
    return x, y


@vectorize(['float32(float32, float32, float32, float32)',
            'float64(float64, float64, float64, float64)'], target='cpu')
def polar_distance(rho1, theta1, rho2, theta2):
    x1, y1 = polar_to_cartesian(rho1, theta1)
    x2, y2 = polar_to_cartesian(rho2, theta2)
    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5
