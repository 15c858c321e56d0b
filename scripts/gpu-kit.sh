#!/usr/bin/env bash
# Builds the GPU kit: the ufjit command and the CUDA test programs linked
# against LLVM's static libraries, with the shared libraries they still
# need, the source files the tests read and a runner, in a folder that
# runs from anywhere on a Linux x86-64 machine without LLVM (the GPU
# machine: README "Running on a GPU"). Then packs it as OUTDIR.tar.xz.
#
#   scripts/gpu-kit.sh [OUTDIR]      default: gpu-kit (at the repo root)
#
# Environment:
#   KIT_BUILD   build folder (default build-kit), a Release build with
#               UFJIT_KIT=ON (cmake/kit.cmake); only the needed targets build
#   KIT_LABELS  CTest labels whose tests travel (default "cuda")
#   KIT_EXCLUDE a regex of labelled tests left out (default: the PTX,
#               simulator and fake-driver tests, which no GPU changes; ""
#               keeps them)
#   KIT_TESTS   tests that travel by name, a smoke check of the CPU path
#               (default "test_jit test_ufunc_call kernels_basic")
#   KIT_TAR=0   leave out the tarball
#   JOBS        build jobs (default: nproc)
# The tarball must stay under 60 MiB (the GPU machine takes 64 MiB in all):
# the script fails otherwise.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-gpu-kit}
build=${KIT_BUILD:-build-kit}
jobs=${JOBS:-$(nproc)}
limit_mib=60
t0=$(date +%s)

# The file API's codemodel maps each test's program to its target.
mkdir -p "$build/.cmake/api/v1/query"
touch "$build/.cmake/api/v1/query/codemodel-v2"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DUFJIT_STATIC_LLVM=ON \
      -DUFJIT_KIT=ON >"$build/kit-configure.log" 2>&1 \
    || { cat "$build/kit-configure.log"; exit 1; }
targets=$(python3 scripts/gpu_kit.py plan "$build")
echo "gpu-kit: building $targets"
# shellcheck disable=SC2086 # one target per word
cmake --build "$build" -j "$jobs" --target $targets >"$build/kit-build.log" 2>&1 \
    || { tail -50 "$build/kit-build.log"; exit 1; }
t1=$(date +%s)

rm -rf "$out"
mkdir -p "$out"
python3 scripts/gpu_kit.py assemble "$build" "$out"
# CUB's DeviceReduce::Sum, the reduce benchmark's yardstick, built here so
# the GPU machine spends no time on it (optional: without nvcc,
# bench/cuda/run.py builds it there or says why not)
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
if [ -x "$nvcc" ]; then
    "$nvcc" -O3 -std=c++17 -gencode arch=compute_80,code=sm_80 \
        -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
        -o "$out/bin/cub_reduce" bench/cuda/cub_reduce.cu >"$build/kit-cub.log" 2>&1 \
        || echo "gpu-kit: bench/cuda/cub_reduce.cu did not build (left out): $(tail -3 "$build/kit-cub.log")"
fi
cp scripts/gpu-kit-run.sh "$out/run.sh"
chmod +x "$out/run.sh"
{
    echo "ufjit GPU kit"
    echo "commit:  $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
    # shellcheck disable=SC1091 # the build machine's own
    echo "built:   $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n), $(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "LLVM:    $(llvm-config-14 --version 2>/dev/null || echo '?') (static)"
    # the newest glibc symbol version any program or bundled library uses
    echo "glibc:   $(objdump -T "$out"/bin/* "$out"/lib/* | grep -o 'GLIBC_[0-9.]*' \
                     | sed 's/GLIBC_//' | sort -V -u | tail -1) or newer needed"
} >"$out/BUILDINFO"
# The programs must not need LLVM's shared library, nor anything unbundled.
for p in "$out"/bin/*; do
    if ldd "$p" | grep -E 'LLVM|not found'; then
        echo "gpu-kit: $p still needs the libraries above" >&2
        exit 1
    fi
done
t2=$(date +%s)

if [ "${KIT_TAR:-1}" != 0 ]; then
    # xz's fast preset with a 64 MiB window (418 MiB of memory): each
    # program holds the same 35 MB of LLVM code, which the window finds
    # again in the next program and stores once.
    parent=$(dirname "$out")
    tar -C "$parent" -cf - "$(basename "$out")" \
        | xz --lzma2=preset=1,dict=64MiB -T1 >"$out.tar.xz"
    bytes=$(stat -c %s "$out.tar.xz")
    mib=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
    echo "gpu-kit: $out.tar.xz: $mib MiB ($(du -sh "$out" | cut -f1) unpacked)"
    if [ "$bytes" -gt $((limit_mib * 1048576)) ]; then
        echo "gpu-kit: over the $limit_mib MiB the GPU machine can take" >&2
        exit 1
    fi
fi
t3=$(date +%s)
echo "gpu-kit: $out ready: build $((t1 - t0)) s, assembly $((t2 - t1)) s, tarball $((t3 - t2)) s"
