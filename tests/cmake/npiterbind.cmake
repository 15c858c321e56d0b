# np.nancumsum, np.nancumprod, np.diff and np.average inside kernels against
# Numba (tests/e2e/run_npiterbind_oracle.py on tests/kernels/host/npiterbind.py):
# dtypes, shapes, values and errors over each dtype, N-d, F and strided
# views, empty and 0-d arrays, NaN and inf. Skipped (exit 77) without NumPy
# or Numba. test_npiterbind checks layouts, leaks and out of memory through the
# C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME npiterbind_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npiterbind_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npiterbind_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npiterbind_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
