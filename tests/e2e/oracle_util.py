"""What the Numba-oracle drivers (run_*_oracle.py) share: their command
line, loading a kernel file as a Python module for Numba, materialising a
case's inputs (corpus.py specs) for both sides, running `ufjit call`, and
the loop that checks a list of cases (check_cases).
"""
import argparse
import atexit
import contextlib
import faulthandler
import functools
import importlib.util
import inspect
import os
import re
import subprocess
import sys
import tempfile
import threading
import warnings
import zlib

import numpy as np

from corpus import S
from oracle_record import Record

# A crash inside Numba or NumPy prints the Python stack instead of a bare
# "Segmentation fault".
faulthandler.enable()


def options(doc, *extra):
    """UFJIT [EXTRA...] [-k TEXT] [-v]; None (after printing SKIP) when
    Numba is missing, so the driver exits 77. `extra` are add_argument
    keyword dicts for positional arguments after UFJIT."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("ufjit")
    for kw in extra:
        ap.add_argument(**kw)
    ap.add_argument("-k", dest="filter", default="")
    ap.add_argument("-v", dest="verbose", action="store_true")
    opt = ap.parse_args()
    if importlib.util.find_spec("numba") is None:
        print("SKIP: numba is not installed")
        return None
    return opt


@contextlib.contextmanager
def numba_caching():
    """Numba's decorators with cache=True while a kernel file loads, so
    that its compilations land in NUMBA_CACHE_DIR (set by CTest): the
    sanitizer run and later runs load them instead of compiling again,
    which was most of an oracle test's time. The kernel files stay plain
    Numba files without the flag (ufjit reads them too). guvectorize is
    left uncached: two processes compiling one file's gufuncs at once can
    leave a cache whose kernel and gufunc wrapper disagree on the ABI
    name, which segfaults the next process that loads it (numba#10128;
    CTest runs drivers sharing a kernel file side by side, and CI lost
    guvectorize_numba_oracle to it)."""
    import numba
    names = ("njit", "jit", "vectorize")
    saved = {n: getattr(numba, n) for n in names}

    def cached(deco):
        @functools.wraps(deco)
        def wrapper(*args, **kw):
            if kw.get("target", "cpu") == "cpu":
                kw.setdefault("cache", True)
            return deco(*args, **kw)
        return wrapper

    for n in names:
        setattr(numba, n, cached(saved[n]))
    try:
        yield
    finally:
        for n, deco in saved.items():
            setattr(numba, n, deco)


def kernel_module_name(path):
    """The one module name of a kernel file in every driver (file names
    under tests/kernels/ are unique across its folders)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return "ufjit_kernels_" + re.sub(r"\W", "_", stem)


def load(path):
    """The kernel file as a module: its functions are Numba's."""
    # importable, under the name every driver gives it: Numba's cache
    # rebuilds a function's globals by importing the module it was first
    # compiled in, whichever driver loads the file later
    name = kernel_module_name(path)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    with numba_caching():
        spec.loader.exec_module(mod)
    return mod


def lazy_load(path):
    """load(path) deferred to the first call: drivers whose answers all
    come from the record (oracle_record.py) never import the kernels."""
    mod = None

    def get():
        nonlocal mod
        mod = mod or load(path)
        return mod
    return get


def materialise(cid, inputs, tmp):
    """(Numba's values, ufjit's command-line arguments) of a case, from a
    generator seeded by the case id (reruns see the same data)."""
    rng = np.random.default_rng(zlib.crc32(cid.encode()))
    vals, args = [], []
    for j, spec in enumerate(inputs):
        v, arg = spec.materialise(rng, os.path.join(tmp, f"{cid}.in{j}.npy"))
        vals.append(v[()] if isinstance(spec, S) else v)
        args.append(arg)
    return vals, args


def as_array(o):
    """A Numba result as the array `ufjit call -o` writes."""
    if isinstance(o, bool):
        return np.array(o)
    if isinstance(o, float):
        return np.array(o, dtype=np.float64)
    if isinstance(o, int):
        return np.array(o, dtype=np.int64)
    if isinstance(o, complex):
        return np.array(o, dtype=np.complex128)
    return np.asarray(o)


