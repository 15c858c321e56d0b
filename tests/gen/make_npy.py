#!/usr/bin/env python3
"""NumPy as the oracle for ufjit's .npy reader and writer (tests/test_npy.c).

  make_npy.py gen DIR [--small]
      Writes .npy files made by NumPy into DIR with a MANIFEST that says,
      for each, what np.load gives: "FILE ok DTYPE FLAGS NDIM DIMS..." or
      "FILE err". Every "ok" file holds pattern(dtype, size) in C order of
      the loaded array, the same formula tests/test_npy.c computes. Without
      --small it also writes fuzz.bin: header bytes overwritten one at a
      time, each with NumPy's verdict and loaded bytes. The committed copy
      under tests/data/npy/ was made with --small. DIR/DONE marks success.

  make_npy.py check TEST_NPY DIR
      Runs `TEST_NPY --write DIR` (ufjit saves arrays described in
      DIR/saved.txt), then checks that NumPy loads each one as the array it
      describes and that np.save writes the very same bytes.

  make_npy.py compare COMMITTED SCRATCH
      Regenerates the --small set into SCRATCH and fails unless COMMITTED
      holds exactly the same files, byte for byte.

Exits 77 when NumPy is missing, so CTest reports a skip.
"""
import ast
import io
import os
import re
import struct
import subprocess
import sys
import warnings

try:
    import numpy as np
    from numpy.lib import format as npformat
except ImportError:
    print("numpy is not installed: skipping the NumPy oracle for .npy")
    sys.exit(77)
try:  # NumPy 2 keeps the private helpers here
    from numpy.lib import _format_impl as npformat_impl
except ImportError:
    npformat_impl = npformat

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
          "int64", "uint64", "float32", "float64", "complex64", "complex128"]
SHAPES = [(), (0,), (5,), (2, 3, 4), (3, 0, 2)]


def pattern(dtype, n):
    """Deterministic contents; tests/npy_test_util.h has the same formula."""
    dt = np.dtype(dtype)
    i = np.arange(n, dtype=np.int64)
    if dt.kind == "b":
        return (i % 3 == 1).astype(dt)
    if dt.kind in "iu":
        return (i * 1000003 - 50).astype(dt)  # wraps, as a C cast
    v = i * 0.25 - 1.5
    if dt.kind == "f":
        v[1:2] = np.nan
        v[2:3] = np.inf
        v[3:4] = -np.inf
        return v.astype(dt)
    w = 2.0 - i * 0.5
    v[1:2] = np.nan
    v[2:3] = np.inf
    w[2:3] = -np.inf
    w[3:4] = np.nan
    z = np.empty(n, np.complex128)  # not v + 1j * w: inf * 1j gives nan
    z.real = v
    z.imag = w
    return z.astype(dt)


def shape_tag(shape):
    return "x".join(map(str, shape)) if shape else "s"


def flags_of(a):
    return ("C" if a.flags.c_contiguous else "") + \
           ("F" if a.flags.f_contiguous else "") or "-"


def refused_on_purpose(data):
    """Files NumPy loads and ufjit refuses by design: a descr with a count
    other than 1 ('2f8' is a subarray dtype; NumPy only gets by when the
    array is empty) or with characters below ' ' (NumPy reads '<\\x04' as
    type number 4, uint16)."""
    try:
        major = data[6]
        n = 2 if major == 1 else 4
        hlen = int.from_bytes(data[8:8 + n], "little")
        text = data[8 + n:8 + n + hlen].decode("utf8" if major == 3
                                                else "latin1")
        try:
            d = ast.literal_eval(text)
        except SyntaxError:
            d = ast.literal_eval(npformat_impl._filter_header(text))
        descr = d["descr"]
    except Exception:
        return False
    if not isinstance(descr, str):
        return False
    count = re.match(r"[<>|=]?(\d+)", descr)
    return (count is not None and count.group(1) != "1") or \
        any(c < " " for c in descr)


