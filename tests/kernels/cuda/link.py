# Foreign device functions (cuda.declare_device) linked into kernels with
# link=, as numba-cuda's "Calling foreign functions from Python kernels".
# Link paths are relative to this file. Runs unchanged under numba-cuda
# from this folder.
from numba import cuda

# link_functions.cu, numba's ABI: int mul(float *ret, float x, float y)
mul = cuda.declare_device('mul', 'float32(float32, float32)')
# link_functions.cu, the C ABI: double fma3(double, double, double)
fma3 = cuda.declare_device('fma3', 'float64(float64, float64, float64)',
                           abi='c')
# link_addi.ptx, numba's ABI, named by the declaration's own link=
addi = cuda.declare_device('addi', 'int32(int32, int32)',
                           link=['link_addi.ptx'])


@cuda.jit('void(float32[:], float32[:], float32[:])',
          link=['link_functions.cu'])
def mul_kernel(r, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = mul(x[i], y[i])


@cuda.jit(device=True)
def mul_plus_one(a, b):
    return mul(a, b) + 1


@cuda.jit('void(float32[:], float32[:], float32[:])',
          link=['link_functions.cu'])
def device_kernel(r, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = mul_plus_one(x[i], y[i])


@cuda.jit('void(float64[:], float64[:], float64[:], float64[:])',
          link=['link_functions.cu'])
def fma_kernel(r, x, y, z):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = fma3(x[i], y[i], z[i])


@cuda.jit('void(int32[:], int32[:], int32[:])')
def addi_kernel(r, a, b):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = addi(a[i], b[i])
