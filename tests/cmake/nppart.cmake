# np.partition and np.argpartition inside kernels against Numba
# (tests/e2e/run_nppart_oracle.py on tests/kernels/host/nppart.py): element
# for element over every real dtype, many random rows with duplicates, NaN
# and infinities, N-d, F and strided views, kth forms and errors. Skipped
# (exit 77) without NumPy or Numba. test_nppart checks the runtime, leaks
# and out of memory through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME nppart_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_nppart_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME nppart_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(nppart_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
