#!/usr/bin/env bash
# Installs what ufjit needs to build and test on Debian 12, only what is
# missing; prints nothing when everything is present. Run as root (or with
# sudo available). Idempotent.
set -euo pipefail

# clang-14 and its sanitizer/libFuzzer runtimes: the fuzz targets.
# xz-utils: the GPU kit's tarball (scripts/gpu-kit.sh).
debs=(cmake make gcc g++ pkg-config llvm-14-dev libtbb-dev libcmocka-dev
      clang-14 libclang-rt-14-dev python3 python3-pip python3-venv xz-utils)
missing=()
for p in "${debs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
        || missing+=("$p")
done
# A python3 from elsewhere on PATH (pyenv) also satisfies the python needs.
if command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then
    filtered=()
    for p in "${missing[@]}"; do
        case "$p" in python3|python3-pip|python3-venv) ;; *) filtered+=("$p") ;; esac
    done
    missing=("${filtered[@]+"${filtered[@]}"}")
fi

if [ "${#missing[@]}" -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "install-deps: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
        --no-install-recommends "${missing[@]}" >/dev/null
fi

# SLEEF's vector math (libsleef3; the JIT dlopens libsleef.so.3 where it
# beats libmvec, bench_vecmath measures it): optional, so a failure to
# install it is a note, not an error. Only the runtime library: nothing
# builds against SLEEF's headers (libsleef-dev).
if ! dpkg-query -W -f='${Status}' libsleef3 2>/dev/null | grep -q "ok installed"; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "install-deps: installing libsleef3 (optional: SLEEF vector math)"
    { $sudo apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
          --no-install-recommends libsleef3 >/dev/null; } ||
        echo "install-deps: libsleef3 not installed; ufjit uses libmvec alone"
fi

# The Python package's extension needs the headers of the python3 in use
# (a pyenv python has its own; Debian's comes from python3-dev).
if command -v python3 >/dev/null 2>&1; then
    inc=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null || true)
    if [ ! -f "$inc/Python.h" ] && ! dpkg-query -W -f='${Status}' python3-dev 2>/dev/null | grep -q "ok installed"; then
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        echo "install-deps: installing python3-dev"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
            --no-install-recommends python3-dev >/dev/null
    fi
fi

# NumPy and Numba are test oracles only, never runtime dependencies of the
# C library (NumPy is one of the Python package's); SciPy is what Numba's
# np.dot of 2-D arrays and np.linalg call (without it Numba refuses them,
# and the oracles of those kernels have nothing to compare with).
if ! python3 -c 'import numpy, numba, scipy' >/dev/null 2>&1; then
    echo "install-deps: installing numpy, numba and scipy from PyPI"
    python3 -m pip install -q numpy numba scipy 2>/dev/null \
        || python3 -m pip install -q --break-system-packages numpy numba scipy
fi
# pytest runs the Python package's tests; Dask (with distributed) and
# xarray are what its override-protocol and pickling tests call ufjit's
# ufuncs on.
if ! python3 -c 'import pytest, dask.array, distributed, xarray' >/dev/null 2>&1; then
    echo "install-deps: installing pytest, dask[array], distributed and xarray from PyPI"
    python3 -m pip install -q pytest "dask[array]" distributed xarray 2>/dev/null \
        || python3 -m pip install -q --break-system-packages pytest \
            "dask[array]" distributed xarray
fi
