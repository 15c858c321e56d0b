#!/usr/bin/env bash
# `ufjit call` and `ufjit inspect` on the kernel corpus without NumPy or
# Numba: results worked out by hand (Python's semantics, Numba's typing),
# read back with `ufjit npy show`, on scalars and on the committed .npy
# files of tests/cli/data (their contents are listed in
# tests/cli/gen_data.py). Then the failures: one "ufjit: ..." message (a
# kernel error with FILE:LINE:COL and a caret), a non-zero exit, nothing on
# stdout and no output file left behind.
#
#   kernels_basic.sh UFJIT KERNELS_DIR CLI_DATA_DIR
set -u
UFJIT=$1
K=$2
D=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/ufjit-kernels-test.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
failures=0
checks=0

# Every failure names the line of the top-level check that failed.
fail() {
    local n=${#BASH_LINENO[@]}
    echo "kernels_basic.sh:${BASH_LINENO[n - 2]}: $*" >&2
    failures=$((failures + 1))
}

# run ARGS...: runs ufjit, sets rc, out, err.
run() {
    "$UFJIT" "$@" >"$T/stdout" 2>"$T/stderr"
    rc=$?
    out=$(cat "$T/stdout")
    err=$(cat "$T/stderr")
}

# result EXPECTED_REPR KERNELS NAME ARGS...: calls the kernel with one
# output and compares repr(output) as `npy show` prints it.
result() {
    local want=$1
    shift
    checks=$((checks + 1))
    rm -f "$T/o.npy"
    run call "$@" -o "$T/o.npy"
    if [ "$rc" != 0 ] || [ -n "$err" ]; then
        fail "ufjit call $* exited $rc: $err"
        return
    fi
    run npy show "$T/o.npy"
    local got
    got=$(printf '%s\n' "$out" | sed '1,/^$/d')
    [ "$got" = "$want" ] || fail "ufjit call $*:
--- expected
$want
--- got
$got"
}

# bad CODE PATTERN ARGS...: `ufjit ARGS` exits CODE, prints nothing on
# stdout, its stderr starts with "ufjit: " and matches PATTERN (grep -E),
# and the output directory $T/out stays empty.
bad() {
    local code=$1 pattern=$2
    shift 2
    checks=$((checks + 1))
    rm -rf "$T/out"
    mkdir "$T/out"
    run "$@"
    [ "$rc" = "$code" ] || fail "ufjit $* exited $rc, expected $code: $err"
    [ -z "$out" ] || fail "ufjit $* wrote to stdout: $out"
    case $err in
    "ufjit: "*) ;;
    *) fail "ufjit $*: stderr does not start with 'ufjit: ': $err" ;;
    esac
    grep -Eq -- "$pattern" "$T/stderr" ||
        fail "ufjit $*: stderr lacks /$pattern/: $err"
    [ -z "$(ls -A "$T/out")" ] ||
        fail "ufjit $* left files: $(ls -A "$T/out")"
}

# ---- results worked out by hand ---------------------------------------------

# seed 002's add ufunc and hypot; 1/sqrt(2 pi) in float32
result "array(5)" "$K/seeds.py" add_ufunc 2 3
result "array(5.)" "$K/hypot.py" hypot 3.0 -4.0
result "array(5., dtype=float32)" "$K/hypot.py" hypot float32:3 float32:4
result "array(0.3989423, dtype=float32)" "$K/seeds.py" gaussian_pdf \
    float32:0 float32:0 float32:1
# rel_diff is lazy: int64 inputs, true division gives float64
result "array(-1.)" "$K/seeds.py" rel_diff 1 3
# float32 inputs take the float64 loop listed first (seed 003)
result "array(3.)" "$K/dispatch.py" wide_first float32:1 float32:2
result "array(3., dtype=float32)" "$K/dispatch.py" narrow_first \
    float32:1 float32:2
