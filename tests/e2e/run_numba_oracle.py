#!/usr/bin/env python3
"""The kernel corpus end to end: every case of cases.py runs through
`ufjit call` and through Numba (the same kernel file imported as a module,
see UFUNC_FILES below; kernels with several outputs are also checked
against a NumPy expression), and the outputs must agree in dtype, shape
and value: bit for bit, or within the case's `ulps` where a transcendental
libm function is involved.
Failure cases must make `ufjit call` exit with the expected code and
message (and, for kernel errors, FILE:LINE:COL and a caret), print nothing
on stdout and leave no output file behind.

    run_numba_oracle.py UFJIT [--kernels DIR] [-k TEXT] [-j N] [-v] [--keep]
                          [--mvec-ulps N]

  -k TEXT  only the cases whose id contains TEXT (ids: file.kernel#n)
  --mvec-ulps N  ufjit runs with glibc's libmvec (its default; the bit-exact
           CTest run sets UFJIT_ENABLE_LIBMVEC=0): the cases allowed some
           ulps (transcendental functions) are allowed at least N
  -j N     Numba worker processes and parallel ufjit runs (default 2)
  --keep   keep the temporary directory (inputs, outputs) for debugging

Numba's compilation is most of the run time; the kernel files are spread
over worker processes. Set NUMBA_CACHE_DIR to let Numba cache what it
compiled between runs (the CTest run does, in the build tree).
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import argparse
import glob
import importlib.util
import multiprocessing
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
import zlib
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True  # nothing written into the source tree

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as case_list  # noqa: E402
import oracle_util  # noqa: E402
from oracle_record import Record  # noqa: E402

DEFAULT_KERNELS = os.path.join(os.path.dirname(HERE), "kernels")


# ---- Numba's side (worker processes) ----------------------------------------
# Files in UFUNC_FILES are imported as written: Numba's own vectorize builds
# the ufuncs (every declared signature compiled at import, NumPy choosing
# the loop). That costs ~0.2 s of compilation per signature, too slow for
# the hundreds of signatures of the operator and math files, so the other
# files are imported with vectorize swapped for NjitUfunc: the same kernel
# compiled by Numba's njit with the ufunc's numpy error model, for the one
# signature the call needs (the first every input casts to safely, as
# NumPy's ufunc loop search picks it), and applied element by element over
# the broadcast inputs. It also runs kernels returning tuples, which
# Numba's vectorize refuses. Only the njit kernels use NUMBA_CACHE_DIR:
# Numba 0.68's cached vectorize loops fail to load ("No module named
# '<dynamic>'").

UFUNC_FILES = {"seeds.py", "hypot.py", "dispatch.py", "typing_seed003.py",
               "lazy.py"}
CACHE = bool(os.environ.get("NUMBA_CACHE_DIR"))

# Corpus files whose kernels another oracle runs (no case needed here).
OWN_ORACLE = {
    "reduce_kernels.py": "run_reduce_oracle.py (reduce, accumulate, outer)",
    "prune.py": "run_prune_oracle.py (branch pruning)",
    "npufunc_scalars.py": "tests/gen/npufunc_scalars.py and test_npufunc "
                          "(every loop of every kernel, on cpu and parallel)",
}

# Corpus files written to be refused by Numba on purpose, each checked by
# its own oracle: every other file must import under Numba.
NOT_NUMBA = {
    "gufuncs_numpy.py": "fixed (3) and flexible ? dimensions, which Numba "
                        "rejects (run_gufunc_oracle.py checks with NumPy)",
    "gufuncs_errors.py": "layout errors, compared with Numba's messages by "
                         "run_gufunc_oracle.py",
}


class NjitUfunc:
    def __init__(self, py_func, sigs, options):
        self.py_func, self.options = py_func, options
        self.sigs = list(sigs) if sigs else []
        self.compiled = {}

    def _resolve(self, arrs):
        from numba.core.sigutils import normalize_signature
        from numba.np.numpy_support import as_dtype
        for k, sig in enumerate(self.sigs):
            args, ret = normalize_signature(sig)
            dts = [as_dtype(t) for t in args]
            if len(dts) == len(arrs) and all(
                    np.can_cast(a.dtype, d, "safe")
                    for a, d in zip(arrs, dts)):
                return k, sig, dts
        raise TypeError(f"ufunc '{self.py_func.__name__}' not supported for "
                        f"the input types {[str(a.dtype) for a in arrs]}")

    def __call__(self, *inputs):
        import numba
        from numba.core import types
        from numba.np.numpy_support import as_dtype, from_dtype
        arrs = [np.asarray(x) for x in inputs]
        if self.sigs:
            k, sig, in_dts = self._resolve(arrs)
            fn = self.compiled.get(k)
            if fn is None:
                fn = numba.njit(sig, error_model="numpy",
                                cache=CACHE)(self.py_func)
                self.compiled[k] = fn
        else:  # lazy: a fresh dispatcher typed for exactly these inputs
            in_dts = [a.dtype for a in arrs]
            fn = numba.njit(error_model="numpy", cache=CACHE)(self.py_func)
            fn.compile(tuple(from_dtype(d) for d in in_dts))
        ret = fn.nopython_signatures[-1].return_type
        multi = isinstance(ret, types.BaseTuple)
        out_dts = [as_dtype(t) for t in (ret.types if multi else [ret])]
        arrs = [a.astype(d) for a, d in zip(arrs, in_dts)]
        shape = np.broadcast_shapes(*[a.shape for a in arrs])
        bcast = [np.broadcast_to(a, shape) for a in arrs]
        outs = [np.empty(shape, d) for d in out_dts]
        for idx in np.ndindex(*shape):
            r = fn(*[b[idx] for b in bcast])
            for o, v in zip(outs, r if multi else (r,)):
                o[idx] = v
        return tuple(outs) if multi else outs[0]


def njit_vectorize(ftylist_or_function=(), **options):
    """numba.vectorize's calling conventions, making NjitUfuncs."""
    if callable(ftylist_or_function):
        return NjitUfunc(ftylist_or_function, None, options)
    return lambda f: NjitUfunc(f, ftylist_or_function, options)


