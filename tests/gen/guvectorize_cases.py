#!/usr/bin/env python3
"""Expected outputs of the guvectorize kernels of tests/kernels/gufuncs.py
and gufuncs_numpy.py, computed with NumPy (np.vectorize with the layout as
its signature, np.matmul, np.cross), for tests/test_guvectorize.c.

    guvectorize_cases.py OUT.txt [--run TEST_BINARY]   write (and run)
    guvectorize_cases.py --check COMMITTED.txt        regenerate, compare

Inputs are made from their spec alone, the same way in C: element i (flat,
C order) of a base array is (i*37 + seed*11) % 23 - 11, times 0.25 for
floats (exact in binary, and every product and sum of the cases stays
exact, so any summation order gives the same bits), then saved in F order
and/or viewed through a basic index when the spec says so. Exit 77 when
NumPy is missing.
"""
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)


def base(dtype, seed, shape, order="C", index=None):
    n = int(np.prod(shape)) if shape else 1
    v = (np.arange(n, dtype=np.int64) * 37 + seed * 11) % 23 - 11
    dt = np.dtype(dtype)
    a = (v * 0.25 if dt.kind == "f" else v).astype(dt).reshape(shape)
    if order == "F":
        a = np.asfortranarray(a)
    if index is not None:
        a = eval(f"a[{index}]")
    return a


class A:
    """An array input spec."""

    def __init__(self, dtype, shape, seed, order="C", index=None):
        self.dtype, self.shape, self.seed = dtype, tuple(shape), seed
        self.order, self.index = order, index

    def value(self):
        return base(self.dtype, self.seed, self.shape, self.order, self.index)

    def line(self):
        index = (self.index or '-').replace(' ', '')
        return (f"in {self.dtype} {self.order} {index} "
                f"{self.seed} {len(self.shape)} "
                + " ".join(str(s) for s in self.shape)).rstrip()


class S:
    """A scalar input (a 0-d array)."""

    def __init__(self, dtype, v):
        self.dtype, self.v = dtype, v

    def value(self):
        return np.array(self.v, dtype=self.dtype)

    def line(self):
        return f"scalar {self.dtype} {self.v!r}"


def vec(sig, fn, *otypes):
    """fn applied per core with NumPy's gufunc broadcasting."""
    f = np.vectorize(fn, signature=sig, otypes=list(otypes))
    return lambda *a: f(*a)


def cross(a, b):
    return np.cross(a, b)


MATVEC = vec("(m,n),(n)->(m)", lambda M, v: M @ v, "f8")
MATMUL = vec("(m,n),(n,p)->(m,p)", lambda a, b: a @ b, "f8")
# int64 inputs take the int64 loop listed second: an exact dtype match
# wins over the first loop they cast to safely, as in Numba
MATMUL_INT = vec("(m,n),(n,p)->(m,p)", lambda a, b: a @ b, "i8")
STREAM = {
    "stream_copy": vec("(n)->(n)", lambda x: x, "f8"),
    "stream_scale": vec("(n),()->(n)", lambda x, a: a * x, "f8"),
    "stream_add": vec("(n),(n)->(n)", lambda x, y: x + y, "f8"),
    "stream_triad": vec("(n),(n),()->(n)", lambda x, y, a: x + a * y, "f8"),
}

