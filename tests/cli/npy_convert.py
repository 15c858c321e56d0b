#!/usr/bin/env python3
"""`ufjit npy convert` against live NumPy: for many sources and combinations
of --slice, --transpose, --dtype and --order, the file ufjit writes must be
byte for byte the file np.save writes for

    r = np.load(IN)[EXPR].transpose(AXES)
    r = r.astype(T, order=O or 'K')    (--dtype)
    r = np.array(r, order=O)           (--order alone)

(loaded data in native byte order, as ufjit keeps it). Where NumPy refuses
the slice or the axes, ufjit must fail with one 'ufjit:' line and write
nothing.

    npy_convert.py UFJIT
"""
import io
import itertools
import os
import subprocess
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_data  # exits 77 when numpy is missing
from gen_data import np

rng = np.random.default_rng(77)

ALL_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
              "int64", "uint64", "float32", "float64", "complex64",
              "complex128", "f4", "<i8", "c16", "?"]
# Casts of NaN, inf and negative floats to integers are undefined in C
# and platform-specific in NumPy: those sources only go to these.
FLOAT_DTYPES = ["float32", "float64", "complex64", "complex128", "bool"]


def sources():
    """(name, array, dtypes allowed for --dtype)."""
    pos = rng.uniform(0, 100, (3, 4, 5))
    special = rng.standard_normal((4, 6)) * 1e3
    special.flat[:5] = [np.nan, np.inf, -np.inf, -0.0, 1e-310]
    return [
        ("f8_c", pos, ALL_DTYPES),
        ("f8_f", np.asfortranarray(pos), ALL_DTYPES),
        ("i4_c", (pos * 1e6).astype(np.int32), ALL_DTYPES),
        ("c16_f", np.asfortranarray(pos[0] + 1j * pos[1]), ALL_DTYPES),
        ("u1", (pos[..., 0] * 2.5).astype(np.uint8), ALL_DTYPES),
        ("b1", pos[0] > 50, ALL_DTYPES),
        ("i8_wrap", rng.integers(-2**62, 2**62, (5, 3)), ALL_DTYPES),
        ("f8_special", special, FLOAT_DTYPES),
        ("f4_special_f", np.asfortranarray(special.astype(np.float32)),
         FLOAT_DTYPES),
        ("i4_be", (pos[1] * 7).astype(">i4"), ALL_DTYPES),
        ("f8_be_f", np.asfortranarray(pos[2].astype(">f8")), ALL_DTYPES),
        ("zero_d", np.array(42.5), ALL_DTYPES),
        ("empty", np.zeros((0, 3), np.int16), ALL_DTYPES),
        ("one", np.ones((1, 4, 1)), ALL_DTYPES),
    ]


def slices_for(ndim):
    if ndim == 0:
        return [None, "...", "None"]
    s = [None, "::-1", "1:", "-1", "None, ...", "..., ::2", "::-2"]
    if ndim >= 2:
        s += ["1:, ::-2", "::2, -1", ":, None, ::-1", "-1, 1:3", "::3, 1",
              "5", "0, 0, 0, 0"]  # the last two are out of range for some
    if ndim >= 3:
        s += ["1, ..., ::-2", "::-1, 1, None, :"]
    return s


def numpy_index(a, sl):
    r = eval(f"a[{sl}]", {"a": a})
    if not isinstance(r, np.ndarray):  # all integers: ufjit gives 0-d
        r = eval(f"a[{sl}, ...]", {"a": a})
    return r


def transposes_for(ndim):
    t = [None, ""]
    if ndim >= 2:
        perm = list(rng.permutation(ndim))
        t.append(",".join(str(x) for x in perm))
        t.append(",".join(str(x - ndim) for x in perm))  # negative axes
    return t