def verdict(data):
    """NumPy's np.load of these bytes: (line, native C-order bytes)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = np.load(io.BytesIO(data))
    except Exception:
        return "err", b""
    if refused_on_purpose(data):
        return "err", b""
    if a.dtype.name not in DTYPES or a.dtype.fields is not None:
        return "err", b""
    native = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("="))
    raw = native.tobytes()
    if a.dtype.kind == "b":  # ufjit stores bools as 0 or 1
        raw = (np.frombuffer(raw, np.uint8) != 0).astype(np.uint8).tobytes()
    line = "ok %s %s %d%s" % (a.dtype.name, flags_of(a), a.ndim,
                              "".join(" %d" % d for d in a.shape))
    return line, raw


def npy_bytes(dtype, order, endian, version, shape):
    size = int(np.prod(shape, dtype=np.int64))
    a = pattern(dtype, size).reshape(shape)
    a = a.astype(a.dtype.newbyteorder(endian))
    if order == "F":
        a = np.asfortranarray(a)
    buf = io.BytesIO()
    npformat.write_array(buf, a, version=(version, 0))
    return buf.getvalue()


def wrap_header(text, version):
    """A file with a hand-written header, padded as NumPy pads it."""
    hdr = text.encode("utf8" if version == 3 else "latin1")
    fmt = "<H" if version == 1 else "<I"
    hlen = len(hdr) + 1
    pad = 64 - (8 + struct.calcsize(fmt) + hlen) % 64
    return (b"\x93NUMPY" + bytes([version, 0]) +
            struct.pack(fmt, hlen + pad) + hdr + b" " * pad + b"\n")


def D(descr, fortran, shape, extra=""):
    """np.save's spelling of a dict, with a suffix before the '}'."""
    return "{'descr': %r, 'fortran_order': %s, 'shape': %r, %s}" % (
        descr, fortran, shape, extra)


