# np.nonzero / np.where(cond) / np.flatnonzero / np.argwhere / np.extract
# / np.unique inside kernels against Numba
# (tests/e2e/run_npfind_oracle.py on tests/kernels/host/npfind.py):
# every dtype, N-d, F and strided views, NaN and signed zeros, numbers
# and tuples, empty arrays, np.extract's errors and the forms Numba
# refuses. Skipped (exit 77) without NumPy or Numba.
# test_npfind checks the runtime itself (common/npfind.c).
if(Python3_Interpreter_FOUND)
  add_test(NAME npfind_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npfind_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npfind_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npfind_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)
