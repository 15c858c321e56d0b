# Array methods inside kernels against Numba
# (tests/e2e/run_array_methods_oracle.py on tests/kernels/host/array_methods.py):
# copies, reshapes, fill, cumsum/cumprod, sorts, searchsorted and np.round,
# their dtypes, shapes, values and errors; the CUDA targets' refusals.
# Skipped (exit 77) without NumPy or Numba. test_array_methods checks
# layouts, leaks and out of memory through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME array_methods_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_array_methods_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME array_methods_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(array_methods_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
