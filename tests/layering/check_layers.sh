#!/usr/bin/env bash
# The layering (cmake/layers.cmake) holds: for every area, a header of
# each area it may include compiles through its view (build/layers/AREA),
# and a header of every other area is not found there. Run by CTest
# (tests/cmake/layers.cmake) with the compiler and the directories.
# usage: check_layers.sh CC BUILD_DIR SOURCE_DIR LLVM_INCLUDE_DIRS...
set -u
cc=$1 build=$2 src=$3
shift 3
sys=()
for d in "$@"; do sys+=(-isystem "$d"); done
# one header per area
declare -A hdr=(
    [common]=common/alloc.h [ndarray]=ndarray/iter.h
    [targets]=targets/target.h [compiler]=compiler/module.h
    [ufunc]=ufunc/ufunc.h [gufunc]=gufunc/gufunc.h [reduce]=reduce/reduce.h
    [njit]=njit/njit.h [launch]=launch/launch.h [interop]=interop/interop_stream.h
    [api]=api/kinds.h
    [cli]=cli/cli_util.h)
# what each area may include besides itself and common (not cli)
declare -A may=(
    [common]="" [ndarray]="" [targets]="ndarray" [compiler]="ndarray"
    [ufunc]="compiler targets ndarray"
    [gufunc]="ufunc compiler targets ndarray"
    [reduce]="ufunc compiler targets ndarray"
    [njit]="ufunc compiler targets ndarray"
    [launch]="ufunc compiler targets ndarray"
    [interop]="targets ndarray"
    [api]="gufunc reduce njit launch interop ufunc compiler targets ndarray" [cli]="")
fails=0 checks=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for area in "${!may[@]}"; do
    view=$build/layers/$area
    [ -d "$view" ] || { echo "no view $view"; fails=$((fails + 1)); continue; }
    allowed=" $area ${may[$area]} "
    [ "$area" != cli ] && allowed+="common "
    for other in "${!hdr[@]}"; do
        checks=$((checks + 1))
        printf '#include "%s"\n' "${hdr[$other]}" > "$tmp/probe.c"
        if "$cc" -std=c17 -D_GNU_SOURCE -fsyntax-only -I"$src/include" \
            -I"$build/include" "${sys[@]}" -I"$view" "$tmp/probe.c" \
            > "$tmp/out" 2>&1; then
            ok=1
        else
            ok=0
        fi
        if [[ $allowed == *" $other "* ]]; then
            if [ $ok = 0 ]; then
                echo "FAIL: $area may include ${hdr[$other]}, but:"
                head -5 "$tmp/out"
                fails=$((fails + 1))
            fi
        # not found, in gcc's words or clang's
        elif [ $ok = 1 ] || ! grep -q -e "${hdr[$other]}: No such file" \
                -e "'${hdr[$other]}' file not found" "$tmp/out"; then
            echo "FAIL: $area must not see ${hdr[$other]}:"
            head -5 "$tmp/out"
            fails=$((fails + 1))
        fi
    done
done
echo "check_layers: $checks checks, $fails failures"
[ $fails = 0 ]
