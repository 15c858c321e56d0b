# Warp-level functions: a warp-shuffle sum (the last steps of a block
# reduction), every shuffle mode on int32/int64/float32/float64, votes,
# ballot, match, and lanes that exit before a collective. Each runs
# unchanged under numba-cuda.
from numba import cuda, float32, int32

FULL = 0xffffffff


@cuda.jit
def warp_sum(a, out):
    # a 32-lane tree with shfl_down_sync: lane 0 holds the warp's sum
    i = cuda.grid(1)
    v = a[i]
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(FULL, v, offset)
        offset //= 2
    if cuda.laneid == 0:
        out[i // 32] = v


@cuda.jit
def shuffles(ai, al, af, ad, out_i, out_l, out_f, out_d):
    # row 0: idx (lane 3), 1: up 2, 2: down 5, 3: xor 7
    i = cuda.grid(1)
    out_i[0, i] = cuda.shfl_sync(FULL, ai[i], 3)
    out_i[1, i] = cuda.shfl_up_sync(FULL, ai[i], 2)
    out_i[2, i] = cuda.shfl_down_sync(FULL, ai[i], 5)
    out_i[3, i] = cuda.shfl_xor_sync(FULL, ai[i], 7)
    out_l[0, i] = cuda.shfl_sync(FULL, al[i], 35)
    out_l[1, i] = cuda.shfl_up_sync(FULL, al[i], 1)
    out_l[2, i] = cuda.shfl_down_sync(FULL, al[i], 1)
    out_l[3, i] = cuda.shfl_xor_sync(FULL, al[i], 16)
    out_f[0, i] = cuda.shfl_sync(FULL, af[i], 0)
    out_f[1, i] = cuda.shfl_up_sync(FULL, af[i], 31)
    out_f[2, i] = cuda.shfl_down_sync(FULL, af[i], 31)
    out_f[3, i] = cuda.shfl_xor_sync(FULL, af[i], 1)
    out_d[0, i] = cuda.shfl_sync(FULL, ad[i], 31)
    out_d[1, i] = cuda.shfl_up_sync(FULL, ad[i], 4)
    out_d[2, i] = cuda.shfl_down_sync(FULL, ad[i], 4)
    out_d[3, i] = cuda.shfl_xor_sync(FULL, ad[i], 31)


@cuda.jit
def votes(pred, out):
    # per thread: all, any, eq, ballot, match_any of pred, match_all,
    # lanemask_lt, activemask
    i = cuda.grid(1)
    p = pred[i]
    out[0, i] = cuda.all_sync(FULL, p)
    out[1, i] = cuda.any_sync(FULL, p)
    out[2, i] = cuda.eq_sync(FULL, p)
    out[3, i] = cuda.ballot_sync(FULL, p)
    out[4, i] = cuda.match_any_sync(FULL, p)
    m, same = cuda.match_all_sync(FULL, p)
    out[5, i] = m + same * 1000000
    out[6, i] = cuda.lanemask_lt()
    out[7, i] = cuda.activemask()
    cuda.syncwarp()


@cuda.jit
def early_exit(out):
    # the odd lanes leave first: the even ones' collectives wait only for
    # lanes still running, and a shuffle from an exited lane gives the
    # caller's own value
    lane = cuda.laneid
    if lane % 2 == 1:
        return
    v = int32(lane * 10)
    out[0, lane] = cuda.shfl_down_sync(FULL, v, 2)
    out[1, lane] = cuda.shfl_down_sync(FULL, v, 1)
    out[2, lane] = cuda.ballot_sync(FULL, True)
    out[3, lane] = cuda.activemask()


@cuda.jit
def float_ballot(x, out):
    i = cuda.grid(1)
    out[i] = cuda.ballot_sync(FULL, x[i] > float32(0.5))
