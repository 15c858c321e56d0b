#!/usr/bin/env bash
# The CPU-feature override (UFJIT_CPU_FEATURES, UFJIT_CPU_NAME) as the
# command shows it: `ufjit inspect --asm` of an exp kernel calls libmvec's
# AVX2 _ZGVdN4v_exp / _ZGVdN8v_expf with -avx512f and no 512-bit variant,
# the AVX-512 ones without it on an AVX-512 CPU (or SLEEF's, where the JIT
# picks SLEEF), no vector math at all with -avx2; with ufjit's inline exp
# forced on (UFJIT_INLINE_VECMATH=1) no call on either path; `ufjit call` gives the same results (within 4 ulp) either way;
# sysinfo shows the override; a bad value is one "ufjit: ..." line and a
# non-zero exit.
#
#   cli_cpu_override.sh UFJIT
set -u
UFJIT=$1
T=$(mktemp -d "${TMPDIR:-/tmp}/ufjit-cpu-test.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
failures=0

fail() {
    local n=${#BASH_LINENO[@]}
    echo "cli_cpu_override.sh:${BASH_LINENO[n - 2]}: $*" >&2
    failures=$((failures + 1))
}

cat >"$T/k.py" <<'PY'
import math
from numba import vectorize

@vectorize(['float64(float64)', 'float32(float32)'])
def gauss(x):
    return math.exp(-x * x)
PY

# asm FEATURES SIG: the vector-math symbols the listing calls (libmvec's
# or SLEEF's), one a line; SLEEF off unless SLEEF=1, ufjit's inline exp
# (codegen_host_inline.c) off unless INLINE=1
asm() {
    local sleef=0 inl=0
    [ "${SLEEF:-0}" = 1 ] && sleef=1
    [ "${INLINE:-0}" = 1 ] && inl=1
    UFJIT_INLINE_VECMATH=$inl UFJIT_ENABLE_SLEEF=$sleef \
        UFJIT_CPU_FEATURES=$1 "$UFJIT" inspect \
        "$T/k.py" gauss --signature "$2" --asm 2>&1 \
        | grep -o '_ZGV[A-Za-z0-9]*_[a-z0-9]*\|Sleef_[a-z0-9_]*' | sort -u
}

avx512=$(grep -m1 -c ' avx512f' /proc/cpuinfo)
for sig in 'float64(float64)' 'float32(float32)'; do
    case $sig in float64*) d=_ZGVdN4v_exp e=_ZGVeN8v_exp s=Sleef_expd8_ ;;
                 *) d=_ZGVdN8v_expf e=_ZGVeN16v_expf s=Sleef_expf16_ ;; esac
    got=$(asm -avx512f "$sig")
    [ "$got" = "$d" ] || fail "$sig with -avx512f calls '$got', not $d"
    got=$(SLEEF=1 asm -avx512f "$sig")
    [ "$got" = "$d" ] || fail "$sig with -avx512f and SLEEF calls '$got', not $d"
    got=$(asm "" "$sig")
    if [ "$avx512" = 1 ]; then
        echo "$got" | grep -qx "$e" || fail "$sig on AVX-512: '$got', no $e"
        # with SLEEF installed: libmvec's or SLEEF's AVX-512 exp
        # (codegen_host_sleef.c picks Sleef_expf16_u10avx512f)
        got=$(SLEEF=1 asm "" "$sig")
        echo "$got" | grep -q "^$e\$\|^${s}u[0-9]*avx512f\$" \
            || fail "$sig on AVX-512 with SLEEF: '$got', no 512-bit exp"
    else
        echo "SKIP (part): no AVX-512 here, the widest path is AVX2"
    fi
    got=$(SLEEF=1 asm -avx2 "$sig")
    [ -z "$got" ] || fail "$sig with -avx2 still calls '$got'"
    # inline: no call where the CPU has AVX2 and FMA
    if grep -q ' fma' /proc/cpuinfo && grep -q ' avx2' /proc/cpuinfo; then
        got=$(INLINE=1 SLEEF=1 asm "" "$sig")$(INLINE=1 asm -avx512f "$sig")
        [ -z "$got" ] || fail "$sig with the inline exp still calls '$got'"
    fi
done

# the same values on both paths (a float64 exp: within libmvec's 4 ulp)
python_ok=0
command -v python3 >/dev/null && python3 -c 'import numpy' 2>/dev/null \
    && python_ok=1
if [ $python_ok = 1 ]; then
    python3 -c "import numpy as np; np.save('$T/x.npy', np.linspace(-6, 6, 1003))"
    UFJIT_CPU_FEATURES= "$UFJIT" call "$T/k.py" gauss "$T/x.npy" -o "$T/w.npy" \
        >/dev/null || fail "call on the widest path failed"
    UFJIT_CPU_FEATURES=-avx512f "$UFJIT" call "$T/k.py" gauss "$T/x.npy" \
        -o "$T/a.npy" >/dev/null || fail "call on the AVX2 path failed"
    python3 - "$T" <<'PY' || fail "AVX2 and widest results differ"
import sys, numpy as np
t = sys.argv[1]
w, a, x = (np.load(f"{t}/{n}.npy") for n in "wax")
ref = np.exp(-x * x)
for name, got in (("widest", w), ("avx2", a)):
    ulp = np.abs(got.view(np.int64) - ref.view(np.int64)).max()
    assert ulp <= 4, (name, ulp)
assert np.abs(w.view(np.int64) - a.view(np.int64)).max() <= 4
PY
else
    echo "SKIP (part): no NumPy, the call results are not compared"
fi

out=$(UFJIT_CPU_FEATURES=-avx512f UFJIT_CPU_NAME=haswell "$UFJIT" sysinfo)
echo "$out" | grep -q 'JIT CPU *: haswell' \
    || fail "sysinfo does not show UFJIT_CPU_NAME: $(echo "$out" | grep 'JIT CPU')"
echo "$out" | grep -q 'UFJIT_CPU_FEATURES *: -avx512f' \
    || fail "sysinfo does not list UFJIT_CPU_FEATURES"
echo "$out" | grep -q 'Vector math *: .*AVX2' \
    || fail "sysinfo's vector math row does not say AVX2: $(echo "$out" | grep 'Vector math')"

for bad in avx512f '+avx 2' '-avx2,,+fma'; do
    UFJIT_CPU_FEATURES=$bad "$UFJIT" inspect "$T/k.py" gauss \
        --signature 'float64(float64)' --asm >"$T/out" 2>"$T/err"
    rc=$?
    [ $rc -ne 0 ] || fail "UFJIT_CPU_FEATURES='$bad' accepted"
    grep -q '^ufjit: UFJIT_CPU_FEATURES: ' "$T/err" \
        || fail "UFJIT_CPU_FEATURES='$bad': $(cat "$T/err")"
    [ "$(wc -l <"$T/err")" -eq 1 ] || fail "more than one line: $(cat "$T/err")"
done

if [ $failures -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
