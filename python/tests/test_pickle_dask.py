"""ufjit's kernels pickle as their kernel text and rebuild where their
module cannot be imported, so they run on Dask's worker processes."""
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

from ufjit import float64, guvectorize, njit, reduce, vectorize, void

K = 3.0


@njit
def helper(x):
    return x * K


@vectorize([float64(float64, float64)])
def scaled_add(x, y):
    return helper(x) + y


@guvectorize([void(float64[:], float64, float64[:])], '(n),()->(n)')
def shift(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] + b


@reduce
def plus(a, b):
    return a + b


def test_round_trip_here():
    for obj in (scaled_add, shift, helper, plus):
        back = pickle.loads(pickle.dumps(obj))
        assert type(back) is type(obj) and back.__name__ == obj.__name__
    a = np.arange(5.0)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(scaled_add))(a, a),
                                  3 * a + a)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(shift))(a, 1.0),
                                  a + 1)
    assert pickle.loads(pickle.dumps(plus))(a) == 10.0


def test_rebuilt_where_the_module_is_unknown(tmp_path):
    """A fresh interpreter that cannot import this test module."""
    blob = tmp_path / "k.pickle"
    blob.write_bytes(pickle.dumps((scaled_add, shift)))
    code = ("import pickle, sys, numpy as np; "
            f"f, g = pickle.loads(open({str(blob)!r}, 'rb').read()); "
            "a = np.arange(4.0); print(f(a, a).tolist(), g(a, 2.0).tolist())")
    env = dict(os.environ)
    env.pop("PYTEST_CURRENT_TEST", None)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True,
                       text=True, env=env, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ("[0.0, 4.0, 8.0, 12.0] "
                                "[2.0, 3.0, 4.0, 5.0]")


def test_dask_distributed_processes():
    distributed = pytest.importorskip("distributed",
                                      reason="dask.distributed is missing")
    da = pytest.importorskip("dask.array", reason="dask is missing")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                  processes=True, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        x = np.arange(4000.0).reshape(40, 100)
        d = da.from_array(x, chunks=(10, 100))
        r = scaled_add(d, 1.0).compute()
        np.testing.assert_array_equal(r, 3 * x + 1)
        g = da.apply_gufunc(shift, "(n),()->(n)", d, 2.0).compute()
        np.testing.assert_array_equal(g, x + 2)
        s = client.submit(plus, x.ravel()).result()
        assert s == x.sum()

        # a reduce kernel as da.reduction's chunk and aggregate steps
        def chunk(b, axis, keepdims):
            r = np.asarray(plus(b.ravel()))
            return r.reshape((1,) * b.ndim) if keepdims else r
        t = da.reduction(d, chunk, chunk, dtype=np.float64).compute()
        assert t == x.sum()

        def row_sums(b, axis, keepdims):  # axis == (1,) here
            r = np.asarray([plus(row) for row in b])
            return r[:, None] if keepdims else r
        rows = da.reduction(d, row_sums, row_sums, axis=1,
                            dtype=np.float64).compute()
        np.testing.assert_array_equal(rows, x.sum(axis=1))
        # the workers ran it: their processes are not this one
        pids = client.run(os.getpid)
        assert os.getpid() not in pids.values()
