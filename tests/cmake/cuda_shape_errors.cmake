# test_cuda_shape_errors runs on cudasim here; the same test on a GPU
# (scripts/gpu-check.sh runs the tests labelled cuda there) with target
# `cuda`, skipped (exit 77) where there is no driver.
if(TEST test_cuda_shape_errors)
  set_tests_properties(test_cuda_shape_errors PROPERTIES LABELS cuda)
  add_test(NAME test_cuda_shape_errors_gpu COMMAND test_cuda_shape_errors)
  set_tests_properties(test_cuda_shape_errors_gpu PROPERTIES LABELS cuda
    ENVIRONMENT UFJIT_TEST_CUDA_TARGET=cuda SKIP_RETURN_CODE 77)
endif()
