# numba.cuda.random's xoroshiro128+ in kernels: the seed notebook's Monte
# Carlo pi (003), each thread's first draws of every kind, and the three
# ways of naming the module. The states are the (n, 2) uint64 array of
# uf_cuda_random_states (numba-cuda passes its 1-D record array; the
# kernels only index it through these functions, so they run unchanged
# under numba-cuda).
import numba.cuda.random
from numba import cuda
from numba.cuda import random as curandom
from numba.cuda.random import (init_xoroshiro128p_state, xoroshiro128p_jump,
                               xoroshiro128p_next,
                               xoroshiro128p_normal_float32,
                               xoroshiro128p_normal_float64,
                               xoroshiro128p_uniform_float32,
                               xoroshiro128p_uniform_float64)


@cuda.jit
def compute_pi(rng_states, iterations, out):
    # the fraction of random points of the unit square inside the circle
    tid = cuda.grid(1)
    inside = 0
    for i in range(iterations):
        x = xoroshiro128p_uniform_float32(rng_states, tid)
        y = xoroshiro128p_uniform_float32(rng_states, tid)
        if x**2 + y**2 <= 1.0:
            inside += 1
    out[tid] = 4.0 * inside / iterations


@cuda.jit
def draws(states, u32, u64, n32, n64):
    # thread i's first draws, interleaved: uniform32, uniform64, normal32,
    # normal64 per column
    i = cuda.grid(1)
    if i < states.shape[0]:
        for k in range(u32.shape[1]):
            u32[i, k] = xoroshiro128p_uniform_float32(states, i)
            u64[i, k] = xoroshiro128p_uniform_float64(states, i)
            n32[i, k] = xoroshiro128p_normal_float32(states, i)
            n64[i, k] = xoroshiro128p_normal_float64(states, i)


@cuda.jit
def raw_draws(states, out):
    # the uint64 draws themselves, through the module's other names; the
    # index negative (states[i - n] is states[i]) and unsigned
    i = cuda.grid(1)
    n = states.shape[0]
    if i < n:
        out[i, 0] = xoroshiro128p_next(states, i - n)
        out[i, 1] = curandom.xoroshiro128p_next(states, numba.uint32(i))
        out[i, 2] = numba.cuda.random.xoroshiro128p_next(states, i)


@cuda.jit
def seed_on_device(states, seed, subsequence_start):
    # create_xoroshiro128p_states' states, made by each thread for itself:
    # the seed's, then 2**64 draws ahead per subsequence and per thread
    i = cuda.grid(1)
    if i < states.shape[0]:
        init_xoroshiro128p_state(states, i, seed)
        for k in range(subsequence_start + i):
            xoroshiro128p_jump(states, i)
