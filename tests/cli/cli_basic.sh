#!/usr/bin/env bash
# The ufjit command without NumPy: help and usage errors with their exit
# codes, sysinfo fields checked against the machine, the demo, npy show and
# npy convert against the committed NumPy expectations in DATA (see
# gen_data.py), and bad inputs: one "ufjit: ..." line on stderr, a non-zero
# exit and no output file.
#
#   cli_basic.sh UFJIT DATA
set -u
UFJIT=$1
DATA=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/ufjit-cli-test.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
failures=0
checks=0

# Every failure names the line of the top-level check that failed.
fail() {
    local n=${#BASH_LINENO[@]}
    echo "cli_basic.sh:${BASH_LINENO[n - 2]}: $*" >&2
    failures=$((failures + 1))
}

# run ARGS...: runs ufjit, sets rc, out, err.
run() {
    "$UFJIT" "$@" >"$T/stdout" 2>"$T/stderr"
    rc=$?
    out=$(cat "$T/stdout")
    err=$(cat "$T/stderr")
}

expect_rc() {
    checks=$((checks + 1))
    [ "$rc" = "$1" ] || fail "exit $rc, expected $1 (stderr: $err)"
}

expect_out() { # grep -E pattern that stdout must match
    checks=$((checks + 1))
    grep -Eq -- "$1" "$T/stdout" || fail "stdout lacks /$1/:
$out"
}

expect_err() {
    checks=$((checks + 1))
    grep -Eq -- "$1" "$T/stderr" || fail "stderr lacks /$1/: $err"
}

# ok ARGS...: exit 0 and nothing on stderr.
ok() {
    run "$@"
    checks=$((checks + 1))
    [ "$rc" = 0 ] || fail "ufjit $* exited $rc: $err"
    [ -z "$err" ] || fail "ufjit $* wrote to stderr: $err"
}

# bad CODE PATTERN ARGS...: exit CODE, exactly one stderr line
# "ufjit: ..." matching PATTERN, nothing on stdout.
bad() {
    local code=$1 pattern=$2
    shift 2
    run "$@"
    checks=$((checks + 1))
    [ "$rc" = "$code" ] || fail "ufjit $* exited $rc, expected $code: $err"
    [ "$(wc -l <"$T/stderr")" = 1 ] || fail "ufjit $*: stderr is not one line:
$err"
    case $err in
    "ufjit: "*) ;;
    *) fail "ufjit $*: stderr does not start with 'ufjit: ': $err" ;;
    esac
    grep -Eq -- "$pattern" "$T/stderr" || fail "ufjit $*: stderr lacks /$pattern/: $err"
    [ -z "$out" ] || fail "ufjit $*: wrote to stdout on error: $out"
}

# ---- help, version, usage ---------------------------------------------------

