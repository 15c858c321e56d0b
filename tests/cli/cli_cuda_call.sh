#!/usr/bin/env bash
# `ufjit call --target cudasim|cuda` against `--target cpu`: the same
# .npy file byte for byte (inputs written here by `ufjit npy convert` from
# the committed data, so no NumPy is needed), views and broadcasting
# included; UFJIT_ENABLE_CUDASIM=1 runs `cuda` on the simulator; `cuda`
# without a driver fails with one clear line, exit 1, and no output file.
#
#   cli_cuda_call.sh UFJIT KERNELS DATA
set -u
UFJIT=$1
K=$2/seeds.py
DATA=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/ufjit-cli-cuda.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
failures=0

fail() {
    local n=${#BASH_LINENO[@]}
    echo "cli_cuda_call.sh:${BASH_LINENO[n - 2]}: $*" >&2
    failures=$((failures + 1))
}

# ok ARGS...: ufjit exits 0 with nothing on stderr (but ASan's note on
# cudasim's fibers in the sanitizer build).
ok() {
    "$UFJIT" "$@" >"$T/stdout" 2>"$T/stderr.all"
    local rc=$?
    grep -v "WARNING: ASan doesn't fully support makecontext" \
        "$T/stderr.all" >"$T/stderr"
    [ "$rc" = 0 ] || fail "ufjit $* exited $rc: $(cat "$T/stderr")"
    [ -s "$T/stderr" ] && fail "ufjit $* wrote to stderr: $(cat "$T/stderr")"
}

# same_as_cpu TARGET NAME ARG...: the call on TARGET writes the bytes cpu
# writes.
same_as_cpu() {
    local target=$1 name=$2
    shift 2
    rm -f "$T/cpu.npy" "$T/dev.npy"
    ok call "$K" "$name" "$@" --target cpu -o "$T/cpu.npy"
    ok call "$K" "$name" "$@" --target "$target" -o "$T/dev.npy"
    cmp -s "$T/cpu.npy" "$T/dev.npy" ||
        fail "$name $* on $target differs from cpu"
}

ok npy convert "$DATA/i8_3d.npy" "$T/a.npy" --dtype float64
ok npy convert "$DATA/f8_f.npy" "$T/b.npy" --order C
ok npy convert "$DATA/big.npy" "$T/big.npy" --dtype float32

# the issue's example: rel_diff of two float64 files, broadcast
same_as_cpu cudasim rel_diff "$T/a.npy" "$T/b.npy"
# an F-ordered input, negative-stride and strided views, a scalar
same_as_cpu cudasim rel_diff "$DATA/f8_f.npy" "$T/b.npy[::-1]"
same_as_cpu cudasim rel_diff "$T/big.npy[::-2, 1::3]" "$T/big.npy[:15, :13]"
same_as_cpu cudasim rel_diff "$DATA/big.npy" "$DATA/big.npy[::-1]"
same_as_cpu cudasim gaussian_pdf2 "$T/a.npy" "$T/b.npy[1]" "$T/b.npy[2, 3]"

# cuda on the simulator
UFJIT_ENABLE_CUDASIM=1 same_as_cpu cuda rel_diff "$T/a.npy" "$T/b.npy"

# cuda with no driver: exit 1, one "ufjit: ..." line naming the reason,
# no output file left behind
rm -f "$T/none.npy"
UFJIT_CUDA_DRIVER=/nonexistent/libcuda.so.1 UFJIT_ENABLE_CUDASIM=0 \
    "$UFJIT" call "$K" rel_diff "$T/a.npy" "$T/b.npy" --target cuda \
    -o "$T/none.npy" >"$T/stdout" 2>"$T/stderr.all"
rc=$?
grep -v "WARNING: ASan doesn't fully support makecontext" \
    "$T/stderr.all" >"$T/stderr"
[ "$rc" = 1 ] || fail "no driver: exit $rc, expected 1"
[ "$(wc -l <"$T/stderr")" = 1 ] ||
    fail "no driver: stderr is not one line: $(cat "$T/stderr")"
grep -q '^ufjit: .*no CUDA driver: /nonexistent/libcuda.so.1' "$T/stderr" ||
    fail "no driver: stderr lacks the reason: $(cat "$T/stderr")"
[ -e "$T/none.npy" ] && fail "no driver: an output file was left behind"
[ -s "$T/stdout" ] && fail "no driver: wrote to stdout: $(cat "$T/stdout")"

if [ "$failures" != 0 ]; then
    echo "cli_cuda_call.sh: $failures failure(s)" >&2
    exit 1
fi
echo "cli_cuda_call.sh: all checks passed"
