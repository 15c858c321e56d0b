# Shared and local memory: the seed notebook's tiled transpose (002), a
# tiled matrix multiply, a block reversal through dynamic shared memory,
# local scratch arrays, and a neighbour exchange with and without the
# barrier it needs. Each runs unchanged under numba-cuda.
import numba.types
from numba import cuda, float32, float64, int32

TILE_DIM = 32
BLOCK_ROWS = 8
TILE_DIM_PADDED = TILE_DIM + 1
TPB = 16


@cuda.jit
def tile_transpose(a_in, a_out):
    # blocks of (TILE_DIM, BLOCK_ROWS) threads; sides multiples of TILE_DIM
    tile = cuda.shared.array(shape=(TILE_DIM, TILE_DIM_PADDED),
                             dtype=numba.types.int32)
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
    # Numba's documented shared-memory matmul: blocks of TPB x TPB
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = float32(0.)
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


@cuda.jit
def reverse_blocks(a):
    # each block reverses its slice of a through dynamic shared memory
    buf = cuda.shared.array(0, dtype=float64)
    t = cuda.threadIdx.x
    n = cuda.blockDim.x
    i = cuda.blockIdx.x * n + t
    buf[t] = a[i]
    cuda.syncthreads()
    a[i] = buf[n - 1 - t]


@cuda.jit
def dynamic_size(out):
    buf = cuda.shared.array(0, dtype=int32)
    if cuda.grid(1) == 0:
        out[0] = buf.size
        out[1] = buf.shape[0]


@cuda.jit
def local_sort3(a, out):
    # a per-thread scratch array: each thread sorts its row of 3
    i = cuda.grid(1)
    if i < a.shape[0]:
        s = cuda.local.array(3, dtype=float64)
        for k in range(3):
            s[k] = a[i, k]
        for p in range(3):
            for q in range(2 - p):
                if s[q] > s[q + 1]:
                    t = s[q]
                    s[q] = s[q + 1]
                    s[q + 1] = t
        for k in range(3):
            out[i, k] = s[k]


@cuda.jit
def shift_synced(a, out):
    buf = cuda.shared.array(256, dtype=float64)
    t = cuda.threadIdx.x
    buf[t] = a[t]
    cuda.syncthreads()
    out[t] = buf[(t + 1) % cuda.blockDim.x]


@cuda.jit
def shift_racy(a, out):
    # the barrier forgotten: a neighbour's slot may not be written yet
    buf = cuda.shared.array(256, dtype=float64)
    t = cuda.threadIdx.x
    buf[t] = a[t]
    out[t] = buf[(t + 1) % cuda.blockDim.x]


@cuda.jit(debug=True)
def shared_overrun(out):
    buf = cuda.shared.array(8, dtype=float64)
    t = cuda.threadIdx.x
    buf[t] = 1.0
    out[t] = buf[t]
