#!/usr/bin/env bash
# What runs on the GPU machine, from the root of the repo's copy there:
#
#   bash scripts/gpu-check.sh [KIT]
#
# KIT is the kit scripts/gpu-kit.sh made: gpu-kit.tar.xz (the default when
# present) or its folder (default gpu-kit). Unpacks it, records the device,
# runs the kit's tests (run.sh), then the CUDA benchmarks when the repo has
# a runner for them, and writes under $OUT (./gpu-results when unset):
#   SUMMARY.md               device, kit, test table, benchmark status,
#                            nvidia-smi and `ufjit sysinfo` in full
#   tests/summary.md, tests/summary.tsv, tests/output.log   (run.sh's)
#   bench/                   the benchmarks' output (bench.log and what the
#                            runner writes there)
# The device tool brings back 8 files from $OUT: the benchmark runner may
# add up to 3 files beside bench.log.
#
# The benchmark hook: the first of bench/cuda/run.py, bench/cuda/run.sh
# that exists runs (python3 / bash) from the repo root, with
#   UFJIT_KIT        the unpacked kit's folder (programs in its bin/)
#   UFJIT_BIN        its ufjit
#   UFJIT_BENCH_OUT  the folder for its results ($OUT/bench)
# and GPU_CHECK_BENCH_ARGS (split on spaces) as its arguments, e.g.
# "--no-static" to leave out the compile-only part the build machine
# already measures. It runs only where nvidia-smi sees a GPU, unless
# GPU_CHECK_BENCH=1.
#
# GPU_CHECK_INTEROP=path/to/gpu-interop-kit.tar.xz (scripts/gpu-interop-kit.sh)
# also runs that kit: CuPy against libufjit.so, then the Python package
# built for the machine's Python with its CuPy and RMM tests; its log's
# last lines go into SUMMARY.md (the two kits together pass the 64 MiB a
# device call carries only without the interop kit's cuda-bindings wheel:
# KIT_WHEELS=0 or a call of its own).
#
# Time limits (seconds): GPU_CHECK_TEST_SECONDS (default 240) for all the
# tests, GPU_CHECK_BENCH_SECONDS (default 240) for the benchmarks, so a
# check ends inside the device tool's 10 minutes a command.
# Exit status: 0 when every test passed or skipped, the benchmarks (if
# run) succeeded and the interop kit (if run) passed or found no CuPy (77).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
out=${OUT:-$root/gpu-results}
mkdir -p "$out"
out=$(cd "$out" && pwd)
test_secs=${GPU_CHECK_TEST_SECONDS:-240}
bench_secs=${GPU_CHECK_BENCH_SECONDS:-240}

kit=${1:-}
if [ -z "$kit" ]; then
    if [ -f gpu-kit.tar.xz ]; then kit="gpu-kit.tar.xz"; else kit="gpu-kit"; fi
fi
case "$kit" in
    *.tar.xz | *.txz)
        [ -f "$kit" ] || { echo "gpu-check: no $kit" >&2; exit 2; }
        unpacked=$(mktemp -d "${TMPDIR:-/tmp}/ufjit-gpu-kit.XXXXXX")
        tar -C "$unpacked" -xJf "$kit" || exit 2
        kitdir=$(find "$unpacked" -mindepth 2 -maxdepth 2 -name run.sh \
                     -printf '%h\n' | head -1)
        ;;
    *) kitdir=$kit ;;
esac
if [ -z "${kitdir:-}" ] || [ ! -x "$kitdir/run.sh" ]; then
    echo "gpu-check: $kit holds no kit (no run.sh): build one with scripts/gpu-kit.sh" >&2
    exit 2
fi
kitdir=$(cd "$kitdir" && pwd)
# The kit's programs were linked against the build machine's glibc.
need=$(sed -n 's/^glibc: *\([0-9.]*\).*/\1/p' "$kitdir/BUILDINFO")
have=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
if [ -n "$need" ] && [ -n "$have" ] \
        && [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1)" != "$need" ]; then
    echo "gpu-check: the kit needs glibc $need, this machine has $have:" \
         "build the kit on an older system" >&2
    exit 2
fi
# libnvvm and libdevice are found through CUDA_HOME
if [ -z "${CUDA_HOME:-}" ] && [ -d /usr/local/cuda ]; then
    export CUDA_HOME=/usr/local/cuda
fi

echo "== device"
gpu=no
if command -v nvidia-smi >/dev/null 2>&1; then
    smi=$(nvidia-smi 2>&1)
    query=$(nvidia-smi --query-gpu=name,compute_cap,memory.total,driver_version \
                --format=csv,noheader 2>&1)
    nvidia-smi -L >/dev/null 2>&1 && [ -n "$query" ] && gpu=yes
