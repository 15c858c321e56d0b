"""The benchmark run itself (bench/run.py prepares the Python environment
and calls main here): starts the C servers, runs every case of cases.py
in alternating rounds, then the compile, cache and process measurements
and the other areas' benchmark programs, and hands everything to
report.py."""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

import cases as C
import machine
import peers
import report
import servers
from servers import ServerError, clean_env, start

HERE = os.path.dirname(os.path.abspath(__file__))

# rounds x reps per group (a contender slower than budget/reps seconds a
# call gets fewer reps, at least one a round), and the other knobs
PLAN = {
    "full": dict(rounds=5, reps=3, budget=0.25, o_reps=5, r_rounds=3,
                 c_rounds=5, p_reps=10, stream_n=40_000_000, stream_reps=10,
                 extra_reps=7),
    "quick": dict(rounds=2, reps=2, budget=0.1, o_reps=3, r_rounds=2,
                  c_rounds=2, p_reps=3, stream_n=10_000_000, stream_reps=3,
                  extra_reps=3),
    "smoke": dict(rounds=1, reps=1, budget=1.0, o_reps=1, r_rounds=1,
                  c_rounds=1, p_reps=1, stream_n=100_000, stream_reps=1,
                  extra_reps=1),
}
SMOKE_CASES = r"^(triad f64|sine f32|broadcast f64|call 0-d|matvec 4x4.*|" \
              r"sum axis 1.*)$"
UNSUPPORTED = "UF_ERR_UNSUPPORTED"
LIBM = "libm"  # label suffix of the UFJIT_ENABLE_LIBMVEC=0 contenders
# bench_stream kernel bounding each kind of limit: bytes read and written
# at STREAM triad's bandwidth, bytes read at the read-only sum's, bytes of
# a large output made from small inputs at the write-only kernel's
STREAM_KERNEL = {"stream": "triad", "read": "sum", "write": "write"}


def checksum(a):
    a = np.asarray(a, dtype=np.float64)
    return [float(a.sum()), float(np.abs(a).sum())]


def same(got, ref, dtype):
    """Checksums agree (relative to the sum of magnitudes)."""
    rtol = 1e-3 if dtype == "float32" else 1e-6
    for g, r in zip(got, ref):
        for x, y in zip(g, r):
            if math.isnan(x) or math.isnan(y):
                if not (math.isnan(x) and math.isnan(y)):
                    return False
            elif abs(x - y) > rtol * max(abs(r[1]), 1.0):
                return False
    return True


def py_runner(fn):
    def run(reps, batch):
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(batch):
                fn()
            ts.append((time.perf_counter() - t0) / batch)
        return ts
    return run


def c_runner(server, key):
    def run(reps, batch):
        r = server.ask("run", key, reps, batch)
        if not r["ok"]:
            raise ServerError(r["error"])
        return r["times"]
    return run


