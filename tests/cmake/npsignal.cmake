# np.convolve and np.correlate inside kernels against
# Numba (tests/e2e/run_npsignal_oracle.py on tests/kernels/host/npsignal.py):
# dtypes and their mixes, the three modes, either operand the longer, strided
# views, NaN and inf, empty operands and bad modes. Skipped (exit 77) without
# NumPy or Numba. test_npsignal checks the runtime, leaks and out of memory
# through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME npsignal_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npsignal_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npsignal_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npsignal_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)
