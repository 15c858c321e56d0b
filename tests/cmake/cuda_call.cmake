# The vectorize call path on the CUDA targets (ufunc/cuda_call.c) and the
# device arrays under it: cudasim against cpu, and the real driver table
# through the fake libcuda (tests/cuda/) for the driver's failures.
foreach(t test_cuda_arrays test_cuda_vectorize)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES LABELS cuda)
  endif()
endforeach()
