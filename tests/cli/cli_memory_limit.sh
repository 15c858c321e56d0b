#!/usr/bin/env bash
# Out of memory while compiling (issue 20): under shrinking address-space
# limits, `ufjit call` on a kernel that keeps LLVM busy either succeeds,
# fails cleanly ("ufjit: out of memory", exit 1), or, where LLVM itself
# runs out and cannot return, says so in one line before the process
# aborts. A crash without that line (SIGSEGV, a bare "std::bad_alloc") fails.
#
#   cli_memory_limit.sh UFJIT DATA SANITIZED
set -u
UFJIT=$1
DATA=$2
if [ "$3" = ON ]; then
    echo "SKIP: address-space limits cannot apply under AddressSanitizer"
    exit 77
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/ufjit-oom-test.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

{
    echo "from numba import vectorize"
    echo "@vectorize(['float64(float64)'])"
    echo "def f(x):"
    for i in $(seq 0 299); do
        echo "    if x > $i:"
        echo "        x = x + 1"
    done
    echo "    return x"
} >"$T/k.py"

failures=0 clean=0 llvm=0 ok=0
for kb in 180000 200000 220000 240000 260000 280000 300000 340000 400000 \
          600000; do
    (ulimit -v "$kb"; exec "$UFJIT" call "$T/k.py" f "$DATA/f8_f.npy" \
        -o "$T/out.npy") >"$T/stdout" 2>"$T/stderr"
    rc=$?
    err=$(cat "$T/stderr")
    if [ "$rc" = 0 ]; then
        ok=$((ok + 1))
    elif [ "$rc" = 1 ] && grep -q "^ufjit: .*out of memory" "$T/stderr"; then
        clean=$((clean + 1))
    elif [ "$rc" = 134 ] &&
         grep -q "^ufjit: out of memory while LLVM compiled" "$T/stderr"; then
        llvm=$((llvm + 1))
    elif [ "$rc" = 127 ]; then
        : # the limit stopped the dynamic loader: nothing of ufjit ran
    else
        echo "cli_memory_limit.sh: ulimit -v $kb: exit $rc: $err" >&2
        failures=$((failures + 1))
    fi
done
echo "succeeded $ok, failed cleanly $clean, LLVM out of memory $llvm"
[ "$ok" -gt 0 ] || { echo "no run succeeded: raise the limits" >&2; exit 1; }
exit $((failures > 0))
