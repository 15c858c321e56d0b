# The cudasim tests (targets/cudasim/: the in-process CUDA driver) carry
# the `cuda` label with the rest of the CUDA target's tests.
foreach(t test_cudasim_memory test_cudasim_launch test_cudasim_stream
        test_gufunc_cuda)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES LABELS cuda)
  endif()
endforeach()
