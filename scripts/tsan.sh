#!/usr/bin/env bash
# make tsan: the library and the concurrency tests (CTest label
# `concurrency`, tests/CMakeLists.txt) built with ThreadSanitizer and run
# once per threading layer; any report fails the run.
#
# Usage: scripts/tsan.sh [BUILD_DIR [JOBS [CTEST_ARGS...]]]
#   e.g. scripts/tsan.sh build-tsan 2 -R stress   (one test only)
#
# Why clang-14 and libomp: TSan must see OpenMP's fork, join and barriers.
# LLVM's OpenMP runtime has a tool for that, Archer (libarcher.so from
# libomp-14-dev, loaded through OMP_TOOL_LIBRARIES), and TSan's
# ignore_noninstrumented_modules=1 keeps it from checking inside libomp
# itself (without both, libomp's own memset of a team's data is reported).
# gcc's libgomp is not instrumented and has no such tool: a 15-line
# parallel for built with gcc -fopenmp -fsanitize=thread has the caller's
# read of the team's results after the region reported as a race, even
# with ignore_noninstrumented_modules=1 (clang, libomp and Archer: clean).
#
# Why not tbb: libtbb is not instrumented either and has no TSan tool, so
# TSan does not see a task passed from one thread to another and reports
# TBB's own task objects (blocked_range, split in parallel_for on one
# thread, read on a worker) as races. A suppression that silences those
# (any frame in tbb::detail) would also hide races in ufjit's chunks, which
# always run under such frames on that layer; the same chunks are checked
# on the omp layer.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-tsan}
jobs=${2:-$(nproc)}
shift $(($# < 2 ? $# : 2))
archer=$(llvm-config-14 --libdir 2>/dev/null || echo /usr/lib/llvm-14/lib)/libarcher.so

missing=""
command -v clang-14 >/dev/null 2>&1 || missing="clang-14 "
[ -f "$archer" ] || missing="${missing}libomp-14-dev"
if [ -n "$missing" ]; then
    echo "make tsan: needs $missing (apt-get install clang-14 libomp-14-dev)" >&2
    exit 1
fi

CC=clang-14 CXX=clang++-14 cmake -S "$src" -B "$build" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DUFJIT_TSAN=ON >/dev/null
cmake --build "$build" -j "$jobs" --target concurrency_tests

export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ignore_noninstrumented_modules=1 second_deadlock_stack=1"
export OMP_TOOL_LIBRARIES=$archer
echo "make tsan: the tbb layer is left out: libtbb is not instrumented and" \
     "TSan reports TBB's own task hand-over as races (scripts/tsan.sh)"
for layer in serial omp; do
    echo "== ThreadSanitizer, threading layer $layer"
    (cd "$build" && UFJIT_THREADING_LAYER=$layer \
        ctest -L concurrency -j "$jobs" --output-on-failure "$@")
done
