# Python language features inside kernels against Numba
# (tests/e2e/run_closure_oracle.py on tests/kernels/host/closure.py): an
# augmented assignment's subscript evaluated once (counted calls, seeded
# random draws), closures, `is`. Skipped (exit 77) without NumPy or Numba.
# test_closure checks the same through the C API, leaks included.
if(Python3_Interpreter_FOUND)
  add_test(NAME closure_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_closure_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME closure_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(closure_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
