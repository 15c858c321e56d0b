#!/usr/bin/env python3
"""The specialised (jammed, prefetched) matvec variant against Numba.

    run_gufunc_spec_oracle.py UFJIT [--kernels DIR] [-v]

matvec (m,n),(n)->(m) float64 of tests/kernels/gufuncs.py at sizes above
ufjit's specialisation threshold (2^22 kernel steps), so that `ufjit call`
runs the variant of compiler/host/jit_gufunc_spec.c: C-ordered, odd m and n,
F-ordered and strided matrices, a broadcast vector, random reals with NaN
and infinities mixed in. Each y[i] is a sum over j in order under Numba
and ufjit alike (no reassociation, no contraction), so the outputs must be
the same bit for bit (NaNs: both NaN, their sign and payload depend on the
order the compiler put an add's operands in). The assembly ufjit dumps must
show the variant's prefetches (else the case did not test it).
Exit status: 0 all agree, 1 a difference, 77 NumPy or Numba is missing.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import warnings
import oracle_util  # noqa: E402

sys.dont_write_bytecode = True

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)
try:
    import numba  # noqa: F401
except ImportError:
    print("SKIP: numba is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)

# (name, M's base shape, index applied to M (ufjit's syntax = NumPy's),
#  F-order, v's shape); every case >= 2^22 steps, core sizes <= 64
# (gufunc_specialise.h: larger ones run the generic loop)
CASES = [
    ("contig_64", (1100, 64, 64), None, False, (1100, 64)),
    ("odd_63x61", (1100, 63, 61), None, False, (1100, 61)),
    ("odd_5x61", (14000, 5, 61), None, False, (14000, 61)),
    ("odd_61x7", (9900, 61, 7), None, False, (9900, 7)),
    ("F_ordered", (1100, 64, 64), None, True, (1100, 64)),
    ("strided_cols", (1100, 64, 128), "...,::2", False, (1100, 64)),
    ("reversed", (1100, 63, 61), "::-1,::-1,::-1", False, (1100, 61)),
    ("bcast_v", (1100, 64, 64), None, False, (64,)),
]


def data(shape, seed):
    r = np.random.default_rng(seed)
    a = r.uniform(-10, 10, shape)
    flat = a.reshape(-1)
    k = r.choice(flat.size, flat.size // 5000, replace=False)
    flat[k] = r.choice([np.nan, np.inf, -np.inf, 0.0, -0.0], k.size)
    return a


def load(path):
    return oracle_util.load(path)


def same(want, got):
    if want.shape != got.shape or want.dtype != got.dtype:
        return f"shape/dtype {got.shape} {got.dtype}, Numba {want.shape} {want.dtype}"
    wn, gn = np.isnan(want), np.isnan(got)
    if not np.array_equal(wn, gn):
        return f"NaN at {np.argwhere(wn != gn)[0]}"
    w = want[~wn].view(np.uint64)
    g = got[~gn].view(np.uint64)
    if not np.array_equal(w, g):
        i = np.argwhere(w != g)[0][0]
        return (f"{(w != g).sum()} values differ, first "
                f"{want[~wn][i]!r} (Numba) {got[~gn][i]!r} (ufjit)")
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ufjit")
    ap.add_argument("--kernels", default=os.path.join(TESTS, "kernels"))
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    kernels = os.path.join(a.kernels, "gufuncs.py")
    matvec = load(kernels).matvec
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, mshape, index, forder, vshape in CASES:
            M = data(mshape, 1)
            if forder:
                M = np.asfortranarray(M)
            v = data(vshape, 2)
            mp, vp = os.path.join(tmp, "M.npy"), os.path.join(tmp, "v.npy")
            yp = os.path.join(tmp, "y.npy")
            np.save(mp, M)
            np.save(vp, v)
            Mv = eval(f"M[{index}]") if index else M
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # inf - inf
                want = matvec(Mv, v)
            arg = f"{mp}[{index}]" if index else mp
            # the assembly dump tells that the variant ran (its loop has
            # prefetches, the generic loop none)
            env = dict(os.environ, UFJIT_DUMP_ASSEMBLY="1")
            p = subprocess.run([a.ufjit, "call", kernels, "matvec", arg, vp,
                                "-o", yp], capture_output=True, text=True,
                               timeout=300, env=env)
            if p.returncode != 0:
                print(f"FAIL {name}: ufjit exit {p.returncode}: {p.stderr}")
                bad += 1
                continue
            why = same(want, np.load(yp))
            if not why and "prefetcht0" not in p.stderr:
                why = "no specialised variant ran (no prefetch in its code)"
            if why:
                print(f"FAIL {name}: {why}")
                bad += 1
            elif a.v:
                print(f"ok {name}: {want.shape}, "
                      f"{int(np.isnan(want).sum())} NaN")
    print(f"{len(CASES) - bad}/{len(CASES)} cases agree with Numba")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