ok --help
expect_out '^usage: ufjit'
for c in sysinfo npy demo call inspect; do expect_out "^  $c "; done
expect_out 'Exit status'
ok -h
expect_out '^usage: ufjit'
ok help
expect_out '^usage: ufjit'
ok --version
expect_out '^ufjit [0-9]+\.[0-9]+\.[0-9]+$'
version=${out#ufjit }

for c in sysinfo demo "npy" "npy show" "npy convert"; do
    # shellcheck disable=SC2086 # word splitting of "npy show" is wanted
    ok $c --help
    expect_out '^usage: ufjit '"$c"
    # shellcheck disable=SC2086
    ok help $c
    expect_out '^usage: ufjit '"$c"
done
ok npy show -h
expect_out 'basic indexing'
ok npy convert --help
for step in '1\. --slice' '2\. --transpose' '3\. --dtype' '4\. --order'; do
    expect_out "$step"
done
expect_out 'np.save\(OUT, r\)'

bad 2 'no command given' 
bad 2 "unknown command 'frobnicate'" frobnicate
bad 2 "unknown option '--bogus'" --bogus
bad 2 "unknown command 'nosuch'" help nosuch
bad 2 "missing KERNELS.py" call
ok help inspect
bad 2 "unexpected argument 'extra'" sysinfo extra
bad 2 "unknown option '--fast'" sysinfo --fast
bad 2 "unknown option '--x'" demo --x=1
bad 2 "missing 'show' or 'convert'" npy
bad 2 "unknown subcommand 'view'" npy view
bad 2 'missing FILE' npy show
bad 2 'missing IN and OUT' npy convert
bad 2 'missing OUT' npy convert "$DATA/i4_c.npy"
bad 2 "unexpected argument 'c'" npy convert a b c
bad 2 'option --slice needs a value' npy show "$DATA/i4_c.npy" --slice
bad 2 'option --dtype given twice' npy convert a b --dtype f4 --dtype f8
bad 2 "see 'ufjit npy convert --help'" npy convert a b --order X

# ---- sysinfo --------------------------------------------------------------------

# field LABEL: the value of "  LABEL   : value" in the last output.
field() {
    sed -n "s/^  $1 *: //p" "$T/stdout" | head -n 1
}

UFJIT_NUM_THREADS=3 ok sysinfo
for label in 'Version' 'Build' 'Sanitizers' 'Compiler' 'Machine' \
    'CPU name' 'CPU count' 'AVX2' 'AVX-512' 'Kernel' 'LLVM' 'CUDA driver'; do
    checks=$((checks + 1))
    [ -n "$(field "$label")" ] || fail "sysinfo has no '$label' field:
$out"
done
checks=$((checks + 1))
[ "$(field Version)" = "$version" ] || fail "sysinfo version $(field Version) != $version"
expect_out '^  LLVM +: 14\.[0-9.]+ \(ORC LLJIT for the host\)$'
expect_out '^  JIT CPU +: [^ ]+ \([0-9]+ features enabled\)$'
expect_out '^  cpu +: serial loops'
expect_out '^  parallel +: loops shared out between threads'
expect_out '^  libnvvm +: (NVVM [0-9]+\.[0-9]+, IR [0-9]+\.[0-9]+ \(/.*\)|missing: .*)$'
expect_out '^  libdevice +: .+$'
expect_out '^  ptxas +: .+$'
expect_out '^  UFJIT_NUM_THREADS +: 3$'
checks=$((checks + 1))
case $(field Kernel) in
"$(uname -s) $(uname -r) "*) ;;
*) fail "sysinfo kernel '$(field Kernel)' is not uname's '$(uname -s) $(uname -r)'" ;;
esac
checks=$((checks + 1))
[ "$(field Machine)" = "$(uname -m)" ] || fail "sysinfo machine '$(field Machine)' != $(uname -m)"
checks=$((checks + 1))
case $(field 'CPU count') in
"$(getconf _NPROCESSORS_ONLN) online, "*) ;;
*) fail "sysinfo CPU count '$(field 'CPU count')' disagrees with getconf" ;;
esac
if [ -r /proc/cpuinfo ]; then
    model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)
    if [ -n "$model" ]; then
        checks=$((checks + 1))
        [ "$(field 'CPU name')" = "$model" ] || fail "CPU name '$(field 'CPU name')' != '$model'"
    fi
    # cpuid and the kernel's flags must agree (the kernel hides features
    # the OS does not enable, as sysinfo does).
    if [ "$(uname -m)" = x86_64 ]; then
        flags=" $(sed -n 's/^flags[[:space:]]*: *//p' /proc/cpuinfo | head -n 1) "
        for feat in avx2:AVX2 avx512f:AVX-512; do
            checks=$((checks + 1))
            want=no
            case $flags in *" ${feat%%:*} "*) want=yes ;; esac
            got=$(field "${feat#*:}")
            [ "${got%% *}" = "$want" ] || fail "sysinfo ${feat#*:} '$got', /proc/cpuinfo says $want"
        done
        for f in sse2 sse4_2 avx fma avx2 avx512f avx512bw avx512vl; do
            case $flags in *" $f "*) has=1 ;; *) has=0 ;; esac
            case " $(field 'CPU features (cpuid)') " in
            *" $f "*) got=1 ;; *) got=0 ;; esac
            checks=$((checks + 1))
            [ "$has" = "$got" ] || fail "feature $f: /proc/cpuinfo $has, sysinfo $got"
        done
    fi