# int64 cannot go to the int32 loop safely: float64
result "array(7.)" "$K/dispatch.py" first_safe 3 4
result "array(7, dtype=int32)" "$K/dispatch.py" first_safe int16:3 int8:4

# Python's floor division and modulo: towards minus infinity, the
# remainder takes the divisor's sign; NumPy's error model for zero
result "array(-4)" "$K/ops_arith.py" floordiv -7 2
result "array(1)" "$K/ops_arith.py" mod -7 2
result "array(-1)" "$K/ops_arith.py" mod 7 -2
result "array(3)" "$K/ops_arith.py" floordiv -7 -2
result "array(-4.)" "$K/ops_arith.py" floordiv -7.5 2.0
result "array(0.5)" "$K/ops_arith.py" mod -7.5 2.0
result "array(-0.5)" "$K/ops_arith.py" mod 7.5 -2.0
result "array(0)" "$K/ops_arith.py" floordiv 5 0
result "array(0)" "$K/ops_arith.py" mod 5 0
result "array(inf)" "$K/ops_arith.py" truediv 1 0
result "array(-inf)" "$K/ops_arith.py" truediv -1.0 0.0
result "array(nan)" "$K/ops_arith.py" truediv 0.0 0.0
result "array(3.5)" "$K/ops_arith.py" truediv 7 2
result "array(1024)" "$K/ops_arith.py" power 2 10
result "array(0)" "$K/ops_arith.py" power 2 -1
result "array(0.5)" "$K/ops_arith.py" power 2.0 -1
result "array(-8)" "$K/ops_arith.py" invert 7
result "array(True)" "$K/ops_logic.py" chained 1.0 2.0 2.0
result "array(False)" "$K/ops_logic.py" chained 1 2 1
result "array(False)" "$K/ops_logic.py" eq nan nan
result "array(True)" "$K/ops_logic.py" lt_mixed -1 1

# wrap-around
result "array(-128, dtype=int8)" "$K/overflow.py" wrap_add int8:127 int8:1
result "array(4, dtype=uint8)" "$K/overflow.py" wrap_add u1:250 u1:10
result "array(-9223372036854775808)" "$K/overflow.py" wrap_add \
    9223372036854775807 1
result "array(-9223372036854775808)" "$K/overflow.py" wrap_abs \
    int64:-9223372036854775808

# builtins, math, complex
result "array(2)" "$K/py_builtins.py" round0 2.5
result "array(-2)" "$K/py_builtins.py" round0 -2.5
result "array(4)" "$K/py_builtins.py" round0 3.5
result "array(-3)" "$K/py_builtins.py" int_ -3.9
result "array(2)" "$K/math_funcs.py" floor 2.5
result "array(-3)" "$K/math_funcs.py" floor -2.5
result "array(True)" "$K/math_funcs.py" isnan nan
result "array(-0.)" "$K/math_funcs.py" copysign 0.0 -1.0
result "array(5.)" "$K/complex_ops.py" abs_ 3+4j
result "array(7.)" "$K/complex_ops.py" real_plus_imag 3+4j
result "array(8.+0.j)" "$K/complex_ops.py" conjugate 2+2j

# control flow
result "array(4950)" "$K/control.py" sum_range 100
result "array(111)" "$K/control.py" collatz_steps 27
result "array(55)" "$K/control.py" fib 10 0

# seed 003 typing: float32 and int32 unify to float64
result "array(2.)" "$K/typing_seed003.py" select_widen float32:1 int32:2 \
    10 5
result "array(1.5, dtype=float32)" "$K/typing_seed003.py" select_narrow \
    float32:1.5 int32:2 5 10
result "array(3.5)" "$K/typing_seed003.py" add_constant float32:1.5
result "array(3.5, dtype=float32)" "$K/typing_seed003.py" \
    add_constant_typed float32:1.5

