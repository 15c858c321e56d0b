# The seeds' vectorize examples, as a Numba user writes them (target cpu).
import math

import numpy as np
from numba import vectorize

SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
def rel_diff(x, y):
    return 2 * (x - y) / (x + y)


@vectorize(['float32(float32, float32, float32)'])
def gaussian_pdf(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)
