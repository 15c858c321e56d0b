#!/usr/bin/env python3
"""Committed NumPy expectations for the ufjit command line.

Writes tests/cli/data/: small .npy files made by NumPy, cases.txt listing
`ufjit npy show` and `ufjit npy convert` runs, and expected/<case>.txt, the
exact output `ufjit npy show` must print for each (the file itself, a view
of it, or the file convert wrote). Every fact in them (header, dtype,
shape, strides, contiguity, repr) comes from NumPy. cli_basic.sh replays
the cases without NumPy.

    gen_data.py [DIR]          (re)write DIR (default: beside this script)
    gen_data.py --check DIR    exit 1 if DIR no longer matches NumPy

Layout of the `npy show` output mirrored here: "label   : value" lines for
the file, then "view a[EXPR]" with the view's facts indented by two spaces,
a blank line and repr(a). Arrays read from a file own their memory; views
do not (NumPy's OWNDATA for a fresh array and for a view).
"""
import ast
import io
import os
import sys
import warnings

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))


def files():
    """name -> (array, format version or None for np.save's choice)."""
    f8 = np.array([[1.5, -0.0, np.nan, 4.0],
                   [np.inf, -np.inf, 1e-300, 1.0 / 3.0],
                   [7.0, 8.0, 9.0, 1e20]])
    return {
        "i4_c.npy": (np.arange(6, dtype="<i4").reshape(2, 3), None),
        "f8_f.npy": (np.asfortranarray(f8), None),
        "i2_be.npy": (np.arange(-3, 3, dtype=">i2"), None),
        "c8_0d.npy": (np.array(1 - 2j, dtype=np.complex64), None),
        "b1.npy": (np.array([True, False, True]), None),
        "u1_empty.npy": (np.zeros((0, 3), dtype=np.uint8), None),
        "f4_v2.npy": (np.linspace(0, 1, 5, dtype=np.float32), (2, 0)),
        "c16_v3.npy": (np.array([[1 + 2j, -0.5j], [3, np.nan + 1j]]),
                       (3, 0)),
        "big.npy": (np.arange(1200, dtype=np.int64).reshape(30, 40), None),
        "i8_3d.npy": (np.arange(24, dtype=np.int64).reshape(2, 3, 4), None),
    }


# (case id, file, slice or None)
SHOW_CASES = [
    ("show_i4", "i4_c.npy", None),
    ("show_i4_slice", "i4_c.npy", "::-1, 1:"),
    ("show_f8_f", "f8_f.npy", None),
    ("show_f8_f_slice", "f8_f.npy", "1:, ::-2"),
    ("show_f8_f_0d", "f8_f.npy", "1, 2"),
    ("show_i2_be", "i2_be.npy", None),
    ("show_i2_be_newaxis", "i2_be.npy", "None, ::2"),
    ("show_c8_0d", "c8_0d.npy", None),
    ("show_b1_ellipsis", "b1.npy", "..., ::-1"),
    ("show_u1_empty", "u1_empty.npy", None),
    ("show_u1_empty_slice", "u1_empty.npy", ":, 1"),
    ("show_f4_v2", "f4_v2.npy", None),
    ("show_c16_v3", "c16_v3.npy", None),
    ("show_big", "big.npy", None),
    ("show_big_slice", "big.npy", "::3, 5"),
    ("show_i8_3d", "i8_3d.npy", None),
    ("show_i8_3d_slice", "i8_3d.npy", "1, ..., ::-2"),
]

