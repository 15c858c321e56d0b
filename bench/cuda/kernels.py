# The CUDA benchmark kernels (issue 14), read by ufjit as a kernel file
# and by bench/cuda/peers.py, which takes the functions without their
# decorators and builds numba-cuda's kernels from them the way
# numba-cuda's own vectorize and guvectorize do. The seeds' gaussian_pdf
# and polar_distance (with a device function), rel_diff, a triad, sine,
# and two small gufuncs.
import math

import numpy as np
from numba import cuda, guvectorize, vectorize

SQRT_2PI = np.float32((2 * math.pi) ** 0.5)
# the triad's scalar, of the arrays' precision in the float32 loop
A = np.float32(3.0)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'],
           target='cuda')
def triad(x, y):
    return A * x + y


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'],
           target='cuda')
def rel_diff(x, y):
    return 2 * (x - y) / (x + y)


@vectorize(['float32(float32, float32, float32)',
            'float64(float64, float64, float64)'], target='cuda')
def gaussian_pdf(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)


@cuda.jit(device=True)
def polar_to_cartesian(rho, theta):
    x = rho * math.cos(theta)
    y = rho * math.sin(theta)
    return x, y


@vectorize(['float32(float32, float32, float32, float32)',
            'float64(float64, float64, float64, float64)'], target='cuda')
def polar_distance(rho1, theta1, rho2, theta2):
    x1, y1 = polar_to_cartesian(rho1, theta1)
    x2, y2 = polar_to_cartesian(rho2, theta2)
    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5


@vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
def sine(x):
    return math.sin(x)


# Benchmarked on 4x4 matrices (matvec) and 8x8 (matmul): one thread per
# matrix on the GPU.
@guvectorize(['void(float32[:,:], float32[:], float32[:])',
              'void(float64[:,:], float64[:], float64[:])'],
             '(m,n),(n)->(m)', target='cuda')
def matvec(M, v, y):
    for i in range(M.shape[0]):
        acc = 0.0
        for j in range(M.shape[1]):
            acc += M[i, j] * v[j]
        y[i] = acc


@guvectorize(['void(float32[:,:], float32[:,:], float32[:,:])',
              'void(float64[:,:], float64[:,:], float64[:,:])'],
             '(m,n),(n,p)->(m,p)', target='cuda')
def matmul(A, B, C):
    for i in range(A.shape[0]):
        for k in range(B.shape[1]):
            C[i, k] = 0.0
        for j in range(A.shape[1]):
            a = A[i, j]
            for k in range(B.shape[1]):
                C[i, k] += a * B[j, k]


# cuda.jit kernels (issue 15): seed 002's hypot kernel and shared-memory
# transpose, and Numba's documented shared-memory matrix multiply. Only
# their PTX is compared so far (bench/cuda/run.py).
TILE_DIM = 32
BLOCK_ROWS = 8
TILE_DIM_PADDED = TILE_DIM + 1
TPB = 16


@cuda.jit
def hypot_kernel(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.hypot(x[i], y[i])


@cuda.jit
def tile_transpose(a_in, a_out):
    tile = cuda.shared.array(shape=(TILE_DIM, TILE_DIM_PADDED),
                             dtype=np.int32)
    x = cuda.blockIdx.x * TILE_DIM + cuda.threadIdx.x
    y = cuda.blockIdx.y * TILE_DIM + cuda.threadIdx.y
    for j in range(0, TILE_DIM, BLOCK_ROWS):
        tile[cuda.threadIdx.y + j, cuda.threadIdx.x] = a_in[y + j, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE_DIM + cuda.threadIdx.x
    y = cuda.blockIdx.x * TILE_DIM + cuda.threadIdx.y
    for j in range(0, TILE_DIM, BLOCK_ROWS):
        a_out[y + j, x] = tile[cuda.threadIdx.x, cuda.threadIdx.y + j]


@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=np.float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = np.float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


# seed 002's atomic histogram (grid-stride) and a warp-shuffle sum, the
# last steps of a block reduction
@cuda.jit
def histogram(x, xmin, xmax, histogram_out):
    nbins = histogram_out.shape[0]
    bin_width = (xmax - xmin) / nbins
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        bin_number = np.int32((x[i] - xmin) / bin_width)
        if bin_number >= 0 and bin_number < histogram_out.shape[0]:
            cuda.atomic.add(histogram_out, bin_number, 1)


@cuda.jit
def warp_sum(a, out):
    i = cuda.grid(1)
    v = a[i]
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xffffffff, v, offset)
        offset //= 2
    if cuda.laneid == 0:
        out[i // 32] = v


@cuda.reduce
def sum_reduce(a, b):
    return a + b
