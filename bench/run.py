#!/usr/bin/env python3
"""`make bench`: ufjit side by side with NumPy, numexpr and Numba, and with
the machine's limits (STREAM bandwidth, libmvec loops), in one run that
alternates rounds between all contenders so that machine noise hits every
side. A full run writes its CPU family's section of bench/RESULTS.md and
bench/results-FAMILY.png.

usage: run.py BUILD_DIR [--quick] [--smoke] [--out DIR] [--only REGEX]
              [--no-cuda]
  --quick (or BENCH_QUICK=1)  about a minute: smaller sizes, fewer rounds
  --smoke   seconds: tiny sizes, a few cases, results under BUILD_DIR (the
            CTest entry bench_smoke); never creates the virtual env
  --only    only the cases whose names match REGEX (Python re.search),
            without the compile, cache and process timings
  --out     where RESULTS.md, its chart and the raw samples
            (bench-results.json) go. Default: bench/ (raw samples in
            BUILD_DIR) only for a full run of every case; a --only or
            --quick run writes under BUILD_DIR/bench-partial, a --smoke
            run under BUILD_DIR/bench-smoke, so that neither overwrites
            the committed bench/RESULTS.md and chart
  --no-cuda without the CUDA section (bench/cuda/run.py), which a full or
            quick run ends with (bench/CUDA_RESULTS.md)
The peers come from PyPI in BUILD_DIR/bench-venv, made on first use; when
pip cannot reach PyPI the system Python's packages are used, and RESULTS.md
says so. Cases are listed in bench/cases.py (adding one: see there).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# scipy: Numba's np.dot of 2-D arrays calls its BLAS (the np.dot cases)
PACKAGES = ["numpy", "numba", "numexpr", "matplotlib", "tbb", "scipy"]
CHECK = "import numpy, numba, numexpr, matplotlib, scipy"


def _venv_tbb(venv, py, smoke):
    """Numba's TBB: PyPI's `tbb` in the venv (installed when missing, as
    in a venv made before it was in PACKAGES), loaded by the harness's
    Python only, through LD_LIBRARY_PATH (the system's oneTBB 2021.8 makes
    Numba's parallel calls slower and slower and a worker spin: see
    servers.py). Without it Numba loads the system's, and RESULTS.md
    names the one it used. A smoke run installs nothing."""
    lib = os.path.join(venv, "lib")
    if not smoke and not os.path.exists(os.path.join(lib, "libtbb.so.12")):
        try:
            subprocess.run([py, "-m", "pip", "install", "-q", "tbb"],
                           timeout=600)
        except (OSError, subprocess.SubprocessError):
            pass
    if os.path.exists(os.path.join(lib, "libtbb.so.12")):
        import servers
        servers.use_lib_dir(lib)


def _venv_numba_cuda(py, smoke):
    """numba-cuda, the peer of the CUDA section (bench/cuda/run.py: it
    compiles PTX without a GPU), installed into the venv when missing; a
    smoke run installs nothing, and a failed install only leaves the
    peer's column out."""
    if smoke or subprocess.run([py, "-c", "import numba_cuda"],
                               capture_output=True).returncode == 0:
        return
    try:
        subprocess.run([py, "-m", "pip", "install", "-q", "numba-cuda"],
                       timeout=1200)
    except (OSError, subprocess.SubprocessError):
        pass


def _env_python(build, smoke):
    """(python, note): the venv's python (made and filled when needed),
    else this interpreter with the reason."""
    venv = os.path.join(os.path.abspath(build), "bench-venv")
    py = os.path.join(venv, "bin", "python")
    ok = lambda: subprocess.run([py, "-c", CHECK],  # noqa: E731
                                capture_output=True).returncode == 0
    if os.path.exists(py) and ok():
        _venv_tbb(venv, py, smoke)
        _venv_numba_cuda(py, smoke)
        return py, "venv"
    if smoke:
        return sys.executable, "system (smoke run: no venv is made)"
    print(f"bench: preparing {venv} (pip install {' '.join(PACKAGES)})",
          flush=True)
    try:
        if not os.path.exists(py):
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        r = subprocess.run([py, "-m", "pip", "install", "-q"] + PACKAGES,
                           timeout=1800)
        if r.returncode == 0 and ok():
            _venv_tbb(venv, py, smoke)
            _venv_numba_cuda(py, smoke)
            return py, "venv"
        why = f"pip install failed (status {r.returncode})"
    except (OSError, subprocess.SubprocessError) as e:
        why = f"no virtual environment ({e})"
    print(f"bench: {why}; using the system Python's packages", flush=True)
    return sys.executable, f"system Python's packages: {why}"


def main():
    argv = sys.argv[1:]
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    sys.path.insert(0, HERE)
    if "BENCH_PYENV" not in os.environ:
        py, note = _env_python(argv[0], "--smoke" in argv)
        os.environ["BENCH_PYENV"] = note
        if py != sys.executable:  # (a venv's python links to the base)
            os.execv(py, [py, os.path.abspath(__file__)] + argv)
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("SKIP: NumPy is not installed for "
              f"{sys.executable} ({os.environ['BENCH_PYENV']})")
        sys.exit(77)
    import suite
    rc = suite.main(argv)
    sys.exit(rc or _cuda_section(argv))


def _cuda_section(argv):
    """The CUDA section (bench/cuda/run.py) after a full or quick run: its
    register table and compile times need no GPU. Not in --smoke or --only
    runs, nor with --no-cuda."""
    if any(a in argv for a in ("--smoke", "--only", "--no-cuda")):
        return 0
    cmd = [sys.executable, os.path.join(HERE, "cuda", "run.py"), argv[0]]
    if "--quick" in argv:
        cmd.append("--quick")
    if "--out" in argv:
        cmd += ["--out", argv[argv.index("--out") + 1]]
    print("bench: the CUDA section (bench/cuda/run.py)", flush=True)
    return subprocess.run(cmd).returncode


if __name__ == "__main__":
    main()
