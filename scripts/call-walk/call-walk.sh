#!/usr/bin/env bash
# The walk of one `ufjit call` through the source folders (ARCHITECTURE.md):
# builds ufjit with every function instrumented (tracer.c), runs
#   ufjit call bench/kernels.py rel_diff a.npy b.npy -o out.npy
# and folds the trace with walk.py. A developer's tool, not a test: the
# build takes a few minutes.
#   scripts/call-walk/call-walk.sh [SOURCE_TREE [BUILD_DIR [--steps N]]]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${1:-$here/../..}" && pwd)
[ $# -gt 0 ] && shift
build=${1:-/tmp/ufjit-call-walk}
[ $# -gt 0 ] && shift
mkdir -p "$build"
cc -O1 -c "$here/tracer.c" -o "$build/tracer.o"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DUFJIT_BUILD_TESTS=OFF -DCMAKE_C_FLAGS="-finstrument-functions" \
    -DCMAKE_CXX_FLAGS="-finstrument-functions" \
    -DCMAKE_EXE_LINKER_FLAGS="$build/tracer.o" > /dev/null
cmake --build "$build" -j2 --target ufjit_cli > /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(0)
np.save(sys.argv[1] + '/a.npy', rng.random(1000))
np.save(sys.argv[1] + '/b.npy', rng.random(1000) + 0.5)
PY
UF_WALK_OUT="$build/trace" "$build/cli/ufjit" call "$src/bench/kernels.py" \
    rel_diff "$work/a.npy" "$work/b.npy" -o "$work/out.npy"
python3 "$here/walk.py" "$build/cli/ufjit" "$build/trace" "$@"
