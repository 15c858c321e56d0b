# np.nanargmin / np.nanargmax, np.count_nonzero and np.ptp inside kernels
# against Numba (tests/e2e/run_npextra_oracle.py on
# tests/kernels/host/npextra.py): dtypes, shapes and values exact, Numba's
# exceptions; skipped (exit 77) without NumPy or Numba. test_npextra
# checks 0-d arrays and the typing through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME npextra_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/e2e/run_npextra_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npextra_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npextra_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)