# (name, version, header text, dtype and shape of the data appended or
# None for 64 zero bytes). NumPy decides which of them are valid.
HEADERS = [
    ("plain", 1, D("<f8", False, (2, 3)), ("<f8", (2, 3), "C")),
    ("order", 1, "{'shape': (2, 3), 'fortran_order': True, 'descr': '<i4'}",
     ("<i4", (2, 3), "F")),
    ("spaces", 1, "{ 'descr' : '<f8' ,\n 'fortran_order':False,"
     "'shape':( 2 ,3 , ) , }", ("<f8", (2, 3), "C")),
    ("tabs_cr", 1, "\t{'descr':\t'<u2',\r\n'fortran_order':\fFalse,"
     "'shape':(4,)}", ("<u2", (4,), "C")),
    ("dquote", 1, '{"descr": ">i8", "fortran_order": False, "shape": (6,)}',
     (">i8", (6,), "C")),
    ("comment", 1, "{'descr': '<f4', # a comment\n 'fortran_order': False,"
     " 'shape': (3,)} # after", ("<f4", (3,), "C")),
    ("0d", 3, D(">c8", False, ()), (">c8", (), "C")),
    ("v2", 2, D("<c16", True, (2, 2)), ("<c16", (2, 2), "F")),
    ("name_f8", 1, D("f8", False, (3,)), ("<f8", (3,), "C")),
    ("name_float64", 1, D("float64", False, (3,)), ("<f8", (3,), "C")),
    ("char_d", 1, D("d", False, (3,)), ("<f8", (3,), "C")),
    ("eq_i2", 1, D("=i2", False, (3,)), ("<i2", (3,), "C")),
    ("bar_f4", 1, D("|f4", False, (3,)), ("<f4", (3,), "C")),
    ("repeat1", 1, D("1f8", False, (3,)), ("<f8", (3,), "C")),
    ("repeat1_order", 1, D("1>f8", False, (3,)), (">f8", (3,), "C")),
    ("order_char", 1, D(">d", False, (3,)), (">f8", (3,), "C")),
    ("repeat2_empty", 1, D("2f8", False, (0,)), None),
    ("typenum_char", 1, D("<\x04", False, (3,)), None),
    ("lt_u1", 1, D("<u1", False, (3,)), ("|u1", (3,), "C")),
    ("gt_b1", 1, D(">b1", False, (3,)), ("|b1", (3,), "C")),
    ("long_v1", 1, "{'descr': '<i2', 'fortran_order': False, "
     "'shape': (3L, 2L), }", ("<i2", (3, 2), "C")),
    ("long_v3", 3, "{'descr': '<i2', 'fortran_order': False, "
     "'shape': (3L, 2L), }", ("<i2", (3, 2), "C")),
    ("hex", 1, "{'descr': '<i2', 'fortran_order': False, "
     "'shape': (0x2, 0o3), }", ("<i2", (2, 3), "C")),
    ("underscore", 1, D("<i2", False, (10,)).replace("10", "1_0"),
     ("<i2", (10,), "C")),
    ("signs", 1, "{'descr': '<i2', 'fortran_order': False, "
     "'shape': (+2, -0), }", ("<i2", (2, 0), "C")),
    ("dup_key", 1, "{'descr': '<U3', 'descr': '<i4', "
     "'fortran_order': False, 'shape': (2,)}", ("<i4", (2,), "C")),
    ("u_prefix", 1, "{'descr': u'<f8', 'fortran_order': False, "
     "'shape': (2,)}", ("<f8", (2,), "C")),
    ("r_prefix", 3, "{'descr': r'<f8', 'fortran_order': False, "
     "'shape': (2,)}", ("<f8", (2,), "C")),
    ("escape", 1, "{'descr': '\\x3cf8', 'fortran_order': False, "
     "'shape': (2,)}", ("<f8", (2,), "C")),
    ("dims64", 1, D("|u1", False, (1,) * 64), ("|u1", (1,) * 64, "C")),
    ("utf8_v3", 3, D("<f8", False, (2,), "# \u00e9\n"), ("<f8", (2,), "C")),
    ("b_prefix", 1, "{'descr': b'<f8', 'fortran_order': False, "
     "'shape': (2,)}", None),
    ("dims65", 1, D("|u1", False, (1,) * 65), None),
    ("int_shape", 1, D("<f8", False, 5), None),
    ("list_shape", 1, D("<f8", False, [2, 3]), None),
    ("float_dim", 1, D("<f8", False, (2.0, 3)), None),
    ("neg_dim", 1, D("<f8", False, (-1, 2)), None),
    ("big_dim", 1, D("<f8", False, (2 ** 63,)), None),
    ("overflow", 1, D("<f8", False, (2 ** 31, 2 ** 31, 4)), None),
    ("overflow_empty", 1, D("<f8", False, (0, 2 ** 62, 4)), None),
    ("truncated_data", 1, D("<f8", False, (100,)), None),
    ("object", 1, D("|O", False, (2,)), None),
    ("unicode", 1, D("<U5", False, (2,)), None),
    ("bytes", 1, D("|S3", False, (2,)), None),
    ("void", 1, D("|V8", False, (2,)), None),
    ("datetime", 1, D("<M8[ns]", False, (2,)), None),
    ("timedelta", 1, D("<m8[s]", False, (2,)), None),
    ("float16", 1, D("<f2", False, (2,)), None),
    ("longdouble", 1, D("<f16", False, (2,)), None),
    ("structured", 1, D([("a", "<f8"), ("b", "<i4")], False, (2,)), None),
    ("subarray", 1, D(("<f8", (2,)), False, (2,)), None),
    ("missing_key", 1, "{'descr': '<f8', 'shape': (2,)}", None),
    ("extra_key", 1, D("<f8", False, (2,), "'x': 1, "), None),
    ("fortran_int", 1, "{'descr': '<f8', 'fortran_order': 0, "
     "'shape': (2,)}", None),
    ("fortran_str", 1, "{'descr': '<f8', 'fortran_order': 'False', "
     "'shape': (2,)}", None),
    ("not_dict", 1, "[1, 2]", None),
    ("empty", 1, "", None),
    ("unterminated", 1, "{'descr': '<f8', 'fortran_order': False, "
     "'shape': (2,)", None),
    ("open_string", 1, "{'descr': '<f8, 'fortran_order': False, "
     "'shape': (2,)}", None),
    ("after_dict", 1, D("<f8", False, (2,)) + " x", None),
    ("continuation", 1, D("<f8", False, (2,)) + " \\", None),
    ("nul", 1, D("<f8", False, (2,)) + "\0", None),
    ("vtab", 1, D("<f8", False, (2,)) + "\v", None),
    ("latin1_v1", 1, D("<f8", False, (2,), "# \u00e9\n"), ("<f8", (2,), "C")),
    ("leading_zero", 1, D("<f8", False, (2,)).replace("(2,)", "(02,)"), None),
]


