# np.logspace, np.geomspace and np.kaiser inside kernels against
# Numba (tests/e2e/run_npspace_oracle.py on tests/kernels/host/npspace.py):
# int, float and complex bounds, num 0, 1 and negative, NaN and inf, zeros, M
# below 1, big beta: bit for bit. Skipped (exit 77) without
# NumPy or Numba. test_npspace checks the runtime, leaks and out of memory
# through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME npspace_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npspace_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npspace_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npspace_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)