def run_ufjit(ufjit, path, kernel, args, tmp, cid, target=None):
    """`ufjit call` with one output: (process, output file, command)."""
    p, outs, cmd = run_ufjit_outs(ufjit, path, kernel, args, 1, tmp, cid,
                                  target)
    return p, outs[0], cmd


def run_ufjit_outs(ufjit, path, kernel, args, nout, tmp, cid, target=None):
    """`ufjit call` with `nout` outputs (a tuple's elements, one file
    each): (process, output files, command). The call runs in the
    script's `ufjit call --batch` process (batch_call)."""
    outs = [os.path.join(tmp, f"{cid}.out{k}.npy") for k in range(nout)]
    argv = [ufjit, "call", path, kernel, *args]
    for o in outs:
        argv += ["-o", o]
    if target:
        argv += ["--target", target]
    return batch_call(argv), outs, " ".join(argv)


class _Batch:
    """A `ufjit call --batch -` process fed one call per line. Its stderr
    goes to a file, not a pipe (a pipe could fill while we wait on
    stdout); each call's part of either stream ends at the marker line
    ufjit writes after it."""

    def __init__(self, ufjit):
        self.err = tempfile.TemporaryFile()
        self.pos = self.n = 0
        self.p = subprocess.Popen([ufjit, "call", "--batch", "-"],
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.err)

    def call(self, args, timeout=120):
        """CompletedProcess of one call; when the process dies during
        it (a crash, a sanitizer's report), its exit status and all it
        wrote; self.p is then None."""
        self.p.stdin.write(("\t".join(args) + "\n").encode())
        self.p.stdin.flush()
        self.n += 1
        marker = re.compile(rb"^#ufjit-batch %d exit (-?\d+)$" % self.n,
                            re.M)
        watchdog = threading.Timer(timeout, self.p.kill)
        watchdog.start()
        out = []
        try:
            for line in iter(self.p.stdout.readline, b""):
                m = marker.match(line.rstrip(b"\n"))
                if m:
                    rc = int(m.group(1))
                    break
                out.append(line)
            else:  # the process ended before the call's marker
                rc = self.p.wait()
                self.p = None
        finally:
            watchdog.cancel()
        self.err.seek(self.pos)
        err = self.err.read()  # bytes: self.pos counts bytes
        m = marker.search(err)
        if m:
            self.pos += m.end() + 1
            err = err[:m.start()]
        return subprocess.CompletedProcess(
            args, rc, b"".join(out).decode(errors="replace"),
            err.decode(errors="replace"))

    def close(self):
        """Problems at the end: the exit status tells calls' failures (1)
        from a sanitizer's report at exit (leaks), which is printed."""
        if self.p is None:
            return []
        self.p.stdin.close()
        self.p.stdout.read()
        rc = self.p.wait()
        self.err.seek(self.pos)
        rest = self.err.read().decode(errors="replace").strip()
        self.p = None
        if rc in (0, 1) and not rest:
            return []
        return [f"`ufjit call --batch` exited {rc} after its last call: "
                f"{rest[-4000:]}"]


_batches = {}


def batch_call(argv):
    """Runs `ufjit call ARGS` (argv[1] == "call") in the batch process of
    that ufjit, started on first use and again after a crash;
    UFJIT_ORACLE_BATCH=0 runs each call in a process of its own (as a
    user would, e.g. to tell which call leaked)."""
    if (os.environ.get("UFJIT_ORACLE_BATCH") == "0" or
            any("\t" in a or "\n" in a for a in argv)):
        return subprocess.run(argv, capture_output=True, text=True,
                              timeout=120)
    b = _batches.get(argv[0])
    if b is None or b.p is None:
        b = _batches[argv[0]] = _Batch(argv[0])
    return b.call(argv[2:])


