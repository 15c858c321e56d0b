"""Kernels called from several Python threads at once: the GIL is
released while a kernel runs, the first call's compilation is done once,
and every thread gets its own right answer."""
import threading

import numpy as np

from ufjit import float64, njit, vectorize


@vectorize([float64(float64, float64)])
def fused(x, y):
    return x * y + 1.0


@njit
def dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def test_concurrent_calls_and_first_compile():
    errors = []
    barrier = threading.Barrier(8)

    def work(k):
        try:
            barrier.wait()  # all threads race to the first (compiling) call
            a = np.arange(10000.0) + k
            for _ in range(20):
                r = fused(a, a)
                if not np.array_equal(r, a * a + 1.0):
                    errors.append(f"thread {k}: fused differs")
                    return
                if dot(a, a) != np.dot(a, a):
                    errors.append(f"thread {k}: dot differs")
                    return
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(f"thread {k}: {e!r}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
