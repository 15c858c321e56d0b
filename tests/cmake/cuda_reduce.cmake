# Reductions on the CUDA targets (reduce/reduce_cuda.c,
# compiler/nvvm/nvvm_reduce.c): on cudasim, their PTX, and the reduce
# tests again on a GPU (target `cuda`, skipped with exit 77 where there is
# no driver and no UFJIT_ENABLE_CUDASIM=1), as cuda_launch.cmake does.
foreach(t test_cuda_reduce test_nvvm_reduce)
  set_tests_properties(${t} PROPERTIES LABELS cuda)
endforeach()
add_test(NAME test_cuda_reduce_gpu COMMAND test_cuda_reduce)
set_tests_properties(test_cuda_reduce_gpu PROPERTIES LABELS cuda
  ENVIRONMENT UFJIT_TEST_CUDA_TARGET=cuda SKIP_RETURN_CODE 77)
# uf_accumulate / uf_outer and uf_reduce's device out= on the CUDA targets
# (reduce/accumulate_cuda.c, reduce/outer.c, reduce/reduce_cuda.c): on
# cudasim, and again on a GPU as above.
foreach(t test_cuda_accumulate test_cuda_reduce_out)
  set_tests_properties(${t} PROPERTIES LABELS cuda)
  add_test(NAME ${t}_gpu COMMAND ${t})
  set_tests_properties(${t}_gpu PROPERTIES LABELS cuda
    ENVIRONMENT UFJIT_TEST_CUDA_TARGET=cuda SKIP_RETURN_CODE 77)
endforeach()
