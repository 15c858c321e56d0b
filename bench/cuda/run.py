#!/usr/bin/env python3
"""The CUDA benchmarks of issue 14 (the CUDA section of `make bench`).

usage: run.py [BUILD_OR_KIT] [--out DIR] [--quick] [--python PY] [--no-gpu]
              [--no-static] [--cases NAME,...]

Here, without a GPU (needs ptxas; the peer needs numba-cuda):
  - registers, PTX instructions (in the .entry body) and spills, from
    `ptxas -arch=sm_80 -v`, of each kernel of bench/cuda/kernels.py: ufjit
    (`ufjit inspect --ptx --signature`, libnvvm and UFJIT_CUDA_BACKEND=
    nvptx: the 64-bit-index contiguous kernel; cuda_compile's 32-bit-index
    one, which a call on fewer than 2**31 elements runs) beside numba-cuda's
    compile_ptx of the kernel its own @vectorize builds (peers.py), and of
    a grid-stride kernel over C-contiguous arrays (ufjit's loop shape);
  - the compile time of one more CUDA signature in-process (cuda_compile:
    typing, lowering + libnvvm; the NVPTX fallback beside it), goal 30 ms.
On a GPU (cuda_bench sees a device): every elementwise case through the C
API on device arrays, numba-cuda's vectorize and CuPy's ElementwiseKernel
of the same expression (peers.py gpu), the triad against a device-to-
device copy, a 10-element call against a bare launch of an empty kernel.
Whatever is missing (ptxas, numba-cuda, CuPy, a GPU) is said and skipped.

BUILD_OR_KIT: a build tree (programs in cli/, bench/) or a GPU kit (bin/);
default $UFJIT_KIT (scripts/gpu-check.sh sets it, with UFJIT_BIN and
UFJIT_BENCH_OUT), else ./build. Results: Markdown on stdout and in
OUT/CUDA_RESULTS.md, GPU figures (only when a GPU ran them) in
OUT/GPU_RESULTS.md, raw figures in OUT/cuda-results.json. OUT: --out,
else $UFJIT_BENCH_OUT, else bench/ for a full run from a build tree and
BUILD/bench-partial for --quick or --cases (only the kernels named, of
kernels.py, e.g. --cases matvec,matmul). The Python with numba-cuda / CuPy:
--python, else $BENCH_CUDA_PYTHON, else BUILD/bench-venv's, else this one.
"""
import datetime
import importlib.util
import json
import os
import platform
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "kernels.py")
SM = "sm_80"
REG_GOAL_NOTE = "no more registers than numba-cuda"
COMPILE_GOAL_MS = 30.0

F32 = "float32"
F64 = "float64"


def vsig(dt, nin):
    return "%s(%s)" % (dt, ", ".join([dt] * nin))


# (name, kind, signature per dtype)
CASES = [
    ("triad", "vectorize", {d: vsig(d, 2) for d in (F32, F64)}),
    ("rel_diff", "vectorize", {d: vsig(d, 2) for d in (F32, F64)}),
    ("gaussian_pdf", "vectorize", {d: vsig(d, 3) for d in (F32, F64)}),
    ("polar_distance", "vectorize", {d: vsig(d, 4) for d in (F32, F64)}),
    ("sine", "vectorize", {d: vsig(d, 1) for d in (F32, F64)}),
    ("matvec", "guvectorize",
     {d: "void(%s[:,:], %s[:], %s[:])" % (d, d, d) for d in (F32, F64)}),
    ("matmul", "guvectorize",
     {d: "void(%s[:,:], %s[:,:], %s[:,:])" % (d, d, d) for d in (F32, F64)}),
    ("hypot_kernel", "cuda.jit",
     {d: "void(%s[::1], %s[::1], %s[::1])" % (d, d, d) for d in (F32, F64)}),
    ("tile_transpose", "cuda.jit",
     {"int32": "void(int32[:, ::1], int32[:, ::1])"}),
    ("fast_matmul", "cuda.jit",
     {F32: "void(float32[:, ::1], float32[:, ::1], float32[:, ::1])"}),
    ("histogram", "cuda.jit",
     {F32: "void(float32[::1], float32, float32, int32[::1])"}),
    ("warp_sum", "cuda.jit",
     {d: "void(%s[::1], %s[::1])" % (d, d) for d in (F32, F64)}),
]


