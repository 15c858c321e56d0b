# LLVM 14 (Debian's llvm-14-dev): the one version whose output libnvvm
# accepts (TOOLCHAIN.md). We use only its C API, through the shared
# libLLVM-14.so, so nothing of LLVM's C++ side leaks into our build.
find_package(LLVM 14 REQUIRED CONFIG
             HINTS /usr/lib/llvm-14/lib/cmake/llvm /usr/lib/llvm-14)
message(STATUS "ufjit: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
find_library(UFJIT_LLVM_SHARED NAMES LLVM-14 LLVM
             HINTS ${LLVM_LIBRARY_DIR} REQUIRED NO_DEFAULT_PATH)
set(UFJIT_LLVM_INCLUDE_DIRS ${LLVM_INCLUDE_DIRS})
set(UFJIT_LLVM_LIBRARIES ${UFJIT_LLVM_SHARED})
set(UFJIT_LLVM_VERSION ${LLVM_PACKAGE_VERSION})
