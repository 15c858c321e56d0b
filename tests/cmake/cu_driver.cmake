# The real CUDA driver table (targets/cuda/cu_driver_real.c) against a fake
# libcuda built here (tests/cuda/fake_libcuda*.c): libfake_cuda.so, and
# libfake_cuda_nomalloc.so lacking cuMemAlloc_v2 for the missing-symbol
# path. Both are loaded with dlopen through UFJIT_CUDA_DRIVER, never linked.
# Tests labelled "cuda"; the CLI one shows sysinfo's CUDA section.
find_package(Threads REQUIRED)
foreach(variant fake_cuda fake_cuda_nomalloc)
  add_library(${variant} SHARED ${UF_TEST_SOURCE_DIR}/cuda/fake_libcuda.c
                              ${UF_TEST_SOURCE_DIR}/cuda/fake_libcuda_memory.c)
  target_include_directories(${variant} PRIVATE ${PROJECT_SOURCE_DIR}
                                                ${PROJECT_SOURCE_DIR}/include)
  target_compile_definitions(${variant} PRIVATE _GNU_SOURCE)
  target_link_libraries(${variant} PRIVATE Threads::Threads)
endforeach()
target_compile_definitions(fake_cuda_nomalloc PRIVATE FAKE_CUDA_OMIT_MEM_ALLOC)
# Their paths as plain strings, not generator expressions: the GPU kit
# (cmake/kit.cmake) rewrites build-tree paths in definitions to relative
# ones, and it sees only what configuring wrote.
set(UF_FAKE_CUDA_PATH
    ${CMAKE_CURRENT_BINARY_DIR}/${CMAKE_SHARED_LIBRARY_PREFIX}fake_cuda${CMAKE_SHARED_LIBRARY_SUFFIX})
set(UF_FAKE_CUDA_NOMALLOC_PATH
    ${CMAKE_CURRENT_BINARY_DIR}/${CMAKE_SHARED_LIBRARY_PREFIX}fake_cuda_nomalloc${CMAKE_SHARED_LIBRARY_SUFFIX})

add_dependencies(test_cu_driver_real fake_cuda fake_cuda_nomalloc)
target_compile_definitions(test_cu_driver_real PRIVATE
  UF_FAKE_CUDA="${UF_FAKE_CUDA_PATH}"
  UF_FAKE_CUDA_NOMALLOC="${UF_FAKE_CUDA_NOMALLOC_PATH}")
# Eight threads race to load the driver: in `make tsan` too.
set_tests_properties(test_cu_driver_real PROPERTIES LABELS "cuda;concurrency")
add_dependencies(concurrency_tests test_cu_driver_real)

# ufjit sysinfo's CUDA section with the fake driver, and without one.
add_test(NAME cli_sysinfo_cuda
  COMMAND bash ${UF_TEST_SOURCE_DIR}/cli/cli_sysinfo_cuda.sh
          $<TARGET_FILE:ufjit_cli> $<TARGET_FILE:fake_cuda>)
set_tests_properties(cli_sysinfo_cuda PROPERTIES LABELS cuda)