def tag(sig):
    return "-".join(re.findall(r"[a-z0-9]+", sig))


# ---- PTX and ptxas -----------------------------------------------------

def entry_instructions(ptx, entry=None):
    """Instructions in the .entry bodies (only `entry`'s when given;
    labels, directives, comments and braces left out); the .func bodies'
    count separately."""
    counts = {"entry": 0, "func": 0}
    kind, depth = None, 0
    for raw in ptx.splitlines():
        line = raw.split("//")[0].strip()
        if not line:
            continue
        if depth == 0:
            m = re.match(r"^(?:\.visible\s+|\.weak\s+)?\.(entry|func)\b", line)
            if m:
                kind = m.group(1)
                if kind == "entry" and entry and \
                        not re.search(r"\.entry\s+%s\b" % entry, line):
                    kind = "other"
        if "{" in line:
            depth += line.count("{")
        if "}" in line:
            depth -= line.count("}")
            if depth == 0:
                kind = None
            continue
        if depth >= 1 and kind in counts and not line.startswith(".") \
                and not line.endswith(":") and line != "{":
            counts[kind] += 1
    return counts


def ptxas(exe, ptx_text, entry=None):
    """{regs, spill_st, spill_ld, stack} of the PTX's entry (`entry`, else
    the last one ptxas compiled), or {error}."""
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(ptx_text)
        path = f.name
    try:
        r = subprocess.run([exe, "-arch=" + SM, "-v", path, "-o", os.devnull],
                           capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(path)
    if r.returncode != 0:
        return {"error": (r.stderr or r.stdout).strip()[:300]}
    return parse_ptxas(r.stdout + r.stderr, entry)


def parse_ptxas(log, want=None):
    """The entry function's figures from ptxas -v's log."""
    entry, cur, per = None, None, {}
    for line in log.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            entry = cur = m.group(1)
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            cur = m.group(1)
        d = per.setdefault(cur, {})
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                      r"(\d+) bytes spill loads", line)
        if m:
            d.update(stack=int(m.group(1)), spill_st=int(m.group(2)),
                     spill_ld=int(m.group(3)))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            d["regs"] = int(m.group(1))
    out = dict(per.get(want or entry, {}))
    if "regs" not in out:
        return {"error": "no register count in ptxas' log"}
    return out


def figures(exe, ptx_text, entry=None):
    f = ptxas(exe, ptx_text, entry)
    if "error" not in f:
        c = entry_instructions(ptx_text, entry)
        f["instr"] = c["entry"]
        f["func_instr"] = c["func"]
    return f


def inspect_ptx(ufjit, name, sig, backend):
    """The PTX `ufjit inspect --ptx` prints, or (None, why)."""
    env = dict(os.environ)
    env["UFJIT_CUDA_BACKEND"] = backend
    r = subprocess.run([ufjit, "inspect", KERNELS, name, "--ptx",
                        "--signature", sig], capture_output=True, text=True,
                       env=env, timeout=300)
    if r.returncode != 0:
        why = (r.stderr or r.stdout).strip().splitlines()
        return None, why[-1] if why else "exit %d" % r.returncode
    m = re.search(r"^// PTX \(([^)]*)\)\n(.*?)^// ptxas", r.stdout,
                  re.S | re.M)
    if not m:
        m = re.search(r"^// PTX \(([^)]*)\)\n(.*)", r.stdout, re.S | re.M)
    if not m:
        return None, "no PTX in inspect's output"
    return m.group(2), m.group(1)


# ---- finding things ----------------------------------------------------

def find_program(root, name):
    if name == "ufjit" and os.environ.get("UFJIT_BIN"):
        return os.environ["UFJIT_BIN"]
    for sub in ("bin", "bench", "cli", "."):
        p = os.path.join(root, sub, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def find_ptxas():
    for base in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
                 "/usr/local/cuda"):
        if base and os.access(os.path.join(base, "bin", "ptxas"), os.X_OK):
            return os.path.join(base, "bin", "ptxas")
    return shutil.which("ptxas")


