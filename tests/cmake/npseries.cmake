# numpy.polynomial.polyutils.as_series inside kernels against Numba
# (tests/e2e/run_npseries_oracle.py on tests/kernels/host/npseries.py):
# 1-D and 2-D arrays of every kind, views, tuples of arrays and numbers,
# trim, the run-time errors and the forms Numba refuses. Skipped (exit
# 77) without NumPy or Numba.
if(Python3_Interpreter_FOUND)
  add_test(NAME npseries_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npseries_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npseries_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npseries_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)
