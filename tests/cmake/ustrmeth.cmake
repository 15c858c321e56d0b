# String methods with Unicode case mapping and classes against Numba
# (tests/e2e/run_ustrmeth_oracle.py on tests/kernels/host/ustrmeth.py).
# Skipped (exit 77) without NumPy or Numba. test_ustr_unicode checks the
# Unicode records against a sample of Numba's answers.
if(Python3_Interpreter_FOUND)
  add_test(NAME ustrmeth_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_ustrmeth_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME ustrmeth_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(ustrmeth_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
