#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then builds a consumer with
# find_package(ufjit) and another with pkg-config, and runs both.
# usage: run.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null

cmake -S "$src/tests/consumer" -B "$work/cm" \
      -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cm" >/dev/null
"$work/cm/consumer_shared"
"$work/cm/consumer_static"

pcdir=$(dirname "$(find "$work/prefix" -name ufjit.pc)")
export PKG_CONFIG_PATH=$pcdir
cc -std=c17 -Wall -Werror $(pkg-config --cflags ufjit) \
   "$src/tests/consumer/consumer.c" -o "$work/pc_consumer" \
   $(pkg-config --libs ufjit)
LD_LIBRARY_PATH=$(pkg-config --variable=libdir ufjit) "$work/pc_consumer"
# A static link from the .pc file alone (Libs.private names every
# dependency: LLVM, the threading layers, the C++ runtime).
cc -std=c17 -Wall -Werror $(pkg-config --cflags ufjit) -DUFJIT_STATIC_DEFINE \
   "$src/tests/consumer/consumer.c" -o "$work/pc_static_consumer" \
   "$(pkg-config --variable=libdir ufjit)/libufjit.a" \
   $(pkg-config --static --libs ufjit | sed 's/-lufjit//')
"$work/pc_static_consumer"
# The headers also compile as C++ (DLPack's rule for public headers).
if command -v g++ >/dev/null; then
    printf '#include <ufjit/ufjit.h>\nint main() { return uf_version() ? 0 : 1; }\n' \
        > "$work/cxx.cpp"
    g++ -std=c++17 -Wall -Werror $(pkg-config --cflags ufjit) "$work/cxx.cpp" \
        -o "$work/cxx" $(pkg-config --libs ufjit)
    LD_LIBRARY_PATH=$(pkg-config --variable=libdir ufjit) "$work/cxx"
fi
# The examples/ program: the seeds' kernels on 10 million elements.
cmake -S "$src/examples" -B "$work/ex" -DCMAKE_PREFIX_PATH="$work/prefix" \
      >/dev/null
cmake --build "$work/ex" >/dev/null
"$work/ex/seeds_demo" "$src/examples/seeds.py" 10000000
echo "consumer: find_package, pkg-config and examples/ builds work"
