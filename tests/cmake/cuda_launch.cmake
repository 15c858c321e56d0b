# cuda.jit kernels (launch/, compiler/nvvm/nvvm_cukernel.c): uf_launch on
# cudasim and their PTX; the launch tests again on a GPU (target `cuda`,
# skipped with exit 77 where there is no driver and no
# UFJIT_ENABLE_CUDASIM=1), as cuda_call.cmake does for vectorize.
foreach(t test_cuda_launch test_nvvm_cukernel)
  set_tests_properties(${t} PROPERTIES LABELS cuda)
endforeach()
add_test(NAME test_cuda_launch_gpu COMMAND test_cuda_launch)
set_tests_properties(test_cuda_launch_gpu PROPERTIES LABELS cuda
  ENVIRONMENT UFJIT_TEST_CUDA_TARGET=cuda SKIP_RETURN_CODE 77)
