# np.array of a list filled by one loop, lowered without the list
# (lower_arraycall.c) against Numba (tests/e2e/run_arraycall_oracle.py on
# tests/kernels/host/arraycall.py): dtypes, iterables, the forms that
# keep the list. Skipped (exit 77) without NumPy or Numba.
# test_arraycall checks leaks and out of memory through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME arraycall_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_arraycall_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME arraycall_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(arraycall_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
