# np.cross, np.unwrap and np.select inside kernels against Numba
# (tests/e2e/run_npcross_oracle.py on tests/kernels/host/npcross.py):
# dtypes and their mixes, 2- and 3-vectors, broadcast leading axes, F and
# strided views, empty arrays, NaN and inf, and Numba's errors. Skipped
# (exit 77) without NumPy or Numba. test_npcross checks layouts, leaks and
# out of memory through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME npcross_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npcross_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npcross_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npcross_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)