fi
if [ -w /dev/full ]; then
    "$UFJIT" sysinfo >/dev/full 2>"$T/stderr"
    rc=$?
    err=$(cat "$T/stderr")
    expect_rc 1
    expect_err '^ufjit: cannot write the output: No space left on device$'
fi

# ---- demo -------------------------------------------------------------------------

mkdir "$T/demo_tmp"
TMPDIR="$T/demo_tmp" ok demo
for s in '^== 1\. Creating arrays ==$' '^== 2\. Views' '^== 3\. Broadcasting' \
    '^== 4\. Casting' '^== 5\. Memory order' '^== 6\. \.npy files' \
    '^== 7\. Printing large arrays' '^== 8\. Kernels' '^== 9\. guvectorize' \
    '^== 10\. Reductions' '^== 11\. njit' '^== 12\. Bounds checking' \
    '^== 13\. The parallel target' '^== 14\. The CUDA target' \
    '^== 15\. CUDA kernels' \
    '^== done: 15 sections in .*; checks: 19 ok, 0 mismatched; steps refused: 0 ==$'; do
    expect_out "$s"
done
# the kernel sections: one "[ok]" line per result checked against C
for c in 'matvec' 'g' 'max_min' 'add\.reduce' 'sum_reduce' \
    'add\.reduce\(axis=1\)' 'add\.accumulate' 'mul\.outer' 'sum2d\(A\)' \
    'sum2d\(A\[::-1, ::2\]\)' 'total_step' 'wave on cpu' \
    'wave on parallel, 2 threads' 'gaussian_pdf' 'polar_distance' \
    'gpu_hypot' 'hypot_kernel' 'tile_transpose' 'histogram'; do
    expect_out "^# \[ok\] $c: "
done
expect_out "^# IndexError: index 10 is out of bounds for axis 0 with size 10 \(in 'total_step' at bounds\.py:7\)$"
expect_out '^# threading layer: (omp|tbb|serial) '
checks=$((checks + 1))
! grep -Eq 'MISMATCH|\[refused\]' "$T/stdout" || fail "demo: $(grep -E 'MISMATCH|\[refused\]' "$T/stdout")"
# a step the library refuses (here: every parallel call, the threading
# layer named is not one) is reported and the tour goes on, exit 0
UFJIT_THREADING_LAYER=nosuch TMPDIR="$T/demo_tmp" ok demo
expect_out '^# threading: .*nosuch'
expect_out '^# \[refused\] wave on parallel, 2 threads: UF_ERR_[A-Z]+: .*nosuch'
expect_out '^# \[ok\] wave on cpu: '
expect_out '^== done: 15 sections in .*; checks: 18 ok, 0 mismatched; steps refused: 1 ==$'
expect_out '^# np\.array_equal\(f, g\) -> True$'
expect_out '^error \(UF_ERR_SHAPE\): '
expect_out '^error \(UF_ERR_CAST\): '
checks=$((checks + 1))
[ -z "$(ls -A "$T/demo_tmp")" ] || fail "demo left files: $(ls -A "$T/demo_tmp")"

# ---- npy show and convert against committed NumPy output ----------------------

