# prange in njit(parallel=True) functions against Numba's parallel=True
# (tests/e2e/run_prange_oracle.py on tests/kernels/host/prange.py and
# prange_reduce.py): each case through `ufjit call --threads 1, 2, 7` (the
# same bits) and Numba;
# skipped (exit 77) without NumPy or Numba. test_prange checks values,
# thread counts, errors and out of memory through the C API; it runs once
# more on the OpenMP layer where it is built, as does test_prange_reduce
# (array and /= reductions, the per-iteration sweep of a prange body).
if(Python3_Interpreter_FOUND)
  add_test(NAME prange_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/e2e/run_prange_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME prange_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(prange_numba_oracle PROPERTIES SKIP_RETURN_CODE 77
                     TIMEOUT 600)

if(TEST test_prange AND OpenMP_C_FOUND)
  add_test(NAME test_prange_omp COMMAND test_prange)
  set_tests_properties(test_prange_omp PROPERTIES
    ENVIRONMENT UFJIT_THREADING_LAYER=omp)
endif()
if(TEST test_prange_reduce AND OpenMP_C_FOUND)
  add_test(NAME test_prange_reduce_omp COMMAND test_prange_reduce)
  set_tests_properties(test_prange_reduce_omp PROPERTIES
    ENVIRONMENT UFJIT_THREADING_LAYER=omp)
endif()
