#!/usr/bin/env bash
# The CuPy interop kit's runner (scripts/gpu-interop-kit.sh copies it in as
# run-interop.sh). On the GPU machine, from the repo's root, with the
# tarball carried:
#
#   tar xJf gpu-interop-kit.tar.xz && bash gpu-interop-kit/run-interop.sh
#
# Runs tests/interop/cupy_interop.py twice on the kit's libufjit.so: its
# dry run on cudasim (the kit's library works), then against CuPy on the
# GPU (--target cuda; exit 77 when CuPy or a GPU is missing). Then builds
# the Python package's extension for this machine's Python against
# libufjit.so (needs Python.h and a C compiler, else says so), installs
# the carried RMM wheels beside it, and runs the package's GPU tests
# (test_gpu_cupy, the RMM one) and its cuda/interop tests on the GPU
# (UFJIT_ENABLE_CUDASIM=0; KIT_PACKAGE_CUDASIM=1 runs them on cudasim, to
# check the kit where there is no GPU). Writes the output to $OUT/interop.log as well
# when OUT is set. Exit status: the CuPy GPU run's, or 1 when the dry run
# or the package's tests failed.
#
# LD_LIBRARY_PATH gets only those of deps/ that the machine lacks, so
# CuPy keeps the C++ runtime it was built for; if libufjit.so still does
# not load (a libstdc++ older than it needs), every one of deps/.
set -uo pipefail

kit=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-python3}
log=/dev/null
if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    log=$OUT/interop.log
fi

fallback=$kit/fallback
rm -rf "$fallback"
mkdir -p "$fallback"
known=$(ldconfig -p 2>/dev/null || true)
for lib in "$kit"/deps/*; do
    name=$(basename "$lib")
    if ! grep -q "^[[:space:]]*$name " <<<"$known"; then
        ln -s "$lib" "$fallback/$name"
    fi
done
export LD_LIBRARY_PATH="$fallback${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
so=$kit/lib/libufjit.so
probe() {
    "$py" -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$so" 2>&1
}

{
    echo "== ufjit CuPy interop check, $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(uname -n)"
    cat "$kit/BUILDINFO"
    echo "python:  $("$py" --version 2>&1)"
    nvidia-smi -L 2>/dev/null || echo "nvidia-smi: none"
    if ! why=$(probe); then
        echo "libufjit.so does not load with the machine's libraries ($why): using every one of deps/"
        ln -sf "$kit"/deps/* "$fallback/"
        why=$(probe) || echo "libufjit.so does not load: $why"
    fi
    echo "from deps/: $(find "$fallback" -mindepth 1 -printf '%f ')"

    echo "== dry run (cudasim, ufjit standing in for CuPy)"
    "$py" -u "$kit/interop/cupy_interop.py" "$so" --target cudasim
    dry=$?
    echo "dry run: exit $dry"

    echo "== CuPy on the GPU (target cuda)"
    "$py" -u "$kit/interop/cupy_interop.py" "$so" --target cuda
    rc=$?
    echo "GPU run: exit $rc"
    if [ "$dry" -ne 0 ] && { [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ]; }; then
        rc=1
    fi

    echo "== the Python package on the GPU"
    inc=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    ext=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
    pkg=$kit/pkg
    rm -rf "$pkg" && mkdir -p "$pkg/ufjit"
    cp "$kit"/python/package/*.py "$pkg/ufjit/"
    echo "CLI = ''" >"$pkg/ufjit/_build_paths.py"
    if [ ! -f "$inc/Python.h" ]; then
        echo "package: SKIPPED: no Python.h for $("$py" --version 2>&1) in $inc"
    elif ! "${CC:-cc}" -O2 -fPIC -shared -std=c17 -fvisibility=hidden \
            -I"$kit/include" -I"$inc" "$kit"/python/src/*.c \
            -L"$kit/lib" -lufjit -Wl,-rpath,"$kit/lib" \
            -o "$pkg/ufjit/_core$ext"; then
        echo "package: the extension did not build"
        rc=1
    else
        site=$pkg
        if ls "$kit"/wheels/*.whl >/dev/null 2>&1; then
            "$py" -m pip install -q --no-deps --no-index --target "$pkg" \
                "$kit"/wheels/*.whl || echo "package: RMM wheels did not install"
            if ! "$py" -c 'import cuda.bindings' 2>/dev/null &&
                ls "$kit"/wheels/if-missing/*.whl >/dev/null 2>&1; then
                "$py" -m pip install -q --no-deps --no-index --target "$pkg" \
                    "$kit"/wheels/if-missing/*.whl \
                    || echo "package: cuda-bindings did not install"
            fi
        fi
        (cd "$kit/python" && PYTHONPATH="$site" UFJIT_TEST_GPU=1 \
            UFJIT_ENABLE_CUDASIM="${KIT_PACKAGE_CUDASIM:-0}" "$py" -m pytest -q -rs -p no:cacheprovider \
            tests/test_gpu_cupy.py tests/test_memory_manager.py \
            tests/test_cuda.py tests/test_interop.py)
        prc=$?
        echo "package tests: exit $prc"
        [ "$prc" -eq 0 ] || rc=1
    fi
    exit "$rc"
} 2>&1 | tee "$log"
exit "${PIPESTATUS[0]}"