def _load_module(path, vectorize=None):
    import numba
    name = oracle_util.kernel_module_name(path)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # Numba's cache finds functions by module
    real = numba.vectorize
    if vectorize is not None:
        numba.vectorize = vectorize
    try:
        spec.loader.exec_module(mod)
    finally:
        numba.vectorize = real
    return mod


def numba_worker(job):
    """Imports one kernel file and runs its cases. Returns (path, kernel
    names, import error or None, {case id: ("ok", outputs) | ("raised",
    message)}, seconds)."""
    path, items = job
    t0 = time.process_time()
    # every answer recorded (oracle_record.py): the file is not imported
    rec = Record(path)
    keys = {cid: rec.key(kernel, "vectorize", inputs)
            for cid, kernel, inputs in items}
    names_key = rec.key("", "ufunc names", [])
    if rec.get(names_key) is not None and \
            all(k in rec.entries for k in keys.values()):
        results = {cid: rec.get(k) for cid, k in keys.items()}
        rec.close()
        return path, rec.entries[names_key], None, results, 0.0
    rec.hits = 0
    warnings.simplefilter("ignore")
    import numba
    from numba.np.ufunc.dufunc import DUFunc
    as_ufunc = os.path.basename(path) in UFUNC_FILES
    try:
        mod = _load_module(path, None if as_ufunc else njit_vectorize)
    except Exception as e:  # the file is not valid Numba
        return path, [], f"{type(e).__name__}: {e}", {}, 0.0
    names = [k for k, v in vars(mod).items()
             if isinstance(v, (DUFunc, np.ufunc, NjitUfunc))]
    results = {}
    for cid, kernel, inputs in items:
        fn = getattr(mod, kernel, None)
        try:
            if fn is None:
                raise AttributeError(f"no kernel {kernel!r}")
            if isinstance(fn, DUFunc) and not fn._frozen:
                # a fresh lazy ufunc: compiled for exactly these types, as
                # in a fresh ufjit process
                fn = numba.vectorize()(fn._dispatcher.py_func)
            with np.errstate(all="ignore"):
                out = fn(*inputs)
            outs = out if isinstance(out, tuple) else (out,)
            results[cid] = ("ok", [np.asarray(o) for o in outs])
        except Exception as e:
            msg = re.sub(r"\x1b\[[0-9;]*m", "", str(e))
            results[cid] = ("raised", f"{type(e).__name__}: {msg}")
        rec.put(keys[cid], results[cid])
    rec.put(names_key, names)
    rec.close()
    return path, names, None, results, time.process_time() - t0


