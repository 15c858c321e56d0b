# Loops over homogeneous tuples and np.split, np.array_split, np.hsplit,
# np.vsplit, np.dsplit inside kernels against Numba
# (tests/e2e/run_npsplit_oracle.py on tests/kernels/host/npsplit.py):
# parts' dtypes, shapes and values over 1-d to 3-d arrays, every axis,
# uneven sections, clipped indices, strided views, and Numba's errors.
# Skipped (exit 77) without NumPy or Numba. test_npsplit checks views,
# leaks and refusals through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME npsplit_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npsplit_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npsplit_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npsplit_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
