"""ufjit.cuda on cudasim (UFJIT_ENABLE_CUDASIM=1, set before the first
CUDA call of this process): device arrays, launches, streams, device
ufuncs, cuda.reduce."""
import os

os.environ.setdefault("UFJIT_ENABLE_CUDASIM", "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from ufjit import cuda  # noqa: E402

import kernels_cuda as k  # noqa: E402


def test_available():
    assert cuda.is_available()


def test_device_arrays_and_views():
    x = np.arange(24.0).reshape(4, 6)
    d = cuda.to_device(x)
    assert d.shape == (4, 6) and d.dtype == np.float64 and d.size == 24
    assert d.is_c_contiguous() and len(d) == 4
    np.testing.assert_array_equal(d.copy_to_host(), x)
    np.testing.assert_array_equal(d[::-1, 1::2].copy_to_host(), x[::-1, 1::2])
    np.testing.assert_array_equal(d[2].copy_to_host(), x[2])
    np.testing.assert_array_equal(d[:, None, 3].copy_to_host(), x[:, None, 3])
    out = np.empty((4, 6))
    assert d.copy_to_host(out) is out
    np.testing.assert_array_equal(out, x)
    e = cuda.device_array((4, 6))
    e.copy_to_device(x * 2)
    np.testing.assert_array_equal(e.copy_to_host(), x * 2)
    with pytest.raises(IndexError):
        d[np.array([0, 1])]
    with pytest.raises(BufferError):
        memoryview(d._ufjit_array)


def test_launch_with_device_function_and_host_arrays():
    x = np.arange(1000.0)
    y = np.ones(1000)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    dout = cuda.device_array_like(x)
    k.saxpy[8, 128](2.0, dx, dy, dout)
    np.testing.assert_array_equal(dout.copy_to_host(), 2 * x * x + 1)
    out = np.zeros(1000)  # host arrays are copied there and back
    k.saxpy[8, 128](1.0, x, y, out)
    np.testing.assert_array_equal(out, x * x + 1)
    k.saxpy.forall(1000)(3.0, dx, dy, dout)
    np.testing.assert_array_equal(dout.copy_to_host(), 3 * x * x + 1)
    with pytest.raises(ValueError):
        k.saxpy(1.0, dx, dy, dout)


def test_shared_memory_and_atomics():
    x = np.arange(1000.0)
    out = np.zeros(1)
    k.block_sum[8, 128](x, out)
    assert out[0] == x.sum()


def test_streams():
    x = np.arange(100.0)
    s = cuda.stream()
    dx = cuda.to_device(x, stream=s)
    dout = cuda.device_array_like(x)
    k.saxpy[1, 128, s](2.0, dx, dx, dout)
    host = dout.copy_to_host(stream=s)
    s.synchronize()
    np.testing.assert_array_equal(host, 2 * x * x + x)
    with s.auto_synchronize():
        k.saxpy[1, 128, s](1.0, dx, dx, dout)
    np.testing.assert_array_equal(dout.copy_to_host(), x * x + x)


def test_device_ufunc_keeps_device_results():
    a = np.arange(10, dtype=np.float32)
    r = k.vadd(a, a)
    assert isinstance(r, np.ndarray) and r.dtype == np.float32
    np.testing.assert_array_equal(r, 2 * a)
    da = cuda.to_device(a)
    rd = k.vadd(da, da)
    assert isinstance(rd, cuda.DeviceNDArray)
    np.testing.assert_array_equal(rd.copy_to_host(), 2 * a)
    out = cuda.device_array_like(a)
    k.vadd(da, da, out=out)
    np.testing.assert_array_equal(out.copy_to_host(), 2 * a)


def test_cuda_reduce():
    x = np.arange(1, 1001, dtype=np.float64)
    assert k.csum(x) == 500500.0
    assert k.csum(cuda.to_device(x)) == 500500.0
    assert k.csum(x, init=10) == 500510.0
    assert k.csum(x, size=10) == 55.0
    res = cuda.device_array(1)
    assert k.csum(cuda.to_device(x), res=res) is None
    assert res.copy_to_host()[0] == 500500.0


def test_events_order_streams_and_time_work():
    """cuda.event(): recorded on one stream, waited for by another on the
    device (cudasim's streams are worker threads: a missing wait shows as
    stale data), queried, synchronized and timed."""
    n = 1 << 20
    a, b = cuda.stream(), cuda.stream()
    start, done = cuda.event(), cuda.event(timing=False)
    assert start.query()  # never recorded: complete
    d = cuda.device_array(n)
    for k in range(3):
        h = cuda.pinned_array(n)
        h[:] = np.arange(n) + k
        start.record(a)
        d.copy_to_device(h, stream=a)
        done.record(a)
        done.wait(b)
        out = d.copy_to_host(stream=b)
        b.synchronize()
        np.testing.assert_array_equal(out, np.arange(n) + k)
    end = cuda.event()
    end.record(a)
    end.synchronize()
    assert end.query()
    ms = cuda.event_elapsed_time(start, end)
    assert 0 <= ms < 60000
    with pytest.raises(ValueError, match="without timing"):
        start.elapsed_time(done)
    assert cuda.DeviceArray is cuda.DeviceNDArray
