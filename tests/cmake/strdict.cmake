# Strings as dict keys and values, and lists of strings, inside kernels
# against Numba (tests/e2e/run_strdict_oracle.py on tests/kernels/host/
# strdict.py): word counting, string keys and values, dicts of strings
# across @njit calls, list-of-string methods, the refusals. Skipped (exit
# 77) without NumPy or Numba. test_strdict checks the runtime's leaks.
if(Python3_Interpreter_FOUND)
  add_test(NAME strdict_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_strdict_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME strdict_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(strdict_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