def has_module(py, mod):
    if py == sys.executable:
        return importlib.util.find_spec(mod) is not None
    r = subprocess.run([py, "-c", "import importlib.util, sys; sys.exit("
                        "importlib.util.find_spec(%r) is None)" % mod],
                       capture_output=True)
    return r.returncode == 0


def peer_python(root, given, mods):
    cands = [given, os.environ.get("BENCH_CUDA_PYTHON"),
             os.path.join(root, "bench-venv", "bin", "python"),
             sys.executable]
    for py in cands:
        if py and os.path.exists(py) and any(has_module(py, m) for m in mods):
            return py
    return None


def run_json(cmd, timeout, env=None):
    """The JSON lines a program prints (non-JSON lines dropped), and its
    stderr's tail when it failed."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return [], "timed out after %d s" % timeout
    except OSError as e:
        return [], str(e)
    rows = []
    for line in r.stdout.splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            pass
    why = None
    if r.returncode != 0:
        why = "exit %d: %s" % (r.returncode, r.stderr.strip()[-300:])
    return rows, why


# ---- the static part ----------------------------------------------------

def static_part(root, ptxdir, py, quick, res):
    ufjit = find_program(root, "ufjit")
    compiler = find_program(root, "cuda_compile")
    exe = find_ptxas()
    res["ptxas"] = exe
    if not exe:
        res["static_skip"] = "no ptxas (CUDA toolkit) found"
        return
    if not ufjit:
        res["static_skip"] = "no ufjit program under %s" % root
        return
    pairs = [(n, s) for n, _, sigs in CASES for s in sigs.values()]
    # numba-cuda's PTX
    if py:
        env = dict(os.environ)
        env.setdefault("CUDA_HOME", os.path.dirname(os.path.dirname(exe)))
        rows, why = run_json([py, os.path.join(HERE, "peers.py"), "ptx",
                              KERNELS, ptxdir] +
                             [x for p in pairs for x in p], 900, env)
        peer = [r for r in rows if "peer" in r]
        res["numba_cuda"] = peer[0] if peer else {"error": why}
        res["numba_errors"] = {"%s %s" % (r["name"], r["signature"]):
                               r["error"] for r in rows if "error" in r
                               and "name" in r}
        if not peer and rows and "error" in rows[0]:
            res["numba_cuda"] = {"error": rows[0]["error"]}
    else:
        res["numba_cuda"] = {"error": "numba-cuda is not installed (pip "
                             "install numba-cuda; --python PY)"}
    # ufjit's 32-bit-index PTX and compile times
    res["compile"] = []
    vpairs = [(n, s) for n, k, sigs in CASES
              if k in ("vectorize", "cuda.jit") for s in sigs.values()]
    if compiler and vpairs:
        rows, why = run_json([compiler, KERNELS, "--reps",
                              "5" if quick else "15", "--ptx", ptxdir] +
                             [x for p in vpairs for x in p], 900)
        res["compile"] = rows
        if why:
            res["compile_error"] = why
    elif not compiler:
        res["compile_error"] = "no cuda_compile program under %s" % root
    # the table
    res["ptx"] = []
    for name, kind, sigs in CASES:
        for dt, sig in sigs.items():
            row = {"name": name, "kind": kind, "dtype": dt, "sig": sig}
            base = os.path.join(ptxdir, "%s.%s" % (name, tag(sig)))
            for backend in ("libnvvm", "nvptx"):
                if kind == "cuda.jit":  # one listing, from cuda_compile
                    p = base + ".%s.c.ptx" % backend
                    row[backend + "_i64"] = figures(exe, open(p).read()) \
                        if os.path.exists(p) else \
                        {"error": "cuda_compile wrote no %s" % p}
                    continue
                text, note = inspect_ptx(ufjit, name, sig, backend)
                key = backend + "_i64"
                if text is None:
                    row[key] = {"error": note}
                    continue
                if kind == "guvectorize":
                    # one listing: the general kernel, then the
                    # C-contiguous 32-bit-index one
                    names = re.findall(r"\.entry\s+(\w+)\(", text)
                    for k, e in (("_i64", r"_gs$"), ("_i32", r"_gsc_i32$")):
                        hit = [n for n in names if re.search(e, n)]
                        row[backend + k] = figures(exe, text, hit[0]) if hit \
                            else {"error": "no %s kernel in the listing" % e}
                        row[backend + k]["by"] = note
                    continue
                row[key] = figures(exe, text)
                row[key]["by"] = note
                p = base + ".%s.c_i32.ptx" % backend
                if os.path.exists(p):
                    row[backend + "_i32"] = figures(exe, open(p).read())
            for peer in ("numba", "numba_gs"):
                p = base + ".%s.ptx" % peer
                if os.path.exists(p):
                    row[peer] = figures(exe, open(p).read())
            res["ptx"].append(row)


def cell(f):
    if f is None:
        return "-"
    if "error" in f:
        return "not yet" if re.search(r"vectorize kernels|not yet|no other "
                                      r"kind", f["error"]) else "error"
    s = "%d / %d" % (f["regs"], f["instr"])
    spill = f.get("spill_st", 0) + f.get("spill_ld", 0)
    if spill:
        s += " (spills %d+%d B)" % (f["spill_st"], f["spill_ld"])
    if f.get("func_instr"):
        s += " +%d in .func" % f["func_instr"]
    return s


def ratio(a, b):
    if not a or not b or "regs" not in a or "regs" not in b:
        return "-"
    return "%.2f" % (a["regs"] / b["regs"])


def static_markdown(res):
    out = []
    nc = res.get("numba_cuda", {})
    peer = ("numba-cuda %s (numba %s)" % (nc["version"], nc["numba"])
            if "version" in nc else "numba-cuda: %s" % nc.get("error"))
    out.append("## PTX: registers / instructions against numba-cuda\n")
    if res.get("static_skip"):
        out.append("Not measured: %s.\n" % res["static_skip"])
        return "\n".join(out)
    out.append(
        "`ptxas -arch=%s -v` (%s) on each kernel's PTX for compute_80: "
        "registers / PTX instructions in the `.entry` body (labels and "
        "directives not counted), spills when any. ufjit: the contiguous "
        "kernel of `ufjit inspect --ptx` (64-bit indexes, `i64`) and the "
        "32-bit-index variant a call on fewer than 2**31 elements runs "
        "(`i32`, from cuda_compile), through libnvvm and through LLVM 14's "
        "NVPTX backend (UFJIT_CUDA_BACKEND=nvptx). Peer: %s, "
        "`compile_ptx` of the kernel its `@vectorize(target='cuda')` builds "
        "(one element per thread, `if i < n`, arrays typed `dtype[:]`: "
        "any layout, 64-bit strides) and, `numba gs`, of a grid-stride "
        "loop over C-contiguous arrays around the same function (ufjit's "
        "loop shape). guvectorize rows: ufjit i64 is the general kernel of "
        "`ufjit inspect --ptx` (one loop axis, core views of any strides, "
        "64-bit indexes) and i32 the C-contiguous 32-bit-index kernel of the "
        "same listing (what a call on C-contiguous operands runs); the peer "
        "is the kernel numba-cuda's `@guvectorize(target='cuda')` builds. "
        "cuda.jit rows: the kernel as cuda_compile compiles it for the "
        "signature (i64: there are no variants), beside numba-cuda's "
        "`compile_ptx` of the same function and signature. "
        "Goal (issue 14): %s; `regs ratio` is ufjit libnvvm "
        "i32 over numba-cuda's vectorize kernel.\n"
        % (SM, res.get("ptxas"), peer, REG_GOAL_NOTE))
    out.append("| kernel | dtype | numba-cuda | numba gs | ufjit libnvvm "
               "i64 | ufjit libnvvm i32 | ufjit NVPTX i64 | ufjit NVPTX i32 "
               "| regs ratio | goal |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in res["ptx"]:
        best = r.get("libnvvm_i32") or r.get("libnvvm_i64")
        nb = r.get("numba")
        if best and "regs" in best and nb and "regs" in nb:
            goal = "met" if best["regs"] <= nb["regs"] else \
                "**missed** (+%d)" % (best["regs"] - nb["regs"])
        elif best and "error" in best:
            goal = "not yet"
        else:
            goal = "-"
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["name"], r["dtype"], cell(nb), cell(r.get("numba_gs")),
            cell(r.get("libnvvm_i64")), cell(r.get("libnvvm_i32")),
            cell(r.get("nvptx_i64")), cell(r.get("nvptx_i32")),
            ratio(best, nb), goal))
    notes = [r for r in res["ptx"] if "error" in (r.get("libnvvm_i64") or {})]
    if notes:
        out.append("\nNot compiled by ufjit for CUDA: " + "; ".join(
            "%s %s (%s)" % (r["name"], r["dtype"], r["libnvvm_i64"]["error"])
            for r in notes[:2]) + (" ..." if len(notes) > 2 else ""))
    if res.get("numba_errors"):
        out.append("\nnumba-cuda refused: " + "; ".join(
            "%s: %s" % kv for kv in res["numba_errors"].items()))
    out.append("")
    out.append("## Compile time of one more CUDA signature\n")
    out.append(
        "cuda_compile, in one process: typing the kernel for the signature "
        "in a fresh module, then lowering + libnvvm (with libdevice when "
        "the kernel calls math) to PTX of the 32-bit-index contiguous "
        "kernel; the NVPTX fallback beside it. Medians, ms, wall clock. "
        "Goal: lowering + libnvvm under %.0f ms.\n" % COMPILE_GOAL_MS)
    if res.get("compile_error"):
        out.append("cuda_compile: %s\n" % res["compile_error"])
    rows = [r for r in res.get("compile", []) if "name" in r]
    if rows:
        out.append("| kernel | signature | typing | lowering + libnvvm "
                   "| lowering + NVPTX | goal |")
        out.append("|---|---|---|---|---|---|")
        first = None
        for r in rows:
            if "error" in r:
                out.append("| %s | `%s` | %s | | | |" % (
                    r["name"], r["signature"], r["error"]))
                continue
            first = first or r.get("first_ms")
            nv = r.get("libnvvm_ms")
            goal = "-" if nv is None else (
                "met" if nv < COMPILE_GOAL_MS else "**missed**")
            out.append("| %s | `%s` | %.2f | %s | %s | %s |" % (
                r["name"], r["signature"], r["infer_ms"],
                "%.1f" % nv if nv is not None else r.get("libnvvm_error",
                                                          "-"),
                "%.1f" % r["nvptx_ms"] if "nvptx_ms" in r
                else r.get("nvptx_error", "-"), goal))
        if first:
            out.append("\nThe process's first libnvvm compile (libnvvm "
                       "loaded, its first program): %.1f ms." % first)
    return "\n".join(out) + "\n"


# ---- the GPU part -------------------------------------------------------

GPU_CASES = ["copy:float32", "copy:float64", "launch", "small:float32"] + \
    ["%s:%s" % (n, d) for n, k, _ in CASES if k != "cuda.jit"
     for d in (F32, F64)] + ["reduce:float64", "transpose:int32"]
REDUCE_GOAL = 1.2      # uf_reduce sum of 10**8 float64 / CUB's
TRANSPOSE_GOAL = 0.8   # tile transpose GB/s / device-to-device copy's


def cub_program(root, tmp):
    """CUB's DeviceReduce::Sum timer (cub_reduce.cu): a kit's bin/, else
    built here with the toolkit's nvcc; (path, None) or (None, why)."""
    kit = os.path.join(root, "bin", "cub_reduce")
    if os.access(kit, os.X_OK):
        return kit, None
    nvcc = shutil.which("nvcc") or os.path.join(
        os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "nvcc")
    if not os.access(nvcc, os.X_OK):
        return None, "no nvcc to build bench/cuda/cub_reduce.cu"
    exe = os.path.join(tmp, "cub_reduce")
    p = subprocess.run([nvcc, "-O3", "-std=c++17", "-arch=native", "-o", exe,
                        os.path.join(HERE, "cub_reduce.cu")],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        return None, "nvcc failed: %s" % (p.stderr or p.stdout)[-300:]
    return exe, None


def gpu_part(root, py, quick, res):
    bench = find_program(root, "cuda_bench")
    if not bench:
        res["gpu_skip"] = "no cuda_bench program under %s" % root
        return
    n, calls, rounds = (1 << 22, 10, 3) if quick else (1 << 24, 20, 5)
    rn, td = (10 ** 7, 2048) if quick else (10 ** 8, 8192)
    os.environ["BENCH_CUDA_REDUCE_N"] = str(rn)
    os.environ["BENCH_CUDA_TRANSPOSE_D"] = str(td)
    rows, why = run_json([bench, KERNELS, "--n", str(n), "--calls",
                          str(calls), "--rounds", str(rounds),
                          "--reduce-n", str(rn), "--transpose-d", str(td)] +
                         GPU_CASES, 600)
    if not rows:
        res["gpu_skip"] = "cuda_bench: %s" % why
        return
    if "skip" in rows[0]:
        res["gpu_skip"] = rows[0]["skip"]
        return
    res["gpu_device"] = rows[0]
    res["gpu_ufjit"] = rows[1:]
    if why:
        res["gpu_error"] = why
    if py:
        prow, pwhy = run_json([py, os.path.join(HERE, "peers.py"), "gpu",
                               KERNELS, str(n), str(calls), str(rounds)] +
                              GPU_CASES, 600)
        res["gpu_peers"] = prow
        if pwhy:
            res["gpu_peers_error"] = pwhy
    else:
        res["gpu_peers"] = [{"skip": "neither numba-cuda nor CuPy found"}]
    if rows[0].get("driver") != "cuda":
        return
    import tempfile
    exe, why = cub_program(root, tempfile.mkdtemp(prefix="ufjit-cub."))
    if exe:
        crow, why = run_json([exe, str(rn), str(calls), str(rounds)], 300)
        res["gpu_peers"] += crow
    if why:
        res["gpu_peers"].append({"peer": "cub", "skip": why})


def gbs(r):
    return r["bytes"] / (r["us"] * 1e-6) / 1e9 if r.get("us") else 0.0


def gpu_markdown(res):
    out = ["## On the GPU\n"]
    if "gpu_device" not in res:
        out.append("Not run: %s.\n" % res.get("gpu_skip", "no GPU"))
        return "\n".join(out)
    d = res["gpu_device"]
    if d.get("driver") != "cuda":
        out.append("**On %s, not a GPU: these figures check the harness "
                   "only.**\n" % d.get("driver"))
    out.append("Device: %s (cc %s, %s SMs). Each figure: the median of "
               "rounds of back-to-back calls on device arrays and one "
               "synchronize, per call; GB/s counts every input read once "
               "and the output written once.\n"
               % (d["device"], d["cc"], d["sms"]))
    for p in res.get("gpu_peers", []):
        if "skip" in p or ("peer" in p and "case" not in p):
            out.append("- %s: %s" % (p.get("peer", "peers"),
                                     p.get("skip") or p.get("version")))
    uf = {(r["case"], r.get("dtype", "")): r for r in res["gpu_ufjit"]}
    peers = {}
    for p in res.get("gpu_peers", []):
        if "case" in p:
            peers[(p["peer"], p["case"], p.get("dtype", ""))] = p
    out.append("")
    out.append("| case | dtype | ufjit us (GB/s) | numba-cuda us | CuPy us "
               "| ufjit / numba-cuda | ufjit / CuPy | checksums |")
    out.append("|---|---|---|---|---|---|---|---|")
    for (case, dt), r in uf.items():
        if case in ("copy", "launch", "reduce", "transpose"):
            continue
        if "us" not in r:
            out.append("| %s | %s | %s | | | | | |" % (
                case, dt, "not yet" if "unsupported" in r else
                "error: " + r.get("error", "")[:80]))
            continue
        nb = peers.get(("numba-cuda", case, dt), {})
        cp = peers.get(("cupy", case, dt), {})
        agree = []
        for name, p in (("numba-cuda", nb), ("CuPy", cp)):
            if "sum" in p:
                tol = 1e-3 if dt == F32 else 1e-6
                ok = all(abs(a - b) <= tol * max(1.0, abs(r["sum"][1]))
                         for a, b in zip(r["sum"], p["sum"]))
                agree.append(name + (" ok" if ok else " **differs**"))
        out.append("| %s | %s | %.2f (%.0f) | %s | %s | %s | %s | %s |" % (
            case, dt, r["us"], gbs(r),
            "%.2f" % nb["us"] if "us" in nb else nb.get("error", "-")[:40],
            "%.2f" % cp["us"] if "us" in cp else cp.get("error", "-")[:40],
            "%.2f" % (r["us"] / nb["us"]) if "us" in nb else "-",
            "%.2f" % (r["us"] / cp["us"]) if "us" in cp else "-",
            ", ".join(agree) or "-"))
    out.append("\nGoals (issue 14): every elementwise case no slower than "
               "numba-cuda and CuPy (ratios <= 1.00 above);")
    for dt in (F32, F64):
        t, c = uf.get(("triad", dt), {}), uf.get(("copy", dt), {})
        if "us" in t and "us" in c:
            f = gbs(t) / gbs(c)
            out.append("- triad %s at %.0f GB/s, cuMemcpyDtoD %.0f GB/s: "
                       "%.0f%% (goal >= 90%%: %s)" % (
                           dt, gbs(t), gbs(c), 100 * f,
                           "met" if f >= 0.9 else "**missed**"))
    s, ln = uf.get(("small", F32), {}), uf.get(("launch", ""), {})
    cl = peers.get(("cupy", "launch", ""), {})
    if "us" in s and "us" in ln:
        f = s["us"] / ln["us"]
        out.append("- a 10-element call %.2f us against a bare "
                   "cuLaunchKernel of an empty kernel %.2f us%s: %.2fx "
                   "(goal <= 1.5x: %s)" % (
                       s["us"], ln["us"],
                       " (CuPy RawKernel: %.2f us)" % cl["us"]
                       if "us" in cl else "", f,
                       "met" if f <= 1.5 else "**missed**"))
    out += kernel_goals(uf, peers)
    if res.get("gpu_error"):
        out.append("\ncuda_bench: %s" % res["gpu_error"])
    if res.get("gpu_peers_error"):
        out.append("\npeers: %s" % res["gpu_peers_error"])
    return "\n".join(out) + "\n"


def kernel_goals(uf, peers):
    """Issue 15's GPU goals: the reduce and transpose lines."""
    out = ["\nGoals (issue 15):"]
    r = uf.get(("reduce", F64), {})
    cub = peers.get(("cub", "reduce", F64), {})
    nb = peers.get(("numba-cuda", "reduce", F64), {})
    cp = peers.get(("cupy", "reduce", F64), {})
    if "us" not in r:
        out.append("- reduce: %s" % r.get("error", r.get("unsupported",
                                                         "not run")))
    else:
        def peer(name, p):
            if "us" not in p:
                return "%s: %s" % (name, p.get("error", p.get("skip", "-"))
                                   [:120])
            ok = abs(p["sum"][0] - r["sum"][0]) <= 1e-9 * abs(r["sum"][0])
            return "%s %.1f us (%.0f GB/s, ufjit / %s %.2f, sum %s)" % (
                name, p["us"], gbs(p), name, r["us"] / p["us"],
                "agrees" if ok else "**differs: %r**" % p["sum"][0])
        f = r["us"] / cub["us"] if "us" in cub else None
        g = r["us"] / nb["us"] if "us" in nb else None
        out.append("- uf_reduce sum of %d float64: %.1f us (%.0f GB/s); %s; "
                   "%s; %s. Goal: within %.1fx of CUB (%s) and faster than "
                   "numba-cuda (%s)." % (
                       r["n"], r["us"], gbs(r), peer("CUB", cub),
                       peer("numba-cuda", nb), peer("CuPy sum", cp),
                       REDUCE_GOAL,
                       "-" if f is None else
                       "met" if f <= REDUCE_GOAL else "**missed**",
                       "-" if g is None else
                       "met" if g < 1 else "**missed**"))
    t = uf.get(("transpose", "int32"), {})
    nt = peers.get(("numba-cuda", "transpose", "int32"), {})
    if "us" not in t:
        out.append("- transpose: %s" % t.get("error", t.get("unsupported",
                                                            "not run")))
    else:
        f = t["us"] and t["copy_us"] / t["us"]
        out.append("- tile transpose of a %d x %d int32 matrix through "
                   "uf_launch: %.1f us (%.0f GB/s), %d elements wrong; "
                   "cuMemcpyDtoD of the same bytes %.1f us: %.0f%% of the "
                   "copy (goal >= %.0f%%: %s)%s." % (
                       int(t["n"] ** 0.5), int(t["n"] ** 0.5), t["us"],
                       gbs(t), t["wrong"], t["copy_us"], 100 * f,
                       100 * TRANSPOSE_GOAL,
                       "met" if f >= TRANSPOSE_GOAL and t["wrong"] == 0
                       else "**missed**",
                       "; numba-cuda's cuda.jit of the same kernel %.1f us "
                       "(ufjit / numba-cuda %.2f, %d wrong)" % (
                           nt["us"], t["us"] / nt["us"], nt["wrong"])
                       if "us" in nt else
                       "; numba-cuda: %s" % nt.get("error", "-")[:120]))
    return out


# ---- main ---------------------------------------------------------------

def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main(argv):
    args = {"--out": None, "--python": None}
    flags = set()
    pos = []
    it = iter(argv)
    for a in it:
        if a in args:
            args[a] = next(it, None)
        elif a == "--cases":
            keep = set((next(it, None) or "").split(","))
            CASES[:] = [c for c in CASES if c[0] in keep]
            flags.add(a)
        elif a in ("--quick", "--no-gpu", "--no-static"):
            flags.add(a)
        elif a.startswith("-"):
            sys.exit(__doc__)
        else:
            pos.append(a)
    quick = "--quick" in flags or os.environ.get("BENCH_QUICK") == "1"
    root = os.path.abspath(pos[0] if pos else
                           os.environ.get("UFJIT_KIT", "build"))
    out = args["--out"] or os.environ.get("UFJIT_BENCH_OUT")
    if not out:
        out = os.path.join(root, "bench-partial") \
            if quick or "--cases" in flags else \
            os.path.dirname(HERE)
    os.makedirs(out, exist_ok=True)
    # the listings: beside the build, never among a kit run's few results
    if os.environ.get("UFJIT_KIT") or not os.access(root, os.W_OK):
        import tempfile
        ptxdir = tempfile.mkdtemp(prefix="ufjit-cuda-ptx.")
    else:
        ptxdir = os.path.join(root, "cuda-ptx")
        os.makedirs(ptxdir, exist_ok=True)
    res = {"date": datetime.date.today().isoformat(), "cpu": cpu_model(),
           "root": root}
    py_static = peer_python(root, args["--python"], ["numba_cuda"])
    if "--no-static" not in flags:
        static_part(root, ptxdir, py_static, quick, res)
    if "--no-gpu" not in flags:
        gpu_part(root, peer_python(root, args["--python"],
                                   ["numba_cuda", "cupy"]), quick, res)
    head = ("# CUDA benchmarks (issue 14)\n\n%s, %s%s. `bench/cuda/run.py` "
            "(bench/README.md, section CUDA) writes this file.\n\n"
            % (res["date"], res["cpu"], " (quick run)" if quick else ""))
    static_md = static_markdown(res) if "--no-static" not in flags else ""
    gpu_md = gpu_markdown(res) if "--no-gpu" not in flags else ""
    print(head + static_md + "\n" + gpu_md, flush=True)
    if static_md:
        path = os.path.join(out, "CUDA_RESULTS.md")
        history = kept_history(path)
        with open(path, "w") as f:
            f.write(head + static_md + "\n" + gpu_md + history)
    # GPU figures only from a GPU (UFJIT_ENABLE_CUDASIM=1 runs the same
    # code on the simulator: a check of the harness, not figures)
    if res.get("gpu_device", {}).get("driver") == "cuda":
        with open(os.path.join(out, "GPU_RESULTS.md"), "w") as f:
            f.write(head.replace("# CUDA benchmarks", "# GPU benchmarks") +
                    gpu_md)
    raw = root if out == os.path.dirname(HERE) else out
    with open(os.path.join(raw, "cuda-results.json"), "w") as f:
        json.dump(res, f, indent=1)
    print("bench/cuda: results in %s" % out, flush=True)
    return 0


def kept_history(path):
    """The file's hand-written "## History" section (what changed which
    figure, and why), carried over from run to run."""
    try:
        text = open(path).read()
    except OSError:
        return ""
    at = text.find("\n## History\n")
    return "\n" + text[at + 1:] if at >= 0 else ""


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
