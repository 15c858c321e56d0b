# Kernels benchmarked side by side by ufjit and Numba (target='cpu').
# The seeds' rel_diff, hypot and gaussian_pdf, in float32 and float64.
import math

import numpy as np
from numba import vectorize

SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


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
