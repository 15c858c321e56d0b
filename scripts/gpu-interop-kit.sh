#!/usr/bin/env bash
# Builds the CuPy interop kit: libufjit.so with LLVM linked statically, the
# shared libraries it still loads, tests/interop/cupy_interop.py with its
# ctypes module, and run-interop.sh, in a folder that runs on the GPU
# machine (no LLVM there, CuPy and a driver present; README "Running on a
# GPU"). Then packs it as OUTDIR.tar.xz.
#
#   scripts/gpu-interop-kit.sh [OUTDIR]    default: gpu-interop-kit
#
# Environment: KIT_BUILD (default build-kit: the GPU kit's Release build,
# cmake/kit.cmake; only the `ufjit` target builds), JOBS (default nproc),
# KIT_TAR=0 to leave out the tarball. Fails when libufjit.so would load
# libLLVM or the tarball is over 40 MiB.
#
# Layout: lib/libufjit.so (its RUNPATH, $ORIGIN/../lib, finds nothing
# else there), deps/ (libstdc++, libgcc_s, oneTBB, libgomp, zlib, terminfo:
# used only where the machine lacks them, so that CuPy keeps the C++
# runtime it was built for), interop/, run-interop.sh, BUILDINFO.
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
if ldd "$out/lib/libufjit.so" | grep -E 'LLVM|not found'; then
    echo "gpu-interop-kit: libufjit.so still needs the libraries above" >&2
    exit 1
fi
# the shared libraries it loads, bar glibc's, as the GPU kit bundles them
python3 -c 'import sys; sys.path.insert(0, "scripts"); import gpu_kit
print("gpu-interop-kit: deps/:", " ".join(gpu_kit.bundle_libs(sys.argv[1:2], sys.argv[2])))' \
    "$out/lib/libufjit.so" "$out/deps"
cp tests/interop/cupy_interop.py tests/interop/ufjit_ctypes.py "$out/interop/"
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
