# Atomics, fences and the counting barriers: the seed notebook's global
# counter (002, "Atomic Operations and Avoiding Race Conditions") and the
# tutorial's atomic histogram, then a kernel for each cuda.atomic
# operation. Each runs unchanged under numba-cuda; the dtype-generic ones
# compile once per argument types.
import numpy as np
from numba import cuda, int32, float64


@cuda.jit
def count_bad(global_counter):
    global_counter[0] += 1  # This is bad


@cuda.jit
def count_atomic(global_counter):
    # Safely add 1 to offset 0 in global_counter array
    cuda.atomic.add(global_counter, 0, 1)


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
def tickets(counter, out):
    # each thread's old value is a distinct ticket 0 .. n-1
    i = cuda.grid(1)
    out[i] = cuda.atomic.add(counter, 0, 1)


@cuda.jit
def add_sub_2d(a, b):
    # a tuple index into 2-d arrays; negative indices wrap
    x, y = cuda.grid(2)
    cuda.atomic.add(a, (x % a.shape[0], y % a.shape[1]), 1)
    cuda.atomic.sub(b, (-1 - x % b.shape[0], y % b.shape[1]), 1)


@cuda.jit
def shared_count(out_i, out_f):
    # per-block counters in shared memory, then one global add per block
    si = cuda.shared.array(1, int32)
    sf = cuda.shared.array(1, float64)
    if cuda.threadIdx.x == 0:
        si[0] = 0
        sf[0] = 0.0
    cuda.syncthreads()
    cuda.atomic.add(si, 0, 1)
    cuda.atomic.add(sf, 0, 0.5)
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        cuda.atomic.add(out_i, 0, si[0])
        cuda.atomic.add(out_f, 0, sf[0])


@cuda.jit
def bitwise(a):
    # a[0] starts all ones, a[1] and a[2] zero: 64 threads clear, set and
    # twice toggle bit (tid % 32)
    m = cuda.threadIdx.x % 32
    cuda.atomic.and_(a, 0, ~(1 << m))
    cuda.atomic.or_(a, 1, 1 << m)
    cuda.atomic.xor(a, 2, 1 << m)


@cuda.jit
def first_wins(flag, winner, exch, olds, swap, swap_olds):
    # flag[0] starts at -1: the one thread whose CAS sees -1 wins; exch
    # hands its value on from thread to thread; swap[0] starts at 0 and
    # only the first compare_and_swap finds it so
    i = cuda.grid(1)
    if cuda.atomic.cas(flag, 0, -1, i) == -1:
        winner[0] = i
    olds[i] = cuda.atomic.exch(exch, 0, i)
    swap_olds[i] = cuda.atomic.compare_and_swap(swap, 0, i + 1)


@cuda.jit
def inc_dec(a, limit, olds):
    # one thread per row of olds: inc a[0], dec a[1] with the same limit
    i = cuda.grid(1)
    olds[i, 0] = cuda.atomic.inc(a, 0, limit[0])
    olds[i, 1] = cuda.atomic.dec(a, 1, limit[0])


@cuda.jit
def minmax(a, v, olds):
    # a[0..4): max, min, nanmax, nanmin of v, each thread's old values
    i = cuda.grid(1)
    if i < v.shape[0]:
        olds[i, 0] = cuda.atomic.max(a, 0, v[i])
        olds[i, 1] = cuda.atomic.min(a, 1, v[i])
        olds[i, 2] = cuda.atomic.nanmax(a, 2, v[i])
        olds[i, 3] = cuda.atomic.nanmin(a, 3, v[i])


@cuda.jit
def sync_votes(pred, out):
    # every thread of the block reports the three votes on pred
    i = cuda.grid(1)
    p = pred[i]
    out[i, 0] = cuda.syncthreads_count(p)
    out[i, 1] = cuda.syncthreads_and(p)
    out[i, 2] = cuda.syncthreads_or(p)


@cuda.jit
def fenced(a, flag):
    # write, fence, then count the writers
    i = cuda.grid(1)
    a[i] = i
    cuda.threadfence_block()
    cuda.threadfence()
    cuda.threadfence_system()
    cuda.atomic.add(flag, 0, 1)
