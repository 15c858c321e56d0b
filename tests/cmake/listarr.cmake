# Lists whose items are arrays (Numba's list(array(...))) against Numba
# (tests/e2e/run_listarr_oracle.py on tests/kernels/host/listarr.py):
# append, literals, comprehensions, the list methods, IndexErrors, lists
# through @njit callees, np.split / np.array_split with a run-time section
# count, and the refusals (np.concatenate / np.stack / np.vstack / sum /
# np.array of such a list: TypingError in Numba too). Skipped (exit 77)
# without NumPy or Numba. test_listarr checks leaks, out of memory and
# items outliving their variables through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME listarr_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_listarr_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME listarr_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(listarr_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
