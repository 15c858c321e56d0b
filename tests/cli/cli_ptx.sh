#!/bin/bash
# ufjit inspect --ptx: the PTX of a vectorize kernel's CUDA entry (libnvvm,
# or LLVM's NVPTX where libnvvm is missing), with ptxas -v's report when
# ptxas is installed, and ptxas accepts it for sm_80 and sm_90;
# UFJIT_DUMP_PTX=1 prints every CUDA compilation's PTX to stderr; a
# guvectorize kernel's --ptx lists its general and C-contiguous 32-bit
# kernels, which ptxas accepts too; --ptx of a kind the cuda target does
# not compile (njit) is refused.
UFJIT=$1
KERNELS=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/ufjit-ptx-test.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

"$UFJIT" inspect "$KERNELS/seeds.py" rel_diff --ptx \
    --signature 'float64(float64, float64)' >"$T/out" 2>"$T/err" ||
    fail "inspect --ptx exited $?: $(cat "$T/err")"
grep -q '^== rel_diff float64(float64, float64) ==$' "$T/out" ||
    fail "no signature header: $(head -3 "$T/out")"
grep -Eq '^\.visible \.entry ufk0_rel_diff_c\($' "$T/out" ||
    fail "no .entry in: $(cat "$T/out")"

# the PTX alone: from ".version" to the end of the kernel
sed -n '/^\.version/,/^}$/p' "$T/out" >"$T/k.ptx"
[ -s "$T/k.ptx" ] || fail "no PTX body"
PTXAS=$(command -v ptxas || { [ -x /usr/local/cuda/bin/ptxas ] &&
        echo /usr/local/cuda/bin/ptxas; })
if [ -n "$PTXAS" ]; then
    grep -q '^//   ptxas info    : Used [0-9]* registers' "$T/out" ||
        fail "no ptxas -v registers line"
    for sm in sm_80 sm_90; do
        "$PTXAS" -arch=$sm -o /dev/null "$T/k.ptx" ||
            fail "ptxas -arch=$sm refuses the PTX"
    done
else
    echo "SKIP ptxas checks: ptxas not found"
fi

UFJIT_DUMP_PTX=1 "$UFJIT" inspect "$KERNELS/seeds.py" gaussian_pdf --ptx \
    >/dev/null 2>"$T/err" || fail "inspect gaussian_pdf --ptx failed"
grep -q '^---- PTX ufk0_gaussian_pdf_c' "$T/err" ||
    fail "UFJIT_DUMP_PTX printed nothing: $(head -3 "$T/err")"

"$UFJIT" inspect "$KERNELS/gufuncs.py" matvec --ptx \
    --signature 'void(float64[:,:], float64[:], float64[:])' \
    >"$T/gout" 2>"$T/err" ||
    fail "inspect matvec --ptx exited $?: $(cat "$T/err")"
grep -q '^== matvec void(float64\[:,:\], float64\[:\], float64\[:\]) ==$' \
    "$T/gout" || fail "no matvec header: $(head -3 "$T/gout")"
for entry in ufk0_matvec_gs ufk1_matvec_gsc_i32; do
    grep -Eq "^\.visible \.entry $entry\($" "$T/gout" ||
        fail "no .entry $entry in: $(grep '\.entry' "$T/gout")"
done
sed -n '/^\.version/,/^\/\/ ptxas/p' "$T/gout" | grep -v '^// ptxas' \
    >"$T/g.ptx"
[ -s "$T/g.ptx" ] || fail "no guvectorize PTX body"
if [ -n "$PTXAS" ]; then
    [ "$(grep -c '^//   ptxas info    : Used [0-9]* registers' "$T/gout")" \
        = 2 ] || fail "not one ptxas registers line per guvectorize kernel"
    for sm in sm_80 sm_90; do
        "$PTXAS" -arch=$sm -o /dev/null "$T/g.ptx" ||
            fail "ptxas -arch=$sm refuses the guvectorize PTX"
    done
fi

# every declared signature without --signature
"$UFJIT" inspect "$KERNELS/gufuncs.py" matmul --ptx >"$T/gout" 2>"$T/err" ||
    fail "inspect matmul --ptx exited $?: $(cat "$T/err")"
[ "$(grep -c '^\.visible \.entry ufk0_matmul_gs(' "$T/gout")" = 2 ] ||
    fail "matmul: not one general kernel per signature"

NJIT=$(sed -n 's/^def \([a-z_0-9]*\).*/\1/p' "$KERNELS/njit_funcs.py" | head -1)
"$UFJIT" inspect "$KERNELS/njit_funcs.py" "$NJIT" --ptx >/dev/null \
    2>"$T/err" && fail "--ptx of an njit function succeeded"
grep -q 'PTX listings are made for vectorize and guvectorize kernels' \
    "$T/err" || fail "unexpected refusal: $(cat "$T/err")"
echo "cli_ptx: ok"