# ---- comparison -------------------------------------------------------------

def _float_close(a, b, ulps):
    both_nan = np.isnan(a) & np.isnan(b)
    if ulps == 0:
        ui = np.dtype(f"u{a.dtype.itemsize}")
        return both_nan | (a.view(ui) == b.view(ui))
    wide = np.float64 if a.dtype.itemsize <= 8 else a.dtype
    with np.errstate(all="ignore"):
        big = np.maximum(np.abs(a), np.abs(b))
        tol = ulps * np.spacing(big).astype(wide)
        diff = np.abs(a.astype(wide) - b.astype(wide))
        near = np.isfinite(a) & np.isfinite(b) & (diff <= tol)
    return both_nan | (a == b) | near


def agree(got, want, ulps):
    """Boolean mask of the elements that agree (same shape assumed)."""
    if got.dtype.kind == "c":
        return (_float_close(got.real.copy(), want.real.copy(), ulps) &
                _float_close(got.imag.copy(), want.imag.copy(), ulps))
    if got.dtype.kind == "f":
        return _float_close(np.ascontiguousarray(got),
                            np.ascontiguousarray(want), ulps)
    return got == want


def compare(case, i, got, want, inputs):
    """A list of problems with output i (empty when it agrees)."""
    where = f"output {i}"
    if got.dtype != want.dtype:
        return [f"{where}: dtype {got.dtype}, expected {want.dtype}"]
    if got.shape != want.shape:
        return [f"{where}: shape {got.shape}, expected {want.shape}"]
    ok = agree(got, want, case.ulps)
    if np.all(ok):
        return []
    bad = np.argwhere(~np.asarray(ok))
    lines = [f"{where}: {len(bad)} of {got.size} elements differ"
             f"{f' by more than {case.ulps} ulp' if case.ulps else ''}"]
    for idx in bad[:5]:
        idx = tuple(idx)
        args = []
        for x in inputs:
            x = np.asarray(x)
            xb = np.broadcast_to(x, got.shape) if got.ndim else x
            args.append(repr(xb[idx] if xb.ndim else xb[()]))
        lines.append(f"  at {idx}: inputs ({', '.join(args)}): ufjit "
                     f"{got[idx]!r}, expected {want[idx]!r}")
    return lines


# ---- running ufjit ----------------------------------------------------------

class Run:
    pass


def prepare(case, kernels, tmp, index):
    """Makes the inputs and the command line of one case."""
    r = Run()
    r.case = case
    r.dir = os.path.join(tmp, f"c{index:04d}")
    os.mkdir(r.dir)
    rng = np.random.default_rng(zlib.crc32(case.id.encode()))
    r.inputs, r.args = [], []
    for j, spec in enumerate(case.inputs):
        value, arg = spec.materialise(rng, os.path.join(r.dir, f"in{j}.npy"))
        r.inputs.append(value)
        r.args.append(arg)
    if getattr(case, "source", None) is not None:
        r.kernel_file = os.path.join(r.dir, "kernels.py")
        with open(r.kernel_file, "w") as f:
            f.write(case.source)
    else:
        r.kernel_file = os.path.join(kernels, case.file)
    r.expected = None
    if case.kind == "case" and case.expect is not None:
        with np.errstate(all="ignore"):
            r.expected = [np.asarray(o) for o in case.expect(*r.inputs)]
    if case.kind == "fail":
        nout = case.nout
    else:
        nout = len(r.expected) if r.expected is not None else 1
    r.outs = [os.path.join(r.dir, "out", f"out{k}.npy") for k in range(nout)]
    os.mkdir(os.path.join(r.dir, "out"))
    extra = list(case.extra) if case.kind == "fail" else []
    r.argv = [r.kernel_file, case.kernel, *r.args]
    for o in r.outs:
        r.argv += ["-o", o]
    r.argv += extra
    return r


