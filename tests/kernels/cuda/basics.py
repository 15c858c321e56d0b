# cuda.jit kernels: thread indices, cuda.grid in 1-3 dimensions, scalars,
# signatures, bounds checks. Each runs unchanged under numba-cuda.
import math

from numba import cuda


@cuda.jit
def hypot_kernel(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.hypot(x[i], y[i])


@cuda.jit('void(float64[:, :], float64)')
def scale2d(a, k):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = a[i, j] * k


@cuda.jit
def coordinates(out):
    # out[z, y, x] = the thread's (block, thread) indices, packed
    x, y, z = cuda.grid(3)
    if z < out.shape[0] and y < out.shape[1] and x < out.shape[2]:
        out[z, y, x] = (cuda.blockIdx.x * 1000000 + cuda.threadIdx.x * 10000
                        + cuda.blockIdx.y * 1000 + cuda.threadIdx.y * 100
                        + cuda.blockIdx.z * 10 + cuda.threadIdx.z)


@cuda.jit
def sizes(out):
    # every thread writes the launch's shape; thread 0 of block 0 wins
    if cuda.grid(1) == 0:
        sx, sy = cuda.gridsize(2)
        out[0] = cuda.blockDim.x
        out[1] = cuda.blockDim.y
        out[2] = cuda.gridDim.x
        out[3] = cuda.gridDim.y
        out[4] = sx
        out[5] = sy
        out[6] = cuda.warpsize


@cuda.jit(debug=True)
def off_by_one(a):
    i = cuda.grid(1)
    if i <= a.size:
        a[i] = 1.0
