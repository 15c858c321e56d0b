# np.histogram, np.cov and np.corrcoef inside kernels against Numba
# (tests/e2e/run_npstats_oracle.py on tests/kernels/host/npstats.py):
# dtypes, N-d and strided views, NaN and infinities (counts and edges
# compared bit for bit), a number of bins or edges, ranges, empty arrays
# and Numba's ValueErrors and TypingErrors; np.cov / np.corrcoef to
# 1e-12 of the largest magnitude (Numba sums in BLAS). Skipped (exit 77)
# without NumPy or Numba. test_npstats checks the runtime (common/npstats.c).
if(Python3_Interpreter_FOUND)
  add_test(NAME npstats_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npstats_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npstats_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npstats_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)
