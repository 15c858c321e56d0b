#!/usr/bin/env python3
"""`ufjit npy show` against live NumPy: for arrays of every dtype, layout,
byte order and format version, and for views of them, the whole output
must equal what gen_data.show_text derives from NumPy (header, dtype,
shape, strides, contiguity, flags, repr). A slice NumPy refuses must make
ufjit fail with one 'ufjit:' line and exit 1.

    npy_show.py UFJIT
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_data  # exits 77 when numpy is missing
from gen_data import np

rng = np.random.default_rng(20240601)

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f4", "f8",
          "c8", "c16"]
SHAPES = [(), (0,), (5,), (3, 4), (2, 3, 4), (1, 1, 1), (4, 0, 2)]


def values(dt, shape):
    """Random values that exercise the printer: extremes, signs, NaN."""
    dt = np.dtype(dt)
    n = int(np.prod(shape))
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, n, endpoint=True,
                         dtype=dt.newbyteorder("=")).astype(dt)
        if n >= 2:
            v[0], v[-1] = info.min, info.max
    else:
        real = rng.standard_normal(n) * 10.0 ** rng.integers(-5, 6, n)
        special = [np.nan, np.inf, -np.inf, -0.0, 1e-8, 123456789.0]
        real[: min(n, len(special))] = special[: min(n, len(special))]
        if dt.kind == "c":
            v = real + 1j * rng.standard_normal(n)
        else:
            v = real
        v = v.astype(dt)
    return v.reshape(shape)


def slices_for(ndim):
    if ndim == 0:
        return ["...", "None", "None, None"]
    s = ["::-1", "1:", "-1", "None, ...", "..., ::2", "2:1", "::-2, ..."]
    if ndim >= 2:
        s += ["1:, ::-2", "::2, -1", "0, 0", ":, None, ::-1", "-1, 1:3"]
    if ndim >= 3:
        s += ["1, ..., ::-2", "::-1, 1, None, :"]
    return s


def cases():
    # Every dtype in two shapes and every shape in several dtypes, each
    # shown whole and through one view: a process per run is slow under
    # the sanitizers, so the grid is sampled, not walked.
    for i, dt in enumerate(DTYPES):
        for shape in (SHAPES[i % len(SHAPES)], SHAPES[(i + 3) % len(SHAPES)]):
            a = values(dt, shape)
            sls = slices_for(a.ndim)
            yield f"{dt}{shape}", a, None, [None, sls[i % len(sls)]]
    # layouts, byte orders and versions
    base = values("f8", (3, 4))
    yield "fortran", np.asfortranarray(base), None, [None] + slices_for(2)[::2]
    yield "bigendian", base.astype(">f8"), None, [None, "::-1, 1"]
    yield "be_int_f", np.asfortranarray(values(">i4", (2, 3, 2))), None, \
        [None] + slices_for(3)[1::3]
    yield "v2", values("c8", (2, 2)), (2, 0), [None]
    yield "v3", values("u2", (4,)), (3, 0), [None, "::-1"]
    # summarised output
    yield "big1d", np.arange(1001, dtype=np.int16), None, [None, "::-1"]
    yield "big2d", values("f8", (3, 400)), None, [None, "::-1, 3:"]
    yield "big3d", values("i4", (10, 10, 11)), None, [None, "::2"]
    # indexes NumPy refuses: ufjit must fail the same way
    yield "errors", values("i8", (2, 3)), None, ["5", "0, 0, 0", "-3",
                                                 ":, 3", "..., ..."]


def main():
    ufjit = sys.argv[1]
    failures = runs = 0
    with tempfile.TemporaryDirectory(prefix="ufjit-npy-show-") as d:
        for name, a, version, slices in cases():
            raw = gen_data.npy_bytes(a, version)
            with open(os.path.join(d, "a.npy"), "wb") as f:
                f.write(raw)
            for sl in slices:
                runs += 1
                args = [ufjit, "npy", "show", "a.npy"]
                if sl is not None:
                    args += ["--slice", sl]
                p = subprocess.run(args, cwd=d, capture_output=True,
                                   text=True)
                try:
                    want = gen_data.show_text("a.npy", raw, sl)
                except IndexError as e:
                    want = None
                    why = str(e)
                where = f"case {name} dtype {a.dtype.str} shape " \
                        f"{a.shape} slice {sl!r}"
                if want is None:
                    # 1, or 2 when the parser already rejects the syntax
                    if p.returncode not in (1, 2) or p.stdout or \
                            not p.stderr.startswith("ufjit: ") or \
                            p.stderr.count("\n") != 1:
                        failures += 1
                        print(f"{where}: NumPy refuses ({why}); ufjit "
                              f"exit {p.returncode}, stderr {p.stderr!r}")
                    continue
                if p.returncode != 0 or p.stdout != want:
                    failures += 1
                    print(f"{where}: exit {p.returncode} {p.stderr}")
                    print("--- NumPy\n" + want + "--- ufjit\n" + p.stdout)
    print(f"npy_show: {runs} runs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
