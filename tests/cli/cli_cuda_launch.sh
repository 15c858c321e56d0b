#!/usr/bin/env bash
# `ufjit launch` of the cuda.jit kernels of tests/kernels/cuda/ on cudasim:
# 1-3-D grids and blocks, scalars typed and untyped, views written back,
# dynamic shared memory (--shared); usage errors (exit 2) and kernel
# errors (exit 1) with one "ufjit:" line and no output file left behind;
# `ufjit call` of a kernel points to launch; `ufjit inspect` of kernels
# (--types, --ptx with ptxas -v's registers, max_registers= capping
# them). Inputs are made by `ufjit npy convert` and outputs read by
# `ufjit npy show`, so no NumPy is needed.
#
#   cli_cuda_launch.sh UFJIT KERNELS DATA
set -u
UFJIT=$1
B=$2/cuda/basics.py
S=$2/cuda/shared.py
R=$2/cuda/registers.py
DATA=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/ufjit-cli-launch.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
failures=0

fail() {
    local n=${#BASH_LINENO[@]}
    echo "cli_cuda_launch.sh:${BASH_LINENO[n - 2]}: $*" >&2
    failures=$((failures + 1))
}

# run ARGS...: ufjit's exit code in $rc, its stderr (less ASan's note on
# cudasim's fibers in the sanitizer build) in $T/stderr
run() {
    "$UFJIT" "$@" >"$T/stdout" 2>"$T/stderr.all"
    rc=$?
    grep -v "WARNING: ASan doesn't fully support makecontext" \
        "$T/stderr.all" >"$T/stderr"
}

# ok ARGS...: exit 0 with nothing on stderr
ok() {
    run "$@"
    [ "$rc" = 0 ] || fail "ufjit $* exited $rc: $(cat "$T/stderr")"
    [ -s "$T/stderr" ] && fail "ufjit $* wrote to stderr: $(cat "$T/stderr")"
}

# bad CODE PATTERN ARGS...: exit CODE, one stderr line matching PATTERN,
# and no $T/out.npy left behind
bad() {
    local code=$1 pattern=$2
    shift 2
    rm -f "$T/out.npy"
    run "$@"
    [ "$rc" = "$code" ] || fail "ufjit $*: exit $rc, expected $code"
    [ "$(wc -l <"$T/stderr")" = 1 ] ||
        fail "ufjit $*: stderr is not one line: $(cat "$T/stderr")"
    grep -q -- "$pattern" "$T/stderr" ||
        fail "ufjit $*: stderr lacks '$pattern': $(cat "$T/stderr")"
    [ -e "$T/out.npy" ] && fail "ufjit $*: an output file was left behind"
    ls "$T" | grep -q '\.tmp-' && fail "ufjit $*: a temporary was left"
}

# value FILE [SLICE]: the array (or element) as `npy show` prints it,
# on one line
value() {
    "$UFJIT" npy show "$1" ${2:+--slice "$2"} |
        sed -n '/^array(/,$p' | tr -s ' \n' ' ' | sed 's/ $//'
}

# expect FILE SLICE WANT
expect() {
    local got
    got=$(value "$1" "$2")
    [ "$got" = "$3" ] || fail "$(basename "$1")[$2] is '$got', want '$3'"
}

SIM=(--target cudasim)

# ---- launches ---------------------------------------------------------------

# scale2d, a declared signature 'void(float64[:, :], float64)': 2-D grid
ok npy convert "$DATA/i4_c.npy" "$T/m.npy" --dtype float64
ok launch "$B" scale2d --grid 1 --block 4,4 "$T/m.npy" float64:2.5 \
    --out 0:"$T/scaled.npy" "${SIM[@]}"
grep -qx "$T/scaled.npy: float64, shape (2, 3)" "$T/stdout" ||
    fail "launch printed: $(cat "$T/stdout")"
expect "$T/scaled.npy" "" "array([[ 0. , 2.5, 5. ], [ 7.5, 10. , 12.5]])"
# an untyped scalar (int64 fits float64 safely), a grid bigger than the
# array (the kernel's bounds test), = forms of the options
ok launch "$B" scale2d --grid=3,2 --block=2,2 "$T/m.npy" 3 \
    --out="0:$T/s3.npy" --target=cudasim
expect "$T/s3.npy" "" "array([[ 0., 3., 6.], [ 9., 12., 15.]])"
# a view of the file: only it is written, and only it comes back
ok launch "$B" scale2d --grid 1 --block 2,2 "$T/m.npy[::-1, 1:]" -2.0 \
    --out 0:"$T/view.npy" "${SIM[@]}"
expect "$T/view.npy" "" "array([[ -8., -10.], [ -2., -4.]])"
# the input file itself as the output: read first, replaced after
cp "$T/m.npy" "$T/inplace.npy"
ok launch "$B" scale2d --grid 1 --block 2,3 "$T/inplace.npy" 2.0 \
    --out 0:"$T/inplace.npy" "${SIM[@]}"
expect "$T/inplace.npy" "" "array([[ 0., 2., 4.], [ 6., 8., 10.]])"

# coordinates: a 3-D grid of 3-D blocks, out[z, y, x] packs the indices
ok npy convert "$DATA/i8_3d.npy" "$T/c.npy"
ok launch "$B" coordinates --grid 2,1,2 --block 2,3,1 "$T/c.npy" \
    --out 0:"$T/coords.npy" "${SIM[@]}"
expect "$T/coords.npy" "0, 0, 0" "array(0)"
# x=3: block 1, thread 1; y=2: thread 2; z=1: block 1, thread 0
expect "$T/coords.npy" "1, 2, 3" "array(1010210)"

# sizes: blockDim, gridDim, gridsize and the warp size
ok npy convert "$DATA/big.npy" "$T/row.npy" --slice '0, :8'
ok launch "$B" sizes --grid 3,2 --block 4,2 "$T/row.npy" \
    --out 0:"$T/sizes.npy" "${SIM[@]}"
expect "$T/sizes.npy" ":7" "array([ 4, 2, 3, 2, 12, 4, 32])"

# dynamic shared memory: --shared bytes, read as cuda.shared.array(0, ..)
ok npy convert "$DATA/f4_v2.npy" "$T/two.npy" --dtype int32
ok launch "$S" dynamic_size --grid 1 --block 32 "$T/two.npy" --shared 40 \
    --out 0:"$T/dyn.npy" "${SIM[@]}"
expect "$T/dyn.npy" ":2" "array([10, 10], dtype=int32)"
ok npy convert "$DATA/big.npy" "$T/r.npy" --slice '0, :16' --dtype float64
ok launch "$S" reverse_blocks --grid 2 --block 8 "$T/r.npy" --shared 64 \
    --out 0:"$T/rev.npy" "${SIM[@]}"
expect "$T/rev.npy" "" "array([ 7., 6., 5., 4., 3., 2., 1., 0., 15., 14., 13., 12., 11., 10., 9., 8.])"

# two outputs of the same launch; UFJIT_ENABLE_CUDASIM=1 runs `cuda` on
# the simulator
ok npy convert "$DATA/f8_f.npy" "$T/rows.npy" --order C
ok npy convert "$DATA/f8_f.npy" "$T/sorted.npy" --order C
UFJIT_ENABLE_CUDASIM=1 ok launch "$S" local_sort3 --grid 1 --block 4 \
    "$T/rows.npy[:, 1:]" "$T/sorted.npy[:, :3]" --target cuda \
    --out 1:"$T/s1.npy" --out 0:"$T/s0.npy"
[ "$(wc -l <"$T/stdout")" = 2 ] || fail "two outputs, printed: $(cat "$T/stdout")"
[ "$(value "$T/s0.npy")" = "$(value "$T/rows.npy" ':, 1:')" ] ||
    fail "the input of local_sort3 changed"

# ---- usage errors: exit 2 ---------------------------------------------------
bad 2 "missing --grid" launch "$B" scale2d --block 4 "$T/m.npy" 2.0
bad 2 "missing --block" launch "$B" scale2d --grid 4 "$T/m.npy" 2.0
bad 2 "missing the kernel NAME" launch "$B" --grid 1 --block 1
bad 2 "--grid takes n, x,y or x,y,z" launch "$B" scale2d --grid 1,2,3,4 \
    --block 1 "$T/m.npy" 2.0
bad 2 "--block x: every\|--block takes" launch "$B" scale2d --grid 1 \
    --block x "$T/m.npy" 2.0
bad 2 "every extent must be at least 1" launch "$B" scale2d --grid 0 \
    --block 4 "$T/m.npy" 2.0
bad 2 "unknown target 'cpu'" launch "$B" scale2d --grid 1 --block 4 \
    "$T/m.npy" 2.0 --target cpu
bad 2 "--shared takes a number of bytes" launch "$S" dynamic_size \
    --grid 1 --block 4 "$T/two.npy" --shared -8
bad 2 "there are only 2 arguments" launch "$B" scale2d --grid 1 --block 4 \
    "$T/m.npy" 2.0 --out 2:"$T/out.npy"
bad 2 "is the scalar '2.0'" launch "$B" scale2d --grid 1 --block 4 \
    "$T/m.npy" 2.0 --out 1:"$T/out.npy"
bad 2 "--out takes K:FILE.npy" launch "$B" scale2d --grid 1 --block 4 \
    "$T/m.npy" 2.0 --out "$T/out.npy"
bad 2 "given twice" launch "$B" scale2d --grid 1 --block 4 "$T/m.npy" 2.0 \
    --out 0:"$T/out.npy" --out 0:"$T/out.npy"
bad 2 "neither a .npy file nor a scalar" launch "$B" scale2d --grid 1 \
    --block 4 "$T/m.npy" two
bad 2 "is not a CUDA kernel (@cuda.jit): run it with 'ufjit call'" \
    launch "$2/seeds.py" rel_diff --grid 1 --block 1 "$T/m.npy" "$T/m.npy"
# `ufjit call` of a kernel says how to launch it
bad 2 "'scale2d' is a CUDA kernel (@cuda.jit): .*ufjit launch" \
    call "$B" scale2d "$T/m.npy" 2.0 -o "$T/out.npy"

# ---- kernel and input errors: exit 1 ---------------------------------------
bad 1 "block x of 2000 is over CUDA's limit of 1024" launch "$B" scale2d \
    --grid 1 --block 2000 "$T/m.npy" 2.0 --out 0:"$T/out.npy" "${SIM[@]}"
bad 1 "'scale2d' takes 2 arguments, 1 given" launch "$B" scale2d \
    --grid 1 --block 4 "$T/m.npy" --out 0:"$T/out.npy" "${SIM[@]}"
bad 1 "no declared signature takes arguments of types (array(int32, 2d, C), float64)" \
    launch "$B" scale2d --grid 1 --block 4 "$DATA/i4_c.npy" 2.0 \
    --out 0:"$T/out.npy" "${SIM[@]}"
# 16 elements, 24 threads: i <= a.size reaches a[16]
bad 1 "IndexError" launch "$B" off_by_one --grid 3 --block 8 "$T/r.npy" \
    --out 0:"$T/out.npy" "${SIM[@]}"
bad 1 "argument 0 '$T/none.npy'" launch "$B" scale2d --grid 1 --block 4 \
    "$T/none.npy" 2.0 --out 0:"$T/out.npy" "${SIM[@]}"
bad 1 "no_such" launch "$B" no_such --grid 1 --block 4 "${SIM[@]}"
# cuda with no driver: one line naming the reason
UFJIT_CUDA_DRIVER=/nonexistent/libcuda.so.1 UFJIT_ENABLE_CUDASIM=0 \
    bad 1 "no CUDA driver: /nonexistent/libcuda.so.1" launch "$B" scale2d \
    --grid 1 --block 4 "$T/m.npy" 2.0 --out 0:"$T/out.npy" --target cuda

# ---- inspect ------------------------------------------------------------------
ok inspect "$B" scale2d --types
grep -q '^== scale2d void(float64\[:, :\], float64) ==$' "$T/stdout" ||
    fail "inspect --types: no header: $(head -3 "$T/stdout")"
grep -q 'float64' "$T/stdout" || fail "inspect --types: no types"
bad 1 "declares no signatures" inspect "$B" hypot_kernel --types
ok inspect "$B" hypot_kernel --types \
    --signature 'void(float32[:], float32[:], float32[:])'
grep -q 'float32' "$T/stdout" || fail "inspect --signature: no float32"
bad 1 "a kernel returns nothing" inspect "$B" hypot_kernel --ptx \
    --signature 'float32(float32[:], float32[:], float32[:])'
bad 1 "has no host assembly" inspect "$B" scale2d --asm
ok inspect "$B" scale2d --llvm
grep -q 'nvvm.annotations' "$T/stdout" || fail "inspect --llvm: no NVVM IR"

ok inspect "$B" hypot_kernel --ptx \
    --signature 'void(float32[:], float32[:], float32[:])'
grep -Eq '^\.visible \.entry ufk0_hypot_kernel_k\($' "$T/stdout" ||
    fail "inspect --ptx: no .entry: $(grep entry "$T/stdout")"
PTXAS=$(command -v ptxas || { [ -x /usr/local/cuda/bin/ptxas ] &&
        echo /usr/local/cuda/bin/ptxas; })
regs() { sed -n 's/.*ptxas info    : Used \([0-9]*\) registers.*/\1/p' "$T/stdout"; }
if [ -n "$PTXAS" ]; then
    grep -q '^//   ptxas info    : Used [0-9]* registers' "$T/stdout" ||
        fail "inspect --ptx: no ptxas registers line"
    grep -q 'spill stores' "$T/stdout" || fail "inspect --ptx: no spills line"
    # max_registers=24 (seed 003): .maxnreg in the PTX, at most 24 used,
    # where the same kernel uncapped uses more
    for backend in libnvvm nvptx; do
        UFJIT_CUDA_BACKEND=$backend ok inspect "$R" add_constant_uncapped --ptx
        free=$(regs)
        UFJIT_CUDA_BACKEND=$backend ok inspect "$R" add_constant_capped --ptx
        capped=$(regs)
        grep -q '^\.maxnreg 24$' "$T/stdout" ||
            fail "$backend: max_registers=24 but no .maxnreg 24"
        [ -n "$free" ] && [ -n "$capped" ] && [ "$capped" -le 24 ] &&
            [ "$free" -gt 24 ] ||
            fail "$backend: registers uncapped '$free', capped '$capped'"
    done
else
    echo "SKIP ptxas checks: ptxas not found"
fi

if [ "$failures" != 0 ]; then
    echo "cli_cuda_launch.sh: $failures failure(s)" >&2
    exit 1
fi
echo "cli_cuda_launch: ok"