def header_file(version, text, data):
    body = b"\0" * 64
    if data is not None:
        descr, shape, order = data
        size = int(np.prod(shape, dtype=np.int64))
        a = pattern(descr, size).astype(descr).reshape(shape)
        body = a.tobytes(order=order)
    try:
        return wrap_header(text, version) + body
    except UnicodeEncodeError:  # é in a latin-1 header: write it raw
        raw = text.encode("utf8")
        hlen = len(raw) + 1
        pad = 64 - (10 + hlen) % 64
        return (b"\x93NUMPY\x01\x00" + struct.pack("<H", hlen + pad) + raw +
                b" " * pad + b"\n" + body)


# Files whose header bytes fuzz.bin overwrites, and the values written:
# every byte from the version to the end of the dict, plus the first magic
# byte and the first and last two bytes of the padding.
FUZZ_BASES = [("float64", "C", "<", 1, (2, 3)), ("int16", "F", ">", 2, (2, 3)),
              ("complex64", "C", "<", 3, (3,)), ("uint32", "C", "<", 1,
                                                 (3, 0, 2))]
FUZZ_BYTES = b"\x00 \n#,(){}'\":019-Lxu\\\x80"


def fuzz_positions(good):
    n = 2 if good[6] == 1 else 4
    end = 8 + n + int.from_bytes(good[8:8 + n], "little")
    dict_end = good.index(b"}", 8 + n) + 1
    return [0] + list(range(6, dict_end)) + [dict_end, dict_end + 1,
                                              end - 2, end - 1]


def gen(outdir, small):
    os.makedirs(outdir, exist_ok=True)
    done = os.path.join(outdir, "DONE")
    if os.path.exists(done):
        os.remove(done)
    lines = []

    def add(name, data, expect_ok):
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)
        line, raw = verdict(data)
        if expect_ok is not None and line.startswith("ok") != expect_ok:
            sys.exit("make_npy.py: NumPy's verdict on %s changed: %s"
                     % (name, line))
        if line.startswith("ok"):
            # the C test checks values against pattern(); make sure NumPy
            # read exactly that
            parts = line.split()
            a = np.frombuffer(raw, np.dtype(parts[1]))
            p = pattern(parts[1], a.size)
            if a.dtype.kind == "b":
                p = p.view(np.uint8)
                a = a.view(np.uint8)
            if p.tobytes() != a.tobytes():
                sys.exit("make_npy.py: %s does not hold the pattern" % name)
        lines.append("%s %s" % (name, line))

    combos = []
    for dt in DTYPES:
        for order in "CF":
            for endian in "<>":
                for version in (1, 2, 3):
                    for shape in SHAPES:
                        combos.append((dt, order, endian, version, shape))
    if small:
        combos = ([(dt, "C", "<", 1, (2, 3, 4)) for dt in DTYPES] +
                  [(dt, "F", ">", 2, (2, 3, 4)) for dt in DTYPES] +
                  [(dt, "C", ">", 3, s) for dt in ("float64", "complex64",
                                                   "int16", "bool")
                   for s in SHAPES if s != (2, 3, 4)])
    for dt, order, endian, version, shape in combos:
        name = "%s_%s_%s_v%d_%s.npy" % (dt, order, "le" if endian == "<"
                                        else "be", version, shape_tag(shape))
        add(name, npy_bytes(dt, order, endian, version, shape), True)
    for name, version, text, data in HEADERS:
        add("hdr_%s.npy" % name, header_file(version, text, data), None)

    with open(os.path.join(outdir, "MANIFEST"), "w") as f:
        f.write("\n".join(lines) + "\n")

    if not small:
        # records: u32 len, file bytes, u32 len, verdict, u32 len, data
        with open(os.path.join(outdir, "fuzz.bin"), "wb") as f:
            for base in FUZZ_BASES:
                good = npy_bytes(*base)
                for pos in fuzz_positions(good):
                    for b in set(FUZZ_BYTES) | {good[pos] ^ 1, good[pos] ^ 32}:
                        if b == good[pos]:
                            continue
                        data = good[:pos] + bytes([b]) + good[pos + 1:]
                        line, raw = verdict(data)
                        line = line.encode()
                        f.write(struct.pack("<I", len(data)) + data +
                                struct.pack("<I", len(line)) + line +
                                struct.pack("<I", len(raw)) + raw)
    with open(done, "w") as f:
        f.write("ok\n")


