#!/usr/bin/env bash
# ufjit sysinfo's CUDA section: the driver and each GPU through the fake
# libcuda the tests build (tests/cuda/fake_libcuda.c, scripted by
# UFJIT_FAKE_CUDA), the reason when there is none, and this machine as it
# is (no libcuda.so.1 here; the real driver on a GPU machine).
#
#   cli_sysinfo_cuda.sh UFJIT FAKE_LIBCUDA
set -u
UFJIT=$1
FAKE=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/ufjit-cli-cuda.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
failures=0
checks=0

fail() {
    local n=${#BASH_LINENO[@]}
    echo "cli_sysinfo_cuda.sh:${BASH_LINENO[n - 2]}: $*" >&2
    failures=$((failures + 1))
}

# sysinfo ENV...: runs `env ENV... ufjit sysinfo`; exit 0, nothing on stderr.
sysinfo() {
    env -u UFJIT_CUDA_DRIVER -u UFJIT_FAKE_CUDA "$@" "$UFJIT" sysinfo \
        >"$T/stdout" 2>"$T/stderr"
    local rc=$?
    checks=$((checks + 1))
    [ "$rc" = 0 ] || fail "sysinfo exited $rc: $(cat "$T/stderr")"
    [ -s "$T/stderr" ] && fail "sysinfo wrote to stderr: $(cat "$T/stderr")"
}

expect_out() { # grep -E pattern that stdout must match
    checks=$((checks + 1))
    grep -Eq -- "$1" "$T/stdout" || fail "stdout lacks /$1/:
$(sed -n '/^CUDA$/,/^$/p' "$T/stdout")"
}

no_out() {
    checks=$((checks + 1))
    if grep -Eq -- "$1" "$T/stdout"; then fail "stdout has /$1/"; fi
}

# This machine as users run it.
sysinfo
if grep -Eq '^  CUDA driver +: [0-9]+\.[0-9]+ \(' "$T/stdout"; then
    echo "a CUDA driver is installed here: $(grep -E '^  (CUDA driver|GPU)' "$T/stdout")"
    expect_out '^  GPU 0 +: .+, compute capability [0-9]+\.[0-9], [0-9.]+ GiB$'
else
    expect_out '^  CUDA driver +: unavailable: .*libcuda'
    no_out '^  GPU 0 '
fi

# The fake: one H100-like device.
sysinfo UFJIT_CUDA_DRIVER="$FAKE"
expect_out "^  CUDA driver +: 13\\.0 \\($FAKE\\), 1 device$"
expect_out '^  GPU 0 +: Fake NVIDIA H100, compute capability 9\.0, 80\.0 GiB$'
no_out '^  GPU 1 '
expect_out "^  UFJIT_CUDA_DRIVER +: $FAKE$"

# Two devices of a 12.8 driver.
sysinfo UFJIT_CUDA_DRIVER="$FAKE" \
    UFJIT_FAKE_CUDA='count=2,version=12080,name=Fake H200,cc=9.0,mem=150323855360'
expect_out "^  CUDA driver +: 12\\.8 \\($FAKE\\), 2 devices$"
expect_out '^  GPU 0 +: Fake H200, compute capability 9\.0, 140\.0 GiB$'
expect_out '^  GPU 1 +: Fake H200, compute capability 9\.0, 140\.0 GiB$'

# The reasons, in the driver's row; a device the driver cannot describe.
sysinfo UFJIT_CUDA_DRIVER="$FAKE" UFJIT_FAKE_CUDA=init=34
expect_out '^  CUDA driver +: unavailable: the CUDA driver .* stub library'
sysinfo UFJIT_CUDA_DRIVER="$FAKE" UFJIT_FAKE_CUDA=init=100
expect_out '^  CUDA driver +: unavailable: no CUDA device: .*CUDA_ERROR_NO_DEVICE'
sysinfo UFJIT_CUDA_DRIVER="$FAKE" UFJIT_FAKE_CUDA=count=0
expect_out '^  CUDA driver +: unavailable: no CUDA device: .*reports 0 devices$'
sysinfo UFJIT_CUDA_DRIVER="$T/nothing.so"
expect_out "^  CUDA driver +: unavailable: no CUDA driver: $T/nothing.so: cannot open"
sysinfo UFJIT_CUDA_DRIVER="$FAKE" UFJIT_FAKE_CUDA=fail=cuDeviceGetName:999
expect_out '^  GPU 0 +: unreadable: cuDeviceGetName failed on cuda: CUDA_ERROR_UNKNOWN'

stub=/usr/local/cuda/lib64/stubs/libcuda.so
if [ -r "$stub" ]; then
    sysinfo UFJIT_CUDA_DRIVER="$stub"
    expect_out "^  CUDA driver +: unavailable: the CUDA driver $stub is the CUDA toolkit's stub library"
else
    echo "SKIP (one check): no CUDA toolkit stub at $stub"
fi

echo "cli_sysinfo_cuda.sh: $checks checks, $failures failed"
[ "$failures" = 0 ]