# arrays: broadcasting against a 3-d file, a strided reversed view, a
# big-endian file, Fortran order, an empty array
result "array([[[100, 101, 102, 103],
        [104, 105, 106, 107],
        [108, 109, 110, 111]],

       [[112, 113, 114, 115],
        [116, 117, 118, 119],
        [120, 121, 122, 123]]])" "$K/seeds.py" add_ufunc "$D/i8_3d.npy" 100
result "array([[16, 18],
       [ 4,  6]])" "$K/seeds.py" add_ufunc "$D/i8_3d.npy[::-1, 1, ::2]" 0
result "array([[32, 36],
       [ 8, 12]])" "$K/seeds.py" add_ufunc "$D/i8_3d.npy[::-1, 1, ::2]" \
    "$D/i8_3d.npy[::-1, 1, ::2]"
result "array([-2, -1,  0,  1,  2,  3])" "$K/seeds.py" add_ufunc \
    "$D/i2_be.npy" 1
result "array([[[3, 4, 5],
        [3, 4, 5]]])" "$K/seeds.py" add_ufunc "$D/i4_c.npy[None, ::-1]" \
    "$D/i4_c.npy[:, :1]"
result "array([], shape=(0, 3), dtype=float64)" "$K/hypot.py" hypot \
    "$D/u1_empty.npy" 1.0
result "array([[3. , 1.5, nan, 5.5],
       [inf, nan, inf, inf]])" "$K/ops_arith.py" add "$D/f8_f.npy[:2]" \
    "$D/f8_f.npy[:2, :1]"

# several outputs (NumPy-style; Numba's vectorize cannot)
checks=$((checks + 1))
run call "$K/multi_out.py" divmod_pair -7 2 -o "$T/q.npy" -o "$T/r.npy"
if [ "$rc" = 0 ]; then
    q=$("$UFJIT" npy show "$T/q.npy" | tail -1)
    r=$("$UFJIT" npy show "$T/r.npy" | tail -1)
    [ "$q $r" = "array(-4) array(1)" ] || fail "divmod_pair gave $q $r"
    [ "$(printf '%s\n' "$out" | wc -l)" = 2 ] ||
        fail "divmod_pair printed: $out"
else
    fail "divmod_pair exited $rc: $err"
fi

# math.fmod: Numba lacks it, ufjit has it (the sign of the dividend)
cat >"$T/fmod.py" <<'EOF'
import math
from numba import vectorize


@vectorize(['float64(float64, float64)'])
def fmod(x, y):
    return math.fmod(x, y)
EOF
result "array(-1.5)" "$T/fmod.py" fmod -7.5 2.0
result "array(1.5)" "$T/fmod.py" fmod 7.5 -2.0

# ---- failures ---------------------------------------------------------------

bad 1 "no kernel named 'no_such'" \
    call "$K/seeds.py" no_such 1 -o "$T/out/o.npy"
bad 1 "add_ufunc" call "$K/seeds.py" no_such 1 -o "$T/out/o.npy"
bad 1 "'add_ufunc' takes 2 inputs, 1 given" \
    call "$K/seeds.py" add_ufunc 1 -o "$T/out/o.npy"
bad 1 "'sincos' has 2 outputs but 1 -o file was given" \
    call "$K/multi_out.py" sincos 1.0 -o "$T/out/o.npy"
bad 1 "'add_ufunc' has 1 output but 2 -o files were given" \
    call "$K/seeds.py" add_ufunc 1 2 -o "$T/out/a.npy" -o "$T/out/b.npy"
bad 1 "'polar_to_cartesian' has 2 outputs but 1 -o file was given" \
    call "$K/seeds.py" polar_to_cartesian 1.0 2.0 -o "$T/out/a.npy"
bad 1 "Cannot unify" call "$K/err_unify.py" select_tuple 1.0 2.0 true \
    -o "$T/out/o.npy"
bad 1 "broadcast" call "$K/seeds.py" add_ufunc "$D/i8_3d.npy" \
    "$D/i4_c.npy" -o "$T/out/o.npy"