class Suite:
    def __init__(self, build, size, out_dir):
        self.build = os.path.abspath(build)
        self.size = size
        self.plan = PLAN[size]
        self.out_dir = out_dir
        self.quiet = machine.Quiet()
        b = os.path.join(self.build, "bench")
        self.ufjit = start(os.path.join(b, "bench_ufjit"))
        if self.ufjit is None:
            sys.exit(f"bench: {b}/bench_ufjit is not built")
        passive = {"OMP_WAIT_POLICY": "passive"}
        self.stream = start(os.path.join(b, "bench_stream"), passive)
        self.mvec = start(os.path.join(b, "bench_mvec"), passive)
        self.cli = os.path.join(self.build, "cli", "ufjit")
        self.errors = []
        self.results = []
        self.limits = {}
        self.limit_what = {}  # case: what its libmvec loop computes
        self.misc = {}
        self.busy_cpu = self.busy_wall = 0.0  # harness_busy's totals
        self.tmp = tempfile.mkdtemp(prefix="ufjit-bench-")

    def servers(self):
        return [s for s in (self.ufjit, self.stream, self.mvec) if s]

    def close(self):
        for s in self.servers():
            rc = s.close()
            if rc != 0:
                self.errors.append(f"{s.name} exited with status {rc}")
        shutil.rmtree(self.tmp, ignore_errors=True)

    # ---- the limits ----------------------------------------------------
    def limits_table(self, n_case):
        p = self.plan
        if self.stream:
            r = self.stream.ask("setup", p["stream_n"])
            if r["ok"]:
                self.limits["stream"] = {
                    t: self.stream.ask("run", t, p["stream_reps"])
                    for t in (1, 2)}
            else:
                self.limits["stream_error"] = r["error"]
        else:
            self.limits["stream_error"] = "bench_stream not built (OpenMP?)"
        mv = {}
        # the widest ISA's loops (the cases' limits), and on an AVX-512 CPU
        # the AVX2 loops too: the limit an AVX2-only CPU of the family has
        for isa in ("", "isa=avx2"):
            for kern, lo, hi in (("sin", 0, 10), ("exp", -5, 5)):
                for dt in ("float64", "float32"):
                    if not self.mvec:
                        break
                    r = self.mvec.ask("setup", kern, dt,
                                      f"lin/{lo}/{hi}/{n_case}",
                                      *([isa] if isa else []))
                    if not r["ok"]:
                        self.limits["mvec_error"] = r["error"]
                        break
                    name = r.get("isa", "avx512").upper().replace(
                        "AVX512", "AVX-512")
                    mv[f"{kern} {dt} ({name})"] = {
                        t: self.mvec.ask("run", t, p["stream_reps"])["times"]
                        for t in (1, 2)}
            if not any(k.endswith("(AVX-512)") for k in mv):
                break
        if not self.mvec:
            self.limits["mvec_error"] = "bench_mvec not built (OpenMP?)"
        self.limits["mvec"] = mv
        self.limits["mvec_n"] = n_case

    def limit_sampler(self, case, ins, ref):
        """A function of reps giving {threads: times} for the case's limit
        (None when it has none), and a note when it is unavailable."""
        if case.limit in STREAM_KERNEL:
            # the time the case's bytes take at the bandwidth of STREAM's
            # triad, of its read-only sum for reductions, or of its
            # write-only kernel for broadcasting
            if not self.stream or "stream" not in self.limits:
                return None, self.limits.get("stream_error")
            nbytes = case_bytes(case)
            kern = STREAM_KERNEL[case.limit]

            def sample(reps):
                out = {}
                for t in (1, 2):
                    r = self.stream.ask("run", t, reps, kern)[kern]
                    out[t] = [nbytes * tt / r["bytes"] for tt in r["times"]]
                return out
            return sample, None
        if case.limit and case.group == "elementwise":
            if not self.mvec:
                return None, self.limits.get("mvec_error")
            r = self.mvec.ask("setup", case.limit, case.dtype,
                              *[op.spec() for op in case.ops])
            if not r["ok"]:
                return None, r["error"]
            if not same(r["checksum"], ref, case.dtype):
                self.errors.append(f"{case.name}: the libmvec limit loop "
                                   "disagrees with NumPy")
                return None, "the libmvec loop's result is wrong"
            self.limit_what[case.name] = r.get("what", "?")
            return (lambda reps: {t: self.mvec.ask("run", t, reps)["times"]
                                  for t in (1, 2)}), None
        return None, None

    # ---- one case ------------------------------------------------------
    def prep_ufjit(self, case, ref, contenders, status):
        specs = [op.spec() for op in case.ops]
        shapes = [C.shape_spec(s) for s in case.outs]
        r = self.ufjit.ask("case", case.dtype, len(specs), *specs,
                           len(shapes), *shapes)
        if not r["ok"]:
            self.errors.append(f"{case.name}: bench_ufjit: {r['error']}")
            status["ufjit"] = {"status": "error", "note": r["error"]}
            return
        key = 0
        # `ufjit T` is ufjit's default, libmvec on (set explicitly, as
        # UFJIT_ENABLE_LIBMVEC=1); `ufjit T libm` turns it off
        # (UFJIT_ENABLE_LIBMVEC=0), for the cases it can change
        mvecs = (1, 0) if case.bound == "transcendental" else (1,)
        for way in case.ways():
            for target, threads in (("cpu", 1), ("parallel", 2)):
                for mvec in mvecs:
                    label = "ufjit " + target
                    if way.label:
                        label += " " + way.label
                    if not mvec:
                        label += " " + LIBM
                    r = self.ufjit.ask(
                        "prep", key, os.path.join(HERE, way.file),
                        way.kernel, target, mvec, threads, way.mode, way.axes)
                    if r["ok"] and not same(r["checksum"], ref, case.dtype):
                        status[label] = {"status": "wrong", "note":
                                         f"checksum {r['checksum']} != "
                                         f"NumPy's {ref}"}
                        self.errors.append(f"{case.name}: {label} computes "
                                           "a wrong result")
                    elif r["ok"]:
                        status[label] = {"status": "ok",
                                         "first_s": r["first_s"]}
                        contenders[label] = c_runner(self.ufjit, key)
                    elif r.get("code") == UNSUPPORTED:
                        status[label] = {"status": "unavailable",
                                         "note": r["error"]}
                    else:
                        status[label] = {"status": "error",
                                         "note": r["error"]}
                        self.errors.append(f"{case.name}: {label}: "
                                           f"{r['error']}")
                    key += 1

    def run_case(self, case):
        p = self.plan
        rounds = p["r_rounds"] if case.group == "reduce" else p["rounds"]
        reps = p["o_reps"] if case.group == "overhead" else p["reps"]
        ins = [op.make(case.dtype) for op in case.ops]
        outs = [np.empty(s, dtype=case.dtype) for s in case.outs]
        case.numpy(*ins, *outs)
        ref = [checksum(o) for o in outs]
        contenders, status = {}, {}
        self.prep_ufjit(case, ref, contenders, status)
        try:
            builders = peers.builders(case, ins, outs)
        except Exception as e:  # a peer that cannot even be set up
            builders = {}
            self.errors.append(f"{case.name}: peers: {e}")
        for label, fn in builders.items():
            for o in outs:
                o.fill(np.nan)
            try:
                t0 = time.perf_counter()
                fn()
                first = time.perf_counter() - t0
            except Exception as e:
                status[label] = {"status": "error", "note": str(e)[:300]}
                self.errors.append(f"{case.name}: {label}: {e}")
                continue
            got = [checksum(o) for o in outs]
            if not same(got, ref, case.dtype):
                status[label] = {"status": "wrong",
                                 "note": f"checksum {got} != {ref}"}
                self.errors.append(f"{case.name}: {label} disagrees with "
                                   "numpy")
                continue
            status[label] = {"status": "ok", "first_s": first}
            contenders[label] = py_runner(fn)
        for label in peers.missing():
            status[f"{label} (all)"] = {"status": "missing",
                                        "note": f"{label} is not installed"}
        # a slow contender gets fewer calls per timing and fewer timings per
        # round (at least one), so that slow peers do not make the run long
        reps_of = {}
        for label, run in list(contenders.items()):
            try:
                warm = max(run(1, 1)[0], 1e-9)
            except ServerError as e:
                status[label] = {"status": "error", "note": str(e)}
                self.errors.append(f"{case.name}: {label}: {e}")
                del contenders[label]
                continue
            batch = max(1, min(case.batch, int(p["budget"] / reps / warm)))
            reps_of[label] = (max(1, min(reps, int(p["budget"] /
                                                   (warm * batch)))), batch)
        sampler, limit_note = self.limit_sampler(case, ins, ref)
        waits0 = self.waits()
        times = {label: [] for label in contenders}
        limit = {1: [], 2: []}
        order = list(contenders)
        # round -1 is a warm-up, untimed: a whole round of every contender
        # and of the limit, so that what the first timed round would pay
        # (first touch of pages, caches, thread pools waking, the clock
        # rising) is paid by nobody (the first case of a full run measured
        # 32.9 ms on ufjit cpu without it, 21.4 ms run alone)
        for r in range(-1, rounds):
            warmup = r < 0
            # rotate the order too, so that no contender always goes first
            for label in order[r % len(order):] + order[:r % len(order)]:
                try:
                    ts = contenders[label](*reps_of[label])
                    if not warmup:
                        times[label] += ts
                except ServerError as e:
                    status[label] = {"status": "error", "note": str(e)}
                    self.errors.append(f"{case.name}: {label}: {e}")
                    order.remove(label)
                    del times[label]
                    break
            if sampler:
                for t, ts in sampler(reps).items():
                    if not warmup:
                        limit[t] += ts
        for label, ts in times.items():
            status[label]["times"] = ts
        busy = self.harness_busy(waits0)
        self.ufjit.ask("case", case.dtype, 0, 0)  # frees its arrays
        self.quiet.sample()
        res = {"name": case.name, "group": case.group, "dtype": case.dtype,
               "bound": case.bound, "bytes": case_bytes(case),
               "contenders": status, "limit_note": limit_note,
               "limit_kind": case.limit,
               "limit_what": self.limit_what.get(case.name),
               "harness_busy": busy}
        if sampler:
            res["limit"] = limit
        self.results.append(res)
        print(f"bench: {case.name}: " + ", ".join(
            f"{k} {1e3 * np.median(v['times']):.3g} ms"
            for k, v in status.items() if v.get("times")) +
            (f" (run.py's peer threads used {100 * busy:.0f}% of a CPU "
             "during the C programs' rounds)" if busy > 0.05 else ""),
            flush=True)

    def waits(self):
        return [(s.wait_cpu, s.wait_wall) for s in self.servers()]

    def harness_busy(self, waits0):
        """The CPU this process's other threads used while the main one
        waited for the C programs' rounds since waits0 (self.waits()), per
        second of waiting: ~0 when the peers' thread pools sleep then, up
        to 1 when one of their threads spins through the C programs'
        rounds (taking a CPU)."""
        cpu = wall = 0.0
        for (c0, w0), (c1, w1) in zip(waits0, self.waits()):
            cpu += c1 - c0
            wall += w1 - w0
        self.busy_cpu += cpu
        self.busy_wall += wall
        return cpu / wall if wall > 0 else 0.0

    # ---- compile, cache, process ---------------------------------------
    def compile_times(self):
        rounds = self.plan["c_rounds"]
        out = {}
        seq = 0
        numba_ok = "numba" not in peers.missing()
        todo = C.COMPILE[:1] if self.size == "smoke" else C.COMPILE
        for kname, dt, template in todo:
            rec = out.setdefault(f"{kname} {dt}", {"ufjit": [], "numba": [],
                                                   "note": None})
            for _ in range(rounds):
                seq += 1
                name = f"{kname}_b{os.getpid()}_{seq}"
                src = C.COMPILE_HEADER + template.format(name=name)
                path = os.path.join(self.tmp, f"{name}.py")
                with open(path, "w") as f:
                    f.write(src)
                r = self.ufjit.ask("compile", path, name, dt)
                if r["ok"]:
                    rec["ufjit"].append(r["load_s"] + r["first_s"] -
                                        r["warm_s"])
                else:
                    rec["note"] = r["error"]
                    self.errors.append(f"compile {kname}: {r['error']}")
                if numba_ok:
                    ns = {"__name__": name}
                    t0 = time.perf_counter()
                    exec(compile(src, path, "exec"), ns)
                    rec["numba"].append(time.perf_counter() - t0)
        self.misc["compile"] = out

    def numba_first_compile(self):
        script = (
            "import json, time\nt0 = time.perf_counter()\nimport numba\n"
            "t1 = time.perf_counter()\n"
            "def f(x, y):\n    return 2 * (x - y) / (x + y)\n"
            "numba.vectorize(['float64(float64, float64)'])(f)\n"
            "t2 = time.perf_counter()\n"
            "print(json.dumps([t1 - t0, t2 - t1]))\n")
        imp, first = [], []
        if "numba" in peers.missing():
            return
        for _ in range(max(1, self.plan["c_rounds"] // 2)):
            r = subprocess.run([sys.executable, "-c", script],
                               capture_output=True, text=True)
            if r.returncode == 0:
                a, b = json.loads(r.stdout.strip().splitlines()[-1])
                imp.append(a)
                first.append(b)
        self.misc["numba_import"] = imp
        self.misc["numba_first_compile"] = first

    def cache_times(self):
        """A new context's first call with UFJIT_CACHE_DIR empty (cold)
        and again once the directory holds the kernel (a hit)."""
        cold, hit, files = [], [], 0
        note = None
        for i in range(self.plan["c_rounds"]):
            d = tempfile.mkdtemp(dir=self.tmp)
            name = f"cache_b{os.getpid()}_{i}"
            path = os.path.join(self.tmp, f"{name}.py")
            with open(path, "w") as f:
                f.write(C.COMPILE_HEADER + C.COMPILE[0][2].format(name=name))
            r1 = self.ufjit.ask("cachehit", path, name, "float64", d)
            files = sum(len(fs) for _, _, fs in os.walk(d))
            r2 = self.ufjit.ask("cachehit", path, name, "float64", d)
            if not (r1["ok"] and r2["ok"]):
                note = (r1 if not r1["ok"] else r2)["error"]
                break
            cold.append(r1["load_s"] + r1["first_s"])
            hit.append(r2["load_s"] + r2["first_s"])
        self.misc["cache"] = {"cold": cold, "hit": hit, "files": files,
                              "note": note}

    def process_times(self):
        """Whole processes on 1000 elements: `ufjit call` with a warm disk
        cache, and Python + Numba with cache=True."""
        reps = self.plan["p_reps"]
        a, b, o = (os.path.join(self.tmp, x) for x in
                   ("a.npy", "b.npy", "o.npy"))
        np.save(a, np.linspace(1, 2, 1000))
        np.save(b, np.linspace(2, 3, 1000))
        cache = os.path.join(self.tmp, "cli-cache")
        env = clean_env({"UFJIT_CACHE_DIR": cache})
        kern = os.path.join(HERE, "kernels.py")
        cmd = [self.cli, "call", kern, "rel_diff", a, b, "-o", o]
        nbdir = os.path.join(self.tmp, "nb")
        os.makedirs(nbdir, exist_ok=True)
        with open(os.path.join(nbdir, "nbk.py"), "w") as f:
            f.write("from numba import vectorize\n\n\n"
                    "@vectorize(['float64(float64, float64)'], cache=True)\n"
                    "def rel_diff(x, y):\n    return 2 * (x - y) / (x + y)\n")
        nbcmd = [sys.executable, "-c",
                 "import sys; sys.path.insert(0, sys.argv[1])\n"
                 "import numpy as np, nbk\n"
                 "np.save(sys.argv[4], nbk.rel_diff(np.load(sys.argv[2]), "
                 "np.load(sys.argv[3])))", nbdir, a, b, o]
        runs = {"ufjit call": (cmd, env)}
        if "numba" not in peers.missing() and self.size != "smoke":
            runs["python + numba (cache=True)"] = (nbcmd, None)
        out = {k: [] for k in runs}
        notes = {}
        for k, (c, e) in runs.items():  # warm the caches
            if not os.path.exists(c[0]):
                notes[k] = f"{c[0]} not built"
                continue
            r = subprocess.run(c, capture_output=True, text=True, env=e)
            if r.returncode != 0:
                notes[k] = (r.stderr or r.stdout).strip()[:300]
        for _ in range(reps):
            for k, (c, e) in runs.items():
                if k in notes:
                    continue
                t0 = time.perf_counter()
                subprocess.run(c, capture_output=True, env=e)
                out[k].append(time.perf_counter() - t0)
        files = sum(len(fs) for _, _, fs in os.walk(cache))
        self.misc["process"] = {"times": out, "notes": notes,
                                "cache_files": files}

    def other_programs(self):
        """Other areas' benchmark programs, run by name when built; JSON
        lines they print become a table, anything else is quoted."""
        reps = self.plan["extra_reps"]
        n = 10_000_000 if self.size == "full" else 1_000_000
        progs = {"bench_compile": [str(reps), self.cli],
                 "bench_parallel": [str(n), str(reps)],
                 "bench_bounds": []}
        out = {}
        env = clean_env({"BENCH_QUICK": "1" if self.size != "full"
                         else "0"})
        for name, args in progs.items():
            path = os.path.join(self.build, "bench", name)
            if not os.path.exists(path):
                continue
            try:
                r = subprocess.run([path] + args, capture_output=True,
                                   text=True, timeout=600, env=env)
                rows, raw = [], []
                for line in r.stdout.splitlines():
                    try:
                        obj = json.loads(line)
                        if isinstance(obj, dict):
                            rows.append(obj)
                            continue
                    except ValueError:
                        pass
                    raw.append(line)
                out[name] = {"status": r.returncode, "rows": rows,
                             "raw": "\n".join(raw)[-3000:],
                             "stderr": r.stderr[-1500:]}
            except subprocess.TimeoutExpired:
                out[name] = {"status": "timeout", "rows": [], "raw": "",
                             "stderr": ""}
        self.misc["others"] = out


def case_bytes(case):
    """Bytes a pass moves (inputs read, outputs written): a strided view
    counts its whole base array, since every cache line is read."""
    item = np.dtype(case.dtype).itemsize
    total = 0
    for op in case.ops:
        if isinstance(op, C.Lin):
            total += math.prod(op.shape) * item
    for s in case.outs:
        total += math.prod(s) * item
    return total


def versions():
    out = {"numpy": np.__version__}
    for name in ("numba", "numexpr", "matplotlib"):
        try:
            out[name] = __import__(name).__version__
        except ImportError:
            out[name] = None
    return out


def step(fn, *args):
    t0 = time.perf_counter()
    fn(*args)
    what = args[0].name if args and hasattr(args[0], "name") else \
        fn.__name__
    print(f"bench: [{time.perf_counter() - t0:.1f} s] {what}", flush=True)


def ufjit_info(cli):
    """ufjit's version and threading layer, from `ufjit sysinfo`."""
    keys = ("Version", "Build", "Layer in use", "Threads")
    try:
        out = subprocess.run([cli, "sysinfo"], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown (ufjit sysinfo failed)"
    got = {}
    for line in out.splitlines():
        k, _, v = line.partition(":")
        if k.strip() in keys:
            got.setdefault(k.strip(), v.strip())
    return "; ".join(f"{k.lower()} {got[k]}" for k in keys if k in got)


def default_out(build, size, only):
    """Where RESULTS.md and its chart go without --out: bench/ only for
    a full run of every case (the committed results); a smoke run under
    BUILD/bench-smoke, any other partial run (--only, --quick) under
    BUILD/bench-partial, so that it never overwrites the committed ones."""
    if size == "smoke":
        return os.path.join(os.path.abspath(build), "bench-smoke")
    if size != "full" or only is not None:
        return os.path.join(os.path.abspath(build), "bench-partial")
    return HERE


def main(argv):
    build = argv[0]
    size = ("smoke" if "--smoke" in argv else
            "quick" if "--quick" in argv or
            os.environ.get("BENCH_QUICK", "0") not in ("", "0") else "full")
    only = SMOKE_CASES if size == "smoke" else None
    if "--only" in argv:
        only = argv[argv.index("--only") + 1]
    out_dir = default_out(build, size, only)
    if "--out" in argv:
        out_dir = argv[argv.index("--out") + 1]
    t_start = time.time()
    suite = Suite(build, size, out_dir)
    os.makedirs(out_dir, exist_ok=True)
    try:
        todo = [c for c in C.cases(size)
                if only is None or re.search(only, c.name)]
        for s in suite.servers():
            suite.quiet.watch(s.pid)
        suite.quiet.start()
        n_case = next((math.prod(c.outs[0]) for c in todo
                       if c.group == "elementwise"), 1000)
        step(suite.limits_table, n_case)
        for case in todo:
            step(suite.run_case, case)
        # --only runs the cases it names and nothing else
        phases = [] if "--only" in argv else [
            suite.compile_times, suite.cache_times, suite.process_times]
        if size != "smoke" and "--only" not in argv:
            # seconds each, and nothing of the harness's
            phases += [suite.numba_first_compile, suite.other_programs]
        for phase in phases:
            step(phase)
        quiet = suite.quiet.stop()
    except ServerError as e:
        suite.close()
        sys.exit(f"bench: {e}")
    suite.close()
    meta = {"size": size, "only": None if size == "smoke" else only,
            "plan": suite.plan, "pyenv":
            os.environ.get("BENCH_PYENV", "?"), "versions": versions(),
            "numba_layer": peers.numba_threading_layer(),
            "numba_tbb": servers.loaded_tbb(),
            "harness_busy": suite.busy_cpu / max(suite.busy_wall, 1e-9),
            "ufjit": ufjit_info(suite.cli),
            "missing": peers.missing(), "quiet": quiet,
            "machine": machine.describe(), "family": machine.family(),
            "started": t_start,
            "errors": suite.errors}
    raw = {"meta": meta, "limits": suite.limits, "results": suite.results,
           "misc": suite.misc}
    # a partial run keeps its raw samples next to its RESULTS.md, so the
    # last full run's stay in BUILD/bench-results.json
    raw_dir = os.path.abspath(build) if out_dir == HERE else out_dir
    with open(os.path.join(raw_dir, "bench-results.json"), "w") as f:
        json.dump(raw, f, indent=1, default=str)
    report.write(raw, out_dir)
    if suite.errors:
        print("bench: errors:\n  " + "\n  ".join(suite.errors))
        return 1
    return 0
