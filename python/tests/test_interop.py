"""__cuda_array_interface__ and DLPack through the package, on cudasim:
ufjit's device arrays produce both and consume any object offering them."""
import gc
import os
import weakref

os.environ.setdefault("UFJIT_ENABLE_CUDASIM", "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import ufjit  # noqa: E402
from ufjit import cuda, errors  # noqa: E402


class Foreign:
    """Another library's array: only the interface, and the owner."""

    def __init__(self, desc, owner):
        self.__cuda_array_interface__ = desc
        self.owner = owner


def test_cai_export_matches_the_layout():
    x = np.arange(12.0).reshape(3, 4)
    d = cuda.to_device(x)
    c = d.__cuda_array_interface__
    assert c["shape"] == (3, 4) and c["typestr"] == "<f8"
    assert c["strides"] is None and c["version"] == 3
    assert c["data"][1] is False and c["stream"] is None
    v = d[::-1, 1::2].__cuda_array_interface__
    assert v["strides"] == (-32, 16)
    assert v["data"][0] == c["data"][0] + 2 * 32 + 8


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32",
                                   "int64", "float32", "float64",
                                   "complex64", "complex128"])
def test_cai_round_trip_every_dtype(dtype):
    x = (np.arange(24) % 5).astype(dtype).reshape(4, 6)
    d = cuda.to_device(x)
    for view, ref in ((d, x), (d[::-2, 1:], x[::-2, 1:]), (d[3], x[3])):
        back = cuda.as_cuda_array(Foreign(view.__cuda_array_interface__,
                                          view))
        np.testing.assert_array_equal(back.copy_to_host(), ref)


def test_cai_import_keeps_the_owner_alive_and_no_longer():
    d = cuda.to_device(np.arange(8.0))
    f = Foreign(d.__cuda_array_interface__, d)
    ref = weakref.ref(f)
    a = cuda.as_cuda_array(f)
    del f
    gc.collect()
    assert ref() is not None  # held by the import
    np.testing.assert_array_equal(a.copy_to_host(), np.arange(8.0))
    del a
    gc.collect()
    assert ref() is None


def test_cai_readonly_and_bad_descriptions():
    d = cuda.to_device(np.arange(4.0))
    desc = dict(d.__cuda_array_interface__)
    desc["data"] = (desc["data"][0], True)
    ro = cuda.from_cuda_array_interface(desc, owner=d)
    with pytest.raises(ValueError):
        ro.copy_to_device(np.zeros(4))
    for bad, what in ((dict(desc, mask=object()), "mask"),
                      (dict(desc, typestr=">f8"), "typestr"),
                      (dict(desc, stream=0), "stream"),
                      (dict(desc, shape=(-1,)), "shape")):
        with pytest.raises(errors.UfjitError) as e:
            cuda.from_cuda_array_interface(bad, owner=d)
        assert what in str(e.value).lower() or "byte order" in str(e.value)


def test_cai_import_waits_on_the_producers_stream():
    s = cuda.stream()
    x = np.arange(1000.0)
    d = cuda.to_device(x, stream=s)  # queued on s, not waited for
    d.stream = s
    desc = dict(d.__cuda_array_interface__, stream=s.handle)
    other = cuda.stream()
    a = cuda.from_cuda_array_interface(desc, owner=d, stream=other)
    host = a.copy_to_host(stream=other)  # ordered after the wait
    other.synchronize()
    np.testing.assert_array_equal(host, x)


def test_kernels_take_foreign_arrays():
    @ufjit.vectorize(["float64(float64)"], target="cuda")
    def twice(v):
        return 2 * v

    d = cuda.to_device(np.arange(5.0))
    r = twice(Foreign(d.__cuda_array_interface__, d))
    assert isinstance(r, cuda.DeviceNDArray)
    np.testing.assert_array_equal(r.copy_to_host(), 2 * np.arange(5.0))


def test_dlpack_device_round_trip_and_numpy():
    x = np.arange(6.0).reshape(2, 3)
    d = cuda.to_device(x)
    x0 = x.copy()
    assert d.__dlpack_device__() == (2, 0)  # kDLCUDA, device 0
    back = ufjit.from_dlpack(d[:, ::2])
    assert isinstance(back, cuda.DeviceNDArray)
    np.testing.assert_array_equal(back.copy_to_host(), x[:, ::2])
    h = ufjit.from_dlpack(x[::-1])  # NumPy's producer, no copy
    assert isinstance(h, np.ndarray)
    np.testing.assert_array_equal(h, x[::-1])
    h[0, 0] = 42.0
    assert x[1, 0] == 42.0
    # a copy to the host on request
    c = np.from_dlpack(d, device="cpu") if _numpy_takes_device() else None
    if c is not None:
        np.testing.assert_array_equal(c, x0)


def _numpy_takes_device():
    try:
        np.from_dlpack(np.zeros(1), device="cpu")
        return True
    except TypeError:
        return False


def test_dlpack_unconsumed_capsule_and_bad_input():
    d = cuda.to_device(np.arange(3.0))
    cap = d.__dlpack__(max_version=(1, 1))
    del cap  # its destructor deletes the tensor: no leak, no crash
    with pytest.raises(ValueError):
        ufjit._core.dlpack_import(object())
    with pytest.raises(errors.UfjitError):
        d.__dlpack__(stream=0)
