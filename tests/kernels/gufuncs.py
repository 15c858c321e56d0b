# guvectorize kernels that Numba accepts: the seeds' gufuncs and our own,
# run by tests/test_guvectorize.c and compared with Numba's guvectorize by
# tests/e2e/run_gufunc_oracle.py.
import math

import numpy as np
from numba import float32, float64, guvectorize, int64


# seed 003 session 1, Example 3: the "()" operand is Numba's one-element
# 1-d array, read as y[0]; signatures written as tuples of types
@guvectorize([(int64[:], int64[:], int64[:])], '(n),()->(n)')
def g(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y[0]


# the same with a plain scalar type for the "()" input
@guvectorize(['void(float32[:], float32, float32[:])',
              'void(float64[:], float64, float64[:])'], '(n),()->(n)')
def g_scalar(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y


# seed 003's batch matrix-vector product (its second argument a vector);
# the narrowest loop first, as the seed advises, so float32 finds its own
@guvectorize(['void(float32[:,:], float32[:], float32[:])',
              'void(float64[:,:], float64[:], float64[:])'], '(m,n),(n)->(m)')
def matvec(M, v, y):
    for i in range(M.shape[0]):
        acc = 0.0
        for j in range(M.shape[1]):
            acc += M[i, j] * v[j]
        y[i] = acc


# declared C-contiguous: strided inputs must still give the right answer
@guvectorize(['void(float64[:, ::1], float64[::1], float64[::1])'],
             '(m,n),(n)->(m)')
def matvec_c(M, v, y):
    for i in range(M.shape[0]):
        acc = 0.0
        for j in range(M.shape[1]):
            acc += M[i, j] * v[j]
        y[i] = acc


@guvectorize(['void(float64[:,:], float64[:,:], float64[:,:])',
              'void(int64[:,:], int64[:,:], int64[:,:])'],
             '(m,n),(n,p)->(m,p)')
def matmul(A, B, C):
    for i in range(A.shape[0]):
        for j in range(B.shape[1]):
            acc = 0
            for k in range(A.shape[1]):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


# seed 003's max_min: two scalar outputs
@guvectorize([(float64[:], float64[:], float64[:])], '(n)->(),()')
def max_min(arr, largest, smallest):
    largest[0] = arr[0]
    smallest[0] = arr[0]
    for i in range(1, arr.shape[0]):
        if arr[i] > largest[0]:
            largest[0] = arr[i]
        if arr[i] < smallest[0]:
            smallest[0] = arr[i]


# seed 000's STREAM kernels, outputs first as in the seed, but written
# after '->' so that they are outputs
@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')
def stream_copy(rhs, lhs):
    for i in range(len(lhs)):
        lhs[i] = rhs[i]


@guvectorize(['void(float64[:], float64, float64[:])'], '(n),()->(n)')
def stream_scale(rhs, alpha, lhs):
    for i in range(len(lhs)):
        lhs[i] = alpha * rhs[i]


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->(n)')
def stream_add(rhs1, rhs2, lhs):
    for i in range(len(lhs)):
        lhs[i] = rhs1[i] + rhs2[i]


@guvectorize(['void(float64[:], float64[:], float64, float64[:])'],
             '(n),(n),()->(n)')
def stream_triad(rhs1, rhs2, alpha, lhs):
    for i in range(len(lhs)):
        lhs[i] = rhs1[i] + alpha * rhs2[i]


# seed 000 exactly: no outputs, the kernel writes its first input
@guvectorize('(float64[:], float64[:])', '(n),(n)')
def copy(lhs, rhs):
    for i in range(len(lhs)):
        lhs[i] = rhs[i]


@guvectorize('(float64[:], float64[:], float64)', '(n),(n),()')
def scale(lhs, rhs, alpha):
    for i in range(len(lhs)):
        lhs[i] = alpha * rhs[i]


# a return-typed signature without 'void'
@guvectorize(['(float64[:], float64[:])'], '(n)->()')
def norm(x, out):
    acc = 0.0
    for i in range(x.shape[0]):
        acc += x[i] * x[i]
    out[0] = math.sqrt(acc)


# no signatures: compiled for the first call's dtypes
@guvectorize('(n),()->(n)')
def lazy_shift(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y