else
    smi="nvidia-smi: not found"
    query="no NVIDIA GPU seen (no nvidia-smi)"
fi
echo "$smi"
sysinfo=$("$kitdir/bin/ufjit" sysinfo 2>&1)
loader=$(ldd "$kitdir/bin/ufjit" 2>&1)

echo "== tests"
t0=$(date +%s)
KIT_DEADLINE=$test_secs bash "$kitdir/run.sh" "$out/tests"
test_rc=$?
t1=$(date +%s)

echo "== benchmarks"
bench_rc=0
runner=""
for r in bench/cuda/run.py bench/cuda/run.sh; do
    [ -f "$r" ] && { runner=$r; break; }
done
if [ -z "$runner" ]; then
    bench_note="none: the repo has no bench/cuda/run.py or run.sh yet"
elif [ "$gpu" = no ] && [ "${GPU_CHECK_BENCH:-0}" != 1 ]; then
    bench_note="not run: no GPU seen ($runner exists; GPU_CHECK_BENCH=1 runs it anyway)"
else
    mkdir -p "$out/bench"
    case "$runner" in *.py) interp=python3 ;; *) interp=bash ;; esac
    UFJIT_KIT=$kitdir UFJIT_BIN=$kitdir/bin/ufjit UFJIT_BENCH_OUT=$out/bench \
        PYTHONUNBUFFERED=1 timeout -k 10 "$bench_secs" "$interp" "$runner" \
        ${GPU_CHECK_BENCH_ARGS:-} >"$out/bench/bench.log" 2>&1
    bench_rc=$?
    tail -40 "$out/bench/bench.log"
    case $bench_rc in
        0) bench_note="$runner: done in $(( $(date +%s) - t1 )) s (bench/)" ;;
        124 | 137) bench_note="$runner: stopped at the $bench_secs s limit (bench/bench.log)" ;;
        *) bench_note="$runner: failed, exit $bench_rc (bench/bench.log)" ;;
    esac
fi
echo "$bench_note"

interop_note="not run (GPU_CHECK_INTEROP names no interop kit)"
irc=0
if [ -n "${GPU_CHECK_INTEROP:-}" ]; then
    echo "== interop kit and the Python package"
    iu=$(mktemp -d "${TMPDIR:-/tmp}/ufjit-interop.XXXXXX")
    if tar -C "$iu" -xJf "$GPU_CHECK_INTEROP"; then
        ilog=$(bash "$iu/gpu-interop-kit/run-interop.sh" 2>&1)
        irc=$?
        echo "$ilog" | tail -60
        interop_note="exit $irc; the log's last lines:
\`\`\`
$(echo "$ilog" | grep -v '^WARNING: Running pip' | tail -40)
\`\`\`"
    else
        interop_note="$GPU_CHECK_INTEROP did not unpack"
        irc=2
    fi
    rm -rf "$iu"
fi

{
    echo "# ufjit GPU check"
    echo
    echo "- When: $(date -u '+%Y-%m-%d %H:%M UTC'), on $(uname -n) ($(uname -m))"
    echo "- Device: $(echo "$query" | paste -sd ';' -)"
    echo "- UFJIT_ENABLE_CUDASIM: ${UFJIT_ENABLE_CUDASIM:-unset}; CUDA_HOME: ${CUDA_HOME:-unset}"
    echo "- Kit: $(sed -n 's/^commit: *//p' "$kitdir/BUILDINFO"), built $(sed -n 's/^built: *//p' "$kitdir/BUILDINFO")"
    echo
    echo "## Tests ($((t1 - t0)) s)"
    echo
    if [ -f "$out/tests/summary.md" ]; then
        cat "$out/tests/summary.md"
    else
        echo "run.sh wrote no summary (exit $test_rc)"
    fi
    echo
    echo "## Benchmarks"
    echo
    echo "$bench_note"
    echo
    echo "## Interop kit and the Python package"
    echo
    echo "$interop_note"
    echo
    echo "## nvidia-smi"
    echo
    echo '```'
    echo "$smi"
    echo '```'
    echo
    echo "## ufjit sysinfo"
    echo
    echo '```'
    echo "$sysinfo"
    echo '```'
    echo
    echo "## ldd bin/ufjit"
    echo
    echo '```'
    echo "$loader"
    echo '```'
} >"$out/SUMMARY.md"
echo "gpu-check: results in $out (SUMMARY.md)"
[ -n "${unpacked:-}" ] && rm -rf "$unpacked"
[ "$test_rc" = 0 ] && [ "$bench_rc" = 0 ] && { [ "$irc" = 0 ] || [ "$irc" = 77 ]; }