def run_ufjit(ufjit, r):
    t0 = time.monotonic()
    try:
        p = subprocess.run([ufjit, "call", *r.argv], capture_output=True,
                           text=True, timeout=120)
        r.rc, r.stdout, r.stderr = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        r.rc, r.stdout, r.stderr = None, "", "timed out after 120 s"
    except OSError as e:
        r.rc, r.stdout, r.stderr = None, "", f"cannot run ufjit: {e}"
    r.seconds = time.monotonic() - t0
    return r


def command_line(ufjit, r):
    return " ".join(shlex.quote(a) for a in [ufjit, "call", *r.argv])


# ---- checks -----------------------------------------------------------------

def check_case(r, numba_result):
    c = r.case
    problems = []
    if r.rc != 0:
        return [f"ufjit exited {r.rc}: {r.stderr.strip()}"]
    if r.stderr:
        problems.append(f"ufjit wrote to stderr: {r.stderr.strip()}")
    wants = []  # (who, outputs)
    if r.expected is not None:
        wants.append(("NumPy", r.expected))
    if numba_result is not None and numba_result[0] == "ok":
        wants.append(("Numba", numba_result[1]))
    elif numba_result is not None:
        problems.append(f"Numba raised {numba_result[1][:500]}")
    elif r.expected is None:
        problems.append("no Numba result (its worker failed)")
    got = []
    for o in r.outs:
        try:
            got.append(np.load(o))
        except Exception as e:
            return problems + [f"cannot read {o}: {e}"]
    for who, want in wants:
        if len(got) != len(want):
            problems.append(f"{len(got)} outputs, {who} gives {len(want)}")
            continue
        for i, (g, w) in enumerate(zip(got, want)):
            problems += [f"against {who}: {p}"
                         for p in compare(c, i, g, w, r.inputs)]
    return problems


def check_fail(r, numba_result):
    c = r.case
    problems = []
    err = r.stderr
    if r.rc != c.rc:
        problems.append(f"exit {r.rc}, expected {c.rc}")
    if not err.startswith("ufjit: "):
        problems.append("stderr does not start with 'ufjit: '")
    if c.fragment.lower() not in err.lower():
        problems.append(f"message lacks {c.fragment!r}")
    if c.where is not None:
        line, col = c.where
        want = f"{r.kernel_file}:{line}:{col}:"
        if want not in err:
            problems.append(f"message lacks the position {want}")
        if not re.search(r"^\s*\^\s*$", err, re.M):
            problems.append("message has no caret line")
    if r.stdout:
        problems.append(f"stdout not empty: {r.stdout.strip()}")
    left = os.listdir(os.path.join(r.dir, "out"))
    if left:
        problems.append(f"files left behind: {left}")
    if c.numba is True and numba_result is not None and \
            numba_result[0] == "ok":
        problems.append("Numba accepts this call (the case says it "
                        "fails in Numba too)")
    if problems:
        problems.append(f"stderr was: {err.strip()}")
    return problems


