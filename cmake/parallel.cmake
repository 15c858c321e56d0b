# The parallel target's threading layers (targets/parallel/): OpenMP
# through libgomp for parallel_omp.c, oneTBB for parallel_tbb.cpp, the
# library's only C++ file. Either may be missing; the layer is then left
# out (parallel.c sees UFJIT_HAVE_OMP / UFJIT_HAVE_TBB) and the `serial`
# layer always remains.
#
# The libraries are linked by absolute path, as LLVM's are, so the
# installed package needs no find_dependency for the static library.
set(UFJIT_PARALLEL_LIBRARIES "")
set(UFJIT_PARALLEL_DIR ${PROJECT_SOURCE_DIR}/targets/parallel)

find_package(OpenMP COMPONENTS C)
if(OpenMP_C_FOUND)
  set_source_files_properties(${UFJIT_PARALLEL_DIR}/parallel_omp.c
    PROPERTIES COMPILE_OPTIONS "${OpenMP_C_FLAGS}")
  set_property(SOURCE ${UFJIT_PARALLEL_DIR}/parallel.c APPEND
               PROPERTY COMPILE_DEFINITIONS UFJIT_HAVE_OMP)
  # libgomp alone: glibc's pthread is in libc, and FindOpenMP's
  # libpthread.a is not for shared libraries.
  if(OpenMP_gomp_LIBRARY)
    list(APPEND UFJIT_PARALLEL_LIBRARIES ${OpenMP_gomp_LIBRARY})
  else()
    list(APPEND UFJIT_PARALLEL_LIBRARIES ${OpenMP_C_LIBRARIES})
  endif()
  message(STATUS "ufjit: omp threading layer (${OpenMP_C_FLAGS})")
else()
  message(STATUS "ufjit: OpenMP not found, no omp threading layer")
endif()

find_package(TBB CONFIG)
if(TARGET TBB::tbb)
  enable_language(CXX)
  set(CMAKE_CXX_STANDARD 17)
  set(CMAKE_CXX_STANDARD_REQUIRED ON)
  set(CMAKE_CXX_EXTENSIONS OFF)
  target_sources(ufjit_objects PRIVATE ${UFJIT_PARALLEL_DIR}/parallel_tbb.cpp)
  set_target_properties(ufjit_objects PROPERTIES CXX_VISIBILITY_PRESET hidden
                                                 VISIBILITY_INLINES_HIDDEN ON)
  target_include_directories(ufjit_objects SYSTEM PRIVATE
    $<TARGET_PROPERTY:TBB::tbb,INTERFACE_INCLUDE_DIRECTORIES>)
  set_property(SOURCE ${UFJIT_PARALLEL_DIR}/parallel.c APPEND
               PROPERTY COMPILE_DEFINITIONS UFJIT_HAVE_TBB)
  get_target_property(_uf_tbb_lib TBB::tbb LOCATION)
  # The C++ runtime by name: C programs link the static library with the C
  # compiler driver, which does not add it.
  list(APPEND UFJIT_PARALLEL_LIBRARIES ${_uf_tbb_lib} stdc++)
  message(STATUS "ufjit: tbb threading layer (${_uf_tbb_lib})")
else()
  message(STATUS "ufjit: oneTBB not found, no tbb threading layer")
endif()

foreach(t ufjit ufjit_static)
  target_link_libraries(${t} PRIVATE ${UFJIT_PARALLEL_LIBRARIES})
  set_target_properties(${t} PROPERTIES LINKER_LANGUAGE C)
endforeach()