# (case id, file, ufjit arguments, the same in NumPy)
CONVERT_CASES = [
    ("convert_transpose_rev", "i4_c.npy", ["--transpose="],
     lambda a: a.T),
    ("convert_transpose_axes", "i8_3d.npy", ["--transpose=1,-1,0"],
     lambda a: a.transpose(1, -1, 0)),
    ("convert_dtype_keeps_f", "f8_f.npy", ["--dtype=float32"],
     lambda a: a.astype(np.float32)),
    ("convert_order_c", "f8_f.npy", ["--order=C"],
     lambda a: np.ascontiguousarray(a)),
    ("convert_order_f", "i4_c.npy", ["--order=F"],
     lambda a: np.asfortranarray(a)),
    ("convert_all", "f8_f.npy",
     ["--order=C", "--dtype=complex64", "--transpose=1,0",
      "--slice=::-1, 1:"],
     lambda a: a[::-1, 1:].transpose(1, 0).astype(np.complex64, order="C")),
    ("convert_swap_bytes", "i2_be.npy", ["--dtype=<f8"],
     lambda a: a.astype("<f8")),
    ("convert_bool_i1", "b1.npy", ["--dtype=i1", "--slice=::2"],
     lambda a: a[::2].astype(np.int8)),
    ("convert_truncate", "c16_v3.npy", ["--dtype=int16", "--slice=0"],
     lambda a: a[0].astype(np.int16)),
    ("convert_strided_slice", "big.npy", ["--slice=::7, ::-9"],
     lambda a: a[::7, ::-9]),
]


def typestr(dt):
    return np.dtype(dt).newbyteorder("=").str


def order_name(a):
    c, f = a.flags.c_contiguous, a.flags.f_contiguous
    if c and f:
        return "C and F (contiguous either way)"
    return "C" if c else "F" if f else "neither (strided)"


def tup(t):
    return repr(tuple(int(x) for x in t))


def facts(a, indent, owndata):
    flags = [name for name, on in (
        ("C_CONTIGUOUS", a.flags.c_contiguous),
        ("F_CONTIGUOUS", a.flags.f_contiguous),
        ("OWNDATA", owndata),
        ("WRITEABLE", a.flags.writeable),
        ("ALIGNED", a.flags.aligned)) if on]
    rows = [("dtype", f"{a.dtype.name} ({typestr(a.dtype)})"),
            ("shape", tup(a.shape)),
            ("strides", tup(a.strides)),
            ("order", order_name(a)),
            ("size", f"{a.size} elements, {a.nbytes} bytes"),
            ("flags", " ".join(flags) if flags else "none")]
    return [f"{indent}{k:<8}: {v}" for k, v in rows]


def preamble(raw):
    """(major, minor, data offset, header text) of .npy bytes."""
    major, minor = raw[6], raw[7]
    n = 2 if major == 1 else 4
    hlen = int.from_bytes(raw[8:8 + n], "little")
    text = raw[8 + n:8 + n + hlen].decode("latin1").rstrip(" \n")
    return major, minor, 8 + n + hlen, text


def native(a):
    """The array as ufjit loads it: native byte order, same layout."""
    return a.astype(a.dtype.newbyteorder("="), order="K")


def contiguous_strides(shape, itemsize, fortran):
    """NumPy's strides for a fresh array, by the rule NumPy 1.x uses and
    ufjit keeps: a zero-length axis counts as length 1. (NumPy 2 gives
    every axis of an empty array stride 0, np.load sometimes not: for an
    empty array the strides are a convention, this one is ufjit's.)"""
    strides, s = [0] * len(shape), itemsize
    for i in (range(len(shape)) if fortran else reversed(range(len(shape)))):
        strides[i] = s
        s *= max(shape[i], 1)
    return tuple(strides)


def loaded(raw):
    """The array as ufjit loads a file: fresh, native byte order, in the
    file's memory order."""
    header = ast.literal_eval(preamble(raw)[3])
    shape, fortran = header["shape"], header["fortran_order"]
    a = np.load(io.BytesIO(raw))
    dtype = a.dtype.newbyteorder("=")
    if a.size == 0:
        return np.ndarray(shape, dtype, buffer=bytearray(),
                          strides=contiguous_strides(shape, dtype.itemsize,
                                                     fortran))
    return np.array(a, dtype=dtype, order="F" if fortran else "C")


