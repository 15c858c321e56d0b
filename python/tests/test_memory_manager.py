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
