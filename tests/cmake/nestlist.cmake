# Lists of lists (Numba's list(list(T))), nested list comprehensions,
# np.array of a list of lists and lists of tuples holding strings against
# Numba (tests/e2e/run_nestlist_oracle.py on tests/kernels/host/
# nestlist.py). Skipped (exit 77) without NumPy or Numba. test_nestlist
# checks leaks, out of memory and the keep descriptors through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME nestlist_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_nestlist_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME nestlist_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(nestlist_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
