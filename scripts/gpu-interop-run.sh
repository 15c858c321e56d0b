#!/usr/bin/env bash
# The CuPy interop kit's runner (scripts/gpu-interop-kit.sh copies it in as
# run-interop.sh). On the GPU machine, from the repo's root, with the
# tarball carried:
#
#   tar xJf gpu-interop-kit.tar.xz && bash gpu-interop-kit/run-interop.sh
#
# Runs tests/interop/cupy_interop.py twice on the kit's libufjit.so: its
# dry run on cudasim (the kit's library works), then against CuPy on the
# GPU (--target cuda; exit 77 when CuPy or a GPU is missing). Writes the
# output to $OUT/interop.log as well when OUT is set. Exit status: the
# GPU run's, or 1 when the dry run failed.
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
    exit "$rc"
} 2>&1 | tee "$log"
exit "${PIPESTATUS[0]}"
