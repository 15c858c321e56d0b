#!/usr/bin/env bash
# The GPU kit's runner (scripts/gpu-kit.sh copies it in as run.sh): runs
# every test of manifest.tsv from a scratch folder and writes, in RESULTS,
#   summary.md   a table: test, pass/fail/skip, seconds, the reason
#   summary.tsv  the same, tab-separated
#   output.log   each test's command and output
# Exits 1 when a test failed or was not run, else 0.
#
#   run.sh [RESULTS]        default: ./kit-results
#
# Environment:
#   UFJIT_ENABLE_CUDASIM=1  run the CUDA tests on cudasim (no GPU needed).
#                           A test's own setting of it (CTest ENVIRONMENT)
#                           is dropped, so the caller decides GPU or not.
#   KIT_FILTER=REGEX        only the tests whose name matches
#   KIT_DEADLINE=SECONDS    tests not started by then are "not run"
#   KIT_TIMEOUT=SECONDS     per test, where CTest gave none (default 300)
#   KIT_KEEP_WORK=1         keep the scratch folder (its path is printed)
set -uo pipefail

K=$(cd "$(dirname "$0")" && pwd)
results=${1:-kit-results}
mkdir -p "$results"
results=$(cd "$results" && pwd)
deadline=${KIT_DEADLINE:-0}
default_timeout=${KIT_TIMEOUT:-300}
start=$(date +%s)

