# Module-level arrays in cuda.jit kernels (cuda.const.array_like): the
# launches on cudasim and again on a GPU (target `cuda`, skipped with exit
# 77 where there is no driver), as cuda_launch.cmake does; their PTX.
foreach(t test_cuda_constarr test_nvvm_constarr)
  set_tests_properties(${t} PROPERTIES LABELS cuda)
endforeach()
add_test(NAME test_cuda_constarr_gpu COMMAND test_cuda_constarr)
set_tests_properties(test_cuda_constarr_gpu PROPERTIES LABELS cuda
  ENVIRONMENT UFJIT_TEST_CUDA_TARGET=cuda SKIP_RETURN_CODE 77)
