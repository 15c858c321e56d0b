# Python statements inside kernels (raise) against Numba
# (tests/e2e/run_lang_oracle.py on tests/kernels/host/lang.py): values,
# exception classes and messages, refusals at FILE:LINE:COL. Skipped (exit
# 77) without NumPy or Numba. test_lang checks messages, depth, leaks and
# out of memory through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME lang_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_lang_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME lang_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(lang_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
