# The tests of the CUDA targets' layer above the driver table (device
# arrays, the vectorize call path) carry the `cuda` label with the rest of
# the CUDA target's tests (scripts/gpu-kit.sh bundles that label).
foreach(t test_cuda_arrays)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES LABELS cuda)
  endif()
endforeach()

# The PTX disk cache through the real driver table over the fake libcuda
# (tests/cmake/cu_driver.cmake builds it).
if(TEST test_cuda_ptx_cache)
  add_dependencies(test_cuda_ptx_cache fake_cuda)
  target_compile_definitions(test_cuda_ptx_cache PRIVATE
    UF_FAKE_CUDA="${UF_FAKE_CUDA_PATH}")
  set_tests_properties(test_cuda_ptx_cache PROPERTIES LABELS cuda)
endif()
