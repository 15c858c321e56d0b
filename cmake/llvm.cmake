# LLVM 14 (Debian's llvm-14-dev): the one version whose output libnvvm
# accepts (TOOLCHAIN.md), through the shared libLLVM-14.so. The compiler
# uses its C API, plus two small C++ files on LLVM's own API for what
# LLVM-C 14 lacks (fast-math flags, code-generation options: compiler/
# llvm_fastmath.cpp, llvm_options.cpp), built without RTTI or exceptions
# as LLVM is.
find_package(LLVM 14 REQUIRED CONFIG
             HINTS /usr/lib/llvm-14/lib/cmake/llvm /usr/lib/llvm-14)
message(STATUS "ufjit: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
find_library(UFJIT_LLVM_SHARED NAMES LLVM-14 LLVM
             HINTS ${LLVM_LIBRARY_DIR} REQUIRED NO_DEFAULT_PATH)
set(UFJIT_LLVM_INCLUDE_DIRS ${LLVM_INCLUDE_DIRS})
set(UFJIT_LLVM_LIBRARIES ${UFJIT_LLVM_SHARED})
set(UFJIT_LLVM_VERSION ${LLVM_PACKAGE_VERSION})