cases=0
while IFS=$'\t' read -r kind cid file rest; do
    cases=$((cases + 1))
    checks=$((checks + 1))
    if [ "$kind" = show ]; then
        if [ "$rest" = - ]; then
            (cd "$DATA" && "$UFJIT" npy show "$file") >"$T/got" 2>"$T/stderr"
        else
            (cd "$DATA" && "$UFJIT" npy show "$file" --slice "$rest") >"$T/got" 2>"$T/stderr"
        fi
        rc=$?
    else
        IFS=$'\t' read -r -a args <<<"$rest"
        rm -f "$T/out.npy"
        "$UFJIT" npy convert "$DATA/$file" "$T/out.npy" "${args[@]}" 2>"$T/stderr" &&
            (cd "$T" && "$UFJIT" npy show out.npy) >"$T/got" 2>>"$T/stderr"
        rc=$?
    fi
    if [ "$rc" != 0 ]; then
        fail "case $cid: exit $rc: $(cat "$T/stderr")"
    elif ! diff -u "$DATA/expected/$cid.txt" "$T/got" >"$T/diff"; then
        fail "case $cid: output differs from NumPy's (expected/$cid.txt):
$(cat "$T/diff")"
    fi
done <"$DATA/cases.txt"
checks=$((checks + 1))
[ "$cases" -ge 20 ] || fail "only $cases cases read from $DATA/cases.txt"

# The header of every file convert wrote is NumPy's too (a C-order result
# written to a new path, an F-order one over its own input).
cp "$DATA/f8_f.npy" "$T/inplace.npy"
ok npy convert "$T/inplace.npy" "$T/inplace.npy" --dtype float32
(cd "$T" && "$UFJIT" npy show inplace.npy) | sed 1d >"$T/got"
sed 1d "$DATA/expected/convert_dtype_keeps_f.txt" >"$T/want"
checks=$((checks + 1))
diff -u "$T/want" "$T/got" >"$T/diff" || fail "in-place convert differs: $(cat "$T/diff")"

# ---- bad inputs: a message, non-zero exit, no output file -----------------------

# no_output: OUT must not exist, nor any temporary file beside it.
no_output() {
    checks=$((checks + 1))
    [ ! -e "$T/bad/out.npy" ] || fail "an output file was written"
    [ -z "$(ls -A "$T/bad")" ] || fail "files left behind: $(ls -A "$T/bad")"
}
mkdir "$T/bad"
printf 'this is not a .npy file, not at all' >"$T/garbage.npy"
head -c 140 "$DATA/big.npy" >"$T/truncated.npy"
head -c 50 "$DATA/i4_c.npy" >"$T/short_header.npy"
: >"$T/empty.npy"
I4="$DATA/i4_c.npy"
OUT="$T/bad/out.npy"

bad 1 'missing\.npy' npy show "$T/missing.npy"
bad 1 'missing\.npy' npy convert "$T/missing.npy" "$OUT"
no_output
for f in garbage truncated short_header empty; do
    bad 1 "$f\.npy" npy show "$T/$f.npy"
    bad 1 "$f\.npy" npy convert "$T/$f.npy" "$OUT"
    no_output
done
bad 1 'Is a directory' npy show "$T"
bad 1 'Is a directory' npy convert "$T" "$OUT"
no_output
bad 2 "bad --slice '1:2:3:4'" npy show "$I4" --slice 1:2:3:4
bad 2 "bad --slice 'x'" npy convert "$I4" "$OUT" --slice x
no_output
bad 1 "--slice '5'" npy show "$I4" --slice 5
bad 1 "--slice '0, 0, 0'" npy convert "$I4" "$OUT" --slice '0, 0, 0'
no_output
bad 2 "bad --dtype 'float99'" npy convert "$I4" "$OUT" --dtype float99
bad 2 "bad --dtype 'object'" npy convert "$I4" "$OUT" --dtype object
bad 2 "bad --dtype ''" npy convert "$I4" "$OUT" --dtype ''
no_output
bad 2 "bad --order 'K': must be C or F" npy convert "$I4" "$OUT" --order K
no_output
bad 2 'bad --transpose' npy convert "$I4" "$OUT" --transpose 1,x
bad 2 'bad --transpose' npy convert "$I4" "$OUT" --transpose 1,,0
no_output
bad 1 "axes don't match array: 1 axis given for an array of 2 dimensions" \
    npy convert "$I4" "$OUT" --transpose 0
