# Interop (interop/): the CUDA Array Interface on cudasim, and on a GPU
# (*_gpu, run by scripts/gpu-check.sh; skipped with exit 77 without one),
# as cuda_call.cmake does.
foreach(t test_interop_cai)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES LABELS cuda)
    add_test(NAME ${t}_gpu COMMAND ${t})
    set_tests_properties(${t}_gpu PROPERTIES LABELS cuda
      ENVIRONMENT UFJIT_TEST_CUDA_TARGET=cuda SKIP_RETURN_CODE 77)
  endif()
endforeach()
# the import's benchmark, as a smoke test (timings are printed, not asserted)
add_test(NAME bench_cai_import_smoke COMMAND bench_cai_import 2000)
set_tests_properties(bench_cai_import_smoke PROPERTIES LABELS "cuda;bench")