# (id, file, kernel, inputs, reference computing the outputs)
CASES = [
    ("g_basic", "gufuncs.py", "g", [A("int64", (4, 5), 1), A("int64", (4,), 2)],
     vec("(n),()->(n)", lambda x, y: x + y, "i8")),
    ("g_bcast", "gufuncs.py", "g",
     [A("int64", (2, 3, 5), 3), A("int64", (3,), 4)],
     vec("(n),()->(n)", lambda x, y: x + y, "i8")),
    ("g_scalar_F", "gufuncs.py", "g_scalar",
     [A("float64", (3, 7), 5, "F"), S("float64", 2.5)],
     vec("(n),()->(n)", lambda x, y: x + y, "f8")),
    ("g_scalar_f32", "gufuncs.py", "g_scalar",
     [A("float32", (6,), 6), S("float32", -1.25)],
     vec("(n),()->(n)", lambda x, y: x + y, "f4")),
    ("g_scalar_neg", "gufuncs.py", "g_scalar",
     [A("float64", (5, 8), 7, index="::-1, ::-2"), A("float64", (5,), 8)],
     vec("(n),()->(n)", lambda x, y: x + y, "f8")),
    ("matvec_bcast3", "gufuncs.py", "matvec",
     [A("float64", (2, 1, 3, 4, 5), 9), A("float64", (4, 1, 5), 10)], MATVEC),
    ("matvec_F", "gufuncs.py", "matvec",
     [A("float64", (6, 3, 4), 11, "F"), A("float64", (4,), 12)], MATVEC),
    ("matvec_f32", "gufuncs.py", "matvec",
     [A("float32", (5, 3, 3), 13), A("float32", (5, 3), 14)],
     vec("(m,n),(n)->(m)", lambda M, v: M @ v, "f4")),
    ("matvec_c_strided", "gufuncs.py", "matvec_c",
     [A("float64", (4, 6, 8), 15, index=":, ::2, 1::2"),
      A("float64", (8,), 16, index="::2")], MATVEC),
    ("matvec_c_contig", "gufuncs.py", "matvec_c",
     [A("float64", (3, 2, 4), 17), A("float64", (4,), 18)], MATVEC),
    ("matvec_c_F", "gufuncs.py", "matvec_c",
     [A("float64", (3, 5, 4), 19, "F"), A("float64", (3, 4), 20, "F")],
     MATVEC),
    ("matmul_F", "gufuncs.py", "matmul",
     [A("float64", (3, 4, 5), 21, "F"), A("float64", (5, 2), 22, "F")],
     MATMUL),
    ("matmul_strided", "gufuncs.py", "matmul",
     [A("float64", (4, 6, 10), 23, index=":, ::2, ::-2"),
      A("float64", (10, 3), 24, index="::2")], MATMUL),
    ("matmul_int", "gufuncs.py", "matmul",
     [A("int64", (2, 3), 25), A("int64", (3, 2), 26)], MATMUL_INT),
    ("matmul_empty_loop", "gufuncs.py", "matmul",
     [A("float64", (0, 2, 3), 27), A("float64", (3, 4), 28)], MATMUL),
    ("matmul_empty_core", "gufuncs.py", "matmul",
     [A("float64", (2, 3, 0), 29), A("float64", (0, 4), 30)], MATMUL),
    ("max_min", "gufuncs.py", "max_min", [A("float64", (6, 9), 31)],
     vec("(n)->(),()", lambda x: (x.max(), x.min()), "f8", "f8")),
    ("stream_copy", "gufuncs.py", "stream_copy", [A("float64", (1000,), 32)],
     STREAM["stream_copy"]),
    ("stream_scale", "gufuncs.py", "stream_scale",
     [A("float64", (1000,), 33), S("float64", 3.0)], STREAM["stream_scale"]),
    ("stream_add", "gufuncs.py", "stream_add",
     [A("float64", (1000,), 34), A("float64", (1000,), 35)],
     STREAM["stream_add"]),
    ("stream_triad", "gufuncs.py", "stream_triad",
     [A("float64", (3, 100), 36), A("float64", (100,), 37),
      A("float64", (3,), 38)], STREAM["stream_triad"]),
    ("norm", "gufuncs.py", "norm", [A("float64", (4, 3), 39)],
     vec("(n)->()", lambda x: np.sqrt((x * x).sum()), "f8")),
    ("lazy_shift", "gufuncs.py", "lazy_shift",
     [A("int64", (3, 4), 40), S("float64", 0.5)],
     vec("(n),()->(n)", lambda x, y: x + y, "f8")),
    ("cross", "gufuncs_numpy.py", "cross",
     [A("float64", (5, 3), 41), A("float64", (3,), 42)], cross),
    ("cross_bcast", "gufuncs_numpy.py", "cross",
     [A("float64", (2, 1, 3), 43), A("float64", (4, 3), 44)], cross),
    ("matmul_flex_vm", "gufuncs_numpy.py", "matmul_flex",
     [A("float64", (3,), 45), A("float64", (3, 4), 46)], np.matmul),
    ("matmul_flex_mv", "gufuncs_numpy.py", "matmul_flex",
     [A("float64", (2, 3), 47), A("float64", (3,), 48)], np.matmul),
    ("matmul_flex_vv", "gufuncs_numpy.py", "matmul_flex",
     [A("float64", (3,), 49), A("float64", (3,), 50)], np.matmul),
    ("matmul_flex_batch", "gufuncs_numpy.py", "matmul_flex",
     [A("float64", (5, 2, 3), 51), A("float64", (3, 4), 52)], np.matmul),
    ("lazy_mean", "gufuncs_numpy.py", "lazy_mean", [A("int64", (4, 6), 53)],
     vec("(n)->()", lambda x: x.sum() / x.shape[0], "f8")),
    ("lazy_dot_int", "gufuncs_numpy.py", "lazy_dot",
     [A("int64", (3, 5), 54), A("int64", (5,), 55)],
     vec("(n),(n)->()", lambda x, y: (x * y).sum(), "i8")),
    ("lazy_dot_f32", "gufuncs_numpy.py", "lazy_dot",
     [A("float32", (3, 5), 56), A("float32", (3, 5), 57)],
     vec("(n),(n)->()", lambda x, y: (x * y).sum(), "f4")),
]


def fmt(x):
    if x.dtype.kind == "f":
        return repr(float(x))
    return str(int(x))


def generate():
    lines = ["# generated by tests/gen/guvectorize_cases.py: do not edit",
             "# case ID FILE KERNEL / in DTYPE ORDER INDEX SEED NDIM SHAPE.. |"
             " scalar DTYPE VALUE / out DTYPE NDIM SHAPE.. : VALUES / end"]
    for cid, file, kernel, ins, ref in CASES:
        lines.append(f"case {cid} {file} {kernel}")
        lines += [i.line() for i in ins]
        outs = ref(*[i.value() for i in ins])
        if not isinstance(outs, tuple):
            outs = (outs,)
        for o in outs:
            o = np.asarray(o)
            head = f"out {o.dtype.name} {o.ndim} " + " ".join(
                str(s) for s in o.shape)
            lines.append(head.rstrip() + " : " +
                         " ".join(fmt(x) for x in o.ravel()))
        lines.append("end")
    return "\n".join(lines) + "\n"


def main(argv):
    text = generate()
    if len(argv) >= 2 and argv[0] == "--check":
        with open(argv[1]) as f:
            if f.read() != text:
                print(f"{argv[1]} differs from what NumPy "
                      f"{np.__version__} gives: regenerate it")
                return 1
        return 0
    if not argv:
        print(__doc__)
        return 2
    with open(argv[0], "w") as f:
        f.write(text)
    if len(argv) >= 3 and argv[1] == "--run":
        env = dict(os.environ, UF_GUVEC_CASES=argv[0])
        return subprocess.run([argv[2]], env=env).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
