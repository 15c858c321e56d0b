# Lists whose items are arrays (Numba's list(array)) against Numba
# (tests/e2e/run_listarr_oracle.py on tests/kernels/host/listarr.py): append,
# [] refined by append, indexing with its IndexErrors, for/in/sum/min/max,
# np.array(l), aliasing, lists passed between @njit functions, and the
# refusals. Skipped (exit 77) without NumPy or Numba. test_lists checks
# leaks, out of memory and the refusals through the C API.
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