bad 1 "add_ufunc" call "$K/seeds.py" add_ufunc 1.5 2 -o "$T/out/o.npy"
bad 1 "i8_3d.npy" call "$K/seeds.py" add_ufunc "$D/i8_3d.npy[5]" 1 \
    -o "$T/out/o.npy"
bad 1 "nothing.npy" call "$K/seeds.py" add_ufunc "$T/nothing.npy" 1 \
    -o "$T/out/o.npy"
bad 1 "nothing.py" call "$T/nothing.py" f 1 -o "$T/out/o.npy"
bad 2 "positive integer" call "$K/seeds.py" add_ufunc 1 2 --threads 2x \
    -o "$T/out/o.npy"
# no driver, whatever the machine has: the call fails, saying so
UFJIT_CUDA_DRIVER=/nonexistent/libcuda.so.1 UFJIT_ENABLE_CUDASIM= \
    bad 1 "no CUDA driver" call "$K/seeds.py" add_ufunc 1 2 --target cuda \
    -o "$T/out/o.npy"
bad 2 "unknown target 'gpu'" call "$K/seeds.py" add_ufunc 1 2 \
    --target gpu -o "$T/out/o.npy"
bad 2 "positive integer" call "$K/seeds.py" add_ufunc 1 2 --threads x \
    -o "$T/out/o.npy"
bad 2 "neither a .npy file nor a scalar" \
    call "$K/seeds.py" add_ufunc 1 x.np -o "$T/out/o.npy"
bad 2 "out of range" call "$K/seeds.py" add_ufunc 1 int8:128 \
    -o "$T/out/o.npy"
bad 2 "no output file" call "$K/seeds.py" add_ufunc 1 2
bad 2 "given twice" call "$K/seeds.py" add_ufunc 1 2 -o "$T/out/o.npy" \
    -o "$T/out/o.npy"
bad 2 "needs a file name" call "$K/seeds.py" add_ufunc 1 2 -o
bad 2 "missing the kernel NAME" call "$K/seeds.py"
bad 2 "missing KERNELS.py" call
bad 2 "unknown option '--frobnicate'" call "$K/seeds.py" add_ufunc 1 2 \
    -o "$T/out/o.npy" --frobnicate

# A kernel error: FILE:LINE:COL, then the source line and a caret.
printf 'from numba import vectorize\n\n\n@vectorize\ndef f(x):\n    return x +* 2\n' \
    >"$T/syntax.py"
bad 1 "^ufjit: $T/syntax.py:6:15: " call "$T/syntax.py" f 1 \
    -o "$T/out/o.npy"
checks=$((checks + 1))
[ "$(sed -n 2p "$T/stderr")" = "    return x +* 2" ] &&
    [ "$(sed -n 3p "$T/stderr")" = "              ^" ] ||
    fail "no source line and caret under column 15: $err"

# All or nothing: the second output cannot be written (no such directory),
# so the first is not written either, and nothing is computed.
bad 1 "cannot write '$T/out/missing/b.npy'" call "$K/multi_out.py" \
    divmod_pair 7 2 -o "$T/out/a.npy" -o "$T/out/missing/b.npy"
bad 1 "is a directory" call "$K/seeds.py" add_ufunc 1 2 -o "$T/out"
# An existing output file is replaced only on success.
checks=$((checks + 1))
echo keep >"$T/keep.npy"
run call "$K/seeds.py" add_ufunc 1 1.5 -o "$T/keep.npy"
[ "$rc" = 1 ] && [ "$(cat "$T/keep.npy")" = keep ] ||
    fail "a failed call changed its output file (exit $rc)"
[ -z "$(ls "$T" | grep 'keep.npy.tmp')" ] ||
    fail "temporary files left: $(ls "$T")"

# ---- help and inspect -------------------------------------------------------

checks=$((checks + 1))
run call --help
[ "$rc" = 0 ] && grep -q "^usage: ufjit call" "$T/stdout" ||
    fail "call --help: exit $rc"
