#!/usr/bin/env python3
"""Checks of the benchmark harness's own logic that need no timing (CTest
bench_selftest): where a run writes its results (only a full run of every
case may overwrite bench/RESULTS.md), which contenders the goals use (the
default ones, never `libm`), issue 4's goal rows computed from a made-up
run, that the C programs do not inherit the venv's TBB (LD_LIBRARY_PATH)
and the "Harness" line (peer threads spinning during the C programs'
rounds). Exits 77 (skipped) without NumPy, which the harness imports.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
try:
    import numpy  # noqa: F401
except ImportError:
    print("SKIP: NumPy is not installed")
    sys.exit(77)
import report  # noqa: E402
import suite  # noqa: E402

failures = []


def check(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


# ---- where results go ------------------------------------------------------
b = "/tmp/some-build"
check("full run", suite.default_out(b, "full", None), HERE)
check("--only", suite.default_out(b, "full", "triad"),
      os.path.join(b, "bench-partial"))
check("quick", suite.default_out(b, "quick", None),
      os.path.join(b, "bench-partial"))
check("smoke", suite.default_out(b, "smoke", suite.SMOKE_CASES),
      os.path.join(b, "bench-smoke"))


# ---- the goals use the default contenders ---------------------------------
def cont(ms):
    return {"status": "ok", "times": [ms / 1e3] * 3}


res = {"name": "sine f32", "group": "elementwise", "contenders": {
    "ufjit parallel": cont(4.0), "ufjit parallel libm": cont(3.0),
    "ufjit parallel reduce kernel": cont(5.0)}}
check("best skips libm", report.best(res, "ufjit parallel"),
      (0.004, "ufjit parallel"))
check("best with libm", report.best(res, "ufjit parallel", libm=True),
      (0.003, "ufjit parallel libm"))
check("a prefix is a whole word", report.best(res, "ufjit par"),
      (None, None))

# ---- issue 4's rows from a made-up run -------------------------------------
raw = {"limits": {}, "results": [
    {"name": "matvec", "group": "gufunc", "bound": "memory", "bytes": 1e9,
     "contenders": {"ufjit cpu": cont(100.0), "ufjit parallel": cont(60.0),
                    "numba guvec cpu": cont(120.0),
                    "numba guvec parallel": cont(80.0)},
     "limit": {"1": [0.09] * 3, "2": [0.05] * 3}},
    {"name": "sum 1e8", "group": "reduce", "bytes": 8e8,
     "contenders": {"ufjit parallel reduce kernel": cont(40.0),
                    "ufjit cpu add.reduce": cont(20.0)},
     "limit": {"1": [0.08] * 3, "2": [0.04] * 3}},
    {"name": "sum axis 0 of 1e4x1e4", "group": "reduce", "bytes": 8e8,
     "contenders": {"ufjit cpu reduce kernel": cont(30.0),
                    "numpy add.reduce": cont(70.0)}}]}
rows = {(r[0].replace(" (1 thread)", " 1t").replace(" (2 threads)", " 2t"),
         r[1]): r for r in report.goals4(raw)}
guvec = rows[(report.G4_GUVEC, "matvec")]
check("guvec ratio: Numba's best / ufjit's best", guvec[4], "1.33")
check("guvec verdict", guvec[5], "**missed**")
stream2 = rows[(report.G4_STREAM + " 2t", "matvec")]
check("STREAM 2t ratio: ufjit parallel / limit 2t", stream2[4], "1.2")
check("STREAM 2t verdict", stream2[5], "**met**")
s = rows[(report.G4_SUM, "sum 1e8")]
check("sum: GB/s of ufjit parallel only", s[2].split(" GB/s")[0], "20")
check("sum: share of the read bandwidth", "100% of this machine's read" in
      s[2], True)
ax = rows[(report.G4_AXIS, "sum axis 0 of 1e4x1e4")]
check("axis ratio", (ax[4], ax[5]), ("2.33", "**met**"))
check("sum note", "above" in report.sum_note(raw)[0], True)

# ---- the C programs keep the environment run.py had before its venv TBB ----
import servers  # noqa: E402

saved = {k: os.environ.get(k) for k in ("LD_LIBRARY_PATH",
                                        servers.SAVED_LD_PATH)}
for before in ("/opt/x", None):
    for k in saved:
        os.environ.pop(k, None)
    if before:
        os.environ["LD_LIBRARY_PATH"] = before
    servers.use_lib_dir("/venv/lib")
    check(f"harness LD_LIBRARY_PATH (before: {before})",
          os.environ["LD_LIBRARY_PATH"],
          "/venv/lib" + (":" + before if before else ""))
    env = servers.clean_env({"X": "1"})
    check(f"C programs' LD_LIBRARY_PATH (before: {before})",
          env.get("LD_LIBRARY_PATH"), before)
    check("clean_env's extra", env.get("X"), "1")
for k, v in saved.items():
    os.environ.pop(k, None)
    if v is not None:
        os.environ[k] = v

# ---- the harness line -------------------------------------------------------
line = report.harness_busy_text({"harness_busy": 0.4}, [
    {"name": "a", "harness_busy": 0.1}, {"name": "b", "harness_busy": 0.6}])
check("harness: worst case named", "at most 60% in one case (b)" in line,
      True)
check("harness: spinning flagged", "spun" in line, True)
check("harness: quiet not flagged", "spun" in report.harness_busy_text(
    {"harness_busy": 0.0}, [{"name": "a", "harness_busy": 0.02}]), False)

# ---- one section per CPU family (issue 19) ---------------------------------
import tempfile  # noqa: E402

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "RESULTS.md")
    # a file from before the sections: becomes its machine's section
    with open(path, "w") as f:
        f.write("# ufjit benchmark results\n\nold intro\n\n## Machine\n\n"
                "- CPU: Intel(R) Xeon(R) Processor, 2 logical CPUs; SIMD: "
                "avx2 avx512f fma\n\nold figures\n")
    report.merge_section(path, "amd-epyc-avx2", "AMD EPYC (AVX2)",
                         ["# ufjit benchmark results", "", "## Machine", "",
                          "new figures"])
    text = open(path).read()
    check("old run kept as its family's section",
          "<!-- cpu: intel-xeon-avx512 -->" in text and "old figures" in text,
          True)
    check("old headings demoted", "### Machine" in text, True)
    check("new family added", "## AMD EPYC (AVX2)" in text and
          "new figures" in text, True)
    report.merge_section(path, "amd-epyc-avx2", "AMD EPYC (AVX2)",
                         ["# x", "", "newer figures"])
    text = open(path).read()
    check("a run replaces its own family only",
          ("new figures" in text, "newer figures" in text,
           "old figures" in text), (False, True, True))
    check("families keep their order", text.index("intel-xeon") <
          text.index("amd-epyc"), True)

if failures:
    print("bench selftest FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("bench selftest: all checks passed")