bad 1 "axes don't match array: 3 axes given for an array of 1 dimension" \
    npy convert "$DATA/b1.npy" "$OUT" --transpose 0,1,2
bad 1 "--transpose '0,0'" npy convert "$I4" "$OUT" --transpose 0,0
bad 1 "--transpose '0,2'" npy convert "$I4" "$OUT" --transpose 0,2
no_output
bad 1 'nodir' npy convert "$I4" "$T/nodir/out.npy"
checks=$((checks + 1))
[ ! -e "$T/nodir" ] || fail "convert created a directory"
# A failed convert leaves an existing OUT untouched.
cp "$I4" "$T/keep.npy"
bad 1 "--slice '7'" npy convert "$DATA/b1.npy" "$T/keep.npy" --slice 7
checks=$((checks + 1))
cmp -s "$I4" "$T/keep.npy" || fail "a failed convert changed its OUT"

printf '%s\n' 'from numba import vectorize' \
    "@vectorize(['float64(float64, float64)'])" \
    'def add(a, b):' '    return a + b' >"$T/add.py"

# Values and counts on the command line (issue 20): -inf is a value, not
# an option; a decimal that overflows is refused for every float type;
# too many threads are named as such.
ok call "$T/add.py" add -inf 1 -o "$T/inf.npy"
bad 2 "1e999 overflows float64" call "$T/add.py" add 1e999 1 -o "$T/x.npy"
bad 2 "float32:1e999 overflows float32" call "$T/add.py" add float32:1e999 1 \
    -o "$T/x.npy"
bad 2 "--threads 100000 is more than the 65536" call "$T/add.py" add 1 2 \
    --threads 100000 -o "$T/x.npy"

# str:TEXT is a string argument (UTF-8); a returned string is a NumPy str
# (checked in the file's bytes: its UTF-32 code points)
printf '%s\n' 'from numba import njit' '@njit' 'def shout(s, n):' \
    '    return s.upper() * n, len(s)' >"$T/shout.py"
ok call "$T/shout.py" shout "$(printf 'str:stra\303\237e x')" 2 \
    -o "$T/s1.npy" -o "$T/s2.npy"
expect_out "^$T/s1.npy: str, 18 characters\$"
checks=$((checks + 1))
tail -c 72 "$T/s1.npy" | od -An -tx1 | tr -d ' \n' |
    grep -q '^53000000540000005200000041000000530000005300000045000000' ||
    fail "str: argument: not STRASSE... in $T/s1.npy"
ok call "$T/shout.py" shout 'str:' 3 -o "$T/s1.npy" -o "$T/s2.npy"
bad 1 "not valid UTF-8 \(at byte 1\)" call "$T/shout.py" shout \
    "$(printf 'str:a\377')" 1 -o "$T/s1.npy" -o "$T/s2.npy"
bad 2 "a string is str:TEXT" call "$T/shout.py" shout hello 1 \
    -o "$T/s1.npy" -o "$T/s2.npy"

# call --batch: one call per line (tab-separated), a marker line after
# each on both streams, the batch's status 1 when one failed; comments and
# empty lines skipped; an unreadable FILE is a usage error.
printf '# a comment\n\n%s\t%s\t%s\t%s\t-o\t%s\n%s\t%s\t%s\t-o\t%s\n%s\t%s\t%s\t%s\t-o\t%s\n' \
    "$T/add.py" add 1 2 "$T/b1.npy" "$T/add.py" add 1 "$T/b2.npy" \
    "$T/add.py" add 2.5 float32:0.5 "$T/b3.npy" >"$T/batch.txt"
