# guvectorize kernels beyond Numba (it refuses fixed sizes and '?'
# dimensions at decoration, and cannot infer output dtypes): checked
# against NumPy by tests/gen/guvectorize_cases.py and test_guvectorize.
from numba import float64, guvectorize


# a fixed size: the kernel's loops over it are unrolled
@guvectorize(['void(float64[:], float64[:], float64[:])'], '(3),(3)->(3)')
def cross(a, b, c):
    c[0] = a[1] * b[2] - a[2] * b[1]
    c[1] = a[2] * b[0] - a[0] * b[2]
    c[2] = a[0] * b[1] - a[1] * b[0]


# np.matmul's layout: a 1-d operand loses its flexible dimension
@guvectorize(['void(float64[:,:], float64[:,:], float64[:,:])'],
             '(m?,n),(n,p?)->(m?,p?)')
def matmul_flex(A, B, C):
    for i in range(A.shape[0]):
        for j in range(B.shape[1]):
            acc = 0.0
            for k in range(A.shape[1]):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


# no signatures: the output dtype is what the kernel stores (float64 for
# integer inputs)
@guvectorize('(n)->()')
def lazy_mean(x, out):
    acc = 0
    for i in range(x.shape[0]):
        acc += x[i]
    out[0] = acc / x.shape[0]


# no signatures, an accumulating output: its dtype follows the inputs
@guvectorize('(n),(n)->()')
def lazy_dot(x, y, out):
    out[0] = 0
    for i in range(x.shape[0]):
        out[0] += x[i] * y[i]