def show_text(name, raw, sl=None):
    """Exact `ufjit npy show NAME [--slice SL]` output for file bytes."""
    a = loaded(raw)
    major, minor, offset, header = preamble(raw)
    out = [f"{'file':<8}: {name}",
           f"{'format':<8}: .npy version {major}.{minor}, data at byte "
           f"{offset}",
           f"{'header':<8}: {header}"]
    out += facts(a, "", True)
    shown = a
    if sl is not None:
        shown = eval(f"a[{sl}]", {"a": a})
        if not isinstance(shown, np.ndarray):  # all integers: a 0-d view
            shown = eval(f"a[{sl}, ...]", {"a": a})
        out += ["", f"view a[{sl}]"] + facts(shown, "  ", False)
    out += ["", repr(shown)]
    return "\n".join(out) + "\n"


def npy_bytes(a, version):
    buf = io.BytesIO()
    if version is None:
        np.save(buf, a)
    else:
        np.lib.format.write_array(buf, a, version=version)
    return buf.getvalue()


def expected_texts(raw_files):
    """case id -> expected output, and the cases.txt text."""
    texts, lines = {}, []
    for cid, fname, sl in SHOW_CASES:
        texts[cid] = show_text(fname, raw_files[fname], sl)
        lines.append("\t".join(["show", cid, fname, sl if sl else "-"]))
    for cid, fname, args, fn in CONVERT_CASES:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # complex -> int drops imag
            r = fn(np.load(io.BytesIO(raw_files[fname])))
        texts[cid] = show_text("out.npy", npy_bytes(r, None))
        lines.append("\t".join(["convert", cid, fname] + args))
    return texts, "\n".join(lines) + "\n"


def same_array(x, y):
    if x.dtype != y.dtype or x.shape != y.shape:
        return False
    if x.flags.f_contiguous != y.flags.f_contiguous:
        return False
    if x.dtype.kind in "fc":
        return bool(np.array_equal(x, y, equal_nan=True))
    return bool(np.array_equal(x, y))


def write(d):
    os.makedirs(os.path.join(d, "expected"), exist_ok=True)
    raw = {}
    for name, (a, version) in files().items():
        raw[name] = npy_bytes(a, version)
        with open(os.path.join(d, name), "wb") as f:
            f.write(raw[name])
    texts, cases = expected_texts(raw)
    for cid, text in texts.items():
        with open(os.path.join(d, "expected", cid + ".txt"), "w") as f:
            f.write(text)
    with open(os.path.join(d, "cases.txt"), "w") as f:
        f.write(cases)


def check(d):
    problems = []
    raw = {}
    for name, (a, version) in files().items():
        path = os.path.join(d, name)
        try:
            with open(path, "rb") as f:
                raw[name] = f.read()
        except OSError as e:
            problems.append(f"{path}: {e}")
            continue
        if not same_array(np.load(io.BytesIO(raw[name])), a):
            problems.append(f"{path}: array differs from gen_data.py")
    if problems:
        return problems
    texts, cases = expected_texts(raw)
    with open(os.path.join(d, "cases.txt")) as f:
        if f.read() != cases:
            problems.append(f"{d}/cases.txt differs from gen_data.py")
    for cid, text in texts.items():
        path = os.path.join(d, "expected", cid + ".txt")
        try:
            with open(path) as f:
                have = f.read()
        except OSError as e:
            problems.append(f"{path}: {e}")
            continue
        if have != text:
            problems.append(f"{path} differs from NumPy {np.__version__}:\n"
                            f"--- committed\n{have}--- numpy\n{text}")
    return problems


def main(argv):
    if len(argv) >= 2 and argv[0] == "--check":
        problems = check(argv[1])
        for p in problems:
            print(f"{__file__}: {p}")
        if problems:
            print("regenerate with: python3 tests/cli/gen_data.py")
            return 1
        print(f"tests/cli/data matches NumPy {np.__version__}")
        return 0
    d = argv[0] if argv else os.path.join(HERE, "data")
    write(d)
    problems = check(d)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