def close_batches():
    """Ends the batch processes; their problems (see _Batch.close)."""
    probs = []
    for b in _batches.values():
        probs += b.close()
    _batches.clear()
    return probs


@atexit.register
def _close_at_exit():
    """A driver that does not call close_batches itself: a leak report
    at the batch's exit still fails the script."""
    probs = close_batches()
    for pr in probs:
        print(f"FAIL {pr}")
    if probs:
        sys.stdout.flush()
        os._exit(1)


def load_outputs(outs):
    """ufjit writes a tuple output as one file per element."""
    return [np.load(o) for o in outs]


def numba_result(fn, vals, r):
    """Numba's result as an array of the dtype Numba typed it with (a
    float32 or complex64 number comes back from Numba as a Python one)."""
    try:
        sig = fn.overloads[tuple(fn.typeof_pyval(v) for v in vals)].signature
        rt = sig.return_type
        if type(rt).__name__ == "Optional":  # np.linalg.matrix_power's
            rt = rt.type
        if not hasattr(rt, "ndim"):
            return np.array(r, dtype=np.dtype(str(rt)))
    except (KeyError, TypeError):
        pass
    return as_array(r)


def numba_results(fn, vals, r):
    """Numba's result as the list of arrays `ufjit call` writes: a tuple's
    elements one each, numbers of the dtype Numba typed them with."""
    if not isinstance(r, tuple):
        return [numba_result(fn, vals, r)]
    try:
        sig = fn.overloads[tuple(fn.typeof_pyval(v) for v in vals)].signature
        types = list(sig.return_type)
    except (KeyError, TypeError):
        return [as_array(x) for x in r]
    return [np.array(x, dtype=_scalar_dtype(t)) if _scalar_dtype(t) else
            as_array(x) for x, t in zip(r, types)]


def _scalar_dtype(t):
    """The dtype of a Numba number type; None for arrays, tuples..."""
    if hasattr(t, "ndim"):
        return None
    try:
        return np.dtype(str(t))
    except TypeError:
        return None


def _reference(mod, kernel, vals, expect):
    """(expect, Numba's results or None, problems) of a case."""
    if expect and expect.endswith("-ufjit"):  # not run in Numba
        return expect[:-len("-ufjit")], None, []
    fn = getattr(mod, kernel)
    if expect == "numpy":
        return None, [as_array(x) for x in _as_list(fn.py_func(*vals))], []
    try:
        r = fn(*vals)
    except Exception as e:  # noqa: BLE001
        name = type(e).__name__
        if expect == "refused":  # Numba fails in any way: ufjit refuses
            return "TypingError", None, []
        if expect == "TypingError" and not _compiled(fn, vals):
            return expect, None, []  # Numba failed compiling, whatever way
        if name != expect:
            return expect, None, [f"Numba raises {name}: {str(e)[:300]}, "
                                  f"the case expects {expect}"]
        return expect, None, []
    if expect == "refused-here":  # Numba runs it, ufjit refuses
        return "TypingError", None, []
    if kernel.startswith("gu_"):
        return expect, [as_array(r)], ["Numba does not raise"] if expect \
            else []
    return expect, numba_results(fn, vals, r), \
        ["Numba does not raise"] if expect else []


def _compiled(fn, vals):
    try:
        return tuple(fn.typeof_pyval(v) for v in vals) in fn.overloads
    except (AttributeError, TypeError, ValueError):
        return False


def _as_list(r):
    return list(r) if isinstance(r, tuple) else [r]


def same_str_or_array(got, want):
    """`same` for kernels returning strings and numbers: a string (a 0-d
    `<U` array from `ufjit call -o`) equal as text, anything else the same
    dtype, shape and values."""
    if want.dtype.kind == "U" or got.dtype.kind == "U":
        return (got.dtype.kind == want.dtype.kind == "U" and
                got.shape == want.shape == () and got.item() == want.item())
    return (got.dtype == want.dtype and got.shape == want.shape and
            np.array_equal(got, want))


