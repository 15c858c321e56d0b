# The tests of the CUDA targets' layer above the driver table (device
# arrays, the vectorize call path) carry the `cuda` label with the rest of
# the CUDA target's tests (scripts/gpu-kit.sh bundles that label).
foreach(t test_cuda_arrays)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES LABELS cuda)
  endif()
endforeach()