# ---- main -------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ufjit")
    ap.add_argument("--kernels", default=DEFAULT_KERNELS)
    ap.add_argument("-k", dest="filter", default="")
    ap.add_argument("-j", dest="jobs", type=int, default=2)
    ap.add_argument("-v", dest="verbose", action="store_true")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--mvec-ulps", type=int, default=0)
    opt = ap.parse_args()
    if importlib.util.find_spec("numba") is None:
        print("SKIP: numba is not installed (python3 -m pip install numba)")
        return 77
    ufjit = os.path.abspath(opt.ufjit)
    kernels = os.path.abspath(opt.kernels)
    all_cases = case_list.all_cases()
    cases = [c for c in all_cases if opt.filter in c.id]
    if opt.mvec_ulps:
        os.environ.pop("UFJIT_ENABLE_LIBMVEC", None)
        for c in cases:
            if c.ulps:
                c.ulps = max(c.ulps, opt.mvec_ulps)
    t_start = time.monotonic()

    tmp = tempfile.mkdtemp(prefix="ufjit-oracle-")
    failures = []
    try:
        runs = [prepare(c, kernels, tmp, i) for i, c in enumerate(cases)]

        # Numba's jobs: one per kernel file, biggest first.
        jobs = {}
        for r in runs:
            c = r.case
            wants_numba = c.kind == "case" or c.numba is not None
            if wants_numba and c.file and \
                    os.path.exists(os.path.join(kernels, c.file)):
                jobs.setdefault(os.path.join(kernels, c.file), []).append(
                    (c.id, c.kernel, r.inputs))
        if not opt.filter:  # every corpus file is imported, cases or not
            for path in glob.glob(os.path.join(kernels, "*.py")):
                jobs.setdefault(path, [])
        order = sorted(jobs.items(), key=lambda kv: -len(kv[1]))

        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(max(1, opt.jobs)) as pool:
            pending = pool.imap_unordered(numba_worker, order)
            t0 = time.monotonic()
            with ThreadPoolExecutor(max(1, opt.jobs)) as ex:
                list(ex.map(lambda r: run_ufjit(ufjit, r), runs))
            t_ufjit = time.monotonic() - t0
            numba_results, names, numba_secs = {}, {}, 0.0
            for path, knames, import_err, res, secs in pending:
                numba_secs += secs
                if opt.verbose:
                    print(f"numba {os.path.basename(path)}: {len(res)} "
                          f"cases, {secs:.1f} s")
                names[path] = knames
                numba_results.update(res)
                if import_err and os.path.basename(path) not in NOT_NUMBA:
                    failures.append((os.path.basename(path),
                                     [f"not valid Numba: {import_err[:800]}"]
                                     , None))
        t_numba = time.monotonic() - t0

        for r in runs:
            nr = numba_results.get(r.case.id)
            check = check_case if r.case.kind == "case" else check_fail
            problems = check(r, nr)
            if problems:
                failures.append((r.case.id, problems, r))
            elif opt.verbose:
                print(f"ok   {r.case.id} ({r.seconds * 1000:.0f} ms)")

        # Every ufunc of the corpus has at least one case.
        if not opt.filter:
            covered = {(c.file, c.kernel) for c in all_cases if c.file}
            for path, knames in sorted(names.items()):
                base = os.path.basename(path)
                if base in OWN_ORACLE:
                    continue
                for k in knames:
                    if (base, k) not in covered:
                        failures.append((f"{base}.{k}",
                                         ["kernel has no case in cases.py"],
                                         None))

        for cid, problems, r in failures:
            print(f"FAIL {cid}" + (f" ({r.case.note})" if r and r.case.note
                                   else ""))
            for p in problems:
                print("     " + p.replace("\n", "\n     "))
            if r is not None:
                print("     command: " + command_line(ufjit, r))
        n_fail_cases = sum(1 for c in cases if c.kind == "fail")
        ufjit_ms = [r.seconds * 1000 for r in runs if r.case.kind == "case"]
        print(f"run_numba_oracle: {len(cases)} cases ({n_fail_cases} error "
              f"cases) over {len(jobs)} kernel files, {len(failures)} "
              f"failures; total {time.monotonic() - t_start:.1f} s (ufjit "
              f"calls {t_ufjit:.1f} s, median "
              f"{sorted(ufjit_ms)[len(ufjit_ms) // 2] if ufjit_ms else 0:.0f}"
              f" ms per call; Numba {numba_secs:.1f} s of work, done after "
              f"{t_numba:.1f} s)")
    finally:
        if opt.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