def check_cases(opt, path, cases, what, same, extra=None):
    """Runs each case through Numba and through `ufjit call`, prints a FAIL
    line per disagreement (every case with -v) and returns the exit status.

    A case is (kernel, inputs[, expect[, where]]); `expect` is None (the
    results agree: `same(got, want)`, `same(got, want, kernel)` or
    `same(got, want, kernel, vals)`), an
    exception name (both raise it; "TypingError": Numba fails compiling,
    whatever it raises, and ufjit refuses the kernel at FILE[:where]:),
    "refused" (Numba raises anything, at compile or run time, and ufjit
    refuses the kernel), "refused-here" (Numba runs it, ufjit refuses it:
    a gap the README names), "numpy" (compare
    with the kernel run as plain Python: Numba's result is an accident)
    or "NAME-ufjit" (ufjit raises NAME; Numba is not run). Kernels named
    gu_* run on the cpu and parallel targets, their output compared whole.
    `extra(tmp)`, when given, returns the problems of checks of the
    driver's own (None when filtered out by -k)."""
    mod = None
    record = Record(path)
    warnings.simplefilter("ignore")
    nargs = len(inspect.signature(same).parameters)
    fails = n = 0
    seen = {}
    stem = os.path.splitext(os.path.basename(path))[0]
    with tempfile.TemporaryDirectory(prefix=f"ufjit-{stem}-") as tmp:
        for c in cases:
            kernel, inputs = c[0], c[1]
            expect = c[2] if len(c) > 2 else None
            where = c[3] if len(c) > 3 else None
            seen[kernel] = seen.get(kernel, 0) + 1
            cid = f"{kernel}#{seen[kernel]}"
            if opt.filter not in cid:
                continue
            n += 1
            vals, args = materialise(cid, inputs, tmp)

            def reference():
                nonlocal mod
                if expect and expect.endswith("-ufjit"):
                    return _reference(None, kernel, vals, expect)
                mod = mod or load(path)  # only when Numba is asked
                return _reference(mod, kernel, vals, expect)
            expect, want, probs = record.answer(
                record.key(kernel, expect, vals), vals, reference)
            probs = list(probs)
            gu = kernel.startswith("gu_")
            for target in ("cpu", "parallel") if gu else ("cpu",):
                p, outs, cmd = run_ufjit_outs(
                    opt.ufjit, path, kernel, args, len(want) if want else 1,
                    tmp, cid, target)
                nout = re.search(r"has (\d+) outputs? but 1 -o", p.stderr)
                if expect and nout:  # a tuple's kernel raising: its count
                    p, outs, cmd = run_ufjit_outs(
                        opt.ufjit, path, kernel, args, int(nout.group(1)),
                        tmp, cid, target)
                mark = f"{expect}:"
                if expect == "TypingError":
                    mark = f"{path}:{where}:" if where else f"{path}:"
                if expect:
                    bare = f"ufjit: {expect} (in '"  # raised without text
                    if p.returncode != 1 or (mark not in p.stderr and
                                             bare not in p.stderr):
                        probs.append(f"ufjit did not raise {expect} at "
                                     f"{mark}: exit {p.returncode} "
                                     f"{p.stderr.strip()}")
                elif p.returncode != 0:
                    probs.append(f"ufjit exited {p.returncode}: "
                                 f"{p.stderr.strip()}\n  {cmd}")
                else:
                    for got, w in zip(load_outputs(outs), want):
                        if not same(*(got, w, kernel, vals)[:nargs]):
                            probs.append(f"{target}: ufjit {got.dtype} "
                                         f"{got!r}, Numba {w.dtype} {w!r}"
                                         f"\n  {cmd}")
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs))
            elif opt.verbose:
                print(f"ok   {cid}")
        probs = extra(tmp) if extra else None
        if probs is not None:
            n += 1
            fails += bool(probs)
            for pr in probs:
                print(f"FAIL {pr}")
    for pr in close_batches():
        fails += 1
        print(f"FAIL {pr}")
    record.close()
    print(f"{n - fails}/{n} {what} cases agree with Numba")
    return 1 if fails else 0
