# CUDA events (tests/test_cuda_events.c): on cudasim, and on a GPU
# (*_gpu, skipped with exit 77 without one; scripts/gpu-check.sh runs it).
set_tests_properties(test_cuda_events PROPERTIES LABELS cuda)
add_test(NAME test_cuda_events_gpu COMMAND test_cuda_events)
set_tests_properties(test_cuda_events_gpu PROPERTIES LABELS cuda
  ENVIRONMENT "UFJIT_TEST_CUDA_TARGET=cuda" SKIP_RETURN_CODE 77)
