# bench_gu_transpose smoke: the A/B program of the transposed-rows gufunc
# variant (bench/bench_gu_transpose.c) on a tiny odd shape, which also
# checks that its four variants (rule and transposed, host vectors and
# AVX2) give the same bytes. Timings are not checked.
add_test(NAME bench_gu_transpose_smoke
  COMMAND bench_gu_transpose 1 8 13 21)
set_tests_properties(bench_gu_transpose_smoke PROPERTIES TIMEOUT 120
  PASS_REGULAR_EXPRESSION "load average"
  FAIL_REGULAR_EXPRESSION "differs")

# The spec variants' Numba oracle (gufunc_spec.cmake's script) with the
# transposed rows asked for: the same bytes as Numba's guvectorize.
if(Python3_Interpreter_FOUND)
  add_test(NAME gufunc_transpose_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            UFJIT_GUFUNC_JAM=always UFJIT_GUFUNC_TRANSPOSE=always
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_gufunc_spec_oracle.py
            $<TARGET_FILE:ufjit_cli>)
  set_tests_properties(gufunc_transpose_numba_oracle
                       PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