checks=$((checks + 1))
run help inspect
[ "$rc" = 0 ] && grep -q "^usage: ufjit inspect" "$T/stdout" ||
    fail "help inspect: exit $rc"

checks=$((checks + 1))
run inspect "$K/seeds.py" gaussian_pdf
[ "$rc" = 0 ] && grep -q "x = arg(0) :: float32" "$T/stdout" &&
    grep -q "return math.exp" "$T/stdout" ||
    fail "inspect --types (default): exit $rc: $out $err"
checks=$((checks + 1))
run inspect "$K/seeds.py" rel_diff --signature 'float64(float64, float64)' \
    --llvm --types
[ "$rc" = 0 ] && grep -q "^define" "$T/stdout" &&
    grep -q ":: float64" "$T/stdout" ||
    fail "inspect --llvm --types: exit $rc: $err"
checks=$((checks + 1))
run inspect "$K/hypot.py" hypot --asm
[ "$rc" = 0 ] && [ "$(grep -c '^== hypot' "$T/stdout")" = 2 ] &&
    grep -Eq "ret[q]?$" "$T/stdout" ||
    fail "inspect --asm (both signatures): exit $rc: $err"
bad 1 "declares no signatures" inspect "$K/seeds.py" rel_diff
checks=$((checks + 1))
run inspect "$K/seeds.py" add_ufunc --ptx
[ "$rc" = 0 ] && grep -q '^\.visible \.entry ufk0_add_ufunc_c($' "$T/stdout" ||
    fail "inspect --ptx: exit $rc: $err"
bad 1 "PTX listings are made for vectorize and guvectorize kernels" \
    inspect "$K/njit_funcs.py" "$(sed -n 's/^def \([a-z_0-9]*\).*/\1/p' \
                                  "$K/njit_funcs.py" | head -1)" --ptx
bad 1 "Cannot unify" inspect "$K/err_unify.py" select_tuple \
    --signature 'float32(float32, float32, boolean)'
bad 1 "^ufjit: $T/syntax.py:6:15: " inspect "$T/syntax.py" f \
    --signature 'int64(int64)'
bad 2 "missing the kernel NAME" inspect "$K/seeds.py"

# the other kinds: whole modules, compiled for the listing
checks=$((checks + 1))
run inspect "$K/gufuncs.py" matvec --types --llvm
[ "$rc" = 0 ] && [ "$(grep -c '^== matvec void(' "$T/stdout")" = 2 ] &&
    grep -q "M = arg(0) :: array(float32, 2d, A)" "$T/stdout" &&
    grep -q "^define" "$T/stdout" ||
    fail "inspect guvectorize: exit $rc: $err"
checks=$((checks + 1))
run inspect "$K/njit_funcs.py" div_mod \
    --signature 'UniTuple(int64, 2)(int64, int64)' --types --asm
[ "$rc" = 0 ] && grep -q ":: int64" "$T/stdout" &&
    grep -Eq "ret[q]?$" "$T/stdout" ||
    fail "inspect njit: exit $rc: $err"
checks=$((checks + 1))
run inspect "$K/reduce_kernels.py" sum_reduce \
    --signature 'float64(float64, float64)' --llvm
[ "$rc" = 0 ] && grep -q "^define .*_red_tree(" "$T/stdout" ||
    fail "inspect reduce (pairwise tree for a sum): exit $rc: $err"
bad 1 "one accumulator type" inspect "$K/reduce_kernels.py" sum_reduce \
    --signature 'float64(float64, int64)'
bad 1 "declares no signatures: give one" inspect "$K/njit_funcs.py" div_mod
cat >"$T/device.py" <<'PY'
from numba import cuda


@cuda.jit(device=True)
def twice(x):
    return 2 * x
PY
bad 1 "is a device function" inspect "$T/device.py" twice \
    --signature 'float64(float64)'

echo "kernels_basic: $checks checks, $failures failures"
[ "$failures" = 0 ]
