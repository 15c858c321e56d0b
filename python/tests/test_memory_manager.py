"""CUDA memory managers from Python, on cudasim: a manager written in
Python (allocating through the driver ufjit lends it), a C plug-in named
"path.so:factory", and the default manager's controls. Each case runs in
a fresh process: a manager is chosen before a target's first allocation."""
import os
import subprocess
import sys
import tempfile
import textwrap

import pytest


def run(code):
    """Runs `code` as a script of its own (kernels need a source file)."""
    env = dict(os.environ, UFJIT_ENABLE_CUDASIM="1")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "case.py")
        with open(path, "w") as f:
            f.write(textwrap.dedent(code))
        r = subprocess.run([sys.executable, path], capture_output=True,
                           text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_python_manager_serves_arrays_and_kernels():
    out = run("""
        import numpy as np
        from ufjit import cuda, vectorize

        class Counting(cuda.MemoryManager):
            def __init__(self):
                self.live = {}
                self.allocs = 0
            def memalloc(self, nbytes, stream):
                p = self.driver.mem_alloc(nbytes)
                self.live[p] = nbytes
                self.allocs += 1
                return p
            def memfree(self, address, nbytes, stream):
                assert self.live.pop(address) == nbytes
                self.driver.mem_free(address)
            def get_memory_info(self):
                return (123, 456)

        mm = Counting()
        cuda.set_memory_manager(mm)

        @vectorize(['float64(float64)'], target='cuda')
        def twice(x):
            return 2 * x

        d = cuda.to_device(np.arange(1000.0))
        r = twice(d)
        assert np.array_equal(r.copy_to_host(), 2 * np.arange(1000.0))
        assert mm.allocs >= 2 and len(mm.live) >= 2, (mm.allocs, mm.live)
        st = cuda.memory_stats()
        assert st["manager"] == "Counting", st
        assert st["live_allocations"] == len(mm.live), (st, mm.live)
        assert cuda.get_memory_info() == (123, 456)
        del d, r
        assert mm.live == {}, mm.live
        print("ok", mm.allocs)
    """)
    assert out.startswith("ok")


def test_python_manager_errors_reach_the_caller():
    out = run("""
        import numpy as np
        from ufjit import cuda, errors

        class Full(cuda.MemoryManager):
            def memalloc(self, nbytes, stream):
                raise MemoryError("pool exhausted")

        cuda.set_memory_manager(Full())
        try:
            cuda.device_array(10)
        except MemoryError as e:
            print("nomem", e)
        class NoMethods:
            pass
        try:
            cuda.set_memory_manager(NoMethods())
        except TypeError as e:
            print("type", e)
    """)
    assert "nomem" in out and "pool exhausted" in out and "type" in out


def test_c_plugin_by_path_and_defer_cleanup():
    try:
        from ufjit._build_paths import EMM_POOL
    except ImportError:
        pytest.skip("the example plug-ins are built with the tests only")
    out = run(f"""
        import numpy as np
        from ufjit import cuda
        cuda.set_memory_manager({EMM_POOL + ':uf_emm_pool_factory'!r})
        d = cuda.to_device(np.arange(10.0))
        assert cuda.memory_stats()["manager"] != "default"
        assert np.array_equal(d.copy_to_host(), np.arange(10.0))
        del d
        with cuda.defer_cleanup():
            e = cuda.device_array(100)
            assert cuda.memory_stats()["defer_depth"] == 1
        del e
        cuda.memory_reset()
        cuda.set_memory_manager(None)
        assert cuda.memory_stats()["manager"] == "default"
        try:
            cuda.set_memory_manager("/nonexistent.so:f")
        except OSError as err:
            print("oserror", err)
        print("ok")
    """)
    assert "ok" in out and "oserror" in out


def test_manager_chosen_too_late_is_refused():
    out = run("""
        import numpy as np
        from ufjit import cuda, errors
        keep = cuda.to_device(np.arange(3.0))
        try:
            cuda.set_memory_manager(cuda.MemoryManager())
        except errors.UfjitError as e:
            print("refused", e)
    """)
    assert "refused" in out and "first allocation" in out


def test_rmm_adapter_protocol_on_cudasim():
    """cuda.rmm_memory_manager() against a stand-in for the rmm package
    that records what RMM would be asked (buffers, sizes, streams as RMM's
    Stream receives them), its memory from cudasim's driver: every ufjit
    allocation is one DeviceBuffer on the stream it is used on, released
    when ufjit frees it."""
    out = run("""
        import types
        import numpy as np
        from ufjit import cuda, vectorize

        log = []

        class Stream:
            def __init__(self, obj):
                version, handle = obj.__cuda_stream__()
                assert version == 0
                self.handle = handle

        DEFAULT = Stream(types.SimpleNamespace(__cuda_stream__=lambda: (0, 0)))

        class DeviceBuffer:
            live = 0
            def __init__(self, size, stream):
                self.ptr = mm.driver.mem_alloc(size)
                self.size = size
                log.append(("alloc", size, stream.handle))
                DeviceBuffer.live += 1
            def __del__(self):
                mm.driver.mem_free(self.ptr)
                log.append(("free", self.size))
                DeviceBuffer.live -= 1

        fake = types.SimpleNamespace(
            DeviceBuffer=DeviceBuffer,
            pylibrmm=types.SimpleNamespace(stream=types.SimpleNamespace(
                Stream=Stream, DEFAULT_STREAM=DEFAULT)))
        mm = cuda.rmm_memory_manager(fake)
        cuda.set_memory_manager(mm)

        @vectorize(['float64(float64)'], target='cuda')
        def twice(x):
            return 2 * x

        s = cuda.stream()
        d = cuda.to_device(np.arange(1000.0), stream=s)
        r = twice(d, stream=s)
        h = r.copy_to_host(stream=s)  # asynchronous on s, as numba's
        s.synchronize()
        assert np.array_equal(h, 2 * np.arange(1000.0))
        assert DeviceBuffer.live >= 2, log
        assert ("alloc", 8000, s.handle) in log, (log, s.handle)
        assert cuda.memory_stats()["manager"] == "RMMMemoryManager"
        free, total = cuda.get_memory_info()
        assert 0 < free <= total
        del d, r
        assert DeviceBuffer.live == 0, log
        print("ok", len(log))
    """)
    assert out.startswith("ok")


def test_rmm_adapter_without_rmm():
    try:
        import rmm  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("rmm is installed: the ImportError path cannot be seen")
    from ufjit import cuda
    with pytest.raises(ImportError, match="needs the rmm package"):
        cuda.rmm_memory_manager()


def test_rmm_pool_serves_ufjit_on_a_gpu():
    """The real thing: RMM's pool serving ufjit's kernels (needs a GPU and
    the rmm package; scripts/gpu-check.sh runs it where there is one)."""
    try:
        import rmm  # noqa: F401
    except Exception as e:  # noqa: BLE001 (ImportError, or its libraries')
        pytest.skip(f"rmm does not import here: {e!r}")
    if os.environ.get("UFJIT_TEST_GPU") != "1":
        pytest.skip("needs a CUDA GPU (UFJIT_TEST_GPU=1 where one is)")
    env = dict(os.environ)
    env.pop("UFJIT_ENABLE_CUDASIM", None)
    code = textwrap.dedent("""
        import numpy as np
        import rmm
        from ufjit import cuda, vectorize
        rmm.reinitialize(pool_allocator=True, initial_pool_size=1 << 28)
        cuda.set_memory_manager(cuda.rmm_memory_manager())

        @vectorize(['float64(float64)'], target='cuda')
        def twice(x):
            return 2 * x

        before = rmm.mr.get_current_device_resource()
        d = cuda.to_device(np.arange(10**6, dtype=np.float64))
        r = twice(d)
        assert np.array_equal(r.copy_to_host(), 2 * np.arange(10**6.0))
        assert cuda.memory_stats()["live_allocations"] >= 2
        print("ok")
    """)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "case.py")
        with open(path, "w") as f:
            f.write(code)
        r = subprocess.run([sys.executable, path], capture_output=True,
                           text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("ok")