def expected(a, sl, tr, dt, order):
    """The np.save bytes for the conversion; raises what NumPy raises."""
    r = gen_data.native(a)
    if sl is not None:
        r = numpy_index(r, sl)
    if tr is not None:
        r = r.transpose(*[int(x) for x in tr.split(",")]) if tr else r.T
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # complex to real
        if dt is not None:
            r = r.astype(dt, order=order or "K")
        elif order is not None:
            r = np.array(r, order=order)
    buf = io.BytesIO()
    np.save(buf, r)
    return buf.getvalue()


def pick(seq, n):
    return [seq[k] for k in rng.choice(len(seq), size=min(n, len(seq)),
                                       replace=False)]


def combos(j, a, dtypes):
    """A sample of each option alone, then of combinations of all four (a
    process per run is slow under the sanitizers: sampled, not walked).
    Source j takes two --dtype values in turn, so all are covered."""
    sls = slices_for(a.ndim)
    trs = transposes_for(a.ndim)
    dts = [None] + dtypes
    orders = [None, "C", "F"]
    out = [(s, None, None, None) for s in pick(sls[1:], 1)]
    out += [(None, t, None, None) for t in pick(trs[1:], 1)]
    out += [(None, None, dtypes[(2 * j + k) % len(dtypes)], None)
            for k in range(2)]
    out += [(None, None, None, o) for o in pick(orders[1:], 1)]
    out += pick(list(itertools.product(sls, trs, dts, orders)), 3)
    return out


def describe(raw):
    try:
        a = np.load(io.BytesIO(raw))
        return f"{a.dtype.str} {a.shape} fortran={np.isfortran(a)}\n" \
               f"{a!r}"
    except Exception as e:  # a broken file is worth reporting as such
        return f"unreadable: {e}"


def main():
    ufjit = sys.argv[1]
    failures = runs = refused = 0
    with tempfile.TemporaryDirectory(prefix="ufjit-npy-convert-") as d:
        src = os.path.join(d, "in.npy")
        out = os.path.join(d, "out.npy")
        for j, (name, a, dtypes) in enumerate(sources()):
            with open(src, "wb") as f:
                np.save(f, a)
            for sl, tr, dt, order in combos(j, a, dtypes):
                runs += 1
                args = [ufjit, "npy", "convert", src, out]
                if sl is not None:
                    args.append(f"--slice={sl}")
                if tr is not None:
                    args.append(f"--transpose={tr}")
                if dt is not None:
                    args += ["--dtype", dt]
                if order is not None:
                    args += ["--order", order]
                where = f"{name}: " + " ".join(args[5:])
                try:
                    want = expected(a, sl, tr, dt, order)
                except (IndexError, ValueError) as e:
                    # a bad index, or axes that no longer match the sliced
                    # array: ufjit must refuse too
                    want, why = None, str(e)
                if os.path.exists(out):
                    os.remove(out)
                p = subprocess.run(args, capture_output=True, text=True)
                left = sorted(set(os.listdir(d)) - {"in.npy", "out.npy"})
                if left:
                    failures += 1
                    print(f"{where}: left files behind: {left}")
                    for x in left:
                        os.remove(os.path.join(d, x))
                if want is None:
                    refused += 1
                    if p.returncode not in (1, 2) or os.path.exists(out) \
                            or not p.stderr.startswith("ufjit: ") \
                            or p.stderr.count("\n") != 1:
                        failures += 1
                        print(f"{where}: NumPy refuses ({why}); ufjit exit "
                              f"{p.returncode}, stderr {p.stderr!r}, "
                              f"output written: {os.path.exists(out)}")
                    continue
                if p.returncode != 0 or p.stdout or p.stderr:
                    failures += 1
                    print(f"{where}: exit {p.returncode}: {p.stderr}")
                    continue
                with open(out, "rb") as f:
                    got = f.read()
                if got != want:
                    failures += 1
                    print(f"{where}: file differs from np.save's\n"
                          f"--- NumPy\n{describe(want)}\n"
                          f"--- ufjit\n{describe(got)}")
    print(f"npy_convert: {runs} runs ({refused} refused by NumPy), "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