def check(binary, outdir):
    os.makedirs(outdir, exist_ok=True)
    for name in os.listdir(outdir):
        os.remove(os.path.join(outdir, name))
    subprocess.run([binary, "--write", outdir], check=True)
    bad = 0
    n = 0
    with open(os.path.join(outdir, "saved.txt")) as f:
        for line in f:
            # file dtype base_n offset ndim shape... strides...
            parts = line.split()
            name, dt = parts[0], np.dtype(parts[1])
            base_n, offset, ndim = int(parts[2]), int(parts[3]), int(parts[4])
            shape = tuple(int(x) for x in parts[5:5 + ndim])
            strides = tuple(int(x) for x in parts[5 + ndim:5 + 2 * ndim])
            base = pattern(dt, base_n)
            expect = np.ndarray(shape, dt, buffer=base, offset=offset,
                                strides=strides)
            path = os.path.join(outdir, name)
            got = np.load(path)
            mine = open(path, "rb").read()
            buf = io.BytesIO()
            np.save(buf, expect)
            n += 1
            problems = []
            if got.dtype != dt or got.shape != shape:
                problems.append("loads as %s %s" % (got.dtype, got.shape))
            elif not np.array_equal(got, expect, equal_nan=True):
                problems.append("values differ")
            elif flags_of(got) != flags_of(np.load(io.BytesIO(
                    buf.getvalue()))):
                problems.append("memory order differs")
            if buf.getvalue() != mine:
                problems.append("bytes differ from np.save (%d vs %d bytes)"
                                % (len(mine), len(buf.getvalue())))
            if problems:
                bad += 1
                print("%s: %s" % (name, "; ".join(problems)))
    print("%d files written by ufjit checked with NumPy %s, %d bad"
          % (n, np.__version__, bad))
    if n == 0:
        sys.exit("no files were written")
    sys.exit(1 if bad else 0)


def compare(committed, scratch):
    gen(scratch, small=True)
    want = sorted(f for f in os.listdir(scratch) if f != "DONE")
    have = sorted(os.listdir(committed))
    bad = [f for f in want if f not in have or
           open(os.path.join(committed, f), "rb").read() !=
           open(os.path.join(scratch, f), "rb").read()]
    bad += [f for f in have if f not in want]
    for f in bad:
        print("%s differs from what NumPy %s writes" % (f, np.__version__))
    print("%d committed files compared, %d differ" % (len(want), len(bad)))
    if bad:
        print("regenerate: %s gen %s --small" % (sys.argv[0], committed))
    sys.exit(1 if bad else 0)


def main(argv):
    if len(argv) >= 3 and argv[1] == "gen":
        gen(argv[2], "--small" in argv[3:])
    elif len(argv) == 4 and argv[1] == "check":
        check(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "compare":
        compare(argv[2], argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
