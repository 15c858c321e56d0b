"""The package against CuPy on a real GPU: CuPy arrays into ufjit's
kernels through __cuda_array_interface__, results back to CuPy without a
copy, DLPack both ways, a CuPy stream driving ufjit's work. Runs where
scripts/gpu-interop-run.sh sets UFJIT_TEST_GPU=1 (and
UFJIT_ENABLE_CUDASIM=0); skipped everywhere else, with the reason."""
import os

import numpy as np
import pytest

if os.environ.get("UFJIT_TEST_GPU") != "1":
    pytest.skip("needs a CUDA GPU (UFJIT_TEST_GPU=1 where one is)",
                allow_module_level=True)
cp = pytest.importorskip("cupy", reason="CuPy is not installed")

import ufjit  # noqa: E402
from ufjit import cuda, guvectorize, vectorize  # noqa: E402


@vectorize(["float64(float64, float64)"], target="cuda")
def axpy(x, y):
    return 2.0 * x + y


@guvectorize(["void(float64[:], float64[:])"], "(n)->()", target="cuda")
def row_sum(a, out):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    out[0] = s


@cuda.jit
def scale(a, k):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] *= k


def test_cupy_arrays_in_and_out_without_copies():
    x = cp.arange(10**6, dtype=cp.float64)
    y = cp.ones_like(x)
    r = axpy(x, y)
    back = cp.asarray(r)  # ufjit's device array through the CAI
    assert back.data.ptr == r.__cuda_array_interface__["data"][0]
    cp.testing.assert_array_equal(back, 2 * x + 1)


def test_gufunc_on_a_cupy_view():
    m = cp.arange(40.0).reshape(4, 10)[:, ::2]  # non-contiguous rows
    r = row_sum(m)
    cp.testing.assert_array_equal(cp.asarray(r), m.sum(axis=1))


def test_kernel_writes_into_cupy_memory():
    a = cp.arange(1000.0)
    scale[4, 256](a, 3.0)
    cuda.default_stream().synchronize()
    cp.testing.assert_array_equal(a, 3 * cp.arange(1000.0))


def test_dlpack_both_ways():
    x = cp.arange(12.0).reshape(3, 4)
    d = ufjit.from_dlpack(x)
    assert d.__cuda_array_interface__["data"][0] == x.data.ptr
    np.testing.assert_array_equal(d.copy_to_host(), cp.asnumpy(x))
    back = cp.from_dlpack(d)
    assert back.data.ptr == x.data.ptr
    cp.testing.assert_array_equal(back, x)


def test_cupy_stream_orders_ufjit_work():
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        x = cp.arange(10**6, dtype=cp.float64)
        y = cp.zeros_like(x)
    us = cuda.external_stream(s.ptr)
    r = axpy(x, y, stream=us)
    h = r.copy_to_host(stream=us)
    us.synchronize()
    np.testing.assert_array_equal(h, 2 * np.arange(10**6, dtype=np.float64))