run call --batch "$T/batch.txt"
expect_rc 1
checks=$((checks + 1))
[ "$(grep -c '^#ufjit-batch' "$T/stdout")" = 3 ] || fail "batch stdout: $out"
expect_out "^$T/b1.npy: float64, shape \(\)\$"
expect_out '^#ufjit-batch 1 exit 0$'
expect_out '^#ufjit-batch 2 exit 1$'
expect_out '^#ufjit-batch 3 exit 0$'
checks=$((checks + 1))
[ "$(sed -n 1p "$T/stderr")" = "#ufjit-batch 1 exit 0" ] &&
    [ "$(sed -n 3p "$T/stderr")" = "#ufjit-batch 2 exit 1" ] &&
    sed -n 2p "$T/stderr" | grep -q "takes 2 inputs, 1 given" ||
    fail "batch stderr: $err"
checks=$((checks + 1))
[ ! -e "$T/b2.npy" ] || fail "a failed call in a batch wrote its output"
ok npy show "$T/b3.npy"
expect_out 'array\(3\.\)'
run call --batch - <"$T/batch.txt"
expect_rc 1
bad 2 "--batch: cannot read" call --batch "$T/nonexistent.txt"

# Outputs of `call` (issue 20): a symlink is written through and stays a
# link; a replaced file keeps its mode; a new one gets 0666 less the umask;
# a FIFO is written through, never renamed over, and one nobody reads fails
# at once; nothing is left behind.
O=$T/outs
mkdir "$O"
: >"$O/real.npy"
chmod 640 "$O/real.npy"
ln -s real.npy "$O/link.npy"
ok call "$T/add.py" add 1 2 -o "$O/link.npy"
checks=$((checks + 1))
[ -L "$O/link.npy" ] || fail "call -o replaced the symlink itself"
checks=$((checks + 1))
[ "$(stat -c %a "$O/real.npy")" = 640 ] ||
    fail "the replaced file's mode is $(stat -c %a "$O/real.npy"), not 640"
ok npy show "$O/real.npy"
expect_out '3\.'
(umask 027 && "$UFJIT" call "$T/add.py" add 1 2 -o "$O/new.npy" >/dev/null)
checks=$((checks + 1))
[ "$(stat -c %a "$O/new.npy")" = 640 ] ||
    fail "a new output under umask 027 has mode $(stat -c %a "$O/new.npy")"
mkfifo "$O/f.fifo"
exec 3<>"$O/f.fifo" # a reader (read-write: the open does not block)
ok call "$T/add.py" add 1 2 -o "$O/f.fifo"
timeout 10 head -c 136 <&3 >"$O/from_fifo.npy"
exec 3<&-
checks=$((checks + 1))
[ -p "$O/f.fifo" ] || fail "call -o FIFO replaced the FIFO"
ok npy show "$O/from_fifo.npy"
expect_out '3\.'
bad 1 "a FIFO with no reader" call "$T/add.py" add 1 2 -o "$O/f.fifo"
checks=$((checks + 1))
[ -p "$O/f.fifo" ] || fail "a failed call -o FIFO replaced the FIFO"
checks=$((checks + 1))
! ls "$O" | grep -q tmp || fail "temporaries left behind: $(ls "$O")"

# A call killed by a signal (here timeout's SIGTERM, mid-kernel) leaves no
# temporary behind, and no output.
printf '%s\n' 'from numba import njit' '@njit' 'def spin(n):' \
    '    s = 0.0' '    for i in range(n):' '        s += i * 0.5' \
    '    return s' >"$T/spin.py"
timeout -s TERM 1.5 "$UFJIT" call "$T/spin.py" spin 100000000000 \
    -o "$O/killed.npy" >/dev/null 2>&1
rc=$?
checks=$((checks + 1))
[ "$rc" = 124 ] || fail "the spinning call ended with $rc, not killed (124)"
checks=$((checks + 1))
! ls "$O" | grep -q 'killed' || fail "a killed call left: $(ls "$O" | grep killed)"

echo "cli_basic: $checks checks, $failures failures"
[ "$failures" = 0 ]
