#!/usr/bin/env bash
# Builds the CuPy interop kit: libufjit.so with LLVM linked statically, the
# shared libraries it still loads, tests/interop/cupy_interop.py with its
# ctypes module, the Python package's sources and GPU tests (built there
# against libufjit.so for the machine's own Python), the RMM wheels that
# machine lacks, and run-interop.sh, in a folder that runs on the GPU
# machine (no LLVM there, CuPy and a driver present; README "Running on a
# GPU"). Then packs it as OUTDIR.tar.xz.
#
#   scripts/gpu-interop-kit.sh [OUTDIR]    default: gpu-interop-kit
#
# Environment: KIT_BUILD (default build-kit: the GPU kit's Release build,
# cmake/kit.cmake; only the `ufjit` target builds), JOBS (default nproc),
# KIT_TAR=0 to leave out the tarball, KIT_WHEELS=0 to leave out RMM's
# wheels (pip download; without them the RMM test skips there),
# KIT_PYTHON_VERSION (default 3.12: the GPU machine's). Fails when libufjit.so would load
# libLLVM or the tarball is over 40 MiB.
#
# Layout: lib/libufjit.so (its RUNPATH, $ORIGIN/../lib, finds nothing
# else there), deps/ (libstdc++, libgcc_s, oneTBB, libgomp, zlib, terminfo:
# used only where the machine lacks them, so that CuPy keeps the C++
# runtime it was built for), interop/, include/ (the public headers),
# python/ (src/, package/: the .py files, tests/), wheels/, run-interop.sh,
# BUILDINFO.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-gpu-interop-kit}
build=${KIT_BUILD:-build-kit}
jobs=${JOBS:-$(nproc)}
limit_mib=40

mkdir -p "$build"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DUFJIT_STATIC_LLVM=ON \
      -DUFJIT_KIT=ON >"$build/interop-kit-configure.log" 2>&1 \
    || { cat "$build/interop-kit-configure.log"; exit 1; }
cmake --build "$build" -j "$jobs" --target ufjit >"$build/interop-kit-build.log" 2>&1 \
    || { tail -50 "$build/interop-kit-build.log"; exit 1; }
so=$(readlink -f "$build/libufjit.so")

rm -rf "$out"
mkdir -p "$out/lib" "$out/interop"
strip --strip-unneeded -o "$out/lib/libufjit.so" "$so"
# what a program linked with -lufjit there (the package's extension) loads
soname=$(objdump -p "$out/lib/libufjit.so" | awk '/SONAME/ { print $2 }')
[ -z "$soname" ] || [ "$soname" = libufjit.so ] || ln -s libufjit.so "$out/lib/$soname"
if ldd "$out/lib/libufjit.so" | grep -E 'LLVM|not found'; then
    echo "gpu-interop-kit: libufjit.so still needs the libraries above" >&2
    exit 1
fi
# the shared libraries it loads, bar glibc's, as the GPU kit bundles them
python3 -c 'import sys; sys.path.insert(0, "scripts"); import gpu_kit
print("gpu-interop-kit: deps/:", " ".join(gpu_kit.bundle_libs(sys.argv[1:2], sys.argv[2])))' \
    "$out/lib/libufjit.so" "$out/deps"
cp tests/interop/cupy_interop.py tests/interop/ufjit_ctypes.py "$out/interop/"
# the Python package, compiled there for that machine's Python
mkdir -p "$out/include/ufjit" "$out/python/src" "$out/python/package" \
         "$out/python/tests"
cp include/ufjit/*.h "$build/include/ufjit/version.h" "$out/include/ufjit/"
cp python/src/*.c python/src/*.h "$out/python/src/"
cp python/ufjit/*.py "$out/python/package/"  # not ufjit/: it would shadow the built one
cp python/tests/conftest.py python/tests/test_gpu_cupy.py \
   python/tests/test_memory_manager.py python/tests/test_cuda.py \
   python/tests/test_interop.py python/tests/kernels_cuda.py \
   "$out/python/tests/"
if [ "${KIT_WHEELS:-1}" != 0 ]; then
    mkdir -p "$out/wheels"
    pip download -q --no-deps --only-binary=:all: \
        --python-version "${KIT_PYTHON_VERSION:-3.12}" \
        --platform manylinux_2_28_x86_64 -d "$out/wheels" \
        rmm-cu13 librmm-cu13 rapids-logger \
        || echo "gpu-interop-kit: no RMM wheels (pip download failed): the RMM test will skip there"
    # RMM's own dependency, installed there only where it is missing
    mkdir -p "$out/wheels/if-missing"
    pip download -q --no-deps --only-binary=:all: \
        --python-version "${KIT_PYTHON_VERSION:-3.12}" \
        --platform manylinux_2_28_x86_64 -d "$out/wheels/if-missing" \
        cuda-bindings cuda-pathfinder \
        || echo "gpu-interop-kit: no cuda-bindings wheels (pip download failed)"
fi
cp scripts/gpu-interop-run.sh "$out/run-interop.sh"
chmod +x "$out/run-interop.sh"
{
    echo "ufjit CuPy interop kit"
    echo "commit:  $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
    # shellcheck disable=SC1091 # the build machine's own
    echo "built:   $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n), $(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "LLVM:    $(llvm-config-14 --version 2>/dev/null || echo '?') (static)"
    echo "needs:   glibc $(objdump -T "$out"/lib/* "$out"/deps/* | grep -o 'GLIBC_[0-9.]*' \
                     | sed 's/GLIBC_//' | sort -V -u | tail -1), libstdc++ with $(objdump -T "$out/lib/libufjit.so" \
                     | grep -o 'GLIBCXX_[0-9.]*' | sort -V -u | tail -1) (else deps/ has one)"
} >"$out/BUILDINFO"

if [ "${KIT_TAR:-1}" != 0 ]; then
    tar -C "$(dirname "$out")" -cf - "$(basename "$out")" | xz -6 -T1 >"$out.tar.xz"
    bytes=$(stat -c %s "$out.tar.xz")
    echo "gpu-interop-kit: $out.tar.xz: $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MiB ($(du -sh "$out" | cut -f1) unpacked)"
    if [ "$bytes" -gt $((limit_mib * 1048576)) ]; then
        echo "gpu-interop-kit: over $limit_mib MiB" >&2
        exit 1
    fi
fi