# The scratch folder: the kit's copy of the source folders, linked, and the
# build tree's folders, empty; tests are compiled with paths relative to it.
W=$(mktemp -d "${TMPDIR:-/tmp}/ufjit-kit.XXXXXX")
for d in "$K"/src/*; do
    [ -e "$d" ] && ln -s "$d" "$W/$(basename "$d")"
done
while IFS= read -r d; do
    [ -n "$d" ] && mkdir -p "$W/_build/$d"
done <"$K/build-dirs.txt"
# shared objects the tests load by path (the fake libcuda)
if [ -d "$K/build-files" ]; then
    (cd "$K/build-files" && find . -type f) | while IFS= read -r f; do
        mkdir -p "$W/_build/$(dirname "$f")"
        ln -s "$K/build-files/$f" "$W/_build/$f"
    done
fi
export PATH="$K/bin:$PATH"
export K W

log=$results/output.log
tsv=$results/summary.tsv
md=$results/summary.md
: >"$log"
printf 'test\tstatus\tseconds\texit\tnote\n' >"$tsv"
{
    echo "ufjit GPU kit run, $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(uname -n)"
    sed 's/^/  /' "$K/BUILDINFO"
    echo "  UFJIT_ENABLE_CUDASIM=${UFJIT_ENABLE_CUDASIM:-unset}"
} >>"$log"

# Up to 2000 lines of a test's output go to output.log: the first 300 and
# the last 1700.
clip() {
    local n
    n=$(wc -l <"$1")
    if [ "$n" -le 2000 ]; then
        cat "$1"
    else
        head -300 "$1"
        echo "[... $((n - 2000)) lines left out ...]"
        tail -1700 "$1"
    fi
}

# CTest's SKIP_REGULAR_EXPRESSION: any of the expressions in the output
matches_any() {
    local file=$1 r
    shift
    for r; do grep -qE -- "$r" "$file" && return 0; done
    return 1
}

n_pass=0 n_fail=0 n_skip=0 n_notrun=0
while IFS=$'\t' read -r name timeout skip_rc will_fail skip_re env cmd; do
    case "$name" in '#'*|'') continue ;; esac
    if [ -n "${KIT_FILTER:-}" ] && ! [[ "$name" =~ $KIT_FILTER ]]; then
        continue
    fi
    [ "$timeout" = - ] || [ "$timeout" = 0 ] && timeout=$default_timeout
    now=$(date +%s)
    if [ "$deadline" -gt 0 ] && [ $((now - start)) -ge "$deadline" ]; then
        printf '%s\tnot run\t0\t-\tthe run'"'"'s %s s deadline passed\n' \
            "$name" "$deadline" >>"$tsv"
        n_notrun=$((n_notrun + 1))
        printf '%-36s not run (the %s s deadline passed)\n' "$name" "$deadline"
        continue
    fi
    if [ "$deadline" -gt 0 ]; then
        left=$((deadline - (now - start)))
        [ "$left" -lt "$timeout" ] && timeout=$left
    fi
    out=$W/out.$$
    envs=() res=()
    [ "$env" = - ] || eval "envs=($env)"
    kept=()
    for e in ${envs[@]+"${envs[@]}"}; do
        case "$e" in UFJIT_ENABLE_CUDASIM=*) ;; *) kept+=("$e") ;; esac
    done
    t0=$(date +%s.%N)
    (
        cd "$W" || exit 99
        eval "set -- $cmd"
        exec timeout -k 10 "$timeout" env ${kept[@]+"${kept[@]}"} "$@"
    ) >"$out" 2>&1 </dev/null
    rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')

    # CMocka's own counts, where the program is a CMocka one
    passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -1)
    skipped=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$out" | tail -1)
    # the reason a test printed (not CMocka's own [ SKIPPED ] lines), and
    # which CMocka cases skipped
    reason=$(grep -iE 'skip' "$out" | grep -vE '^\[|SKIPPED TEST' | head -1 | cut -c1-200)
    cases=$(sed -n 's/^\[  SKIPPED \] \([A-Za-z_0-9]*\)$/\1/p' "$out" \
                | sort -u | head -5 | paste -sd, -)
    [ -n "$cases" ] && reason="${reason:+$reason; }skipped: $cases"
    note=""
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        status=fail; note="timed out after $timeout s"
    elif [ "$skip_rc" != - ] && [ "$rc" = "$skip_rc" ]; then
        status=skip; note=${reason:-"exit $rc"}
    elif [ "$skip_re" != - ] && eval "res=($skip_re)" \
            && matches_any "$out" "${res[@]}"; then
        status=skip; note=${reason:-"matched $skip_re"}
    elif { [ "$rc" = 0 ] && [ "$will_fail" = 0 ]; } \
            || { [ "$rc" != 0 ] && [ "$will_fail" = 1 ]; }; then
        if [ -n "$skipped" ] && [ "${passed:-0}" = 0 ]; then
            status=skip; note="all $skipped CMocka test(s) skipped (${reason})"
        else
            status=pass
            [ -n "$skipped" ] && note="$skipped of $((${passed:-0} + skipped)) CMocka test(s) skipped (${reason})"
        fi
    else
        status=fail
        note=$(grep -m1 -E '^\[  FAILED  \]|[Ee]rror|FAIL' "$out" | cut -c1-200)
        note=${note:-"exit $rc"}
    fi
    case $status in
        pass) n_pass=$((n_pass + 1)) ;;
        fail) n_fail=$((n_fail + 1)) ;;
        skip) n_skip=$((n_skip + 1)) ;;
    esac
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$status" "$secs" "$rc" \
        "$(printf '%s' "$note" | tr '\t\n' '  ')" >>"$tsv"
    {
        echo
        echo "=== $name: $status (exit $rc, $secs s)"
        echo "\$ $cmd"
        clip "$out"
    } >>"$log"
    printf '%-36s %-5s %6s s  %s\n' "$name" "$status" "$secs" "$note"
    rm -f "$out"
done <"$K/manifest.tsv"

total=$((n_pass + n_fail + n_skip + n_notrun))
summary="$total test program(s): $n_pass passed, $n_fail failed, $n_skip skipped, $n_notrun not run"
{
    echo "$summary"
    echo
    echo "| test | status | seconds | note |"
    echo "| --- | --- | --- | --- |"
    tail -n +2 "$tsv" | while IFS=$'\t' read -r t s secs _ note; do
        echo "| $t | $s | $secs | ${note//|/\\|} |"
    done
} >"$md"
echo "$summary"
echo "results: $results (summary.md, summary.tsv, output.log)"
if [ "${KIT_KEEP_WORK:-0}" = 1 ]; then
    echo "scratch kept: $W"
else
    rm -rf "$W"
fi
[ "$n_fail" = 0 ] && [ "$n_notrun" = 0 ]
