#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a while on a
# scratch copy of its seed corpus (the repository is never written).
#
#   tests/fuzz/fuzz.sh [--smoke] BUILD_DIR SECONDS [TARGET...]
#
# --smoke (make test): when clang or libFuzzer is missing, print
# "SKIPPED: fuzz smoke: <reason>" and succeed. Any crash, leak, timeout or
# out-of-memory fails the run; libFuzzer's reproducer is left in
# BUILD_DIR/fuzz-artifacts/. FUZZ_KERNEL_MAX_LEN bounds the front end's
# inputs (default 1 MiB: long chains must be reachable).
set -euo pipefail

smoke=0
if [ "${1:-}" = "--smoke" ]; then
    smoke=1
    shift
fi
build=${1:?usage: fuzz.sh [--smoke] BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: fuzz.sh [--smoke] BUILD_DIR SECONDS [TARGET...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(npy index dtype gufunc_sig cache kernel)

skip() {
    if [ "$smoke" = 1 ]; then
        echo "SKIPPED: fuzz smoke: $1"
        exit 0
    fi
    echo "fuzz: $1" >&2
    exit 1
}

cc=$(command -v clang-14 || command -v clang || true)
cxx=$(command -v clang++-14 || command -v clang++ || true)
[ -n "$cc" ] && [ -n "$cxx" ] || skip "clang not found (apt-get install clang-14)"
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ return 0; }\n' \
    > "$probe/p.c"
"$cc" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" \
    >/dev/null 2>&1 \
    || skip "$cc cannot link -fsanitize=fuzzer,address,undefined (apt-get install libclang-rt-14-dev)"

# Only the library and the fuzz targets: the tests, CLI and benchmarks are
# not built here.
# The compilers only on the first configure: naming them again (another
# spelling of the same clang) would make CMake drop the cache.
compilers=()
[ -f "$build/CMakeCache.txt" ] \
    || compilers=(-DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx")
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "${compilers[@]}" -DUFJIT_FUZZ=ON -DUFJIT_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target fuzz -j "${JOBS:-$(nproc)}" >/dev/null

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=()
for t in "${targets[@]}"; do
    corpus="$build/fuzz-corpus/$t"
    artifacts="$build/fuzz-artifacts/$t"
    mkdir -p "$corpus" "$artifacts"
    cp -n "$here/corpus/$t"/* "$corpus"/ 2>/dev/null || true
    # the front end also starts from the test suite's kernel files, read
    # where they stand rather than kept twice
    if [ "$t" = kernel ]; then
        cp -n "$here/../kernels"/*.py "$corpus"/
    fi
    # the cheap targets take any input in microseconds: 10 s is a hang
    opts=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048
          -max_len=8192 -print_final_stats=1
          -artifact_prefix="$artifacts/")
    case $t in
        kernel) opts+=(-dict="$here/kernel.dict" -timeout=30
                       -max_len="${FUZZ_KERNEL_MAX_LEN:-1048576}") ;;
    esac
    log="$build/fuzz-$t.log"
    # the stack a default thread has, whatever the caller's ulimit
    if (ulimit -s 8192 && "$build/tests/fuzz/fuzz_$t" "${opts[@]}" \
            "$corpus") >"$log" 2>&1; then
        status=ok
    else
        status=FAILED
        failed+=("$t")
    fi
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n1 || true)
    printf 'fuzz %-10s %-6s %s\n' "$t" "$status" "${done_line:-(see $log)}"
    if [ "$status" = FAILED ]; then
        grep -E 'ERROR:|SUMMARY:|Test unit written' "$log" | head -n 5 || true
    fi
done
if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: FAILED: ${failed[*]} (logs: $build/fuzz-*.log)" >&2
    exit 1
fi
