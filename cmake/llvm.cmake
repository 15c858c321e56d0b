# LLVM 14 (Debian's llvm-14-dev): the one version whose output libnvvm
# accepts (TOOLCHAIN.md), through the shared libLLVM-14.so. The compiler
# uses its C API, plus two small C++ files on LLVM's own API for what
# LLVM-C 14 lacks (fast-math flags, code-generation options: compiler/
# llvm_fastmath.cpp, llvm_options.cpp), built without RTTI or exceptions
# as LLVM is.
#
# UFJIT_STATIC_LLVM=ON links LLVM's static component libraries instead, so
# the programs run where no LLVM is installed (the GPU kit, scripts/
# gpu-kit.sh). zlib and terminfo are linked statically too where their .a
# files exist; what remains is libc, libstdc++ and libgcc_s.
option(UFJIT_STATIC_LLVM "Link LLVM's static component libraries" OFF)
find_package(LLVM 14 REQUIRED CONFIG
             HINTS /usr/lib/llvm-14/lib/cmake/llvm /usr/lib/llvm-14)
message(STATUS "ufjit: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
set(UFJIT_LLVM_INCLUDE_DIRS ${LLVM_INCLUDE_DIRS})
set(UFJIT_LLVM_VERSION ${LLVM_PACKAGE_VERSION})

if(NOT UFJIT_STATIC_LLVM)
  find_library(UFJIT_LLVM_SHARED NAMES LLVM-14 LLVM
               HINTS ${LLVM_LIBRARY_DIR} REQUIRED NO_DEFAULT_PATH)
  set(UFJIT_LLVM_LIBRARIES ${UFJIT_LLVM_SHARED})
  return()
endif()

# What the compiler uses: ORC's LLJIT, the host (x86) and CUDA (nvptx)
# code generators, the new pass manager, bitcode in and out, textual IR,
# module linking (libdevice). Not the perf listener (component
# perfjitevents, which pulls in the DWARF reader and more): the static
# build (the GPU kit, which must stay small) compiles
# UFJIT_ENABLE_PROFILING out.
set(UFJIT_LLVM_COMPONENTS orcjit x86 nvptx passes ipo bitwriter bitreader
    irreader linker analysis core support)
add_compile_definitions(UFJIT_NO_PERF_LISTENER)
find_program(UFJIT_LLVM_CONFIG NAMES llvm-config-14 llvm-config
             HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH REQUIRED)
execute_process(COMMAND ${UFJIT_LLVM_CONFIG} --link-static --libfiles
                        ${UFJIT_LLVM_COMPONENTS}
                OUTPUT_VARIABLE _uf_llvm_libs OUTPUT_STRIP_TRAILING_WHITESPACE
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${UFJIT_LLVM_CONFIG} --link-static --system-libs
                OUTPUT_VARIABLE _uf_llvm_sys OUTPUT_STRIP_TRAILING_WHITESPACE
                COMMAND_ERROR_IS_FATAL ANY)
separate_arguments(_uf_llvm_libs UNIX_COMMAND "${_uf_llvm_libs}")
separate_arguments(_uf_llvm_sys UNIX_COMMAND "${_uf_llvm_sys}")

# llvm-config names every library LLVM's build could use. z3 (the static
# analyser's solver) and libxml2 (Windows manifests) are only reached from
# members these components never pull in, so they are left out rather than
# carried; zlib and terminfo are taken as .a files when Debian ships them.
set(_uf_sys "")
foreach(lib ${_uf_llvm_sys})
  if(lib MATCHES "z3|xml2")
    continue()
  elseif(lib MATCHES "^-l(z|tinfo)$")
    set(_name ${CMAKE_MATCH_1})
    find_library(UFJIT_STATIC_${_name} NAMES lib${_name}.a)
    if(UFJIT_STATIC_${_name})
      # programs only: Debian's .a files are not position-independent, so
      # the shared libufjit takes the .so (the type is the linking target's)
      list(APPEND _uf_sys "$<IF:$<STREQUAL:$<TARGET_PROPERTY:TYPE>,SHARED_LIBRARY>,${_name},${UFJIT_STATIC_${_name}}>")
    else()
      list(APPEND _uf_sys ${_name})
    endif()
  elseif(lib MATCHES "^-l(.*)$")
    list(APPEND _uf_sys ${CMAKE_MATCH_1})
  else()
    list(APPEND _uf_sys ${lib})
  endif()
endforeach()
# LLVM is C++: the C compiler driver that links ufjit's C programs does not
# add its runtime.
set(UFJIT_LLVM_LIBRARIES ${_uf_llvm_libs} ${_uf_sys} stdc++)
list(LENGTH _uf_llvm_libs _uf_n)
message(STATUS "ufjit: static LLVM, ${_uf_n} component libraries; "
               "system: ${_uf_sys}")
