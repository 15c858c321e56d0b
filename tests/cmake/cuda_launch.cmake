# cuda.jit kernels (launch/, compiler/nvvm/nvvm_cukernel.c): uf_launch on
# cudasim and their PTX; the launch tests again on a GPU (target `cuda`,
# skipped with exit 77 where there is no driver and no
# UFJIT_ENABLE_CUDASIM=1), as cuda_call.cmake does for vectorize.
foreach(t test_cuda_launch test_cuda_shared test_cuda_atomics test_cuda_random
          test_cuda_forall test_cuda_warp test_nvvm_cukernel test_cuda_link
          test_nvvm_link)
  set_tests_properties(${t} PROPERTIES LABELS cuda)
endforeach()
foreach(t test_cuda_launch test_cuda_shared test_cuda_atomics test_cuda_random
          test_cuda_forall test_cuda_warp test_cuda_link)
  add_test(NAME ${t}_gpu COMMAND ${t})
  set_tests_properties(${t}_gpu PROPERTIES LABELS cuda
    ENVIRONMENT UFJIT_TEST_CUDA_TARGET=cuda SKIP_RETURN_CODE 77)
endforeach()
