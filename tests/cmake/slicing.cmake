# Basic slicing and views inside kernels against Numba
# (tests/e2e/run_slicing_oracle.py on tests/kernels/slicing.py and
# slicing_errors.py): njit and guvectorize through `ufjit call`, compared
# bit for bit; skipped (exit 77) without NumPy or Numba. test_slicing
# checks the same constructs through the C API with expectations of its
# own.
if(Python3_Interpreter_FOUND)
  add_test(NAME slicing_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/e2e/run_slicing_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME slicing_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(slicing_numba_oracle PROPERTIES SKIP_RETURN_CODE 77
                     TIMEOUT 600)
