# np.eye, np.identity, np.diag, np.diagflat, np.trace, np.fill_diagonal,
# np.tril, np.triu, np.outer, np.kron and np.vander inside kernels against
# Numba (tests/e2e/run_npmatrix_oracle.py on tests/kernels/host/npmatrix.py):
# dtypes, shapes, exact values and errors over dtypes, N-d, F and strided
# views, empty arrays, NaN and inf. Skipped (exit 77) without NumPy
# or Numba. test_npmatrix checks layouts, leaks and out of memory through the
# C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME npmatrix_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npmatrix_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npmatrix_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npmatrix_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
