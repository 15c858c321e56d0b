#!/bin/bash
# Dumps `ufjit inspect --llvm --asm` of every kernel of bench/kernels*.py and
# tests/kernels/*.py (not err_*), in three environments, into OUTDIR, with
# the per-compilation symbol prefixes (uf12_, ud<hash>) and the run-time
# addresses baked into IR/asm normalised, so that two trees' dumps diff to
# nothing when the generated code is the same.
#
#   scripts/ir-dump.sh UFJIT_BINARY OUTDIR [REPO]   (REPO: where the .py
#                                      files are, default: the current directory)
#   diff -r OUTDIR_BEFORE OUTDIR_AFTER
#
# A refactoring that must not change generated code (issue 13) dumps with
# the binary before and after and diffs. Copy the binary first if its build
# dir is rebuilt in between (it links libLLVM dynamically, ufjit
# statically), and use the same REPO for both (the kernels' text is part of
# the listings).
# Environments: default/ (as run), debug/ (UFJIT_DEBUG=1: every index
# bounds-checked: the error sink's code), nomvec/ (UFJIT_ENABLE_LIBMVEC=0:
# plain libm calls). Kernels declared without signatures are listed for
# float64 arguments. One file per kernel: NAME.txt with stdout+stderr and
# the exit status. Takes 1-3 minutes on one busy core.
set -u
bin=$(readlink -f "$1")
out=$2
repo=${3:-.}
cd "$repo" || exit 2
rm -rf "$out"
mkdir -p "$out"
# no disk cache from an earlier run (cache=True kernels) leaks in
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_CACHE_HOME=$scratch HOME=$scratch
unset UFJIT_CACHE_DIR UFJIT_DUMP_ASSEMBLY UFJIT_DUMP_LLVM UFJIT_DUMP_OPTIMIZED \
      UFJIT_OPT_PIPELINE UFJIT_DEBUG UFJIT_ENABLE_LIBMVEC

# "file name arity" for each top-level def that follows a decorator
list_kernels() {
    python3 - "$@" <<'EOF'
import re, sys
for path in sys.argv[1:]:
    prev_dec = False
    for line in open(path):
        m = re.match(r'def (\w+)\((.*?)\)', line)
        if m and prev_dec:
            args = [a for a in m.group(2).split(',') if a.strip()]
            print(path, m.group(1), len(args))
        if line.startswith('@') or (prev_dec and line[:1] in ' \t)'):
            prev_dec = True
        elif line.strip():
            prev_dec = False
EOF
}

normalise() {
    sed -E -e 's/\bu[fd][0-9a-f]+(_[0-9]+)?_/ufN_/g' \
           -e 's/\bu[fd][0-9a-f]+(_[0-9]+)?\b/ufN/g' \
           -e 's/inttoptr \(i64 [0-9]+ to/inttoptr (i64 ADDR to/g' \
           -e 's/\$(9[0-9]{13}|1[0-4][0-9]{13})\b/$ADDR/g'
}

files=$(ls bench/kernels*.py tests/kernels/*.py | grep -v '/err_')
list_kernels $files > "$out/kernels.txt"
# njit kernels over arrays need array signatures (index checks, the error
# sink): listed again under NAME@SIG
while read -r name sig; do
    echo "tests/kernels/arrays_index.py $name@$sig 0" >> "$out/kernels.txt"
done <<'EOF2'
sum2d float64(float64[:,:])
use_sum2d float64(float64[:,:],float64[:,:])
get1 float64(float64[:],int64)
get2 float64(float64[:,:],int64,int64)
get3 float64(float64[:,:,:],int64,int64,int64)
get_by_tuple float64(float64[:,:],int64,int64)
dot float64(float64[:],float64[:])
fill_ramp float64(float64[:],float64)
write2 int64(int64[:,:])
matvec_check float64(float64[:,:],float64[:],float64[:])
get1_checked float64(float64[:],int64)
get1_checked float32(float32[:],uint32)
set2_checked float64(float64[:,:],int64,int64)
tuple_checked int64(float64[:,:],int64)
calls_checked float64(float64[:],int64)
iter_rows float64(float64[:,:])
row_sums float64(float64[:,:],float64[:])
csum complex128(complex128[:])
EOF2
for env in default debug nomvec; do
    mkdir -p "$out/$env"
    while read -r f name arity; do
        case $env in
        default) e=() ;;
        debug) e=(UFJIT_DEBUG=1) ;;
        nomvec) e=(UFJIT_ENABLE_LIBMVEC=0) ;;
        esac
        dst="$out/$env/$(basename "$f" .py).$name.txt"
        sig=
        case $name in *@*) sig=${name#*@}; name=${name%%@*} ;; esac
        if [ -n "$sig" ]; then
            env "${e[@]}" "$bin" inspect "$f" "$name" --llvm --asm \
                --signature "$sig" > "$dst" 2>&1
        else
            env "${e[@]}" "$bin" inspect "$f" "$name" --llvm --asm > "$dst" 2>&1
        fi
        rc=$?
        if [ $rc -ne 0 ] && grep -q 'signature' "$dst"; then
            sig="float64($(printf 'float64, %.0s' $(seq 1 "$arity") | sed 's/, $//'))"
            env "${e[@]}" "$bin" inspect "$f" "$name" --llvm --asm \
                --signature "$sig" > "$dst" 2>&1
            rc=$?
        fi
        echo "exit status $rc" >> "$dst"
        normalise < "$dst" > "$dst.n" && mv "$dst.n" "$dst"
    done < "$out/kernels.txt"
done
echo "$(wc -l < "$out/kernels.txt") kernels x 3 environments in $out"
